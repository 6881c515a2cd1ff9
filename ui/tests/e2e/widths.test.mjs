// Every public page fits every common window width: the page never scrolls
// sideways, each item of the header (logo, menu links, catalogue button,
// favourites and compare, phone, burger) is inside the window and clear of
// the others, and no car card's badge ('В наличии') lies under its
// favourite or compare button. Favourites and compare are filled, so the header is at its
// widest. One page: each route is loaded once and the window is widened
// step by step (the layout follows the width through media queries).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { start } from "./harness.mjs";

const WIDTHS = [320, 390, 768, 1024, 1280, 1366, 1440, 1920];
const HEIGHT = 900;

let s;
let paths;
before(async () => {
  s = await start();
  const [newCar] = await s.api("/api/cars/fast?status=new&limit=1");
  const [usedCar] = await s.api("/api/cars/fast?status=used&limit=1");
  const [leaseCar] = await s.api("/api/cars/fast?status=lease&limit=1");
  const compare = await s.api("/api/cars/fast?status=new,used&limit=4");
  // The sitemap lists the pages a visitor can land on: each page without a
  // parameter is checked, and one of each kind with one.
  const sitemap = await (await fetch(`${s.base}/sitemap.xml`)).text();
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  const oneOf = (prefix) => listed.find((p) => p.startsWith(prefix));
  const brand = oneOf("/brand/");
  const bodyType = oneOf("/body-type/");
  assert.ok(newCar && usedCar && leaseCar && brand && bodyType, "the demo has every kind of page");
  paths = [
    ...new Set([
      ...listed.filter((p) => !/^\/(car|brand|body-type)\//.test(p)),
      "/",
      "/new-cars",
      "/used-cars",
      "/lease-cars",
      "/trade-in",
      "/auto-credit",
      "/auto-selection",
      `/car/${newCar.slug}`,
      `/car/${usedCar.slug}`,
      `/car/${leaseCar.slug}`,
      brand,
      bodyType,
      "/consent",
      "/privacy",
      "/favorites",
      `/compare?cars=${compare.map((c) => c.slug).join(",")}`,
      "/saved-searches/confirm?token=no-such-token",
      "/saved-searches/unsubscribe?token=no-such-token",
      "/no-such-page",
      "/car/no-such-car",
    ]),
  ];
  const saved = compare.map((c) => ({
    slug: c.slug,
    title: `${c.brandName} ${c.name}`,
    price: c.price,
    image: c.images[0] ?? "",
    status: c.status,
  }));
  s.saved = JSON.stringify(saved);
});
after(() => s?.stop());

/** What is wrong with the page as it is drawn now: sideways scrolling, header
 * items out of the window or over one another. */
function problems() {
  const out = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth)
    out.push(`scrolls sideways: ${root.scrollWidth}px in ${root.clientWidth}px`);
  const width = root.clientWidth;
  const header = document.querySelector(".site-header");
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  // The header's items: its links and buttons and the menu's entries.
  const items = [...header.querySelectorAll(".header-row a, .header-row button")].filter(
    (el) => shown(el) && !el.closest("dialog"),
  );
  if (items.length < 3) out.push(`only ${items.length} header items shown`);
  const name = (el) =>
    `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent).trim()}"`;
  const boxes = items.map((el) => [el, el.getBoundingClientRect()]);
  for (const [el, r] of boxes) {
    if (r.left < 0 || r.right > width + 0.5)
      out.push(`${name(el)} outside the window: ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i];
      const [b, rb] = boxes[j];
      const overlap =
        Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 1 &&
        Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 1;
      if (overlap) out.push(`${name(a)} overlaps ${name(b)}`);
    }
  }
  // A car card's badges ('В наличии') and its favourite and compare buttons,
  // both over its photo, do not cover one another.
  for (const media of document.querySelectorAll(".car-card-media")) {
    const buttons = [...media.querySelectorAll(".save-toggles button")].filter(shown);
    const badges = [...media.querySelectorAll(".badges .badge")].filter(shown);
    if (buttons.length === 0 || badges.length === 0) continue;
    const card = media.closest(".car-card")?.querySelector(".car-card-title")?.textContent;
    for (const badge of badges) {
      const rb = badge.getBoundingClientRect();
      for (const button of buttons) {
        const rt = button.getBoundingClientRect();
        const overlap =
          Math.min(rb.right, rt.right) - Math.max(rb.left, rt.left) > 0 &&
          Math.min(rb.bottom, rt.bottom) - Math.max(rb.top, rt.top) > 0;
        if (overlap) out.push(`card "${card}": ${name(badge)} under ${name(button)}`);
      }
    }
  }
  return out;
}

/** Two frames: the layout after a resize is drawn. */
const drawn = (page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

describe("page widths", () => {
  it("no public page scrolls sideways, the header fits and cards' badges show, 320 to 1920 px", async () => {
    const page = await s.open({ width: WIDTHS[0], height: HEIGHT });
    await page.context().addInitScript((saved) => {
      localStorage.setItem("dealership.favorites", saved);
      localStorage.setItem("dealership.compare", saved);
    }, s.saved);
    const found = [];
    for (const path of paths) {
      // Each page is loaded at the narrowest width, then the window widens.
      await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
      await page.goto(s.base + path);
      await page.locator("h1").first().waitFor();
      await page.locator('[data-testid="compare-link"]').waitFor();
      await page.getByTestId("footer-credit").waitFor();
      await page.evaluate(() => document.fonts.ready);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: HEIGHT });
        await drawn(page);
        for (const p of await page.evaluate(problems)) found.push(`${width}px ${path}: ${p}`);
      }
    }
    assert.equal(found.length, 0, `${found.length} problems:\n${found.slice(0, 40).join("\n")}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
