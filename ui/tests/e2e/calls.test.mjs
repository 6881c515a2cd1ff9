// Calls are leads (issue 45, docs/calls.md) against a small fake of Mango
// Office's VPBX API (written from Mango's API description: every request a
// form POST of vpbx_api_key, sign = sha256(key + json + salt) in hex, and
// json; `commands/callback` answers {"result": 1000} when taken):
// - a visitor presses «Перезвоните мне» on the home page while the salon is
//   open: the lead is stored, the PBX is asked to ring the manager's
//   extension and then the visitor, and the visitor reads that the salon
//   calls now; the lead says the PBX connected them;
// - out of hours nothing rings and the visitor reads when the salon calls;
// - a missed call posted by Mango (a signed summary event) becomes a
//   «Пропущенный звонок» lead given to the manager on shift, who sees it in
//   their list with its call-back deadline.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { expectNoViolations } from "./a11y.mjs";
import { apiSession, createStaff, keepSettings, loginViaForm, mark } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

const KEY = "mango-key-0123456789";
const SALT = "mango-salt-0123456789";
const HOOK = "hook-secret-0123456789abcdef";
const WEEKDAYS = 7;
const ALL_DAY = {
  days: Array.from({ length: WEEKDAYS }, () => ({ open: "00:00", close: "23:59" })),
};

const sign = (json) =>
  createHash("sha256")
    .update(KEY + json + SALT)
    .digest("hex");

/** Mango's `commands/callback`: checks the key and the signature, keeps the command. */
async function fakeMango() {
  const state = { commands: [], refused: 0 };
  const server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const form = new URLSearchParams(text);
    const json = form.get("json") ?? "";
    const send = (status, value) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (form.get("vpbx_api_key") !== KEY || form.get("sign") !== sign(json)) {
      state.refused += 1;
      return send(401, { result: 3102 });
    }
    if (req.url?.endsWith("/commands/callback")) {
      state.commands.push(JSON.parse(json));
      return send(200, { result: 1000 });
    }
    if (req.url?.endsWith("/config/users/request")) return send(200, { users: [] });
    send(404, { result: 4001 });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { state, port: server.address().port, close: () => new Promise((r) => server.close(r)) };
}

/** Waits until `check` holds, for at most 10 s. */
async function until(check, what) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`waited for ${what}`);
}

/** The Moscow weekday of now, Monday 0. */
const moscowDay = () => (new Date(Date.now() + 3 * 3600 * 1000).getUTCDay() + 6) % 7;

let s;
let mango;
let secrets;
let owner;
let settings;
let manager;
let managerId;

before(async () => {
  mango = await fakeMango();
  secrets = mkdtempSync(join(tmpdir(), "dealership-e2e-mango-"));
  const file = (name, value) => {
    const path = join(secrets, name);
    writeFileSync(path, `${value}\n`);
    chmodSync(path, 0o600);
    return path;
  };
  s = await start({
    demo: false,
    env: {
      DEALERSHIP_MANGO_API_URL: `http://127.0.0.1:${mango.port}`,
      DEALERSHIP_MANGO_API_KEY_FILE: file("key", KEY),
      DEALERSHIP_MANGO_API_SALT_FILE: file("salt", SALT),
      DEALERSHIP_MANGO_HOOK_SECRET_FILE: file("hook", HOOK),
      DEALERSHIP_MANGO_DEFAULT_EXTENSION: "101",
    },
  });
  owner = await apiSession(s.base);
  settings = await keepSettings(owner, ["workSchedule", "leadAssignment"]);
  manager = createStaff(s.data, mark("calls"), "manager");
  const users = await owner.get("/api/admin/users");
  managerId = users.find((u) => u.username === manager.login).id;
  await owner.put("/api/settings", { workSchedule: ALL_DAY, leadAssignment: "round_robin" });
});

after(async () => {
  await settings?.restore();
  manager?.remove();
  await s?.stop();
  await mango?.close();
  if (secrets) rmSync(secrets, { recursive: true, force: true });
});

/** Asks for a callback from the home page; gives the toast's text. */
async function askCallback(phone) {
  const page = await s.open(DESKTOP, "/");
  await page.getByRole("button", { name: "Перезвоните мне" }).click();
  const dialog = page.getByRole("dialog", { name: "Перезвоните мне" });
  await dialog.locator('input[name="name"]').fill("Анна Звонкова");
  await dialog.locator('input[name="phone"]').fill(phone);
  await dialog.locator('input[name="consent"]').check();
  await dialog.getByRole("button", { name: "Жду звонка" }).click();
  const toast = page.getByTestId("toast").filter({ hasText: "Заявка принята" });
  await toast.waitFor();
  return { page, text: await toast.innerText() };
}

const leadOf = (phone) =>
  s.query("SELECT * FROM leads WHERE phone = ? ORDER BY created_at DESC LIMIT 1", [phone])[0];

describe("calls as leads", () => {
  it("rings the manager, then the visitor, when the salon is open", async () => {
    const { page, text } = await askCallback("+7 (921) 555-01-01");
    assert.match(text, /Сейчас мы вам перезвоним/);
    await until(() => mango.state.commands.length === 1, "the PBX's callback command");
    const command = mango.state.commands[0];
    assert.equal(command.from.extension, "101");
    assert.match(String(command.to_number), /79215550101$/);
    await until(() => leadOf("+79215550101")?.callback_state === "rung", "the lead's outcome");
    const lead = leadOf("+79215550101");
    assert.equal(lead.type, "callback");
    assert.equal(lead.assignee_id, managerId);
    await expectNoViolations(page);
    assert.deepEqual(page.errors, []);
  });

  it("says when the salon calls back, and rings nothing, out of hours", async () => {
    const days = Array.from({ length: WEEKDAYS }, () => null);
    days[(moscowDay() + 1) % WEEKDAYS] = { open: "09:00", close: "18:00" };
    await owner.put("/api/settings", { workSchedule: { days } });
    try {
      const before = mango.state.commands.length;
      const { text } = await askCallback("+7 (921) 555-01-02");
      assert.match(text, /Салон сейчас закрыт\. Мы перезвоним вам завтра в 09:00/);
      const lead = leadOf("+79215550102");
      assert.equal(lead.callback_state, "out_of_hours");
      assert.equal(mango.state.commands.length, before);
    } finally {
      await owner.put("/api/settings", { workSchedule: ALL_DAY });
    }
  });

  it("makes a missed call a lead in the manager's list", async () => {
    const now = Math.floor(Date.now() / 1000);
    const json = JSON.stringify({
      entry_id: `e2e-${now}`,
      call_direction: 1,
      from: { number: "79215550103" },
      to: { extension: "101", number: "sip:sales@salon.mangosip.ru" },
      line_number: "78121234567",
      create_time: now - 40,
      forward_time: now - 38,
      talk_time: 0,
      end_time: now - 10,
      entry_result: 0,
      disconnect_reason: 1110,
    });
    const body = new URLSearchParams({ vpbx_api_key: KEY, sign: sign(json), json });
    const post = () =>
      fetch(`${s.base}/hooks/calls/mango/${HOOK}/events/summary`, { method: "POST", body });
    const first = await post();
    assert.equal(first.status, 200, await first.clone().text());
    // Mango sends an event again when unsure: one lead all the same.
    assert.equal((await post()).status, 200);
    const leads = s.query("SELECT * FROM leads WHERE phone = '+79215550103'");
    assert.equal(leads.length, 1);
    assert.equal(leads[0].type, "missed_call");
    assert.equal(leads[0].assignee_id, managerId);
    assert.match(leads[0].message, /перезвонить до/);

    const page = await s.open(DESKTOP, "/admin");
    await loginViaForm(page, s.base, "/admin/leads", {
      login: manager.login,
      password: manager.password,
    });
    // Before the login the panel's probe of the session was answered 401.
    page.errors.splice(0);
    const row = page.getByTestId("lead-row").filter({ hasText: "Пропущенный звонок" });
    await row.first().waitFor();
    assert.equal(await row.count(), 1);
    await expectNoViolations(page);
    assert.deepEqual(page.errors, []);
  });
});
