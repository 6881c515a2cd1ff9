// Each car's fate and figures in the admin (docs/marketplaces.md, "What the
// admin shows"): a marketplace's report and day figures are put in the
// server's database as the report jobs write them (no test route: with
// sqlite3, behind the server's back); the dashboard lists the refused car
// with the marketplace's words and links to it; the car's «Площадки» says
// each marketplace's fate and draws its days, with the figures in a table.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations } from "./a11y.mjs";
import { openAdmin } from "./admin.mjs";
import { apiSession, mark } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

let s;
let admin;
let car;
const REFUSAL = "Цвет «Серебристый» не из справочника Авито";

/** `YYYY-MM-DD`, `back` days before today in Moscow. */
function moscowDay(back) {
  const now = new Date(Date.now() + 3 * 3600_000 - back * 86_400_000);
  return now.toISOString().slice(0, 10);
}

before(async () => {
  s = await start();
  admin = await apiSession(s.base);
  const tag = mark("ploshchadki");
  const [brand] = await s.api("/api/brands/fast");
  car = await admin.post("/api/cars", {
    brandId: brand.id,
    name: `Площадки ${tag}`,
    slug: tag,
    model: "Отчёт",
    year: 2024,
    price: "1 990 000",
    status: "new",
    bodyType: "sedan",
    transmission: "automatic",
    fuelType: "gasoline",
    engine: "2.0 л",
    externalId: `ext-${tag}`,
  });
  const at = new Date().toISOString();
  s.write(
    `INSERT INTO marketplace_ads (channel, feed_id, car_id, market_id, status, messages, url, reported_at)
     VALUES ('avito', ?1, ?2, '4001', 'refused', json_array(?3), NULL, ?4),
            ('autoru', ?1, ?2, '1100-aa', 'published', '[]', 'https://auto.ru/cars/new/sale/1100-aa/', ?4)`,
    [`ext-${tag}`, car.id, REFUSAL, at],
  );
  s.write(
    `INSERT INTO car_channel_days (car_id, channel, day, views, contacts, favourites, calls)
     VALUES (?1, 'avito', ?2, 41, 3, 0, 1), (?1, 'avito', ?3, 17, 0, 0, 0),
            (?1, 'site', ?3, 9, 0, 0, 0)`,
    [car.id, moscowDay(1), moscowDay(0)],
  );
});

after(async () => {
  if (car) await admin.del(`/api/cars/${car.id}`, { ok: false });
  await s?.stop();
});

describe("the marketplaces in the admin", () => {
  it("lists a refused car on the dashboard and shows its fate and chart on the car", async () => {
    const page = await openAdmin(s, DESKTOP, "/admin", "Панель администратора");
    const refused = page.getByTestId("refused-card");
    const item = refused.getByTestId("refused-ad").filter({ hasText: car.name });
    await item.waitFor();
    assert.match(await item.innerText(), new RegExp(`Авито: отклонено — ${REFUSAL}`));
    await page.getByTestId("quiet-card").getByRole("heading").waitFor();
    await expectNoViolations(page, "the dashboard with its marketplace cards");

    // The link opens the car, and its «Площадки».
    await item.getByRole("link", { name: new RegExp(car.name) }).click();
    const dialog = page.getByTestId("car-dialog");
    const section = dialog.getByTestId("car-marketplaces");
    await section.getByRole("heading", { name: "Площадки" }).waitFor();
    const ads = section.getByTestId("car-ads");
    await ads.getByText(`Авито: отклонено — ${REFUSAL}`).waitFor();
    await ads.getByText("Авто.ру: опубликовано").waitFor();
    const open = ads.getByRole("link", { name: "Открыть на Авто.ру" });
    assert.equal(await open.getAttribute("href"), "https://auto.ru/cars/new/sale/1100-aa/");
    assert.match(await ads.innerText(), /Отчёт площадки: /);

    // A chart per channel, each with its figures for screen readers.
    const charts = section.getByTestId("figures-chart");
    assert.equal(await charts.count(), 3);
    const avito = section.locator('[data-testid="figures-chart"][data-channel="Авито"]');
    const image = avito.getByRole("img");
    assert.equal(
      await image.getAttribute("aria-label"),
      "График по дням: Авито за 30 дней: 58 просмотров, 3 обращения",
    );
    await avito.getByText("Цифры по дням: Авито").click();
    const row = avito.getByRole("row").filter({ hasText: moscowDay(1).slice(8, 10) });
    assert.match(await row.last().innerText(), /41\s+3/);
    const site = section.locator('[data-testid="figures-chart"][data-channel="Сайт"]');
    await site.getByText("Сайт за 30 дней: 9 просмотров, 0 обращений").waitFor();

    // 90 days: the same figures over a longer period.
    await section.getByRole("radio", { name: "90 дней" }).check();
    await section
      .locator('[data-testid="figures-chart"][data-channel="Авито"] svg')
      .and(page.locator('[aria-label^="График по дням: Авито за 90 дней"]'))
      .waitFor();
    await expectNoViolations(page, "the car's «Площадки»", '[data-testid="car-marketplaces"]');
    // The login page asks who is signed in first: 401 before the login.
    assert.deepEqual(
      page.errors.filter((e) => !e.includes("401")),
      [],
    );
  });
});
