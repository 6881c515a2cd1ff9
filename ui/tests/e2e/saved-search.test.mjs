// Saved searches with alerts (issue 15), the visitor's side, on a server of
// its own (demo data) whose mail goes to a real SMTP server on loopback
// (tests/fixtures/smtp_sink.py). On a phone and by keyboard alone: the
// button of a filtered new-cars page opens the dialog with the filters in
// words; an empty form shows each field's message; the advertising consent
// is unticked and required; the request is sent and stored as the
// catalogue's API filter (read back through the admin API). The mailed link
// confirms the address and leads back to the filtered page; a price drop
// brings an alert mail whose link unsubscribes. A bad, spent or missing
// token shows the invalid-link message; a network failure offers a retry.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { expectNoViolations, expectVisibleFocus, focused, settled, tabTo } from "./a11y.mjs";
import { apiSession } from "./admin-helpers.mjs";
import { freePort, PHONE, start } from "./harness.mjs";

const SINK = new URL("../../../tests/fixtures/smtp_sink.py", import.meta.url).pathname;
const BUTTON = "Сообщать о новых авто и снижении цен";
const ADVERTISING =
  "Я согласен получать рекламные рассылки о новых автомобилях и снижении цен по этой подборке";
const INVALID = "Ссылка недействительна или устарела";
const EMAIL = "alerts-e2e@example.ru";

/** The SMTP server, its mails read from a directory. */
async function smtpSink(port) {
  const dir = mkdtempSync(join(tmpdir(), "dealership-e2e-mail-"));
  const child = spawn("/usr/bin/python3", [SINK, String(port), dir], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  await new Promise((ok, fail) => {
    child.once("exit", (c) => fail(new Error(`smtp_sink exited with ${c}`)));
    child.stdout.on("data", (d) => d.toString().includes("ready") && ok());
  });
  return {
    messages: () =>
      readdirSync(dir)
        .filter((f) => f.endsWith(".json") && !f.startsWith("."))
        .sort()
        .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8"))),
    async stop() {
      if (child.exitCode === null) {
        child.stdin.end();
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function eventually(what, check, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Spaces of any width as plain ones (prices are grouped with U+00A0). */
const plain = (text) => text.replace(/[\u00a0\u202f]/g, " ");
const isActive = (selector) => `document.activeElement?.matches(${JSON.stringify(selector)})`;
const inDialog = () => document.activeElement?.closest("dialog[open]") != null;
/** The page's script errors, less the console's notes of the refusals and
 * failures the journeys ask for. */
const scriptErrors = (page) =>
  page.errors.filter((e) => !/status of 4(04|22)|net::ERR_FAILED/.test(e));

/** The message tied to a control by aria-describedby (null when none). */
async function messageOf(page, selector) {
  const control = page.locator(selector);
  if ((await control.getAttribute("aria-invalid")) !== "true") return null;
  const id = await control.getAttribute("aria-describedby");
  assert.ok(id, `${selector} is invalid without a message`);
  return page.locator(`[id="${id}"]`).innerText();
}

let s;
let sink;
let session;
/** The followed filter: a demo brand's new cars up to a price above one car. */
const followed = {};

before(async () => {
  const smtpPort = await freePort();
  sink = await smtpSink(smtpPort);
  s = await start({
    env: {
      DEALERSHIP_SMTP_HOST: "127.0.0.1",
      DEALERSHIP_SMTP_PORT: String(smtpPort),
      DEALERSHIP_SMTP_SECURITY: "none",
      DEALERSHIP_NOTIFICATIONS_RETRY_FIRST_MS: "100",
      // Alerts are compared every minute (at least), not every ten.
      DEALERSHIP_NOTIFICATIONS_SEARCH_ALERTS_EVERY_MINUTES: "1",
    },
  });
  session = await apiSession(s.base);
  await session.put("/api/settings", { fromEmail: "robot@salon.example" });
  const brands = await s.api("/api/brands/fast");
  const cars = await s.api("/api/cars/fast?status=new&limit=100");
  const car = cars.find((c) => Number.parseFloat(c.price) < 9_000_000);
  const brand = brands.find((b) => b.id === car.brandId);
  const rubles = Math.floor(Number.parseFloat(car.price));
  const maxPrice = (Math.floor(rubles / 100_000) + 2) * 100_000;
  Object.assign(followed, {
    car,
    brand,
    maxPrice,
    path: `/new-cars?brand=${brand.slug}&price=${maxPrice}`,
  });
});
after(async () => {
  await s?.stop();
  await sink?.stop();
});

/** The first mail to EMAIL with a link of `kind` (confirm, unsubscribe), and
 * the link's path on the site. */
async function mailedLink(kind, ms = 15_000) {
  const link = new RegExp(`${s.base}/saved-searches/${kind}\\?token=([\\w-]+)`);
  const mail = await eventually(
    `a mail with a ${kind} link`,
    () => sink.messages().find((m) => m.rcpt_tos.includes(EMAIL) && link.test(m.text)),
    ms,
  );
  return { mail, path: `/saved-searches/${kind}?token=${mail.text.match(link)[1]}` };
}

async function storedSearch() {
  const searches = await session.get("/api/admin/saved-searches");
  return searches.find((x) => x.subscribers.some((sub) => sub.email === EMAIL));
}

describe("following a catalogue's filters", () => {
  it("on a phone by keyboard alone: errors at each field, both consents, the letter sent", async () => {
    const { brand, maxPrice, path } = followed;
    const page = await s.open(PHONE, path);
    await settled(page);
    // The walk crosses the page's own controls (the keyboard tests check
    // their rings); the button's ring is checked here.
    await tabTo(page, `document.activeElement?.textContent.trim() === ${JSON.stringify(BUTTON)}`, {
      max: 80,
      where: "filtered new cars",
      check: false,
    });
    await expectVisibleFocus(page, "the saved-search button");
    await page.keyboard.press("Enter");
    const dialog = page.locator("dialog[open]");
    await dialog.getByTestId("saved-search-form").waitFor();
    assert.ok(await page.evaluate(inDialog), "focus moved into the dialog");
    assert.equal(
      plain(await dialog.getByTestId("saved-search-summary").innerText()),
      `Подборка: Новые · ${brand.name} · до ${plain(maxPrice.toLocaleString("ru-RU"))} ₽`,
    );

    // Both consents are unticked; the advertising one is its own, required.
    const consent = dialog.locator('input[name="consent"]');
    const advertising = dialog.locator('input[name="advertisingConsent"]');
    assert.equal(await consent.isChecked(), false);
    assert.equal(await advertising.isChecked(), false);
    assert.equal(await advertising.getAttribute("required"), "");
    assert.equal(
      plain(await dialog.locator('label:has(input[name="advertisingConsent"])').innerText()),
      `${ADVERTISING} *`,
    );
    assert.match(
      await dialog.locator('label:has(input[name="consent"])').innerText(),
      /согласие на обработку персональных данных/,
    );
    await expectNoViolations(page, "saved-search dialog", "dialog[open]");

    // Sent empty: every field says its message, focus on the first.
    await tabTo(page, isActive('dialog button[type="submit"]'), { max: 10, where: "dialog" });
    await page.keyboard.press("Enter");
    await page.getByTestId("toast").filter({ hasText: "Укажите корректный e-mail" }).waitFor();
    assert.match(await focused(page), /^input email/);
    assert.equal(await messageOf(page, 'dialog input[name="email"]'), "Укажите корректный e-mail");
    assert.equal(
      await messageOf(page, 'dialog input[name="consent"]'),
      "Необходимо согласие на обработку персональных данных",
    );
    assert.equal(
      await messageOf(page, 'dialog input[name="advertisingConsent"]'),
      "Необходимо согласие на получение рекламных рассылок",
    );
    assert.equal(await page.getByTestId("toast").getAttribute("role"), "alert");
    await expectNoViolations(page, "saved-search dialog with its errors", "dialog[open]");

    // The address and the personal-data consent only: the advertising
    // consent is still asked for, and focus goes to it.
    await page.keyboard.type(EMAIL);
    assert.equal(await messageOf(page, 'dialog input[name="email"]'), null, "typing clears it");
    await tabTo(page, isActive('dialog input[name="consent"]'), { max: 6, where: "dialog" });
    await page.keyboard.press("Space");
    assert.equal(await messageOf(page, 'dialog input[name="consent"]'), null);
    await tabTo(page, isActive('dialog button[type="submit"]'), { max: 6, where: "dialog" });
    await page.keyboard.press("Enter");
    await page
      .getByTestId("toast")
      .filter({ hasText: "Необходимо согласие на получение рекламных рассылок" })
      .waitFor();
    assert.match(await focused(page), /^input advertisingConsent/);
    assert.equal(await consent.isChecked(), true);
    assert.equal(await advertising.isChecked(), false);
    assert.equal(await storedSearch(), undefined, "nothing stored yet");

    await page.keyboard.press("Space");
    assert.equal(await messageOf(page, 'dialog input[name="advertisingConsent"]'), null);
    await tabTo(page, isActive('dialog button[type="submit"]'), { max: 4, where: "dialog" });
    await page.keyboard.press("Enter");
    const sent = dialog.getByTestId("saved-search-sent");
    await sent.waitFor();
    assert.equal(
      await sent.innerText(),
      `Мы отправили письмо на ${EMAIL}. Подтвердите подписку по ссылке из письма.`,
    );
    // Focus moves to the message once it is on screen (an effect after the
    // render): on a busy machine that can come a moment after it shows.
    const readOut = isActive('[data-testid="saved-search-sent"]');
    await page.waitForFunction(readOut, undefined, { timeout: 5000 }).catch(() => {});
    assert.ok(await page.evaluate(readOut), "read out");

    // Tab stays inside the modal; Escape closes it and focus goes back.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      assert.ok(await page.evaluate(inDialog), `Tab ${i + 1} left the dialog`);
    }
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    assert.equal((await focused(page)).trim(), `button  ${BUTTON}`);

    // Stored as the catalogue's API filter, pending, from this page.
    const search = await storedSearch();
    assert.ok(search, "the admin list shows the search");
    assert.deepEqual(search.filter, { status: "new", brandId: brand.id, maxPrice });
    assert.equal(
      plain(search.description),
      `Новые · ${brand.name} · до ${plain(maxPrice.toLocaleString("ru-RU"))} ₽`,
    );
    assert.equal(new URL(search.pageUrl, s.base).href, s.base + path);
    const subscriber = search.subscribers.find((x) => x.email === EMAIL);
    assert.equal(subscriber.confirmedAt, null);
    assert.ok(search.pending >= 1);
    assert.deepEqual(scriptErrors(page), []);
    await page.context().close();
  });

  it("the mailed link confirms, says what is followed and leads back to the page", async () => {
    const { path: confirm, mail } = await mailedLink("confirm");
    assert.match(mail.subject, /^Подтвердите подписку/);
    assert.ok(mail.text.includes(s.base + followed.path), "the mail names the page");
    const page = await s.open(PHONE, confirm);
    await page.getByRole("heading", { level: 1, name: "Подписка подтверждена" }).waitFor();
    const text = plain(await page.getByTestId("saved-search-link").innerText());
    assert.ok(text.includes(`Новые · ${followed.brand.name}`), text);
    assert.match(text, /\*\*\*@example\.ru/, "the address masked");
    await expectNoViolations(page, "confirmed");
    const back = page.getByRole("button", { name: "Перейти к подборке" });
    assert.equal(await back.getAttribute("href"), followed.path);
    await back.click();
    await page.waitForURL(s.base + followed.path);
    await page.getByTestId("count").filter({ hasText: "Найдено" }).waitFor();
    const subscriber = (await storedSearch()).subscribers.find((x) => x.email === EMAIL);
    assert.ok(subscriber.confirmedAt, "confirmed in the admin list");
    assert.deepEqual(scriptErrors(page), []);
    await page.context().close();
  });

  it("a price drop brings an alert whose link unsubscribes", async () => {
    const { car } = followed;
    const input = await session.get(`/api/admin/cars/${car.id}`);
    const lower = Math.floor(Number.parseFloat(car.price)) - 50_000;
    await session.put(`/api/cars/${car.id}`, { ...input, price: `${lower}.00` });
    // The alerts are compared every minute.
    const { path: unsubscribe, mail } = await mailedLink("unsubscribe", 150_000);
    assert.ok(plain(mail.text).includes(plain(lower.toLocaleString("ru-RU"))), mail.text);
    const page = await s.open(PHONE, unsubscribe);
    await page.getByRole("heading", { level: 1, name: "Вы отписались от рассылки" }).waitFor();
    const text = plain(await page.getByTestId("saved-search-link").innerText());
    assert.ok(text.includes(`Новые · ${followed.brand.name}`), text);
    await expectNoViolations(page, "unsubscribed");
    // The link again: the same answer.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Вы отписались от рассылки" }).waitFor();
    assert.deepEqual(scriptErrors(page), []);
    await page.context().close();
  });
});

describe("the links' pages", () => {
  it("a wrong or missing token: the invalid-link message, no request for a missing one", async () => {
    for (const kind of ["confirm", "unsubscribe"]) {
      const page = await s.open(PHONE);
      const asked = [];
      page.on("request", (r) => r.url().includes("/api/saved-searches") && asked.push(r.url()));
      await page.goto(`${s.base}/saved-searches/${kind}?token=not-a-token`);
      const invalid = page.getByTestId("link-invalid");
      await invalid.waitFor();
      assert.equal(await invalid.innerText(), INVALID);
      assert.equal(asked.length, 1);
      await expectNoViolations(page, `${kind}: invalid`);

      await page.goto(`${s.base}/saved-searches/${kind}`);
      await invalid.waitFor();
      assert.equal(await invalid.innerText(), INVALID);
      assert.equal(asked.length, 1, "a missing token asks nothing");
      assert.deepEqual(scriptErrors(page), []);
      await page.context().close();
    }
  });

  it("a network failure offers a retry, by keyboard", async () => {
    const page = await s.open(PHONE);
    let calls = 0;
    await page.route("**/api/saved-searches/confirm", (route) => {
      calls += 1;
      return calls === 1 ? route.abort("failed") : route.continue();
    });
    await page.goto(`${s.base}/saved-searches/confirm?token=still-wrong`);
    const retry = page.getByRole("button", { name: "Повторить" });
    await retry.waitFor();
    assert.match(await page.getByTestId("link-failed").innerText(), /Не удалось подключиться/);
    await retry.focus();
    await page.keyboard.press("Enter");
    await page.getByTestId("link-invalid").waitFor();
    assert.equal(calls, 2);
    // The heading takes the focus once the outcome is drawn (an effect after
    // the render): waited for, as a screen reader would meet it.
    await page.waitForFunction(() => document.activeElement?.tagName === "H1", null, {
      timeout: 5000,
    });
    await page.context().close();
  });
});
