// The lease page and a brand's page at a dealer's scale: numbered pages
// the server draws (docs/catalogue.md), turned in place with scripts and by
// links without. A server of its own holds 400 generated cars
// (bench/load_cars.py), whatever the demo has.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DESKTOP, PHONE, start } from "./harness.mjs";

let s;
/** The brand with the most cars, its counts by status, a model with a space. */
let brand;
before(async () => {
  s = await start({ demo: false });
  const loader = new URL("../../../bench/load_cars.py", import.meta.url).pathname;
  execFileSync("python3", [loader, join(s.data, "dealership.db"), "400"]);
  // The server hears another process's write within a tenth of a second.
  await new Promise((r) => setTimeout(r, 300));
  let best;
  for (const b of await s.api("/api/brands/fast")) {
    const counts = {};
    for (const status of ["new", "used", "lease"]) {
      counts[status] = (await s.api(`/api/cars/count?status=${status}&brandId=${b.id}`)).count;
    }
    if (!best || counts.used > best.counts.used) best = { ...b, counts };
  }
  brand = best;
  brand.models = await s.api(`/api/brands/${brand.id}/models`);
  brand.spaced = brand.models.find((m) => m.includes(" "));
  assert.ok(brand.counts.used > 8, `a brand with two pages of used cars: ${brand.counts.used}`);
});
after(() => s?.stop());

const cards = (page) => page.locator('[data-testid="car-card"]');
const links = (scope) =>
  scope.locator('[data-testid="car-card"] h3 a').evaluateAll((as) => as.map((a) => a.href));
/** A card's price in rubles ("2 350 000 ₽"). */
const prices = (scope) =>
  scope
    .locator(".car-card-price")
    .evaluateAll((els) => els.map((e) => Number(e.textContent.replace(/\D/g, ""))));

describe("the lease page", () => {
  it("desktop: 20 a page, page 2 by its number, back to page 1", async () => {
    const total = (await s.api("/api/cars/count?status=lease")).count;
    assert.ok(total > 40, `three pages of lease cars: ${total}`);
    const page = await s.open(DESKTOP, "/lease-cars");
    assert.equal(await cards(page).count(), 20);
    const first = await links(page);
    const nav = page.getByRole("navigation", { name: "Страницы" });
    await nav.getByRole("button", { name: "Страница 2" }).click();
    await page.waitForURL(/\/lease-cars\?page=2$/);
    // Page 2's cards in place of page 1's (a skeleton between them).
    await page.waitForFunction((href) => {
      const shown = document.querySelectorAll('[data-testid="car-card"] h3 a');
      return shown.length === 20 && shown[0].href !== href;
    }, first[0]);
    const second = await links(page);
    assert.equal(second.length, 20);
    assert.ok(!second.some((l) => first.includes(l)), "page 2 shows other cars");
    await page.goBack();
    await page.waitForURL(/\/lease-cars$/);
    assert.deepEqual(await links(page), first);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("phone: 10 a page", async () => {
    const page = await s.open(PHONE, "/lease-cars?page=3");
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="car-card"]').length === 10,
    );
    const nav = page.getByRole("navigation", { name: "Страницы" });
    assert.equal(
      await nav.getByRole("button", { name: "Страница 3" }).getAttribute("aria-current"),
      "page",
    );
    await page.context().close();
  });
});

describe("a brand's page", () => {
  it("counts every car, turns a section's pages cheapest first, filters by a model", async () => {
    const page = await s.open(DESKTOP, `/brand/${brand.slug}`);
    const all = brand.counts.new + brand.counts.used + brand.counts.lease;
    const counters = page.getByRole("list", { name: "Автомобили марки" });
    assert.match(await counters.innerText(), new RegExp(`${all}\\s+всего автомобилей`));
    const used = page.getByRole("region", { name: "Автомобили с пробегом" });
    assert.match(
      await used.getByRole("heading", { level: 2 }).innerText(),
      new RegExp(`\\(${brand.counts.used}\\)`),
    );
    assert.equal(await cards(used).count(), 8, "8 a section's page");
    const firstPrices = await prices(used);
    assert.deepEqual(
      firstPrices,
      [...firstPrices].sort((a, b) => a - b),
      "cheapest first",
    );

    const nav = used.getByRole("navigation", { name: "Страницы: Автомобили с пробегом" });
    await nav.getByRole("button", { name: "Следующая страница" }).click();
    await page.waitForURL(new RegExp(`/brand/${brand.slug}\\?used=2$`));
    await page.waitForFunction(
      () =>
        document.querySelector('#section-used [aria-current="page"]')?.textContent === "2" &&
        document.querySelectorAll('#section-used [data-testid="car-card"]').length > 0,
    );
    const secondPrices = await prices(used);
    assert.ok(secondPrices.length > 0);
    assert.ok(secondPrices[0] >= firstPrices.at(-1), "page 2 goes on from page 1's dearest");
    // The section's heading comes on the screen after the turn.
    await page.waitForFunction(() => {
      const top = document.querySelector("#section-used h2")?.getBoundingClientRect().top;
      return top !== undefined && top >= -1 && top < window.innerHeight / 2;
    });

    // The model filter (a model whose name has a space): the URL, the sections, the counters.
    await page.locator('select[name="model"]').selectOption(brand.spaced);
    await page.waitForURL(/model=/);
    assert.equal(
      new URL(page.url()).searchParams.get("model"),
      brand.spaced,
      "the page URL holds the model; the section's page starts over",
    );
    await page.waitForFunction((model) => {
      const titles = [...document.querySelectorAll('[data-testid="car-card"] h3')];
      return titles.length > 0 && titles.every((h) => h.textContent.includes(model));
    }, brand.spaced);
    let shown = 0;
    for (const status of ["new", "used", "lease"]) {
      const url = `/api/cars/count?status=${status}&brandId=${brand.id}&model=${encodeURIComponent(brand.spaced)}`;
      shown += Math.min((await s.api(url)).count, 8);
    }
    assert.equal(await cards(page).count(), shown, "each section's first page");
    assert.match(await counters.innerText(), new RegExp(`${all}\\s+всего автомобилей`));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("without scripts: a section's page is a link and «Показать» sends the model", async () => {
    const page = await s.open(DESKTOP, `/brand/${brand.slug}`, { javaScriptEnabled: false });
    const used = page.getByRole("region", { name: "Автомобили с пробегом" });
    const nav = used.getByRole("navigation", { name: "Страницы: Автомобили с пробегом" });
    await nav.getByRole("button", { name: "Страница 2" }).click();
    await page.waitForURL(/\?used=2$/);
    assert.equal(
      await page
        .getByRole("region", { name: "Автомобили с пробегом" })
        .locator('[aria-current="page"]')
        .innerText(),
      "2",
    );
    assert.ok((await cards(page).count()) > 0);
    await page.locator('select[name="model"]').selectOption(brand.spaced);
    await page.getByRole("button", { name: "Показать" }).click();
    await page.waitForURL(/model=/);
    for (const title of await page.locator('[data-testid="car-card"] h3').allInnerTexts()) {
      assert.ok(title.includes(brand.spaced), title);
    }
    await page.context().close();
  });
});
