// Accessibility, checked on every build (docs/accessibility.md): axe-core's
// WCAG 2.1 A and AA rules on every public route at 1366 and 360 px, with
// each request dialog open and its errors shown, in the dark theme, and on
// every admin screen; pages reflow at 320 px and at 200% zoom.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations, settled } from "./a11y.mjs";
import { apiSession, SESSION_COOKIE, useSession } from "./admin-helpers.mjs";
import { start } from "./harness.mjs";

const WIDE = { width: 1366, height: 900 };
const NARROW = { width: 360, height: 740 };

let s;
let routes;
before(async () => {
  s = await start();
  const [newCar] = await s.api("/api/cars/fast?status=new&limit=1");
  const [usedCar] = await s.api("/api/cars/fast?status=used&limit=1");
  const brand = (await s.api("/api/brands/fast")).find((b) => b.carCount > 0);
  routes = [
    "/",
    "/new-cars",
    "/used-cars",
    "/lease-cars",
    "/trade-in",
    "/auto-credit",
    "/auto-selection",
    `/car/${newCar.slug}`,
    `/car/${usedCar.slug}`,
    `/brand/${brand.slug}`,
    "/body-type/crossover",
    "/consent",
    "/privacy",
    "/favorites",
    `/compare?cars=${newCar.slug},${usedCar.slug}`,
    "/no-such-page",
  ];
});
after(() => s?.stop());

/** Opens a dialog with `open`, checks it, submits it empty so every field
 * shows its error, checks again and closes it with Escape. With `inPage`
 * the form opens in the page instead (the admin's promotion form). */
async function checkDialog(page, where, open, { inPage = false } = {}) {
  await open();
  const scope = page.locator(inPage ? "main form" : "dialog[open]");
  await scope.waitFor({ timeout: 10_000 }).catch((e) => {
    throw new Error(`${where}: no form opened (${e.message.split("\n")[0]})`);
  });
  await expectNoViolations(page, `${where}, form open`);
  const submit = scope.locator('button[type="submit"]');
  if (await submit.count()) {
    await submit.click();
    await scope.locator('[aria-invalid="true"]').first().waitFor();
    await expectNoViolations(page, `${where}, form with errors`);
  }
  if (inPage) return;
  await page.keyboard.press("Escape");
  await scope.waitFor({ state: "detached" }).catch(() => scope.waitFor({ state: "hidden" }));
}

for (const [label, viewport] of [
  ["1366 px", WIDE],
  ["360 px", NARROW],
]) {
  describe(`axe at ${label}`, () => {
    it("every public route", async () => {
      const page = await s.open(viewport);
      for (const path of routes) {
        await page.goto(s.base + path);
        await settled(page);
        await expectNoViolations(page, `${path} at ${label}`);
      }
      await page.context().close();
    });

    it("every request dialog open and with its errors, and the phone menu", async () => {
      const page = await s.open(viewport);
      const car = routes.find((r) => r.startsWith("/car/"));
      await page.goto(s.base + car);
      await settled(page);
      for (const name of ["Trade-In", "Кредит", "Рассрочка", "Записаться на тест-драйв"]) {
        await checkDialog(page, `${car} ${name} at ${label}`, () =>
          page.getByRole("button", { name, exact: true }).click(),
        );
      }
      await page.goto(`${s.base}/new-cars`);
      await settled(page);
      await checkDialog(page, `card credit at ${label}`, () =>
        page
          .getByTestId("car-card")
          .first()
          .getByRole("button", { name: /^Кредит/ })
          .click(),
      );
      await page.goto(`${s.base}/lease-cars`);
      await settled(page);
      await checkDialog(page, `lease booking at ${label}`, () =>
        page
          .getByTestId("car-card")
          .first()
          .getByRole("button", { name: /^Забронировать/ })
          .click(),
      );
      await page.goto(`${s.base}/auto-credit`);
      await settled(page);
      await checkDialog(page, `auto credit at ${label}`, () =>
        page.locator("main").getByRole("button", { name: /заявк/i }).first().click(),
      );
      await page.goto(`${s.base}/auto-selection`);
      await settled(page);
      await checkDialog(page, `selection at ${label}`, () =>
        page.getByRole("button", { name: "Подобрать автомобиль" }).click(),
      );
      await page.goto(`${s.base}/trade-in`);
      await settled(page);
      await page.locator('input[name="name"]').fill("Иван");
      await page.locator('input[name="phone"]').fill("+7 921 555 12 34");
      await page.getByRole("button", { name: "Оценить автомобиль" }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
      await expectNoViolations(page, `/trade-in with errors at ${label}`);
      if (viewport === NARROW) {
        await page.getByRole("button", { name: "Открыть меню" }).click();
        await page.locator("dialog#drawer[open]").waitFor();
        await expectNoViolations(page, `phone menu at ${label}`);
      }
      await page.context().close();
    });
  });
}

describe("the brand's colours", () => {
  it("buttons and links of the car page use the palette, not pico's blue", async () => {
    const page = await s.open(
      WIDE,
      routes.find((r) => r.startsWith("/car/")),
    );
    await settled(page);
    const colours = await page.evaluate(() => {
      const style = (el) => getComputedStyle(el);
      const button = (name) =>
        [...document.querySelectorAll(".detail-actions button")].find(
          (b) => b.textContent.trim() === name,
        );
      return {
        primary: style(button("Кредит")).backgroundColor,
        outline: style(button("Trade-In")).color,
        secondary: style(button("Рассрочка")).backgroundColor,
        link: style(document.querySelector(".crumbs a")).color,
      };
    });
    assert.deepEqual(colours, {
      primary: "rgb(11, 61, 145)",
      outline: "rgb(11, 61, 145)",
      secondary: "rgb(74, 85, 104)",
      link: "rgb(11, 61, 145)",
    });
    await page.context().close();
  });
});

describe("axe in the dark theme", () => {
  it("home, catalogue, car page and the credit dialog", async () => {
    const page = await s.open(WIDE);
    // No colour transitions: axe reads the colours at once.
    await page.emulateMedia({ reducedMotion: "reduce" });
    for (const path of routes.filter(
      (r) => r === "/" || r === "/new-cars" || r.startsWith("/car/"),
    )) {
      await page.goto(s.base + path);
      await settled(page);
      await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
      await expectNoViolations(page, `${path} dark`);
    }
    await checkDialog(page, "dark credit dialog", () =>
      page.getByRole("button", { name: "Кредит", exact: true }).click(),
    );
    await page.context().close();
  });
});

describe("reflow", () => {
  it("no sideways scrolling at 320 px and at 200% zoom (683 px)", async () => {
    for (const viewport of [
      { width: 320, height: 640 },
      { width: 683, height: 450 },
    ]) {
      const page = await s.open(viewport);
      for (const path of routes) {
        await page.goto(s.base + path);
        await settled(page);
        const { scroll, client } = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        assert.ok(scroll <= client, `${path} at ${viewport.width} px: ${scroll} > ${client}`);
      }
      await page.context().close();
    }
  });
});

describe("admin screens", () => {
  it("every screen at both widths, and a form with its errors", async () => {
    const session = await apiSession(s.base);
    const screens = [
      "/admin",
      "/admin/cars",
      "/admin/brands",
      "/admin/reviews",
      "/admin/leads",
      "/admin/promotions",
      "/admin/partner-banks",
      "/admin/credit-programs",
      "/admin/page-banners",
      "/admin/auto-selection-banner",
      "/admin/body-types",
      "/admin/settings",
      "/admin/amocrm",
      "/admin/parser",
      "/admin/checks",
      "/admin/saved-searches",
    ];
    // A preview of an import, so the parser's report (counts, lists, row
    // errors) is checked too; dropped at the end.
    const preview = await importPreview(s.base, session);
    screens.push(`/admin/parser?run=${encodeURIComponent(preview.id)}`);
    try {
      for (const [label, viewport] of [
        ["1366 px", WIDE],
        ["360 px", NARROW],
      ]) {
        const page = await s.open(viewport);
        await useSession(page, s.base, session);
        for (const path of screens) {
          await page.goto(s.base + path);
          await settled(page);
          await expectNoViolations(page, `${path} at ${label}`);
        }
        for (const [path, button, inPage] of [
          ["/admin/brands", "Добавить марку"],
          ["/admin/cars", "Добавить автомобиль"],
          ["/admin/reviews", "Добавить отзыв"],
          ["/admin/promotions", "Добавить акцию", true],
          ["/admin/partner-banks", "Добавить банк"],
          ["/admin/credit-programs", "Добавить программу"],
          ["/admin/body-types", "Добавить тип кузова"],
          ["/admin/parser", "Добавить фид"],
        ]) {
          await page.goto(s.base + path);
          await settled(page);
          await checkDialog(
            page,
            `${path} «${button}» at ${label}`,
            () => page.getByRole("button", { name: button }).first().click(),
            { inPage },
          );
        }
        await page.context().close();
        // The login screen, logged out.
        const login = await s.open(viewport, "/admin");
        await login.getByLabel("Логин").waitFor();
        await expectNoViolations(login, `admin login at ${label}`);
        await login.getByRole("button", { name: "Войти" }).click();
        await login.locator('[aria-invalid="true"]').first().waitFor();
        await expectNoViolations(login, `admin login with errors at ${label}`);
        await login.context().close();
      }
    } finally {
      await session.del(`/api/admin/imports/${encodeURIComponent(preview.id)}`, { ok: false });
      await session.logout();
    }
  });
});

/** A preview of a small Auto.ru feed: a new car, one of a body type the
 * catalogue lacks and no drive (a new body type and warnings), and one bad
 * row. Nothing is written to the catalogue until it is applied (it never is
 * here). */
async function importPreview(base, session) {
  const car = (
    id,
    body,
    { price = "2575000", drive = "передний" } = {},
  ) => `<car><unique_id>${id}</unique_id><mark_id>Hyundai</mark_id>
<folder_id>Sonata A11y</folder_id><modification_id>2.0 AT (150 л.с.)</modification_id>
<body_type>${body}</body_type>${drive ? `<drive>${drive}</drive>` : ""}<year>2022</year><price>${price}</price>
<currency>RUR</currency></car>`;
  const cars = [
    car("a11y-1", "Седан"),
    car("a11y-2", "Кабриолет", { drive: null }),
    car("a11y-3", "Седан", { price: "дорого" }),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?><data><cars>${cars.join("")}</cars></data>`;
  const form = new FormData();
  form.append("file", new Blob([xml], { type: "text/xml" }), "a11y.xml");
  const r = await fetch(`${base}/api/admin/imports`, {
    method: "POST",
    headers: {
      Cookie: `${SESSION_COOKIE}=${session.token}`,
      "X-CSRF-Token": session.csrfToken,
      Accept: "application/json",
    },
    body: form,
  });
  if (!r.ok) throw new Error(`import preview: ${r.status} ${await r.text()}`);
  return r.json();
}
