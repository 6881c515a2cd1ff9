// The team in the browser (issue 25, docs/admin.md "The team"): the owner
// adds a sales manager with an invitation link and an editor with a one-time
// password; each sets their password and logs in as a stranger's browser
// would; the owner blocks one and cannot lock themselves out.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations } from "./a11y.mjs";
import { ADMIN, apiSession, loginViaForm, mark } from "./admin-helpers.mjs";
import { DESKTOP, PHONE, start } from "./harness.mjs";

let s;
let owner;
const made = [];
before(async () => {
  s = await start();
  owner = await apiSession(s.base);
});
after(async () => {
  for (const login of made) {
    const users = await owner.get("/api/admin/users");
    const user = users.find((u) => u.username === login);
    if (user) await owner.del(`/api/admin/users/${user.id}`, { ok: false });
  }
  await s?.stop();
});

/** The users screen of the demo owner. */
async function usersScreen(viewport = DESKTOP) {
  const page = await s.open(viewport);
  await loginViaForm(page, s.base, "/admin/users", ADMIN);
  await page.getByRole("heading", { level: 1, name: /^Пользователи/ }).waitFor();
  return page;
}

function row(page, login) {
  return page.locator(`[data-testid="user-row"][data-username="${login}"]`);
}

describe("the team", () => {
  it("an owner invites a manager, who sets a password by the link and logs in", async () => {
    const login = mark("olga");
    made.push(login);
    const page = await usersScreen();
    await expectNoViolations(page, "the users screen");
    await page.getByRole("button", { name: "Добавить пользователя" }).click();
    const dialog = page.getByTestId("user-dialog");
    await dialog.getByLabel("Имя").fill("Ольга Смирнова");
    await dialog.getByLabel("Логин").fill(login);
    await dialog.getByRole("combobox", { name: /^Роль/ }).selectOption("manager");
    await dialog.getByRole("button", { name: "Добавить" }).click();
    const url = await page.getByTestId("invitation-url").inputValue();
    assert.match(url, /\/admin\/invitation\/[\w-]{20,}$/);
    const result = await page.getByTestId("invitation-result").innerText();
    assert.ok(result.includes("24 часов"));
    // Worded for anyone: the account is created, nobody is "он".
    assert.ok(
      result.includes(
        `Учётная запись «Ольга Смирнова» (${login}) создана. Войти можно, задав пароль по ссылке.`,
      ),
      result,
    );
    await expectNoViolations(page, "the invitation link");
    await dialog.getByRole("button", { name: "Готово" }).click();
    assert.match(await row(page, login).getByTestId("user-state").innerText(), /^приглашение до/);
    assert.equal(
      await row(page, login).getByTestId("user-role").innerText(),
      "Менеджер по продажам",
    );

    // The manager, on a phone of their own, opens the link.
    const phone = await s.open(PHONE);
    await phone.goto(url);
    await phone.getByTestId("invitation-greeting").waitFor();
    assert.ok(
      (await phone.getByTestId("invitation-greeting").innerText()).includes("Ольга Смирнова"),
    );
    await expectNoViolations(phone, "the invitation page");
    await phone.getByLabel("Новый пароль").fill("olga-secret-1");
    await phone.getByLabel("Повторите пароль").fill("olga-secret-1");
    await phone.getByRole("button", { name: "Задать пароль" }).click();
    await phone.getByTestId("invitation-done").waitFor();
    // Once only.
    await phone.goto(url);
    await phone.getByTestId("invitation-error").waitFor();

    await loginViaForm(phone, s.base, "/admin", { login, password: "olga-secret-1" });
    // On a phone the account is behind «Меню».
    await phone.getByRole("button", { name: "Меню" }).click();
    await phone.getByTestId("admin-role").waitFor();
    assert.equal(await phone.getByTestId("admin-role").innerText(), "Менеджер по продажам");
    await phone.goto(`${s.base}/admin/users`);
    await phone.getByTestId("not-allowed").waitFor();
    await phone.close();
    await page.reload();
    await row(page, login).waitFor();
    assert.equal(await row(page, login).getByTestId("user-state").innerText(), "доступ открыт");
    await page.close();
  });

  it("a one-time password must be changed first; a blocked user cannot log in", async () => {
    const login = mark("olga");
    made.push(login);
    const page = await usersScreen();
    await page.getByRole("button", { name: "Добавить пользователя" }).click();
    const dialog = page.getByTestId("user-dialog");
    await dialog.getByLabel("Логин").fill(login);
    await dialog.getByRole("combobox", { name: /^Роль/ }).selectOption("editor");
    await dialog.getByLabel("Задать временный пароль").check();
    await dialog.getByLabel(/^Временный пароль/).fill("temporary-1");
    await dialog.getByRole("button", { name: "Добавить" }).click();
    await row(page, login).waitFor();
    assert.equal(await row(page, login).getByTestId("user-state").innerText(), "временный пароль");

    const other = await s.open(DESKTOP);
    await other.goto(`${s.base}/admin`);
    const form = other.getByTestId("login-form");
    await form.getByLabel("Логин").fill(login);
    await form.getByLabel("Пароль").fill("temporary-1");
    await form.getByRole("button", { name: "Войти" }).click();
    const forced = other.getByTestId("forced-password-change");
    await forced.waitFor();
    await expectNoViolations(other, "the forced password change");
    await forced.getByLabel("Текущий пароль").fill("temporary-1");
    await forced.getByLabel("Новый пароль").fill("olga-own-pass");
    await forced.getByLabel("Повторите пароль").fill("olga-own-pass");
    await forced.getByRole("button", { name: "Сменить пароль" }).click();
    await other.getByTestId("admin-role").waitFor();
    assert.equal(await other.getByTestId("admin-role").innerText(), "Контент-менеджер");

    // Blocked by the owner: the open session ends and the login is refused.
    await row(page, login)
      .getByRole("button", { name: /^Заблокировать/ })
      .click();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Заблокировать" }).click();
    await page
      .locator(`[data-testid="user-row"][data-username="${login}"][data-state="blocked"]`)
      .waitFor();
    const gone = await other.evaluate(async () => (await fetch("/api/admin/me")).status);
    assert.equal(gone, 401);
    const refused = await fetch(`${s.base}/api/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ login, password: "olga-own-pass" }),
    });
    assert.equal(refused.status, 403);
    assert.match((await refused.json()).error, /заблокирована/);
    await other.close();

    // The demo owner is the last active owner: blocking themselves is refused.
    await row(page, ADMIN.login)
      .getByRole("button", { name: /^Заблокировать/ })
      .click();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Заблокировать" }).click();
    await page
      .getByTestId("toast")
      .filter({ hasText: "последнего действующего владельца" })
      .waitFor();
    assert.equal(await row(page, ADMIN.login).getAttribute("data-state"), "active");
    await page.close();
  });
});
