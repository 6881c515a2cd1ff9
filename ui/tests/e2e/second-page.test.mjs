// The second page (docs/rendering.md, src/http/kept_styles.rs): a first page
// carries its stylesheet inline; once it is live the browser keeps the file
// and says so in the `styles` cookie, and the next page links the sheet,
// which comes from the browser's cache: the page arrives lighter, styled
// as the first, with no request for the sheet.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DESKTOP, PHONE, start } from "./harness.mjs";

let s;
before(async () => {
  s = await start();
});
after(() => s?.stop());

/** The document's bytes over the wire and what the page looks like. */
async function visit(page, path) {
  const response = await page.goto(s.base + path);
  assert.equal(response.status(), 200, path);
  const sizes = await response.request().sizes();
  const look = await page.evaluate(() => {
    const header = document.querySelector("header");
    const sheet = performance
      .getEntriesByType("resource")
      .find((entry) => entry.name.includes("/assets/") && entry.name.endsWith(".css"));
    return {
      inline: [...document.querySelectorAll("head > style")].some(
        (style) => (style.textContent ?? "").length > 10_000,
      ),
      linked: [...document.querySelectorAll('head > link[rel="stylesheet"]:not([disabled])')].map(
        (link) => link.getAttribute("href"),
      ),
      headerPosition: header ? getComputedStyle(header).position : null,
      bodyFont: getComputedStyle(document.body).fontFamily,
      sheetTransfer: sheet ? sheet.transferSize : null,
    };
  });
  return { bytes: sizes.responseBodySize, look };
}

describe("the second page", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ]) {
    it(`links the stylesheet the first page left in the cache (${name})`, async () => {
      const page = await s.open(viewport);
      const first = await visit(page, "/");
      assert.ok(first.look.inline, "the first page carries its styles");
      assert.deepEqual(first.look.linked, []);
      // The page's code fetches the sheet after the page has loaded and
      // notes it in the cookie.
      await page.waitForFunction(() => /(^|;\s*)styles=[\w-]+/.test(document.cookie));

      const second = await visit(page, "/new-cars");
      assert.ok(!second.look.inline, "no stylesheet carried again");
      assert.equal(second.look.linked.length, 1, "the sheet linked");
      assert.equal(second.look.sheetTransfer, 0, "the sheet came from the browser's cache");
      assert.equal(second.look.headerPosition, first.look.headerPosition);
      assert.equal(second.look.bodyFont, first.look.bodyFont);
      // The catalogue's first card as the first page drew its cards: styled.
      const card = page.getByTestId("car-card").first();
      await card.waitFor();
      const box = await card.boundingBox();
      assert.ok(box && box.width > 200 && box.width < viewport.width, JSON.stringify(box));

      // A page the first visit did not carry either: lighter than the first
      // page by the sheet's compressed size at least.
      const third = await visit(page, "/");
      assert.ok(
        third.bytes + 10_000 < first.bytes,
        `home ${third.bytes} bytes with the sheet linked, ${first.bytes} with it inline`,
      );
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  it("keeps the styles inline for a browser whose cookie names another build's sheet", async () => {
    const page = await s.open(DESKTOP);
    await page.context().addCookies([{ name: "styles", value: "Zz00Zz00", url: s.base }]);
    const first = await visit(page, "/used-cars");
    assert.ok(first.look.inline, "styles inline");
    await page.waitForFunction(() => /styles=[\w-]+\.Zz00Zz00/.test(document.cookie));
    const second = await visit(page, "/lease-cars");
    assert.ok(!second.look.inline, "linked once the browser keeps this build's sheet");
    await page.context().close();
  });
});
