// Pages drawn on the server (src/http/pages/render.rs): what a crawler gets
// without a browser, that the browser's hydration shows the same page and
// keeps the server's elements, the journeys that work with JavaScript off,
// and the phone's page size taken over by the browser.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DESKTOP, PHONE, start } from "./harness.mjs";

let s;
let newCar;
let brand;
let bodyType;

before(async () => {
  s = await start();
  [newCar] = await s.api("/api/cars/fast?status=new&limit=1");
  const brands = await s.api("/api/brands/fast");
  brand = brands.find((b) => b.carCount > 0);
  const types = await s.api("/api/body-types");
  bodyType =
    types.find((t) => t.bodyType === "crossover" && t.carCount > 0) ??
    types.find((t) => t.carCount > 0);
  assert.ok(newCar && brand && bodyType, "the demo data has new cars, brands and body types");
});
after(() => s?.stop());

/** Every public route: `cars` when the page lists cars with prices (or is one). */
const ROUTES = [
  { name: "home", path: () => "/", cars: true },
  { name: "new cars", path: () => "/new-cars", cars: true },
  { name: "new cars, page 2", path: () => "/new-cars?page=2", cars: true },
  { name: "used cars", path: () => "/used-cars", cars: true },
  { name: "lease cars", path: () => "/lease-cars", cars: true },
  { name: "trade-in", path: () => "/trade-in" },
  { name: "auto credit", path: () => "/auto-credit" },
  { name: "auto selection", path: () => "/auto-selection" },
  { name: "car page", path: () => `/car/${newCar.slug}`, cars: true },
  { name: "brand page", path: () => `/brand/${brand.slug}`, cars: true },
  { name: "body-type page", path: () => `/body-type/${bodyType.bodyType}`, cars: true },
  { name: "consent", path: () => "/consent" },
  { name: "privacy", path: () => "/privacy" },
  {
    name: "favorites",
    path: () => "/favorites",
    // The saved list lives in this browser only: the server shows a
    // placeholder where it goes (and the note for a browser without
    // JavaScript, hidden here), the browser the (empty) list.
    onlyBrowserKnows:
      '#main .saved-area > p[aria-busy="true"], #main .saved-area > [data-testid="needs-script"], #main .saved-area > .empty',
  },
  { name: "compare", path: () => "/compare" },
  { name: "unknown path", path: () => "/no-such-page-at-all", status: 404 },
];

/** What the shell says when the page could not be drawn on the server. */
const UNRENDERED = "Для работы сайта включите JavaScript";
/** "3 799 000 ₽" with any of the spaces a number may be spelled with. */
const PRICE = /\d(?:[\d\s\u00a0\u202f]|&nbsp;)*₽/;
const CAR_LINK = /href="\/car\/[a-z0-9-]+"/g;

/** The markup the server put into `<div id="app">` (with `data-screen` on a phone's). */
function appMarkup(html) {
  const m = html.match(/<div id="app"[^>]*>([\s\S]*)<\/div>\s*<\/body>/);
  assert.ok(m, "the page has <div id=app>");
  return m[1];
}

const squash = (text) => text.replace(/\s+/g, " ").trim();

/** Lines of `a` not in `b`, counted (a line twice in `a`, once in `b`
 * is once in the answer). */
function missingLines(a, b) {
  const left = new Map();
  for (const l of b) left.set(l, (left.get(l) ?? 0) + 1);
  const out = [];
  for (const l of a) {
    if (left.get(l) > 0) left.set(l, left.get(l) - 1);
    else out.push(l);
  }
  return out;
}

/** How the browser's text differs from the server's: the lines only one of
 * them shows, or where the order parts, for a readable failure. */
function textDifference(server, browser) {
  const lines = (t) => t.split("\n").map(squash).filter(Boolean);
  const a = squash(server);
  const b = squash(browser);
  if (a === b) return null;
  const onlyServer = missingLines(lines(server), lines(browser));
  const onlyBrowser = missingLines(lines(browser), lines(server));
  if (onlyServer.length || onlyBrowser.length) return { onlyServer, onlyBrowser };
  let i = 0;
  while (a[i] === b[i]) i++;
  return { partsAt: i, server: a.slice(i - 60, i + 80), browser: b.slice(i - 60, i + 80) };
}

const cards = (page) => page.locator('[data-testid="car-card"]');
const firstCarLink = (page) => cards(page).first().locator("h3 a").getAttribute("href");

describe("crawler view: the raw HTML carries the page", () => {
  const pageOne = {};
  for (const route of ROUTES) {
    it(`${route.name} has an <h1>${route.cars ? ", prices and car links" : ""}`, async () => {
      const path = route.path();
      const r = await fetch(s.base + path);
      assert.equal(r.status, route.status ?? 200, path);
      const html = await r.text();
      const app = appMarkup(html);
      assert.ok(!app.includes(UNRENDERED), `${path} was sent unrendered`);
      const h1 = app.match(/<h1[^>]*>([\s\S]*?)<\/h1>/);
      assert.ok(h1, `${path}: no <h1> in #app`);
      assert.ok(squash(h1[1].replace(/<[^>]+>/g, "")).length > 0, `${path}: empty <h1>`);
      if (route.cars) {
        assert.match(app, PRICE, `${path}: no price`);
        assert.ok((app.match(CAR_LINK) ?? []).length > 0, `${path}: no /car/ links`);
      }
      const links = app.match(CAR_LINK) ?? [];
      if (path === "/new-cars") pageOne.links = links;
      if (path === "/new-cars?page=2") {
        assert.ok(pageOne.links, "page 1 was fetched first");
        assert.notEqual(links[0], pageOne.links[0], "page 2 starts with another car");
      }
      if (path.startsWith("/car/")) {
        assert.ok(app.includes(newCar.name), `the car page names ${newCar.name}`);
        assert.ok(app.includes(newCar.model), `the car page names ${newCar.model}`);
      }
      if (path.startsWith("/brand/")) assert.ok(h1[1].includes(brand.name), "brand in the h1");
      if (path.startsWith("/body-type/"))
        assert.ok(h1[1].includes(bodyType.labelPlural), "body type in the h1");
    });
  }

  it("a catalogue page holds 20 cards for the desktop, each with a price", async () => {
    const app = appMarkup(await (await fetch(`${s.base}/new-cars`)).text());
    const articles = app.split('data-testid="car-card"').slice(1);
    assert.equal(articles.length, 20);
    for (const a of articles) assert.match(a.split("</article>")[0], PRICE);
  });
});

/** A page at the desktop width whose console errors and warnings and page
 * errors are collected in `page.problems`. */
async function watchedPage(options = {}) {
  const page = await s.open(DESKTOP, null, options);
  page.problems = [];
  page.on("pageerror", (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() !== "error" && m.type() !== "warning") return;
    // The unknown path's own 404 answer is reported by Chromium as a failed
    // load of the document: that is the page's status, not a fault.
    const { url } = m.location();
    if (page.expect404 && url === page.expect404 && /status of 404/.test(m.text())) return;
    page.problems.push(`${m.type()}: ${m.text()} (${url})`);
  });
  return page;
}

/** The visible text and the links of #app, less what `drop` selects (the
 * page is done with by then). */
const snapshot = (page, drop) =>
  page.evaluate((drop) => {
    const app = document.getElementById("app");
    if (drop) for (const e of app.querySelectorAll(drop)) e.remove();
    return {
      text: app.innerText,
      links: [...app.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")),
      children: app.childElementCount,
    };
  }, drop);

describe("server markup and the hydrated page are the same (desktop)", () => {
  for (const route of ROUTES) {
    it(`${route.name}: same text and links, no console errors`, async () => {
      const path = route.path();
      const url = s.base + path;
      // The server's markup as the browser shows it: the same document with
      // its module script taken out, so nothing hydrates (JavaScript stays
      // on, so the <noscript> style does not apply: what a user sees before
      // the scripts run).
      const raw = await watchedPage();
      await raw.route(url, async (r) => {
        const response = await r.fetch();
        const body = (await response.text())
          .replace(/<script type="module"[^>]*><\/script>/g, "")
          .replace(/<script data-entry[^>]*>[^<]*<\/script>/g, "");
        await r.fulfill({ response, body });
      });
      raw.expect404 = route.status === 404 ? url : null;
      const rawResponse = await raw.goto(url);
      assert.equal(rawResponse.status(), route.status ?? 200);
      const server = await snapshot(raw, route.onlyBrowserKnows);
      assert.ok(server.children > 0, "the server drew the page");
      await raw.context().close();

      const page = await watchedPage();
      page.expect404 = route.status === 404 ? url : null;
      await page.goto(url, { waitUntil: "load" });
      // Whatever the page fetches after load lands before the comparison.
      await page.waitForLoadState("networkidle");
      const browser = await snapshot(page, route.onlyBrowserKnows);
      await page.context().close();

      assert.ok(squash(server.text).length > 0, "the server's page has visible text");
      // Every difference at once: the text, the links and the console.
      const found = {};
      const text = textDifference(server.text, browser.text);
      if (text) found.text = text;
      const linksOnlyServer = missingLines(server.links, browser.links);
      const linksOnlyBrowser = missingLines(browser.links, server.links);
      if (linksOnlyServer.length || linksOnlyBrowser.length)
        found.links = { onlyServer: linksOnlyServer, onlyBrowser: linksOnlyBrowser };
      if (page.problems.length) found.console = page.problems;
      assert.deepEqual(found, {}, `${path}: the hydrated page differs from the server's`);
    });
  }
});

/** Counts, from before any page script, the elements removed from inside
 * #app (at the `load` event and until read), and remembers the first car
 * card the parser inserted. */
function countRemovals() {
  window.__removed = 0;
  window.__removedSample = [];
  window.__firstCard = null;
  const gone = new WeakSet();
  const inApp = (node) => {
    const app = document.getElementById("app");
    return !!app && (node === app || app.contains(node) || gone.has(node));
  };
  const take = (records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (!window.__firstCard && n.nodeType === 1 && n.matches('[data-testid="car-card"]'))
          window.__firstCard = n;
      }
      if (!inApp(r.target)) continue;
      for (const n of r.removedNodes) {
        if (n.nodeType !== 1) continue;
        const all = [n, ...n.querySelectorAll("*")];
        for (const e of all) gone.add(e);
        window.__removed += all.length;
        if (window.__removedSample.length < 5)
          window.__removedSample.push(`${n.tagName}.${n.className}`);
      }
    }
  };
  const observer = new MutationObserver(take);
  observer.observe(document, { childList: true, subtree: true });
  window.__takeRemovals = () => take(observer.takeRecords());
  window.addEventListener("load", () => {
    window.__takeRemovals();
    window.__removedAtLoad = window.__removed;
    window.__cardsAtLoad = document.querySelectorAll('[data-testid="car-card"]').length;
  });
}

/** What countRemovals saw, once the page has settled. */
async function removals(page) {
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(300);
  return page.evaluate(() => {
    window.__takeRemovals();
    return {
      removed: window.__removed,
      atLoad: window.__removedAtLoad,
      cardsAtLoad: window.__cardsAtLoad,
      sample: window.__removedSample,
      hasCard: !!window.__firstCard,
      sameCard:
        !!window.__firstCard &&
        window.__firstCard === document.querySelector('[data-testid="car-card"]'),
    };
  });
}

describe("hydration keeps the server's elements", () => {
  for (const [name, path] of [
    ["new cars", () => "/new-cars"],
    ["car page", () => `/car/${newCar.slug}`],
  ]) {
    it(`${name}: no element of #app is removed, the first card is the server's`, async () => {
      const page = await watchedPage();
      await page.context().addInitScript(countRemovals);
      await page.goto(s.base + path(), { waitUntil: "load" });
      // Counted past `load` too, until the page has settled: a lazily
      // loaded part would hydrate after it, and a count stopped at `load`
      // would miss its rebuilding.
      const seen = await removals(page);
      // Were main.tsx to clear #app and render afresh, every element of the
      // page (hundreds) would be counted here and the first card replaced
      // (the phone test below is the control: there the count sees cards go).
      assert.equal(seen.atLoad, 0, `removed from #app by load: ${seen.sample.join(", ")}`);
      assert.equal(seen.removed, 0, `removed from #app: ${seen.sample.join(", ")}`);
      if (path() === "/new-cars") assert.ok(seen.hasCard, "the server drew cards");
      if (seen.hasCard) assert.ok(seen.sameCard, "the first card is the element the server sent");
      // The kept elements are live: a button of the server's markup opens
      // its dialog (nothing would happen on markup the browser had not
      // taken over).
      await page
        .locator("#main")
        .getByRole("button", { name: /Кредит/ })
        .first()
        .click();
      await page.locator("dialog[open]").first().waitFor({ timeout: 5000 });
      assert.deepEqual(page.problems, []);
      await page.context().close();
    });
  }
});

describe("the code starts after the first paint", () => {
  it("a press before the code has arrived is done once it is live", async () => {
    const page = await watchedPage();
    // The entry arrives 1.5 seconds late, as on a slow phone's network.
    await page.route(/\/assets\/main-[^/]+\.js$/, async (r) => {
      await new Promise((done) => setTimeout(done, 1500));
      await r.continue();
    });
    // Not page.goto: the harness's waits for the page to go live.
    await page.evaluate((url) => {
      location.href = url;
    }, `${s.base}/car/${newCar.slug}`);
    const credit = page
      .locator("#main")
      .getByRole("button", { name: /Кредит/ })
      .first();
    await credit.waitFor();
    assert.equal(
      await page.evaluate(() => document.documentElement.hasAttribute("data-live")),
      false,
      "the press comes before the code",
    );
    await credit.click();
    await page.locator("dialog[open]").first().waitFor({ timeout: 10000 });
    assert.equal(
      await page.evaluate(() => document.documentElement.hasAttribute("data-live")),
      true,
    );
    // Done once: the dialog is open, and the page's own navigation stayed.
    assert.equal(await page.locator("dialog[open]").count(), 1);
    assert.equal(new URL(page.url()).pathname, `/car/${newCar.slug}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
});

/** Waits until a picture is shown as a person sees it: loaded, with its width. */
async function untilShown(img) {
  await img
    .page()
    .waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle(), {
      timeout: 5000,
    });
}

describe("pictures after the first screen's paint", () => {
  it("a phone fetches the hero alone first, then the logos and cards it shows", async () => {
    const page = await s.open(PHONE, null);
    page.problems = [];
    page.on("pageerror", (e) => page.problems.push(e.message));
    /** Media requests in the order made, and when each answer was done. */
    const asked = [];
    const done = new Map();
    page.on("request", (r) => {
      if (r.url().includes("/media/")) asked.push(r.url());
    });
    page.on("requestfinished", (r) => {
      if (r.url().includes("/media/")) done.set(r.url(), asked.length);
    });
    // The first picture asked for comes slowly, as on a phone's network:
    // what the first screen shows besides waits for it.
    let slow = null;
    await page.route(/\/media\//, async (r) => {
      if (slow === null) {
        slow = r.request().url();
        await new Promise((go) => setTimeout(go, 800));
      }
      await r.continue();
    });
    await page.goto(`${s.base}/new-cars`);
    const hero = await page.locator("section.banner img").evaluate((i) => i.currentSrc);
    assert.equal(asked[0], hero, "the banner's picture is asked for first");
    assert.equal(done.get(hero), 1, "nothing else is asked for before it has arrived");
    // What the phone's first screen shows arrives: the brand chips' logos
    // and the first card's picture (the chips are read as a person sees
    // them: loaded, with their width).
    const logo = page.locator(".brand-strip img.brand-logo").first();
    await untilShown(logo);
    const card = page.locator('[data-testid="car-card"] img').first();
    await card.scrollIntoViewIfNeeded();
    await untilShown(card);
    // No picture of the page was left without its address.
    assert.equal(await page.locator("#app img:not([src])").count(), 0);
    assert.ok(asked.length > 2, `${asked.length} pictures asked for`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  for (const [path, selector] of [
    ["/", ".brand-tile img"],
    ["/new-cars", ".brand-strip img"],
    ["/auto-credit", "img.brand-logo"],
    ["/", '[data-testid="car-card"] img'],
  ]) {
    it(`${path}: a held picture's box (${selector}) is the size it has once shown`, async () => {
      const page = await s.open(PHONE, null);
      let slow = null;
      await page.route(/\/media\//, async (r) => {
        if (slow === null) {
          slow = r.request().url();
          await new Promise((go) => setTimeout(go, 1500));
        }
        await r.continue();
      });
      // Not page.goto: the harness's waits for the page to go live.
      await page.evaluate((url) => {
        location.href = url;
      }, `${s.base}${path}`);
      const pictures = page.locator(selector);
      await pictures.first().waitFor({ state: "attached" });
      const boxes = () =>
        pictures.evaluateAll((all) =>
          all.slice(0, 6).map((i) => {
            const r = i.getBoundingClientRect();
            return { held: !i.hasAttribute("src"), size: `${r.width}x${r.height}` };
          }),
        );
      const held = await boxes();
      assert.ok(
        held.every((b) => b.held),
        `held while the hero comes: ${JSON.stringify(held)}`,
      );
      // Shown: each with its address, laid out (a full run under load read
      // every box 0x0 for a moment as the part was taken over).
      await page.waitForFunction(
        (sel) =>
          [...document.querySelectorAll(sel)]
            .slice(0, 6)
            .every((i) => i.hasAttribute("src") && i.getBoundingClientRect().width > 0),
        selector,
        { timeout: 10000 },
      );
      const shown = await boxes();
      assert.deepEqual(
        shown.map((b) => b.size),
        held.map((b) => b.size),
        // What a box of another size was in (a full run once measured 0x0).
        await pictures.first().evaluate((i) => {
          const style = getComputedStyle(i);
          const hidden = i.closest("[hidden], dialog:not([open]), details:not([open])");
          return `first: connected ${i.isConnected}, display ${style.display}, visibility ${style.visibility}, in ${hidden?.tagName ?? "no hidden element"}, live ${document.documentElement.hasAttribute("data-live")}, ${document.querySelector("#app")?.textContent?.slice(0, 80)}`;
        }),
      );
      await page.context().close();
    });
  }
});

describe("without JavaScript (desktop)", () => {
  /** /new-cars in a browser with JavaScript off. */
  async function catalogue() {
    const page = await s.open(DESKTOP, null, { javaScriptEnabled: false });
    await page.goto(`${s.base}/new-cars`);
    return page;
  }

  it("the catalogue shows 20 cards with prices and a phone to call", async () => {
    const page = await catalogue();
    assert.ok(!(await page.locator("body").innerText()).includes(UNRENDERED));
    assert.equal(await cards(page).count(), 20);
    const prices = await cards(page).locator(".car-card-price").allInnerTexts();
    assert.equal(prices.length, 20);
    for (const p of prices) assert.match(p, PRICE);
    assert.ok(await cards(page).first().isVisible());
    // The cards' pictures are there without the loader's script.
    const picture = cards(page).nth(1).locator("img").first();
    await picture.scrollIntoViewIfNeeded();
    await untilShown(picture);
    const phone = page.locator(".site-header a.header-phone");
    assert.ok(await phone.isVisible());
    assert.match(await phone.getAttribute("href"), /^tel:\+?\d+$/);
    await page.context().close();
  });

  it("«Страница 2» opens the second page", async () => {
    const page = await catalogue();
    const first = await firstCarLink(page);
    await page
      .getByRole("navigation", { name: "Страницы" })
      .getByRole("button", { name: "Страница 2", exact: true })
      .click({ timeout: 5000 });
    await page.waitForURL(/[?&]page=2/, { timeout: 5000 });
    assert.equal(new URL(page.url()).searchParams.get("page"), "2");
    assert.ok((await cards(page).count()) > 0);
    assert.notEqual(await firstCarLink(page), first, "page 2 starts with another car");
    await page.context().close();
  });

  it("a brand chip shows only that brand's cars", async () => {
    let chosen = null;
    for (const b of await s.api("/api/brands/fast")) {
      if ((await s.api(`/api/cars/count?status=new&brandId=${b.id}`)).count > 0) {
        chosen = b;
        break;
      }
    }
    assert.ok(chosen, "a brand with new cars");
    const expected = (await s.api(`/api/cars/count?status=new&brandId=${chosen.id}`)).count;
    const ofBrand = new Set(
      (await s.api(`/api/cars/fast?status=new&brandId=${chosen.id}&limit=100`)).map(
        (c) => `/car/${c.slug}`,
      ),
    );
    const page = await catalogue();
    await page
      .locator(".brand-strip")
      .getByRole("button", { name: chosen.name })
      .first()
      .click({ timeout: 5000 });
    await page.waitForURL((u) => u.searchParams.get("brand") === chosen.slug, { timeout: 5000 });
    const hrefs = await cards(page)
      .locator("h3 a")
      .evaluateAll((l) => l.map((a) => a.getAttribute("href")));
    assert.equal(hrefs.length, Math.min(expected, 20));
    for (const href of hrefs) assert.ok(ofBrand.has(href), `${href} is a ${chosen.name}`);
    const pressed = page.locator('.brand-strip [aria-pressed="true"]');
    assert.equal(await pressed.count(), 1);
    assert.ok((await pressed.innerText()).includes(chosen.name));
    await page.context().close();
  });

  it("a card opens its car: h1, price, specs and a phone instead of the form", async () => {
    const page = await catalogue();
    const card = cards(page).first();
    const title = squash(await card.locator("h3").innerText());
    const price = squash(await card.locator(".car-card-price").innerText());
    await card.locator("h3 a").click();
    await page.waitForURL(/\/car\//, { timeout: 5000 });
    assert.equal(squash(await page.locator("h1").innerText()), title);
    const body = squash(await page.locator("body").innerText());
    assert.ok(body.includes(price), `the car page shows ${price}`);
    for (const t of ["Основные характеристики", "Технические характеристики"])
      assert.ok(body.includes(t), `"${t}" missing`);
    assert.ok(await page.locator(".site-header a.header-phone").isVisible());
    // Its lead form says how to reach us without JavaScript (the dialogs'
    // forms carry the note too, unseen while they are closed).
    const note = page.getByTestId("needs-script").filter({ visible: true }).first();
    assert.ok(await note.isVisible(), "the no-script note is shown");
    assert.match(await note.innerText(), /включите JavaScript или позвоните нам/);
    assert.match(await note.locator("a").getAttribute("href"), /^tel:\+?\d+$/);
    await page.context().close();
  });
});

/** Chrome on an Android phone, as Chrome's documentation spells its user
 * agent (the server tells a phone by it, src/http/screen.rs). */
const ANDROID_PHONE =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";

/** The car links of a markup's cards, in order. */
function cardLinks(markup) {
  return markup
    .split('data-testid="car-card"')
    .slice(1)
    .map((card) => card.match(/href="(\/car\/[^"]+)"/)?.[1]);
}

describe("a phone the server can tell", () => {
  // A catalogue's page of 10 cars; the home page's two rows of 6 (12 each
  // for a desktop).
  for (const [path, phoneCards, desktopCards] of [
    ["/new-cars", 10, 20],
    ["/new-cars?page=2", 10, 20],
    ["/", 12, 23],
  ]) {
    it(`${path}: drawn as the phone shows it, taken over as drawn`, async () => {
      const drawn = appMarkup(
        await (await fetch(s.base + path, { headers: { "user-agent": ANDROID_PHONE } })).text(),
      );
      const desktop = appMarkup(await (await fetch(s.base + path)).text());
      assert.equal(cardLinks(drawn).length, phoneCards);
      assert.equal(cardLinks(desktop).length, desktopCards);
      const page = await s.open(PHONE, undefined, {
        userAgent: ANDROID_PHONE,
        isMobile: true,
        hasTouch: true,
      });
      await page.context().addInitScript(countRemovals);
      await page.goto(s.base + path, { waitUntil: "load" });
      const seen = await removals(page);
      // The live page's cards are the server's, in the same order: nothing
      // changed when the code took the page over.
      assert.equal(await cards(page).count(), phoneCards);
      const live = await cards(page).evaluateAll((all) =>
        all.map((card) => card.querySelector('a[href^="/car/"]')?.getAttribute("href")),
      );
      assert.deepEqual(live, cardLinks(drawn));
      assert.equal(seen.removed, 0, `removed from #app: ${seen.sample.join(", ")}`);
      assert.ok(seen.sameCard, "the first card is the server's");
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});

describe("phone with JavaScript", () => {
  it("/new-cars ends with 10 cards (the server drew 20 for the desktop)", async () => {
    const app = appMarkup(await (await fetch(`${s.base}/new-cars`)).text());
    assert.equal(app.split('data-testid="car-card"').length - 1, 20);
    const page = await s.open(PHONE);
    await page.context().addInitScript(countRemovals);
    await page.context().addInitScript(() => {
      window.__shifted = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__shifted += e.value;
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto(`${s.base}/new-cars`, { waitUntil: "load" });
    const seen = await removals(page);
    assert.equal(await cards(page).count(), 10);
    // The code switches after the first paint (src/http/pages/loader.js):
    // the cards it drops are below the first screen, which does not move.
    assert.equal(await page.evaluate(() => window.__shifted), 0, "layout shift on the phone");
    // The control of the removal count above: here the browser does drop
    // the server's cards 11 to 20 (and keeps the first), and the count sees them.
    assert.ok(seen.removed >= 10, `removed ${seen.removed}`);
    assert.ok(
      seen.sample.some((t) => t.startsWith("ARTICLE")),
      `removed: ${seen.sample.join(", ")}`,
    );
    assert.ok(seen.sameCard, "the first card is the server's");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
