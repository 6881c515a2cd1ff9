// The admin panel on a manager's phone (issue 43, item 14, docs/admin.md
// "On a phone"): the sections fold away behind a menu button (aria-expanded,
// focus into the menu, Escape back to the button), the first lead is on the
// first screen of a 390x844 phone with its phone one tap to call and its
// status one tap to change, the team's table becomes cards, and no admin
// screen scrolls sideways at 320, 390 or 430 px for any role.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectNoViolations, settled } from "./a11y.mjs";
import { ADMIN, apiSession, createStaff, mark, useSession } from "./admin-helpers.mjs";
import { PHONE, start } from "./harness.mjs";

let s;
const staff = {};
before(async () => {
  s = await start();
  for (const role of ["manager", "editor", "viewer"])
    staff[role] = createStaff(s.data, mark(role), role);
});
after(async () => {
  for (const user of Object.values(staff)) user.remove();
  await s?.stop();
});

/** Every address of the panel (navigation.ts): a screen a role may not open
 * shows its refusal, which must fit too. */
const SCREENS = [
  "/admin",
  "/admin/cars",
  "/admin/brands",
  "/admin/reviews",
  "/admin/leads",
  "/admin/amocrm",
  "/admin/saved-searches",
  "/admin/personal-data",
  "/admin/promotions",
  "/admin/partner-banks",
  "/admin/credit-programs",
  "/admin/page-banners",
  "/admin/auto-selection-banner",
  "/admin/parser",
  "/admin/body-types",
  "/admin/checks",
  "/admin/settings",
  "/admin/users",
];
const WIDTHS = [320, 390, 430];

/** A page of the panel at `viewport`, logged in as `who` (the demo owner by default). */
async function asRole(who, viewport, path) {
  const session = await apiSession(s.base, who ?? ADMIN);
  const page = await s.open(viewport);
  await useSession(page, s.base, session);
  await page.goto(s.base + path);
  return page;
}

/** What scrolls sideways: the document, or a box inside it wider than the
 * window (a table in its scrolling region counts: on a phone it is cards). */
function overflow(page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const wide = [...document.querySelectorAll(".table-scroll, table")]
      .filter((e) => e.getClientRects().length > 0 && e.scrollWidth > e.clientWidth + 1)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${e.scrollWidth} in ${e.clientWidth}`);
    return { page: doc.scrollWidth, viewport: doc.clientWidth, wide };
  });
}

describe("the admin panel on a phone", () => {
  for (const role of ["owner", "manager"]) {
    it(`shows ${role === "owner" ? "an owner" : "a manager"} the first lead on the first screen, with its call and status`, async () => {
      const page = await asRole(role === "owner" ? ADMIN : staff.manager, PHONE, "/admin/leads");
      const row = page.getByTestId("lead-row").first();
      await row.waitFor();
      await settled(page);
      const top = await row.evaluate((e) => e.getBoundingClientRect().top);
      assert.ok(
        top < PHONE.height,
        `the first lead starts at ${Math.round(top)} px, below the ${PHONE.height} px screen`,
      );
      // Its heading is on screen too, not only the card's border.
      const name = row.getByRole("heading");
      const nameBottom = await name.evaluate((e) => e.getBoundingClientRect().bottom);
      assert.ok(
        nameBottom <= PHONE.height,
        `the first lead's name ends at ${Math.round(nameBottom)} px`,
      );
      // One tap to call, one tap to change its status (on the first lead
      // that still has a phone: an erased one says «Телефон удалён»).
      const reachable = page
        .getByTestId("lead-row")
        .filter({ has: page.getByRole("link", { name: /^Позвонить/ }) })
        .first();
      const call = reachable.getByRole("link", { name: /^Позвонить/ });
      assert.match(await call.getAttribute("href"), /^tel:\+\d{11}$/);
      assert.ok(await row.getByRole("combobox", { name: /^Статус заявки/ }).isVisible());
      await expectNoViolations(page, `${role}'s leads on a phone`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  it("folds the sections behind a menu button that the keyboard and a screen reader can use", async () => {
    const page = await asRole(staff.manager, PHONE, "/admin/leads");
    await page.getByRole("heading", { level: 1, name: /^Заявки/ }).waitFor();
    const button = page.getByRole("button", { name: "Меню" });
    const sections = page.getByRole("navigation", { name: "Разделы администрирования" });
    assert.equal(await button.getAttribute("aria-expanded"), "false");
    assert.equal(await sections.getByRole("link", { name: "Заявки" }).isVisible(), false);
    const menu = await button.getAttribute("aria-controls");
    assert.ok(menu && (await page.locator(`#${menu}`).count()) === 1, "the button names its menu");

    // Opened from the keyboard: focus goes to the first section.
    await button.focus();
    await page.keyboard.press("Enter");
    assert.equal(await button.getAttribute("aria-expanded"), "true");
    await sections.getByRole("link", { name: "Заявки" }).waitFor();
    // Focus moves once the menu is drawn: wait for it, as a screen reader
    // user hears it.
    const focused = await page
      .waitForFunction(() => document.activeElement?.textContent?.trim() === "Панель", null, {
        timeout: 5000,
      })
      .then(() => "Панель")
      .catch(() => page.evaluate(() => document.activeElement?.textContent?.trim()));
    assert.equal(focused, "Панель", "focus moves to the menu's first section");
    await expectNoViolations(page, "the open menu on a phone");

    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press("Escape");
    assert.equal(await button.getAttribute("aria-expanded"), "false");
    assert.equal(await sections.getByRole("link", { name: "Заявки" }).isVisible(), false);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), "Меню");

    // A section chosen from the menu opens, and the menu folds again.
    await button.click();
    await sections.getByRole("link", { name: "Автомобили" }).click();
    await page.getByRole("heading", { level: 1, name: /^Автомобили/ }).waitFor();
    assert.equal(await button.getAttribute("aria-expanded"), "false");
    assert.equal(await sections.getByRole("link", { name: "Заявки" }).isVisible(), false);
    // Logging out is in the menu too.
    await button.click();
    assert.ok(await page.getByRole("button", { name: "Выйти" }).isVisible());
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it("lays the team out as cards with every button on screen", async () => {
    const page = await asRole(ADMIN, PHONE, "/admin/users");
    const rows = page.getByTestId("user-row");
    await rows.first().waitFor();
    await settled(page);
    const boxes = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="user-row"] button')]
        .filter((b) => b.getClientRects().length > 0)
        .map((b) => ({ text: b.textContent.trim(), right: b.getBoundingClientRect().right })),
    );
    assert.ok(boxes.length > 0, "the team's rows have buttons");
    const off = boxes.filter((b) => b.right > PHONE.width);
    assert.deepEqual(off, [], "buttons off the screen");
    await expectNoViolations(page, "the team on a phone");
    await page.context().close();
  });

  for (const role of ["owner", "manager", "editor", "viewer"]) {
    it(`scrolls no screen sideways at ${WIDTHS.join(", ")} px (${role})`, async () => {
      const who = role === "owner" ? ADMIN : staff[role];
      const page = await asRole(who, { width: WIDTHS[0], height: 800 }, "/admin");
      const problems = [];
      for (const path of SCREENS) {
        await page.goto(s.base + path);
        await page.getByRole("heading", { level: 1 }).waitFor();
        await settled(page);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 800 });
          const o = await overflow(page);
          if (o.page > o.viewport + 1 || o.wide.length > 0)
            problems.push(
              `${path} at ${width}: ${o.page} px in ${o.viewport}${o.wide.map((w) => `; ${w}`).join("")}`,
            );
        }
        await page.setViewportSize({ width: WIDTHS[0], height: 800 });
      }
      assert.deepEqual(problems, []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});
