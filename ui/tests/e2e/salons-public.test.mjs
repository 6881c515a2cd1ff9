// Several salons on the public site (issue 46): the owner adds a second
// salon with its own phone, place and hours, and moves a car there; then a
// visitor sees
// - on the car's page the car's salon: its name, address (a map link) and
//   phone, and the page's phone for requests is that salon's;
// - on the car's card in a list the salon's name;
// - in the catalogue a «Салон» filter: the second salon shows the car, and
//   the page's address carries salon=;
// - on a general form (trade-in) a «Салон *» select of every salon with its
//   hours now; the choice is sent as salonId and the consent link opens the
//   chosen salon's text.
// The salon and the move are undone at the end.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { apiSession, cleanup, mark } from "./admin-helpers.mjs";
import { DESKTOP, start } from "./harness.mjs";

let s;
let session;
let undo;
let salon;
let car;

before(async () => {
  s = await start();
  session = await apiSession(s.base);
  undo = cleanup(session);
  const name = `Салон ${mark("north")}`;
  salon = await session.post("/api/admin/salons", {
    name,
    address: "Выборгское ш., 5",
    fullAddress: "Санкт-Петербург, Выборгское шоссе, 5",
    latitude: 60.05,
    longitude: 30.33,
    phone: "+7 (812) 555-46-46",
    workSchedule: {
      days: [
        { open: "08:00", close: "20:00" },
        { open: "08:00", close: "20:00" },
        { open: "08:00", close: "20:00" },
        { open: "08:00", close: "20:00" },
        { open: "08:00", close: "20:00" },
        { open: "10:00", close: "16:00" },
        null,
      ],
    },
  });
  undo.track(`/api/admin/salons/${salon.id}`);
  [car] = await s.api("/api/cars/fast?status=new&sort=price_asc&limit=1");
  await session.put(`/api/admin/cars/${car.id}/salon`, { salonId: salon.id });
  undo.undo(() => session.put(`/api/admin/cars/${car.id}/salon`, { salonId: 1 }));
});

after(async () => {
  await undo?.run();
  await s?.stop();
});

describe("several salons on the public site", () => {
  it("the car's page names the car's salon, its address on the map and its phone", async () => {
    const page = await s.open(DESKTOP, `/car/${car.slug}`);
    const block = page.locator("section.car-salon");
    await block.getByText(salon.name).waitFor();
    const text = await block.innerText();
    assert.match(text, /Санкт-Петербург, Выборгское шоссе, 5/);
    assert.ok(text.includes(salon.phone), `the salon's phone in «${text}»`);
    assert.match(text, /Часы работы/);
    const map = block.getByRole("link", { name: /Выборгское шоссе, 5.*на карте/ });
    assert.equal(
      await map.getAttribute("href"),
      "https://yandex.ru/maps/?pt=30.33,60.05&z=16&l=map",
    );
    const call = block.locator('a[href^="tel:"]');
    assert.equal(await call.getAttribute("href"), "tel:+78125554646");
    assert.equal(await call.locator(".salon-phone").count(), 1);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("the catalogue's «Салон» filter shows the salon's car and keeps salon= in the address", async () => {
    const page = await s.open(DESKTOP, "/new-cars");
    // The label holds the select: its name is «Салон» and the shown choice.
    const filter = page.getByRole("combobox", { name: /^Салон/ });
    const names = await filter.locator("option").allTextContents();
    assert.equal(names[0], "Все салоны");
    assert.ok(names.includes(salon.name), `«${salon.name}» among ${names}`);
    await filter.selectOption(String(salon.id));
    await page.waitForURL((url) => url.searchParams.get("salon") === String(salon.id));
    await page.getByTestId("count").getByText("Найдено: 1 автомобиль").waitFor();
    const card = page.getByTestId("car-card");
    assert.equal(await card.count(), 1);
    await card.getByRole("link", { name: car.name }).first().waitFor();
    await card.locator(".car-card-salon").getByText(salon.name).waitFor();
    // The card keeps its fixed height: the salon's lines leave its buttons whole.
    const [box, actions] = await Promise.all([
      card.boundingBox(),
      card.locator(".car-card-actions").boundingBox(),
    ]);
    assert.ok(actions.y + actions.height <= box.y + box.height, "the card's buttons are inside");
    // The same address drawn by the server.
    await page.reload();
    await page.getByTestId("count").getByText("Найдено: 1 автомобиль").waitFor();
    assert.equal(await filter.inputValue(), String(salon.id));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("a general form asks which salon, sends it and links its consent", async () => {
    const page = await s.open(DESKTOP, "/trade-in");
    const form = page.locator("form.lead-form");
    const choice = form.getByLabel("Салон *");
    await choice.locator("option", { hasText: salon.name }).waitFor({ state: "attached" });
    // Each salon with its hours now, once the browser has ordered them.
    await form
      .locator("option", { hasText: /\((открыт до|откроется|закрыт)/ })
      .first()
      .waitFor({ state: "attached" });
    const options = await choice.locator("option").allTextContents();
    assert.equal(options[0], "Выберите салон");
    assert.equal(options.length, 3, `${options}`);
    assert.ok(
      options.some((o) => o.startsWith(`${salon.name} — Выборгское ш., 5 (`)),
      `${options}`,
    );
    await choice.selectOption(String(salon.id));
    const consent = form.getByRole("link", { name: "согласие на обработку персональных данных" });
    assert.equal(await consent.getAttribute("href"), `/consent?salon=${salon.id}`);

    let sent;
    await page.route("**/api/leads", async (route) => {
      sent = route.request().postDataJSON();
      await route.fulfill({ status: 201, contentType: "application/json", body: "{}" });
    });
    await form.getByLabel("Марка автомобиля").fill("Lada");
    await form.getByLabel("Ваше имя *").fill("Проверка Салонов");
    await form.getByLabel("Телефон *").fill("+7 900 123-45-67");
    await form.getByRole("checkbox", { name: /согласие на обработку/ }).check();
    await form.getByRole("button", { name: "Оценить автомобиль" }).click();
    await page.getByText("Заявка отправлена", { exact: false }).first().waitFor();
    assert.equal(sent?.salonId, salon.id);
    assert.deepEqual(page.errors, []);
    // The consent link's page shows the chosen salon's text.
    await page.goto(`${s.base}/consent?salon=${salon.id}`);
    await page.getByText(/Редакция №/).waitFor();
    await page.context().close();
  });
});
