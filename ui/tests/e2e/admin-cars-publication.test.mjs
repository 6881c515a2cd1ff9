// Publishing many cars at once in /admin/cars (docs/admin.md, "Publishing
// many cars"): an admin chooses cars by their boxes (named by the car's
// title), takes them off the site with one press and puts them back by
// keyboard with 'select all'; the site and the audit follow.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations } from "./a11y.mjs";
import { expectToast, openAdmin } from "./admin.mjs";
import { apiSession, mark } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

let s;
let admin;
const made = [];
before(async () => {
  s = await start();
  admin = await apiSession(s.base);
});
after(async () => {
  for (const id of made) await admin.del(`/api/cars/${id}`, { ok: false });
  await s?.stop();
});

/** Three published cars of one brand, named by a mark of this run. */
async function threeCars(tag) {
  const [brand] = await s.api("/api/brands/fast");
  const cars = [];
  for (const n of [1, 2, 3]) {
    const car = await admin.post("/api/cars", {
      brandId: brand.id,
      name: `${tag} ${n}`,
      slug: `${tag}-${n}`,
      model: "Пакет",
      year: 2024,
      price: "2 000 000",
      status: "new",
      bodyType: "sedan",
      transmission: "automatic",
      fuelType: "gasoline",
      engine: "2.0 л",
    });
    made.push(car.id);
    cars.push(car);
  }
  return cars;
}

const title = (car) => `${car.brandName} ${car.name} ${car.model}`;

/** Whether a visitor finds the car. */
async function onSite(car) {
  const r = await fetch(`${s.base}/api/cars/slug/${car.slug}`);
  assert.ok(r.status === 200 || r.status === 404, `${car.slug}: ${r.status}`);
  return r.status === 200;
}

describe("publishing many cars", () => {
  it("takes the chosen cars off the site and puts the page back by keyboard", async () => {
    const tag = mark("vybor");
    const cars = await threeCars(tag);
    const page = await openAdmin(s, DESKTOP, "/admin/cars", "Автомобили");
    await page.getByTestId("car-search").fill(tag);
    await page.getByTestId("found").filter({ hasText: "Найдено: 3" }).waitFor();
    const bar = page.getByTestId("publication-bar");
    const count = bar.getByTestId("chosen-count");
    assert.equal(await count.getAttribute("aria-live"), "polite");
    assert.match(await count.innerText(), /^Отметьте автомобили/);
    const publish = bar.getByRole("button", { name: "Опубликовать" });
    const unpublish = bar.getByRole("button", { name: "Снять с публикации" });
    assert.ok(await publish.isDisabled());
    assert.ok(await unpublish.isDisabled());

    // Two cars chosen by their boxes, found by the car's title.
    await page.getByRole("checkbox", { name: title(cars[0]), exact: true }).check();
    await page.getByRole("checkbox", { name: title(cars[2]), exact: true }).check();
    await count.filter({ hasText: "Выбрано: 2 автомобиля" }).waitFor();
    await expectNoViolations(page, "the cars screen with cars chosen");
    await unpublish.click();
    await expectToast(page, "Успешно", "Снято с публикации: 2 автомобиля");
    await count.filter({ hasText: "Отметьте автомобили" }).waitFor();
    const card = (car) => page.locator(`[data-testid="car-card"][data-slug="${car.slug}"]`);
    await card(cars[0]).getByText("Черновик").waitFor();
    await card(cars[2]).getByText("Черновик").waitFor();
    assert.equal(await card(cars[1]).getByText("Черновик").count(), 0);
    assert.deepEqual(
      [await onSite(cars[0]), await onSite(cars[1]), await onSite(cars[2])],
      [false, true, false],
    );

    // By keyboard: 'select all' with Space, then to «Опубликовать» and Enter.
    const all = bar.getByRole("checkbox", { name: "Выбрать все на странице" });
    await all.focus();
    await page.keyboard.press("Space");
    await count.filter({ hasText: "Выбрано: 3 автомобиля" }).waitFor();
    assert.ok(await all.isChecked());
    await page.getByRole("checkbox", { name: title(cars[1]), exact: true }).uncheck();
    await count.filter({ hasText: "Выбрано: 2 автомобиля" }).waitFor();
    // Part of the page chosen: the box says so (mixed).
    assert.equal(await all.evaluate((box) => box.indeterminate), true);
    await page.getByRole("checkbox", { name: title(cars[1]), exact: true }).check();
    await all.focus();
    await page.keyboard.press("Tab");
    assert.equal(await publish.evaluate((b) => b === document.activeElement), true);
    await page.keyboard.press("Enter");
    await expectToast(page, "Успешно", "Опубликовано: 2 автомобиля; уже были опубликованы: 1");
    await page.getByTestId("cars").getByText("Черновик").first().waitFor({ state: "detached" });
    assert.deepEqual(
      [await onSite(cars[0]), await onSite(cars[1]), await onSite(cars[2])],
      [true, true, true],
    );

    // Each car's history has its entries, as its form would leave.
    const history = await admin.get(`/api/admin/audit?objectType=car&objectId=${cars[0].id}`);
    assert.deepEqual(
      history.items.slice(0, 2).map((e) => e.summary),
      [
        `Опубликован автомобиль: ${cars[0].brandName} ${cars[0].name}`,
        `Снят с публикации автомобиль: ${cars[0].brandName} ${cars[0].name}`,
      ],
    );
    // The panel asks who is logged in before the login form: a 401.
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("401")),
      [],
    );
    await page.context().close();
  });
});
