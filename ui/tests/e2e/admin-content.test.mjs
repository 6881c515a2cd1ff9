// The admin content screens: reviews, promotions, partner banks, page
// banners, settings, the auto-selection banner and body types. Each change is
// looked for on the public site, each form's validation messages are
// checked, and everything a test makes or changes is put back.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  apiSession,
  cleanup,
  keepSettings,
  mark,
  openAdmin,
  pngFile,
  scrollsSideways,
  toastText,
  useSession,
} from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

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

const plain = (t) => t.replace(/[\u00a0\u202f]/g, " ");

/** A control's label, with or without the required mark (' *', read as
 * '(обязательное поле)'). */
const req = (label) =>
  new RegExp(
    `^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s*\\*)?(\\s*\\(обязательное поле\\))?$`,
  );

/** Chooses a picture in the single-image widget labelled `label` and waits
 * for its preview; answers the uploaded URL. */
async function choosePicture(scope, label, file = pngFile()) {
  const preview = scope.getByAltText(`${label}: текущее изображение`);
  const before = (await preview.count()) > 0 ? await preview.getAttribute("src") : null;
  await scope.getByLabel(req(label)).setInputFiles(file);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if ((await preview.count()) > 0) {
      const src = await preview.getAttribute("src");
      if (src !== before) return src;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no new picture in "${label}"`);
}

describe("admin reviews", () => {
  it("approves a pending review, which then shows on the home page", async () => {
    const name = `Отзыв ${mark()}`;
    const review = await session.post("/api/reviews", {
      customerName: name,
      text: "Хороший салон, быстро оформили",
      rating: 4,
      carModel: "Kia Rio",
    });
    trash.track(`/api/reviews/${review.id}`);
    const home = await s.open(DESKTOP, "/");
    await home.getByRole("heading", { name: "Отзывы клиентов" }).waitFor();
    assert.equal(await home.getByTestId("review").filter({ hasText: name }).count(), 0);

    const { page } = await openAdmin(s, DESKTOP, "/admin/reviews");
    await page.getByLabel("Поиск").fill(name);
    const card = page.getByTestId("review-card").filter({ hasText: name });
    await card.waitFor();
    assert.equal(await page.getByTestId("review-card").count(), 1);
    const text = plain(await card.innerText());
    assert.match(text, /На модерации/);
    assert.match(text, /\d{1,2} [а-я]+ \d{4} г\. в \d{2}:\d{2}/, "Russian long date with time");
    assert.equal(await card.getByRole("img", { name: "Оценка 4 из 5" }).innerText(), "★★★★☆");
    const pendingBefore = await page.getByTestId("count-pending").innerText();

    await card.getByRole("button", { name: `Одобрить отзыв: ${name}` }).click();
    assert.match(await toastText(page, "Отзыв одобрен"), /Успешно/);
    await card.getByText("Одобрен", { exact: true }).waitFor();
    assert.equal(await card.getByRole("button", { name: /^Одобрить/ }).count(), 0);
    assert.notEqual(await page.getByTestId("count-pending").innerText(), pendingBefore);

    await home.reload();
    await home.getByTestId("review").filter({ hasText: name }).waitFor();
    assert.deepEqual(page.errors, []);
  });

  it("adds, edits, filters and deletes a review; the form says what is missing", async () => {
    const name = `Клиент ${mark()}`;
    const { page } = await openAdmin(s, DESKTOP, "/admin/reviews");
    await page.getByTestId("count-all").waitFor();
    await page.getByRole("button", { name: "Добавить отзыв" }).click();
    const dialog = page.getByTestId("review-dialog");
    await dialog.getByRole("heading", { name: "Новый отзыв" }).waitFor();
    // No approval box when adding; rating 5 by default.
    assert.equal(await dialog.getByLabel(/Одобрен/).count(), 0);
    assert.equal(await dialog.getByLabel("5 из 5").isChecked(), true);
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.getByText("Имя клиента обязательно").waitFor();
    await dialog.getByText("Текст отзыва обязателен").waitFor();

    // Escape after typing asks first.
    await dialog.getByLabel(req("Имя клиента")).fill(name);
    await page.keyboard.press("Escape");
    const ask = page.getByTestId("confirm-dialog");
    await ask.getByText("Закрыть без сохранения?").waitFor();
    await ask.getByRole("button", { name: "Продолжить редактирование" }).click();
    assert.equal(await dialog.getByLabel(req("Имя клиента")).inputValue(), name);

    await dialog.getByLabel(req("Текст отзыва")).fill("Всё понравилось");
    await dialog.locator('label:has(input[value="3"])').click();
    assert.equal(await dialog.getByLabel("3 из 5").isChecked(), true);
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Отзыв добавлен"), /Успешно/);
    await dialog.waitFor({ state: "detached" });
    const created = (await session.get("/api/admin/reviews")).find((r) => r.customerName === name);
    assert.ok(created, "stored");
    trash.track(`/api/reviews/${created.id}`);
    assert.equal(created.rating, 3);
    assert.equal(created.approved, false);

    await page.getByLabel("Поиск").fill(name);
    const card = page.getByTestId("review-card").filter({ hasText: name });
    await card.getByRole("button", { name: `Изменить отзыв: ${name}` }).click();
    const edit = page.getByTestId("review-dialog");
    await edit.getByRole("heading", { name: "Редактировать отзыв" }).waitFor();
    await edit.getByLabel(req("Текст отзыва")).fill("Всё понравилось, спасибо");
    await edit.getByLabel(/Одобрен/).check();
    await edit.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Отзыв обновлен"), /Успешно/);
    await card.getByText("Всё понравилось, спасибо").waitFor();

    // The status filter.
    await page.getByLabel("Статус").selectOption("pending");
    await page.getByTestId("empty").filter({ hasText: "Отзывы не найдены" }).waitFor();
    await page.getByLabel("Статус").selectOption("approved");
    await card.waitFor();

    await card.getByRole("button", { name: `Удалить отзыв: ${name}` }).click();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Удалить" }).click();
    assert.match(await toastText(page, "Отзыв удален"), /Успешно/);
    await card.waitFor({ state: "detached" });
    assert.deepEqual(page.errors, []);
  });
});

describe("admin promotions", () => {
  it("adds a promotion (the form replaces the list), shows it on the home page, hides and deletes it", async () => {
    const title = `Акция ${mark()}`;
    const { page } = await openAdmin(s, DESKTOP, "/admin/promotions");
    await page.getByRole("button", { name: "Добавить акцию" }).click();
    const form = page.getByTestId("promotion-form");
    await form.waitFor();
    assert.equal(await page.getByTestId("promotion-card").count(), 0, "the form replaces the list");
    await form.getByRole("button", { name: "Сохранить" }).click();
    await form.getByText("Название акции обязательно").waitFor();
    await form.getByText("Описание акции обязательно").waitFor();

    await form.getByLabel(req("Название")).fill(title);
    await form.getByLabel(req("Описание")).fill("Скидка на все автомобили в наличии");
    await form.getByLabel("Скидка").fill("15%");
    const lastDay = form.getByLabel("Действует до");
    assert.equal(await lastDay.getAttribute("type"), "date", "a date, not free text");
    await lastDay.fill("2030-12-31");
    const image = await choosePicture(form, "Изображение");
    await form.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Акция добавлена"), /Успешно/);
    const card = page
      .getByTestId("promotion-card")
      .filter({ has: page.getByRole("heading", { name: title, exact: true }) });
    await card.waitFor();
    assert.match(await card.innerText(), /15%/);
    assert.match(await card.innerText(), /Активна/);
    assert.match(await card.innerText(), /Действует до: 31 декабря 2030 г\./);
    const created = (await session.get("/api/admin/promotions")).find((p) => p.title === title);
    trash.track(`/api/promotions/${created.id}`);
    assert.equal(created.image, image);

    const home = await s.open(DESKTOP, "/");
    const shown = home.getByTestId("promotion").filter({ hasText: title });
    await shown.waitFor();
    assert.match(await shown.innerText(), /Действует до: 31 декабря 2030 г\./);

    // One whose last day has passed leaves the site by itself.
    const yesterday = new Date(Date.now() + 3 * 3600_000 - 86_400_000).toISOString().slice(0, 10);
    const over = await session.post("/api/promotions", {
      title: `${title} прошедшая`,
      description: "Закончилась вчера",
      validUntil: yesterday,
    });
    trash.track(`/api/promotions/${over.id}`);
    await page.reload();
    const overCard = page.getByTestId("promotion-card").filter({ hasText: `${title} прошедшая` });
    await overCard.getByText("Закончилась", { exact: true }).waitFor();
    await home.reload();
    await shown.waitFor();
    assert.equal(
      await home.getByTestId("promotion").filter({ hasText: "прошедшая" }).count(),
      0,
      "an expired promotion is not on the site",
    );

    await card.getByRole("button", { name: `Изменить акцию: ${title}` }).click();
    await form.getByLabel(/Активна/).uncheck();
    await form.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Акция обновлена"), /Успешно/);
    await card.getByText("Неактивна").waitFor();
    await home.reload();
    await home.getByRole("heading", { name: "Отзывы клиентов" }).waitFor();
    assert.equal(await home.getByTestId("promotion").filter({ hasText: title }).count(), 0);

    await card.getByRole("button", { name: `Удалить акцию: ${title}` }).click();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Удалить" }).click();
    assert.match(await toastText(page, "Акция удалена"), /Успешно/);
    await card.waitFor({ state: "detached" });
    assert.deepEqual(page.errors, []);
  });
});

describe("admin partner banks", () => {
  it("adds a bank with advantage chips, shows it on /auto-credit, hides and deletes it", async () => {
    const name = `Банк ${mark()}`;
    const { page } = await openAdmin(s, DESKTOP, "/admin/partner-banks");
    await page.getByRole("button", { name: "Добавить банк" }).click();
    const dialog = page.getByTestId("bank-dialog");
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    for (const m of [
      "Название банка обязательно",
      "Логотип обязателен",
      "Требования обязательны",
      "Преимущества обязательны",
    ]) {
      await dialog.getByText(m).waitFor();
    }
    await dialog.getByLabel(req("Название")).fill(name);
    await choosePicture(dialog, "Логотип", pngFile("logo.png", 64, 64));
    await dialog.getByLabel(req("Требования")).fill("Стаж от 3 месяцев");
    await dialog.getByLabel(req("Преимущества")).fill("Ставка от 5%, без КАСКО,  решение за час");
    assert.deepEqual(await dialog.locator(".chip-static").allInnerTexts(), [
      "Ставка от 5%",
      "без КАСКО",
      "решение за час",
    ]);
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Банк добавлен"), /Успешно/);
    const card = page.getByTestId("bank-card").filter({ hasText: name });
    await card.waitFor();
    assert.deepEqual(await card.locator(".chip-static").allInnerTexts(), [
      "Ставка от 5%",
      "без КАСКО",
      "решение за час",
    ]);
    const created = (await session.get("/api/admin/partner-banks")).find((b) => b.name === name);
    trash.track(`/api/partner-banks/${created.id}`);

    const site = await s.open(DESKTOP, "/auto-credit");
    await site.getByTestId("bank").filter({ hasText: name }).waitFor();

    await card.getByRole("button", { name: `Скрыть банк: ${name}` }).click();
    await toastText(page, "Банк скрыт с сайта");
    await card.getByRole("button", { name: `Показать банк: ${name}` }).waitFor();
    await site.reload();
    await site.getByRole("heading", { name: "Банки-партнёры" }).waitFor();
    await site.waitForLoadState("networkidle");
    assert.equal(await site.getByTestId("bank").filter({ hasText: name }).count(), 0);

    await card.getByRole("button", { name: `Удалить банк: ${name}` }).click();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Удалить" }).click();
    assert.match(await toastText(page, "Банк удалён"), /Успешно/);
    await card.waitFor({ state: "detached" });
    assert.deepEqual(page.errors, []);
  });
});

describe("admin page banners", () => {
  it("uploads, saves all, shows on the page; removes; cancel asks first", async () => {
    const kept = await keepSettings(session, ["tradeInBanner", "tradeInBannerMobile"]);
    trash.undo(kept.restore);
    const { page } = await openAdmin(s, DESKTOP, "/admin/page-banners");
    for (const key of ["home", "newCars", "usedCars", "tradeIn", "autoCredit", "autoSelection"]) {
      await page.getByTestId(`banner-${key}`).waitFor();
    }
    const save = page.getByRole("button", { name: "Сохранить все" });
    assert.equal(await save.isDisabled(), true, "nothing to save yet");
    const section = page.getByTestId("banner-tradeIn");
    const url = await choosePicture(
      section,
      "Трейд-ин: баннер для компьютера",
      pngFile("wide.png", 320, 160),
    );

    // Cancel with a change asks first.
    await page.getByRole("link", { name: "Отмена" }).click();
    const ask = page.getByTestId("confirm-dialog");
    await ask.getByText("Уйти без сохранения?").waitFor();
    await ask.getByRole("button", { name: "Остаться" }).click();

    await save.click();
    assert.match(await toastText(page, "Баннеры обновлены"), /Успешно/);
    assert.equal((await session.get("/api/admin/settings")).tradeInBanner, url);
    const site = await s.open(DESKTOP, "/trade-in");
    assert.equal(await site.getByTestId("banner").locator("img").getAttribute("src"), url);

    await section
      .getByRole("button", { name: "Удалить изображение: Трейд-ин: баннер для компьютера" })
      .click();
    const saved = page.waitForResponse(
      (r) => r.url().endsWith("/api/settings") && r.request().method() === "PUT",
    );
    await save.click();
    assert.equal((await saved).status(), 200);
    await toastText(page, "Баннеры обновлены");
    const after = await session.get("/api/admin/settings");
    assert.equal(after.tradeInBanner, "");
    await kept.restore();
    assert.deepEqual(page.errors, []);
  });
});

describe("admin settings", () => {
  it("checks the form, saves company and hero texts, favicon and a new consent edition", async () => {
    const kept = await keepSettings(session);
    trash.undo(kept.restore);
    const version = kept.saved.consentVersion;
    const { page } = await openAdmin(s, DESKTOP, "/admin/settings");
    const salon = page.getByLabel(req("Название салона"));
    await salon.waitFor();
    assert.equal(await salon.inputValue(), kept.saved.salonName);

    await salon.fill(" ");
    await page.getByLabel(req("Телефон")).fill("");
    await page.getByLabel(req("Адрес")).fill("");
    await page.getByLabel(req("E-mail")).fill("почта");
    await page.getByRole("button", { name: "Сохранить", exact: true }).click();
    for (const m of [
      "Название салона обязательно",
      "Телефон обязателен",
      "Адрес обязателен",
      "Неверный формат email",
    ]) {
      await page.getByText(m).waitFor();
    }

    const hero = `Лучшие автомобили ${mark()}`;
    await salon.fill(kept.saved.salonName);
    await page.getByLabel(req("Телефон")).fill("+7 (812) 555-00-77");
    await page.getByLabel(req("Адрес")).fill(kept.saved.address || "Санкт-Петербург");
    await page.getByLabel(req("E-mail")).fill("info@example.ru");
    await page.getByLabel("Заголовок", { exact: true }).fill(hero);
    const favicon = await choosePicture(
      page,
      "Иконка сайта (favicon)",
      pngFile("favicon.png", 32, 32),
    );

    // The consent text: the admin is told a new edition comes.
    const consent = page.getByLabel("Текст согласия на обработку персональных данных");
    assert.match(
      await page.getByText(`Действующая редакция № ${version}.`).innerText(),
      /новую редакцию/,
    );
    await consent.fill(`${kept.saved.consentText}\nДополнение ${hero}`);
    await page
      .getByTestId("consent-notice")
      .filter({ hasText: `редакцией № ${version + 1}` })
      .waitFor();

    await page.getByRole("button", { name: "Сохранить", exact: true }).click();
    assert.match(
      await toastText(page, "Настройки сохранены"),
      new RegExp(`редакция № ${version + 1}`),
    );
    const saved = await session.get("/api/admin/settings");
    assert.equal(saved.heroTitle, hero);
    assert.equal(saved.consentVersion, version + 1);
    assert.equal(saved.favicon, favicon);

    const home = await s.open(DESKTOP, "/");
    await home.getByRole("heading", { level: 1, name: hero }).waitFor();
    assert.equal(await home.locator('link[rel="icon"]').getAttribute("href"), favicon);
    assert.ok((await home.content()).includes("+7 (812) 555-00-77"), "the new phone on the site");
    const legal = await s.open(DESKTOP, "/consent");
    await legal.getByText(`Дополнение ${hero}`).waitFor();
    assert.match(await legal.locator("main").innerText(), new RegExp(`Редакция № ${version + 1}`));

    await kept.restore();
    assert.deepEqual(page.errors, []);
  });

  it("the auto-selection banner: required, saved, shown on the page", async () => {
    const kept = await keepSettings(session, ["autoSelectionBanner"]);
    trash.undo(kept.restore);
    await session.put("/api/settings", { autoSelectionBanner: "" });
    const { page } = await openAdmin(s, DESKTOP, "/admin/auto-selection-banner");
    await page.getByRole("button", { name: "Сохранить" }).click();
    await page.getByText("Пожалуйста, выберите изображение").waitFor();
    const src = await choosePicture(page, "Фоновое изображение", pngFile("bg.png", 320, 160));
    await page.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "Баннер обновлен"), /Успешно/);
    assert.equal((await session.get("/api/admin/settings")).autoSelectionBanner, src);
    const site = await s.open(DESKTOP, "/auto-selection");
    assert.equal(await site.getByTestId("banner").locator("img").getAttribute("src"), src);
    await kept.restore();
    assert.deepEqual(page.errors, []);
  });
});

describe("admin body types", () => {
  it("renames a body type and sets its banner; the catalogue page shows both", async () => {
    const original = await s.api("/api/body-types/wagon");
    trash.undo(() =>
      session.put("/api/body-types/wagon", {
        labelPlural: original.labelPlural,
        labelSingle: original.labelSingle,
        imageUrl: original.imageUrl,
        imageUrlMobile: original.imageUrlMobile,
      }),
    );
    const { page } = await openAdmin(s, DESKTOP, "/admin/body-types");
    const card = page.getByTestId("body-type-wagon");
    const plural = card.getByLabel(req("Название во множественном числе"));
    await plural.waitFor();
    assert.equal(await plural.inputValue(), original.labelPlural);
    await plural.fill("");
    await card.getByRole("button", { name: "Сохранить" }).click();
    await card.getByText("Название обязательно").waitFor();

    const label = `Универсалы ${mark()}`;
    await plural.fill(label);
    const url = await choosePicture(
      card,
      `${original.labelPlural}: баннер для компьютера`,
      pngFile("wagon.png", 320, 160),
    );
    await card.getByRole("button", { name: "Сохранить" }).click();
    assert.match(await toastText(page, "сохранён"), /Успешно/);
    const site = await s.open(DESKTOP, "/body-type/wagon");
    await site.getByRole("heading", { level: 1, name: label }).waitFor();
    assert.equal(await site.getByTestId("banner").locator("img").getAttribute("src"), url);
    assert.deepEqual(page.errors, []);
  });
});

describe("admin body types of the dealership's own", () => {
  it("adds a type with its errors at their fields, shows it on the site, deletes it", async () => {
    const code = mark("e2e").replace(/[^a-z0-9-]/g, "");
    const plural = `Минивэны ${code}`;
    const single = `Минивэн ${code}`;
    trash.track(`/api/body-types/${code}`);
    const { page } = await openAdmin(s, DESKTOP, "/admin/body-types");
    await page.getByTestId("body-type-sedan").waitFor();
    // A built-in type cannot be deleted: no button to try.
    const sedan = page.getByTestId("body-type-sedan");
    assert.equal(await sedan.getByRole("button", { name: /^Удалить тип кузова/ }).count(), 0);
    assert.match(await sedan.innerText(), /Встроенный тип: удалить нельзя/);

    await page.getByRole("button", { name: "Добавить тип кузова" }).click();
    const dialog = page.getByTestId("body-type-dialog");
    await dialog.getByRole("heading", { name: "Добавить тип кузова" }).waitFor();
    const codeInput = dialog.getByLabel(req("Код"));
    assert.match(
      await dialog.getByText(/станет адресом \/body-type\/код/).innerText(),
      /например minivan/,
    );
    // Empty: each field says what is wrong, focus on the first.
    await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
    await dialog
      .getByText("Код — латинские буквы, цифры и дефис, до 50 символов", { exact: true })
      .waitFor();
    assert.equal(await dialog.getByText("Название обязательно", { exact: true }).count(), 2);
    assert.equal(await codeInput.evaluate((el) => el === document.activeElement), true);
    assert.equal(await codeInput.getAttribute("aria-invalid"), "true");
    // A code the list has.
    await codeInput.fill("sedan");
    await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
    await dialog.getByText("Такой тип кузова уже есть", { exact: true }).waitFor();
    // Not latin.
    await codeInput.fill("минивэн");
    await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
    await dialog
      .getByText("Код — латинские буквы, цифры и дефис, до 50 символов", { exact: true })
      .waitFor();
    // Taken meanwhile (through the API): the server's refusal at the field.
    const taken = mark("e2e").replace(/[^a-z0-9-]/g, "");
    trash.track(`/api/body-types/${taken}`);
    await session.post("/api/body-types", {
      bodyType: taken,
      labelPlural: "Занятые",
      labelSingle: "Занятый",
    });
    await codeInput.fill(taken);
    await dialog.getByLabel(req("Название во множественном числе")).fill(plural);
    await dialog.getByLabel(req("Название в единственном числе")).fill(single);
    await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
    await dialog.getByText("Такой тип кузова уже есть", { exact: true }).waitFor();
    assert.equal(await codeInput.evaluate((el) => el === document.activeElement), true);
    await session.del(`/api/body-types/${taken}`);

    // Typed in capitals: sent in lower case.
    await codeInput.fill(code.toUpperCase());
    await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
    assert.match(await toastText(page, "добавлен"), /Успешно/);
    await dialog.waitFor({ state: "detached" });
    const card = page.getByTestId(`body-type-${code}`);
    await card.waitFor();
    assert.match(await card.innerText(), new RegExp(`${plural}\\s*\\(${code}\\)`));
    const stored = await s.api(`/api/body-types/${code}`);
    assert.equal(stored.labelSingle, single);
    assert.equal(stored.builtIn, false);

    // On the site: its own page, the catalogue's select, the home grid.
    const typePage = await s.open(DESKTOP, `/body-type/${code}`);
    await typePage.getByRole("heading", { level: 1, name: plural }).waitFor();
    assert.deepEqual(typePage.errors, []);
    const newCars = await s.open(DESKTOP, `/new-cars?body=${code}`);
    const select = newCars.getByLabel("Тип кузова");
    await select.locator(`option[value="${code}"]`).waitFor({ state: "attached" });
    assert.equal(await select.inputValue(), code);
    assert.equal(await select.locator("option:checked").innerText(), single);
    const home = await s.open(DESKTOP, "/");
    await home.locator(`a[href="/body-type/${code}"]`).filter({ hasText: plural }).waitFor();

    // The car form lists it.
    const cars = await s.open(DESKTOP);
    await useSession(cars, s.base, session);
    await cars.goto(`${s.base}/admin/cars`);
    await cars.getByRole("button", { name: "Добавить автомобиль" }).first().click();
    const carForm = cars.getByTestId("car-form");
    await carForm.waitFor();
    assert.equal(
      await carForm.getByLabel("Тип кузова").locator(`option[value="${code}"]`).innerText(),
      single,
    );
    await cars.context().close();

    // Deleting while a car has the type: the server's refusal, the type stays.
    const [demo] = await s.api("/api/cars/fast?status=new&limit=1");
    const base = await session.get(`/api/admin/cars/${demo.id}`);
    const car = await session.post("/api/cars", {
      ...base,
      name: `Кузов ${code}`,
      slug: mark("body"),
      externalId: null,
      vin: null,
      bodyType: code,
      published: false,
    });
    const carPath = trash.track(`/api/cars/${car.id}`);
    const remove = card.getByRole("button", { name: `Удалить тип кузова ${plural}` });
    await remove.click();
    const confirm = page.getByTestId("confirm-dialog");
    await confirm.getByText(`/body-type/${code}`).waitFor();
    await confirm.getByRole("button", { name: "Удалить" }).click();
    assert.match(
      await toastText(page, "нельзя удалить"),
      /Тип кузова нельзя удалить: у него есть автомобили \(1\)/,
    );
    await confirm.getByRole("button", { name: "Отмена" }).click();
    await confirm.waitFor({ state: "hidden" });
    assert.equal(await card.count(), 1);

    // Without cars it goes, and so does its page.
    await session.del(carPath);
    await remove.click();
    await confirm.getByRole("button", { name: "Удалить" }).click();
    assert.match(await toastText(page, "удалён"), /Успешно/);
    await card.waitFor({ state: "detached" });
    const gone = await s.open(DESKTOP, `/body-type/${code}`);
    await gone.getByTestId("not-found").waitFor();
    // The console notes the refusals (409) the journey asks for; nothing else.
    assert.deepEqual(
      page.errors.filter((e) => !/status of 409/.test(e)),
      [],
    );
  });
});

describe("admin content screens on a phone", () => {
  it("fit 360 px with their forms open", async () => {
    const narrow = { width: 360, height: 740 };
    const screens = [
      ["/admin/reviews", "Добавить отзыв", "review-dialog"],
      ["/admin/promotions", "Добавить акцию", "promotion-form"],
      ["/admin/partner-banks", "Добавить банк", "bank-dialog"],
      ["/admin/page-banners", null, "banner-tradeIn"],
      ["/admin/settings", null, null],
      ["/admin/auto-selection-banner", null, null],
      ["/admin/body-types", "Добавить тип кузова", "body-type-dialog"],
    ];
    for (const [path, button, testId] of screens) {
      const { page } = await openAdmin(s, narrow, path);
      await page.getByRole("heading", { level: 1 }).waitFor();
      if (button) await page.getByRole("button", { name: button }).click();
      if (testId) await page.getByTestId(testId).waitFor();
      else await page.locator("form").first().waitFor();
      assert.equal(await scrollsSideways(page), false, `${path} scrolls sideways`);
      if (button) {
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll("dialog[open] article")].some(
            (a) =>
              a.scrollWidth > a.clientWidth + 1 || a.getBoundingClientRect().right > innerWidth + 1,
          ),
        );
        assert.equal(wide, false, `${path}: the form is wider than the phone`);
      }
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });
});
