// Helpers of the accessibility browser tests: axe-core run inside the page
// (WCAG 2.1 A and AA rules), the focus ring's visibility and contrast, and
// Tab walks.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { contrast } from "./contrast.mjs";

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** Runs axe on the page (or inside `selector`) and fails on any WCAG 2.1
 * A/AA violation, listing each rule with the elements it found. */
export async function expectNoViolations(page, where, selector) {
  // page.evaluate is not subject to the site's Content-Security-Policy.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async ([tags, sel]) => {
      const result = await window.axe.run(sel ? document.querySelector(sel) : document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
      });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
      }));
    },
    [WCAG_AA, selector ?? null],
  );
  assert.deepEqual(
    violations,
    [],
    `${where}: ${violations.map((v) => `\n  ${v.id} (${v.impact}) ${v.help}\n    ${v.nodes.join("\n    ")}`).join("")}`,
  );
}

/** Waits until the screen drew its data: no skeleton or busy mark. */
export async function settled(page) {
  await page.locator("main, #main").first().waitFor();
  await page.waitForFunction(
    () =>
      !document.querySelector(
        '[aria-busy="true"]:not(button), .skeleton, [data-testid="car-skeleton"]',
      ),
    null,
    { timeout: 15_000 },
  );
}

/** What the focused element shows: its description, the colour of its ring
 * and the colour behind the ring, for a contrast check. Runs in the page. */
function focusRing() {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const describe = `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : ""} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}"`;
  // The colour behind the ring: the nearest ancestor with a background (a
  // gradient counts with its first colour; a photo's shade with the shade).
  const behind = () => {
    for (let n = el.parentElement; n; n = n.parentElement) {
      // Over a picture: the picture itself is unknown, so the ring must
      // stand out against both black and white (the two-tone ring).
      if (n.matches(".card-gallery, .detail-main, .thumbs")) return { color: "photo" };
      const s = getComputedStyle(n);
      const img = s.backgroundImage;
      if (img && img !== "none") {
        const stop = img.match(/rgba?\([^)]+\)/);
        if (stop) return { color: stop[0], under: "rgb(0, 0, 0)" };
      }
      const c = s.backgroundColor;
      if (c && c !== "transparent" && c !== "rgba(0, 0, 0, 0)") {
        return { color: c, under: "rgb(255, 255, 255)" };
      }
    }
    return { color: "rgb(255, 255, 255)", under: "rgb(255, 255, 255)" };
  };
  const rect = el.getBoundingClientRect();
  // The ring reaches this far outside the element; an ancestor that clips
  // (overflow other than visible) must leave room for it.
  const reach = Math.max(
    0,
    Number.parseFloat(style.outlineOffset) + Number.parseFloat(style.outlineWidth),
  );
  let clippedBy = null;
  for (let n = el.parentElement; n && n !== document.body; n = n.parentElement) {
    const s = getComputedStyle(n);
    if (s.overflowX === "visible" && s.overflowY === "visible") continue;
    const box = n.getBoundingClientRect();
    const inner = {
      left: box.left + n.clientLeft,
      top: box.top + n.clientTop,
      right: box.left + n.clientLeft + n.clientWidth,
      bottom: box.top + n.clientTop + n.clientHeight,
    };
    const cut =
      (s.overflowX !== "visible" &&
        (rect.left - reach < inner.left - 1 || rect.right + reach > inner.right + 1)) ||
      (s.overflowY !== "visible" &&
        (rect.top - reach < inner.top - 1 || rect.bottom + reach > inner.bottom + 1));
    if (cut) {
      clippedBy = `${n.tagName.toLowerCase()}.${String(n.className).trim().split(/\s+/).join(".")}`;
      break;
    }
  }
  return {
    clippedBy,
    describe,
    outlineStyle: style.outlineStyle,
    outlineWidth: Number.parseFloat(style.outlineWidth),
    outlineColor: style.outlineColor,
    boxShadow: style.boxShadow,
    background: behind(),
    visible: rect.width > 0 && rect.height > 0,
    focusVisible: el.matches(":focus-visible"),
  };
}

/** Fails unless the focused element shows a solid ring of 2 px or more with
 * 3:1 against the colour behind it (a two-tone ring over photographs). */
export async function expectVisibleFocus(page, where) {
  const f = await page.evaluate(focusRing);
  assert.ok(f, `${where}: nothing focused`);
  assert.ok(f.visible, `${where}: ${f.describe} is focused but not shown`);
  assert.ok(f.focusVisible, `${where}: ${f.describe} does not match :focus-visible`);
  assert.notEqual(f.outlineStyle, "none", `${where}: ${f.describe} has no focus ring`);
  assert.ok(f.outlineWidth >= 2, `${where}: ${f.describe} ring is ${f.outlineWidth}px`);
  assert.equal(f.clippedBy, null, `${where}: ${f.describe} ring is cut by ${f.clippedBy}`);
  if (f.background.color === "photo") {
    // White ring with a dark band around it: one of them stands out on any picture.
    assert.ok(f.boxShadow && f.boxShadow !== "none", `${where}: ${f.describe} ring is one-tone`);
    return;
  }
  const back = blend(f.background.color, f.background.under);
  const ratio = contrast(f.outlineColor, back);
  assert.ok(
    ratio >= 3,
    `${where}: ${f.describe} ring ${f.outlineColor} on ${back} is ${ratio.toFixed(2)}:1`,
  );
}

function blend(color, under) {
  const m = color.match(/rgba?\(([^)]+)\)/);
  const [r, g, b, a = 1] = m[1]
    .split(/[\s,/]+/)
    .filter(Boolean)
    .map(Number);
  if (a >= 1) return `rgb(${r}, ${g}, ${b})`;
  const u = under
    .match(/rgba?\(([^)]+)\)/)[1]
    .split(/[\s,/]+/)
    .map(Number);
  return `rgb(${r * a + u[0] * (1 - a)}, ${g * a + u[1] * (1 - a)}, ${b * a + u[2] * (1 - a)})`;
}

/** Presses Tab until `found(activeElement)` holds in the page; answers the
 * number of presses. Each stop is checked for a visible focus ring. */
export async function tabTo(page, found, { max = 60, where = "", check = true } = {}) {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press("Tab");
    if (check) await expectVisibleFocus(page, `${where} Tab ${i}`);
    if (await page.evaluate(found)) return i;
  }
  assert.fail(`${where}: not reached in ${max} Tab presses`);
}

/** The focused element's text, label and name, for messages. */
export function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el
      ? `${el.tagName.toLowerCase()} ${el.getAttribute("name") ?? ""} ${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}`
      : "";
  });
}
