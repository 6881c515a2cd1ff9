// New leads given out by a rule (issue 25, docs/leads.md "Who answers a
// lead") and the staff's comments on a lead: the owner gives a manager an
// e-mail and working hours of their own, turns on "По очереди между
// менеджерами на смене", and a visitor's request lands with that manager;
// the manager comments on it. The rule is put back to "none" at once: the
// other files share this server.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations } from "./a11y.mjs";
import {
  ADMIN,
  apiSession,
  createStaff,
  keepSettings,
  loginViaForm,
  mark,
} from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

const WEEKDAYS = [
  "Понедельник",
  "Вторник",
  "Среда",
  "Четверг",
  "Пятница",
  "Суббота",
  "Воскресенье",
];
const ALL_DAY = { days: WEEKDAYS.map(() => ({ open: "00:00", close: "23:59" })) };
const OFF = { days: WEEKDAYS.map(() => null) };
const MANAGER_NAME = "Пётр Сменный";
const COMMENT = "Перезвонил, договорились о визите";

let s;
let owner;
let manager;
let managerId;
let settings;
/** The lead the rule gave out, shared by the journeys. */
let lead;
const leads = [];
/** Other managers at work, off duty for this file (their hours put back after). */
const offDuty = [];

before(async () => {
  s = await start();
  owner = await apiSession(s.base);
  settings = await keepSettings(owner, ["leadAssignment"]);
  manager = createStaff(s.data, mark("rota"), "manager");
  const users = await owner.get("/api/admin/users");
  managerId = users.find((u) => u.username === manager.login).id;
  // Only this file's manager may be picked: any other active manager left
  // on the shared server gets days off until the end.
  for (const u of users) {
    if (u.id === managerId || u.role !== "manager" || u.blockedAt) continue;
    offDuty.push({ id: u.id, workSchedule: u.workSchedule ?? null });
    await owner.put(`/api/admin/users/${u.id}`, { workSchedule: OFF });
  }
});

after(async () => {
  await settings?.restore();
  for (const u of offDuty) {
    await owner.put(`/api/admin/users/${u.id}`, { workSchedule: u.workSchedule }, { ok: false });
  }
  for (const id of leads) await owner?.del(`/api/leads/${id}`, { ok: false });
  manager?.remove();
  await s?.stop();
});

/** A visitor's request, as the site's forms send it. */
async function postLead(name) {
  const r = await fetch(`${s.base}/api/leads`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "contact_form", name, phone: "+7 921 555-12-34", consent: true }),
  });
  assert.equal(r.status, 201, await r.clone().text());
  const created = await r.json();
  leads.push(created.id);
  return created;
}

const userRow = (page, login) => page.locator(`[data-testid="user-row"][data-username="${login}"]`);
const leadRow = (page, name) => page.getByTestId("lead-row").filter({ hasText: name });

describe("leads given out by a rule, and comments", () => {
  it("the owner sets a manager's e-mail and own hours, turns the rotation on, and a new lead goes to them", async () => {
    const page = await s.open(DESKTOP);
    await loginViaForm(page, s.base, "/admin/users", ADMIN);
    const row = userRow(page, manager.login);
    await row.waitFor();
    assert.equal(await row.getByTestId("user-open-leads").innerText(), "0");
    assert.equal(await row.getByTestId("user-hours").count(), 0);

    await row.getByRole("button", { name: `Изменить пользователя ${manager.login}` }).click();
    const dialog = page.getByTestId("user-edit-dialog");
    await dialog.waitFor();
    assert.ok(await dialog.getByLabel("Как у салона").isChecked());
    const email = `${manager.login}@example.ru`;
    await dialog.getByLabel("Имя").fill(MANAGER_NAME);
    await dialog.getByLabel("E-mail").fill(email);
    await dialog.getByLabel("Свои часы").check();
    const hours = dialog.getByTestId("user-schedule");
    await hours.waitFor();
    for (const [i, day] of WEEKDAYS.entries()) {
      const line = hours.getByTestId(`schedule-day-${i}`);
      const off = line.getByLabel("Выходной");
      if (await off.isChecked()) await off.uncheck();
      await line.getByLabel(`${day}: открытие`).fill("00:00");
      await line.getByLabel(`${day}: закрытие`).fill("23:59");
    }
    await expectNoViolations(page, "the edit dialog with own hours");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await page.getByTestId("toast").filter({ hasText: "Учётная запись изменена" }).waitFor();
    await dialog.waitFor({ state: "detached" });
    await row.getByTestId("user-email").filter({ hasText: email }).waitFor();
    assert.equal(await row.getByTestId("user-hours").innerText(), "свои часы");
    const saved = (await owner.get("/api/admin/users")).find((u) => u.id === managerId);
    assert.equal(saved.email, email);
    assert.deepEqual(saved.workSchedule, ALL_DAY);

    try {
      await page.goto(`${s.base}/admin/settings`);
      const rule = page.getByLabel("Распределение новых заявок");
      await rule.waitFor();
      assert.equal(await rule.inputValue(), "none");
      await rule.selectOption({ label: "По очереди между менеджерами на смене" });
      await page.getByRole("button", { name: "Сохранить", exact: true }).click();
      await page.getByTestId("toast").filter({ hasText: "Настройки сохранены" }).waitFor();
      assert.equal((await owner.get("/api/admin/settings")).leadAssignment, "round_robin");

      const name = `Ротация ${mark()}`;
      lead = await postLead(name);
      await page.goto(`${s.base}/admin/leads`);
      await leadRow(page, name).waitFor();
      assert.equal(
        await leadRow(page, name).getByTestId("lead-assignee").innerText(),
        `Ответственный: ${MANAGER_NAME}`,
      );
    } finally {
      // Rotation off before anything else can fail.
      await settings.restore();
    }
    assert.equal(
      (await owner.get("/api/admin/settings")).leadAssignment,
      settings.saved.leadAssignment ?? "none",
    );

    await page.goto(`${s.base}/admin/users`);
    assert.equal(await row.getByTestId("user-open-leads").innerText(), "1");
    await page.close();
  });

  it("the manager comments on their lead; an empty comment is refused at the field", async () => {
    assert.ok(lead, "the first journey gave out a lead");
    const page = await s.open(DESKTOP);
    await loginViaForm(page, s.base, "/admin/leads", manager);
    const row = leadRow(page, lead.name);
    await row.waitFor();
    await row.getByRole("button", { name: `Подробнее о заявке: ${lead.name}` }).click();
    const details = page.getByTestId("lead-details");
    const comments = details.getByTestId("lead-comments");
    await comments.getByText("Комментариев пока нет").waitFor();

    const field = comments.getByLabel("Новый комментарий");
    assert.equal(await field.getAttribute("maxlength"), "2000");
    await comments.getByRole("button", { name: "Добавить комментарий" }).click();
    await comments.locator(".field-error").filter({ hasText: "Напишите комментарий" }).waitFor();
    assert.equal(await field.getAttribute("aria-invalid"), "true");
    const described = (await field.getAttribute("aria-describedby")) ?? "";
    const errorId = await comments.locator(".field-error").getAttribute("id");
    assert.ok(described.split(" ").includes(errorId), `${described} names ${errorId}`);

    await field.fill(COMMENT);
    await comments.getByRole("button", { name: "Добавить комментарий" }).click();
    const item = comments.getByTestId("lead-comment");
    await item.first().waitFor();
    assert.equal(await item.count(), 1);
    assert.equal(await item.getByTestId("lead-comment-author").innerText(), MANAGER_NAME);
    assert.equal(await item.getByTestId("lead-comment-body").innerText(), COMMENT);
    assert.match(await item.locator("time").innerText(), /\d{4}.*\d{2}:\d{2}$/);
    assert.equal(await field.inputValue(), "");
    assert.equal(await comments.getByText("Комментариев пока нет").count(), 0);
    await expectNoViolations(page, "the lead details with comments");

    const stored = await owner.get(`/api/leads/${lead.id}/comments`);
    assert.equal(stored.length, 1);
    assert.equal(stored[0].body, COMMENT);
    assert.equal(stored[0].authorId, managerId);
    await page.close();
  });
});
