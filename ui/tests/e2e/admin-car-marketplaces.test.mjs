// Why a car is not on a marketplace, on the car (docs/admin.md, "Why a car is
// not on a marketplace"): a used demo car whose owners by ПТС are not stated
// shows «Не выгружается на Авито» with the reason in its edit dialog; staff
// fill «Владельцев по ПТС», save, and the notice is gone. The parser screen
// counts the cars each feed leaves out and lists them.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { apiSession, expectToast, openAdmin } from "./admin.mjs";
import { DESKTOP, start } from "./harness.mjs";

const NO_OWNERS = "не указано число владельцев по ПТС";

let s;
before(async () => {
  s = await start();
});
after(() => s?.stop());

/** A used demo car every feed takes, made to lack its owners. */
async function usedCarWithoutOwners(api) {
  const list = await api.call("GET", "/api/admin/cars?condition=used&published=true&perPage=50");
  assert.equal(list.status, 200);
  let car = null;
  for (const item of list.body.items) {
    const left = await api.call("GET", `/api/admin/cars/${item.id}/left-out`);
    if (left.status === 200 && left.body.length === 0 && item.inStock) {
      car = item;
      break;
    }
  }
  assert.ok(car, "a used demo car every feed takes");
  const fields = [
    "brandId",
    "name",
    "slug",
    "model",
    "year",
    "price",
    "status",
    "bodyType",
    "transmission",
    "fuelType",
    "engine",
  ];
  const body = Object.fromEntries(fields.map((f) => [f, car[f]]));
  const saved = await api.call("PUT", `/api/cars/${car.id}`, { ...body, owners: null });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.equal(saved.body.owners, null);
  return car;
}

describe("a car left out of the marketplaces", () => {
  it("says why on the car, and the notice goes once the owners are filled", async () => {
    const api = await apiSession(s.base);
    const car = await usedCarWithoutOwners(api);
    const page = await openAdmin(s, DESKTOP, `/admin/cars?edit=${car.id}`, "Автомобили");
    const dialog = page.getByTestId("car-dialog");
    await dialog.getByTestId("car-form").waitFor();
    const notice = dialog.getByRole("status").filter({ hasText: "Не выгружается на Авито" });
    await notice.waitFor();
    const avito = notice.locator("div").filter({ hasText: "Не выгружается на Авито:" });
    assert.deepEqual(await avito.getByRole("listitem").allInnerTexts(), [NO_OWNERS]);
    const autoru = notice.locator("div").filter({ hasText: "Не выгружается на Авто.ру:" });
    assert.deepEqual(await autoru.getByRole("listitem").allInnerTexts(), [NO_OWNERS]);

    // The field checks what the server checks.
    const owners = dialog.getByLabel("Владельцев по ПТС");
    assert.equal(await owners.inputValue(), "");
    await owners.fill("100");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.getByText("Владельцев по ПТС — от 0 до 99").waitFor();
    await owners.fill("2");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await expectToast(page, "Автомобиль обновлен");
    await dialog.waitFor({ state: "detached" });

    // Opened again: every feed takes it, nothing to say.
    await page.getByRole("heading", { level: 1, name: "Автомобили" }).waitFor();
    await page.goto(`${s.base}/admin/cars?edit=${car.id}`);
    const again = page.getByTestId("car-dialog");
    await again.getByTestId("car-form").waitFor();
    assert.equal(await again.getByLabel("Владельцев по ПТС").inputValue(), "2");
    const left = await api.call("GET", `/api/admin/cars/${car.id}/left-out`);
    assert.deepEqual(left.body, []);
    assert.equal(await again.getByTestId("left-out").count(), 0);
    // The panel's first look before the login is a 401.
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("401")),
      [],
    );
    await page.context().close();
  });

  it("counts and lists on the parser screen the cars each feed leaves out", async () => {
    const api = await apiSession(s.base);
    const car = await usedCarWithoutOwners(api);
    const page = await openAdmin(s, DESKTOP, "/admin/parser", "Парсер автомобилей");
    const counts = page.getByTestId("left-out-counts");
    await counts.getByText("Не выгружаются на Авито:").waitFor();
    const list = page.getByTestId("left-out-list");
    const title = `${car.brandName} ${car.name} ${car.year}`;
    const item = list
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: title }) });
    await item.first().waitFor();
    assert.ok((await item.first().innerText()).includes(NO_OWNERS));
    // The feeds' addresses include Auto.ru's two, one a section.
    const links = await page.getByTestId("feed-link").evaluateAll((els) => els.map((e) => e.value));
    assert.ok(
      links.some((u) => u.endsWith("/feeds/autoru-new.xml")),
      links.join(" "),
    );
    assert.ok(
      links.some((u) => u.endsWith("/feeds/autoru-used.xml")),
      links.join(" "),
    );
    // Each car links to its edit screen.
    await item.first().getByRole("link").first().click();
    await page.getByTestId("car-dialog").getByTestId("car-form").waitFor();
    // The panel's first look before the login is a 401.
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("401")),
      [],
    );
    await page.context().close();
  });
});
