// Keyboard journeys (docs/accessibility.md): every Tab stop shows a focus
// ring of 3:1, the car page's 'Кредит' is reached and a credit request sent
// with the keyboard alone, the phone menu and every dialog are modal and
// give focus back to what opened them; card photo controls stay out of the
// Tab order; carousels do not slide for those who asked for less motion.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectVisibleFocus, focused, settled, tabTo } from "./a11y.mjs";
import { apiSession, useSession } from "./admin-helpers.mjs";
import { start } from "./harness.mjs";

const WIDE = { width: 1366, height: 900 };
const NARROW = { width: 360, height: 740 };

let s;
let car;
before(async () => {
  s = await start();
  // A car with several photos, so its gallery has arrows and thumbnails.
  const cars = await s.api("/api/cars/fast?status=new&limit=20");
  car = cars.find((c) => c.images.length > 1) ?? cars[0];
});
after(() => s?.stop());

const isActive = (selector) => `document.activeElement?.matches(${JSON.stringify(selector)})`;
const activeInDialog = () => document.activeElement?.closest("dialog[open]") != null;

describe("focus you can see", () => {
  it("every Tab stop of the home page shows a ring, on light and dark parts alike", async () => {
    const page = await s.open(WIDE, "/");
    await settled(page);
    for (let i = 1; i <= 45; i++) {
      await page.keyboard.press("Tab");
      await expectVisibleFocus(page, `home Tab ${i} (${await focused(page)})`);
    }
    // The carousel arrows keep their ring (their own shadow does not replace it).
    const arrow = page.locator(".carousel-arrow").first();
    if (await arrow.count()) {
      await arrow.focus();
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Tab");
      await expectVisibleFocus(page, "carousel arrow");
    }
    await page.context().close();
  });

  it("the footer's links and the phone menu show a ring too", async () => {
    const page = await s.open(NARROW, "/");
    await settled(page);
    await page.locator(".site-footer a").last().focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expectVisibleFocus(page, "footer link");
    await page.context().close();
  });
});

describe("the car page by keyboard", () => {
  it("reaches 'Кредит' by Tab and sends a credit request with the keyboard alone", async () => {
    const page = await s.open(WIDE, `/car/${car.slug}`);
    await settled(page);
    const presses = await tabTo(
      page,
      `(${isActive(".detail-actions button")}) && document.activeElement.textContent.trim() === "Кредит"`,
      {
        max: 30,
        where: "car page",
      },
    );
    assert.ok(presses <= 30, `'Кредит' is ${presses} Tabs away`);
    await page.keyboard.press("Enter");
    await page.locator("dialog[open]").waitFor();
    assert.ok(await page.evaluate(activeInDialog), "focus moved into the dialog");

    // Name and phone by keyboard, consent forgotten: the error is at the
    // consent box and focus goes there.
    await tabTo(page, isActive('input[name="name"]'), { max: 5, where: "dialog" });
    await page.keyboard.type("Клавиатурный Тест");
    await page.keyboard.press("Tab");
    assert.match(await focused(page), /phone/);
    await page.keyboard.type("+7 921 555 77 66");
    await tabTo(page, isActive('button[type="submit"]'), { max: 8, where: "dialog" });
    await page.keyboard.press("Enter");
    await page.getByTestId("toast").filter({ hasText: "Необходимо согласие" }).waitFor();
    assert.match(await focused(page), /consent/, "focus on the first wrong field");
    const consent = page.locator('dialog[open] input[name="consent"]');
    assert.equal(await consent.getAttribute("aria-invalid"), "true");
    const describedBy = await consent.getAttribute("aria-describedby");
    assert.match(
      await page.locator(`[id="${describedBy}"]`).innerText(),
      /Необходимо согласие на обработку персональных данных/,
    );
    await page.keyboard.press("Space");
    assert.equal(await consent.getAttribute("aria-invalid"), null, "ticking clears the error");
    await tabTo(page, isActive('button[type="submit"]'), { max: 8, where: "dialog" });
    await page.keyboard.press("Enter");
    await page
      .locator("dialog[open]")
      .waitFor({ state: "detached", timeout: 10_000 })
      .catch(() => {});
    assert.match(await page.getByTestId("toast").innerText(), /Заявка отправлена/);
    await page.locator("dialog[open]").waitFor({ state: "detached" });
    assert.equal(await focused(page), "button  Кредит", "focus back on 'Кредит'");
    const [lead] = s.query("SELECT type, name, phone FROM leads WHERE name = ?", [
      "Клавиатурный Тест",
    ]);
    assert.deepEqual(lead, {
      type: "auto_credit",
      name: "Клавиатурный Тест",
      phone: "+79215557766",
    });
    await page.context().close();
  });

  it("a wrong name and phone: each field says its message, focus on the first", async () => {
    const page = await s.open(NARROW, `/car/${car.slug}`);
    await settled(page);
    await page.getByRole("button", { name: "Рассрочка", exact: true }).click();
    const dialog = page.locator("dialog[open]");
    await dialog.locator('input[name="phone"]').fill("12345");
    await dialog.getByRole("button", { name: "Отправить заявку" }).click();
    await page.getByTestId("toast").waitFor();
    assert.match(await focused(page), /name/);
    for (const [field, message] of [
      ["name", "Пожалуйста, заполните обязательные поля"],
      ["phone", "Номер телефона должен начинаться с +7 или 8 и содержать 11 цифр"],
      ["consent", "Необходимо согласие на обработку персональных данных"],
    ]) {
      const input = dialog.locator(`input[name="${field}"]`);
      assert.equal(await input.getAttribute("aria-invalid"), "true", field);
      const id = await input.getAttribute("aria-describedby");
      assert.equal(await page.locator(`[id="${id}"]`).innerText(), message, field);
    }
    for (const field of ["name", "phone", "consent"]) {
      const input = dialog.locator(`input[name="${field}"]`);
      assert.equal(await input.getAttribute("required"), "", `${field} is required`);
    }
    await page.context().close();
  });

  it("each dialog of the car page gives focus back, by Escape and by ×", async () => {
    const page = await s.open(WIDE, `/car/${car.slug}`);
    await settled(page);
    for (const name of ["Trade-In", "Кредит", "Рассрочка"]) {
      for (const close of ["Escape", "×"]) {
        const button = page.getByRole("button", { name, exact: true });
        await button.focus();
        await page.keyboard.press("Enter");
        await page
          .locator("dialog[open]")
          .waitFor({ timeout: 5000 })
          .catch(async () =>
            assert.fail(`${name} (${close}): no dialog; focus on ${await focused(page)}`),
          );
        assert.ok(await page.evaluate(activeInDialog), `${name}: focus moved in`);
        // Tab stays inside.
        for (let i = 0; i < 12; i++) {
          await page.keyboard.press("Tab");
          assert.ok(await page.evaluate(activeInDialog), `${name}: Tab ${i + 1} left the dialog`);
        }
        if (close === "Escape") await page.keyboard.press("Escape");
        else await page.locator("dialog[open]").getByRole("button", { name: "Закрыть" }).click();
        await page.locator("dialog[open]").waitFor({ state: "detached" });
        assert.equal(await focused(page), `button  ${name}`, `${name} (${close}): focus back`);
      }
    }
    await page.context().close();
  });
});

describe("a wrong value at its field", () => {
  it("the trade-in page's year: the server's rule checked in the form, message below the field, focus on it", async () => {
    const page = await s.open(NARROW, "/trade-in");
    await settled(page);
    const sent = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/leads") sent.push(r.method());
    });
    assert.equal(
      await page.locator('input[name="carYear"]').getAttribute("min"),
      "1950",
      "the input's own minimum is the rule's",
    );
    const before = s.query("SELECT count(*) AS n FROM leads")[0].n;
    await page.locator('input[name="carYear"]').fill("1800");
    await page.locator('input[name="name"]').fill("Год Проверка");
    await page.locator('input[name="phone"]').fill("+7 921 555 11 22");
    await page.locator('input[name="consent"]').check();
    await page.getByRole("button", { name: "Оценить автомобиль" }).click();
    const year = page.locator('input[name="carYear"]');
    await page.locator('input[name="carYear"][aria-invalid="true"]').waitFor();
    const id = await year.getAttribute("aria-describedby");
    assert.match(
      await page.locator(`[id="${id}"]`).innerText(),
      /^Год выпуска должен быть от 1950 до \d{4}$/,
    );
    assert.match(await focused(page), /carYear/);
    assert.match(await page.getByTestId("toast").innerText(), /Год выпуска/);
    assert.equal(s.query("SELECT count(*) AS n FROM leads")[0].n, before);
    assert.deepEqual(sent, [], "nothing was sent");
    // Correcting the value clears the message.
    await year.fill("2015");
    assert.equal(await year.getAttribute("aria-invalid"), null);
    await page.context().close();
  });
});

describe("the phone menu", () => {
  it("opens with focus inside, keeps Tab inside, closes on Escape back to the burger", async () => {
    const page = await s.open(NARROW, "/");
    await settled(page);
    const burger = page.getByRole("button", { name: "Открыть меню" });
    await tabTo(page, isActive(".burger"), { max: 10, where: "phone header" });
    await page.keyboard.press("Enter");
    await page.locator("dialog#drawer[open]").waitFor();
    assert.equal(await burger.getAttribute("aria-expanded"), "true");
    assert.ok(await page.evaluate(activeInDialog), "focus in the menu");
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press("Tab");
      assert.ok(await page.evaluate(activeInDialog), `Tab ${i + 1} left the menu`);
      await expectVisibleFocus(page, `menu Tab ${i + 1}`);
    }
    // The page behind is inert: even a script cannot focus it.
    const stayed = await page.evaluate(() => {
      document.querySelector("main a, main button")?.focus();
      return document.activeElement?.closest("dialog[open]") != null;
    });
    assert.ok(stayed, "the page behind the menu took focus");
    await page.keyboard.press("Escape");
    await page.locator("dialog#drawer[open]").waitFor({ state: "detached" });
    assert.equal(await burger.getAttribute("aria-expanded"), "false");
    assert.match(await focused(page), /Открыть меню/);
    // A click on the backdrop closes it too.
    await burger.click();
    await page.locator("dialog#drawer[open]").waitFor();
    await page.mouse.click(10, 300);
    await page.locator("dialog#drawer[open]").waitFor({ state: "detached" });
    await page.context().close();
  });
});

describe("fewer stops, same reach", () => {
  it("card photo arrows and dots are out of the Tab order; the car page's are in it", async () => {
    const page = await s.open(WIDE, "/new-cars");
    await settled(page);
    const card = page.getByTestId("car-card").first();
    const stops = await card.evaluate((el) =>
      // Shown ones only: the note for a browser without JavaScript (its
      // phone link) is not displayed, so it is no stop.
      [...el.querySelectorAll("a, button, input, select, textarea, [tabindex]")]
        .filter((n) => n.tabIndex >= 0 && n.checkVisibility())
        .map((n) => n.getAttribute("aria-label") ?? n.textContent.trim()),
    );
    // Title, Details and Credit, and the heart and compare toggles over the photo.
    assert.equal(stops.length, 5, `a card's Tab stops: ${stops.join(", ")}`);
    assert.deepEqual(
      stops.filter((n) => !/^(В избранное|Сравнить):/.test(n)).length,
      3,
      `a card's Tab stops besides the toggles: ${stops.join(", ")}`,
    );
    assert.equal((await card.locator(".gallery-arrow, .dot").count()) > 0, true);
    await page.goto(`${s.base}/car/${car.slug}`);
    await settled(page);
    const arrows = page.locator(".detail-gallery .gallery-arrow");
    assert.equal(await arrows.count(), 2);
    assert.equal(await arrows.first().evaluate((b) => b.tabIndex), 0);
    await arrows.first().focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expectVisibleFocus(page, "car page gallery arrow");
    await page.context().close();
  });

  it("carousels jump instead of sliding when less motion is asked for", async () => {
    const page = await s.open(WIDE);
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`${s.base}/`);
    await settled(page);
    const next = page.locator(".carousel-arrow.next").first();
    await next.waitFor();
    const track = next.locator("xpath=..").locator(".carousel-track");
    await next.click();
    // No smooth scrolling: the new position is there at once.
    const left = await track.evaluate((t) => t.scrollLeft);
    assert.ok(left > 0, "the arrow scrolled the row");
    assert.equal(await track.evaluate((t) => getComputedStyle(t).scrollBehavior), "auto");
    await page.context().close();
  });
});

describe("admin dialogs give focus back", () => {
  it("a form dialog and its 'close without saving?' confirmation", async () => {
    const session = await apiSession(s.base);
    try {
      const page = await s.open(WIDE);
      await useSession(page, s.base, session);
      await page.goto(`${s.base}/admin/brands`);
      await settled(page);
      const add = page.getByRole("button", { name: "Добавить марку" }).first();
      await add.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByTestId("brand-dialog").or(page.locator("dialog.form-dialog[open]"));
      await dialog.first().waitFor();
      assert.ok(await page.evaluate(activeInDialog), "focus moved into the form");
      await page.keyboard.press("Escape");
      await page
        .locator("dialog[open]")
        .waitFor({ state: "detached" })
        .catch(() => {});
      assert.match(await focused(page), /Добавить марку/);
      // Dirty: Escape asks first; 'Продолжить редактирование' returns to the form.
      await add.click();
      await page.locator("dialog.form-dialog[open] input").first().fill("Несохранённая");
      await page.keyboard.press("Escape");
      const confirm = page.locator('[data-testid="confirm-dialog"][open]');
      await confirm.getByRole("button", { name: "Продолжить редактирование" }).waitFor();
      assert.match(await focused(page), /Продолжить редактирование/);
      await page.keyboard.press("Enter");
      await confirm.waitFor({ state: "detached" });
      assert.ok(await page.evaluate(activeInDialog), "back in the form");
      await page.keyboard.press("Escape");
      await confirm.getByRole("button", { name: "Закрыть" }).click();
      await page
        .locator("dialog.form-dialog[open]")
        .waitFor({ state: "detached" })
        .catch(() => {});
      assert.match(await focused(page), /Добавить марку/);
      await page.context().close();
    } finally {
      await session.logout();
    }
  });
});
