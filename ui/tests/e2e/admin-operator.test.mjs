// The operator of personal data in the browser (issue 26, docs/personal-data.md):
// the owner names the operator in the settings (ИНН and ОГРН checked with
// their control digits, in the server's words), visitors read the name in
// the consent text; a self-check's link lands on the missing field; Google
// Analytics starts only when switched on, next to its warning.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations, settled } from "./a11y.mjs";
import {
  ADMIN,
  apiSession,
  keepSettings,
  loginViaForm,
  openAdmin,
  toastText,
} from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

const BAD_INN =
  "ИНН: 10 цифр у организации или 12 у индивидуального предпринимателя, с верной контрольной цифрой";
const BAD_OGRN = "ОГРН: 13 цифр у организации (ОГРНИП — 15), с верной контрольной цифрой";
const ANALYTICS_WARNING =
  "Google Analytics передаёт данные посетителей за рубеж (в США). Трансграничная передача требует заранее уведомить Роскомнадзор (ст. 12 152-ФЗ). Без включения счётчик не запускается, даже если ID указан.";

const OPERATOR = {
  name: "ООО «Тест Оператор»",
  inn: "7707083893",
  ogrn: "1027700132195",
  address: "190000, Санкт-Петербург, ул. Тестовая, д. 1",
};

let s;
let owner;
let kept;
before(async () => {
  s = await start();
  owner = await apiSession(s.base);
  // The e2e server is shared between files: every settings field goes back.
  kept = await keepSettings(owner);
});
after(async () => {
  await kept?.restore();
  await s?.stop();
});

/** The settings screen of the demo owner, drawn, at `hash`. */
async function settingsScreen(hash = "") {
  const { page } = await openAdmin(s, DESKTOP, `/admin/settings${hash}`);
  await page.getByLabel("Полное наименование оператора").waitFor();
  await settled(page);
  return page;
}

const save = (page) => page.getByRole("button", { name: "Сохранить", exact: true }).click();

/** Saves and waits for the form to hold the saved values (no unsaved mark). */
async function saved(page) {
  await save(page);
  await page.getByText("Есть несохранённые изменения").waitFor({ state: "detached" });
}

describe("the operator of personal data", () => {
  it("a wrong ИНН is refused at its field; the operator saved is in the consent visitors read", async () => {
    // The default texts name the operator through the placeholders.
    assert.ok(
      kept.saved.consentText.includes("{оператор}") && kept.saved.consentText.includes("{ИНН}"),
      "the consent text holds {оператор} and {ИНН}",
    );
    // The owner logs in through the form, as a person would.
    const page = await s.open(DESKTOP);
    await loginViaForm(page, s.base, "/admin/settings", ADMIN);
    await page.getByLabel("Полное наименование оператора").waitFor();
    await settled(page);
    const section = page.getByRole("group", { name: "Оператор персональных данных" });
    assert.match(
      await section.innerText(),
      /их называет подвал каждой страницы и выгрузки сведений, они подставляются в согласие и политику вместо \{оператор\}, \{ИНН\}, \{ОГРН\} и \{адрес оператора\}\./,
    );
    const name = page.getByLabel("Полное наименование оператора");
    const inn = page.getByLabel("ИНН", { exact: true });
    const ogrn = page.getByLabel("ОГРН / ОГРНИП");
    const address = page.getByLabel("Юридический адрес");
    assert.equal(await name.inputValue(), kept.saved.operatorName);
    assert.equal(await inn.inputValue(), kept.saved.operatorInn);
    await expectNoViolations(page, "the settings screen");

    await inn.fill("7707083894");
    await save(page);
    const innError = page.locator("#operator-inn-error");
    await innError.waitFor();
    assert.equal(await innError.innerText(), BAD_INN);
    assert.equal(await inn.getAttribute("aria-invalid"), "true");
    assert.match(await inn.getAttribute("aria-describedby"), /operator-inn-error/);
    await page.waitForFunction(() => document.activeElement?.id === "operator-inn");
    await expectNoViolations(page, "the settings screen with a wrong ИНН");
    assert.equal((await owner.get("/api/admin/settings")).operatorInn, kept.saved.operatorInn);

    await inn.fill(OPERATOR.inn);
    await innError.waitFor({ state: "detached" });
    await ogrn.fill(OPERATOR.ogrn);
    await name.fill(OPERATOR.name);
    await address.fill(OPERATOR.address);
    await save(page);
    // The consent visitors read changed: a new edition.
    assert.match(await toastText(page, "Настройки сохранены"), /редакция № \d+/);
    const saved = await owner.get("/api/admin/settings");
    assert.equal(saved.operatorName, OPERATOR.name);
    assert.equal(saved.operatorInn, OPERATOR.inn);
    assert.equal(saved.operatorOgrn, OPERATOR.ogrn);
    assert.equal(saved.operatorAddress, OPERATOR.address);
    assert.ok(saved.consentVersion > kept.saved.consentVersion, "a new consent edition");

    await page.reload();
    await name.waitFor();
    assert.equal(await name.inputValue(), OPERATOR.name);
    assert.equal(await inn.inputValue(), OPERATOR.inn);
    assert.equal(await ogrn.inputValue(), OPERATOR.ogrn);
    assert.equal(await address.inputValue(), OPERATOR.address);

    // The public consent, opened from its link in a new tab.
    const placeholders = await page.getByTestId("placeholders-note").innerText();
    for (const p of ["{оператор}", "{ИНН}", "{ОГРН}", "{адрес оператора}", "{обработчики}"]) {
      assert.ok(placeholders.includes(p), `the hint names ${p}`);
    }
    const preview = page.getByRole("link", {
      name: /^Посмотреть, как видят посетители \(согласие на обработку/,
    });
    assert.equal(await preview.getAttribute("href"), "/consent");
    const [consent] = await Promise.all([page.context().waitForEvent("page"), preview.click()]);
    await consent.getByRole("heading", { level: 1 }).waitFor();
    const text = await consent.locator("main").innerText();
    assert.ok(text.includes(OPERATOR.name), "the consent names the new operator");
    assert.ok(text.includes(OPERATOR.inn), "the consent gives the new ИНН");
    assert.ok(text.includes(OPERATOR.ogrn), "the consent gives the new ОГРН");
    assert.ok(text.includes(OPERATOR.address), "the consent gives the new address");
    assert.ok(!text.includes("{оператор}"), "no placeholder left");
    if (kept.saved.operatorName) {
      assert.ok(!text.includes(kept.saved.operatorName), "the old operator is gone");
    }
    assert.match(text, new RegExp(`Редакция № ${saved.consentVersion}`));

    const privacy = await s.open(DESKTOP, "/privacy");
    await privacy.getByRole("heading", { level: 1 }).waitFor();
    assert.ok((await privacy.locator("main").innerText()).includes(OPERATOR.name));
    // Only the session check before the login (401) is allowed.
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("401")),
      [],
    );
    await page.context().close();
    await privacy.context().close();
    await kept.restore();
  });

  it("the server refuses what the form refuses, in the same words, at the field", async () => {
    const inn = await owner.put("/api/settings", { operatorInn: "7707083894" }, { ok: false });
    assert.equal(inn.status, 422);
    assert.deepEqual([inn.data.field, inn.data.error], ["operatorInn", BAD_INN]);
    const ogrn = await owner.put(
      "/api/settings",
      { operatorOgrn: "304500116000158" },
      { ok: false },
    );
    assert.equal(ogrn.status, 422);
    assert.deepEqual([ogrn.data.field, ogrn.data.error], ["operatorOgrn", BAD_OGRN]);
    // An individual entrepreneur's numbers are taken.
    await owner.put("/api/settings", {
      operatorInn: "500100732259",
      operatorOgrn: "304500116000157",
    });
    await kept.restore();
  });

  it("a missing ОГРН: the self-check's link lands on its field", async () => {
    await owner.put("/api/settings", { operatorOgrn: "" });
    const { page } = await openAdmin(s, DESKTOP, "/admin/checks");
    const item = page.locator('[data-check="operator_missing"]');
    await item.waitFor();
    await item.getByRole("link", { name: /^Исправить/ }).click();
    await page.waitForURL("**/admin/settings#operator");
    await page.waitForFunction(() => document.activeElement?.id === "operator-ogrn");
    await page.getByLabel("ОГРН / ОГРНИП").fill("1027700132196");
    await save(page);
    await page.locator("#operator-ogrn-error").filter({ hasText: BAD_OGRN }).waitFor();
    await page.getByLabel("ОГРН / ОГРНИП").fill(kept.saved.operatorOgrn || OPERATOR.ogrn);
    await save(page);
    await toastText(page, "Настройки сохранены");
    const checks = await owner.get("/api/admin/checks");
    assert.ok(!checks.problems.some((p) => p.check === "operator_missing"));
    assert.deepEqual(page.errors, []);
    await page.context().close();
    await kept.restore();
  });

  it("Google Analytics starts only when switched on, next to its warning", async () => {
    const page = await settingsScreen("#analytics");
    const enabled = page.getByRole("checkbox", { name: "Включить Google Analytics" });
    await page.waitForFunction(() => document.activeElement?.id === "analytics-enabled");
    const warning = page.getByRole("note").filter({ hasText: "Роскомнадзор" });
    assert.equal(await warning.innerText(), ANALYTICS_WARNING);
    assert.equal(await enabled.getAttribute("aria-describedby"), "analytics-warning");
    assert.equal(await enabled.isChecked(), kept.saved.googleAnalyticsEnabled);

    // An id alone publishes nothing.
    await page.getByLabel("Google Analytics ID").fill("G-E2ETEST1");
    await enabled.setChecked(false);
    await saved(page);
    assert.equal((await owner.get("/api/admin/settings")).googleAnalyticsId, "G-E2ETEST1");
    assert.equal((await s.api("/api/settings")).googleAnalyticsId, "");

    await enabled.setChecked(true);
    await saved(page);
    assert.equal((await owner.get("/api/admin/settings")).googleAnalyticsEnabled, true);
    assert.equal((await s.api("/api/settings")).googleAnalyticsId, "G-E2ETEST1");
    const checks = await owner.get("/api/admin/checks");
    assert.ok(checks.problems.some((p) => p.check === "analytics_abroad"));
    await page.reload();
    await enabled.waitFor();
    assert.equal(await enabled.isChecked(), true);
    await expectNoViolations(page, "the settings screen with Google Analytics on");
    assert.deepEqual(page.errors, []);
    await page.context().close();
    await kept.restore();
  });
});
