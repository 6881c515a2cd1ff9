// The admin login gate: both fields required, a wrong password, the lost
// connection, the lockout, logging out, and a session that expires in the
// middle of an edit (the login comes over the form, which keeps its values).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { endSession, expectToast, logIn, openAdmin } from "./admin.mjs";
import { DESKTOP, start } from "./harness.mjs";

let s;
before(async () => {
  s = await start();
});
after(() => s?.stop());

describe("login gate", () => {
  it("requires both fields, refuses a wrong password, logs in to the same screen and out", async () => {
    const page = await s.open(DESKTOP, "/admin/brands");
    const form = page.getByTestId("login-form");
    await form.waitFor();
    assert.equal(
      await page.getByRole("heading", { level: 1 }).innerText(),
      "Вход в панель администратора",
    );
    await form.getByRole("button", { name: "Войти" }).click();
    await form.getByText("Введите логин").waitFor();
    await form.getByText("Введите пароль").waitFor();
    assert.equal(await form.getByLabel("Логин").getAttribute("aria-invalid"), "true");

    await logIn(page, { password: "not-the-password" });
    await page
      .getByTestId("login-error")
      .filter({ hasText: "Неверный логин или пароль" })
      .waitFor();

    await logIn(page);
    await page.getByRole("heading", { level: 1, name: "Марки" }).waitFor();
    assert.equal(new URL(page.url()).pathname, "/admin/brands");
    // The session is the cookie: nothing is kept in the browser's storage.
    const stored = await page.evaluate(() => localStorage.length + sessionStorage.length);
    assert.equal(stored, 0);

    await page.getByRole("button", { name: "Выйти" }).click();
    await page.getByTestId("login-form").waitFor();
    await page.reload();
    await page.getByTestId("login-form").waitFor();
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("401")),
      [],
    );
    await page.context().close();
  });

  it("says when the server cannot be reached", async () => {
    const page = await s.open(DESKTOP, "/admin");
    await page.getByTestId("login-form").waitFor();
    await page.route("**/api/admin/login", (route) => route.abort("connectionrefused"));
    await logIn(page);
    await page
      .getByTestId("login-error")
      .filter({ hasText: "Не удалось подключиться к серверу" })
      .waitFor();
    await page.context().close();
  });

  it("shows the server's lockout message after repeated failures", async () => {
    const page = await s.open(DESKTOP, "/admin");
    await page.getByTestId("login-form").waitFor();
    // A login of its own: the demo user stays usable for the other tests.
    const attempt = async (password) => {
      const answer = page.waitForResponse((r) => r.url().endsWith("/api/admin/login"));
      await logIn(page, { login: "e2e-lockout", password });
      return (await answer).status();
    };
    for (let i = 0; i < 5; i += 1) assert.equal(await attempt(`wrong-${i}`), 401);
    assert.equal(await attempt("wrong-again"), 429);
    await page.getByTestId("login-error").filter({ hasText: "Слишком много" }).waitFor();
    await page.context().close();
  });
});

describe("a session that expires in the middle of an edit", () => {
  it("brings the login over the form, which keeps what was typed, and saves after login", async () => {
    const page = await openAdmin(s, DESKTOP, "/admin/brands", "Марки");
    await page.getByRole("button", { name: "Добавить марку" }).click();
    const dialog = page.getByTestId("brand-dialog");
    await dialog.getByLabel("Название").fill("E2E Сессия");
    await dialog.getByLabel("Описание").fill("Марка теста истёкшей сессии");
    await dialog.getByLabel("Описание").click();
    assert.equal(await dialog.getByLabel(/^Slug/).inputValue(), "e2e-sessiya");

    await endSession(page, s.base);
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    const login = page.getByTestId("login-dialog");
    await login.getByTestId("session-expired").waitFor();
    await logIn(page, { scope: login });
    await login.waitFor({ state: "hidden" });

    // Still the same screen and the same form, with its values.
    assert.equal(new URL(page.url()).pathname, "/admin/brands");
    assert.equal(await dialog.getByLabel("Название").inputValue(), "E2E Сессия");
    assert.equal(await dialog.getByLabel("Описание").inputValue(), "Марка теста истёкшей сессии");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await expectToast(page, "Успешно", "Марка добавлена");
    // A brand without a published car is not public (GET /api/brands): read the store.
    const saved = s.query("SELECT name FROM brands WHERE slug = ?", ["e2e-sessiya"]);
    assert.equal(saved[0]?.name, "E2E Сессия", "the brand was saved");

    // Clean up through the screen.
    await page.getByRole("button", { name: "Удалить марку E2E Сессия" }).click();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Удалить" }).click();
    await expectToast(page, "Успешно", "Марка удалена");
    await page.context().close();
  });
});
