/** The call-tracking vendor's number substitution (docs/calls.md, "Numbers
 * per source"): its script (`[call_tracking] script_url`) is loaded only
 * after the visitor accepted the counters (lib/consent.ts), as Metrika is.
 * It writes the visit's own number into every element with the configured
 * phone class; here each such number's link is made to call what it shows.
 * A chunk of its own, loaded only then. Nothing of it reaches the server:
 * the pages it draws and keeps always carry the salon's own number. */
let started = false;

/** Whether the vendor's script was loaded on this page. */
export function callTrackingStarted(): boolean {
  return started;
}

/** Each salon number's link calls the number its element shows now. */
export function followNumbers(root: ParentNode = document): void {
  for (const shown of root.querySelectorAll<HTMLElement>(".salon-phone")) {
    const link = shown.closest("a");
    const number = shown.textContent?.trim() ?? "";
    if (!link || !/\d/.test(number)) continue;
    // hooks/useSettings' telHref, without its module in this chunk.
    const href = `tel:${number.replace(/[^\d+]/g, "")}`;
    if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  }
}

/** Loads the vendor's script once, and keeps the links following what it
 * writes into the numbers. */
export function startCallTracking(script: string): void {
  if (started || !/^https?:\/\/[^\s"'<>]+$/.test(script)) return;
  started = true;
  new MutationObserver(() => followNumbers()).observe(document.body, {
    subtree: true,
    childList: true,
    characterData: true,
  });
  const tag = document.createElement("script");
  tag.async = true;
  tag.src = script;
  document.head.appendChild(tag);
}
