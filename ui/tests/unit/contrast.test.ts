import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contrast, luminance, over, parseColor } from "../e2e/contrast.mjs";

describe("WCAG contrast helper", () => {
  it("reads hex and rgb colours", () => {
    expect(parseColor("#fff")).toEqual([255, 255, 255, 1]);
    expect(parseColor("#0b3d91")).toEqual([11, 61, 145, 1]);
    expect(parseColor("rgba(0, 0, 0, 0.5)")).toEqual([0, 0, 0, 0.5]);
    expect(parseColor("rgb(1 114 173)")).toEqual([1, 114, 173, 1]);
    expect(() => parseColor("blue")).toThrow();
  });

  it("gives the WCAG ratios", () => {
    expect(luminance("#000")).toBe(0);
    expect(luminance("#fff")).toBe(1);
    expect(contrast("#000", "#fff")).toBe(21);
    expect(contrast("#fff", "#fff")).toBe(1);
    // The WebAIM checker's figures.
    expect(contrast("#767676", "#fff")).toBeCloseTo(4.54, 2);
    expect(contrast("#777777", "#fff")).toBeCloseTo(4.48, 2);
  });

  it("blends a translucent colour over its background", () => {
    expect(over("rgba(0, 0, 0, 0.5)", "#fff")).toBe("rgb(127.5, 127.5, 127.5)");
  });
});

/** The `--name: #hex` pairs of one block of palette.css. */
function block(css: string, selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const body = css.slice(start, css.indexOf("\n}", start));
  return Object.fromEntries(
    [...body.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{3,6});/gi)].map((m) => [m[1], m[2]]),
  );
}

describe("the palette meets WCAG AA", () => {
  const css = readFileSync(new URL("../../src/styles/palette.css", import.meta.url), "utf8");
  for (const [theme, selector] of [
    ["light", '[data-theme="light"]'],
    ["dark", '[data-theme="dark"]'],
  ]) {
    const v = block(css, selector);
    const bg = v["--pico-background-color"];
    const text: [string, string, string][] = [
      ["text", v["--pico-color"], bg],
      ["muted text", v["--pico-muted-color"], bg],
      ["muted text on surface", v["--pico-muted-color"], v["--surface"]],
      ["ad mark on a card", v["--pico-muted-color"], v["--pico-card-background-color"] ?? bg],
      ["links", v["--pico-primary"], bg],
      ["primary button", v["--pico-primary-inverse"], v["--pico-primary-background"]],
      ["primary button hovered", v["--pico-primary-inverse"], v["--pico-primary-hover-background"]],
      ["secondary button", v["--pico-secondary-inverse"], v["--pico-secondary-background"]],
      ["outline secondary button", v["--pico-secondary"], bg],
      ["chip", v["--ink"], v["--surface-raised"]],
      ["active chip", v["--on-brand"] ?? "#fff", v["--brand"]],
      ["footer text", v["--dark-ink"], v["--dark-bg"]],
      ["footer small print", v["--dark-ink-soft"], v["--dark-bg"]],
      ["field error", v["--error"], bg],
      ["warning", v["--warning"], bg],
      ["admin badge", v["--ink"], v["--border"]],
      ["warning badge", "#fff", v["--warning-bg"]],
      ["badge new", "#fff", v["--badge-new"]],
      ["badge used", "#fff", v["--badge-used"]],
      ["badge lease", "#fff", v["--badge-lease"]],
      ["badge stock", "#fff", v["--badge-stock"]],
      ["badge discount", "#fff", v["--badge-discount"]],
      ["error toast", "#fff", v["--error-bg"]],
      ["success toast", "#fff", v["--success-bg"]],
    ];
    const graphics: [string, string, string][] = [
      ["input border", v["--pico-form-element-border-color"], bg],
      ["control border", v["--control-border"], v["--surface-raised"]],
      ["star", v["--star"], v["--surface-raised"]],
      ["empty star", v["--star-off"], v["--surface-raised"]],
      ["focus ring", v["--focus-ring"], bg],
      ["focus ring on surface", v["--focus-ring"], v["--surface"]],
      ["focus ring on dark", v["--focus-ring-on-dark"], v["--dark-bg"]],
      ["focus ring on the hero", v["--focus-ring-on-dark"], v["--brand-light"]],
      ["placeholder car", v["--placeholder-ink"], v["--surface"]],
    ];
    it(`${theme}: text 4.5:1`, () => {
      for (const [what, fg, back] of text) {
        expect(fg, what).toBeTruthy();
        expect(back, what).toBeTruthy();
        expect(contrast(fg, back), `${what} ${fg} on ${back}`).toBeGreaterThanOrEqual(4.5);
      }
    });
    it(`${theme}: borders, icons and the focus ring 3:1`, () => {
      for (const [what, fg, back] of graphics) {
        expect(fg, what).toBeTruthy();
        expect(contrast(fg, back), `${what} ${fg} on ${back}`).toBeGreaterThanOrEqual(3);
      }
    });
  }
});
