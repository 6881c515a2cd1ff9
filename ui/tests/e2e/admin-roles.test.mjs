// Staff roles in the admin panel (issue 25, docs/admin.md "Roles"): a sales
// manager and a content editor, made on the server's command line, log in
// through the form; each sees only the sections and buttons of the role, a
// typed address of another section is refused in words, and a forged call
// from the manager's own page is refused by the server.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations } from "./a11y.mjs";
import { apiSession, createStaff, loginViaForm, mark } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

let s;
let manager;
let second;
let editor;
const leads = [];
before(async () => {
  s = await start();
  manager = createStaff(s.data, mark("manager"), "manager");
  second = createStaff(s.data, mark("second"), "manager");
  editor = createStaff(s.data, mark("editor"), "editor");
});
after(async () => {
  const owner = await apiSession(s.base);
  for (const id of leads) await owner.del(`/api/leads/${id}`, { ok: false });
  manager?.remove();
  second?.remove();
  editor?.remove();
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
  const lead = await r.json();
  leads.push(lead.id);
  return lead;
}

const NOT_ALLOWED = "Недостаточно прав: вашей роли этот раздел недоступен";

async function sections(page) {
  const nav = page.getByRole("navigation", { name: "Разделы администрирования" });
  await nav.waitFor();
  return (await nav.getByRole("link").allInnerTexts()).map((t) => t.trim());
}

describe("staff roles", () => {
  it("a manager sees leads and a read-only catalogue, and is refused the rest", async () => {
    const page = await s.open(DESKTOP);
    await loginViaForm(page, s.base, "/admin", manager);
    await page.getByRole("heading", { level: 1 }).waitFor();
    assert.match(await page.getByTestId("admin-user").innerText(), /Менеджер по продажам/);
    const links = await sections(page);
    for (const wanted of ["Заявки", "Автомобили"])
      assert.ok(
        links.some((l) => l.startsWith(wanted)),
        `${wanted} in ${links}`,
      );
    for (const hidden of ["Настройки", "Парсер", "Баннеры", "amoCRM", "Подписки на подборки"]) {
      assert.ok(!links.some((l) => l.startsWith(hidden)), `${hidden} is not in ${links}`);
    }

    await page.goto(`${s.base}/admin/cars`);
    await page.getByRole("heading", { level: 1, name: "Автомобили" }).waitFor();
    const cards = page.getByTestId("car-card");
    await cards.first().waitFor();
    assert.equal(await page.getByRole("button", { name: "Добавить автомобиль" }).count(), 0);
    assert.equal(
      await cards
        .first()
        .getByRole("button", { name: /^(Удалить|Изменить) / })
        .count(),
      0,
    );

    await page.goto(`${s.base}/admin/settings`);
    await page.getByTestId("not-allowed").waitFor();
    assert.ok((await page.getByTestId("not-allowed").innerText()).includes(NOT_ALLOWED));
    await expectNoViolations(page, "the refusal of a section");

    // A forged write from the manager's own page: refused, nothing changed.
    const [car] = await s.api("/api/cars/fast?limit=1");
    const status = await page.evaluate(async (id) => {
      const me = await (await fetch("/api/admin/me")).json();
      const r = await fetch(`/api/cars/${id}`, {
        method: "DELETE",
        headers: { "X-CSRF-Token": me.csrfToken },
      });
      return r.status;
    }, car.id);
    assert.equal(status, 403);
    assert.equal((await s.api(`/api/cars/fast?limit=1`))[0].id, car.id);
    await page.close();
  });

  it("an editor edits the catalogue and banners but sees no leads", async () => {
    const page = await s.open(DESKTOP);
    await loginViaForm(page, s.base, "/admin", editor);
    await page.getByRole("heading", { level: 1 }).waitFor();
    assert.match(await page.getByTestId("admin-user").innerText(), /Контент-менеджер/);
    const links = await sections(page);
    for (const wanted of ["Автомобили", "Баннеры", "Парсер"])
      assert.ok(
        links.some((l) => l.startsWith(wanted)),
        `${wanted} in ${links}`,
      );
    for (const hidden of ["Заявки", "Настройки", "amoCRM"]) {
      assert.ok(!links.some((l) => l.startsWith(hidden)), `${hidden} is not in ${links}`);
    }
    await page.goto(`${s.base}/admin/cars`);
    await page.getByRole("button", { name: "Добавить автомобиль" }).waitFor();

    await page.goto(`${s.base}/admin/leads`);
    await page.getByTestId("not-allowed").waitFor();
    assert.equal(await page.getByTestId("lead-row").count(), 0);
    await page.close();
  });

  it("a manager takes a lead, and another manager neither sees it nor opens it by its address", async () => {
    const name = mark("Клиент");
    const lead = await postLead(name);
    const page = await s.open(DESKTOP);
    await loginViaForm(page, s.base, "/admin/leads", manager);
    const row = page.getByTestId("lead-row").filter({ hasText: name });
    await row.waitFor();
    assert.equal(await row.getByTestId("lead-assignee").innerText(), "Без ответственного");
    await expectNoViolations(page, "a manager's leads");
    await row.getByRole("button", { name: `Взять в работу: ${name}` }).click();
    await row.getByRole("button", { name: `Отказаться от заявки: ${name}` }).waitFor();
    assert.match(await row.getByTestId("lead-assignee").innerText(), /^Ответственный: /);
    await page.getByTestId("assignee-filter").selectOption("mine");
    await row.waitFor();
    await page.close();

    const other = await s.open(DESKTOP);
    await loginViaForm(other, s.base, "/admin/leads", second);
    await other.getByTestId("assignee-filter").waitFor();
    await other.getByRole("heading", { level: 1 }).waitFor();
    // The list has settled (the filter's default) without the taken lead.
    await other.waitForLoadState("networkidle");
    assert.equal(await other.getByTestId("lead-row").filter({ hasText: name }).count(), 0);
    await other.goto(`${s.base}/admin/leads?lead=${lead.id}`);
    await other
      .getByTestId("toast")
      .filter({ hasText: "Заявка закреплена за другим сотрудником" })
      .waitFor();
    assert.equal(await other.getByTestId("lead-details").count(), 0);
    await other.close();
  });
});
