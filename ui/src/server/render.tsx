/** The server build's entry (src/http/pages/render.rs runs it in QuickJS):
 * the same App the browser hydrates, rendered to HTML from the data the
 * page embeds (the API answers keyed by their URLs). */
import "./globals";
import { renderToString, renderToStringAsync } from "preact-render-to-string";
import { Router } from "wouter";
import { App } from "../App";
import { primeCache, resetClient } from "../api/client";
import { installFragmentStore, noteDigests } from "../lib/serverFragments";

/** The store of drawn fragments the server lends (src/http/pages/render.rs,
 * shared by its rendering threads); without it every fragment is drawn.
 * It answers with a short token that stands for the fragment's HTML in the
 * page: the server puts the HTML in after the page is drawn, so it is never
 * copied into the script and back. */
interface FragmentHost {
  /** The token of the fragment kept for `key`, if one is. */
  get(key: string): string | undefined;
  /** Keeps `html` for `key`; the token that stands for it. */
  put(key: string, html: string): string;
}
const host = (globalThis as { fragments?: FragmentHost }).fragments;

installFragmentStore(
  host === undefined
    ? null
    : {
        html(key, context, draw) {
          return host.get(key) ?? host.put(key, renderToString(draw(), context));
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
