// Times in the admin panel are Moscow time in a browser of another zone
// (Vladivostok, UTC+10): the dashboard's latest changes (with their fields
// and values named as the panel names them) and the leads list show the
// Moscow rendering of the moments the API gives; the settings screen says so.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { apiSession, cleanup, mark, useSession } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

const ZONE = "Asia/Vladivostok";

let s;
let session;
let trash;
before(async () => {
  s = await start();
  session = await apiSession(s.base);
  trash = cleanup(session);
});
after(async () => {
  await trash?.run();
  await s?.stop();
});

/** A logged-in admin page in a browser set to Vladivostok time. */
async function openInZone(path) {
  const page = await s.open(DESKTOP, undefined, { timezoneId: ZONE });
  await useSession(page, s.base, session);
  await page.goto(s.base + path);
  return page;
}

const LONG = { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" };
const SHORT = {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
};

/** Moments as the page's own browser writes them in Moscow and in its zone
 * (the same ICU as the panel, so only the zone can differ). */
function renderings(page, moments, options) {
  return page.evaluate(
    ([list, o]) => {
      const moscow = new Intl.DateTimeFormat("ru-RU", { ...o, timeZone: "Europe/Moscow" });
      const here = new Intl.DateTimeFormat("ru-RU", o);
      return {
        zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        moscow: list.map((m) => moscow.format(new Date(m))),
        here: list.map((m) => here.format(new Date(m))),
      };
    },
    [moments, options],
  );
}

/** A visitor's request, as the site's forms send it. */
async function postLead(name) {
  const r = await fetch(`${s.base}/api/leads`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "trade_in", name, phone: "+7 921 555-12-34", consent: true }),
  });
  assert.equal(r.status, 201, await r.clone().text());
  const lead = await r.json();
  trash.track(`/api/leads/${lead.id}`);
  return lead;
}

describe("admin times in another zone", () => {
  it("the dashboard's latest changes: Moscow time, labels instead of codes", async () => {
    const name = `Время ${mark()}`;
    const lead = await postLead(name);
    await session.put(`/api/leads/${lead.id}/status`, { status: "in_progress" });

    const page = await openInZone("/admin");
    const list = page.getByTestId("audit");
    await list.waitFor();
    const { items } = await session.get("/api/admin/audit?limit=10");
    const shown = await list.locator(":scope > li").evaluateAll((lis) =>
      lis.map((li) => ({
        at: li.querySelector(".audit-meta time")?.getAttribute("datetime"),
        time: li.querySelector(".audit-meta time")?.textContent,
        text: li.innerText,
      })),
    );
    assert.deepEqual(
      shown.map((e) => e.at),
      items.map((e) => e.at),
    );
    const r = await renderings(
      page,
      items.map((e) => e.at),
      LONG,
    );
    assert.equal(r.zone, ZONE);
    assert.deepEqual(
      shown.map((e) => e.time),
      r.moscow,
    );
    for (let i = 0; i < items.length; i++) assert.notEqual(r.here[i], r.moscow[i]);

    // The status change of the lead, in the leads screen's words.
    const mine = items.findIndex(
      (e) => e.objectType === "lead" && e.objectId === lead.id && e.action === "status",
    );
    if (mine >= 0) assert.match(shown[mine].text, /^Статус заявки «[^»]+»: Новый → В работе$/m);
    for (const e of shown) assert.doesNotMatch(e.text, /in_progress|→ new\b|new →/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("the leads list: a lead's time in Moscow time", async () => {
    const name = `Время ${mark()}`;
    const lead = await postLead(name);
    const page = await openInZone("/admin/leads");
    const row = page.getByTestId("lead-row").filter({ hasText: name });
    await row.waitFor();
    const r = await renderings(page, [lead.createdAt], SHORT);
    assert.equal(await row.locator("time").getAttribute("datetime"), lead.createdAt);
    assert.equal(await row.locator("time").innerText(), r.moscow[0]);
    assert.notEqual(r.here[0], r.moscow[0]);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("the settings screen says the panel's zone", async () => {
    const page = await openInZone("/admin/settings");
    assert.equal(
      await page.getByTestId("time-zone-note").innerText(),
      "Время в панели и на сайте — московское (UTC+3)",
    );
    await page.context().close();
  });
});
