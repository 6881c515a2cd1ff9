import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetAnalyticsForTests, startAnalytics, trackPageView } from "../../src/lib/analytics";

interface FakeWindow {
  ym?: ((...args: unknown[]) => void) & { a?: unknown[][] };
  dataLayer?: unknown[];
  gtag?: (...args: unknown[]) => void;
}

describe("analytics counters", () => {
  const scripts: string[] = [];
  beforeEach(() => {
    resetAnalyticsForTests();
    scripts.length = 0;
    const head = { appendChild: (el: { src: string }) => scripts.push(el.src) };
    Object.assign(globalThis, {
      window: {},
      document: { head, createElement: () => ({ async: false, src: "" }) },
    });
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, "window");
    Reflect.deleteProperty(globalThis, "document");
  });

  it("loads nothing without ids", () => {
    startAnalytics("", "");
    expect(scripts).toEqual([]);
  });

  it("starts Yandex Metrika and Google Analytics and counts route changes", () => {
    startAnalytics("12345678", "G-ABC123");
    expect(scripts).toEqual([
      "https://mc.yandex.ru/metrika/tag.js",
      "https://www.googletagmanager.com/gtag/js?id=G-ABC123",
    ]);
    const w = (globalThis as unknown as { window: FakeWindow }).window;
    expect(w.ym?.a?.[0]?.slice(0, 2)).toEqual([12345678, "init"]);
    trackPageView("https://example.ru/new-cars");
    expect(w.ym?.a?.[1]).toEqual([12345678, "hit", "https://example.ru/new-cars"]);
    expect(w.dataLayer?.length).toBe(3);
  });

  it("refuses ids that are not ids", () => {
    startAnalytics("12<script>", 'G-1"onload');
    expect(scripts).toEqual([]);
  });
});
