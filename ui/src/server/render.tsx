/** The server build's entry (src/http/pages/render.rs runs it in QuickJS):
 * the same App the browser hydrates, rendered to HTML from the data the
 * page embeds (the API answers keyed by their URLs). */
import "./globals";
import { options, type VNode } from "preact";
import { renderToString, renderToStringAsync } from "preact-render-to-string";
import { Router } from "wouter";
import { App } from "../App";
import { primeCache, primeLazily, resetClient } from "../api/client";
import type { CarBrief } from "../api/types";
import { CarCard } from "../components/cars/CarCard";
import { setDrawnForPhone } from "../hooks/usePageSize";
import { forgetDigests, installFragmentStore, noteDigests } from "../lib/serverFragments";
import { linkedHtml } from "./linkedDrawings";

/** preact's names of a vnode's parent and component and a component's
 * vnode (its mangled private fields). */
interface Linked {
  __?: unknown;
  __c?: { __v?: unknown } | null;
}
/** The elements and components drawn since the last [`unlinkDrawn`]. */
let drawn: Linked[] = [];
const unmounted = options.unmount;
options.unmount = (vnode: VNode) => {
  unmounted?.(vnode);
  drawn.push(vnode as unknown as Linked);
};
/** A drawn tree is cycles (each element points to its parent, each
 * component and its element to each other), which QuickJS frees only when
 * it collects (docs/rendering.md): once a page is drawn, its links are
 * broken, so reference counting frees it at once. Not before the page is
 * done: `useId` walks a suspended part's parents when it is drawn again. */
function unlinkDrawn() {
  for (const vnode of drawn) {
    vnode.__ = null;
    if (vnode.__c) {
      vnode.__c.__v = null;
      vnode.__c = null;
    }
  }
  drawn = [];
}

/** The store of drawn fragments the server lends (src/http/pages/render.rs,
 * shared by its rendering threads); without it every fragment is drawn.
 * It answers with a short token that stands for the fragment's HTML in the
 * page: the server puts the HTML in after the page is drawn, so it is never
 * copied into the script and back. */
interface FragmentHost {
  /** The token of the fragment kept for `key`, if one is; with `eager`
   * its first picture made the page's largest paint's. */
  get(key: string, eager: boolean): string | undefined;
  /** Keeps `html` for `key`; the token that stands for it (with `eager`,
   * for it with its first picture made the largest paint's). */
  put(key: string, html: string, eager: boolean): string;
}
const host = (globalThis as { fragments?: FragmentHost }).fragments;

/** Fragments drawn (not found in the store) since the count was read. */
let drawnSince = 0;

installFragmentStore(
  host === undefined
    ? null
    : {
        html(key, context, draw, eager) {
          const kept = host.get(key, eager);
          if (kept !== undefined) return kept;
          drawnSince += 1;
          return host.put(key, renderToString(draw(), context), eager);
        },
        linked: linkedHtml,
      },
);

/** `url` is the page's path and query, `screen` the screen the page is
 * drawn for (src/http/screen.rs: a catalogue's page size); `answers` the page's embedded API
 * answers, four strings each, flat (src/http/held/page_answers.rs): the answer's
 * URL, its JSON, a digest of it and the digests of its items when it is a
 * list (comma-separated), which keys of drawn fragments use
 * (lib/serverFragments.tsx). An answer is parsed when the page first reads
 * it: a catalogue page embeds the phones' batch of cars too, which the
 * server does not draw. */
export async function render(
  url: string,
  answers: string[],
  screen: "phone" | "wide" = "wide",
): Promise<string> {
  resetClient();
  setDrawnForPhone(screen === "phone");
  forgetDigests();
  const reads = new Map<string, () => unknown>();
  for (let i = 0; i + 3 < answers.length; i += 4) {
    const [json, digest, items] = [answers[i + 1], answers[i + 2], answers[i + 3]];
    reads.set(answers[i], () => noteDigests(JSON.parse(json) as unknown, digest, items));
  }
  primeLazily(reads);
  const at = url.indexOf("?");
  const path = at < 0 ? url : url.slice(0, at);
  const search = at < 0 ? "" : url.slice(at + 1);
  try {
    return await renderToStringAsync(
      <Router ssrPath={path} ssrSearch={search}>
        <App />
      </Router>,
    );
  } finally {
    unlinkDrawn();
  }
}

/** Draws the cards of `cars` (a JSON list of cars as a page embeds them,
 * `digests` their own, comma-separated, as a page's list has them) into
 * the store, so that a page no one has asked for yet finds its cards
 * drawn (src/http/held/cards_ahead.rs, docs/rendering.md "Cards drawn
 * ahead"). `data` holds the answers a card reads besides its car (the
 * settings: the phone, the salons), as a page embeds them. Answers how many
 * cards were drawn; those already kept are left as they are. */
export function drawCards(data: string, cars: string, digests = ""): number {
  resetClient();
  setDrawnForPhone(false);
  primeCache(JSON.parse(data) as Record<string, unknown>);
  forgetDigests();
  drawnSince = 0;
  const ignore = () => {};
  const list = JSON.parse(cars) as CarBrief[];
  noteDigests(list, "", digests);
  for (const car of list) {
    renderToString(
      <Router ssrPath="/">
        <CarCard car={car} onRequest={ignore} />
      </Router>,
    );
    unlinkDrawn();
  }
  return drawnSince;
}
