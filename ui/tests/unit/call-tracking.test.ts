import { afterEach, describe, expect, it, vi } from "vitest";
import { callTrackingStarted, followNumbers } from "../../src/lib/callTracking";
import { choose, initConsent, saveConsent } from "../../src/lib/consent";

vi.mock("../../src/components/consent/CookieNotice", () => ({ showCookieNotice: () => {} }));

/** A shown number inside a link, as SalonPhoneLink draws it. */
function shownNumber(text: string, href: string) {
  const link = {
    href,
    getAttribute: (name: string) => (name === "href" ? link.href : null),
    setAttribute: (name: string, value: string) => {
      if (name === "href") link.href = value;
    },
  };
  const element = { textContent: text, closest: (sel: string) => (sel === "a" ? link : null) };
  return { link, element };
}

describe("a substituted number's link calls it", () => {
  it("follows what the vendor's script wrote, leaves the rest", () => {
    const substituted = shownNumber(" +7 (812) 000-11-22 ", "tel:+78125550000");
    const same = shownNumber("+7 (812) 555-00-00", "tel:+78125550000");
    const loading = shownNumber("…", "tel:+78125550000");
    const root = {
      querySelectorAll: (sel: string) =>
        sel === ".salon-phone" ? [substituted, same, loading].map((n) => n.element) : [],
    } as unknown as ParentNode;
    followNumbers(root);
    expect(substituted.link.href).toBe("tel:+78120001122");
    expect(same.link.href).toBe("tel:+78125550000");
    // No digits yet: the salon's own number stays.
    expect(loading.link.href).toBe("tel:+78125550000");
  });
});

describe("the vendor's script waits for consent", () => {
  const SCRIPT = "https://mod.calltouch.ru/init.js?id=abc";
  const scripts: string[] = [];
  const observed: unknown[] = [];
  const reloads: number[] = [];
  const stored = new Map<string, string>();
  Object.assign(globalThis, {
    window: {},
    localStorage: {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => void stored.set(k, v),
    },
    location: { pathname: "/", reload: () => reloads.push(1) },
    MutationObserver: class {
      observe(target: unknown) {
        observed.push(target);
      }
    },
    document: {
      body: { id: "body" },
      head: { appendChild: (el: { src: string }) => scripts.push(el.src) },
      createElement: () => ({ async: false, src: "" }),
      addEventListener: () => {},
    },
  });
  afterEach(() => vi.restoreAllMocks());

  it("loads nothing before the visitor accepts, then the script once", async () => {
    initConsent("", "", "/", SCRIPT);
    await new Promise((r) => setTimeout(r, 10));
    expect(scripts).toEqual([]);
    expect(callTrackingStarted()).toBe(false);
    saveConsent("accepted");
    initConsent("", "", "/", SCRIPT);
    await vi.waitFor(() => expect(scripts).toEqual([SCRIPT]));
    expect(callTrackingStarted()).toBe(true);
    expect(observed).toEqual([{ id: "body" }]);
    initConsent("", "", "/", SCRIPT);
    choose("accepted", "", "", SCRIPT);
    await new Promise((r) => setTimeout(r, 10));
    expect(scripts).toEqual([SCRIPT]);
    // A refusal after it: the page comes again without it.
    expect(reloads).toEqual([]);
    choose("refused", "", "", SCRIPT);
    expect(reloads).toEqual([1]);
  });
});
