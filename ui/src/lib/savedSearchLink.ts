/** The links of the saved-search mails (docs/saved-searches.md): confirm and
 * unsubscribe, each with its token. */

export const SAVED_SEARCH_CONFIRM = "/api/saved-searches/confirm";
export const SAVED_SEARCH_UNSUBSCRIBE = "/api/saved-searches/unsubscribe";

/** The server's answer to an unknown or spent token. */
export const LINK_INVALID = "Ссылка недействительна или устарела";

/** The token of a confirm or unsubscribe link's query; null when missing. */
export function linkToken(search: string): string | null {
  const token = new URLSearchParams(search).get("token")?.trim();
  return token ? token : null;
}

/** Where a confirmed search's link leads: its page on this site (path and
 * query), or the new cars when the stored address is of another site. */
export function catalogueLink(pageUrl: string, origin: string, fallback: string): string {
  try {
    const url = new URL(pageUrl, origin);
    if (url.origin !== origin) return fallback;
    return `${url.pathname}${url.search}`;
  } catch {
    return fallback;
  }
}
