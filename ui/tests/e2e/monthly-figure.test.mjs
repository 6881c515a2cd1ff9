// One monthly figure (docs/credit.md, "One monthly figure"; issue 43 item
// 11): on a new or used car's page the «от … ₽/мес» under the price is the
// credit calculator's first figure a screen below, as a person reads both;
// its card in the catalogue says the same; a lease car keeps its own
// payment and has no calculator.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DESKTOP, start } from "./harness.mjs";

const plain = (t) => t.replace(/[\u00a0\u202f]/g, " ").trim();
/** The first amount of a text: "от 84 319 до 98 001 ₽" → "84 319". */
const firstAmount = (text) => /(\d[\d ]*\d|\d)/.exec(plain(text))?.[1];

let s;
before(async () => {
  s = await start();
});
after(async () => {
  await s?.stop();
});

describe("one monthly figure", () => {
  for (const status of ["new", "used"]) {
    it(`a ${status} car's page shows the calculator's first figure under its price`, async () => {
      const cars = await s.api(`/api/cars/fast?status=${status}&limit=20`);
      const car = cars.find((c) => c.monthlyPayment);
      assert.ok(car, `the demo has a ${status} car with a monthly figure`);
      const page = await s.open(DESKTOP, `/car/${car.slug}`);
      const monthly = page.getByTestId("car-monthly");
      await monthly.waitFor();
      const near = plain(await monthly.innerText());
      assert.match(near, /^от \d[\d ]* ₽\/мес$/);

      const block = page.getByTestId("credit-block");
      await block.scrollIntoViewIfNeeded();
      const range = page.getByTestId("payment-range");
      await range.waitFor();
      const first = plain(await range.innerText());
      assert.equal(firstAmount(near), firstAmount(first), `${near} / ${first}`);
      assert.ok(first.startsWith(`от ${firstAmount(near)} `) || first === `${firstAmount(near)} ₽`);

      // Its card in the catalogue says the same.
      await page.goto(`${s.base}/${status === "new" ? "new" : "used"}-cars`);
      const card = page
        .getByTestId("car-card")
        .filter({ has: page.locator(`a[href="/car/${car.slug}"]`) })
        .first();
      if (await card.count()) {
        assert.equal(plain(await card.getByTestId("card-monthly").innerText()), near);
      }
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  it("a lease car keeps its own payment and has no calculator", async () => {
    const cars = await s.api("/api/cars/fast?status=lease&limit=20");
    const car = cars.find((c) => c.monthlyPayment);
    assert.ok(car, "the demo has a lease car with a payment");
    const page = await s.open(DESKTOP, `/car/${car.slug}`);
    const monthly = page.getByTestId("car-monthly");
    await monthly.waitFor();
    const rubles = Math.floor(Number(car.monthlyPayment)).toLocaleString("ru-RU");
    assert.equal(plain(await monthly.innerText()), plain(`от ${rubles} ₽/мес`));
    assert.equal(await page.getByTestId("credit-block").count(), 0);
    await page.context().close();
  });
});
