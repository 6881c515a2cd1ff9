// Every public screen renders its texts at a phone and a desktop width; the
// server's raw HTML carries the head tags and JSON-LD; 404s answer 404.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DESKTOP, PHONE, start } from "./harness.mjs";

let s;
let newCar;
let usedCar;
let brand;

before(async () => {
  s = await start();
  [newCar] = await s.api("/api/cars/fast?status=new&limit=1");
  [usedCar] = await s.api("/api/cars/fast?status=used&limit=1");
  const brands = await s.api("/api/brands/fast");
  brand = brands.find((b) => b.carCount > 0);
  assert.ok(newCar && usedCar && brand, "the demo data has new and used cars and brands");
});
after(() => s?.stop());

const text = (page) => page.locator("body").innerText();

describe("raw HTML from the server", () => {
  it("car page has head tags and schema.org Car JSON-LD", async () => {
    const r = await fetch(`${s.base}/car/${newCar.slug}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("cache-control"), "no-cache");
    const html = await r.text();
    assert.match(html, /<html lang="ru"/);
    assert.match(html, new RegExp(`<link rel="canonical" href="${s.base}/car/${newCar.slug}">`));
    assert.match(html, /<meta property="og:title" content="[^"]+">/);
    assert.match(html, /<meta property="og:image" content="http[^"]+">/);
    const ld = JSON.parse(html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)[1]);
    assert.equal(ld["@type"], "Car");
    assert.equal(ld.brand.name, newCar.brandName);
    assert.equal(ld.itemCondition, "https://schema.org/NewCondition");
    assert.equal(ld.offers.priceCurrency, "RUB");
    assert.equal(ld.offers.price, newCar.price);
    assert.match(html, /<script type="application\/json" id="preload-data">/);
  });

  it("hashed assets are cached for a year, HTML never", async () => {
    const html = await (await fetch(`${s.base}/`)).text();
    const script = html.match(/<script (?:type="module" src|data-entry)="([^"]+)"/)[1];
    const r = await fetch(s.base + script);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("cache-control"), "public, max-age=31536000, immutable");
  });

  it("unknown paths, missing cars and brands answer 404", async () => {
    for (const path of ["/no-such-page", "/car/no-such-car", "/brand/no-such-brand"]) {
      assert.equal((await fetch(s.base + path)).status, 404, path);
    }
    const robots = await (await fetch(`${s.base}/robots.txt`)).text();
    assert.match(robots, /Disallow: \/admin/);
    const sitemap = await (await fetch(`${s.base}/sitemap.xml`)).text();
    assert.ok(sitemap.includes(`/car/${newCar.slug}</loc>`));
  });
});

for (const [label, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
]) {
  describe(`screens at ${label} width`, () => {
    const screens = [
      ["/", ["Марки", "Тип кузова", "Популярные модели", "Каталог автомобилей", "Отзывы клиентов"]],
      ["/new-cars", ["Новые автомобили", "Найдено:", "Все марки"]],
      ["/used-cars", ["Автомобили с пробегом", "Найдено:"]],
      [
        "/lease-cars",
        [
          "Аренда с выкупом",
          "Минимальный взнос",
          "Гибкие платежи",
          "Право выкупа",
          "Забронировать",
        ],
      ],
      ["/trade-in", ["Трейд-ин", "Марка автомобиля", "Пробег, км", "Ваше имя *", "Телефон *"]],
      [
        "/auto-credit",
        ["Автокредит", "Возраст от 18 до 65 лет", "Решение за 30 минут", "Банки-партнёры"],
      ],
      [
        "/auto-selection",
        ["Подбор автомобиля", "Бюджет", "Тип кузова", "Коробка передач", "Дизель"],
      ],
      ["/body-type/crossover", ["Кроссоверы", "Найдено:", "Все марки", "Новые", "БУ"]],
      ["/consent", ["Согласие на обработку персональных данных"]],
      ["/privacy", ["Политика обработки персональных данных"]],
    ];
    for (const [path, texts] of screens) {
      it(`${path} shows its texts`, async () => {
        const page = await s.open(viewport, path);
        await page.locator("h1").first().waitFor();
        const toggle = page.getByRole("button", { name: "Фильтры" });
        if (await toggle.isVisible()) {
          // Small screens hide the filter card behind a toggle.
          assert.equal(await page.locator(".filter-card").isVisible(), false);
          await toggle.click();
        }
        // The footer's credit sentence comes from the programmes (docs/credit.md).
        await page.getByTestId("footer-credit").waitFor();
        const body = await text(page);
        for (const t of texts) assert.ok(body.includes(t), `${path}: "${t}" missing`);
        // Footer blocks
        assert.ok(body.includes("Автокредит предоставляется банками-партнёрами"), "footer credit");
        if (body.includes("ставка от"))
          assert.ok(body.indexOf("ПСК") < body.indexOf("ставка от"), "footer: ПСК before the rate");
        assert.ok(body.includes("не является публичной офертой"), "footer disclaimer");
        assert.deepEqual(page.errors, []);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= viewport.width, `${path} scrolls sideways: ${width}px`);
        await page.context().close();
      });
    }

    it("car page shows prices, tiles, both sections and three buttons", async () => {
      const page = await s.open(viewport, `/car/${usedCar.slug}`);
      await page.locator("h1").waitFor();
      const body = await text(page);
      for (const t of [
        "С пробегом",
        "Основные характеристики",
        "Технические характеристики",
        "Пробег",
        "ДТП",
        "Владельцев",
        "Trade-In",
        "Кредит",
        "Рассрочка",
      ]) {
        assert.ok(body.includes(t), `"${t}" missing`);
      }
      assert.match(body, /от [\d\s\u00a0\u202f]+ ₽/);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });

    it("brand page shows counters and sections", async () => {
      const page = await s.open(viewport, `/brand/${brand.slug}`);
      await page.locator("h1").waitFor();
      const body = await text(page);
      for (const t of ["всего автомобилей", "новых", "с пробегом", "аренда с выкупом"]) {
        assert.ok(body.includes(t), `"${t}" missing`);
      }
      await page.context().close();
    });

    it("not-found pages answer with their texts", async () => {
      const page = await s.open(viewport, "/no-such-page");
      assert.ok((await text(page)).includes("404 Page Not Found"));
      await page.goto(`${s.base}/car/no-such-car`);
      const car = await text(page);
      assert.ok(car.includes("Автомобиль не найден"));
      assert.ok(car.includes("Автомобиль с таким идентификатором не существует"));
      await page.goto(`${s.base}/brand/no-such-brand`);
      const brandText = await text(page);
      assert.ok(brandText.includes("Марка не найдена"));
      assert.ok(brandText.includes("Марка с таким идентификатором не существует"));
      await page.context().close();
    });
  });
}

describe("admin chunk", () => {
  it("public pages never download it; /admin does", async () => {
    const page = await s.open(DESKTOP);
    const scripts = [];
    page.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
    await page.goto(`${s.base}/`);
    await page.waitForLoadState("networkidle");
    assert.ok(scripts.length > 0);
    assert.ok(!scripts.some((u) => u.includes("AdminApp")), scripts.join(", "));
    await page.goto(`${s.base}/admin`);
    await page.getByRole("heading", { name: "Панель администратора" }).waitFor();
    assert.ok(scripts.some((u) => u.includes("AdminApp")));
    await page.context().close();
  });
});

describe("header, drawer and catalogue modal", () => {
  it("phone: the drawer shows the phone, address and the six links", async () => {
    const page = await s.open(PHONE, "/");
    await page.getByRole("button", { name: "Открыть меню" }).click();
    const drawer = page.locator("#drawer");
    await drawer.waitFor();
    assert.equal(await drawer.locator("nav a").count(), 6);
    assert.match(await drawer.innerText(), /\+7/);
    await drawer.getByRole("link", { name: "Трейд-ин" }).click();
    await page.waitForURL(/\/trade-in$/);
    assert.equal(await page.locator("#drawer").isVisible(), false);
    await page.context().close();
  });

  it("desktop: six links, the catalogue modal and scroll to top", async () => {
    const page = await s.open(DESKTOP, "/");
    assert.equal(await page.locator(".main-nav a").count(), 6);
    await page.getByRole("button", { name: "Выбрать автомобиль" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Автомобили с пробегом" }).waitFor();
    await dialog.getByRole("button", { name: "Отмена" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.evaluate(() => window.scrollTo(0, 2000));
    await page.locator("footer").getByRole("link", { name: "Аренда с выкупом" }).click();
    await page.waitForURL(/\/lease-cars$/);
    await page.waitForFunction(() => window.scrollY === 0);
    await page.context().close();
  });
});
