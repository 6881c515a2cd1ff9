// Several salons in the admin panel (issue 46): the owner adds a salon with
// its address and hours on «Салоны», moves a car into it from the car's
// form (the toast, the car's salon, kept after a reload); with several
// salons the team's form offers its salons and a lead names its salon.
// Everything a test makes is removed.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations, settled } from "./a11y.mjs";
import {
  apiSession,
  cleanup,
  loginViaForm,
  mark,
  openAdmin,
  scrollsSideways,
  toastText,
} from "./admin-helpers.mjs";
import { DESKTOP, PHONE, start } from "./harness.mjs";

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

const SALON = "Салон на Выборгской";

/** A salon made through the API, removed after the tests. */
async function addSalon(name) {
  const salon = await session.post("/api/admin/salons", { name, address: "Лиговский пр., 50" });
  trash.track(`/api/admin/salons/${salon.id}`);
  return salon;
}

describe("salons", () => {
  it("the owner adds a salon, then moves a car into it", async () => {
    const page = await s.open(DESKTOP);
    await loginViaForm(page, s.base, "/admin/salons");
    await page.getByRole("heading", { level: 1, name: "Салоны" }).waitFor();
    const rows = page.getByTestId("salon-row");
    await rows.first().waitFor();
    const before = await rows.count();
    // The main salon is first and cannot be deleted.
    assert.match(await rows.first().getByTestId("salon-name").innerText(), /основной/);
    assert.equal(
      await rows
        .first()
        .getByRole("button", { name: /^Удалить/ })
        .isDisabled(),
      true,
    );
    await expectNoViolations(page, "the salons screen");

    await page.getByRole("button", { name: "Добавить салон" }).click();
    const dialog = page.getByTestId("salon-dialog");
    await dialog.getByLabel(/^Название/).fill(SALON);
    await dialog.getByLabel("Адрес", { exact: true }).fill("Выборгское ш., 15");
    await dialog.getByLabel("Полный адрес").fill("194292, Санкт-Петербург, Выборгское ш., 15");
    await dialog.getByLabel("Широта").fill("60,05");
    await dialog.getByLabel("Долгота").fill("30.33");
    await dialog.getByLabel("Телефон", { exact: true }).fill("+7 812 555-15-15");
    // The hours: Monday from 10, Sunday off.
    await dialog.getByLabel("Понедельник: открытие").fill("10:00");
    await dialog.getByTestId("schedule-day-6").getByLabel("Выходной").check();
    await dialog.getByLabel("Трейд-ин: e-mail").fill("не адрес");
    await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
    // A wrong recipient is told at its input, and nothing is saved.
    await dialog.getByText("Неверный формат email").waitFor();
    await dialog.getByLabel("Трейд-ин: e-mail").fill("tradein@example.ru");
    await expectNoViolations(page, "the salon form");
    await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
    await toastText(page, `Салон «${SALON}» добавлен`);
    await dialog.waitFor({ state: "detached" });

    const salon = (await session.get("/api/admin/salons")).find((x) => x.name === SALON);
    assert.ok(salon, "the salon is saved");
    trash.track(`/api/admin/salons/${salon.id}`);
    assert.equal(salon.latitude, 60.05);
    assert.deepEqual(salon.leadRecipients, {
      trade_in: { email: "tradein@example.ru", telegramChatId: "" },
    });
    const row = rows.filter({ hasText: SALON });
    await row.waitFor();
    assert.equal(await rows.count(), before + 1);
    assert.equal(await row.getByTestId("salon-address").innerText(), "Выборгское ш., 15");
    const hours = await row.getByTestId("salon-hours").innerText();
    assert.match(hours, /Пн: 10:00–21:00/);
    assert.match(hours, /Вс: выходной/);
    assert.equal(await row.getByTestId("salon-cars").innerText(), "0");

    // A car of the main salon, moved from its form.
    const car = (await session.get("/api/admin/cars?page=1&perPage=1")).items[0];
    assert.ok(car, "the demo has cars");
    const from = car.salonId ?? 1;
    trash.undo(() => session.put(`/api/admin/cars/${car.id}/salon`, { salonId: from }));
    await page.goto(`${s.base}/admin/cars`);
    const card = page.locator(`[data-testid="car-card"][data-slug="${car.slug}"]`);
    await card.getByRole("button", { name: /^Изменить/ }).click();
    const carDialog = page.getByTestId("car-dialog");
    const select = carDialog.getByLabel("Салон", { exact: true });
    await select.waitFor();
    assert.equal(await select.inputValue(), String(from));
    const move = carDialog.getByRole("button", { name: "Перевести" });
    assert.equal(await move.isDisabled(), true, "nothing to move to yet");
    await select.selectOption({ label: SALON });
    await move.click();
    await toastText(page, `Автомобиль переведён в салон «${SALON}»`);
    await carDialog
      .getByTestId("car-salon")
      .filter({ hasText: `«${SALON}»` })
      .waitFor();
    assert.equal((await session.get(`/api/admin/cars/${car.id}`)).salonId, salon.id);

    // Kept after a reload: the card and the form name the new salon.
    await page.reload();
    await card.getByTestId("car-salon-name").filter({ hasText: SALON }).waitFor();
    await card.getByRole("button", { name: /^Изменить/ }).click();
    await carDialog
      .getByTestId("car-salon")
      .filter({ hasText: `«${SALON}»` })
      .waitFor();
    assert.equal(
      await carDialog.getByLabel("Салон", { exact: true }).inputValue(),
      String(salon.id),
    );
    // The dashboard's figures of that salon alone: its one car.
    await page.goto(`${s.base}/admin`);
    const summary = page.getByTestId("summary");
    await summary.waitFor();
    const figures = await session.get(`/api/admin/dashboard?salon=${salon.id}`);
    assert.equal(figures.carsPublished + figures.carsDrafts, 1);
    await page.getByTestId("dashboard-salon").selectOption({ label: SALON });
    await summary
      .getByText(`Опубликовано: ${figures.carsPublished}, черновиков: ${figures.carsDrafts}`, {
        exact: true,
      })
      .waitFor();
    // The panel asks who is signed in before the login: that 401 is expected.
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("401")),
      [],
    );
    await page.context().close();
  });

  it("with several salons the team's form offers them and a lead names its salon", async () => {
    const other = await addSalon(`Салон ${mark()}`);
    const login = mark("anna");
    const { page } = await openAdmin(s, DESKTOP, "/admin/users");
    await page.getByRole("button", { name: "Добавить пользователя" }).click();
    const dialog = page.getByTestId("user-dialog");
    const boxes = dialog.getByRole("group", { name: "Салоны" });
    await boxes.getByLabel(other.name).waitFor();
    await expectNoViolations(page, "the team's form with salons");
    await dialog.getByLabel("Имя").fill("Анна Салонова");
    await dialog.getByLabel(/^Логин/).fill(login);
    await dialog.getByLabel(/^Роль/).selectOption("manager");
    await boxes.getByLabel(other.name).check();
    await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
    await dialog.getByRole("button", { name: "Готово" }).click();
    const made = (await session.get("/api/admin/users")).find((u) => u.username === login);
    trash.track(`/api/admin/users/${made.id}`);
    assert.deepEqual(made.salonIds, [other.id]);
    const row = page.locator(`[data-testid="user-row"][data-username="${login}"]`);
    assert.equal(await row.getByTestId("user-salons-note").innerText(), `Салоны: ${other.name}`);

    // A visitor's lead for that salon.
    const name = `Заявка ${mark()}`;
    const r = await fetch(`${s.base}/api/leads`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        type: "auto_selection",
        name,
        phone: "+7 921 555-12-34",
        consent: true,
        salonId: other.id,
      }),
    });
    assert.equal(r.status, 201, await r.clone().text());
    trash.track(`/api/leads/${(await r.json()).id}`);
    await page.goto(`${s.base}/admin/leads`);
    const lead = page.getByTestId("lead-row").filter({ hasText: name });
    await lead
      .getByTestId("lead-salon")
      .filter({ hasText: `Салон: ${other.name}` })
      .waitFor();
    await lead.getByRole("button", { name: /^Подробнее/ }).click();
    await page.getByTestId("lead-details-salon").filter({ hasText: other.name }).waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("the salons screen reads at phone width without sideways scrolling", async () => {
    const { page } = await openAdmin(s, PHONE, "/admin/salons");
    await page.getByTestId("salon-row").first().waitFor();
    await settled(page);
    assert.equal(await scrollsSideways(page), false);
    await expectNoViolations(page, "the salons screen at phone width");
    await page.context().close();
  });
});
