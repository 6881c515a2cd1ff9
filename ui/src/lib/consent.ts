/** The visitor's choice about the counters (152-FZ, docs/personal-data.md):
 * kept in localStorage as `{"choice":"accepted"|"refused","date":ISO}`
 * under `analytics-consent`. With a counter id set and no choice yet, the
 * cookie notice (components/consent/CookieNotice.tsx, a lazily loaded chunk)
 * asks; the footer's "Настройки cookie" asks again. Only "accepted" starts
 * the counters (lib/analytics.ts). The admin panel has neither counter
 * nor notice: staff read leads' names and phones there (`isAdminPath`). */
import { ROUTES } from "../routes";
import { counterIds, startAnalytics, stopAnalytics } from "./analytics";

export const CONSENT_KEY = "analytics-consent";
export type ConsentChoice = "accepted" | "refused";

/** The stored choice, or null (none, unreadable, or no storage at all:
 * Safari's private mode may throw). */
export function readConsent(): ConsentChoice | null {
  try {
    const choice = JSON.parse(localStorage.getItem(CONSENT_KEY) ?? "{}").choice;
    return choice === "accepted" || choice === "refused" ? choice : null;
  } catch {
    return null;
  }
}

export function saveConsent(choice: ConsentChoice, now: Date = new Date()): void {
  try {
    localStorage.setItem(CONSENT_KEY, JSON.stringify({ choice, date: now.toISOString() }));
  } catch {
    // No storage: the choice holds for this page only.
  }
}

/** Whether the settings name a counter the site would load, or the
 * call-tracking vendor's script (`script`, settings `callTrackingScript`). */
export function hasCounters(yandexId: string, googleId: string, script = ""): boolean {
  const ids = counterIds(yandexId, googleId);
  return !!(ids.ym || ids.ga || script);
}

/** Whether the call-tracking script was started on this page. */
let tracking = false;

/** The call-tracking vendor's script (lib/callTracking.ts, a chunk of its
 * own), started only with the visitor's consent. */
function startTracking(script: string): void {
  if (!script || tracking) return;
  tracking = true;
  import("./callTracking").then((m) => m.startCallTracking(script)).catch(() => {});
}

/** The visitor chose: kept, and the counters start or stop. A loaded
 * call-tracking script cannot be stopped: a refusal after it reloads the
 * page, which comes without it. */
export function choose(
  choice: ConsentChoice,
  yandexId: string,
  googleId: string,
  script = "",
): void {
  saveConsent(choice);
  if (choice === "accepted") {
    startAnalytics(yandexId, googleId);
    startTracking(script);
  } else {
    stopAnalytics();
    if (tracking) location.reload();
  }
}

/** The notice, from its own chunk, saying what was chosen before if
 * anything was; `focus` moves focus into it (the footer's button asked for
 * it). */
export function askConsent(yandexId: string, googleId: string, focus = false, script = ""): void {
  const ids = counterIds(yandexId, googleId);
  import("../components/consent/CookieNotice")
    .then((m) =>
      m.showCookieNotice(
        !!ids.ym,
        !!ids.ga,
        focus,
        readConsent(),
        (choice) => choose(choice, yandexId, googleId, script),
        !!script,
      ),
    )
    // Not loaded (offline): nothing starts; the footer's button asks again.
    .catch(() => {});
}

/** Whether `path` is the admin panel's (no counter, no notice there). */
export function isAdminPath(path: string): boolean {
  return path === ROUTES.admin || path.startsWith(`${ROUTES.admin}/`);
}

/** The admin panel opened (App.tsx): counters started on a
 * public page of this tab send nothing more from here. */
export function quietInAdmin(): void {
  stopAnalytics();
  // The call-tracking script sees no page of the panel: loaded again, the
  // panel comes without it.
  if (tracking) location.reload();
}

/** main.tsx, once the page has loaded: starts the counters the visitor
 * accepted before, asks a visitor who has not chosen; on the admin
 * panel's pages, neither. */
export function initConsent(
  yandexId: string,
  googleId: string,
  path: string = typeof location === "undefined" ? "/" : location.pathname,
  script = "",
): void {
  if (isAdminPath(path) || !hasCounters(yandexId, googleId, script)) return;
  const choice = readConsent();
  if (choice === "accepted") {
    startAnalytics(yandexId, googleId);
    startTracking(script);
  } else if (!choice) askConsent(yandexId, googleId, false, script);
}
