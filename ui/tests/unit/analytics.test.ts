import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LeadType } from "../../src/api/types";
import {
  GOALS,
  reachGoal,
  reachLeadGoals,
  resetAnalyticsForTests,
  startAnalytics,
  stopAnalytics,
  trackPageView,
} from "../../src/lib/analytics";
import {
  askConsent,
  CONSENT_KEY,
  choose,
  hasCounters,
  initConsent,
  isAdminPath,
  quietInAdmin,
  readConsent,
  saveConsent,
} from "../../src/lib/consent";

const shown = vi.hoisted(() => [] as unknown[][]);
vi.mock("../../src/components/consent/CookieNotice", () => ({
  showCookieNotice: (...args: unknown[]) => shown.push(args),
}));

interface FakeWindow {
  ym?: ((...args: unknown[]) => void) & { a?: unknown[][] };
  dataLayer?: unknown[];
  gtag?: (...args: unknown[]) => void;
  [flag: string]: unknown;
}

const METRIKA = "https://mc.yandex.ru/metrika/tag.js";
const GTAG = "https://www.googletagmanager.com/gtag/js?id=G-ABC123";

/** A window, a document that records the scripts it is given and its click
 * listeners, and a localStorage (or one that throws, as Safari's private
 * mode may). */
function fakeBrowser(storage: "memory" | "throws" = "memory") {
  const scripts: string[] = [];
  const clicks: ((e: { target: unknown }) => void)[] = [];
  const stored = new Map<string, string>();
  const localStorage =
    storage === "memory"
      ? {
          getItem: (k: string) => stored.get(k) ?? null,
          setItem: (k: string, v: string) => void stored.set(k, v),
        }
      : {
          getItem: () => {
            throw new Error("SecurityError");
          },
          setItem: () => {
            throw new Error("QuotaExceededError");
          },
        };
  Object.assign(globalThis, {
    window: {},
    localStorage,
    document: {
      head: { appendChild: (el: { src: string }) => scripts.push(el.src) },
      createElement: () => ({ async: false, src: "" }),
      addEventListener: (type: string, listener: (e: { target: unknown }) => void) => {
        if (type === "click") clicks.push(listener);
      },
    },
  });
  const w = (globalThis as unknown as { window: FakeWindow }).window;
  /** A click on an element matching (or not) a tel: link. */
  const click = (tel: boolean) => {
    const target = { closest: (sel: string) => (tel && sel === 'a[href^="tel:"]' ? {} : null) };
    for (const listener of clicks) listener({ target });
  };
  return { scripts, stored, w, click, clicks };
}

/** The calls queued for Metrika (before tag.js arrives), without `init`'s options. */
const ymCalls = (w: FakeWindow) => (w.ym?.a ?? []).map((call) => call.slice(0, 3));

beforeEach(() => {
  resetAnalyticsForTests();
  shown.length = 0;
});
afterEach(() => {
  for (const name of ["window", "document", "localStorage"])
    Reflect.deleteProperty(globalThis, name);
});

describe("analytics counters", () => {
  it("loads nothing without ids", () => {
    const b = fakeBrowser();
    startAnalytics("", "");
    expect(b.scripts).toEqual([]);
    expect(b.clicks).toEqual([]);
  });

  it("starts Yandex Metrika and Google Analytics and counts route changes", () => {
    const b = fakeBrowser();
    startAnalytics("12345678", "G-ABC123");
    expect(b.scripts).toEqual([METRIKA, GTAG]);
    expect(b.w.ym?.a?.[0]?.slice(0, 2)).toEqual([12345678, "init"]);
    trackPageView("https://example.ru/new-cars");
    expect(b.w.ym?.a?.[1]).toEqual([12345678, "hit", "https://example.ru/new-cars"]);
    // js, config, page_view
    expect(b.w.dataLayer?.length).toBe(3);
  });

  it("refuses ids that are not ids", () => {
    const b = fakeBrowser();
    startAnalytics("12<script>", 'G-1"onload');
    expect(b.scripts).toEqual([]);
    expect(hasCounters("12<script>", 'G-1"onload')).toBe(false);
    expect(hasCounters(" 12345678 ", "")).toBe(true);
    expect(hasCounters("", "G-ABC123")).toBe(true);
  });

  it("sends nothing before it is started", () => {
    const b = fakeBrowser();
    trackPageView("https://example.ru/");
    reachGoal("phone_click");
    reachLeadGoals("contact_form");
    expect(b.w.ym).toBeUndefined();
    expect(b.w.dataLayer).toBeUndefined();
    expect(b.scripts).toEqual([]);
  });

  it("reaches goals in Metrika and as gtag events", () => {
    const b = fakeBrowser();
    startAnalytics("12345678", "G-ABC123");
    reachLeadGoals("contact_form");
    reachLeadGoals("test_drive");
    expect(ymCalls(b.w).slice(1)).toEqual([
      [12345678, "reachGoal", "lead_contact_form"],
      [12345678, "reachGoal", "lead_test_drive"],
      [12345678, "reachGoal", "test_drive_booked"],
    ]);
    const events = (b.w.dataLayer ?? [])
      .map((args) => Array.from(args as ArrayLike<unknown>))
      .filter((args) => args[0] === "event")
      .map((args) => args[1]);
    expect(events).toEqual(["lead_contact_form", "lead_test_drive", "test_drive_booked"]);
  });

  it("counts a click on a phone link, with one listener for the whole page", () => {
    const b = fakeBrowser();
    startAnalytics("12345678", "");
    expect(b.clicks.length).toBe(1);
    b.click(false);
    b.click(true);
    expect(ymCalls(b.w).slice(1)).toEqual([[12345678, "reachGoal", "phone_click"]]);
  });

  it("has a goal for every lead type", () => {
    const types: LeadType[] = [
      "auto_credit",
      "trade_in",
      "auto_selection",
      "lease_booking",
      "contact_form",
      "test_drive",
    ];
    for (const type of types) expect(GOALS).toContain(`lead_${type}`);
    expect(GOALS).toContain("phone_click");
    expect(GOALS).toContain("test_drive_booked");
  });

  it("sends nothing more after a withdrawal and sets the counters' opt-out flags", () => {
    const b = fakeBrowser();
    startAnalytics("12345678", "G-ABC123");
    const queued = b.w.ym?.a?.length;
    const layer = b.w.dataLayer?.length;
    stopAnalytics();
    trackPageView("https://example.ru/used-cars");
    reachGoal("lead_trade_in");
    b.click(true);
    expect(b.w.ym?.a?.length).toBe(queued);
    expect(b.w.dataLayer?.length).toBe(layer);
    expect(b.w.disableYaCounter12345678).toBe(true);
    expect(b.w["ga-disable-G-ABC123"]).toBe(true);
  });

  it("starts again after a withdrawal without loading the scripts twice", () => {
    const b = fakeBrowser();
    startAnalytics("12345678", "");
    stopAnalytics();
    startAnalytics("12345678", "");
    expect(b.scripts).toEqual([METRIKA]);
    expect(b.w.disableYaCounter12345678).toBe(false);
    reachGoal("phone_click");
    expect(ymCalls(b.w).at(-1)).toEqual([12345678, "reachGoal", "phone_click"]);
    // A second start while running changes nothing.
    startAnalytics("12345678", "");
    expect(b.clicks.length).toBe(1);
  });
});

describe("the visitor's consent", () => {
  it("keeps the choice with its date", () => {
    const b = fakeBrowser();
    expect(readConsent()).toBeNull();
    saveConsent("accepted", new Date("2026-11-26T10:00:00Z"));
    expect(JSON.parse(b.stored.get(CONSENT_KEY) ?? "")).toEqual({
      choice: "accepted",
      date: "2026-11-26T10:00:00.000Z",
    });
    expect(readConsent()).toBe("accepted");
    saveConsent("refused");
    expect(readConsent()).toBe("refused");
  });

  it("reads anything else as no choice", () => {
    const b = fakeBrowser();
    for (const value of ["accepted", "null", "{", '{"choice":"yes"}', "[]"]) {
      b.stored.set(CONSENT_KEY, value);
      expect(readConsent()).toBeNull();
    }
  });

  it("works without storage (Safari's private mode)", () => {
    const b = fakeBrowser("throws");
    expect(readConsent()).toBeNull();
    expect(() => saveConsent("accepted")).not.toThrow();
    // The choice still holds for the page.
    choose("accepted", "12345678", "");
    expect(b.scripts).toEqual([METRIKA]);
  });

  it("asks a first visitor and loads nothing", async () => {
    const b = fakeBrowser();
    initConsent("12345678", "");
    expect(b.scripts).toEqual([]);
    expect(b.w.ym).toBeUndefined();
    await vi.waitFor(() => expect(shown.length).toBe(1));
    // Metrika only, not asked from the footer.
    expect(shown[0]?.slice(0, 3)).toEqual([true, false, false]);
  });

  it("asks nothing and loads nothing without a counter", async () => {
    const b = fakeBrowser();
    initConsent("", "");
    await new Promise((r) => setTimeout(r, 0));
    expect(shown).toEqual([]);
    expect(b.scripts).toEqual([]);
  });

  it("starts the counters the visitor accepted on an earlier visit", () => {
    const b = fakeBrowser();
    saveConsent("accepted");
    initConsent("12345678", "G-ABC123");
    expect(b.scripts).toEqual([METRIKA, GTAG]);
    expect(ymCalls(b.w)[0]?.slice(0, 2)).toEqual([12345678, "init"]);
    expect(shown).toEqual([]);
  });

  it("starts nothing and asks nothing on the admin panel's pages", async () => {
    const b = fakeBrowser();
    initConsent("12345678", "G-ABC123", "/admin/leads");
    await new Promise((r) => setTimeout(r, 0));
    expect(shown).toEqual([]);
    saveConsent("accepted");
    initConsent("12345678", "G-ABC123", "/admin");
    expect(b.scripts).toEqual([]);
    expect(isAdminPath("/administrator")).toBe(false);
    // Counters a public page started send nothing once the panel opens.
    initConsent("12345678", "", "/");
    expect(b.scripts).toEqual([METRIKA]);
    quietInAdmin();
    expect(b.w.disableYaCounter12345678).toBe(true);
  });

  it("loads nothing for a visitor who refused", async () => {
    const b = fakeBrowser();
    saveConsent("refused");
    initConsent("12345678", "G-ABC123");
    await new Promise((r) => setTimeout(r, 0));
    expect(b.scripts).toEqual([]);
    expect(shown).toEqual([]);
  });

  it("the notice's choice starts the counters, and a withdrawal stops them", async () => {
    const b = fakeBrowser();
    askConsent("12345678", "G-ABC123", true);
    await vi.waitFor(() => expect(shown.length).toBe(1));
    const [yandex, google, focus, current, chosen] = shown[0] as [
      boolean,
      boolean,
      boolean,
      string | null,
      (c: string) => void,
    ];
    expect([yandex, google, focus, current]).toEqual([true, true, true, null]);
    expect(b.scripts).toEqual([]);
    chosen("accepted");
    expect(readConsent()).toBe("accepted");
    expect(b.scripts).toEqual([METRIKA, GTAG]);
    // Asked again, the notice is told what was chosen.
    askConsent("12345678", "G-ABC123", true);
    await vi.waitFor(() => expect(shown.length).toBe(2));
    expect(shown[1]?.[3]).toBe("accepted");
    chosen("refused");
    expect(readConsent()).toBe("refused");
    const queued = b.w.ym?.a?.length;
    reachLeadGoals("auto_credit");
    trackPageView("https://example.ru/");
    expect(b.w.ym?.a?.length).toBe(queued);
  });
});
