// Helpers of the admin browser tests: log in through the form or with a
// session cookie, make objects through the API with the session and its CSRF
// token, and clean up what a test made (the test files share one server with
// demo data, so each one leaves it as it found it).
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { deflateSync } from "node:zlib";

/** The demo user made by `serve --demo` (docs/admin.md). */
export const ADMIN = { login: "demo", password: "demo-password" };
export const SESSION_COOKIE = "dealership_session";

/** An API session of its own: a cookie and the CSRF token, as the admin
 * panel has them. Every write fails the test on an error status unless
 * `{ ok: false }` is passed; `raw` gives the response. */
export async function apiSession(base, { login, password } = ADMIN) {
  const r = await fetch(`${base}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ login, password }),
  });
  if (!r.ok) throw new Error(`login: ${r.status} ${await r.text()}`);
  const { csrfToken } = await r.json();
  const setCookie = r.headers.get("set-cookie") ?? "";
  const token = setCookie.match(new RegExp(`${SESSION_COOKIE}=([^;]+)`))?.[1];
  if (!token) throw new Error("login answered without a session cookie");
  const headers = {
    Cookie: `${SESSION_COOKIE}=${token}`,
    "X-CSRF-Token": csrfToken,
    Accept: "application/json",
  };

  async function call(method, path, body, { ok = true } = {}) {
    const res = await fetch(base + path, {
      method,
      headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const data = text ? JSON.parse(text) : undefined;
    if (ok && !res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return ok ? data : { status: res.status, data };
  }

  /** Uploads a picture (a Buffer) as the panel does; answers {url, ...}. */
  async function upload(buffer, { name = "picture.png", type = "image/png", kind } = {}) {
    const form = new FormData();
    form.append("file", new Blob([buffer], { type }), name);
    const q = kind ? `?kind=${kind}` : "";
    const res = await fetch(`${base}/api/objects/upload${q}`, {
      method: "POST",
      headers,
      body: form,
    });
    if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
    return res.json();
  }

  return {
    token,
    csrfToken,
    get: (path) => call("GET", path),
    post: (path, body, o) => call("POST", path, body, o),
    put: (path, body, o) => call("PUT", path, body, o),
    del: (path, o) => call("DELETE", path, undefined, o),
    upload,
    logout: () => call("POST", "/api/admin/logout", undefined, { ok: false }),
  };
}

/** Puts a session of `session` into the page's browser context: the page is
 * logged in without the form. */
export async function useSession(page, base, session) {
  await page.context().addCookies([{ name: SESSION_COOKIE, value: session.token, url: base }]);
}

/** Logs in through the admin login form at `path` (by default /admin) and
 * waits for the form to go. */
export async function loginViaForm(page, base, path = "/admin", { login, password } = ADMIN) {
  await page.goto(base + path);
  await page.getByLabel("Логин").fill(login);
  // Anchored: the users screen that may follow has buttons named
  // "Сбросить пароль пользователя …", which a substring match would count.
  await page.getByLabel(/^Пароль/).fill(password);
  await page.getByRole("button", { name: "Войти" }).click();
  await page.getByLabel(/^Пароль/).waitFor({ state: "detached" });
}

/** A staff user made on the server's command line, as a dealer would
 * (`dealership user create NAME --role ROLE`); `remove()` deletes it. */
export function createStaff(data, login, role, password = "staff-password") {
  const bin = resolve(process.env.DEALERSHIP_BIN ?? "../target/release/dealership");
  execFileSync(bin, ["--data", data, "user", "create", login, "--role", role, "--password-stdin"], {
    input: `${password}\n`,
    stdio: ["pipe", "ignore", "inherit"],
  });
  return {
    login,
    password,
    remove: () => execFileSync(bin, ["--data", data, "user", "delete", login], { stdio: "ignore" }),
  };
}

/** A page of the admin panel opened with a fresh session. */
export async function openAdmin(s, viewport, path) {
  const session = await apiSession(s.base);
  const page = await s.open(viewport);
  await useSession(page, s.base, session);
  await page.goto(s.base + path);
  return { page, session };
}

/** Things to delete after a test: `track(path)` remembers an API path
 * (`/api/reviews/{id}`), `undo(fn)` any other step; `run()` does them last
 * first, ignoring what is already gone. */
export function cleanup(session) {
  const steps = [];
  return {
    track(path) {
      steps.push(() => session.del(path, { ok: false }));
      return path;
    },
    undo(fn) {
      steps.push(fn);
    },
    async run() {
      while (steps.length) {
        const step = steps.pop();
        try {
          await step();
        } catch (e) {
          console.error("cleanup:", e.message);
        }
      }
    },
  };
}

/** The current settings and a function that puts them back (only the given
 * fields, or every field the admin forms send). */
export async function keepSettings(session, fields) {
  const saved = await session.get("/api/admin/settings");
  const keys =
    fields ??
    Object.keys(saved).filter((k) => !["consentVersion", "updatedAt"].includes(k) && k !== "id");
  return {
    saved,
    async restore() {
      const patch = Object.fromEntries(keys.map((k) => [k, saved[k]]));
      await session.put("/api/settings", patch);
    },
  };
}

/** A unique mark for the names of what a test makes. */
export function mark(prefix = "e2e") {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e4)}`;
}

// ---- pictures ----------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

const randomColour = () => Array.from({ length: 3 }, () => Math.floor(Math.random() * 256));

/** A PNG of one colour ([r, g, b], by default a random one: a new picture
 * each time), for uploads. */
export function png(width = 64, height = 48, [r, g, b] = randomColour()) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A file for `setInputFiles`. */
export function pngFile(name = "picture.png", ...args) {
  return { name, mimeType: "image/png", buffer: png(...args) };
}

// ---- checks ------------------------------------------------------------------

/** Whether the page scrolls sideways (a layout wider than the window). */
export async function scrollsSideways(page) {
  return page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
  );
}

/** The one toast: waits for it to have `text`, answers its whole text. */
export async function toastText(page, text) {
  const t = page.getByTestId("toast");
  await t.filter({ hasText: text }).waitFor();
  return t.innerText();
}

/** Visits a public page in a new context (no admin cookie) and answers it. */
export async function publicPage(s, viewport, path) {
  return s.open(viewport, path);
}
