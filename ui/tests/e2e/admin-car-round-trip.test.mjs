// An imported car saved from its form keeps what the form does not show
// (docs/admin.md, "The car form's round trip"): the dealer opens a car with
// a feed id, changes its price and saves; the feed id is still there and
// the audit names the price alone.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectToast, openAdmin } from "./admin.mjs";
import { apiSession, mark } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

let s;
let admin;
let car;
before(async () => {
  s = await start();
  admin = await apiSession(s.base);
  const [brand] = await s.api("/api/brands/fast");
  const tag = mark("feed");
  // As an Auto.ru import would leave it: a feed id, a VIN, a new car with
  // a few kilometres on it.
  car = await admin.post("/api/cars", {
    brandId: brand.id,
    name: `Импорт ${tag}`,
    slug: tag,
    model: "Feed",
    year: 2025,
    price: "3 100 000",
    status: "new",
    bodyType: "crossover",
    transmission: "automatic",
    fuelType: "gasoline",
    engine: "2.0 л, 190 л.с.",
    mileage: 9,
    vin: "XW8ZZZ61ZRG012345",
    externalId: "4741654998",
  });
});
after(async () => {
  if (car) await admin.del(`/api/cars/${car.id}`, { ok: false });
  await s?.stop();
});

describe("the car form's round trip", () => {
  it("keeps an imported car's feed id when its price is changed", async () => {
    const page = await openAdmin(s, DESKTOP, "/admin/cars", "Автомобили");
    await page.getByTestId("car-search").fill(car.slug);
    await page.getByTestId("found").filter({ hasText: "Найдено: 1" }).waitFor();
    await page.getByRole("button", { name: `Изменить ${car.brandName} ${car.name} Feed` }).click();
    const dialog = page.getByTestId("car-dialog");
    await dialog.getByTestId("car-form").waitFor();
    assert.equal(await dialog.getByLabel("VIN").inputValue(), "XW8ZZZ61ZRG012345");
    await dialog.getByLabel("Цена, ₽").fill("2 990 000");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await expectToast(page, "Успешно", "Автомобиль обновлен");
    await dialog.waitFor({ state: "hidden" });
    await page.getByTestId("car-price").filter({ hasText: "2 990 000" }).waitFor();

    const saved = await admin.get(`/api/admin/cars/${car.id}`);
    assert.equal(saved.price, "2990000.00");
    assert.equal(saved.externalId, "4741654998");
    assert.equal(saved.vin, "XW8ZZZ61ZRG012345");
    assert.equal(saved.mileage, 9, "not shown for a new car: kept");
    const history = await admin.get(`/api/admin/audit?objectType=car&objectId=${car.id}&limit=1`);
    assert.deepEqual(history.items[0].changes, [
      { field: "price", from: "3100000.00", to: "2990000.00" },
    ]);
    // The panel asks who is logged in before the login form: a 401.
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("401")),
      [],
    );
    await page.context().close();
  });
});
