// A person's request about their personal data in the browser (issue 26,
// docs/personal-data.md): the owner registers a request to erase, sees it on
// the dashboard and in the list with its deadline, finds what the site holds
// about the phone, downloads it, erases it with a confirmation, and the
// request is closed and a destruction act is drawn up; the retention periods
// are edited in the settings; a manager does not see the screen; the
// withdrawal link of the mails asks before it erases anything.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { expectNoViolations, settled } from "./a11y.mjs";
import {
  apiSession,
  createStaff,
  keepSettings,
  loginViaForm,
  mark,
  openAdmin,
  scrollsSideways,
  toastText,
} from "./admin-helpers.mjs";
import { DESKTOP, PHONE, start } from "./harness.mjs";
import { visitorWithLink } from "./withdrawal.mjs";

const LINK_INVALID = "Ссылка недействительна или устарела";
const NOT_ALLOWED = "Недостаточно прав: вашей роли этот раздел недоступен";
const FORGET_TITLE = "Отзыв согласия на обработку персональных данных";

let s;
let owner;
let manager;
const leads = [];
before(async () => {
  s = await start();
  owner = await apiSession(s.base);
  manager = createStaff(s.data, mark("manager"), "manager");
});
after(async () => {
  for (const id of leads) await owner?.del(`/api/leads/${id}`, { ok: false });
  manager?.remove();
  await s?.stop();
});

/** A person with a phone no other test uses: as typed, as stored, as shown. */
function person() {
  const d = String(Math.floor(Math.random() * 1e9)).padStart(9, "0");
  const tag = mark("pd");
  return {
    name: `Персона ${tag}`,
    email: `${tag}@example.ru`,
    typed: `8 (9${d.slice(0, 2)}) ${d.slice(2, 5)}-${d.slice(5, 7)}-${d.slice(7)}`,
    stored: `+79${d}`,
    shown: `+7 9${d.slice(0, 2)} ${d.slice(2, 5)}-${d.slice(5, 7)}-${d.slice(7)}`,
    last4: `${d.slice(5, 7)}-${d.slice(7)}`,
  };
}

/** A visitor's request, as the site's forms send it. */
async function postLead(p) {
  const r = await fetch(`${s.base}/api/leads`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      type: "contact_form",
      name: p.name,
      phone: p.typed,
      email: p.email,
      consent: true,
    }),
  });
  assert.equal(r.status, 201, await r.clone().text());
  const lead = await r.json();
  leads.push(lead.id);
  return lead;
}

async function downloaded(page, button) {
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, "utf8") };
}

describe("a person's request about their data", () => {
  it("the owner registers a request, finds the data, downloads it, erases it; the request closes and an act is drawn up", async () => {
    const p = person();
    const lead = await postLead(p);

    const page = await s.open(DESKTOP);
    await loginViaForm(page, s.base, "/admin/personal-data");
    await page.getByRole("heading", { level: 1, name: "Персональные данные" }).waitFor();
    await settled(page);
    for (const h of [
      "Запросы граждан",
      "Поиск по телефону или e-mail",
      "Сроки хранения",
      "Акты об уничтожении",
    ]) {
      await page.getByRole("heading", { level: 2, name: h }).waitFor();
    }
    await expectNoViolations(page, "the personal data screen");

    // Registering: kind, phone, the date received (today by default).
    await page.getByRole("button", { name: "Зарегистрировать запрос" }).click();
    const dialog = page.getByRole("dialog", { name: "Зарегистрировать запрос" });
    await dialog.waitFor();
    assert.match(await dialog.getByLabel("Дата обращения").inputValue(), /^\d{4}-\d{2}-\d{2}$/);
    // Neither a phone nor an address: refused at the phone.
    await dialog.getByRole("button", { name: "Зарегистрировать" }).click();
    await dialog.getByText("Укажите телефон или e-mail человека").waitFor();
    await dialog.getByLabel("Об удалении").check();
    await dialog.getByLabel("Телефон").fill(p.typed);
    await dialog.getByLabel("Примечание").fill("Письмо от клиента");
    await expectNoViolations(page, "the register dialog");
    await dialog.getByRole("button", { name: "Зарегистрировать" }).click();
    assert.match(await toastText(page, "Запрос зарегистрирован"), /Ответить до/);
    await dialog.waitFor({ state: "detached" });

    const request = (await owner.get("/api/admin/personal-data/requests")).find(
      (r) => r.phone === p.stored,
    );
    assert.ok(request, "the request is stored");
    assert.equal(request.kind, "erase");
    assert.equal(request.answeredAt, null);
    const item = page.locator(`[data-testid="data-request"][data-id="${request.id}"]`);
    await item.waitFor();
    const itemText = await item.innerText();
    assert.match(itemText, /Об удалении/);
    assert.ok(itemText.includes(p.shown), `the subject is shown: ${itemText}`);
    assert.match(itemText, /Срок ответа — \d{1,2} [а-я]+ \d{4} г\. \(осталось 10 рабочих дней\)/);
    assert.match(itemText, /Письмо от клиента/);

    // The dashboard lists it (masked) and links the screen.
    await page.getByRole("link", { name: "← Панель администратора" }).click();
    const card = page.getByTestId("data-requests-card");
    await card.waitFor();
    const cardText = await card.innerText();
    assert.match(cardText, /Запросы по персональным данным/);
    assert.ok(cardText.includes(`+7 *** ***-${p.last4}`), `masked on the dashboard: ${cardText}`);
    assert.ok(!cardText.includes(p.shown), "the dashboard shows no full phone");
    await expectNoViolations(page, "the dashboard with an open request");
    await card.getByRole("link", { name: "Запросы по персональным данным" }).click();
    await item.waitFor();

    // "Найти данные": the search runs with the request's phone.
    await item.getByRole("button", { name: "Найти данные" }).click();
    const found = page.getByTestId("found-lead").filter({ hasText: p.name });
    await found.waitFor();
    assert.match(await page.getByTestId("found-summary").innerText(), /^Найдено: заявок 1,/);
    assert.equal(await page.getByLabel("Телефон", { exact: true }).inputValue(), p.shown);
    assert.match(await page.getByTestId("linked-request").innerText(), /Об удалении/);
    assert.match(await found.innerText(), /Согласие: редакция № \d+/);
    await settled(page);
    await expectNoViolations(page, "the personal data screen with what was found");

    // The export: a JSON file and a readable page, both holding the phone.
    const json = await downloaded(page, page.getByRole("button", { name: "Скачать JSON" }));
    assert.match(json.name, /^personal-data-\d{4}-\d{2}-\d{2}\.json$/);
    assert.ok(json.text.includes(p.stored), "the JSON holds the phone");
    assert.ok(json.text.includes(p.name), "the JSON holds the name");
    JSON.parse(json.text);
    const html = await downloaded(
      page,
      page.getByRole("button", { name: "Скачать страницу (HTML)" }),
    );
    assert.match(html.name, /^personal-data-\d{4}-\d{2}-\d{2}\.html$/);
    assert.ok(html.text.includes(p.name), "the page holds the name");

    // Erasing asks first, saying what goes and that it cannot be undone.
    await page.getByRole("button", { name: "Удалить все данные" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Удалить все данные этого человека?" });
    await confirm.waitFor();
    const confirmText = await confirm.innerText();
    assert.match(confirmText, /нельзя отменить/);
    assert.match(confirmText, /в 1 заявке/);
    assert.match(confirmText, /будет закрыт с итогом «Данные удалены»/);
    await expectNoViolations(page, "the erase confirmation");
    // Cancelling keeps everything.
    await confirm.getByRole("button", { name: "Отмена" }).click();
    await confirm.waitFor({ state: "hidden" });
    assert.equal(s.query("SELECT name FROM leads WHERE id = ?", [lead.id])[0].name, p.name);
    await page.getByRole("button", { name: "Удалить все данные" }).click();
    await confirm.getByRole("button", { name: "Удалить навсегда" }).click();
    const summary = page.getByTestId("erased-summary");
    await summary.waitFor();
    assert.match(await summary.innerText(), /^Удалено: заявок 1(, |$)/);
    assert.equal(
      await page.getByTestId("search-status").getAttribute("aria-live"),
      "polite",
      "the summary is announced",
    );
    assert.equal(s.query("SELECT name FROM leads WHERE id = ?", [lead.id])[0].name, "[удалено]");

    // Searching again finds nothing.
    await page.getByRole("button", { name: "Найти", exact: true }).click();
    await page.getByTestId("found-summary").filter({ hasText: "Ничего не найдено" }).waitFor();
    assert.equal(await page.getByTestId("found-lead").count(), 0);

    // The request is closed as erased, its subject masked.
    await item.getByTestId("request-outcome").waitFor();
    const closed = await item.innerText();
    assert.match(closed, /Закрыт/);
    assert.match(closed, /Данные удалены/);
    assert.ok(!closed.includes(p.shown), `the closed request masks the phone: ${closed}`);
    assert.equal(await item.getByRole("button", { name: "Найти данные" }).count(), 0);

    // A destruction act, downloadable.
    const acts = await owner.get("/api/admin/personal-data/acts");
    const act = acts[0];
    assert.equal(act.reason, "request");
    const actItem = page.locator(`[data-testid="act"][data-id="${act.id}"]`);
    await actItem.waitFor();
    assert.match(await actItem.innerText(), new RegExp(`Акт № ${act.id}`));
    const link = actItem.getByRole("link", { name: /^Скачать акт/ });
    const href = await link.getAttribute("href");
    assert.equal(href, `/api/admin/personal-data/acts/${act.id}`);
    const answer = await page.request.get(s.base + href);
    assert.equal(answer.status(), 200);
    assert.match(answer.headers()["content-type"], /^text\/html/);
    assert.match(await answer.text(), /Акт/);
    await settled(page);
    await expectNoViolations(page, "the personal data screen after erasing");
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("401")),
      [],
    );
    await page.context().close();
  });

  it("closing a request by hand: a refusal needs its reason; the server's refusals land on the fields", async () => {
    const p = person();
    const created = await owner.post("/api/admin/personal-data/requests", {
      kind: "access",
      email: p.email,
    });
    const { page } = await openAdmin(s, PHONE, "/admin/personal-data");
    const item = page.locator(`[data-testid="data-request"][data-id="${created.id}"]`);
    await item.waitFor();
    await settled(page);
    assert.equal(await scrollsSideways(page), false, "the screen fits a phone");
    await item.getByRole("button", { name: "Закрыть запрос" }).click();
    const dialog = page.getByRole("dialog", { name: "Закрыть запрос" });
    await dialog.waitFor();
    await dialog.getByLabel("Итог").selectOption("refused");
    await dialog.getByRole("button", { name: "Закрыть запрос" }).click();
    await dialog.getByText("Укажите причину отказа").first().waitFor();
    await expectNoViolations(page, "the closing dialog with its error");
    await dialog.getByLabel(/Примечание/).fill("Не подтверждена личность");
    await dialog.getByRole("button", { name: "Закрыть запрос" }).click();
    await dialog.waitFor({ state: "detached" });
    await item.getByTestId("request-outcome").filter({ hasText: "Отказано" }).waitFor();
    const saved = (await owner.get("/api/admin/personal-data/requests")).find(
      (r) => r.id === created.id,
    );
    assert.equal(saved.outcome, "refused");

    // A refusal of the server names its field: shown there, focused.
    await page.route("**/api/admin/personal-data/find", (route) =>
      route.fulfill({
        status: 422,
        contentType: "application/json",
        body: JSON.stringify({ error: "Неверный формат email", field: "email" }),
      }),
    );
    const email = page.getByLabel("E-mail", { exact: true });
    await email.fill("someone@example.ru");
    await page.getByRole("button", { name: "Найти", exact: true }).click();
    await page.getByText("Неверный формат email").waitFor();
    assert.equal(await email.getAttribute("aria-invalid"), "true");
    await page.unroute("**/api/admin/personal-data/find");
    await page.context().close();
  });

  it("the retention periods: shown on the screen, edited in the settings", async () => {
    const kept = await keepSettings(owner, ["retentionYears", "cancelledRetentionMonths"]);
    try {
      const { page } = await openAdmin(s, DESKTOP, "/admin/personal-data");
      const periods = page.getByTestId("retention-periods");
      await periods.waitFor();
      assert.match(await periods.innerText(), /Данные хранятся \d+ (год|года|лет) после/);
      await page.getByTestId("retention-due").waitFor();
      assert.match(await page.getByTestId("retention-due").innerText(), /^Сейчас к удалению/);
      await periods.getByRole("link", { name: "Изменить сроки в настройках" }).click();
      const years = page.getByLabel("Хранить данные после последнего обращения, лет");
      await years.waitFor();
      await page.waitForFunction(() => document.activeElement?.id === "retention-years");
      assert.equal(await years.inputValue(), String(kept.saved.retentionYears));
      const section = page.getByTestId("retention-section");
      await years.fill("11");
      // Part of the settings form: its one "Сохранить" saves them.
      const saveButton = page.getByRole("button", { name: "Сохранить", exact: true });
      await saveButton.click();
      await section.getByText("Срок хранения — от 1 до 10 лет").waitFor();
      await expectNoViolations(page, "the retention settings with an error");
      await years.fill("4");
      await page.getByLabel("Отменённые заявки хранить, месяцев").fill("9");
      await saveButton.click();
      await toastText(page, "Настройки сохранены");
      const saved = await owner.get("/api/admin/settings");
      assert.equal(saved.retentionYears, 4);
      assert.equal(saved.cancelledRetentionMonths, 9);
      await page.context().close();
    } finally {
      await kept.restore();
    }
  });

  it("a manager does not see the screen and is refused its address", async () => {
    const page = await s.open(DESKTOP);
    await loginViaForm(page, s.base, "/admin", manager);
    const nav = page.getByRole("navigation", { name: "Разделы администрирования" });
    await nav.getByRole("link").first().waitFor();
    const links = (await nav.getByRole("link").allInnerTexts()).map((t) => t.trim());
    assert.ok(!links.includes("Персональные данные"), `not in the navigation: ${links}`);
    assert.equal(await page.getByTestId("data-requests-card").count(), 0);
    await page.goto(`${s.base}/admin/personal-data`);
    await page.getByText(NOT_ALLOWED).waitFor();
    await page.context().close();
  });
});

describe("the withdrawal link of the mails", () => {
  it("without a token: the link is invalid", async () => {
    const page = await s.open(PHONE, "/personal-data/forget");
    const invalid = page.getByTestId("link-invalid");
    await invalid.waitFor();
    assert.equal(await invalid.innerText(), LINK_INVALID);
    await expectNoViolations(page, "the withdrawal page without a token");
    await page.context().close();
  });

  it("an unknown token is told when the page opens; a real one asks first and withdraws on the click", async () => {
    const page = await s.open(DESKTOP);
    const calls = [];
    page.on("request", (r) => {
      if (r.method() === "POST") calls.push(new URL(r.url()).pathname);
    });
    await page.goto(`${s.base}/personal-data/forget?token=not-a-real-token`);
    await page.getByRole("heading", { level: 1, name: FORGET_TITLE }).waitFor();
    const invalid = page.getByTestId("link-invalid");
    await invalid.waitFor();
    assert.equal(await invalid.innerText(), LINK_INVALID);
    const button = page.getByRole("button", { name: "Отозвать согласие и удалить данные" });
    assert.equal(await button.count(), 0, "nothing to press on a bad link");
    await expectNoViolations(page, "the withdrawal page of an unknown link");

    // A visitor's real link: the page asks first, sends nothing on load.
    const name = "Вера Отзывова";
    const email = "vera.otzyv@example.ru";
    const token = await visitorWithLink(s, name, email);
    await page.goto(`${s.base}/personal-data/forget?token=${token}`);
    await button.waitFor();
    await settled(page);
    assert.match(await page.locator("main").innerText(), /нельзя/);
    await expectNoViolations(page, "the withdrawal page");
    assert.deepEqual(calls, [], "nothing is sent before the click");
    assert.equal(s.query("SELECT count(*) AS n FROM leads WHERE name = ?", [name])[0].n, 1);
    await button.click();
    await page.getByRole("heading", { level: 1, name: "Ваши данные удалены" }).waitFor();
    assert.deepEqual(calls, ["/api/personal-data/forget"]);
    assert.deepEqual(s.query("SELECT id FROM leads WHERE name = ?", [name]), []);
    await page.waitForFunction(() => document.activeElement?.tagName === "H1");
    await page.context().close();
  });
});
