// The marketplaces' connections (docs/marketplaces.md, "Jobs and checks"):
// with Avito configured against a small fake of its token and account calls
// (written from developers.avito.ru's auth, user and calltracking sections:
// a form to POST /token, a Bearer token on GET /core/v1/accounts/self, no
// calls; no autoload run yet: 404), an admin
// opens «Площадки», presses «Проверить подключение» and reads Avito's
// account in the status region; then the keys are refused and the screen
// says why. Auto.ru, not configured, shows what to put in dealership.toml.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { expectNoViolations } from "./a11y.mjs";
import { openAdmin } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

/** Avito's token and account calls; `state.secret` is the secret it takes. */
async function fakeAvito() {
  const state = { secret: "avito-secret-1", tokens: 0 };
  const server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const send = (status, value) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (req.method === "POST" && req.url === "/token") {
      const form = new URLSearchParams(text);
      if (form.get("client_id") !== "client-1" || form.get("client_secret") !== state.secret) {
        return send(400, {
          error: "invalid_client",
          error_description: "Неверный client_id или client_secret",
        });
      }
      state.tokens += 1;
      return send(200, {
        access_token: `token-${state.tokens}`,
        expires_in: 86400,
        token_type: "Bearer",
      });
    }
    if (req.url === "/core/v1/accounts/self") {
      if (!req.headers.authorization?.startsWith("Bearer token-")) return send(401, {});
      return send(200, { id: 12345, name: "Автосалон на Садовой" });
    }
    if (req.method === "POST" && req.url === "/calltracking/v1/getCalls/") {
      return send(200, { calls: [], error: { code: 0, message: "" } });
    }
    send(404, { error: { code: 404, message: "Not found" } });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { state, port: server.address().port, close: () => new Promise((r) => server.close(r)) };
}

let s;
let avito;
let secrets;
before(async () => {
  avito = await fakeAvito();
  secrets = mkdtempSync(join(tmpdir(), "dealership-e2e-avito-"));
  const secretFile = join(secrets, "avito-client-secret");
  writeFileSync(secretFile, "avito-secret-1\n");
  chmodSync(secretFile, 0o600);
  s = await start({
    demo: false,
    env: {
      DEALERSHIP_AVITO_API_URL: `http://127.0.0.1:${avito.port}`,
      DEALERSHIP_AVITO_CLIENT_ID: "client-1",
      DEALERSHIP_AVITO_CLIENT_SECRET_FILE: secretFile,
    },
  });
});
after(async () => {
  await s?.stop();
  await avito?.close();
  if (secrets) rmSync(secrets, { recursive: true, force: true });
});

describe("admin marketplaces' connections", () => {
  it("checks Avito's connection and says why refused keys fail", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin");
    await page
      .getByRole("navigation", { name: "Разделы администрирования" })
      .getByRole("link", { name: "Площадки" })
      .click();
    await page.waitForURL(`${s.base}/admin/marketplaces`);
    await page.getByRole("heading", { level: 1, name: "Площадки" }).waitFor();
    const autoru = page.getByTestId("market-autoru");
    assert.match(await autoru.innerText(), /Не настроено/);
    assert.match(await page.getByTestId("market-autoru-config").innerText(), /\[autoru\]/);

    const market = page.getByTestId("market-avito");
    // The jobs ran at start: the report (none yet) and the calls are listed.
    await market.getByText(/Звонки/).waitFor();
    await market.getByRole("button", { name: "Проверить подключение" }).click();
    const status = page.getByTestId("market-avito-result");
    await status.getByText("Подключено: аккаунт 12345 (Автосалон на Садовой)").waitFor();
    assert.equal(await status.getAttribute("role"), "status");
    // The run is listed with its message once the list is read again.
    await market.getByText(/Проверка подключения/).waitFor();
    await market.getByText(/— Подключено: аккаунт 12345/).waitFor();

    // The keys are refused: Avito's words, recorded as the last check.
    avito.state.secret = "changed-in-avito";
    await market.getByRole("button", { name: "Проверить подключение" }).click();
    await status.getByText(/площадка не приняла ключи \(400\): .*Неверный client_id/).waitFor();
    await market.getByText(/— ошибка: площадка не приняла ключи/).waitFor();
    await expectNoViolations(page);
    assert.deepEqual(page.errors, []);
  });
});
