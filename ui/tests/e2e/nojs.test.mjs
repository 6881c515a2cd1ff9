// The public site with JavaScript off (docs/rendering.md, "Without
// JavaScript"): the withdrawal page's form withdraws by a plain POST and a
// spent link is told when the page opens; the catalogue's filters are a GET
// form whose answer is the filtered page; every control that needs scripts
// is hidden and says so with the salon's phone, and no button left on a page
// is dead.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DESKTOP, PHONE, start } from "./harness.mjs";
import { visitorWithLink } from "./withdrawal.mjs";

let s;
let settings;
let telHref;

before(async () => {
  s = await start();
  settings = await s.api("/api/settings");
  assert.ok(settings.phone, "the demo salon has a phone");
  telHref = `tel:${settings.phone.replace(/[^\d+]/g, "")}`;
});
after(() => s?.stop());

/** A page at `path` in a browser with JavaScript off. */
async function noScript(viewport, path) {
  const page = await s.open(viewport, null, { javaScriptEnabled: false });
  const answer = await page.goto(s.base + path);
  page.status = answer.status();
  return page;
}

/** The visible no-script notes of the page, with their phone links. */
async function notes(page) {
  return page
    .getByTestId("needs-script")
    .filter({ visible: true })
    .evaluateAll((ps) =>
      ps.map((p) => ({
        text: p.innerText.replace(/\s+/g, " ").trim(),
        tel: p.querySelector("a")?.getAttribute("href") ?? null,
      })),
    );
}

/** Asserts that the page shows a note «Чтобы {to}, …» with the phone. */
async function saysNeedsScript(page, to) {
  const found = (await notes(page)).filter((n) => n.text.startsWith(`Чтобы ${to},`));
  assert.ok(found.length > 0, `a note «Чтобы ${to}…»: ${JSON.stringify(await notes(page))}`);
  for (const n of found) {
    assert.match(n.text, /включите JavaScript или позвоните нам: /);
    assert.ok(n.text.includes(settings.phone), n.text);
    assert.equal(n.tel, telHref);
  }
  return found.length;
}

/** Visible buttons that do nothing without JavaScript: not a form's submit
 * button, not disabled. */
async function deadButtons(page) {
  return page
    .locator("button")
    .evaluateAll((buttons) =>
      buttons
        .filter((b) => b.checkVisibility() && !b.disabled && !(b.type === "submit" && b.form))
        .map((b) => (b.getAttribute("aria-label") || b.innerText).trim()),
    );
}

describe("the withdrawal page without JavaScript", () => {
  it("the form withdraws by a plain POST and answers what was done; the spent link says so", async () => {
    const name = "Алла Безскриптова";
    const token = await visitorWithLink(s, name, "alla.noscript@example.ru");
    const page = await noScript(PHONE, `/personal-data/forget?token=${token}`);
    assert.equal(page.status, 200);
    const main = page.locator("main");
    assert.match(await main.innerText(), /a\*\*\*@example\.ru/);
    const posts = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posts.push(new URL(r.url()).pathname);
    });
    await page.getByRole("button", { name: "Отозвать согласие и удалить данные" }).click();
    await page.getByRole("heading", { level: 1, name: "Ваши данные удалены" }).waitFor();
    assert.deepEqual(posts, ["/personal-data/forget"]);
    assert.match(
      await page.getByTestId("forget-done").innerText(),
      /Согласие на обработку персональных данных отозвано.*a\*\*\*@example\.ru/s,
    );
    assert.deepEqual(s.query("SELECT id FROM leads WHERE name = ?", [name]), []);

    // The same link again: told when the page opens, with the other way.
    const again = await noScript(PHONE, `/personal-data/forget?token=${token}`);
    assert.equal(again.status, 404);
    assert.equal(
      await again.getByTestId("link-invalid").innerText(),
      "Ссылка недействительна или устарела",
    );
    const other = again.getByTestId("forget-other-way");
    assert.ok(await other.isVisible());
    const hrefs = await other.locator("a").evaluateAll((l) => l.map((a) => a.getAttribute("href")));
    assert.deepEqual(hrefs, settings.email ? [`mailto:${settings.email}`, telHref] : [telHref]);
    assert.equal(await again.locator("main").getByRole("button").count(), 0, "nothing to press");
    await page.context().close();
    await again.context().close();
  });

  it("a made-up link is told when the page opens, and nothing is erased", async () => {
    const leads = s.query("SELECT count(*) AS n FROM leads")[0].n;
    const page = await noScript(DESKTOP, "/personal-data/forget?token=made-up-by-a-scanner");
    assert.equal(page.status, 404);
    await page.getByTestId("link-invalid").waitFor();
    assert.ok(await page.getByTestId("forget-other-way").isVisible());
    assert.equal(s.query("SELECT count(*) AS n FROM leads")[0].n, leads);
    await page.context().close();
  });
});

describe("catalogue filters without JavaScript", () => {
  /** Card links of the page. */
  const cardLinks = (page) =>
    page
      .getByTestId("car-card")
      .locator("h3 a")
      .evaluateAll((l) => l.map((a) => a.getAttribute("href")));

  it("brand and price: «Показать» answers the filtered page", async () => {
    const brands = await s.api("/api/brands/fast");
    let chosen = null;
    let expected = 0;
    for (const b of brands) {
      const { count } = await s.api(`/api/cars/count?status=new&brandId=${b.id}`);
      if (count > 1) {
        chosen = b;
        expected = count;
        break;
      }
    }
    assert.ok(chosen, "a brand with two new cars or more");
    const ofBrand = new Set(
      (await s.api(`/api/cars/fast?status=new&brandId=${chosen.id}&limit=100`)).map(
        (c) => `/car/${c.slug}`,
      ),
    );
    const page = await noScript(DESKTOP, "/new-cars");
    const all = (await s.api("/api/cars/count?status=new")).count;
    assert.ok(all > expected, "the brand is not the whole list");
    const filters = page.getByRole("article", { name: "Фильтры" });
    await filters.getByLabel("Марка").selectOption(chosen.slug);
    await filters.getByRole("button", { name: "Показать" }).click();
    await page.waitForURL((u) => u.searchParams.get("brand") === chosen.slug);
    const hrefs = await cardLinks(page);
    assert.equal(hrefs.length, Math.min(expected, 20));
    for (const href of hrefs) assert.ok(ofBrand.has(href), `${href} is a ${chosen.name}`);
    assert.match(
      await page.getByTestId("count").innerText(),
      new RegExp(`^Найдено: ${expected}\\b`),
    );
    assert.equal(await filters.getByLabel("Марка").inputValue(), chosen.slug);

    // Then a price on top of the brand: every card within it (prices in
    // whole roubles, as the select's values).
    const prices = (
      await s.api(`/api/cars/fast?status=new&brandId=${chosen.id}&limit=100&sort=price_asc`)
    ).map((c) => Number(c.price));
    const cheapest = prices[0];
    const limit = [
      500_000, 1_000_000, 1_500_000, 2_000_000, 2_500_000, 3_000_000, 4_000_000, 5_000_000,
      6_000_000, 7_000_000, 8_000_000, 9_000_000,
    ].find((p) => p >= cheapest);
    assert.ok(limit, "a price choice at or above the brand's cheapest car");
    const within = prices.filter((p) => p <= limit).length;
    await filters.getByRole("combobox", { name: "Цена до" }).selectOption(String(limit));
    await filters.getByRole("button", { name: "Показать" }).click();
    await page.waitForURL((u) => u.searchParams.get("price") === String(limit));
    assert.equal(new URL(page.url()).searchParams.get("brand"), chosen.slug);
    assert.equal((await cardLinks(page)).length, Math.min(within, 20));
    const shown = await page.getByTestId("car-card").locator(".car-card-price").allInnerTexts();
    for (const p of shown) {
      assert.ok(Number(p.replace(/\D/g, "")) <= limit, `${p} is within ${limit}`);
    }

    // «Сбросить фильтры» is a link to the whole list.
    await filters.getByRole("button", { name: "Сбросить фильтры" }).click();
    await page.waitForURL((u) => u.pathname === "/new-cars" && u.search === "");
    assert.match(await page.getByTestId("count").innerText(), new RegExp(`^Найдено: ${all}\\b`));
    await page.context().close();
  });

  it("a body type's page on a phone: the filters are shown and «Новые» narrows the list", async () => {
    const types = await s.api("/api/body-types");
    let chosen = null;
    let counts = null;
    for (const t of types) {
      const all = (await s.api(`/api/cars/count?bodyType=${t.bodyType}`)).count;
      const fresh = (await s.api(`/api/cars/count?status=new&bodyType=${t.bodyType}`)).count;
      if (fresh > 0 && all > fresh) {
        chosen = t;
        counts = { all, fresh };
        break;
      }
    }
    assert.ok(chosen, "a body type with new cars and others");
    const page = await noScript(PHONE, `/body-type/${chosen.bodyType}`);
    assert.match(
      await page.getByTestId("count").innerText(),
      new RegExp(`^Найдено: ${counts.all}\\b`),
    );
    const filters = page.getByRole("article", { name: "Фильтры" });
    assert.ok(await filters.isVisible(), "the filters are open without the toggle");
    assert.equal(await page.getByRole("button", { name: "Фильтры" }).isVisible(), false);
    await filters.getByRole("button", { name: "Новые" }).click();
    await page.waitForURL((u) => u.searchParams.get("condition") === "new");
    assert.match(
      await page.getByTestId("count").innerText(),
      new RegExp(`^Найдено: ${counts.fresh}\\b`),
    );
    const badges = await page.getByTestId("car-card").locator(".badge-new").count();
    assert.equal(badges, await page.getByTestId("car-card").count());
    assert.equal(
      await filters.getByRole("button", { name: "Новые" }).getAttribute("aria-pressed"),
      "true",
    );
    await page.context().close();
  });
});

describe("controls that need JavaScript say so, with the phone", () => {
  it("/auto-credit: the two applications and the calculator", async () => {
    const page = await noScript(PHONE, "/auto-credit");
    assert.equal(await saysNeedsScript(page, "подать заявку на автокредит"), 2);
    await saysNeedsScript(page, "рассчитать платёж");
    for (const name of ["Подать заявку", "Рассчитать платёж", "Подать заявку на автокредит"]) {
      assert.equal(
        await page.getByRole("button", { name, exact: true }).filter({ visible: true }).count(),
        0,
        `«${name}» is not shown`,
      );
    }
    await page.context().close();
  });

  it("cards: «Кредит» on home, «Забронировать» on /lease-cars", async () => {
    const home = await noScript(DESKTOP, "/");
    const homeCards = await home.getByTestId("car-card").count();
    assert.ok(homeCards > 0);
    assert.equal(await saysNeedsScript(home, "оформить кредит"), homeCards);
    const lease = await noScript(PHONE, "/lease-cars");
    const leaseCards = await lease.getByTestId("car-card").count();
    assert.ok(leaseCards > 0, "the demo has lease cars");
    assert.equal(await saysNeedsScript(lease, "забронировать"), leaseCards);
    await home.context().close();
    await lease.context().close();
  });

  it("home: «Выбрать автомобиль» leads to the catalogue", async () => {
    const page = await noScript(PHONE, "/");
    await page.getByRole("button", { name: "Выбрать автомобиль" }).click();
    await page.waitForURL((u) => u.pathname === "/new-cars");
    assert.ok((await page.getByTestId("car-card").count()) > 0);
    await page.context().close();
  });

  it("/favorites says where the list lives instead of loading for ever", async () => {
    const page = await noScript(PHONE, "/favorites");
    await saysNeedsScript(page, "увидеть избранное, сохранённое в этом браузере");
    assert.equal(await page.getByText("Загрузка…").filter({ visible: true }).count(), 0);
    await page.context().close();
  });

  it("no page shows a button that does nothing", async () => {
    const [car] = await s.api("/api/cars/fast?status=new&limit=1");
    const [type] = (await s.api("/api/body-types")).filter((t) => t.carCount > 0);
    const paths = [
      "/",
      "/new-cars",
      "/used-cars",
      "/lease-cars",
      "/trade-in",
      "/auto-credit",
      "/auto-selection",
      `/body-type/${type.bodyType}`,
      "/favorites",
      `/compare?cars=${car.slug}`,
      "/consent",
    ];
    const dead = {};
    for (const viewport of [PHONE, DESKTOP]) {
      for (const path of paths) {
        const page = await noScript(viewport, path);
        const found = await deadButtons(page);
        if (found.length) dead[`${viewport.width} ${path}`] = found;
        await page.context().close();
      }
    }
    assert.deepEqual(dead, {});
  });
});
