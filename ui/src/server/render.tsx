/** The server build's entry (src/http/pages/render.rs runs it in QuickJS):
 * the same App the browser hydrates, rendered to HTML from the data the
 * page embeds (the API answers keyed by their URLs). */
import "./globals";
import { renderToString, renderToStringAsync } from "preact-render-to-string";
import { Router } from "wouter";
import { App } from "../App";
import { primeCache, resetClient } from "../api/client";
import { installFragmentStore } from "../lib/serverFragments";

/** The store of drawn fragments the server lends (src/http/pages/render.rs,
 * shared by its rendering threads); without it every fragment is drawn. */
interface FragmentHost {
  get(key: string): string | undefined;
  put(key: string, html: string): void;
}
const host = (globalThis as { fragments?: FragmentHost }).fragments;

installFragmentStore(
  host === undefined
    ? null
    : {
        html(key, context, draw) {
          let html = host.get(key);
          if (html === undefined) {
            html = renderToString(draw(), context);
            host.put(key, html);
          }
          return html;
        },
      },
);

/** `url` is the page's path and query; `data` the page's embedded JSON. */
export async function render(url: string, data: string): Promise<string> {
  resetClient();
  primeCache(JSON.parse(data) as Record<string, unknown>);
  const at = url.indexOf("?");
  const path = at < 0 ? url : url.slice(0, at);
  const search = at < 0 ? "" : url.slice(at + 1);
  return renderToStringAsync(
    <Router ssrPath={path} ssrSearch={search}>
      <App />
    </Router>,
  );
}
