/** The server build's entry (src/http/pages/render.rs runs it in QuickJS):
 * the same App the browser hydrates, rendered to HTML from the data the
 * page embeds (the API answers keyed by their URLs). */
import "./globals";
import { renderToString, renderToStringAsync } from "preact-render-to-string";
import { Router } from "wouter";
import { App } from "../App";
import { primeCache, resetClient } from "../api/client";
import type { CarBrief } from "../api/types";
import { CarCard } from "../components/cars/CarCard";
import { installFragmentStore, noteDigests } from "../lib/serverFragments";

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
      },
);

/** `url` is the page's path and query; `data` the page's embedded JSON;
 * `digests` (JSON) a digest of each of its answers by URL, which keys of
 * drawn fragments use (lib/serverFragments.tsx). */
export async function render(url: string, data: string, digests = "{}"): Promise<string> {
  resetClient();
  const answers = JSON.parse(data) as Record<string, unknown>;
  primeCache(answers);
  noteDigests(answers, JSON.parse(digests) as Record<string, string>);
  const at = url.indexOf("?");
  const path = at < 0 ? url : url.slice(0, at);
  const search = at < 0 ? "" : url.slice(at + 1);
  return renderToStringAsync(
    <Router ssrPath={path} ssrSearch={search}>
      <App />
    </Router>,
  );
}

/** Draws the cards of `cars` (a JSON list of cars as a page embeds them)
 * into the store, so that a page no one has asked for yet finds its cards
 * drawn (src/http/held/cards_ahead.rs, docs/rendering.md "Cards drawn
 * ahead"). `data` holds the answers a card reads besides its car (the
 * settings: the phone, the salons), as a page embeds them. Answers how many
 * cards were drawn; those already kept are left as they are. */
export function drawCards(data: string, cars: string): number {
  resetClient();
  primeCache(JSON.parse(data) as Record<string, unknown>);
  noteDigests({}, {});
  drawnSince = 0;
  const ignore = () => {};
  for (const car of JSON.parse(cars) as CarBrief[]) {
    renderToString(
      <Router ssrPath="/">
        <CarCard car={car} onRequest={ignore} />
      </Router>,
    );
  }
  return drawnSince;
}
