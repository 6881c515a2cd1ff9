// Analytics only after consent (152-FZ, issue 26; lib/consent.ts): with a
// Yandex Metrika id set, a first visit shows the cookie notice and requests
// nothing from mc.yandex.ru; "Отказаться" keeps it so for good; the footer's
// "Настройки cookie" asks again, and "Принять" starts the counter: page
// views, a request's goal and a phone click reach it; withdrawing stops it.
// Metrika itself is never reached: a stub tag.js records the calls.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations, expectVisibleFocus, focused, settled } from "./a11y.mjs";
import { apiSession, keepSettings } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

const COUNTER = 12345678;
const TAG_JS = "https://mc.yandex.ru/metrika/tag.js";
const NOTICE_TEXT =
  "Мы используем cookie и Яндекс Метрику, чтобы понимать, как работает сайт. Счётчик включится, только если вы согласитесь.";
/** Takes the calls queued before it came and records every later one. */
const STUB_TAG_JS = `(function () {
  var calls = (window.__ymCalls = window.__ymCalls || []);
  var queued = (window.ym && window.ym.a) || [];
  for (var i = 0; i < queued.length; i++) calls.push(Array.prototype.slice.call(queued[i]));
  window.ym = function () { calls.push(Array.prototype.slice.call(arguments)); };
})();`;

let s;
let kept;
before(async () => {
  s = await start();
  const owner = await apiSession(s.base);
  // The e2e server is shared between files: the counters go back as they were.
  kept = await keepSettings(owner, ["yandexMetrikaId", "googleAnalyticsId"]);
  await owner.put("/api/settings", { yandexMetrikaId: String(COUNTER) });
});
after(async () => {
  await kept?.restore();
  await s?.stop();
});

/** A visitor: a browser context of its own (its localStorage is the
 * visitor's memory) whose requests are recorded, with Metrika stubbed. */
async function visitor(viewport, path) {
  const page = await s.open(viewport);
  const context = page.context();
  const requests = [];
  context.on("request", (r) => requests.push(r.url()));
  await context.route("https://mc.yandex.ru/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/javascript", body: STUB_TAG_JS }),
  );
  await context.route("https://www.googletagmanager.com/**", (route) => route.abort());
  const counted = () =>
    requests.filter((u) => u.includes("mc.yandex.ru") || u.includes("googletagmanager"));
  if (path) await page.goto(s.base + path);
  return { page, requests, counted };
}

const notice = (page) => page.getByRole("region", { name: "Согласие на cookie" });
const calls = (page) => page.evaluate(() => window.__ymCalls ?? []);
const stored = (page) => page.evaluate(() => localStorage.getItem("analytics-consent"));

/** The page has loaded and had the time to start its counters or ask. */
async function loaded(page) {
  await page.waitForLoadState("load");
  await settled(page);
  await page.waitForTimeout(600);
}

/** Waits for a Metrika call that `match` accepts; answers it. */
async function called(page, match, what) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = (await calls(page)).find(match);
    if (found) return found;
    if (Date.now() > deadline) assert.fail(`no ${what} among ${JSON.stringify(await calls(page))}`);
    await page.waitForTimeout(100);
  }
}

describe("the cookie notice", () => {
  let v;
  after(() => v?.page.context().close());

  it("a first visit: the notice asks, nothing is counted, the site works", async () => {
    v = await visitor({ width: 320, height: 640 }, "/");
    const { page } = v;
    await notice(page).waitFor();
    const text = await notice(page).innerText();
    assert.ok(text.includes(NOTICE_TEXT), text);
    assert.ok(!text.includes("Google Analytics"), "Google Analytics is not set");
    const link = notice(page).getByRole("link", { name: "Политика обработки персональных данных" });
    assert.equal(await link.getAttribute("href"), "/privacy");
    for (const name of ["Принять", "Отказаться"]) {
      assert.ok(await notice(page).getByRole("button", { name, exact: true }).isVisible(), name);
    }
    // Not a dialog: nothing is modal, the page behind takes clicks.
    assert.equal(await page.locator("dialog[open]").count(), 0);
    await loaded(page);
    assert.deepEqual(v.counted(), [], "nothing requested before consent");
    assert.equal(await page.evaluate(() => typeof window.ym), "undefined");

    // Compact on a small phone, and the page's end can be scrolled above it.
    const box = await notice(page).boundingBox();
    assert.ok(box.height <= 640 * 0.45, `the notice is ${box.height}px tall`);
    assert.ok(Math.abs(box.y + box.height - 640) <= 1, "at the bottom of the window");
    const room = await page.evaluate(() => Number.parseFloat(document.body.style.paddingBottom));
    assert.ok(Math.abs(room - box.height) <= 1, `room below the page ${room}px`);
    assert.equal(
      await page.evaluate(() => document.documentElement.scrollWidth),
      320,
      "no sideways scrolling at 320px",
    );

    await expectNoViolations(page, "home with the cookie notice");

    // A car page, from a card, with its price.
    const card = page.getByTestId("car-card").first();
    await card.locator("h3 a").click();
    await page.locator("h1").waitFor();
    await page.locator(".detail-price").first().waitFor();
    assert.match(await page.locator(".detail-price").first().innerText(), /\d.*₽/);
    assert.ok(await notice(page).isVisible(), "the notice stays until the visitor chooses");
    await expectNoViolations(page, "car page with the cookie notice");
    assert.deepEqual(v.counted(), []);
    assert.deepEqual(page.errors, []);
  });

  it("'Отказаться': the notice goes and stays away, nothing is counted", async () => {
    const { page } = v;
    // The policy's link moves within the site, the notice stays.
    await notice(page)
      .getByRole("link", { name: "Политика обработки персональных данных" })
      .click();
    await page.waitForURL(/\/privacy$/);
    await page.locator("h1").filter({ hasText: "Политика" }).waitFor();
    assert.ok(await notice(page).isVisible());
    await notice(page).getByRole("button", { name: "Отказаться" }).click();
    await notice(page).waitFor({ state: "detached" });
    assert.equal(JSON.parse(await stored(page)).choice, "refused");
    assert.equal(await page.evaluate(() => document.body.style.paddingBottom), "");
    await page.reload();
    await loaded(page);
    assert.equal(await notice(page).count(), 0, "no notice after refusing");
    await page.goto(`${s.base}/new-cars`);
    await loaded(page);
    assert.equal(await notice(page).count(), 0);
    assert.deepEqual(v.counted(), [], "still nothing requested");
    assert.deepEqual(page.errors, []);
  });

  it("'Настройки cookie' → 'Принять': Metrika starts, counts pages, requests and phone clicks", async () => {
    const { page } = v;
    await page.setViewportSize(DESKTOP);
    await page.goto(`${s.base}/`);
    await loaded(page);
    const settings = page.locator("footer").getByRole("button", { name: "Настройки cookie" });
    await settings.click();
    await notice(page).waitFor();
    // Asked for, the notice takes the focus (non-modal: nothing else is inert).
    await page.waitForFunction(() => document.activeElement?.matches(".cookie-notice"));
    assert.deepEqual(v.counted(), []);
    await notice(page).getByRole("button", { name: "Принять" }).click();
    await notice(page).waitFor({ state: "detached" });
    assert.match(await focused(page), /Настройки cookie/, "focus back on the footer's button");
    const choice = JSON.parse(await stored(page));
    assert.equal(choice.choice, "accepted");
    assert.ok(!Number.isNaN(Date.parse(choice.date)), "the choice is dated");

    const init = await called(page, (c) => c[1] === "init", "init");
    assert.equal(init[0], COUNTER);
    assert.ok(v.requests.includes(TAG_JS), "tag.js requested after 'Принять'");

    // A page view on a client-side move.
    await page.locator("header").getByRole("link", { name: "Новые автомобили" }).first().click();
    await page.waitForURL(/\/new-cars$/);
    const hit = await called(page, (c) => c[1] === "hit", "hit");
    assert.equal(hit[0], COUNTER);
    assert.match(hit[2], /\/new-cars$/);

    // A request sent: its goal.
    const card = page.getByTestId("car-card").first();
    await card.locator("h3 a").click();
    await page.locator("h1").waitFor();
    await page.locator(".detail-actions").getByRole("button", { name: "Рассрочка" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Заявка на рассрочку" }).waitFor();
    await dialog.locator('input[name="name"]').fill("Иван Петров");
    await dialog.locator('input[name="phone"]').fill("+7 921 555-12-34");
    await dialog.locator('input[name="consent"]').check();
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await page.getByTestId("toast").filter({ hasText: "Заявка отправлена!" }).waitFor();
    await called(
      page,
      (c) => c[0] === COUNTER && c[1] === "reachGoal" && c[2] === "lead_contact_form",
      "reachGoal lead_contact_form",
    );

    // A phone link: its goal (the call itself is not made).
    await page.evaluate(() =>
      document.addEventListener("click", (e) => {
        if (e.target.closest('a[href^="tel:"]')) e.preventDefault();
      }),
    );
    await page.locator('header a[href^="tel:"]').first().click();
    await called(page, (c) => c[1] === "reachGoal" && c[2] === "phone_click", "phone_click");
    assert.ok(
      !v.requests.some((u) => u.includes("googletagmanager")),
      "no Google Analytics without its id",
    );
    assert.deepEqual(page.errors, []);
  });

  it("a later visit starts the accepted counter without asking", async () => {
    const { page } = v;
    const before = v.requests.filter((u) => u === TAG_JS).length;
    await page.goto(`${s.base}/used-cars`);
    await loaded(page);
    assert.equal(await notice(page).count(), 0);
    await called(page, (c) => c[1] === "init" && c[0] === COUNTER, "init");
    assert.equal(v.requests.filter((u) => u === TAG_JS).length, before + 1);
  });

  it("withdrawing ('Отказаться' after 'Принять') stops every hit and goal", async () => {
    const { page } = v;
    await page.locator("footer").getByRole("button", { name: "Настройки cookie" }).click();
    await notice(page).getByRole("button", { name: "Отказаться" }).click();
    await notice(page).waitFor({ state: "detached" });
    assert.equal(JSON.parse(await stored(page)).choice, "refused");
    assert.equal(
      await page.evaluate((id) => window[`disableYaCounter${id}`], COUNTER),
      true,
      "Metrika's own opt-out flag is set",
    );
    const count = (await calls(page)).length;
    await page.evaluate(() =>
      document.addEventListener("click", (e) => {
        if (e.target.closest('a[href^="tel:"]')) e.preventDefault();
      }),
    );
    await page.locator('header a[href^="tel:"]').first().click();
    await page.locator("header").getByRole("link", { name: "Новые автомобили" }).first().click();
    await page.waitForURL(/\/new-cars$/);
    await page.waitForTimeout(500);
    assert.equal((await calls(page)).length, count, "no call after withdrawing");
    // And the next visit loads nothing.
    const requested = v.counted().length;
    await page.reload();
    await loaded(page);
    assert.equal(v.counted().length, requested);
    assert.equal(await notice(page).count(), 0);
    assert.deepEqual(page.errors, []);
  });
});

describe("the cookie notice with the keyboard", () => {
  it("is met first by Tab, its buttons reached and pressed with the keyboard", async () => {
    const { page, counted } = await visitor(DESKTOP, "/");
    await notice(page).waitFor();
    const stops = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("Tab");
      await expectVisibleFocus(page, `notice Tab ${i + 1}`);
      stops.push(await focused(page));
    }
    assert.match(stops[0], /^a .*Политика обработки/);
    assert.match(stops[1], /^button .*Принять/);
    assert.match(stops[2], /^button .*Отказаться/);
    await page.keyboard.press("Enter");
    await notice(page).waitFor({ state: "detached" });
    assert.equal(JSON.parse(await stored(page)).choice, "refused");

    // The footer's button, from the keyboard: focus goes into the notice and back.
    const settings = page.locator("footer").getByRole("button", { name: "Настройки cookie" });
    await settings.focus();
    await expectVisibleFocus(page, "Настройки cookie");
    await page.keyboard.press("Enter");
    await notice(page).waitFor();
    await page.waitForFunction(() => document.activeElement?.matches(".cookie-notice"));
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    assert.match(await focused(page), /^button .*Принять/);
    await expectVisibleFocus(page, "Принять after the footer's button");
    await page.keyboard.press(" ");
    await notice(page).waitFor({ state: "detached" });
    assert.match(await focused(page), /Настройки cookie/);
    await called(page, (c) => c[1] === "init", "init");
    assert.ok(counted().includes(TAG_JS));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe("the cookie notice asked for again", () => {
  it("says what was chosen before and marks that button pressed, for the keyboard too", async () => {
    const { page } = await visitor(DESKTOP, "/");
    await notice(page).waitFor();
    // A first ask has no choice to tell.
    assert.ok(!(await notice(page).innerText()).includes("Сейчас"));
    assert.equal(await notice(page).locator("button[aria-pressed]").count(), 0);
    await notice(page).getByRole("button", { name: "Отказаться" }).click();
    await notice(page).waitFor({ state: "detached" });

    const settings = page.locator("footer").getByRole("button", { name: "Настройки cookie" });
    /** Asks again from the keyboard; the notice tells `word` and marks its button. */
    async function askedAgain(word, other) {
      await settings.focus();
      await page.keyboard.press("Enter");
      await notice(page).waitFor();
      await page.waitForFunction(() => document.activeElement?.matches(".cookie-notice"));
      const text = await notice(page).innerText();
      assert.ok(text.includes(`Сейчас вы выбрали «${word}».`), text);
      const chosen = notice(page).getByRole("button", { name: word, pressed: true });
      assert.ok(await chosen.isVisible(), `«${word}» is pressed`);
      assert.ok(
        await notice(page).getByRole("button", { name: other, pressed: false }).isVisible(),
      );
      // Seen, not only heard: a tick before the chosen button's word.
      const tick = await chosen.evaluate((b) => getComputedStyle(b, "::before").content);
      assert.match(tick, /✓/);
      await expectNoViolations(page, `the notice asked again after «${word}»`, ".cookie-notice");
    }

    await askedAgain("Отказаться", "Принять");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    assert.match(await focused(page), /^button .*Принять/);
    await expectVisibleFocus(page, "Принять, asked again");
    await page.keyboard.press("Enter");
    await notice(page).waitFor({ state: "detached" });
    assert.equal(JSON.parse(await stored(page)).choice, "accepted");

    await askedAgain("Принять", "Отказаться");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
