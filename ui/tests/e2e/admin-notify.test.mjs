// Lead notifications in the admin panel, on a server of its own whose
// channels point at loopback fakes: a real SMTP server (Debian's
// python3-aiosmtpd, tests/fixtures/smtp_sink.py) started and stopped by the
// test, and a small fake amoCRM (OAuth token, account, leads/complex).
// Journeys: amoCRM authorised with a pasted code and its test; a lead sent
// while the mail server is down shows its failed e-mail, the dashboard lists
// it and links to it, the mail server comes back and the retry sends it; the
// settings' test e-mail lands in the mailbox. The shared server (no channel
// configured) shows the amoCRM setup steps.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { apiSession, mark, openAdmin } from "./admin-helpers.mjs";
import { DESKTOP, freePort, start } from "./harness.mjs";

const SINK = new URL("../../../tests/fixtures/smtp_sink.py", import.meta.url).pathname;
const AMO = { domain: "salon.amocrm.ru", clientId: "client-1", secret: "amo-secret-xyz" };

/** The SMTP server: started on `port` when asked, its mails read from `dir`. */
function smtpSink(port) {
  const dir = mkdtempSync(join(tmpdir(), "dealership-e2e-mail-"));
  let child = null;
  return {
    async up() {
      if (child && child.exitCode === null) return;
      child = spawn("/usr/bin/python3", [SINK, String(port), dir], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      await new Promise((ok, fail) => {
        child.once("exit", (c) => fail(new Error(`smtp_sink exited with ${c}`)));
        child.stdout.on("data", (d) => d.toString().includes("ready") && ok());
      });
    },
    messages() {
      return readdirSync(dir)
        .filter((f) => f.endsWith(".json") && !f.startsWith("."))
        .sort()
        .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")));
    },
    async stop() {
      if (child && child.exitCode === null) {
        child.stdin.end();
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fake amoCRM: the token endpoint (code "good-code" only), the account and
 * leads/complex, as tests/notifications.rs fakes it. `down` makes the account
 * answer 503. */
async function fakeAmo() {
  const state = { access: "", refresh: "", issued: 0, leads: [], down: false };
  const server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = text ? JSON.parse(text) : {};
    const send = (status, value) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(value));
    };
    const authorized =
      state.access !== "" && req.headers.authorization === `Bearer ${state.access}`;
    const issue = () => {
      state.issued += 1;
      state.access = `access-${state.issued}`;
      state.refresh = `refresh-${state.issued}`;
      return {
        token_type: "Bearer",
        expires_in: 86400,
        access_token: state.access,
        refresh_token: state.refresh,
      };
    };
    if (req.method === "POST" && req.url === "/oauth2/access_token") {
      if (body.client_id !== AMO.clientId || body.client_secret !== AMO.secret) {
        return send(401, { hint: "bad client" });
      }
      if (body.grant_type === "authorization_code" && body.code === "good-code") {
        return send(200, issue());
      }
      if (body.grant_type === "refresh_token" && body.refresh_token === state.refresh) {
        return send(200, issue());
      }
      return send(400, { hint: "Authorization code has been revoked", status: 400 });
    }
    if (req.url === "/api/v4/account") {
      if (state.down) return send(503, { title: "Unavailable" });
      return authorized ? send(200, { id: 1, name: "Salon" }) : send(401, {});
    }
    if (req.method === "POST" && req.url === "/api/v4/leads/complex") {
      if (!authorized) return send(401, { title: "Unauthorized" });
      state.leads.push(body);
      const id = 1000 + state.leads.length;
      return send(200, [{ id, contact_id: 5000 + id, request_id: ["0"], merged: false }]);
    }
    send(404, { title: "Not found" });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    state,
    port: server.address().port,
    close: () => new Promise((r) => server.close(r)),
  };
}

async function eventually(what, check, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The page's script errors, less the console's note of the refusals (422)
 * the journeys ask for. */
const scriptErrors = (page) => page.errors.filter((e) => !/status of 422/.test(e));

let s;
let session;
let sink;
let amo;
before(async () => {
  const smtpPort = await freePort();
  sink = smtpSink(smtpPort);
  amo = await fakeAmo();
  s = await start({
    demo: false,
    env: {
      DEALERSHIP_SMTP_HOST: "127.0.0.1",
      DEALERSHIP_SMTP_PORT: String(smtpPort),
      DEALERSHIP_SMTP_SECURITY: "none",
      // The first failure is final (the admin retries), tries come quickly.
      DEALERSHIP_NOTIFICATIONS_GIVE_UP_AFTER_MINUTES: "0",
      DEALERSHIP_NOTIFICATIONS_RETRY_FIRST_MS: "100",
      DEALERSHIP_AMOCRM_DOMAIN: AMO.domain,
      DEALERSHIP_AMOCRM_CLIENT_ID: AMO.clientId,
      DEALERSHIP_AMOCRM_CLIENT_SECRET: AMO.secret,
      DEALERSHIP_AMOCRM_REDIRECT_URI: "https://salon.example/admin/amocrm",
      DEALERSHIP_AMOCRM_API_URL: `http://127.0.0.1:${amo.port}`,
    },
  });
  session = await apiSession(s.base);
  await session.put("/api/settings", {
    notificationEmail: "sales@salon.example",
    emailNotificationsEnabled: true,
  });
});
after(async () => {
  await s?.stop();
  await sink?.stop();
  await amo?.close();
});

describe("admin notifications", () => {
  it("authorises amoCRM with a pasted code and tests the connection", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin");
    await page
      .getByRole("navigation", { name: "Разделы администрирования" })
      .getByRole("link", { name: "amoCRM" })
      .click();
    await page.waitForURL(`${s.base}/admin/amocrm`);
    const state = page.getByTestId("amocrm-state");
    assert.equal(await state.innerText(), "Не авторизована");
    const status = await page.getByTestId("amocrm-status").innerText();
    assert.match(status, /salon\.amocrm\.ru/);
    assert.match(status, /client-1/);
    assert.match(status, /https:\/\/salon\.example\/admin\/amocrm/);
    assert.ok(!status.includes(AMO.secret), "the secret is never shown");

    // amoCRM's consent page opens in a popup (answered here: no network).
    await page
      .context()
      .route("https://www.amocrm.ru/**", (route) =>
        route.fulfill({ contentType: "text/html", body: "<title>amoCRM</title>Разрешить доступ" }),
      );
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.getByRole("button", { name: "Открыть окно авторизации" }).click(),
    ]);
    assert.match(popup.url(), /^https:\/\/www\.amocrm\.ru\/oauth\?client_id=client-1&/);
    await popup.close();

    // A wrong code: the server's words next to the field.
    const code = page.getByLabel("Код авторизации");
    await code.fill("wrong-code");
    await code.press("Enter");
    const error = page.getByTestId("amocrm-authorize").locator(".field-error");
    await error.waitFor();
    assert.match(await error.innerText(), /^Ошибка авторизации: /);
    assert.equal(await code.getAttribute("aria-invalid"), "true");
    const describedBy = await code.getAttribute("aria-describedby");
    assert.ok(describedBy?.includes(await error.getAttribute("id")));

    // The whole redirect address is accepted too.
    await code.fill("https://salon.example/admin/amocrm?code=good-code&state=x&referer=salon");
    await page.getByRole("button", { name: "Авторизовать" }).click();
    const ok = page.getByTestId("amocrm-auth-result");
    await ok.waitFor();
    assert.equal(await ok.innerText(), "Успешная авторизация");
    assert.equal(await code.getAttribute("aria-invalid"), null);
    await page.getByTestId("amocrm-state").filter({ hasText: "Подключена" }).waitFor();
    assert.match(await page.getByTestId("amocrm-expiry").innerText(), /^действует до /);
    assert.equal(amo.state.issued, 1);

    // The test: a deal made in the fake CRM.
    const test = page.getByRole("button", { name: "Проверить подключение" });
    const result = page.getByTestId("amocrm-test-result");
    await test.click();
    await result.getByText("Успешная авторизация").waitFor();
    assert.match(await result.innerText(), /тестовая сделка №1001/);
    assert.equal(amo.state.leads.length, 1);

    // The CRM down: the connection error.
    amo.state.down = true;
    await test.click();
    await result.getByText("Ошибка подключения к серверу").waitFor();
    assert.match(await result.innerText(), /503/);
    amo.state.down = false;

    // amoCRM sends the popup back to the redirect URI, this screen: the code
    // is taken from its address.
    await page.goto(`${s.base}/admin/amocrm?code=good-code&state=y`);
    assert.equal(await page.getByLabel("Код авторизации").inputValue(), "good-code");
    await page.getByRole("button", { name: "Авторизовать" }).click();
    await page
      .getByTestId("amocrm-auth-result")
      .filter({ hasText: "Успешная авторизация" })
      .waitFor();
    assert.deepEqual(scriptErrors(page), []);
    await page.context().close();
  });

  it("shows a failed e-mail in the lead, on the dashboard, and sends it on retry", async () => {
    const name = `Почта ${mark()}`;
    const r = await fetch(`${s.base}/api/leads`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        type: "auto_credit",
        name,
        phone: "+7 921 555-12-34",
        consent: true,
        desiredAmount: "900000",
      }),
    });
    assert.equal(r.status, 201, await r.clone().text());
    const lead = await r.json();
    // The mail server is down: the e-mail fails (given up at once here);
    // amoCRM, authorised by the test before, takes the lead.
    await eventually("the e-mail failed and the CRM push sent", async () => {
      const list = await session.get(`/api/admin/leads/${lead.id}/deliveries`);
      const by = Object.fromEntries(list.map((d) => [d.channel, d.state]));
      return by.email === "failed" && by.amocrm === "sent";
    });

    // The dashboard lists the failure and links to the lead.
    const { page } = await openAdmin(s, DESKTOP, "/admin");
    const card = page.getByTestId("failed-card");
    assert.match(await card.innerText(), /^Уведомления\s+1\s+не доставлено/);
    const item = page.getByTestId("failed-delivery").filter({ hasText: name });
    assert.match(await item.innerText(), /^E-mail · /);
    assert.match(await item.innerText(), /SMTP/);
    await item.getByRole("link", { name: new RegExp(name) }).click();
    await page.waitForURL(`${s.base}/admin/leads?lead=${lead.id}`);

    // The details: each channel's state, the error and the tries.
    const details = page.getByTestId("lead-details");
    await details.waitFor();
    assert.match(await details.getByRole("heading", { level: 2 }).first().innerText(), /Почта/);
    const email = details.locator('[data-testid="delivery"][data-channel="email"]');
    const crm = details.locator('[data-testid="delivery"][data-channel="amocrm"]');
    assert.equal(await email.getByTestId("delivery-state").innerText(), "Не доставлено");
    assert.match(await email.innerText(), /Ошибка: SMTP/);
    assert.match(await email.innerText(), /Сделано: 1 попытка, больше попыток не будет/);
    assert.equal(await crm.getByTestId("delivery-state").innerText(), "Отправлено");
    assert.match(await crm.innerText(), /Отправлено \d+ \S+ 20\d\d г\. в \d\d:\d\d/);
    await details.getByTestId("lead-amocrm-id").filter({ hasText: "№ 1002" }).waitFor();

    // The mail server is back; the admin retries the e-mail from the keyboard.
    await sink.up();
    const retry = details.getByRole("button", { name: "Повторить отправку: E-mail" });
    await retry.focus();
    await page.keyboard.press("Enter");
    await email.and(page.locator('[data-state="sent"]')).waitFor({ timeout: 10_000 });
    assert.equal(await email.getByTestId("delivery-state").innerText(), "Отправлено");
    assert.equal(await details.getByRole("button", { name: /Повторить/ }).count(), 0);
    const mails = await eventually("the mail", () => {
      const m = sink.messages().filter((x) => x.subject.includes(name));
      return m.length ? m : null;
    });
    assert.equal(mails.length, 1);
    assert.equal(mails[0].subject, `Новая заявка: Заявка на автокредит — ${name}`);
    assert.deepEqual(mails[0].rcpt_tos, ["sales@salon.example"]);

    // Closing the details leaves the address of the list.
    await details.getByRole("button", { name: "Закрыть" }).first().click();
    await details.waitFor({ state: "detached" });
    assert.equal(page.url(), `${s.base}/admin/leads`);
    // Nothing failed any more: the dashboard says so.
    await page.goto(`${s.base}/admin`);
    await page.getByTestId("failed-card").filter({ hasText: "Все доставлены" }).waitFor();
    assert.equal(await page.getByTestId("failed-deliveries").count(), 0);
    assert.deepEqual(scriptErrors(page), []);
    await page.context().close();
  });

  it("sends a test e-mail from the settings form and shows a missing address at its field", async () => {
    await sink.up(); // up already after the journey above, unless it failed
    const before = sink.messages().length;
    const { page } = await openAdmin(s, DESKTOP, "/admin/leads");
    const form = page.getByTestId("email-settings");
    const address = form.getByLabel("Адрес для уведомлений");
    await assert.doesNotReject(
      eventually("the saved address", async () => (await address.inputValue()) !== ""),
    );
    await form.getByRole("button", { name: "Отправить тестовое письмо" }).click();
    const result = form.getByTestId("test-email-result");
    await result.getByText("Тестовое письмо отправлено").waitFor();
    const mail = await eventually("the test mail", () => sink.messages()[before]);
    assert.deepEqual(mail.rcpt_tos, ["sales@salon.example"]);
    assert.equal(sink.messages().length, before + 1);

    // No address saved: the server's refusal is the address field's error.
    await address.fill("");
    await form.getByRole("button", { name: "Сохранить настройки" }).click();
    await page.getByTestId("toast").filter({ hasText: "Настройки сохранены" }).waitFor();
    await form.getByRole("button", { name: "Отправить тестовое письмо" }).click();
    const error = form.locator(".field-error");
    await error.waitFor();
    assert.equal(await error.innerText(), "Укажите адрес для уведомлений");
    assert.equal(await address.getAttribute("aria-invalid"), "true");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("type")), "email");
    assert.equal(sink.messages().length, before + 1);
    await session.put("/api/settings", { notificationEmail: "sales@salon.example" });
    assert.deepEqual(scriptErrors(page), []);
    await page.context().close();
  });

  it("shows the setup steps where amoCRM is not configured", async (t) => {
    const shared = process.env.E2E_BASE;
    if (!shared) return t.skip("needs the run's shared server (run.mjs)");
    const { page } = await openAdmin({ ...s, base: shared }, DESKTOP, "/admin/amocrm");
    await page.getByTestId("amocrm-state").filter({ hasText: "Не настроена" }).waitFor();
    const steps = await page.getByTestId("amocrm-setup").innerText();
    for (const key of ["domain", "client_id", "client_secret", "redirect_uri"]) {
      assert.ok(steps.includes(key), key);
    }
    assert.match(steps, /DEALERSHIP_AMOCRM_CLIENT_SECRET/);
    assert.match(steps, new RegExp(`${shared}/admin/amocrm`));
    assert.equal(await page.getByRole("button", { name: "Авторизовать" }).count(), 0);
    assert.deepEqual(scriptErrors(page), []);
    await page.context().close();
  });
});
