// Every request form refuses bad input with its Russian message (docs/leads.md) and stores a
// good lead (read back from the server's SQLite file).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DESKTOP, PHONE, start } from "./harness.mjs";

const PHONE_RULE = "Номер телефона должен начинаться с +7 или 8 и содержать 11 цифр";
const FAILED = "Не удалось отправить заявку. Попробуйте еще раз.";

let s;
before(async () => {
  s = await start();
});
after(() => s?.stop());

const toast = (page) => page.getByTestId("toast");

async function expectToast(page, title, description) {
  const t = toast(page);
  await t.filter({ hasText: description ?? title }).waitFor();
  const text = await t.innerText();
  assert.ok(text.includes(title), `toast "${text}" lacks "${title}"`);
  if (description) assert.ok(text.includes(description), `toast "${text}" lacks "${description}"`);
  // One toast at a time.
  assert.equal(await t.count(), 1);
  await t.getByRole("button", { name: "Закрыть уведомление" }).click();
}

/** Fills name and phone of the form inside `scope` and ticks consent. */
async function fill(
  scope,
  { name = "Иван Петров", phone = "+7 (921) 555-12-34", consent = true } = {},
) {
  await scope.locator('input[name="name"]').fill(name);
  await scope.locator('input[name="phone"]').fill(phone);
  if (consent) await scope.locator('input[name="consent"]').check();
}

const lastLead = () =>
  s.query("SELECT * FROM leads ORDER BY created_at DESC, rowid DESC LIMIT 1")[0];
const leadCount = () => s.query("SELECT count(*) AS n FROM leads")[0].n;

describe("credit dialog from a car card", () => {
  it("refuses bad input, shows 'Отправка...', stores the lead with car info and UTM", async () => {
    const page = await s.open(
      DESKTOP,
      "/new-cars?utm_source=e2e&utm_medium=cpc&utm_campaign=winter",
    );
    const card = page.getByTestId("car-card").first();
    await card.waitFor();
    const carHref = await card.locator("h3 a").getAttribute("href");
    const car = await s.api(`/api/cars/slug/${carHref.split("/").pop()}`);
    await card.getByRole("button", { name: /^Кредит/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Заявка на автокредит" }).waitFor();
    for (const label of ["ФИО *", "Номер телефона *"]) {
      assert.ok(await dialog.getByText(label, { exact: true }).isVisible(), label);
    }
    assert.equal(await dialog.locator('input[name="consent"]').isChecked(), false);
    assert.equal(await dialog.locator('input[name="advertisingConsent"]').isChecked(), false);
    assert.ok(
      await dialog.getByRole("link", { name: /согласие на обработку/ }).getAttribute("href"),
      "/consent",
    );

    const before = leadCount();
    const submit = dialog.getByRole("button", { name: "Отправить заявку" });
    await submit.click();
    await expectToast(page, "Ошибка", "Пожалуйста, заполните обязательные поля");
    await fill(dialog, { phone: "12345" });
    await submit.click();
    await expectToast(page, "Ошибка", PHONE_RULE);
    await dialog.locator('input[name="phone"]').fill("8 921 555 12 34");
    await dialog.locator('input[name="consent"]').uncheck();
    await submit.click();
    await expectToast(page, "Ошибка", "Необходимо согласие на обработку персональных данных");
    assert.equal(leadCount(), before, "nothing stored while the input is bad");

    await dialog.locator('input[name="consent"]').check();
    await dialog.locator('input[name="advertisingConsent"]').check();
    await page.route("**/api/leads", async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await submit.click();
    await dialog.getByRole("button", { name: "Отправка..." }).waitFor();
    await expectToast(page, "Заявка отправлена!", "Мы свяжемся с вами в ближайшее время");
    await dialog.waitFor({ state: "hidden" });

    const lead = lastLead();
    assert.equal(lead.type, "auto_credit");
    assert.equal(lead.name, "Иван Петров");
    assert.equal(lead.phone, "+79215551234");
    assert.equal(lead.car_id, car.id);
    assert.equal(lead.car_info, `${car.brandName} ${car.model}`);
    assert.match(lead.car_price, /^[\d\s\u00a0\u202f]+ ₽$/);
    assert.equal(lead.car_status, "new");
    assert.match(lead.source_url, /\/new-cars/);
    assert.equal(lead.utm_source, "e2e");
    assert.equal(lead.utm_medium, "cpc");
    assert.equal(lead.utm_campaign, "winter");
    assert.equal(lead.advertising_consent, 1);

    // Opened again, the dialog is empty.
    await card.getByRole("button", { name: /^Кредит/ }).click();
    assert.equal(await dialog.locator('input[name="name"]').inputValue(), "");
    await page.context().close();
  });

  it("on failure stays open with what was typed; shows a server 422 message", async () => {
    const page = await s.open(DESKTOP, "/used-cars");
    const card = page.getByTestId("car-card").first();
    await card.getByRole("button", { name: /^Кредит/ }).click();
    const dialog = page.getByRole("dialog");
    await fill(dialog, { name: "Мария" });
    await page.route("**/api/leads", (route) => route.abort());
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await expectToast(page, "Ошибка", FAILED);
    assert.ok(await dialog.isVisible());
    assert.equal(await dialog.locator('input[name="name"]').inputValue(), "Мария");
    assert.equal(await dialog.locator('input[name="consent"]').isChecked(), true);

    await page.unroute("**/api/leads");
    await page.route("**/api/leads", (route) =>
      route.fulfill({
        status: 422,
        contentType: "application/json",
        body: JSON.stringify({ error: "Имя слишком длинное", field: "name" }),
      }),
    );
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await expectToast(page, "Ошибка", "Имя слишком длинное");
    assert.ok(await dialog.isVisible());
    await page.context().close();
  });
});

describe("lease booking", () => {
  it("phone: books a lease car", async () => {
    const page = await s.open(PHONE, "/lease-cars");
    const card = page.getByTestId("car-card").first();
    await card.waitFor();
    await card.getByRole("button", { name: /^Забронировать/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Бронирование автомобиля" }).waitFor();
    const submit = dialog.getByRole("button", { name: "Забронировать" });
    await submit.click();
    await expectToast(page, "Ошибка", "Пожалуйста, заполните все поля");
    await fill(dialog, { phone: "+7 921 555" });
    await submit.click();
    await expectToast(page, "Ошибка", PHONE_RULE);
    await dialog.locator('input[name="phone"]').fill("+79215550000");
    await submit.click();
    await expectToast(page, "Заявка на бронирование отправлена!");
    await dialog.waitFor({ state: "hidden" });
    const lead = lastLead();
    assert.equal(lead.type, "lease_booking");
    assert.equal(lead.car_status, "lease");
    assert.equal(lead.phone, "+79215550000");
    await page.context().close();
  });
});

describe("trade-in page", () => {
  it("keeps the button disabled until name and phone, applies the phone rule, stores the car", async () => {
    const page = await s.open(PHONE, "/trade-in");
    const form = page.locator('form[data-lead-type="trade_in"]');
    const submit = form.getByRole("button", { name: "Оценить автомобиль" });
    assert.equal(await submit.isDisabled(), true);
    await form.locator('input[name="carBrand"]').fill("Toyota");
    await form.locator('input[name="carModel"]').fill("Camry");
    await form.locator('input[name="carYear"]').fill("2018");
    await form.locator('input[name="carMileage"]').fill("85000");
    await fill(form, { phone: "123" });
    assert.equal(await submit.isDisabled(), false);
    await submit.click();
    await expectToast(page, "Ошибка", PHONE_RULE);
    await form.locator('input[name="phone"]').fill("89215551111");
    await submit.click();
    await expectToast(page, "Заявка отправлена!", "в течение 30 минут");
    const lead = lastLead();
    assert.equal(lead.type, "trade_in");
    assert.equal(lead.car_brand, "Toyota");
    assert.equal(lead.car_model, "Camry");
    assert.equal(lead.car_year, 2018);
    assert.equal(lead.car_mileage, 85000);
    assert.equal(await form.locator('input[name="carBrand"]').inputValue(), "");
    assert.equal(await form.locator('input[name="name"]').inputValue(), "");
    await page.context().close();
  });
});

describe("a lead the server cannot store", () => {
  it("keeps what was typed, gives the phone to call and sends again", async () => {
    const { phone } = await s.api("/api/settings");
    const page = await s.open(PHONE, "/trade-in");
    const form = page.locator('form[data-lead-type="trade_in"]');
    await form.locator('input[name="carBrand"]').fill("Skoda");
    await form.locator('input[name="carModel"]').fill("Octavia");
    await fill(form, { name: "Анна Смирнова", phone: "+7 921 555-77-88" });
    const before = leadCount();
    // The database refuses the write (as a full disk would): the table the
    // lead goes to is away.
    s.write("ALTER TABLE leads RENAME TO leads_away");
    try {
      await form.getByRole("button", { name: "Оценить автомобиль" }).click();
      const unsaved = form.getByRole("alert");
      await unsaved.waitFor();
      const said = await unsaved.innerText();
      assert.match(said, /^Не удалось сохранить заявку из-за сбоя на сервере/);
      assert.ok(said.includes(`позвоните нам: ${phone}`), said);
      const call = unsaved.getByRole("link", { name: phone });
      assert.equal(await call.getAttribute("href"), `tel:${phone.replace(/[^\d+]/g, "")}`);
      await expectToast(page, "Ошибка", "Не удалось сохранить заявку");
      assert.equal(await form.locator('input[name="carBrand"]').inputValue(), "Skoda");
      assert.equal(await form.locator('input[name="name"]').inputValue(), "Анна Смирнова");
      assert.equal(await form.locator('input[name="phone"]').inputValue(), "+7 921 555-77-88");
      assert.equal(await form.locator('input[name="consent"]').isChecked(), true);
    } finally {
      s.write("ALTER TABLE leads_away RENAME TO leads");
    }
    assert.equal(leadCount(), before, "nothing stored");
    await form.getByRole("button", { name: "Отправить ещё раз" }).click();
    await expectToast(page, "Заявка отправлена!", "в течение 30 минут");
    assert.equal(await form.getByRole("alert").count(), 0);
    const lead = lastLead();
    assert.equal(lead.car_brand, "Skoda");
    assert.equal(lead.name, "Анна Смирнова");
    assert.equal(lead.phone, "+79215557788");
    await page.context().close();
  });
});

describe("car page dialogs", () => {
  it("Trade-In, Кредит and Рассрочка each store their lead type with the car", async () => {
    const [car] = await s.api("/api/cars/fast?status=used&limit=1");
    const page = await s.open(DESKTOP, `/car/${car.slug}`);
    await page.locator("h1").waitFor();
    const dialog = page.getByRole("dialog");

    await page.locator(".detail-actions").getByRole("button", { name: "Trade-In" }).click();
    await dialog.getByRole("heading", { name: "Заявка на трейд-ин" }).waitFor();
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await expectToast(page, "Ошибка", "Пожалуйста, заполните обязательные поля");
    await dialog.locator('input[name="carBrand"]').fill("Kia");
    await fill(dialog);
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await expectToast(page, "Заявка отправлена!");
    let lead = lastLead();
    assert.equal(lead.type, "trade_in");
    assert.equal(lead.car_id, car.id);
    assert.equal(lead.car_info, `${car.brandName} ${car.model}`);
    assert.equal(lead.car_brand, "Kia");
    assert.equal(lead.car_model, null, "an empty model is sent as absent");

    await page.locator(".detail-actions").getByRole("button", { name: "Кредит" }).click();
    await dialog.getByRole("heading", { name: "Заявка на автокредит" }).waitFor();
    await fill(dialog, { phone: "+7 999" });
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await expectToast(page, "Ошибка", PHONE_RULE);
    await dialog.locator('input[name="phone"]').fill("+7 999 000 11 22");
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await expectToast(page, "Заявка отправлена!");
    lead = lastLead();
    assert.equal(lead.type, "auto_credit");
    assert.equal(lead.car_status, "used");

    await page.locator(".detail-actions").getByRole("button", { name: "Рассрочка" }).click();
    await dialog.getByRole("heading", { name: "Заявка на рассрочку" }).waitFor();
    await fill(dialog);
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await expectToast(page, "Заявка отправлена!");
    lead = lastLead();
    assert.equal(lead.type, "contact_form");
    assert.equal(lead.car_id, car.id);
    await page.context().close();
  });
});

describe("auto credit page", () => {
  it("the apply dialog stores an auto_credit lead", async () => {
    const page = await s.open(PHONE, "/auto-credit");
    // A visitor counted by Yandex Metrika carries its client id.
    await page.context().addCookies([{ name: "_ym_uid", value: "1700000000123456", url: s.base }]);
    await page.getByRole("button", { name: "Подать заявку", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await fill(dialog, { name: "Пётр" });
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await expectToast(page, "Заявка отправлена!");
    const lead = lastLead();
    assert.equal(lead.type, "auto_credit");
    assert.equal(lead.name, "Пётр");
    assert.equal(lead.car_id, null);
    assert.match(lead.source_url, /\/auto-credit$/);
    assert.equal(lead.analytics_client_id, "1700000000123456");
    await page.context().close();
  });
});

describe("auto selection", () => {
  it("sends budget, body types, transmission and fuels", async () => {
    const page = await s.open(DESKTOP, "/auto-selection");
    await page.getByRole("checkbox", { name: "Кроссовер" }).check();
    await page.getByRole("checkbox", { name: "Седан" }).check();
    await page.getByRole("checkbox", { name: "Дизель" }).check();
    await page.locator('select[name="transmission"]').selectOption("automatic");
    await page.locator('input[name="budget"]').fill("3000000");
    await page.getByRole("button", { name: "Подобрать автомобиль" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await expectToast(page, "Ошибка", "Пожалуйста, заполните все обязательные поля");
    await fill(dialog);
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await expectToast(page, "Заявка отправлена!");
    await dialog.waitFor({ state: "hidden" });
    const lead = lastLead();
    assert.equal(lead.type, "auto_selection");
    assert.equal(lead.budget_kopecks, 300000000);
    assert.deepEqual(lead.body_type.split(",").sort(), ["crossover", "sedan"]);
    assert.equal(lead.transmission, "automatic");
    assert.equal(lead.fuel_types, "diesel");
    await page.context().close();
  });
});
