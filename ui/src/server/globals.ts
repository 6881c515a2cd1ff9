/** What QuickJS lacks and the components use while drawing a page. */
import URLSearchParams from "@ungap/url-search-params";

const global = globalThis as { URLSearchParams?: unknown };
global.URLSearchParams ??= URLSearchParams;
