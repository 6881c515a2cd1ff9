// Filters, pagination, load-more and galleries against the demo catalogue.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DESKTOP, PHONE, start } from "./harness.mjs";

let s;
let newCount;
before(async () => {
  s = await start();
  newCount = (await s.api("/api/cars/count?status=new")).count;
  assert.ok(newCount > 20, `the demo needs more than 20 new cars, has ${newCount}`);
});
after(() => s?.stop());

const cards = (page) => page.locator('[data-testid="car-card"]');
const countText = (page) => page.getByTestId("count").innerText();
/** The first card's link: slugs are unique, names need not be. */
const firstTitle = (page) => cards(page).first().locator("h3 a").getAttribute("href");
const number = (text) => Number.parseInt(text.replace(/\D/g, ""), 10);
/** Waits (a few seconds at most) for the count the server sends for a new URL. */
const settle = (page, n) =>
  page
    .waitForFunction(
      (n) =>
        document.querySelector('[data-testid="count"]')?.textContent?.includes(`Найдено: ${n} `),
      n,
      { timeout: 5000 },
    )
    .catch(() => {});

describe("new cars", () => {
  it("desktop: 20 per page, load-more appends 20, numbered pages, URL state and back", async () => {
    const page = await s.open(DESKTOP, "/new-cars");
    await cards(page).first().waitFor();
    assert.equal(number(await countText(page)), newCount);
    assert.match(await countText(page), /^Найдено: \d+ автомобил(ь|я|ей)$/);
    assert.equal(await cards(page).count(), 20);
    const pages = Math.ceil(newCount / 20);
    const nav = page.getByRole("navigation", { name: "Страницы" });
    assert.ok(await nav.getByRole("button", { name: `Страница ${pages}` }).isVisible());

    await page.getByRole("button", { name: "Показать ещё" }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="car-card"]').length > 20,
    );
    assert.equal(await cards(page).count(), Math.min(40, newCount));

    const page1First = await firstTitle(page);
    await nav.getByRole("button", { name: "Страница 2" }).click();
    await page.waitForURL(/[?&]page=2/);
    await page.waitForFunction(
      (t) => document.querySelector('[data-testid="car-card"] h3 a')?.getAttribute("href") !== t,
      page1First,
    );
    assert.equal(await cards(page).count(), Math.min(20, newCount - 20));
    assert.equal(
      await nav.getByRole("button", { name: "Страница 2" }).getAttribute("aria-current"),
      "page",
    );

    await page.goBack();
    await page.waitForURL((url) => !url.search.includes("page="));
    await page.waitForFunction(
      (t) => document.querySelector('[data-testid="car-card"] h3 a')?.getAttribute("href") === t,
      page1First,
    );
    await page.context().close();
  });

  it("desktop: a filter resets to page 1, shows the clear button, and clears", async () => {
    const brands = await s.api("/api/brands/fast");
    const brand = brands.find((b) => b.carCount > 0);
    const expected = (await s.api(`/api/cars/count?status=new&brandId=${brand.id}`)).count;
    const page = await s.open(DESKTOP, "/new-cars?page=2");
    await cards(page).first().waitFor();
    assert.equal(await page.getByRole("button", { name: "Сбросить фильтры" }).count(), 0);
    await page.locator('select[name="brand"]').selectOption(brand.slug);
    await page.waitForURL((url) => url.search === `?brand=${brand.slug}`);
    await page.waitForFunction(
      (n) =>
        document.querySelector('[data-testid="count"]')?.textContent?.includes(`Найдено: ${n} `),
      expected,
    );
    // The count can be drawn a moment before the filtered list.
    if (expected > 0) await cards(page).first().waitFor();
    const names = await cards(page).locator("h3").allInnerTexts();
    assert.ok(names.length > 0 || expected === 0);
    const clear = page.locator(".filter-card").getByRole("button", { name: "Сбросить фильтры" });
    assert.ok(await clear.isVisible());
    await clear.click();
    await page.waitForURL((url) => url.search === "");
    assert.equal(await clear.count(), 0);

    // The brand strip and the price slider change the URL too.
    await page.locator(".brand-strip").getByRole("button", { name: brand.name }).click();
    await page.waitForURL(/brand=/);
    await page.locator(".brand-strip").getByRole("button", { name: "Все" }).click();
    await page.waitForURL((url) => !url.search.includes("brand="));
    const slider = page.getByTestId("price-slider");
    await slider.focus();
    for (let i = 0; i < 10; i++) await slider.press("ArrowLeft");
    await page.waitForURL(/price=9000000/);
    await page.context().close();
  });

  it("phone: 10 per page", async () => {
    const page = await s.open(PHONE, "/new-cars");
    await cards(page).first().waitFor();
    assert.equal(await cards(page).count(), 10);
    const pages = Math.ceil(newCount / 10);
    assert.ok(await page.getByRole("button", { name: `Страница ${pages}` }).isVisible());
    await page.context().close();
  });
});

describe("used cars", () => {
  it("loads the whole list, no load-more, pages in the URL", async () => {
    const all = (await s.api("/api/cars/count?status=used")).count;
    const page = await s.open(DESKTOP, "/used-cars");
    await cards(page).first().waitFor();
    assert.equal(number(await countText(page)), all);
    assert.equal(await page.getByRole("button", { name: "Показать ещё" }).count(), 0);
    assert.equal(await cards(page).count(), Math.min(20, all));
    if (all > 20) {
      await page.getByRole("button", { name: "Следующая страница" }).click();
      await page.waitForURL(/page=2/);
    }
    await page.context().close();
  });
});

describe("body-type page", () => {
  it("condition buttons and the brand filter change the count and the URL", async () => {
    const all = await s.api("/api/cars/body-type/crossover/fast?limit=100");
    const page = await s.open(DESKTOP, "/body-type/crossover");
    await page.locator("h1", { hasText: "Кроссоверы" }).waitFor();
    await page.getByTestId("count").filter({ hasText: "Найдено" }).waitFor();
    assert.equal(number(await countText(page)), all.length);
    await page.getByRole("button", { name: "Новые", exact: true }).click();
    await page.waitForURL(/condition=new/);
    const fresh = all.filter((c) => c.status === "new").length;
    await settle(page, fresh);
    assert.equal(number(await countText(page)), fresh);
    await page.getByRole("button", { name: "БУ", exact: true }).click();
    await page.waitForURL(/condition=used/);
    const used = all.filter((c) => c.status === "used").length;
    await settle(page, used);
    assert.equal(number(await countText(page)), used);
    await page.locator(".filter-card").getByRole("button", { name: "Сбросить фильтры" }).click();
    await page.waitForURL((url) => url.search === "");
    await page.context().close();
  });
});

describe("brand page", () => {
  it("filters by model when the brand has several", async () => {
    const brands = await s.api("/api/brands/fast");
    let target;
    for (const b of brands) {
      const cars = await s.api(`/api/cars/brand/${b.id}/fast?limit=100`);
      const models = [...new Set(cars.map((c) => c.model))];
      if (models.length > 1) {
        target = { brand: b, cars, model: models[0] };
        break;
      }
    }
    assert.ok(target, "a demo brand with two models");
    const page = await s.open(DESKTOP, `/brand/${target.brand.slug}`);
    await page.getByText("Фильтр по модели:").waitFor();
    assert.equal(await cards(page).count(), target.cars.length);
    await page.locator('select[name="model"]').selectOption(target.model);
    await page.waitForURL(/model=/);
    // The sections read the model's cars from the server (a skeleton meanwhile).
    const expected = target.cars.filter((c) => c.model === target.model).length;
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="car-card"]').length === n,
      expected,
    );
    assert.equal(await cards(page).count(), expected);
    await page.context().close();
  });
});

describe("galleries", () => {
  it("a card's arrows step with wrap-around and dots select", async () => {
    const page = await s.open(DESKTOP, "/new-cars");
    const gallery = page.getByTestId("card-gallery").first();
    await gallery.waitFor();
    const dots = await gallery.locator(".dot").count();
    assert.ok(dots >= 2, "demo cars have several photos");
    assert.equal(await gallery.getAttribute("data-index"), "0");
    await gallery.hover();
    await gallery.getByRole("button", { name: "Предыдущее фото" }).click();
    assert.equal(await gallery.getAttribute("data-index"), String(dots - 1));
    await gallery.getByRole("button", { name: "Следующее фото" }).click();
    assert.equal(await gallery.getAttribute("data-index"), "0");
    await gallery.getByRole("button", { name: "Фото 2", exact: true }).click();
    assert.equal(await gallery.getAttribute("data-index"), "1");
    await page.context().close();
  });

  it("the car page's thumbnails select the main picture", async () => {
    const [car] = await s.api("/api/cars/fast?status=new&limit=1");
    const page = await s.open(PHONE, `/car/${car.slug}`);
    const gallery = page.getByTestId("detail-gallery");
    await gallery.waitFor();
    const main = gallery.locator(".detail-main img");
    const first = await main.getAttribute("src");
    assert.equal(await main.getAttribute("fetchpriority"), "high");
    assert.equal(await main.getAttribute("loading"), "eager");
    await gallery.getByRole("button", { name: "Показать фото 2" }).click();
    assert.equal(await gallery.getAttribute("data-index"), "1");
    assert.notEqual(await main.getAttribute("src"), first);
    if (first.endsWith("-800.webp")) {
      assert.match(
        await main.getAttribute("srcset"),
        /-400\.webp 400w, .*-800\.webp 800w, .*-1600\.webp 1600w/,
      );
    }
    await page.context().close();
  });
});
