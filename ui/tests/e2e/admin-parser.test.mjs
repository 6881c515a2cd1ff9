// The inventory parser screen against the real server, on a server of its
// own that may fetch from loopback (DEALERSHIP_PARSER_ALLOW_PRIVATE_HOSTS):
// an Auto.ru XML file made here is uploaded, previewed and applied, its
// photos served by a local HTTP server (one of them missing); the car is in
// the admin's list and on the site. The same feed changed (a price, a car
// gone, a new one) is read from an address, its price change shown old →
// new, applied by keyboard: the gone car is unpublished. A feed with bad rows
// shows them with their row and field, and is dropped; a broken file and a
// dead address are refused at their field, and the dashboard tells of the
// failed run. The schedule is saved and shown,
// the export feeds' addresses shown and copied, a run opened from the
// history.
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

describe("admin parser", () => {
  it("imports a feed file, then a changed feed by address, and unpublishes the gone car", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin");
    await page
      .getByRole("navigation", { name: "Разделы администрирования" })
      .getByRole("link", { name: "Парсер" })
      .click();
    await page.waitForURL(`${s.base}/admin/parser`);
    await page.getByRole("heading", { level: 1, name: "Парсер автомобилей" }).waitFor();

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

    // The feed changes on the dealer's site: Sonata cheaper, Creta sold, an
    // Elantra arrives. Read from its address this time.
    site.put("/stock.xml", autoru([{ ...cars.sonata, price: 2400000 }, cars.elantra]));
    await page.goto(`${s.base}/admin/parser`);
    await page.getByLabel("Адрес фида", { exact: true }).fill(`${site.base}/stock.xml`);
    await page.getByRole("button", { name: "Проверить" }).click();
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

  it("saves the schedule and shows the export feeds", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin/parser");
    const schedule = page.getByTestId("schedule");
    await schedule.getByTestId("schedule-state").waitFor();
    assert.match(await schedule.getByTestId("schedule-state").innerText(), /Выкл/);

    // Every 6 hours without an address: refused at the address.
    await schedule.getByLabel("Периодичность").selectOption({ label: "Каждые 6 часов" });
    await schedule.getByRole("button", { name: "Сохранить расписание" }).click();
    const urlField = schedule.getByLabel("Адрес фида для расписания");
    assert.equal(await urlField.getAttribute("aria-invalid"), "true");
    assert.match(await schedule.locator(".field-error").innerText(), /Укажите адрес фида/);

    await urlField.fill(`${site.base}/stock.xml`);
    await schedule.getByRole("button", { name: "Сохранить расписание" }).click();
    assert.match(await toastText(page, "Расписание сохранено"), /Успешно/);
    const saved = await session.get("/api/admin/parser/settings");
    assert.equal(saved.feedUrl, `${site.base}/stock.xml`);
    assert.equal(saved.intervalHours, 6);
    await page.reload();
    await schedule.getByTestId("schedule-state").waitFor();
    assert.match(await schedule.getByTestId("schedule-state").innerText(), /Каждые 6 часов/);
    assert.equal(
      await schedule.getByLabel("Адрес фида для расписания").inputValue(),
      saved.feedUrl,
    );
    assert.equal(await schedule.getByLabel("Периодичность").inputValue(), "6");

    // Another number of hours.
    await schedule.getByLabel("Периодичность").selectOption({ label: "Другой интервал…" });
    await schedule.getByLabel("Интервал, часов").fill("200");
    await schedule.getByRole("button", { name: "Сохранить расписание" }).click();
    assert.match(await schedule.locator(".field-error").innerText(), /от 1 до 168/);
    await schedule.getByLabel("Интервал, часов").fill("48");
    await schedule.getByRole("button", { name: "Сохранить расписание" }).click();
    await toastText(page, "Расписание сохранено");
    await eventually("48 hours", async () =>
      /Каждые 48 часов/.test(await schedule.getByTestId("schedule-state").innerText()),
    );

    // Off again.
    await schedule.getByLabel("Периодичность").selectOption({ label: "Выкл" });
    await schedule.getByRole("button", { name: "Сохранить расписание" }).click();
    await eventually(
      "off",
      async () => (await session.get("/api/admin/parser/settings")).intervalHours === 0,
    );

    // The three feeds, each with where to paste it, and copied.
    const feeds = page.getByTestId("feeds");
    const links = await feeds
      .getByTestId("feed-link")
      .evaluateAll((els) => els.map((e) => e.value));
    assert.equal(links.length, 3);
    assert.match(links[0], /\/feeds\/avito\.xml$/);
    assert.match(links[1], /\/feeds\/autoru\.xml$/);
    assert.match(links[2], /\/feeds\/yandex\.yml$/);
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
