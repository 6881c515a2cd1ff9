// Helpers of the admin browser tests: log in as the demo user, toasts,
// pictures to upload, an expired session, horizontal overflow.
import assert from "node:assert/strict";

export const DEMO_LOGIN = "demo";
export const DEMO_PASSWORD = "demo-password";

/** Fills the login form on the page (or in `scope`) and submits it. */
export async function logIn(page, { login = DEMO_LOGIN, password = DEMO_PASSWORD, scope } = {}) {
  const form = (scope ?? page).getByTestId("login-form");
  await form.getByLabel("Логин").fill(login);
  await form.getByLabel("Пароль").fill(password);
  await form.getByRole("button", { name: "Войти" }).click();
}

/** A page at `path` of the admin panel, logged in: the screen's h1 shown. */
export async function openAdmin(s, viewport, path, heading) {
  const page = await s.open(viewport, path);
  await page.getByTestId("login-form").waitFor();
  await logIn(page);
  if (heading) await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  return page;
}

/** Waits for the one toast with `title` and `description`, then closes it. */
export async function expectToast(page, title, description) {
  const t = page.getByTestId("toast").filter({ hasText: description ?? title });
  await t.waitFor();
  const text = await t.innerText();
  assert.ok(text.includes(title), `toast "${text}" lacks "${title}"`);
  if (description) assert.ok(text.includes(description), `toast "${text}" lacks "${description}"`);
  assert.equal(await page.getByTestId("toast").count(), 1);
  await t.getByRole("button", { name: "Закрыть уведомление" }).click();
}

/** A PNG of one colour (and a diagonal stripe), drawn by the browser. */
export async function png(page, color, name, width = 480, height = 360) {
  const base64 = await page.evaluate(
    ([c, w, h]) => {
      const canvas = document.createElement("canvas");
      canvas.width = w;
      canvas.height = h;
      const g = canvas.getContext("2d");
      g.fillStyle = c;
      g.fillRect(0, 0, w, h);
      g.strokeStyle = "#fff";
      g.lineWidth = 20;
      g.beginPath();
      g.moveTo(0, 0);
      g.lineTo(w, h);
      g.stroke();
      return canvas.toDataURL("image/png").split(",")[1];
    },
    [color, width, height],
  );
  return { name, mimeType: "image/png", buffer: Buffer.from(base64, "base64") };
}

/** Ends the page's admin session on the server, as an expiry would: the
 * next request of the page answers 401. */
export async function endSession(page, base) {
  const cookies = await page.context().cookies(base);
  const header = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const r = await fetch(`${base}/api/admin/logout`, {
    method: "POST",
    headers: { Cookie: header, Origin: base },
  });
  assert.ok(r.ok, `logout answered ${r.status}`);
  const me = await fetch(`${base}/api/admin/me`, { headers: { Cookie: header } });
  assert.equal(me.status, 401);
}

/** Whether anything makes the page wider than its window. */
export async function assertNoHorizontalScroll(page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= width, `page is ${scroll}px wide in a ${width}px window`);
}

/** Session cookie + CSRF for calls of the admin API from the test itself. */
export async function apiSession(base) {
  const r = await fetch(`${base}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ login: DEMO_LOGIN, password: DEMO_PASSWORD }),
  });
  assert.ok(r.ok, `login answered ${r.status}`);
  const cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { csrfToken } = await r.json();
  const call = async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: {
        Cookie: cookie,
        Origin: base,
        "X-CSRF-Token": csrfToken ?? "",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return { call };
}
