// The admin screens' cards on a computer and a phone: every badge a card
// shows (a car's condition and draft, a promotion's discount and state, a
// review's moderation, a lead's status and type, a credit programme's state)
// is drawn inside its own card, not piled up somewhere else on the page.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { openAdmin } from "./admin-helpers.mjs";
import { DESKTOP, PHONE, start } from "./harness.mjs";

let s;
before(async () => {
  s = await start();
});
after(() => s?.stop());

/** The screens with badged cards: path, the card's test id, and at least
 * how many cards the demo data shows there. */
const SCREENS = [
  { path: "/admin/cars", card: "car-card" },
  { path: "/admin/promotions", card: "promotion-card" },
  { path: "/admin/reviews", card: "review-card" },
  { path: "/admin/leads", card: "lead-row" },
  { path: "/admin/credit-programs", card: "program-card" },
];

/** Each visible badge of each card with the card's box and its own. */
function badgeBoxes(page, testId) {
  return page.evaluate((id) => {
    const rect = (e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    return [...document.querySelectorAll(`[data-testid="${id}"]`)].flatMap((card, i) =>
      [...card.querySelectorAll(".badge")]
        .filter((b) => b.getClientRects().length > 0)
        .map((b) => ({ card: i, text: b.textContent.trim(), box: rect(b), cardBox: rect(card) })),
    );
  }, testId);
}

const inside = (box, outer) =>
  box.left >= outer.left - 0.5 &&
  box.top >= outer.top - 0.5 &&
  box.right <= outer.right + 0.5 &&
  box.bottom <= outer.bottom + 0.5;

const show = (b) =>
  `«${b.text}» of card ${b.card} at (${Math.round(b.box.left)}, ${Math.round(b.box.top)}), ` +
  `its card at (${Math.round(b.cardBox.left)}, ${Math.round(b.cardBox.top)})–` +
  `(${Math.round(b.cardBox.right)}, ${Math.round(b.cardBox.bottom)})`;

describe("badges of the admin cards", () => {
  for (const [name, viewport] of [
    ["computer", DESKTOP],
    ["phone", PHONE],
  ]) {
    for (const screen of SCREENS) {
      it(`stay inside their cards on ${screen.path} (${name})`, async () => {
        const { page } = await openAdmin(s, viewport, screen.path);
        await page.getByTestId(screen.card).first().waitFor();
        const badges = await badgeBoxes(page, screen.card);
        assert.ok(badges.length > 0, `no badge on ${screen.path}`);
        const cards = new Set(badges.map((b) => b.card));
        const outside = badges.filter((b) => !inside(b.box, b.cardBox));
        assert.deepEqual(outside.map(show), [], `badges outside their cards on ${screen.path}`);
        // Each card's badges are its own: no two cards share one spot.
        if (screen.card === "car-card") {
          const first = badges.filter((b, i) => badges.findIndex((x) => x.card === b.card) === i);
          const spots = new Set(
            first.map((b) => `${Math.round(b.box.left)},${Math.round(b.box.top)}`),
          );
          assert.equal(spots.size, cards.size, "two cars' badges are drawn on the same spot");
        }
        assert.deepEqual(page.errors, []);
        await page.context().close();
      });
    }
  }
});
