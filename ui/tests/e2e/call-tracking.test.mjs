// Numbers per source without breaking pages (issue 45 item 4,
// docs/calls.md "Numbers per source"), against a fake of a call-tracking
// vendor's script: like Calltouch's, it writes the visit's own number into
// every element of the configured class (`call_phone_1`). With
// `[call_tracking] phone_class` and `script_url` set:
// - a first visitor sees the salon's own number in the header and the
//   footer, the cookie notice names the call-tracking service, and nothing
//   is asked of the vendor;
// - «Принять»: the script loads, the numbers change, and the header's link
//   calls the number it now shows; the page the server keeps still carries
//   the salon's number;
// - «Отказаться» afterwards: the page comes again without the script and
//   with the salon's number.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { settled } from "./a11y.mjs";
import { DESKTOP, start } from "./harness.mjs";

const SCRIPT = "https://mod.calltouch.ru/init.js?id=e2e-site";
const CLASS = "call_phone_1";
const TRACKED = "+7 (812) 987-65-43";
/** The vendor's script as far as the site is concerned: the class's
 * elements get the visit's number, now and when they are drawn again. */
const FAKE_VENDOR = `(function () {
  window.__vendorRuns = (window.__vendorRuns || 0) + 1;
  var put = function () {
    var shown = document.querySelectorAll(".${CLASS}");
    for (var i = 0; i < shown.length; i++)
      if (shown[i].textContent !== ${JSON.stringify(TRACKED)}) shown[i].textContent = ${JSON.stringify(TRACKED)};
  };
  put();
  new MutationObserver(put).observe(document.body, { childList: true, subtree: true });
})();`;

let s;
let salonPhone;
before(async () => {
  s = await start({
    env: {
      DEALERSHIP_CALL_TRACKING_PHONE_CLASS: CLASS,
      DEALERSHIP_CALL_TRACKING_SCRIPT_URL: SCRIPT,
    },
  });
  salonPhone = (await s.api("/api/settings")).phone;
});
after(async () => {
  await s?.stop();
});

/** A visitor whose requests to the vendor are recorded and answered by
 * the fake script. */
async function visitor(path) {
  const page = await s.open(DESKTOP);
  const asked = [];
  await page.context().route("https://mod.calltouch.ru/**", (route) => {
    asked.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_VENDOR });
  });
  await page.goto(s.base + path);
  return { page, asked };
}

const notice = (page) => page.getByRole("region", { name: "Согласие на cookie" });
const headerNumber = (page) => page.locator(".header-phone .salon-phone");
const footerNumber = (page) => page.locator("footer .salon-phone").first();

describe("a call-tracking script's numbers", () => {
  it("wait for consent, then show the visit's number, which the link calls", async () => {
    const { page, asked } = await visitor("/");
    // The notice is shown once the page's code has decided what to load.
    await notice(page).waitFor();
    assert.match(await notice(page).innerText(), /сервис учёта звонков/);
    assert.equal((await headerNumber(page).innerText()).trim(), salonPhone);
    assert.equal(
      await headerNumber(page).getAttribute("class"),
      `salon-phone header-phone-number ${CLASS}`,
    );
    assert.equal((await footerNumber(page).innerText()).trim(), salonPhone);
    assert.deepEqual(asked, [], "nothing asked of the vendor before consent");

    await notice(page).getByRole("button", { name: "Принять" }).click();
    await page.waitForFunction(
      (tracked) => document.querySelector(".header-phone .salon-phone")?.textContent === tracked,
      TRACKED,
    );
    assert.deepEqual(asked, [SCRIPT]);
    // The link calls the number it shows.
    await page.waitForFunction(
      () => document.querySelector(".header-phone")?.getAttribute("href") === "tel:+78129876543",
    );
    assert.equal((await footerNumber(page).innerText()).trim(), TRACKED);
    assert.equal(
      await page.locator("footer a:has(.salon-phone)").first().getAttribute("href"),
      "tel:+78129876543",
    );

    // What the server drew and keeps has the salon's number only.
    for (let i = 0; i < 2; i++) {
      const html = await (await fetch(`${s.base}/`)).text();
      assert.ok(html.includes(`${CLASS}">${salonPhone}</span>`), "the salon's number drawn");
      assert.ok(!html.includes(TRACKED), "no substituted number kept");
    }

    // A later page of the visit loads it once more, with consent kept.
    await page.goto(`${s.base}/trade-in`);
    await page.waitForFunction(
      (tracked) => document.querySelector(".header-phone .salon-phone")?.textContent === tracked,
      TRACKED,
    );
    assert.deepEqual(asked, [SCRIPT, SCRIPT]);

    // Withdrawn: the page comes again without it, with the salon's number.
    await settled(page);
    await page.locator("footer").getByRole("button", { name: "Настройки cookie" }).click();
    await notice(page).waitFor();
    const reloaded = page.waitForEvent("load");
    await notice(page).getByRole("button", { name: "Отказаться" }).click();
    await reloaded;
    await headerNumber(page).waitFor();
    assert.equal((await headerNumber(page).innerText()).trim(), salonPhone);
    await page.locator("footer").getByRole("button", { name: "Настройки cookie" }).waitFor();
    assert.equal(await page.evaluate(() => window.__vendorRuns ?? 0), 0, "not run after a refusal");
    assert.deepEqual(asked, [SCRIPT, SCRIPT]);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
