// The admin panel has no counter and no cookie notice (issue 43, item 7;
// lib/consent.ts): a browser whose visitor accepted Yandex Metrika on the
// public site, then logged in, requests nothing from mc.yandex.ru on any
// admin screen, where leads' names and phones are shown, and is not asked
// about cookies there. Metrika itself is never reached: its requests are
// intercepted and counted.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { settled } from "./a11y.mjs";
import { apiSession, keepSettings, loginViaForm } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

const COUNTER = 12345678;
/** Records Metrika's calls, as consent.test.mjs does. */
const STUB_TAG_JS = `(function () {
  var calls = (window.__ymCalls = window.__ymCalls || []);
  var queued = (window.ym && window.ym.a) || [];
  for (var i = 0; i < queued.length; i++) calls.push(Array.prototype.slice.call(queued[i]));
  window.ym = function () { calls.push(Array.prototype.slice.call(arguments)); };
})();`;
const SCREENS = [
  ["/admin", "Панель администратора"],
  ["/admin/leads", "Заявки"],
  ["/admin/users", "Пользователи"],
  ["/admin/settings", "Настройки"],
];

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

describe("analytics inside the admin panel", () => {
  it("after accepting cookies publicly, no admin screen loads Metrika or shows the notice", async () => {
    const page = await s.open(DESKTOP);
    const context = page.context();
    const requests = [];
    context.on("request", (r) => requests.push({ url: r.url(), from: page.url() }));
    await context.route("https://mc.yandex.ru/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: STUB_TAG_JS }),
    );
    const notice = page.getByRole("region", { name: "Согласие на cookie" });
    const metrika = () => requests.filter((r) => r.url.includes("mc.yandex.ru"));

    // The visitor accepts on the home page: Metrika starts there.
    await page.goto(`${s.base}/`);
    await notice.getByRole("button", { name: "Принять", exact: true }).click();
    await notice.waitFor({ state: "detached" });
    const deadline = Date.now() + 5000;
    while (metrika().length === 0) {
      assert.ok(Date.now() < deadline, "Metrika starts on the public page once accepted");
      await page.waitForTimeout(100);
    }

    // Then logs in, in the same browser, and walks the panel.
    await loginViaForm(page, s.base, "/admin");
    for (const [path, heading] of SCREENS) {
      const before = metrika().length;
      await page.goto(s.base + path);
      await page.getByRole("heading", { level: 1, name: heading }).first().waitFor();
      await page.waitForLoadState("load");
      await settled(page);
      // The public code asks or starts on load, a task later: give it that time.
      await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
      assert.deepEqual(metrika().slice(before), [], `${path}: nothing from mc.yandex.ru`);
      assert.equal(await notice.count(), 0, `${path}: no cookie notice`);
      assert.equal(await page.evaluate(() => typeof window.ym), "undefined", path);
    }
    await context.close();
  });
});
