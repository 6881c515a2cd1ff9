// Texts fit their boxes (issue 43, "Polish"), measured at 320, 390 and
// 1366 px: a brand chip shows its whole name, no word is broken inside
// (the car page's tiles, /compare), the compare table shows two cars'
// names whole on a phone, the team's hours hold «09:00 PM» of a 12-hour
// locale, a settings field's hint and error sit below its input, home's
// promotions fill their row whatever their count, and an error toast never
// covers the credit dialog's «Отправить заявку».
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ADMIN, loginViaForm } from "./admin-helpers.mjs";
import { start } from "./harness.mjs";

const WIDTHS = [320, 390, 1366];
const HEIGHT = 844;

let s;
before(async () => {
  s = await start();
});
after(() => s?.stop());

/** Words (letters and digits) inside `selector` drawn on more than one line:
 * broken inside. Runs in the page. */
function brokenWords(selector) {
  const out = [];
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/[\p{L}\p{N}]+/gu)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set(
          [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)),
        );
        if (lines.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}

/** Whether two boxes share any area. */
const intersect = (a, b) =>
  Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 &&
  Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5;

describe("texts fit their boxes", () => {
  it("every brand chip on /new-cars shows its whole name", async () => {
    const page = await s.open({ width: WIDTHS[0], height: HEIGHT }, "/new-cars");
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      const chips = await page.locator(".brand-strip .chip").evaluateAll((els) =>
        els.map((el) => ({
          name: el.textContent.trim(),
          fits: el.scrollWidth <= el.clientWidth,
        })),
      );
      assert.ok(chips.length > 5, "the demo's brands are shown");
      const cut = chips.filter((c) => !c.fits).map((c) => c.name);
      assert.deepEqual(cut, [], `at ${width}px, chips cut: ${cut.join(", ")}`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("a car page's tiles and specs break no word («Передний»)", async () => {
    const cars = await s.api("/api/cars/fast?status=new&limit=100");
    const front = cars.filter((c) => c.drivetrain === "front" && c.transmission === "manual");
    assert.ok(front.length > 0, "a new car with a front drive and a manual gearbox");
    const page = await s.open({ width: WIDTHS[0], height: HEIGHT });
    for (const car of front.slice(0, 2)) {
      await page.goto(`${s.base}/car/${car.slug}`);
      await page.locator(".spec-tiles").waitFor();
      const tiles = await page.locator(".spec-tiles").innerText();
      assert.ok(tiles.includes("Передний") && tiles.includes("Механика"), tiles);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: HEIGHT });
        const broken = await page.evaluate(brokenWords, ".spec-tiles, .spec-sections");
        assert.deepEqual(broken, [], `${car.slug} at ${width}px`);
      }
    }
    await page.context().close();
  });

  it("/compare breaks no word and shows two cars' names whole on a phone", async () => {
    const cars = await s.api("/api/cars/fast?status=new,used&limit=100");
    const title = (c) => `${c.brandName} ${c.name}`;
    const longest = [...cars].sort((a, b) => title(b).length - title(a).length);
    const toyota = cars.find((c) => c.brandName === "Toyota");
    assert.ok(toyota, "a Toyota in the demo");
    const two = [toyota, longest[0]];
    const four = [toyota, ...longest.filter((c) => c.slug !== toyota.slug).slice(0, 3)];
    const page = await s.open({ width: WIDTHS[0], height: HEIGHT });
    for (const [chosen, widths] of [
      [two, [390, 1366]],
      [four, [1366]],
    ]) {
      await page.goto(`${s.base}/compare?cars=${chosen.map((c) => c.slug).join(",")}`);
      await page.locator(".compare-table").waitFor();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: HEIGHT });
        const broken = await page.evaluate(brokenWords, ".compare-table");
        assert.deepEqual(broken, [], `${chosen.length} cars at ${width}px`);
        // The summary («Автомобилей: 4. …») wraps within the screen, however
        // wide the table.
        const summary = await page.evaluate(() => {
          const r = document.querySelector(".compare-summary").getBoundingClientRect();
          return { right: r.right, screen: document.documentElement.clientWidth };
        });
        assert.ok(
          summary.right <= summary.screen + 0.5,
          `${chosen.length} cars at ${width}px: the summary ends at ${summary.right}`,
        );
        if (!widths.includes(width)) continue;
        // Each car's name lies wholly inside the table's window: none is cut.
        const cut = await page.evaluate(() => {
          const view = document.querySelector(".compare-scroll").getBoundingClientRect();
          return [...document.querySelectorAll(".compare-car a")]
            .filter((a) => {
              const r = a.getBoundingClientRect();
              return r.left < view.left - 0.5 || r.right > view.right + 0.5;
            })
            .map((a) => a.textContent);
        });
        assert.deepEqual(cut, [], `${chosen.length} cars at ${width}px: names cut`);
      }
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("home's promotions fill their row whatever their count", async () => {
    const active = (await s.api("/api/promotions")).filter((p) => p.isActive).map((p) => p.id);
    assert.ok(active.length >= 3, "the demo has three promotions or more");
    const page = await s.open({ width: 1366, height: HEIGHT });
    const hidden = [];
    try {
      for (const count of [3, 2, 1]) {
        // Only `count` stay in the list for now.
        for (const id of active.slice(count).filter((id) => !hidden.includes(id))) {
          hidden.push(id);
          s.write("UPDATE promotions SET is_active = 0 WHERE id = ?", [id]);
        }
        await page.setViewportSize({ width: 1366, height: HEIGHT });
        await page.goto(`${s.base}/`);
        const cards = page.getByTestId("promotion");
        await cards.first().waitFor();
        assert.equal(await cards.count(), count);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: HEIGHT });
          const gap = await page.evaluate(() => {
            const grid = document.querySelector(".promo-grid").getBoundingClientRect();
            const right = Math.max(
              ...[...document.querySelectorAll(".promo-card")].map(
                (c) => c.getBoundingClientRect().right,
              ),
            );
            return grid.right - right;
          });
          assert.ok(gap <= 1, `${count} promotions at ${width}px leave ${gap}px empty`);
        }
      }
    } finally {
      for (const id of hidden) s.write("UPDATE promotions SET is_active = 1 WHERE id = ?", [id]);
    }
    await page.context().close();
  });

  it("an error toast never covers the credit dialog's «Отправить заявку» on a phone", async () => {
    const page = await s.open({ width: 390, height: 844 }, "/new-cars");
    const card = page.getByTestId("car-card").first();
    await card.getByRole("button", { name: /^Кредит/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Заявка на автокредит" }).waitFor();
    const submit = dialog.getByRole("button", { name: "Отправить заявку" });
    const toast = page.getByTestId("toast");

    /** The toast `text` shown: it and the button do not overlap, and a tap
     * on the button reaches it. */
    async function clear(text) {
      await toast.filter({ hasText: text }).waitFor();
      await submit.scrollIntoViewIfNeeded();
      const button = await submit.boundingBox();
      const shown = await toast.boundingBox();
      assert.ok(!intersect(button, shown), `the toast ${JSON.stringify(shown)} covers the button`);
      const reached = await submit.evaluate((b) => {
        const r = b.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!hit && b.contains(hit);
      });
      assert.ok(reached, "a tap on the button's centre reaches it");
    }

    // A validation error.
    await submit.click();
    await clear("Пожалуйста, заполните обязательные поля");
    // The server fails.
    await dialog.locator('input[name="name"]').fill("Иван Петров");
    await dialog.locator('input[name="phone"]').fill("+7 921 555-12-34");
    await dialog.locator('input[name="consent"]').check();
    await page.route("**/api/leads", (route) => route.abort());
    await submit.click();
    await clear("Не удалось отправить заявку");
    // The button still works: a second try reaches the server.
    const tried = page.waitForRequest("**/api/leads");
    await submit.click();
    await tried;
    await page.context().close();
  });
});

describe("the panel's fields fit", () => {
  it("the team's hours hold «09:00 PM» of a 12-hour locale", async () => {
    const page = await s.open({ width: WIDTHS[0], height: HEIGHT }, undefined, {
      locale: "en-US",
    });
    await loginViaForm(page, s.base, "/admin/users", ADMIN);
    await page.getByRole("button", { name: "Добавить пользователя" }).click();
    const dialog = page.getByTestId("user-dialog");
    await dialog.getByLabel("Свои часы").check();
    const times = dialog.getByTestId("user-schedule").locator('input[type="time"]');
    await times.first().waitFor();
    await times.nth(1).fill("21:00");
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      const short = await times.evaluateAll((inputs) =>
        inputs
          .filter((input) => !input.disabled)
          .map((input) => {
            const style = getComputedStyle(input);
            const px = (v) => Number.parseFloat(v);
            const rem = px(getComputedStyle(document.documentElement).fontSize);
            // The clock's room after the text: pico's icon position (rem).
            const icon = px(style.getPropertyValue("--pico-icon-position")) * rem;
            const canvas = document.createElement("canvas").getContext("2d");
            canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            const text = canvas.measureText("09:00 PM").width;
            const room = input.clientWidth - px(style.paddingLeft) - px(style.paddingRight);
            return { room, need: text + icon };
          })
          .filter(({ room, need }) => room + 0.5 < need),
      );
      assert.deepEqual(short, [], `at ${width}px a time input is too narrow`);
    }
    await page.context().close();
  });

  it("a settings field's error and hint sit below its input (ИНН), under «E-mail»", async () => {
    const page = await s.open({ width: WIDTHS[0], height: HEIGHT });
    await loginViaForm(page, s.base, "/admin/settings", ADMIN);
    await page.getByLabel(/^E-mail/).waitFor();
    assert.equal(await page.getByText("Email", { exact: true }).count(), 0, "no Latin «Email»");
    const inn = page.getByLabel("ИНН", { exact: true });
    await inn.fill("123");
    await page.getByRole("button", { name: "Сохранить", exact: true }).click();
    const error = page.locator(".field-error").filter({ hasText: "ИНН:" });
    await error.waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      assert.ok(!intersect(await error.boundingBox(), await inn.boundingBox()), `at ${width}px`);
      const over = await page.evaluate(() =>
        [...document.querySelectorAll(".field")].flatMap((field) => {
          const control = field.querySelector(":scope > :is(input, select, textarea)");
          if (!control) return [];
          const bottom = control.getBoundingClientRect().bottom;
          return [...field.querySelectorAll(":scope > small")]
            .filter((small) => small.getBoundingClientRect().top < bottom - 0.5)
            .map((small) => small.textContent.slice(0, 40));
        }),
      );
      assert.deepEqual(over, [], `at ${width}px these lie over their input`);
    }
    // Left as it was: nothing saved.
    await page.context().close();
  });

  it("a lead's details spell «E-mail»", async () => {
    const [lead] = s.query(
      "SELECT id FROM leads WHERE email IS NOT NULL AND email != '' ORDER BY created_at DESC LIMIT 1",
    );
    assert.ok(lead, "a demo lead with an e-mail");
    const page = await s.open({ width: 1366, height: HEIGHT });
    await loginViaForm(page, s.base, `/admin/leads?lead=${lead.id}`, ADMIN);
    const details = page.getByTestId("lead-details");
    await details.locator("dt").first().waitFor();
    const terms = await details.locator("dt").allInnerTexts();
    assert.ok(terms.includes("E-mail"), terms.join(", "));
    assert.ok(!terms.includes("Email"), terms.join(", "));
    await page.context().close();
  });
});
