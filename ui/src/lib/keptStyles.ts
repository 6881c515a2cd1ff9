/** The stylesheets a returning visitor's browser keeps (docs/rendering.md,
 * "The second page"): a first page carries its stylesheets inline. Once the
 * page is live their files (hashed names, cached as immutable) are fetched
 * into the browser's cache and their hashes noted in the `styles` cookie;
 * the server then links them in the next pages instead of carrying them
 * (src/http/kept_styles.rs). */

/** The cookie's name, as the server reads it. */
export const COOKIE = "styles";
/** Hashes the cookie keeps, newest first (the server reads as many). */
const MAX_KEPT = 8;
/** A year: the files never change under their names. */
const MAX_AGE = 365 * 24 * 60 * 60;

/** The content hash in a built stylesheet's name
 * (`/assets/main-CjBjpzKf.css` → `CjBjpzKf`). */
export function hashOf(href: string): string | null {
  const found = /^\/assets\/[^/]*-([A-Za-z0-9_-]{6,16})\.css$/.exec(href);
  return found ? found[1] : null;
}

/** The hashes the cookie names now. */
export function keptHashes(cookies: string): string[] {
  for (const pair of cookies.split(";")) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== COOKIE) continue;
    return pair
      .slice(at + 1)
      .split(".")
      .filter((hash) => /^[A-Za-z0-9_-]{6,16}$/.test(hash));
  }
  return [];
}

/** The cookie naming `added` and then what it named before, at most
 * eight (the oldest builds' sheets drop out). */
export function cookieWith(kept: string[], added: string[]): string {
  const hashes = [...added, ...kept.filter((hash) => !added.includes(hash))].slice(0, MAX_KEPT);
  return `${COOKIE}=${hashes.join(".")}; path=/; max-age=${MAX_AGE}; samesite=lax`;
}

/** Fetches the files of the page's inline stylesheets the browser does not
 * keep yet (named by their disabled links, src/http/pages/shell.rs) and,
 * once every one is in its cache, notes them in the cookie. */
export async function keepStyles(doc: Document = document): Promise<void> {
  const kept = keptHashes(doc.cookie);
  const missing = [...doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][disabled]')]
    .map((link) => link.getAttribute("href") ?? "")
    .filter((href) => {
      const hash = hashOf(href);
      return hash !== null && !kept.includes(hash);
    });
  if (missing.length === 0) return;
  try {
    const fetched = await Promise.all(
      missing.map((href) =>
        fetch(href, { credentials: "same-origin" }).then(async (answer) => {
          // Read whole: the browser keeps what it has received entirely.
          await answer.arrayBuffer();
          return answer.ok;
        }),
      ),
    );
    if (fetched.every(Boolean)) {
      doc.cookie = cookieWith(
        kept,
        missing.map((href) => hashOf(href) ?? ""),
      );
    }
  } catch {
    // Offline or refused: the next page carries its styles again.
  }
}
