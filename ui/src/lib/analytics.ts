/** Yandex Metrika and Google Analytics, when their ids are set in the
 * settings and only once the visitor has accepted them in the cookie notice
 * (152-FZ; lib/consent.ts, docs/personal-data.md): before "Принять" nothing
 * is requested from mc.yandex.ru or googletagmanager.com. Started after the
 * page has loaded, so they never delay the first screen. Their cookies
 * (_ym_uid, _ga) give the leads their analytics client id.
 *
 * Goals, sent while the counters run as Metrika's `reachGoal` and as a
 * gtag event of the same name (set them up in Metrika under these names):
 * - `lead_auto_credit`, `lead_trade_in`, `lead_auto_selection`,
 *   `lead_lease_booking`, `lead_contact_form`, `lead_test_drive`, `lead_callback`: a request
 *   form's lead was stored by the server (`lead_<type>`, components/leads/LeadForm.tsx);
 * - `test_drive_booked`: a test-drive booking was stored (with `lead_test_drive`);
 * - `phone_click`: a click on any phone link (`a[href^="tel:"]`).
 *
 * A visitor who withdraws (Отказаться after Принять) stops them: the loaded
 * scripts cannot be unloaded, so the counters' own opt-out flags are set
 * (`disableYaCounter<id>`, `ga-disable-<id>`) and no further hit or goal is
 * sent. */
import type { LeadType } from "../api/types";

export const GOALS = [
  "lead_auto_credit",
  "lead_trade_in",
  "lead_auto_selection",
  "lead_lease_booking",
  "lead_contact_form",
  "lead_test_drive",
  "lead_callback",
  "test_drive_booked",
  "phone_click",
] as const;
/** reachLeadGoals checks that every lead type has its goal here. */
export type Goal = (typeof GOALS)[number];

type Queue = ((...args: unknown[]) => void) & { a?: unknown[][]; l?: number };
/** The window's counter globals and the counters' opt-out flags. */
type AnalyticsWindow = { ym?: Queue; dataLayer?: unknown[]; gtag?: Queue } & Record<
  string,
  unknown
>;
const win = () => window as unknown as AnalyticsWindow;

/** The counters running now (empty before acceptance and after withdrawal). */
let counters: { ym?: number; ga?: string } = {};
let listening = false;

/** The valid ids among the settings' (anything else is never loaded). */
export function counterIds(yandexId: string, googleId: string): { ym?: number; ga?: string } {
  const ym = yandexId.trim();
  const ga = googleId.trim();
  return {
    ym: /^\d{4,12}$/.test(ym) ? Number(ym) : undefined,
    ga: /^[A-Z0-9-]{4,30}$/i.test(ga) ? ga : undefined,
  };
}

function load(src: string): void {
  const script = document.createElement("script");
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

/** Starts the counters; call only after the visitor accepted them. */
export function startAnalytics(yandexId: string, googleId: string): void {
  if (counters.ym || counters.ga) return;
  const w = win();
  const { ym, ga } = counterIds(yandexId, googleId);
  if (ym) {
    w[`disableYaCounter${ym}`] = false;
    if (!w.ym) {
      const queue: Queue = (...args: unknown[]) => {
        queue.a = queue.a ?? [];
        queue.a.push(args);
      };
      queue.l = Date.now();
      w.ym = queue;
      load("https://mc.yandex.ru/metrika/tag.js");
    }
    w.ym(ym, "init", { clickmap: true, trackLinks: true, accurateTrackBounce: true });
  }
  if (ga) {
    w[`ga-disable-${ga}`] = false;
    if (!w.gtag) {
      w.dataLayer = w.dataLayer ?? [];
      // gtag.js reads the arguments objects it is given.
      w.gtag = function gtag() {
        // biome-ignore lint/complexity/noArguments: gtag.js expects the arguments object
        w.dataLayer?.push(arguments);
      };
      w.gtag("js", new Date());
      load(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(ga)}`);
    }
    w.gtag("config", ga);
  }
  counters = { ym, ga };
  if ((ym || ga) && !listening) {
    listening = true;
    // One listener for every phone link, the footer's and the car page's alike.
    document.addEventListener(
      "click",
      (e) => {
        if ((e.target as Element | null)?.closest?.('a[href^="tel:"]')) reachGoal("phone_click");
      },
      true,
    );
  }
}

/** The visitor withdrew: nothing more is sent from this page on. */
export function stopAnalytics(): void {
  const w = win();
  if (counters.ym) w[`disableYaCounter${counters.ym}`] = true;
  if (counters.ga) w[`ga-disable-${counters.ga}`] = true;
  counters = {};
}

/** A client-side route change is a page view. */
export function trackPageView(url: string): void {
  const w = win();
  if (counters.ym) w.ym?.(counters.ym, "hit", url);
  if (counters.ga) w.gtag?.("event", "page_view", { page_location: url });
}

export function reachGoal(goal: Goal): void {
  const w = win();
  if (counters.ym) w.ym?.(counters.ym, "reachGoal", goal);
  if (counters.ga) w.gtag?.("event", goal);
}

/** A lead the server stored from a form: `lead_<type>`, and a test drive's
 * booking (a call is never a form's). */
export function reachLeadGoals(type: LeadType): void {
  if (type === "marketplace_call" || type === "missed_call" || type === "phone_call") return;
  reachGoal(`lead_${type}`);
  if (type === "test_drive") reachGoal("test_drive_booked");
}

export function resetAnalyticsForTests(): void {
  counters = {};
  listening = false;
}
