// The admin cars and brands screens against the real server: a car with
// photos created (reordered by drag, buttons and keyboard), seen on the
// public site, edited and deleted; the form's messages; the trim levels'
// limit; the bulk price change both ways; a brand with cars cannot be
// deleted; the cars screen on a 360 px phone.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { apiSession, assertNoHorizontalScroll, expectToast, openAdmin, png } from "./admin.mjs";
import { DESKTOP, start } from "./harness.mjs";

const PHONE_360 = { width: 360, height: 740 };

let s;
before(async () => {
  s = await start();
});
after(() => s?.stop());

const thumbUrls = (dialog) =>
  dialog.getByTestId("thumb").evaluateAll((els) => els.map((e) => e.dataset.url));

/** Drags one element onto another with the mouse, in small steps. */
async function drag(page, from, to) {
  // The photos sit below the fold of a long form: bring them into view.
  await to.scrollIntoViewIfNeeded();
  await from.scrollIntoViewIfNeeded();
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.move(b.x + b.width / 2 - 2, b.y + b.height / 2, { steps: 2 });
  await page.mouse.up();
}

async function fillCar(dialog, { name, model, price }) {
  await dialog.getByLabel("Марка").selectOption({ index: 1 });
  await dialog.getByLabel("Название").fill(name);
  await dialog.getByLabel("Модель").fill(model);
  await dialog.getByLabel("Год").click();
  await dialog.getByLabel("Год").fill("2024");
  await dialog.getByLabel("Состояние").selectOption("used");
  await dialog.getByLabel("Пробег, км").fill("15 000");
  await dialog.getByLabel("Цена, ₽").fill(price);
  await dialog.getByLabel("Тип кузова").selectOption("crossover");
  await dialog.getByLabel("Коробка передач").selectOption("automatic");
  await dialog.getByLabel("Привод").selectOption("all");
  await dialog.getByLabel("Топливо").selectOption("gasoline");
  await dialog.getByLabel("Двигатель").fill("2.0 л, 150 л.с.");
}

describe("admin cars", () => {
  it("creates a car with reordered photos, shows it on the site, edits and deletes it", async () => {
    const page = await openAdmin(s, DESKTOP, "/admin/cars", "Автомобили");
    await page.getByTestId("car-card").first().waitFor();
    await page.getByRole("button", { name: "Добавить автомобиль" }).click();
    const dialog = page.getByTestId("car-dialog");
    await dialog.getByTestId("car-form").waitFor();
    await fillCar(dialog, { name: "Е2Е Тестовый", model: "Кросс", price: "3 210 000" });
    assert.equal(await dialog.getByLabel(/^Slug/).inputValue(), "e2e-testovyy-kross");
    // The car's own complectation, generation and doors; the drive left unstated.
    await dialog.getByLabel("Привод").selectOption("");
    await dialog.getByLabel("Комплектация", { exact: true }).fill("Executive");
    await dialog.getByLabel("Поколение").fill("III");
    await dialog.getByLabel("Число дверей").fill("5");

    const files = [
      await png(page, "#c0392b", "red.png"),
      await png(page, "#27ae60", "green.png"),
      await png(page, "#2980b9", "blue.png"),
    ];
    await dialog.locator('input[type="file"][multiple]').setInputFiles(files);
    await dialog.getByTestId("thumb").nth(2).waitFor();
    await dialog.getByTestId("upload-progress").first().waitFor({ state: "detached" });
    const [red, green, blue] = await thumbUrls(dialog);
    assert.ok(red && green && blue && new Set([red, green, blue]).size === 3);

    // Drag the third photo onto the first: it becomes the main one.
    const handles = dialog.locator(".thumb-handle");
    await drag(page, handles.nth(2), handles.nth(0));
    await page.waitForTimeout(300);
    assert.deepEqual(await thumbUrls(dialog), [blue, red, green]);
    // The arrow buttons.
    await dialog.getByRole("button", { name: "Фото 2: сдвинуть вправо" }).click();
    assert.deepEqual(await thumbUrls(dialog), [blue, green, red]);
    // The keyboard: Space picks up, an arrow moves, Space drops.
    await handles.nth(2).focus();
    await page.keyboard.press("Space");
    await page.waitForTimeout(150);
    await page.keyboard.press("ArrowLeft");
    await page.waitForTimeout(300);
    await page.keyboard.press("Space");
    await page.waitForTimeout(300);
    assert.deepEqual(await thumbUrls(dialog), [blue, red, green]);
    assert.equal(
      await dialog.getByTestId("thumb").first().locator(".thumb-main").innerText(),
      "Главное",
    );

    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await expectToast(page, "Успешно", "Автомобиль добавлен");
    await dialog.waitFor({ state: "hidden" });

    const saved = await s.api("/api/cars/slug/e2e-testovyy-kross");
    assert.equal(saved.price, "3210000.00");
    assert.equal(saved.mileage, 15000);
    assert.equal(saved.status, "used");
    assert.equal(saved.drivetrain ?? null, null);
    assert.deepEqual([saved.trim, saved.generation, saved.doors], ["Executive", "III", 5]);
    const expected = [blue, red, green].map((u) =>
      u
        .split("/")
        .pop()
        .replace(/-\d+\.webp$/, ""),
    );
    const got = saved.images.map((u) =>
      u
        .split("/")
        .pop()
        .replace(/-\d+\.webp$/, ""),
    );
    assert.deepEqual(got, expected);

    const site = await s.open(DESKTOP, "/car/e2e-testovyy-kross");
    await site.getByRole("heading", { level: 1, name: /Е2Е Тестовый/ }).waitFor();
    assert.ok((await site.locator("main").innerText()).replace(/\s/g, " ").includes("3 210 000"));
    const specs = (await site.locator(".spec-sections").innerText()).replace(/\s+/g, " ");
    assert.match(specs, /Поколение III/);
    assert.match(specs, /Комплектация Executive/);
    assert.match(specs, /Двери 5/);
    assert.doesNotMatch(specs, /Привод/, "an unstated drive is not shown");

    // Edit: found by the server-side search; the saved slug is read-only.
    await page.getByTestId("car-search").fill("е2е тестовый");
    await page.getByTestId("found").filter({ hasText: "Найдено: 1" }).waitFor();
    await page.getByRole("button", { name: /^Изменить .*Е2Е Тестовый/ }).click();
    await dialog.getByTestId("car-form").waitFor();
    assert.equal(await dialog.getByLabel(/^Slug/).getAttribute("readonly"), "");
    assert.deepEqual(
      (await thumbUrls(dialog)).map((u) =>
        u
          .split("/")
          .pop()
          .replace(/-\d+\.webp$/, ""),
      ),
      expected,
    );
    await dialog.getByLabel("Цена, ₽").fill("3 333 000");
    await dialog.getByLabel("Название").fill("Е2Е Изменённый");
    await dialog.getByLabel("Название").blur();
    assert.equal(await dialog.getByLabel(/^Slug/).inputValue(), "e2e-testovyy-kross");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await expectToast(page, "Успешно", "Автомобиль обновлен");
    assert.equal((await s.api("/api/cars/slug/e2e-testovyy-kross")).price, "3333000.00");
    await site.reload();
    await site.getByRole("heading", { level: 1, name: /Е2Е Изменённый/ }).waitFor();
    assert.ok((await site.locator("main").innerText()).replace(/\s/g, " ").includes("3 333 000"));

    // Delete, after a confirmation.
    await page.getByTestId("car-search").fill("е2е изменённый");
    await page.getByTestId("found").filter({ hasText: "Найдено: 1" }).waitFor();
    await page.getByRole("button", { name: /^Удалить .*Е2Е Изменённый/ }).click();
    const confirm = page.getByTestId("confirm-dialog");
    await confirm.getByRole("button", { name: "Отмена" }).click();
    await page.getByRole("button", { name: /^Удалить .*Е2Е Изменённый/ }).click();
    await confirm.getByRole("button", { name: "Удалить" }).click();
    await expectToast(page, "Успешно", "Автомобиль удален");
    await page.getByTestId("empty").filter({ hasText: "Автомобили не найдены" }).waitFor();
    const gone = await fetch(`${s.base}/api/cars/slug/e2e-testovyy-kross`);
    assert.equal(gone.status, 404);
    // (The 401 is the first visit's session check, before logging in.)
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("401")),
      [],
    );
    await site.context().close();
    await page.context().close();
  });

  it("says what is wrong with the car form, next to each field", async () => {
    const page = await openAdmin(s, DESKTOP, "/admin/cars", "Автомобили");
    await page.getByRole("button", { name: "Добавить автомобиль" }).click();
    const dialog = page.getByTestId("car-dialog");
    await dialog.getByTestId("car-form").waitFor();
    // Mileage only for a used car; the daily price only for a lease.
    assert.equal(await dialog.getByLabel("Пробег, км").count(), 0);
    await dialog.getByLabel("Состояние").selectOption("used");
    await dialog.getByLabel("Пробег, км").waitFor();
    await dialog.getByLabel("Состояние").selectOption("lease");
    await dialog.getByLabel("Цена за сутки, ₽").waitFor();
    assert.equal(await dialog.getByLabel("Пробег, км").count(), 0);

    await dialog.getByRole("button", { name: "Сохранить" }).click();
    for (const message of [
      "Выберите марку",
      "Название обязательно",
      "Модель обязательна",
      "Slug обязателен",
      "Цена обязательна",
      "Выберите тип кузова",
      "Выберите коробку передач",
      "Выберите тип топлива",
      "Укажите двигатель",
    ]) {
      await dialog.locator(".field-error").getByText(message, { exact: true }).waitFor();
    }
    // The drive may be left unstated; doors are 2 to 5.
    const drive = dialog.getByLabel("Привод");
    assert.equal(await drive.inputValue(), "");
    assert.equal(await drive.locator("option:checked").innerText(), "Не указан");
    assert.equal(await drive.getAttribute("aria-invalid"), null);
    await dialog.getByLabel("Число дверей").fill("7");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog
      .locator(".field-error")
      .getByText("Число дверей — от 2 до 5", { exact: true })
      .waitFor();
    // Emptied, the doors are valid again and their message goes (the form
    // checks a field again on each change after a save). On a busy machine
    // the change can be lost while the form settles: empty it until the
    // message is gone, so a later save is not held by it.
    const doors = dialog.getByLabel("Число дверей");
    const doorsError = dialog
      .locator(".field-error")
      .getByText("Число дверей — от 2 до 5", { exact: true });
    for (let i = 0; i < 10 && (await doorsError.count()) > 0; i++) {
      await doors.fill("");
      await page.waitForTimeout(200);
    }
    assert.equal(await doorsError.count(), 0, "emptied doors are valid");
    const price = dialog.getByLabel("Цена, ₽");
    assert.equal(await price.getAttribute("aria-invalid"), "true");
    const describedBy = await price.getAttribute("aria-describedby");
    assert.equal(
      await dialog.locator(`[id="${describedBy.split(" ")[0]}"]`).innerText(),
      "Цена обязательна",
    );

    const year = dialog.getByLabel("Год");
    await year.fill("1989");
    await dialog.getByText("Год не может быть раньше 1990").waitFor();
    await year.fill(String(new Date().getFullYear() + 2));
    await dialog.getByText(`Год не может быть позже ${new Date().getFullYear() + 1}`).waitFor();
    await dialog.getByLabel("Цена, ₽").fill("12abc");
    await dialog.getByText("Введите сумму числом", { exact: false }).waitFor();

    // The server's refusal is shown next to its field: a slug in use.
    const taken = (await s.api("/api/cars/fast?limit=1"))[0].slug;
    await fillCar(dialog, { name: "Е2Е Дубль", model: "Слаг", price: "1 000 000" });
    // The slug follows the name until it is typed: on a busy machine the
    // name's slug can land after the typed one, so type it until it holds.
    const slug = dialog.getByLabel(/^Slug/);
    for (let i = 0; i < 20 && (await slug.inputValue()) !== taken; i++) {
      await slug.fill(taken);
      await page.waitForTimeout(100);
    }
    assert.equal(await slug.inputValue(), taken);
    // On a busy machine a click can land while the form still settles the
    // last typed value: click again when nothing was sent, and when the form
    // itself refuses, say which fields it refuses.
    let refused = null;
    for (let i = 0; i < 3 && !refused; i++) {
      const answer = page
        .waitForResponse(
          (r) => new URL(r.url()).pathname === "/api/cars" && r.request().method() === "POST",
          { timeout: 8000 },
        )
        .catch(() => null);
      await dialog.getByRole("button", { name: "Сохранить" }).click();
      refused = await answer;
    }
    const shown = await dialog.locator(".field-error").allInnerTexts();
    assert.ok(refused, `the form sent nothing; its messages: ${JSON.stringify(shown)}`);
    // What was sent and answered, should the refusal ever not come.
    assert.equal(
      refused.status(),
      409,
      `${refused.request().postData()} -> ${await refused.text()}`,
    );
    await dialog.locator(".field-error").getByText("Такой slug уже используется").waitFor();
    assert.equal(await dialog.getByLabel(/^Slug/).getAttribute("aria-invalid"), "true");
    await dialog.getByLabel("Цена, ₽").fill("12abc");

    // Escape asks before dropping what was typed.
    await page.keyboard.press("Escape");
    const ask = page.getByRole("alertdialog", { name: "Закрыть без сохранения?" });
    await ask.waitFor();
    await ask.getByRole("button", { name: "Продолжить редактирование" }).click();
    await ask.waitFor({ state: "hidden" });
    assert.equal(await dialog.getByLabel("Цена, ₽").inputValue(), "12abc");
    await page.waitForTimeout(300);
    await page.keyboard.press("Escape");
    await ask.getByRole("button", { name: "Закрыть", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });

    // The bulk price card refuses a bad percentage.
    const bulk = page.getByTestId("bulk-card");
    await bulk.getByLabel("Процент").fill("abc");
    await bulk.getByRole("button", { name: "Повысить" }).click();
    await bulk.getByText("Введите корректный процент").waitFor();
    await page.context().close();
  });

  it("holds at most 20 trim levels, and asks to shorten a car stored with more", async () => {
    const page = await openAdmin(s, DESKTOP, "/admin/cars", "Автомобили");
    await page.getByRole("button", { name: "Добавить автомобиль" }).click();
    const dialog = page.getByTestId("car-dialog");
    await dialog.getByTestId("car-form").waitFor();
    const add = dialog.getByRole("button", { name: "Добавить комплектацию" });
    // Each row named before the next is added: an empty name's message,
    // shown when the focus leaves it, moves the button under the pointer.
    for (let i = 0; i < 20; i++) {
      await add.click();
      await dialog.getByLabel(`Комплектация ${i + 1}: название`).fill(`Уровень ${i + 1}`);
    }
    assert.equal(await dialog.getByTestId("trim").count(), 20);
    assert.equal(await add.isDisabled(), true, "no 21st trim level");
    assert.equal(await dialog.getByTestId("trims-full").innerText(), "Не больше 20 комплектаций");
    // One removed: another may be added again.
    await dialog.getByRole("button", { name: "Удалить комплектацию 20" }).click();
    await dialog.getByTestId("trims-full").waitFor({ state: "detached" });
    assert.equal(await add.isDisabled(), false);
    await page.keyboard.press("Escape");
    await page
      .getByRole("alertdialog", { name: "Закрыть без сохранения?" })
      .getByRole("button", { name: "Закрыть", exact: true })
      .click();
    await dialog.waitFor({ state: "hidden" });

    // A car stored with 25 (before the limit, or written behind the API):
    // the newest, first in the admin list.
    const [car] = s.query("SELECT id FROM cars ORDER BY created_at DESC, rowid DESC LIMIT 1");
    const trims = Array.from({ length: 25 }, (_, i) => ({
      name: `Уровень ${i + 1}`,
      description: "",
      link: "",
    }));
    s.write("UPDATE cars SET trim_levels = ? WHERE id = ?", [JSON.stringify(trims), car.id]);
    await page.reload();
    await page
      .getByTestId("car-card")
      .first()
      .getByRole("button", { name: /^Изменить/ })
      .click();
    await dialog.getByTestId("car-form").waitFor();
    const over = dialog.getByTestId("trims-over");
    assert.match(await over.innerText(), /У автомобиля 25 комплектаций, а можно не больше 20/);
    assert.equal(await add.isDisabled(), true);
    await over.getByRole("button", { name: "Оставить первые 20" }).click();
    await over.waitFor({ state: "detached" });
    assert.equal(await dialog.getByTestId("trim").count(), 20);
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await expectToast(page, "Успешно", "Автомобиль обновлен");
    const [stored] = s.query(
      "SELECT json_array_length(trim_levels) AS n, json_extract(trim_levels, '$[19].name') AS last " +
        "FROM cars WHERE id = ?",
      [car.id],
    );
    assert.deepEqual([stored.n, stored.last], [20, "Уровень 20"]);
    await page.context().close();
  });

  it("changes the prices of the filtered cars after a confirmation, and undoes it", async () => {
    const admin = await apiSession(s.base);
    // Every car, page by page (the demo has more than one page of 100).
    const all = async () => {
      const cars = [];
      for (let n = 1; ; n++) {
        const { items } = (await admin.call("GET", `/api/admin/cars?perPage=100&page=${n}`)).body;
        if (items.length === 0) break;
        cars.push(...items.map((c) => [c.id, c.status, Number(c.price)]));
      }
      return cars.sort((a, b) => a[0].localeCompare(b[0]));
    };
    const before = await all();
    const used = before.filter(([, status]) => status === "used").length;
    assert.ok(used > 0 && used < before.length);
    const page = await openAdmin(s, DESKTOP, "/admin/cars", "Автомобили");
    const bulk = page.getByTestId("bulk-card");
    // The summary is drawn once the counts arrive ("…" until then).
    const newCount = page.getByTestId("stat-new").filter({ hasText: /^\d+$/ });
    await newCount.waitFor();
    assert.ok(Number(await newCount.innerText()) > 0);
    await bulk.getByTestId("bulk-scope").filter({ hasText: "Для всех автомобилей" }).waitFor();

    // 0 % is not a change.
    await bulk.getByLabel("Процент").fill("0");
    await bulk.getByRole("button", { name: "Повысить" }).click();
    await bulk.locator(".field-error").getByText("Введите корректный процент").waitFor();

    // With a filter on, only the cars it finds, said before it runs.
    await page.getByLabel("Состояние").selectOption("used");
    await bulk
      .getByTestId("bulk-scope")
      .filter({ hasText: `Для найденных в списке: с пробегом (${used} ` })
      .waitFor();
    await bulk.getByLabel("Процент").fill("25");
    await bulk.getByRole("button", { name: "Повысить" }).click();
    const ask = page.getByRole("alertdialog", { name: "Повысить цены на 25%?" });
    await ask.waitFor();
    // The refusal of the 0 % is gone: not under the field, not in a toast.
    assert.equal(await page.getByText("Введите корректный процент").count(), 0);
    assert.match(
      await ask.innerText(),
      new RegExp(`Изменятся цены ${used} автомобил\\S+, которые найдены в списке: с пробегом\\.`),
    );
    // Cancelling changes nothing.
    await ask.getByRole("button", { name: "Отмена" }).click();
    await ask.waitFor({ state: "hidden" });
    assert.deepEqual(await all(), before);
    await bulk.getByRole("button", { name: "Повысить" }).click();
    await ask.getByRole("button", { name: "Повысить цены" }).click();
    await expectToast(page, "Успешно", `Обновлено ${used} `);
    const raised = new Map((await all()).map(([id, , price]) => [id, price]));
    for (const [id, status, price] of before) {
      assert.equal(raised.get(id), status === "used" ? price * 1.25 : price, `${id} ${status}`);
    }

    // One click puts the earlier prices back.
    const last = bulk.getByTestId("bulk-last");
    await last.filter({ hasText: "Массовое изменение цен на +25%" }).waitFor();
    assert.match(await last.innerText(), /с пробегом/);
    await last.getByRole("button", { name: "Отменить изменение" }).click();
    await expectToast(page, "Успешно", `Цены возвращены: ${used} `);
    assert.deepEqual(await all(), before);
    await last.waitFor({ state: "detached" });
    await page.context().close();
  });
});

describe("admin brands", () => {
  it("keeps delete disabled while a brand has cars, deletes an empty one", async () => {
    const page = await openAdmin(s, DESKTOP, "/admin/brands", "Марки");
    const withCars = page
      .getByTestId("brand-card")
      .filter({ has: page.getByTestId("brand-cars").filter({ hasNotText: /^0 / }) })
      .first();
    await withCars.waitFor();
    assert.equal(await withCars.getByRole("button", { name: /^Удалить марку/ }).isDisabled(), true);

    // The server refuses it too.
    const slug = await withCars.getAttribute("data-slug");
    const brand = (await s.api("/api/brands")).find((b) => b.slug === slug);
    const admin = await apiSession(s.base);
    const refused = await admin.call("DELETE", `/api/brands/${brand.id}`);
    assert.equal(refused.status, 409);

    await page.getByRole("button", { name: "Добавить марку" }).click();
    const dialog = page.getByTestId("brand-dialog");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.getByText("Название обязательно").waitFor();
    await dialog.getByText("Slug обязателен").waitFor();
    await dialog.getByLabel("Название").fill("Е2Е Марка");
    await dialog.getByLabel("Описание").click();
    assert.equal(await dialog.getByLabel(/^Slug/).inputValue(), "e2e-marka");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await expectToast(page, "Успешно", "Марка добавлена");

    // The dashboard: summary cards and the change in the audit trail.
    await page
      .getByRole("navigation", { name: "Разделы администрирования" })
      .getByRole("link", { name: "Панель" })
      .click();
    await page.getByRole("heading", { level: 1, name: "Панель администратора" }).waitFor();
    const summary = await page.getByTestId("summary").innerText();
    assert.match(summary, /Опубликовано: \d+, черновиков: \d+/);
    assert.match(summary, /Новых: \d+, в работе: \d+/);
    // The system card: the site is well, with the free disk space.
    const system = await page.getByTestId("system-card").innerText();
    assert.match(system, /^Состояние системы\s+В порядке\s+Свободно на диске: [\d\s\u00a0]+ МБ/);
    await page.getByTestId("audit").getByText("Добавлена марка: Е2Е Марка").first().waitFor();
    assert.match(await page.getByTestId("audit").innerText(), /demo/);
    await page.getByTestId("sections").getByRole("link", { name: "Марки" }).click();
    await page.getByRole("heading", { level: 1, name: "Марки" }).waitFor();
    await page.getByLabel("Поиск марок по названию или описанию").fill("е2е");
    const mine = page.getByTestId("brand-card").filter({ hasText: "Е2Е Марка" });
    assert.equal(await mine.getByTestId("brand-cars").innerText(), "0 автомобилей");
    await mine.getByRole("button", { name: "Удалить марку Е2Е Марка" }).click();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Удалить" }).click();
    await expectToast(page, "Успешно", "Марка удалена");
    await page.getByTestId("empty").filter({ hasText: "Марки не найдены" }).waitFor();
    await page.context().close();
  });
});

describe("admin on a phone", () => {
  it("the cars screen and the car form fit 360 px with no horizontal scroll", async () => {
    const page = await openAdmin(s, PHONE_360, "/admin/cars", "Автомобили");
    await page.getByTestId("car-card").first().waitFor();
    await assertNoHorizontalScroll(page);
    await page.getByRole("button", { name: "Добавить автомобиль" }).click();
    const dialog = page.getByTestId("car-dialog");
    await dialog.getByTestId("car-form").waitFor();
    await dialog.getByLabel("Состояние").selectOption("used");
    await dialog.getByRole("button", { name: "Добавить комплектацию" }).click();
    const overflow = await dialog.evaluate((d) => {
      const a = d.querySelector("article");
      return {
        scroll: a.scrollWidth,
        client: a.clientWidth,
        right: a.getBoundingClientRect().right,
      };
    });
    assert.ok(overflow.scroll <= overflow.client, JSON.stringify(overflow));
    assert.ok(overflow.right <= 360, JSON.stringify(overflow));
    await assertNoHorizontalScroll(page);
    await page.context().close();
  });
});
