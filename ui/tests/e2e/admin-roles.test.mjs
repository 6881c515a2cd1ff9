// Staff roles in the admin panel (issue 25, docs/admin.md "Roles"): a sales
// manager and a content editor, made on the server's command line, log in
// through the form; each sees only the sections and buttons of the role, a
// typed address of another section is refused in words, and a forged call
// from the manager's own page is refused by the server.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations } from "./a11y.mjs";
import { createStaff, loginViaForm, mark } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

let s;
let manager;
let editor;
before(async () => {
  s = await start();
  manager = createStaff(s.data, mark("manager"), "manager");
  editor = createStaff(s.data, mark("editor"), "editor");
});
after(async () => {
  manager?.remove();
  editor?.remove();
  await s?.stop();
});

const NOT_ALLOWED = "Недостаточно прав: вашей роли этот раздел недоступен";

async function sections(page) {
  const nav = page.getByRole("navigation", { name: "Разделы администрирования" });
  await nav.waitFor();
  return (await nav.getByRole("link").allInnerTexts()).map((t) => t.trim());
}

describe("staff roles", () => {
  it("a manager sees leads and a read-only catalogue, and is refused the rest", async () => {
    const page = await s.open(DESKTOP);
    await loginViaForm(page, s.base, "/admin", manager);
    await page.getByRole("heading", { level: 1 }).waitFor();
    assert.match(await page.getByTestId("admin-user").innerText(), /Менеджер по продажам/);
    const links = await sections(page);
    for (const wanted of ["Заявки", "Автомобили"])
      assert.ok(
        links.some((l) => l.startsWith(wanted)),
        `${wanted} in ${links}`,
      );
    for (const hidden of ["Настройки", "Парсер", "Баннеры", "amoCRM", "Подписки на подборки"]) {
      assert.ok(!links.some((l) => l.startsWith(hidden)), `${hidden} is not in ${links}`);
    }

    await page.goto(`${s.base}/admin/cars`);
    await page.getByRole("heading", { level: 1, name: "Автомобили" }).waitFor();
    const cards = page.getByTestId("car-card");
    await cards.first().waitFor();
    assert.equal(await page.getByRole("button", { name: "Добавить автомобиль" }).count(), 0);
    assert.equal(
      await cards
        .first()
        .getByRole("button", { name: /^(Удалить|Изменить) / })
        .count(),
      0,
    );

    await page.goto(`${s.base}/admin/settings`);
    await page.getByTestId("not-allowed").waitFor();
    assert.ok((await page.getByTestId("not-allowed").innerText()).includes(NOT_ALLOWED));
    await expectNoViolations(page, "the refusal of a section");

    // A forged write from the manager's own page: refused, nothing changed.
    const [car] = await s.api("/api/cars/fast?limit=1");
    const status = await page.evaluate(async (id) => {
      const me = await (await fetch("/api/admin/me")).json();
      const r = await fetch(`/api/cars/${id}`, {
        method: "DELETE",
        headers: { "X-CSRF-Token": me.csrfToken },
      });
      return r.status;
    }, car.id);
    assert.equal(status, 403);
    assert.equal((await s.api(`/api/cars/fast?limit=1`))[0].id, car.id);
    await page.close();
  });

  it("an editor edits the catalogue and banners but sees no leads", async () => {
    const page = await s.open(DESKTOP);
    await loginViaForm(page, s.base, "/admin", editor);
    await page.getByRole("heading", { level: 1 }).waitFor();
    assert.match(await page.getByTestId("admin-user").innerText(), /Контент-менеджер/);
    const links = await sections(page);
    for (const wanted of ["Автомобили", "Баннеры", "Парсер"])
      assert.ok(
        links.some((l) => l.startsWith(wanted)),
        `${wanted} in ${links}`,
      );
    for (const hidden of ["Заявки", "Настройки", "amoCRM"]) {
      assert.ok(!links.some((l) => l.startsWith(hidden)), `${hidden} is not in ${links}`);
    }
    await page.goto(`${s.base}/admin/cars`);
    await page.getByRole("button", { name: "Добавить автомобиль" }).waitFor();

    await page.goto(`${s.base}/admin/leads`);
    await page.getByTestId("not-allowed").waitFor();
    assert.equal(await page.getByTestId("lead-row").count(), 0);
    await page.close();
  });
});
