// WCAG 2.1 contrast of two colours: relative luminance of sRGB colours and
// their ratio, for the browser tests' checks of computed styles (focus rings,
// stars) and for picking the palette (ui/src/styles/palette.css).

/** [r, g, b, a] of "#rgb", "#rrggbb", "rgb(r, g, b)" or "rgba(r, g, b, a)". */
export function parseColor(text) {
  const s = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(s);
  if (hex) {
    const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join("") : hex[1];
    return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)).concat(1);
  }
  const fn = /^rgba?\(([^)]+)\)$/.exec(s);
  if (fn) {
    const parts = fn[1]
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    if (parts.length >= 3 && parts.every((n) => Number.isFinite(n)))
      return [parts[0], parts[1], parts[2], parts[3] ?? 1];
  }
  throw new Error(`not a colour: ${text}`);
}

/** A colour with alpha drawn over an opaque background. */
export function over(color, background) {
  const [r, g, b, a] = parseColor(color);
  const [br, bg, bb] = parseColor(background);
  return `rgb(${r * a + br * (1 - a)}, ${g * a + bg * (1 - a)}, ${b * a + bb * (1 - a)})`;
}

/** Relative luminance (0 black to 1 white). */
export function luminance(color) {
  const [r, g, b] = parseColor(color)
    .slice(0, 3)
    .map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio, 1 to 21. */
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
