// Buyers' tools without an account (docs/leads.md, issue 14): favourites kept
// in the browser across a reload and a gone car marked; compare of three
// cars with the differing rows marked, on a 360 px phone, shareable by its
// URL; a test drive booked by keyboard and by taps, seen in the admin leads
// screen with its label and filter; each refusal of a test-drive date.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { apiSession, cleanup, keepSettings, mark, openAdmin } from "./admin-helpers.mjs";
import { DESKTOP, PHONE, start } from "./harness.mjs";

const GONE = "Автомобиль продан или снят с продажи";
const NARROW = { width: 360, height: 740 };

let s;
let session;
let trash;
/** Cars made for these tests: two new, one used. */
const cars = {};

before(async () => {
  s = await start();
  session = await apiSession(s.base);
  trash = cleanup(session);
  const [demo] = await s.api("/api/cars/fast?status=new&limit=1");
  const base = await session.get(`/api/admin/cars/${demo.id}`);
  const tag = mark("fav");
  const variants = {
    a: { year: 2024, engine: "1.5 л", status: "new", mileage: 0 },
    b: { year: 2025, engine: "2.0 л", status: "new", mileage: 0 },
    c: { year: 2021, engine: "1.5 л", status: "used", mileage: 45000 },
  };
  for (const [key, v] of Object.entries(variants)) {
    const input = {
      ...base,
      ...v,
      name: `${base.name} ${tag} ${key.toUpperCase()}`,
      slug: `${tag}-${key}`,
      externalId: null,
      vin: null,
      published: true,
    };
    const car = await session.post("/api/cars", input);
    trash.track(`/api/cars/${car.id}`);
    cars[key] = { ...car, input };
  }
});
after(async () => {
  await trash?.run();
  await s?.stop();
});

const title = (car) =>
  car.name.toLowerCase().startsWith(car.brandName.toLowerCase())
    ? car.name
    : `${car.brandName} ${car.name}`;
const stored = (page, key) =>
  page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? "[]"), key);

describe("favourites", () => {
  it("are kept across a reload, in sync across tabs, and a gone car is marked", async () => {
    const { a, b } = cars;
    const page = await s.open(PHONE, `/car/${a.slug}`);
    const heart = page.locator("main .car-tools").getByRole("button", { name: "В избранное" });
    await heart.waitFor();
    assert.equal(await heart.getAttribute("aria-pressed"), "false");
    await heart.click();
    const pressed = page
      .locator("main .car-tools")
      .getByRole("button", { name: "Убрать из избранного" });
    assert.equal(await pressed.getAttribute("aria-pressed"), "true");
    assert.equal(await page.getByTestId("favorites-link").locator(".saved-count").innerText(), "1");

    // A card's heart, in a second tab of the same browser: the first follows.
    const other = await page.context().newPage();
    await other.goto(`${s.base}/new-cars`);
    const card = other.getByTestId("car-card").filter({ hasText: title(b) });
    await card.getByRole("button", { name: `В избранное: ${title(b)}` }).click();
    await page
      .getByTestId("favorites-link")
      .locator(".saved-count", { hasText: "2" })
      .waitFor({ timeout: 5000 });
    await other.close();

    // Only the public snapshot is kept, nothing about the visitor.
    const kept = await stored(page, "dealership.favorites");
    assert.deepEqual(
      kept.map((e) => e.slug),
      [b.slug, a.slug],
    );
    assert.deepEqual(Object.keys(kept[0]).sort(), ["image", "price", "slug", "status", "title"]);

    await page.reload();
    await page.getByTestId("favorites-link").click();
    await page.waitForURL(/\/favorites$/);
    await page.getByRole("heading", { name: "Избранное", level: 1 }).waitFor();
    const listed = page.locator("main .car-grid > article");
    await page.getByTestId("car-card").nth(1).waitFor();
    assert.equal(await listed.count(), 2);

    // The admin takes car A off the site: it stays in the list, marked.
    await session.put(`/api/cars/${a.id}`, { ...a.input, published: false });
    trash.undo(() => session.put(`/api/cars/${a.id}`, { ...a.input, published: true }));
    await page.reload();
    const gone = page.getByTestId("gone-card");
    await gone.waitFor();
    assert.equal(await gone.getAttribute("data-slug"), a.slug);
    assert.ok((await gone.innerText()).includes(GONE));
    assert.equal(await page.getByTestId("car-card").count(), 1);
    await gone.getByRole("button", { name: `Удалить из избранного: ${title(a)}` }).click();
    await gone.waitFor({ state: "detached" });
    assert.deepEqual(
      (await stored(page, "dealership.favorites")).map((e) => e.slug),
      [b.slug],
    );
    assert.deepEqual(page.errors, []);
    await page.context().close();
    await session.put(`/api/cars/${a.id}`, { ...a.input, published: true });
  });
});

describe("compare", () => {
  it("three cars at 360 px: the differing rows marked, a fifth refused, shareable by URL", async () => {
    const { a, b, c } = cars;
    const page = await s.open(NARROW);
    const [d, e] = await s.api("/api/cars/fast?status=new,used&limit=2&offset=3");
    for (const car of [a, b, c, d]) {
      await page.goto(`${s.base}/car/${car.slug}`);
      await page.locator("main .car-tools").getByRole("button", { name: "Сравнить" }).click();
      await page
        .locator("main .car-tools")
        .getByRole("button", { name: "Убрать из сравнения" })
        .waitFor();
    }
    // A fifth is refused with a message; nothing changes.
    await page.goto(`${s.base}/car/${e.slug}`);
    await page.locator("main .car-tools").getByRole("button", { name: "Сравнить" }).click();
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    assert.match(await toast.innerText(), /не больше 4 автомобилей/);
    assert.equal(await stored(page, "dealership.compare").then((l) => l.length), 4);
    // The fourth leaves again, from its own page.
    await page.goto(`${s.base}/car/${d.slug}`);
    await page
      .locator("main .car-tools")
      .getByRole("button", { name: "Убрать из сравнения" })
      .click();

    await page.getByTestId("compare-link").click();
    await page.waitForURL(/\/compare\?cars=/);
    const url = new URL(page.url());
    assert.deepEqual(url.searchParams.get("cars").split(","), [c.slug, b.slug, a.slug]);
    const table = page.getByTestId("compare-table");
    await table.waitFor();
    const columns = table.locator("thead th[scope=col]");
    assert.equal(await columns.count(), 3);

    // Rows that differ are marked for the eye and for screen readers.
    const rows = await table.locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => ({
        header: tr.querySelector("th[scope=row]").textContent.trim(),
        differs: tr.dataset.differs === "true",
        tint: getComputedStyle(tr.querySelector("td")).backgroundColor,
      })),
    );
    const by = (label) => rows.find((r) => r.header.startsWith(label) || r.header.includes(label));
    for (const label of ["Год выпуска", "Двигатель", "Состояние", "Пробег"]) {
      assert.ok(by(label)?.differs, `${label} differs`);
      assert.ok(by(label).header.includes("(различается)"), `${label} says it differs`);
    }
    for (const label of ["Марка", "Кузов"]) {
      assert.equal(by(label)?.differs, false, `${label} is the same`);
      assert.ok(!by(label).header.includes("различается"));
    }
    assert.notEqual(by("Год выпуска").tint, by("Марка").tint, "a differing row is tinted");

    // A phone: the page does not scroll sideways, the table does, and the
    // row names stay in view.
    const layout = await page.evaluate(() => {
      const region = document.querySelector(".compare-scroll");
      const before = document.querySelector("tbody th[scope=row]").getBoundingClientRect().left;
      region.scrollLeft = region.scrollWidth;
      const after = document.querySelector("tbody th[scope=row]").getBoundingClientRect().left;
      return {
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        region: region.scrollWidth - region.clientWidth,
        scrolled: region.scrollLeft,
        before,
        after,
      };
    });
    assert.ok(layout.page <= 0, `the page scrolls sideways by ${layout.page} px`);
    assert.ok(layout.region > 0 && layout.scrolled > 0, "the table scrolls inside its region");
    assert.equal(Math.round(layout.after), Math.round(layout.before), "row names stay in view");

    // Shared: the same URL in a fresh browser shows the same cars.
    const fresh = await s.open(DESKTOP, `${url.pathname}${url.search}`);
    const freshTable = fresh.getByTestId("compare-table");
    await freshTable.waitFor();
    assert.deepEqual(
      await freshTable
        .locator("thead th[scope=col]")
        .evaluateAll((ths) => ths.map((t) => t.dataset.slug)),
      [c.slug, b.slug, a.slug],
    );
    // Opening it made it that browser's compare list.
    assert.deepEqual(
      (await stored(fresh, "dealership.compare")).map((e) => e.slug),
      [c.slug, b.slug, a.slug],
    );
    // A car taken off the site is marked there, not dropped.
    await session.put(`/api/cars/${b.id}`, { ...b.input, published: false });
    trash.undo(() => session.put(`/api/cars/${b.id}`, { ...b.input, published: true }));
    const third = await s.open(DESKTOP, `${url.pathname}${url.search}`);
    const goneCol = third.locator(`thead th[data-slug="${b.slug}"]`);
    await goneCol.getByTestId("compare-gone").waitFor();
    assert.ok((await goneCol.innerText()).includes(GONE));
    await session.put(`/api/cars/${b.id}`, { ...b.input, published: true });
    await third.context().close();

    // Remove a car: the URL follows.
    await fresh.getByRole("button", { name: `Убрать из сравнения: ${title(c)}` }).click();
    await fresh.waitForURL((u) => u.searchParams.get("cars") === `${b.slug},${a.slug}`);
    assert.equal(await freshTable.locator("thead th[scope=col]").count(), 2);
    assert.deepEqual(page.errors, []);
    assert.deepEqual(fresh.errors, []);
    await fresh.context().close();
    await page.context().close();
  });

  it("copies its link", async () => {
    const { a, b } = cars;
    const page = await s.open(DESKTOP, `/compare?cars=${a.slug},${b.slug}`, {
      permissions: ["clipboard-read", "clipboard-write"],
    });
    await page.getByTestId("compare-table").waitFor();
    await page.getByRole("button", { name: "Скопировать ссылку" }).click();
    await page.getByTestId("toast").filter({ hasText: "Ссылка скопирована" }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, `${s.base}/compare?cars=${a.slug},${b.slug}`);
    await page.context().close();
  });
});

// ---- test drives ---------------------------------------------------------------

const DAY_MS = 86_400_000;
/** Moscow's date `days` from today, as YYYY-MM-DD. */
const moscowDate = (days = 0) =>
  new Date(Date.now() + 3 * 3_600_000 + days * DAY_MS).toISOString().slice(0, 10);
/** Monday first, as the schedule. */
const weekdayIndex = (date) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;

const testDriveLead = (name) =>
  s.query("SELECT * FROM leads WHERE name = ? ORDER BY rowid DESC LIMIT 1", [name])[0];

async function postTestDrive(fields) {
  const r = await fetch(`${s.base}/api/leads`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      type: "test_drive",
      name: "Проверка отказов",
      phone: "+7 921 555-12-34",
      consent: true,
      carId: cars.a.id,
      ...fields,
    }),
  });
  const body = await r.json();
  if (r.status === 201) trash.track(`/api/leads/${body.id}`);
  return { status: r.status, body };
}

describe("test drive", () => {
  const names = { keys: `Клавиатура ${mark()}`, taps: `Касания ${mark()}` };

  it("is booked by keyboard alone: day, then slot", async () => {
    const page = await s.open(DESKTOP, `/car/${cars.b.slug}`);
    const button = page.getByRole("button", { name: "Записаться на тест-драйв" });
    await button.focus();
    await page.keyboard.press("Enter");
    const dialog = page.locator("dialog[open]");
    await dialog.getByRole("heading", { name: "Запись на тест-драйв" }).waitFor();
    const active = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return { name: el?.getAttribute("name"), value: el?.value, type: el?.type };
      });
    // To the days: the first Tab stop of the group, then the arrow picks the next day.
    for (let i = 0; i < 10 && (await active()).name !== "preferredDate"; i++) {
      await page.keyboard.press("Tab");
    }
    assert.equal((await active()).name, "preferredDate");
    await page.keyboard.press("Space");
    await page.keyboard.press("ArrowRight");
    const day = (await active()).value;
    assert.ok(await dialog.locator(`input[name=preferredDate][value="${day}"]`).isChecked());
    await page.keyboard.press("Tab");
    assert.equal((await active()).name, "preferredTime");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Space");
    const time = (await active()).value;
    await page.keyboard.press("Tab");
    assert.equal((await active()).name, "name");
    await page.keyboard.type(names.keys);
    await page.keyboard.press("Tab");
    await page.keyboard.type("+7 921 555 12 34");
    for (let i = 0; i < 6 && (await active()).name !== "consent"; i++) {
      await page.keyboard.press("Tab");
    }
    await page.keyboard.press("Space");
    for (let i = 0; i < 6 && (await active()).type !== "submit"; i++) {
      await page.keyboard.press("Tab");
    }
    await page.keyboard.press("Enter");
    await page.getByTestId("toast").filter({ hasText: "Заявка отправлена!" }).waitFor();
    await dialog.waitFor({ state: "detached" });
    const lead = testDriveLead(names.keys);
    assert.ok(lead, "stored");
    trash.track(`/api/leads/${lead.id}`);
    assert.equal(lead.type, "test_drive");
    assert.equal(lead.car_id, cars.b.id);
    assert.equal(lead.preferred_date, day);
    assert.equal(lead.preferred_time, time);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("is booked by taps on a phone; today's past slots are not offered", async () => {
    const page = await s.open(PHONE, `/car/${cars.c.slug}`, { hasTouch: true });
    // The dialog offers the slots that had not begun when it opened (a slot
    // may begin while the test runs).
    const opened = Date.now();
    await page.getByRole("button", { name: "Записаться на тест-драйв" }).tap();
    const dialog = page.locator("dialog[open]");
    await dialog.getByRole("heading", { name: "Запись на тест-драйв" }).waitFor();
    const days = dialog.locator("input[name=preferredDate]");
    assert.ok((await days.count()) >= 1 && (await days.count()) <= 14);
    // No day yet: the form asks for one at the field.
    await fillContact(dialog, names.taps);
    await dialog.getByRole("button", { name: "Записаться" }).tap();
    const dayError = dialog.locator(".choice-group .field-error");
    await dayError.filter({ hasText: "Выберите дату тест-драйва" }).waitFor();
    // Tap one: a day, tap two: a slot.
    await dialog.locator(".choice").first().tap();
    const first = await days.first().inputValue();
    // A day without a time: the time group says what to pick, as the server would.
    await dialog.getByRole("button", { name: "Записаться" }).tap();
    await dialog
      .locator(".choice-group")
      .nth(1)
      .locator(".field-error")
      .filter({ hasText: /^Выберите время с \d\d:\d\d до \d\d:\d\d$/ })
      .waitFor();
    const slots = await dialog
      .locator("input[name=preferredTime]")
      .evaluateAll((els) => els.map((e) => e.value));
    assert.ok(slots.length > 0);
    if (first === moscowDate(0)) {
      const now = new Date(opened + 3 * 3_600_000);
      const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
      for (const slot of slots) {
        const [h, m] = slot.split(":").map(Number);
        assert.ok(h * 60 + m > minute, `${slot} has begun`);
      }
    }
    await dialog.locator(".choice-group").nth(1).locator(".choice").last().tap();
    const time = slots.at(-1);
    await dialog.getByRole("button", { name: "Записаться" }).tap();
    await page.getByTestId("toast").filter({ hasText: "Заявка отправлена!" }).waitFor();
    const lead = testDriveLead(names.taps);
    assert.ok(lead, "stored");
    trash.track(`/api/leads/${lead.id}`);
    assert.equal(lead.preferred_date, first);
    assert.equal(lead.preferred_time, time);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("is shown in the admin leads list with its label, filter and details", async () => {
    const { page } = await openAdmin(s, DESKTOP, "/admin/leads");
    await page.getByTestId("lead-row").first().waitFor();
    await page.locator("#leads-type-filter").selectOption("test_drive");
    const row = page.getByTestId("lead-row").filter({ hasText: names.keys });
    await row.waitFor();
    // The previous list stays on screen while the filtered one loads: wait
    // until the list is the filtered one, every row a test drive.
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll("[data-testid=lead-row]")];
      const list = document.querySelector(".lead-list");
      return (
        list &&
        !list.hasAttribute("aria-busy") &&
        rows.length > 0 &&
        rows.every((r) => r.textContent.includes("Тест-драйв"))
      );
    });
    const rows = page.getByTestId("lead-row");
    for (const text of await rows.allInnerTexts()) assert.ok(text.includes("Тест-драйв"), text);
    const lead = testDriveLead(names.keys);
    const line = await row.getByTestId("lead-test-drive").innerText();
    assert.ok(line.includes(lead.preferred_time), line);
    await row.getByRole("button", { name: /^Подробнее/ }).click();
    const details = page.getByTestId("lead-details");
    await details.waitFor();
    const text = await details.innerText();
    assert.ok(text.includes("Тест-драйв"));
    assert.ok(text.includes(lead.preferred_time));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("refuses a date or time the salon cannot take, each with its message", async () => {
    const settings = await keepSettings(session, ["workSchedule"]);
    try {
      const today = moscowDate(0);
      const days = Array.from({ length: 7 }, () => ({ open: "09:00", close: "21:00" }));
      // Today open from midnight (its first slot has begun); the day after
      // tomorrow closed.
      days[weekdayIndex(today)] = { open: "00:00", close: "23:59" };
      const closed = moscowDate(2);
      days[weekdayIndex(closed)] = null;
      await session.put("/api/settings", { workSchedule: { days } });
      const open = moscowDate(1);

      const cases = [
        [{}, "Выберите дату тест-драйва", "preferredDate"],
        [{ preferredDate: moscowDate(-1), preferredTime: "10:00" }, "Дата тест-драйва уже прошла"],
        [
          { preferredDate: moscowDate(61), preferredTime: "10:00" },
          "Запись возможна не более чем на 60 дней вперёд",
        ],
        [{ preferredDate: closed, preferredTime: "10:00" }, "В этот день салон не работает"],
        [{ preferredDate: open, preferredTime: "07:00" }, "Выберите время с 09:00 до 20:30"],
        [{ preferredDate: today, preferredTime: "00:00" }, "Это время уже прошло"],
      ];
      for (const [fields, message, field] of cases) {
        const { status, body } = await postTestDrive(fields);
        assert.equal(status, 422, `${JSON.stringify(fields)}: ${JSON.stringify(body)}`);
        assert.equal(body.error, message);
        if (field) assert.equal(body.field, field);
      }
      const ok = await postTestDrive({ preferredDate: open, preferredTime: "20:30" });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));

      // The dialog offers no closed day, and a refusal of the server shows
      // at its field: the day closes while the visitor fills the form.
      const page = await s.open(DESKTOP, `/car/${cars.a.slug}`);
      await page.getByRole("button", { name: "Записаться на тест-драйв" }).click();
      const dialog = page.locator("dialog[open]");
      await dialog.locator(".choice").first().waitFor();
      const offered = await dialog
        .locator("input[name=preferredDate]")
        .evaluateAll((els) => els.map((e) => e.value));
      assert.ok(!offered.includes(closed), "a closed day is not offered");
      await dialog.locator(`input[name=preferredDate][value="${open}"]`).check();
      await dialog.locator("input[name=preferredTime]").first().check();
      await fillContact(dialog, `Отказ ${mark()}`);
      days[weekdayIndex(open)] = null;
      await session.put("/api/settings", { workSchedule: { days } });
      await dialog.getByRole("button", { name: "Записаться" }).click();
      const error = dialog.locator(".choice-group .field-error");
      await error.filter({ hasText: "В этот день салон не работает" }).waitFor();
      assert.equal(
        await dialog
          .locator(`input[name=preferredDate][value="${open}"]`)
          .getAttribute("aria-invalid"),
        "true",
      );
      await page.context().close();
    } finally {
      await settings.restore();
    }
  });

  it("the schedule is edited in the settings, with its error at the field", async () => {
    const settings = await keepSettings(session, ["workSchedule"]);
    try {
      const { page } = await openAdmin(s, DESKTOP, "/admin/settings");
      const fieldset = page.getByTestId("work-schedule");
      await fieldset.waitFor();
      const sunday = page.getByTestId("schedule-day-6");
      await sunday.getByLabel("Выходной").check();
      const monday = page.getByTestId("schedule-day-0");
      await monday.getByLabel("Понедельник: открытие").fill("18:00");
      await monday.getByLabel("Понедельник: закрытие").fill("10:00");
      await page.getByRole("button", { name: "Сохранить" }).click();
      await fieldset
        .locator(".field-error")
        .filter({ hasText: "Понедельник: время открытия должно быть раньше времени закрытия" })
        .waitFor();
      await monday.getByLabel("Понедельник: открытие").fill("10:00");
      await monday.getByLabel("Понедельник: закрытие").fill("19:00");
      await page.getByRole("button", { name: "Сохранить" }).click();
      await page.getByTestId("toast").filter({ hasText: "Настройки сохранены" }).waitFor();
      const saved = await session.get("/api/admin/settings");
      assert.equal(saved.workSchedule.days[6], null);
      assert.deepEqual(saved.workSchedule.days[0], { open: "10:00", close: "19:00" });
      await page.context().close();
    } finally {
      await settings.restore();
    }
  });
});

async function fillContact(dialog, name) {
  await dialog.locator('input[name="name"]').fill(name);
  await dialog.locator('input[name="phone"]').fill("+7 (921) 555-12-34");
  await dialog.locator('input[name="consent"]').check();
}
