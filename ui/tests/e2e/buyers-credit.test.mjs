// The honest price and the lawful credit calculator (docs/pricing.md,
// docs/credit.md): a car with discounts shows its price, each discount and
// the lowest price; the calculator's figures for a known input; the full
// cost of credit (ПСК) before the rate and never in smaller type; one tap
// fills the credit request, stored with its amount and term; an expired
// programme is gone; a phone-sized window; the admin's programmes screen
// and the car form's discounts. Programmes a test makes are deleted after.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations } from "./a11y.mjs";
import {
  apiSession,
  cleanup,
  mark,
  openAdmin,
  scrollsSideways,
  toastText,
} from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

const NARROW = { width: 360, height: 740 };
const plain = (t) => t.replace(/[\u00a0\u202f]/g, " ");

let s;
let session;
let trash;
/** A shown partner bank, for the programmes the tests make. */
let bank;
/** A programme at a single 12 % rate: a payment is one exact figure. */
let twelve;
/** Moscow's calendar day. */
const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Moscow" }).format(new Date());

before(async () => {
  s = await start();
  session = await apiSession(s.base);
  trash = cleanup(session);
  const banks = await session.get("/api/admin/partner-banks");
  bank = banks.find((b) => b.active);
  assert.ok(bank, "the demo has a shown partner bank");
  twelve = await addProgram({
    name: `Двенадцать ${mark()}`,
    rateMin: 12,
    rateMax: 12,
    pskMin: 12.683,
    pskMax: 12.683,
    termMinMonths: 6,
    termMaxMonths: 84,
    minDownPaymentPercent: 0,
    conditions: "Без обязательного страхования жизни",
  });
});
after(async () => {
  await trash?.run();
  await s?.stop();
});

async function addProgram(fields) {
  const created = await session.post("/api/admin/credit-programs", {
    bankId: bank.id,
    rateMin: 5.9,
    rateMax: 20,
    pskMin: 6.5,
    pskMax: 24.9,
    termMinMonths: 12,
    termMaxMonths: 96,
    minDownPaymentPercent: 10,
    validFrom: today,
    validTo: null,
    conditions: "",
    active: true,
    ...fields,
  });
  trash.track(`/api/admin/credit-programs/${created.id}`);
  return created;
}

/** The annuity payment in kopecks (the test's own formula). */
function annuity(kopecks, rate, months) {
  const r = rate / 1200;
  return Math.round(r === 0 ? kopecks / months : (kopecks * r) / (1 - (1 + r) ** -months));
}
const kopecks = (money) => Math.round(Number(money) * 100);
const rubles = (k) => `${Math.floor(k / 100).toLocaleString("ru-RU")} ₽`;
/** A payment range in whole rubles: the lower end down, the upper up. */
const range = (low, high) => {
  const from = Math.floor(low / 100);
  const to = Math.ceil(high / 100);
  return low === high || from === to
    ? rubles(low)
    : `от ${from.toLocaleString("ru-RU")} до ${to.toLocaleString("ru-RU")} ₽`;
};

/** Opens the calculator on the page (scrolls it into view) and waits for it. */
async function openCalculator(page) {
  const block = page.getByTestId("credit-block");
  await block.scrollIntoViewIfNeeded();
  await page.getByTestId("credit-calculator").waitFor();
  return page.getByTestId("credit-calculator");
}

/** Types a value into an input as a person does and leaves it. */
async function type(locator, value) {
  await locator.fill(String(value));
  await locator.blur();
}

describe("honest price", () => {
  it("a car with discounts shows the price, each discount and the lowest price", async () => {
    const cars = await s.api("/api/cars/fast?status=new&limit=100");
    const car = cars.find((c) => c.creditDiscount && c.tradeinDiscount);
    assert.ok(car, "the demo has a car with discounts");
    const page = await s.open(DESKTOP, `/car/${car.slug}`);
    const block = page.getByTestId("honest-price");
    await block.waitFor();
    const price = kopecks(car.price);
    assert.equal(plain(await block.getByTestId("base-price").innerText()), plain(rubles(price)));
    const offs = [
      ["credit", "Скидка при кредите", car.creditDiscount],
      ["tradein", "Скидка при трейд-ин", car.tradeinDiscount],
      ["insurance", "Скидка при страховании", car.insuranceDiscount],
    ].filter(([, , v]) => v && kopecks(v) > 0);
    for (const [kind, label, value] of offs) {
      const row = plain(await block.getByTestId(`discount-${kind}`).innerText());
      assert.match(row, new RegExp(label));
      assert.ok(row.includes(`−${plain(rubles(kopecks(value)))}`), row);
    }
    const sum = offs.reduce((a, [, , v]) => a + kopecks(v), 0);
    const off = car.maxDiscount ? Math.min(sum, kopecks(car.maxDiscount)) : sum;
    const lowest = plain(await block.getByTestId("lowest-price").innerText());
    assert.match(lowest, /Цена со всеми скидками/);
    assert.ok(lowest.includes(plain(rubles(price - off))), lowest);
    assert.match(await block.innerText(), /Без обязательных дополнительных услуг и оборудования/);
    // The price with no conditions comes first.
    const text = plain(await block.innerText());
    assert.ok(text.indexOf("Цена без условий") < text.indexOf("Скидка при"));
    assert.deepEqual(page.errors, []);

    // Its card in a list carries the short form.
    await page.goto(`${s.base}/new-cars`);
    const card = page.getByTestId("car-card").filter({ hasText: car.name }).first();
    if (await card.count()) {
      const short = card.getByTestId("card-lowest-price");
      assert.ok(
        plain(await short.innerText()).includes(`${plain(rubles(price - off))} со всеми скидками`),
      );
    }
    await page.context().close();
  });

  it("a car without discounts looks as before", async () => {
    const cars = await s.api("/api/cars/fast?status=used&limit=20");
    const car = cars.find((c) => !c.creditDiscount && !c.tradeinDiscount && !c.insuranceDiscount);
    const page = await s.open(DESKTOP, `/car/${car.slug}`);
    await page.locator(".detail-price").waitFor();
    assert.equal(await page.getByTestId("honest-price").count(), 0);
    assert.equal(
      plain(await page.locator(".detail-price").innerText()),
      `от ${plain(rubles(kopecks(car.price)))}`,
    );
    await page.context().close();
  });
});

describe("credit calculator", () => {
  it("shows a known input's figures, the ПСК before the rate, and fills the request in one tap", async () => {
    const page = await s.open(DESKTOP, "/auto-credit");
    const calc = await openCalculator(page);
    await type(calc.getByLabel("Стоимость автомобиля, ₽"), 1_200_000);
    await type(calc.getByTestId("down-payment"), 200_000);
    // Both amounts read in groups of three once typed.
    assert.equal(
      await calc.getByLabel("Стоимость автомобиля, ₽").inputValue(),
      "1\u00a0200\u00a0000",
    );
    assert.equal(await calc.getByTestId("down-payment").inputValue(), "200\u00a0000");
    await calc.getByTestId("term").selectOption("60");
    assert.equal(plain(await calc.getByTestId("loan-amount").innerText()), "1 000 000 ₽");
    // 1,000,000 ₽ at 12 % for 60 months: 22,244.45 ₽ a month, shown in
    // whole rubles as every amount of the site.
    const row = calc.getByTestId("credit-program").filter({ hasText: twelve.name });
    assert.equal(
      plain(await row.getByTestId("program-payment").innerText()),
      "Платёж 22 244 ₽ в месяц",
    );
    assert.equal(await row.getByTestId("bank-name").innerText(), bank.name);
    assert.match(await row.innerText(), /Без обязательного страхования жизни/);
    assert.match(plain(await row.innerText()), /Срок от 6 до 84 мес\./);

    // The range spans every programme that fits this input.
    const { items } = await s.api("/api/credit-programs");
    const fits = items.filter(
      (p) => p.termMinMonths <= 60 && p.termMaxMonths >= 60 && p.minDownPaymentPercent * 12 <= 200,
    );
    const low = Math.min(...fits.map((p) => annuity(100_000_000, p.rateMin, 60)));
    const high = Math.max(...fits.map((p) => annuity(100_000_000, p.rateMax, 60)));
    const shown = plain(await calc.getByTestId("payment-range").innerText());
    assert.equal(shown, plain(range(low, high)));

    // ПСК before the rate in every programme, in type at least as large.
    const checks = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="credit-program"]')].map((li) => {
        const psk = li.querySelector('[data-testid="psk"]');
        const rate = li.querySelector('[data-testid="rate"]');
        return {
          before: Boolean(psk.compareDocumentPosition(rate) & Node.DOCUMENT_POSITION_FOLLOWING),
          psk: Number.parseFloat(getComputedStyle(psk).fontSize),
          rate: Number.parseFloat(getComputedStyle(rate).fontSize),
          text: psk.textContent,
        };
      }),
    );
    assert.equal(checks.length, items.length);
    for (const c of checks) {
      assert.ok(c.before, `${c.text}: ПСК after the rate`);
      assert.ok(c.psk >= c.rate, `${c.text}: ${c.psk}px < ${c.rate}px`);
      assert.match(c.text, /^ПСК /);
    }
    // The credit page's own advantage: ПСК heading first, the rate after it.
    const advantage = page.getByTestId("first-advantage");
    assert.match(await advantage.locator("h3").innerText(), /^ПСК /);
    assert.match(await advantage.locator("p").innerText(), /^Ставка /);
    // No bank advantage states a rate without its ПСК.
    for (const chip of await page.getByTestId("bank").locator(".chip-static").allInnerTexts()) {
      assert.doesNotMatch(chip, /ставк/i);
    }

    // One tap: the credit dialog with the loan, then the stored lead.
    await calc.getByTestId("credit-apply").click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    assert.equal(
      plain(await dialog.getByTestId("credit-terms").innerText()),
      "Сумма кредита 1 000 000 ₽ · первоначальный взнос 200 000 ₽ · срок 60 мес.",
    );
    const name = `Калькулятор ${mark()}`;
    await dialog.locator('input[name="name"]').fill(name);
    await dialog.locator('input[name="phone"]').fill("+7 921 555 12 34");
    await dialog.locator('input[name="consent"]').check();
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await toastText(page, "Заявка отправлена!");
    await dialog.waitFor({ state: "detached" }).catch(() => dialog.waitFor({ state: "hidden" }));
    const [lead] = s.query(
      "SELECT type, desired_amount_kopecks, down_payment_kopecks, term_months FROM leads WHERE name = ?",
      [name],
    );
    assert.deepEqual(lead, {
      type: "auto_credit",
      desired_amount_kopecks: 100_000_000,
      down_payment_kopecks: 20_000_000,
      term_months: 60,
    });
    // The admin sees them in the lead's details.
    const leads = await session.get("/api/leads?type=auto_credit");
    const stored = leads.find((l) => l.name === name);
    assert.equal(stored.termMonths, 60);
    assert.equal(stored.downPayment, "200000.00");
    assert.equal(stored.desiredAmount, "1000000.00");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("on a car page the price is less the credit discount, and the request names the car", async () => {
    const cars = await s.api("/api/cars/fast?status=new&limit=100");
    const car = cars.find((c) => c.creditDiscount);
    const page = await s.open(DESKTOP, `/car/${car.slug}`);
    const calc = await openCalculator(page);
    const credit = car.maxDiscount
      ? Math.min(kopecks(car.creditDiscount), kopecks(car.maxDiscount))
      : kopecks(car.creditDiscount);
    const price = kopecks(car.price) - credit;
    const shown = plain(await calc.getByTestId("credit-price").innerText());
    assert.ok(shown.includes(plain(rubles(price))), shown);
    assert.match(shown, /с учётом скидки при кредите/);
    await calc.getByTestId("term").selectOption("36");
    await type(calc.getByTestId("down-payment"), Math.ceil(price / 100 / 2));
    const loan = price - Math.ceil(price / 100 / 2) * 100;
    assert.equal(plain(await calc.getByTestId("loan-amount").innerText()), plain(rubles(loan)));
    const row = calc.getByTestId("credit-program").filter({ hasText: twelve.name });
    assert.equal(
      plain(await row.getByTestId("program-payment").innerText()),
      `Платёж ${plain(rubles(annuity(loan, 12, 36)))} в месяц`,
    );
    await calc.getByTestId("credit-apply").click();
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    assert.match(await dialog.innerText(), new RegExp(car.model));
    const name = `Калькулятор авто ${mark()}`;
    await dialog.locator('input[name="name"]').fill(name);
    await dialog.locator('input[name="phone"]').fill("89215551234");
    await dialog.locator('input[name="consent"]').check();
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await toastText(page, "Заявка отправлена!");
    const [lead] = s.query(
      "SELECT car_id, desired_amount_kopecks, term_months FROM leads WHERE name = ?",
      [name],
    );
    assert.deepEqual(lead, { car_id: car.id, desired_amount_kopecks: loan, term_months: 36 });
    await page.context().close();
  });

  it("an expired programme is gone from the API and the page, and marked in the admin", async () => {
    const expired = await addProgram({
      name: `Истекшая ${mark()}`,
      validFrom: "2024-01-01",
      validTo: "2024-12-31",
    });
    const { items } = await s.api("/api/credit-programs");
    assert.ok(!items.some((p) => p.id === expired.id));
    assert.ok(items.some((p) => p.id === twelve.id));
    const page = await s.open(DESKTOP, "/auto-credit");
    const calc = await openCalculator(page);
    await calc.getByTestId("credit-program").filter({ hasText: twelve.name }).waitFor();
    assert.equal(
      await calc.getByTestId("credit-program").filter({ hasText: expired.name }).count(),
      0,
    );
    assert.ok(!(await page.locator("body").innerText()).includes(expired.name));
    await page.context().close();

    const { page: admin } = await openAdmin(s, DESKTOP, "/admin/credit-programs");
    const card = admin.getByTestId("program-card").filter({ hasText: expired.name });
    await card.waitFor();
    assert.equal(await card.getByTestId("program-state").innerText(), "истекла");
    assert.equal(
      await admin
        .getByTestId("program-card")
        .filter({ hasText: twelve.name })
        .getByTestId("program-state")
        .innerText(),
      "на сайте",
    );
    await admin.context().close();
  });

  it("the footer's rate text comes from the programmes, ПСК before the rate", async () => {
    const { summary } = await s.api("/api/credit-programs");
    const page = await s.open(DESKTOP, "/trade-in");
    const footer = page.getByTestId("footer-credit");
    await footer.waitFor();
    const text = plain(await footer.innerText());
    assert.doesNotMatch(text, /4,5%/);
    assert.ok(text.includes("Полная стоимость кредита (ПСК)"));
    assert.ok(text.indexOf("ПСК") < text.indexOf("ставка"));
    const pct = (n) => `${n.toLocaleString("ru-RU", { maximumFractionDigits: 3 })}%`;
    assert.ok(text.includes(pct(summary.pskMin)), text);
    assert.ok(text.includes(pct(summary.rateMax)), text);
    for (const b of summary.banks) assert.ok(text.includes(b), `${b} missing`);
    await page.context().close();
  });

  it("fits a 360 px phone", async () => {
    const page = await s.open(NARROW, "/auto-credit");
    const calc = await openCalculator(page);
    await calc.getByTestId("payment-range").waitFor();
    assert.equal(await scrollsSideways(page), false);
    const cars = await s.api("/api/cars/fast?status=new&limit=100");
    const car = cars.find((c) => c.creditDiscount);
    await page.goto(`${s.base}/car/${car.slug}`);
    await page.getByTestId("honest-price").waitFor();
    await openCalculator(page);
    assert.equal(await scrollsSideways(page), false);
    const box = await page.getByTestId("credit-apply").boundingBox();
    assert.ok(box && box.width <= 360 && box.height >= 40, JSON.stringify(box));
    await page.context().close();
  });
});

describe("accessibility", () => {
  it("the calculator, the honest price and the one-tap dialog pass axe, light and dark", async () => {
    const cars = await s.api("/api/cars/fast?status=new&limit=100");
    const car = cars.find((c) => c.creditDiscount);
    for (const viewport of [DESKTOP, NARROW]) {
      const page = await s.open(viewport, `/car/${car.slug}`);
      await page.emulateMedia({ reducedMotion: "reduce" });
      await page.getByTestId("honest-price").waitFor();
      const calc = await openCalculator(page);
      await calc.getByTestId("payment-range").waitFor();
      for (const theme of ["light", "dark"]) {
        await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
        await expectNoViolations(page, `car page with the calculator, ${theme}, ${viewport.width}`);
      }
      await calc.getByTestId("credit-apply").click();
      await page.locator("dialog[open]").waitFor();
      await expectNoViolations(page, `credit dialog from the calculator, ${viewport.width}`);
      await page.context().close();
    }
  });
});

describe("admin", () => {
  it("adds a programme with every field; it appears on the credit page", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin/credit-programs");
    await page.getByRole("button", { name: "Добавить программу" }).click();
    const dialog = page.getByTestId("program-dialog");
    await dialog.waitFor();
    // Empty: each field says what it needs.
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    const error = (text) => dialog.locator(".field-error").filter({ hasText: text });
    await error("Выберите банк").waitFor();
    await error("Название программы обязательно").waitFor();
    await error("ПСК должна быть больше 0 и меньше 100%").first().waitFor();
    const name = `Новая программа ${mark()}`;
    await dialog.getByLabel(/^Банк/).selectOption(bank.id);
    await dialog.getByLabel(/^Название программы/).fill(name);
    await dialog.getByLabel(/^ПСК от/).fill("7,123");
    await dialog.getByLabel(/^ПСК до/).fill("19,9");
    await dialog.getByLabel(/^Ставка от/).fill("7,5");
    await dialog.getByLabel(/^Ставка до/).fill("18");
    // ПСК below the rate is refused before sending, in the server's words.
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await error("ПСК не может быть меньше минимальной ставки").waitFor();
    await dialog.getByLabel(/^ПСК от/).fill("7,9");
    await dialog.getByLabel(/^Срок от/).fill("3");
    await dialog.getByLabel(/^Срок до/).fill("60");
    await dialog.getByLabel(/^Первоначальный взнос от/).fill("15");
    await dialog.getByLabel(/^Действует по/).fill("2099-12-31");
    await dialog.getByLabel(/^Условия/).fill("Требуется КАСКО на весь срок");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Программа добавлена"), /Успешно/);
    const created = (await session.get("/api/admin/credit-programs")).items.find(
      (p) => p.name === name,
    );
    trash.track(`/api/admin/credit-programs/${created.id}`);
    assert.deepEqual(
      [
        created.pskMin,
        created.pskMax,
        created.rateMin,
        created.rateMax,
        created.termMinMonths,
        created.termMaxMonths,
        created.minDownPaymentPercent,
        created.validTo,
        created.validFrom,
        created.active,
      ],
      [7.9, 19.9, 7.5, 18, 3, 60, 15, "2099-12-31", today, true],
    );
    const card = page.getByTestId("program-card").filter({ hasText: name });
    await card.waitFor();
    assert.match(plain(await card.innerText()), /ПСК от 7,9% до 19,9%/);

    const site = await s.open(DESKTOP, "/auto-credit");
    const calc = await openCalculator(site);
    const row = calc.getByTestId("credit-program").filter({ hasText: name });
    await row.waitFor();
    assert.match(plain(await row.innerText()), /ПСК от 7,9% до 19,9% годовых/);
    assert.match(await row.innerText(), /Требуется КАСКО на весь срок/);
    await site.context().close();

    // Edit, then delete with a confirmation.
    await card.getByRole("button", { name: `Изменить программу: ${name}` }).click();
    await dialog.getByLabel(/^Ставка до/).fill("17,5");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Программа обновлена"), /Успешно/);
    await card.filter({ hasText: "до 17,5%" }).waitFor();
    await card.getByRole("button", { name: `Удалить программу: ${name}` }).click();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Удалить" }).click();
    assert.match(await toastText(page, "Программа удалена"), /Успешно/);
    await card.waitFor({ state: "detached" });
    await page.context().close();
  });

  it("the car form saves the discounts", async () => {
    const [any] = await s.api("/api/cars/fast?status=used&limit=1");
    const base = await session.get(`/api/admin/cars/${any.id}`);
    const name = `Скидочный ${mark()}`;
    const car = await session.post("/api/cars", {
      ...carInput(base),
      name,
      slug: mark("discounts"),
      price: "1500000",
      vin: null,
      creditDiscount: null,
      tradeinDiscount: null,
      insuranceDiscount: null,
      maxDiscount: null,
    });
    trash.track(`/api/cars/${car.id}`);
    const { page } = await openAdmin(s, DESKTOP, "/admin/cars");
    await page.getByTestId("car-search").fill(name);
    await page.getByTestId("found").filter({ hasText: "Найдено: 1" }).waitFor();
    await page.getByRole("button", { name: new RegExp(`^Изменить .*${name}`) }).click();
    const dialog = page.getByTestId("car-dialog");
    const form = dialog.getByTestId("discounts");
    await form.waitFor();
    await form.getByLabel(/^Скидка при кредите/).fill("1500000,01");
    await form.getByLabel(/^Скидка при трейд-ин/).click();
    await form.getByText("Скидка не может быть больше цены автомобиля").waitFor();
    await form.getByLabel(/^Скидка при кредите/).fill("50 000");
    await form.getByLabel(/^Скидка при трейд-ин/).fill("30000");
    await form.getByLabel(/^Максимальная скидка/).fill("60000");
    assert.equal(
      plain(await form.getByTestId("discount-preview").innerText()),
      "Цена со всеми скидками: 1 440 000 ₽",
    );
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Автомобиль обновлен"), /Успешно/);
    const saved = await session.get(`/api/admin/cars/${car.id}`);
    assert.equal(saved.creditDiscount, "50000.00");
    assert.equal(saved.tradeinDiscount, "30000.00");
    assert.equal(saved.insuranceDiscount, null);
    assert.equal(saved.maxDiscount, "60000.00");
    await page.context().close();
  });
});

/** The fields of a car the API takes, from the admin's car. */
function carInput(car) {
  const keys = [
    "brandId",
    "name",
    "model",
    "slug",
    "year",
    "price",
    "monthlyPayment",
    "dailyPrice",
    "status",
    "bodyType",
    "transmission",
    "drivetrain",
    "fuelType",
    "engine",
    "mileage",
    "color",
    "vin",
    "mainImage",
    "images",
    "trimLevels",
    "published",
    "inStock",
    "featured",
    "creditDiscount",
    "tradeinDiscount",
    "insuranceDiscount",
    "maxDiscount",
  ];
  return Object.fromEntries(keys.filter((k) => car[k] !== undefined).map((k) => [k, car[k]]));
}
