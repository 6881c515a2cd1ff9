// The home page's carousels answer the first click: every control of every
// item (a card's title, 'Подробнее', 'Кредит', the heart, the compare toggle,
// the photo arrows and dots; a brand tile) is clicked once with the mouse
// while its item sticks out of the window, as when a visitor scrolls the
// page and clicks what they see, and does what it says at once.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DESKTOP, PHONE, start } from "./harness.mjs";

let s;
before(async () => {
  s = await start();
});
after(() => s?.stop());

const CAROUSELS = ["Марки", "Популярные модели", "Каталог автомобилей"];

const track = (page, label) => page.locator(`.carousel-track[aria-label="${label}"]`);

/** Every control of an item, each with a name for messages and what a click
 * must do; a card's two buttons ('Подробнее', 'Кредит') first. */
async function controls(item) {
  const out = [];
  const clickable = item.locator("a[href], button");
  const n = await clickable.count();
  for (let i = 0; i < n; i++) {
    const el = clickable.nth(i);
    // What is shown: a card's note for browsers without JavaScript (its
    // phone link) is not, with scripts on.
    if (!(await el.isVisible())) continue;
    const tag = await el.evaluate((e) => e.tagName.toLowerCase());
    const name =
      (await el.getAttribute("aria-label")) ?? (await el.innerText()).replace(/\s+/g, " ").trim();
    const main = /^(Подробнее|Кредит|Забронировать):/.test(name);
    if (tag === "a")
      out.push({ index: i, name, main, kind: "link", href: await el.getAttribute("href") });
    else if (await el.getAttribute("aria-pressed")) out.push({ index: i, name, kind: "toggle" });
    else if (main) out.push({ index: i, name, main, kind: "dialog" });
    else if (/фото/i.test(name)) out.push({ index: i, name, kind: "photo" });
    else out.push({ index: i, name, kind: "unknown" });
  }
  // An item with no card buttons (a brand tile) is its own link: that is its main control.
  if (!out.some((c) => c.main)) for (const c of out) c.main = true;
  return [...out.filter((c) => c.main), ...out.filter((c) => !c.main)];
}

/** Shows the item in its row (as the row's arrows would) and scrolls the page
 * so that the item sticks out of the window by 40 px, above or below,
 * whichever the page can scroll to and leaves more of the control in sight. Answers the middle of what
 * is seen of the control. */
async function placeForClick(item, control) {
  await item.evaluate((el) => {
    const row = el.parentElement;
    row.scrollLeft = el.offsetLeft - row.offsetLeft - 8;
  });
  return control.evaluate((el) => {
    const over = 40;
    const header = document.querySelector(".site-header").getBoundingClientRect().bottom;
    const card = el.closest(".carousel-item").getBoundingClientRect();
    const c = el.getBoundingClientRect();
    const seen = (cardTop) => {
      const top = Math.max(c.top - card.top + cardTop, header);
      const bottom = Math.min(c.bottom - card.top + cardTop, innerHeight);
      return { top, bottom, height: bottom - top };
    };
    // Where the page can scroll to (a row near the top cannot go low).
    const room = (cardTop) => {
      const y = scrollY + card.top - cardTop;
      return y >= 0 && y <= document.documentElement.scrollHeight - innerHeight;
    };
    const [cardTop] = [-over, innerHeight + over - card.height]
      .filter(room)
      .sort((a, b) => seen(b).height - seen(a).height);
    window.scrollBy(0, card.top - cardTop);
    const k = el.closest(".carousel-item").getBoundingClientRect();
    const row = el.closest(".carousel-track").getBoundingClientRect();
    const r = el.getBoundingClientRect();
    // What is seen of it: below the header, inside the window and the row.
    const top = Math.max(r.top, header);
    const bottom = Math.min(r.bottom, innerHeight);
    const left = Math.max(r.left, row.left, 0);
    const right = Math.min(r.right, row.right, innerWidth);
    return {
      x: (left + right) / 2,
      y: (top + bottom) / 2,
      sticksOut: k.top < 0 || k.bottom > innerHeight,
      visible: bottom - top >= 10 && right - left >= 10,
    };
  });
}

async function homeReady(page) {
  for (const label of CAROUSELS)
    await track(page, label).locator(".carousel-item").first().waitFor();
}

for (const [size, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
]) {
  describe(`home carousels at ${size} width`, () => {
    for (const label of CAROUSELS) {
      it(`${label}: every control of every item works on the first click`, async () => {
        const page = await s.open(viewport, "/");
        await homeReady(page);
        const items = track(page, label).locator(":scope > .carousel-item");
        const count = await items.count();
        assert.ok(count > 0, `${label}: no items`);
        const failures = [];
        let clicks = 0;
        // A broken row fails on its first few clicks: six are enough to say so.
        for (let i = 0; i < count && failures.length < 6; i++) {
          const item = items.nth(i);
          // Every item's own buttons; the other controls (links, heart,
          // compare, photo dots) of the first three, which show the rest.
          for (const c of await controls(item)) {
            if (failures.length >= 6) break;
            if (!c.main && i >= 3) continue;
            assert.notEqual(c.kind, "unknown", `${label}: a control I do not know: ${c.name}`);
            const control = item.locator("a[href], button").nth(c.index);
            if (c.kind === "photo" && (await control.getAttribute("aria-current"))) continue;
            const was = {
              pressed: await control.getAttribute("aria-pressed"),
              photo: c.kind === "photo" ? await photoAfter(item, c.name) : null,
            };
            const at = await placeForClick(item, control);
            assert.ok(at.visible, `${label} #${i + 1} ${c.name}: not in the window to click`);
            assert.ok(at.sticksOut, `${label} #${i + 1} ${c.name}: the item does not stick out`);
            const where = `${label} #${i + 1} "${c.name}"`;
            await page.mouse.click(at.x, at.y);
            clicks++;
            const ok = await effect(page, item, control, c, was).catch(() => false);
            if (!ok) failures.push(where);
            await undo(page, control, c);
          }
        }
        assert.deepEqual(failures, [], `first clicks that did nothing (of ${clicks} made)`);
        assert.ok(clicks >= count, `${label}: ${clicks} clicks for ${count} items`);
        assert.deepEqual(page.errors, []);
        await page.context().close();
      });
    }
  });
}

const QUICK = { timeout: 1500 };

/** The photo a gallery control must show: the one before or after the
 * current one (wrapping around), or the dot's own. */
async function photoAfter(item, name) {
  const gallery = item.locator(".card-gallery");
  const index = Number(await gallery.getAttribute("data-index"));
  const count = await gallery.locator(".dot").count();
  if (name === "Предыдущее фото") return (index - 1 + count) % count;
  if (name === "Следующее фото") return (index + 1) % count;
  return Number(name.replace(/\D/g, "")) - 1;
}

/** Whether the click did what the control says. */
async function effect(page, item, control, c, was) {
  switch (c.kind) {
    case "link":
      await page.waitForURL((u) => u.pathname === c.href, QUICK);
      return true;
    case "dialog": {
      const dialog = page.getByRole("dialog");
      await dialog.waitFor(QUICK);
      const heading = c.name.startsWith("Кредит") ? "Заявка на автокредит" : "Бронирование";
      return (await dialog.innerText()).includes(heading);
    }
    case "toggle":
      await page.waitForFunction(
        ([el, was]) => el.getAttribute("aria-pressed") !== was,
        [await control.elementHandle(), was.pressed],
        QUICK,
      );
      return true;
    case "photo": {
      const gallery = await item.locator(".card-gallery").elementHandle();
      await page.waitForFunction(
        ([el, want]) => el.dataset.index === String(want),
        [gallery, was.photo],
        QUICK,
      );
      return true;
    }
  }
  return false;
}

/** Back to where the page was before the click, without another click. */
async function undo(page, control, c) {
  if (c.kind === "link" && new URL(page.url()).pathname !== "/") {
    await page.goBack();
    await homeReady(page);
  } else if (c.kind === "dialog" && (await page.getByRole("dialog").count())) {
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
  } else if (c.kind === "toggle" && (await control.getAttribute("aria-pressed")) === "true") {
    // The compare list holds four cars: take this one out again.
    await control.press("Space");
    await page.waitForFunction(
      (el) => el.getAttribute("aria-pressed") === "false",
      await control.elementHandle(),
    );
  }
}
