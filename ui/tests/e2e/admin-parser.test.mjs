// The inventory parser screen against the real server, on a server of its
// own that may fetch from loopback (DEALERSHIP_PARSER_ALLOW_PRIVATE_HOSTS):
// with no feed yet the screen says what a feed is; an Auto.ru XML file made
// here is uploaded once (which makes its file feed), previewed and applied,
// its photos served by a local HTTP server (one of them missing); the car is
// in the admin's list and on the site. The same feed changed (a price, a car
// gone, a new one) is uploaded again to its feed from the feeds card, its
// price change shown old → new, applied by keyboard: the gone car is
// unpublished. A feed with bad rows shows them with their row and field, and
// is dropped; a broken file and a dead address are refused at their field,
// and the dashboard tells of the failed run. Two feeds added in the dialog (a
// new-car feed every 6 hours and a used-car feed whose records do not say),
// both loaded from addresses: a car in both says whose values win, the
// second's preview set to «С пробегом» before applying, every car of both on
// the site with its condition; a car leaving the second feed stays (listed
// apart from the unpublished); the history filtered per feed; the order
// changed by keyboard, a feed's schedule changed, a feed deleted with its
// cars staying. The export feeds' addresses shown and copied, a run opened
// from the history.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, it } from "node:test";
import { apiSession, openAdmin, png, toastText } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

const PHONE_360 = { width: 360, height: 740 };
const TAG = `E2E${Date.now().toString(36).toUpperCase()}`;
const VIN_1 = "XWBCA41ZXDK259205";
const VIN_2 = "Z94CB41AAGR323020";
const VIN_3 = "KMHDN41BP7U123456";
const VIN_N1 = "XWEPH81BDS0000111";
const VIN_N2 = "XWEPH81BDS0000222";
const VIN_SHARED = "XWEPH81BDS0000333";
const VIN_U1 = "Z94K241CBKR000444";
const VIN_U2 = "Z94K241CBLR000555";

/** A local site: the feeds put here, the pictures (`/photos/missing.jpg`
 * answers 404). */
async function feedSite() {
  const files = new Map();
  const server = createServer((req, res) => {
    const path = req.url.split("?")[0];
    if (path.startsWith("/photos/") && path !== "/photos/missing.jpg") {
      res.writeHead(200, { "Content-Type": "image/png" });
      res.end(png(320, 240));
      return;
    }
    const file = files.get(path);
    if (!file) {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": "application/xml; charset=utf-8" });
    res.end(file);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    put: (path, text) => files.set(path, text),
    close: () => new Promise((r) => server.close(r)),
  };
}

/** One Auto.ru `<car>`. */
function autoruCar({
  id,
  mark = "Hyundai",
  model,
  modification,
  body = "Седан",
  drive = "передний",
  year,
  price,
  vin,
  photos = [],
}) {
  return `    <car>
      <unique_id>${id}</unique_id>
      <mark_id>${mark}</mark_id>
      <folder_id>${model}</folder_id>
      <modification_id>${modification}</modification_id>
      <body_type>${body}</body_type>
      ${drive ? `<drive>${drive}</drive>` : ""}
      <year>${year}</year>
      <price>${price}</price>
      <currency>RUR</currency>
      <vin>${vin}</vin>
      <images>${photos.map((p) => `<image>${p}</image>`).join("")}</images>
    </car>`;
}

const autoru = (cars) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<data>\n  <cars>\n${cars.map(autoruCar).join("\n")}\n  </cars>\n</data>\n`;

const plain = (s) => s.replace(/[\u00a0\u202f]/g, " ");

async function eventually(what, check, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The page's script errors, less the console's note of the refusals the
 * journeys ask for. */
const scriptErrors = (page) => page.errors.filter((e) => !/status of (4\d\d|502)/.test(e));

let s;
let site;
let session;
let cars;
before(async () => {
  site = await feedSite();
  s = await start({ env: { DEALERSHIP_PARSER_ALLOW_PRIVATE_HOSTS: "1" } });
  session = await apiSession(s.base);
  const photo = (n) => `${site.base}/photos/${TAG}-${n}.png`;
  cars = {
    sonata: {
      id: `${TAG}-1`,
      model: `Sonata ${TAG}`,
      modification: "2.0 AT (150 л.с.)",
      year: 2022,
      price: 2575000,
      vin: VIN_1,
      photos: [photo(1), photo(2)],
    },
    creta: {
      id: `${TAG}-2`,
      model: `Creta ${TAG}`,
      modification: "1.6 AT (123 л.с.)",
      body: "Внедорожник 5 дв.",
      year: 2023,
      price: 2100000,
      vin: VIN_2,
      photos: [photo(3), `${site.base}/photos/missing.jpg`],
    },
    elantra: {
      id: `${TAG}-3`,
      model: `Elantra ${TAG}`,
      modification: "1.6 AT (128 л.с.)",
      year: 2024,
      price: 2300000,
      vin: VIN_3,
      photos: [photo(4)],
    },
  };
});
after(async () => {
  await s?.stop();
  await site?.close();
});

/** The admin's list of cars of this test, by search. */
async function adminCar(model) {
  const page = await session.get(`/api/admin/cars?q=${encodeURIComponent(model)}&perPage=5`);
  return page.items.find((c) => c.model === model) ?? null;
}

const report = (page) => page.getByTestId("import-report");
const count = async (page, key) =>
  Number(await report(page).getByTestId(`count-${key}`).locator("dd").innerText());

async function waitForStatus(page, label) {
  await report(page).getByTestId("import-status").filter({ hasText: label }).waitFor();
}

/** A toast with this text (others may be on screen too). */
const toast = (page, text) => page.getByTestId("toast").filter({ hasText: text }).first().waitFor();

/** A feed's card in the feeds list, by its name. */
const feedCard = (page, name) =>
  page
    .getByTestId("feeds-card")
    .getByTestId("feed")
    .filter({ has: page.getByRole("heading", { level: 3, name, exact: true }) });

/** Applies the open preview through its confirmation. */
async function applyPreview(page) {
  await report(page).getByRole("button", { name: "Применить" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Применить" }).click();
  await waitForStatus(page, "Применён");
}

describe("admin parser", () => {
  it("imports a feed file, then a changed feed by address, and unpublishes the gone car", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin");
    await page
      .getByRole("navigation", { name: "Разделы администрирования" })
      .getByRole("link", { name: "Парсер" })
      .click();
    await page.waitForURL(`${s.base}/admin/parser`);
    await page.getByRole("heading", { level: 1, name: "Парсер автомобилей" }).waitFor();
    // No feed yet: the card says what a feed is and offers to add one.
    const empty = page.getByTestId("feeds-empty");
    assert.match(await empty.innerText(), /Фид — это список машин/);
    assert.ok(await empty.getByRole("button", { name: "Добавить первый фид" }).isVisible());

    // An Auto.ru file: two new cars, four photos, one of them missing.
    await page.getByLabel("Файл", { exact: true }).check();
    await page.getByLabel("Файл фида").setInputFiles({
      name: "stock.xml",
      mimeType: "text/xml",
      buffer: Buffer.from(autoru([cars.sonata, cars.creta])),
    });
    await page.getByRole("button", { name: "Проверить" }).click();
    await waitForStatus(page, "Предпросмотр");
    assert.match(page.url(), /\/admin\/parser\?run=/);
    assert.equal(await count(page, "new"), 2);
    assert.equal(await count(page, "changed"), 0);
    assert.equal(await count(page, "gone"), 0);
    assert.equal(await count(page, "errors"), 0);
    // The one-off file made its feed: the report names it.
    assert.equal(await report(page).getByTestId("import-feed").innerText(), "Фид «stock.xml»");
    const newList = plain(await report(page).getByTestId("list-new").innerText());
    assert.match(newList, new RegExp(`Sonata ${TAG}`));
    assert.match(newList, /2 575 000 ₽/);
    assert.match(newList, new RegExp(VIN_2));
    // The report took focus; nothing is in the catalogue yet.
    assert.equal(await page.evaluate(() => document.activeElement?.id), "parser-report-title");
    assert.equal(await adminCar(cars.sonata.model), null, "a preview changes nothing");

    // Apply, confirmed.
    await report(page).getByRole("button", { name: "Применить" }).click();
    const confirm = page.getByTestId("confirm-dialog");
    assert.match(await confirm.innerText(), /добавлено: 2, изменено: 0, снято с публикации: 0/);
    await confirm.getByRole("button", { name: "Применить" }).click();
    assert.match(await toastText(page, "Импорт применён"), /Успешно/);
    await waitForStatus(page, "Применён");
    // The photos arrive in the background: the report follows them.
    const photos = report(page).getByTestId("import-photos");
    let seen = "";
    await eventually(`the photos (${seen})`, async () => {
      seen = await photos.innerText();
      return /загружено 3 из 4, с ошибкой: 1/.test(seen);
    }).catch((e) => {
      throw new Error(`${e.message}: ${seen}`);
    });
    assert.match(await photos.getByTestId("photo-errors").innerText(), /missing\.jpg/);

    // In the admin's list, with its photos, and on the site.
    const sonata = await adminCar(cars.sonata.model);
    assert.ok(sonata?.published, "the imported car is published");
    const full = await session.get(`/api/admin/cars/${sonata.id}`);
    assert.equal(full.images.length, 2, "both photos stored");
    await page.goto(`${s.base}/admin/cars`);
    await page.getByTestId("car-search").fill(cars.sonata.model);
    const card = page.locator(`[data-testid="car-card"][data-slug="${sonata.slug}"]`);
    await card.waitFor();
    assert.match(plain(await card.getByTestId("car-price").innerText()), /2 575 000 ₽/);
    const publicPage = await s.open(DESKTOP, `/car/${sonata.slug}`);
    await publicPage.getByRole("heading", { level: 1 }).waitFor();
    assert.match(await publicPage.locator("h1").innerText(), new RegExp(`Sonata ${TAG}`));
    assert.match(plain(await publicPage.locator("main").innerText()), /2 575 000 ₽/);
    await publicPage.context().close();

    // The feed changes: Sonata cheaper, Creta sold, an Elantra arrives. The
    // new file goes to its feed from the feeds card, which lists its cars.
    await page.goto(`${s.base}/admin/parser`);
    const stock = feedCard(page, "stock.xml");
    await eventually("the feed's cars", async () =>
      /Машин в фиде: 2/.test(await stock.innerText()),
    );
    assert.match(await stock.innerText(), /Файл: stock\.xml/);
    assert.match(await stock.innerText(), /Расписание: вручную/);
    await stock.getByLabel("Загрузить файл").setInputFiles({
      name: "stock.xml",
      mimeType: "text/xml",
      buffer: Buffer.from(autoru([{ ...cars.sonata, price: 2400000 }, cars.elantra])),
    });
    await waitForStatus(page, "Предпросмотр");
    assert.equal(await count(page, "new"), 1);
    assert.equal(await count(page, "changed"), 1);
    assert.equal(await count(page, "gone"), 1);
    const changed = report(page).getByTestId("list-changed");
    assert.match(
      plain(await changed.getByTestId("change").filter({ hasText: "Цена" }).innerText()),
      /Цена: 2 575 000 ₽\s*→?\s*(, станет)?\s*2 400 000 ₽/,
    );
    assert.match(
      await report(page).getByTestId("list-gone").innerText(),
      new RegExp(`Creta ${TAG}`),
    );

    // Applied with the keyboard only: the confirmation starts on «Отмена».
    await report(page).getByRole("button", { name: "Применить" }).focus();
    await page.keyboard.press("Enter");
    await confirm.waitFor();
    assert.match(
      await confirm.innerText(),
      /добавлено: 1, изменено: 1, снято с публикации: 1.*пропадут с сайта/s,
    );
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Отмена");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await waitForStatus(page, "Применён");

    const creta = await adminCar(cars.creta.model);
    assert.ok(creta, "a gone car is never deleted");
    assert.equal(creta.published, false, "the gone car is unpublished");
    const cheaper = await adminCar(cars.sonata.model);
    assert.equal(cheaper.price, "2400000.00");
    assert.ok((await adminCar(cars.elantra.model))?.published);
    const gone = await fetch(`${s.base}/car/${creta.slug}`);
    assert.equal(gone.status, 404, "the gone car's page is off the site");

    // The history lists both runs; the first opens its report.
    const runs = page.getByTestId("history").getByTestId("run");
    await eventually("two runs", async () => (await runs.count()) >= 2);
    // The history is fetched again after the apply: its newest run turns
    // from the preview into the applied run.
    await eventually("the newest run applied", async () =>
      /Применён/.test(await runs.nth(0).innerText()),
    );
    assert.match(await runs.nth(1).innerText(), /stock\.xml/);
    await runs
      .nth(1)
      .getByRole("button", { name: /Открыть отчёт/ })
      .click();
    await waitForStatus(page, "Применён");
    assert.equal(await count(page, "new"), 2);
    assert.deepEqual(scriptErrors(page), []);
    await page.context().close();
  });

  it("shows a feed's bad rows, its warnings and new body types, and drops it", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin/parser");
    const bad = autoru([
      // A body type the catalogue lacks: created on apply, not an error.
      { ...cars.elantra, id: `${TAG}-9`, vin: "XWBCA41ZXDK259299", body: "Кабриолет" },
      { ...cars.sonata, id: `${TAG}-10`, vin: "XWBCA41ZXDK259298", price: "дорого" },
      // No drive: it loads, with a warning.
      {
        ...cars.creta,
        id: `${TAG}-11`,
        model: `Creta Drive ${TAG}`,
        vin: "XWBCA41ZXDK259297",
        drive: null,
      },
    ]);
    await page.getByLabel("Файл", { exact: true }).check();
    await page.getByLabel("Файл фида").setInputFiles({
      name: "bad.xml",
      mimeType: "text/xml",
      buffer: Buffer.from(bad),
    });
    await page.getByRole("button", { name: "Проверить" }).click();
    await waitForStatus(page, "Предпросмотр");
    assert.equal(await count(page, "errors"), 1);
    const errors = await report(page).getByTestId("list-errors").innerText();
    assert.match(errors, /Строка 2 \(строка файла \d+\), поле «price»/);
    assert.match(
      await report(page).getByTestId("new-body-types").innerText(),
      /Новые типы кузова, которых нет в каталоге \(будут созданы\): .*Кабриолет/,
    );
    // Warnings are counted apart and listed by car; they are no errors.
    assert.ok((await count(page, "warnings")) >= 1);
    const warned = report(page)
      .getByTestId("list-warnings")
      .locator("li")
      .filter({ hasText: `Creta Drive ${TAG}` });
    assert.match(await warned.innerText(), /Строка 3/);
    assert.match(await warned.innerText(), /Привод не указан в фиде/);
    assert.equal(await count(page, "new"), 2);
    await report(page).getByRole("button", { name: "Отменить" }).click();
    assert.match(await toastText(page, "Предпросмотр отменён"), /Успешно/);
    await report(page).waitFor({ state: "detached" });
    // The history is fetched again after the cancel: wait for it.
    await page
      .getByTestId("history")
      .getByTestId("run")
      .first()
      .filter({ hasText: "Отменён" })
      .waitFor();

    // A broken file and a dead address: the server's words at the field.
    await page.getByLabel("Файл фида").setInputFiles({
      name: "broken.xml",
      mimeType: "text/xml",
      buffer: Buffer.from("<data>\n<cars>\n<car>\n<mark_id>X</mark>\n</car></cars></data>"),
    });
    await page.getByRole("button", { name: "Проверить" }).click();
    const file = page.getByLabel("Файл фида");
    const fileError = page.getByTestId("import-form").locator(".field-error");
    await fileError.waitFor();
    assert.match(await fileError.innerText(), /строке 4/);
    assert.equal(await file.getAttribute("aria-invalid"), "true");
    assert.match(
      (await file.getAttribute("aria-describedby")) ?? "",
      new RegExp(await fileError.getAttribute("id")),
    );

    await page.getByLabel("По ссылке").check();
    const address = page.getByLabel("Адрес фида", { exact: true });
    await address.fill("dealer.example/stock.xml");
    await page.getByRole("button", { name: "Проверить" }).click();
    assert.equal(await fileError.innerText(), "Адрес должен начинаться с http:// или https://");
    // Focus goes to the refused field once the message is painted (a flake
    // in a full run read it a moment before).
    await eventually(
      "the refused address focused",
      async () => (await page.evaluate(() => document.activeElement?.type)) === "url",
      5_000,
    );
    await address.fill(`${site.base}/no-such-feed.xml`);
    await page.getByRole("button", { name: "Проверить" }).click();
    await eventually("the refusal", async () =>
      /404|не удалось|не найден/i.test(await fileError.innerText()),
    );
    assert.equal(await address.getAttribute("aria-invalid"), "true");

    // The latest run failed: the dashboard says so and links to its report.
    await page.goto(`${s.base}/admin`);
    const card = page.getByTestId("import-failed-card");
    await card.waitFor();
    assert.match(await card.innerText(), /Импорт не выполнен/);
    assert.match(await card.innerText(), /404/);
    await card.getByRole("link", { name: "Импорт не выполнен" }).click();
    await page.waitForURL(/\/admin\/parser\?run=/);
    await waitForStatus(page, "Ошибка");
    assert.match(await report(page).getByTestId("import-error").innerText(), /404/);
    assert.deepEqual(scriptErrors(page), []);
    await page.context().close();
  });

  it("keeps the cars of two feeds, a preview set to used, history per feed, order, edit, delete", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin/parser");
    const NEW = `Новые ${TAG}`;
    const USED = `С пробегом ${TAG}`;
    const car = (id, model, year, price, vin) => ({
      id,
      model,
      modification: "2.0 AT (150 л.с.)",
      year,
      price,
      vin,
    });
    const tucson1 = car(`${TAG}-N1`, `Tucson ${TAG}`, 2025, 3900000, VIN_N1);
    const tucson2 = car(`${TAG}-N2`, `Tucson Hybrid ${TAG}`, 2025, 4200000, VIN_N2);
    const santaFe = car(`${TAG}-NS`, `Santa Fe ${TAG}`, 2025, 5100000, VIN_SHARED);
    // The used feed's records say nothing of their condition (no section,
    // no mileage): by the feed's data they would be new.
    const solaris1 = car(`${TAG}-U1`, `Solaris ${TAG}`, 2019, 1200000, VIN_U1);
    const solaris2 = car(`${TAG}-U2`, `Solaris Elegance ${TAG}`, 2020, 1350000, VIN_U2);
    const santaFeUsed = { ...santaFe, id: `${TAG}-US`, price: 4900000 };
    site.put("/new.xml", autoru([tucson1, tucson2, santaFe]));
    site.put("/used.xml", autoru([solaris1, solaris2, santaFeUsed]));

    // The dialog refuses a feed without a name, at its field.
    const card = page.getByTestId("feeds-card");
    await card.getByRole("button", { name: "Добавить фид", exact: true }).click();
    const dialog = page.getByTestId("feed-dialog");
    await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
    const name = dialog.getByLabel("Название");
    assert.equal(await name.getAttribute("aria-invalid"), "true");
    assert.match(await dialog.locator(".field-error").first().innerText(), /Укажите название фида/);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "name");
    assert.deepEqual(await dialog.getByLabel("Состояние машин").locator("option").allInnerTexts(), [
      "По данным фида (без данных — новые)",
      "Новые, если фид не говорит иначе",
      "С пробегом, если фид не говорит иначе",
      "Все — аренда с выкупом",
    ]);
    await name.fill(NEW);
    await dialog.getByLabel("Адрес фида").fill(`${site.base}/new.xml`);
    await dialog.getByLabel("Расписание").selectOption({ label: "Каждые 6 часов" });
    await dialog
      .getByLabel("Состояние машин")
      .selectOption({ label: "Новые, если фид не говорит иначе" });
    await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
    await toast(page, "Фид добавлен");
    await dialog.waitFor({ state: "detached" });

    // The used feed, by keyboard from the button; its condition left to the records.
    await card.getByRole("button", { name: "Добавить фид", exact: true }).focus();
    await page.keyboard.press("Enter");
    await dialog.getByLabel("Название").fill(USED);
    await dialog.getByLabel("Адрес фида").fill(`${site.base}/used.xml`);
    await dialog.getByLabel("Адрес фида").press("Enter");
    await dialog.waitFor({ state: "detached" });

    const newCard = feedCard(page, NEW);
    const usedCard = feedCard(page, USED);
    await usedCard.waitFor();
    const newText = await newCard.innerText();
    assert.match(newText, new RegExp(`${site.base}/new\\.xml`));
    assert.match(newText, /Расписание: каждые 6 ч/);
    assert.match(newText, /Состояние: новые, если фид не говорит иначе/);
    assert.match(newText, /Машин в фиде: 0/);
    assert.match(newText, /Следующий запуск/);
    const usedText = await usedCard.innerText();
    assert.match(usedText, /Расписание: вручную/);
    assert.match(usedText, /Состояние: по данным фида \(без данных — новые\)/);
    assert.match(await card.innerText(), /данные берутся из того фида, что выше в списке/);

    // The new-car feed, loaded now from its address, and applied.
    await newCard.getByRole("button", { name: /Загрузить сейчас/ }).click();
    await waitForStatus(page, "Предпросмотр");
    assert.equal(await report(page).getByTestId("import-feed").innerText(), `Фид «${NEW}»`);
    assert.equal(await count(page, "new"), 3);
    await applyPreview(page);

    // The used-car feed: the car both feeds list says the higher feed wins;
    // its own cars would be new, and are warned about.
    await usedCard.getByRole("button", { name: /Загрузить сейчас/ }).click();
    await report(page).getByTestId("import-feed").filter({ hasText: USED }).waitFor();
    await waitForStatus(page, "Предпросмотр");
    assert.equal(await count(page, "new"), 2);
    assert.equal(await count(page, "gone"), 0);
    assert.match(
      // In the collapsed list of unchanged cars, or among the changed.
      (await report(page).getByTestId("also-in").first().textContent()).trim(),
      new RegExp(`^Также в фиде «${NEW}»: его значения главнее$`),
    );
    const listNew = report(page).getByTestId("list-new");
    assert.match(
      await listNew.locator("li").filter({ hasText: solaris1.model }).innerText(),
      /Новый/,
    );
    assert.match(
      await report(page).getByTestId("list-warnings").innerText(),
      /Похоже на автомобиль с пробегом \(2019 год выпуска\)/,
    );

    // «С пробегом» for every car of the preview: compared again before applying.
    const condition = report(page).getByLabel("Состояние всех машин предпросмотра");
    assert.equal(await condition.inputValue(), "");
    await condition.selectOption({ label: "С пробегом" });
    await report(page)
      .getByTestId("preview-condition-status")
      .filter({ hasText: "Предпросмотр пересчитан: с пробегом" })
      .waitFor();
    assert.equal(await condition.inputValue(), "used");
    assert.match(
      await listNew.locator("li").filter({ hasText: solaris1.model }).innerText(),
      /С пробегом/,
    );
    const warnings = await report(page).getByTestId("list-warnings").innerText();
    assert.doesNotMatch(warnings, /Похоже на автомобиль с пробегом/);
    assert.match(warnings, /Пробег не указан/);
    await applyPreview(page);
    assert.equal(await count(page, "gone"), 0);

    // Every car of both feeds on the site; the used feed's are used.
    for (const c of [tucson1, tucson2, santaFe]) {
      const found = await adminCar(c.model);
      assert.ok(found?.published, `${c.model} on the site`);
    }
    assert.equal((await adminCar(tucson1.model)).status, "new");
    for (const c of [solaris1, solaris2]) {
      const found = await adminCar(c.model);
      assert.ok(found?.published, `${c.model} on the site`);
      assert.equal(found.status, "used", `${c.model} is used`);
    }
    await eventually("the feeds' cars", async () =>
      /Машин в фиде: 3/.test(await usedCard.innerText()),
    );
    assert.match(await newCard.innerText(), /Машин в фиде: 3/);

    // Santa Fe leaves the used feed: it stays on the site, listed apart.
    site.put("/used.xml", autoru([solaris1, solaris2]));
    await usedCard.getByRole("button", { name: /Загрузить сейчас/ }).click();
    await waitForStatus(page, "Предпросмотр");
    await report(page).getByTestId("list-left").waitFor();
    assert.equal(await count(page, "gone"), 0);
    assert.equal(await count(page, "left"), 1);
    const left = await report(page).getByTestId("list-left").innerText();
    assert.match(left, /Уйдут из этого фида, но останутся на сайте \(1\)/);
    assert.match(left, new RegExp(`Santa Fe ${TAG}.*есть в фиде «${NEW}»`));
    assert.equal(await report(page).getByTestId("list-gone").count(), 0);
    await report(page).getByRole("button", { name: "Отменить" }).click();
    await report(page).waitFor({ state: "detached" });

    // The history of one feed, then of the other, each run naming its feed.
    const history = page.getByTestId("history");
    const runs = history.getByTestId("run");
    const filter = history.getByLabel("Фид", { exact: true });
    await filter.selectOption({ label: USED });
    await eventually("the used feed's runs", async () => {
      const texts = await runs.allInnerTexts();
      return texts.length === 2 && texts.every((t) => t.includes(`Фид «${USED}»`));
    });
    assert.match(await runs.nth(0).innerText(), /Отменён/);
    assert.match(await runs.nth(1).innerText(), /Применён/);
    await filter.selectOption({ label: NEW });
    await eventually("the new feed's run", async () => {
      const texts = await runs.allInnerTexts();
      return texts.length === 1 && texts[0].includes(`Фид «${NEW}»`);
    });
    await filter.selectOption({ label: "Все фиды" });
    await eventually("every run", async () => (await runs.count()) > 3);

    // The used feed moved up by keyboard: its values win now; the focus
    // stays on it (on «Ниже», «Выше» being off at the top).
    const usedId = await usedCard.getAttribute("data-feed-id");
    const names = () => card.getByTestId("feed").locator("h3").allInnerTexts();
    for (let at = (await names()).indexOf(USED); at > 0; at -= 1) {
      await usedCard.getByRole("button", { name: /^Выше/ }).focus();
      await page.keyboard.press("Enter");
      await eventually("moved up", async () => (await names()).indexOf(USED) === at - 1);
    }
    const order = (await session.get("/api/admin/feeds")).items.map((f) => f.id);
    assert.equal(order[0], usedId, "the server keeps the new order");
    await eventually("the used feed first", async () =>
      (await card.getByTestId("feed").first().innerText()).includes(USED),
    );
    await eventually(
      "focus on the moved feed",
      async () => (await page.evaluate(() => document.activeElement?.id)) === `feed-down-${usedId}`,
      5_000,
    );
    assert.equal(await usedCard.getByRole("button", { name: /^Выше/ }).isDisabled(), true);

    // Its schedule changed in the dialog; its kind is fixed.
    await usedCard.getByRole("button", { name: /^Изменить/ }).click();
    assert.equal(await dialog.getByLabel("Название").inputValue(), USED);
    assert.equal(await dialog.getByLabel("Файл", { exact: true }).isDisabled(), true);
    await dialog.getByLabel("Расписание").selectOption({ label: "Каждые 12 часов" });
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await toast(page, "Фид сохранён");
    await eventually("12 hours", async () =>
      /Расписание: каждые 12 ч/.test(await usedCard.innerText()),
    );

    // Deleted: the confirmation says the cars stay, and they do.
    await usedCard.getByRole("button", { name: /^Удалить/ }).click();
    const confirm = page.getByTestId("confirm-dialog");
    assert.match(await confirm.innerText(), /останутся на сайте как есть/);
    await confirm.getByRole("button", { name: "Удалить фид" }).click();
    await toast(page, "Фид удалён");
    await usedCard.waitFor({ state: "detached" });
    for (const c of [solaris1, solaris2]) {
      assert.ok((await adminCar(c.model))?.published, `${c.model} stays on the site`);
    }
    assert.deepEqual(scriptErrors(page), []);
    await page.context().close();
  });

  it("shows the export feeds", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin/parser");
    // The feeds (Auto.ru's also one a section), each with where to paste
    // it, and copied.
    const feeds = page.getByTestId("feeds");
    await feeds.getByTestId("feed-link").first().waitFor();
    const links = await feeds
      .getByTestId("feed-link")
      .evaluateAll((els) => els.map((e) => e.value));
    assert.equal(links.length, 5);
    assert.match(links[0], /\/feeds\/avito\.xml$/);
    assert.match(links[1], /\/feeds\/autoru\.xml$/);
    assert.match(links[2], /\/feeds\/autoru-new\.xml$/);
    assert.match(links[3], /\/feeds\/autoru-used\.xml$/);
    assert.match(links[4], /\/feeds\/yandex\.yml$/);
    const text = await feeds.innerText();
    assert.match(text, /Автозагрузка/);
    assert.match(text, /Авто\.ру/);
    assert.match(text, /Яндекс/);
    for (const url of links) {
      const r = await fetch(url.replace(/^https?:\/\/[^/]+/, s.base));
      assert.equal(r.status, 200, url);
    }
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: s.base,
    });
    await feeds.getByRole("button", { name: /Копировать адрес фида для Avito/ }).click();
    await toastText(page, "скопирован");
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), links[0]);
    assert.deepEqual(scriptErrors(page), []);
    await page.context().close();
  });

  it("works on a 360 px phone", async () => {
    const { page } = await openAdmin(s, PHONE_360, "/admin/parser");
    await page.getByTestId("history").getByTestId("run").first().waitFor();
    await page
      .getByTestId("history")
      .getByRole("button", { name: /Открыть отчёт/ })
      .first()
      .click();
    await report(page).getByTestId("import-counts").waitFor();
    const wide = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
    );
    assert.equal(wide, false, "nothing is wider than the phone");
    await page.context().close();
  });
});
