/** Drawings with their links left open (`drawnOnceWithLinks` in
 * lib/serverFragments.tsx): the server build's half, kept per runtime. */
import type { JSX } from "preact";
import { renderToString } from "preact-render-to-string";
import type { Href } from "../lib/serverFragments";

/** What marks a link left open in a drawing ([`linkedHtml`]). */
const OPEN = "\u0003";

/** A drawing with its links left open: the HTML split at them (the odd
 * parts name what each link was asked for, by its place in `asked`). */
interface Linked {
  parts: string[];
  asked: unknown[];
}

/** This runtime's drawings with open links, by key: some forty of a few
 * kilobytes (a brand strip per chosen brand), dropped together past 64. */
const linkedDrawings = new Map<string, Linked>();

/** An attribute's value as preact-render-to-string writes it. */
function attribute(value: string): string {
  return value.replace(/[&"<]/g, (c) => (c === "&" ? "&amp;" : c === '"' ? "&quot;" : "&lt;"));
}

/** The HTML of `draw` for `key`, its links the page's own: drawn once per
 * key with every link a mark, which each page replaces by its `href` of
 * what was asked for there. */
export function linkedHtml<H extends Href>(
  key: string,
  context: object,
  draw: (href: H) => JSX.Element,
  href: H,
): string {
  let drawing = linkedDrawings.get(key);
  if (drawing === undefined) {
    const asked: unknown[] = [];
    const html = renderToString(
      draw(((to: unknown) => `${OPEN}${asked.push(to) - 1}${OPEN}`) as H),
      context,
    );
    drawing = { parts: html.split(OPEN), asked };
    if (linkedDrawings.size >= 64) linkedDrawings.clear();
    linkedDrawings.set(key, drawing);
  }
  const { parts, asked } = drawing;
  let out = parts[0];
  for (let i = 1; i + 1 < parts.length; i += 2) {
    out += attribute(href(asked[Number(parts[i])])) + parts[i + 1];
  }
  return out;
}
