import { type ComponentChildren, h } from "preact";
import { renderToString } from "preact-render-to-string";
import { describe, expect, it, vi } from "vitest";
import { primeCache } from "../../src/api/client";
import { CREDIT_PROGRAMS, SETTINGS } from "../../src/api/urls";
import {
  CookieNotice,
  counterCookies,
  dropCounterCookies,
  noticeText,
} from "../../src/components/consent/CookieNotice";
import { Footer } from "../../src/components/layout/Footer";
import { DEFAULT_SETTINGS } from "../../src/hooks/useSettings";

// Outside the bundler wouter would find React itself: a link as it draws one.
vi.mock("wouter", () => ({
  Link: ({ href, children }: { href: string; children: ComponentChildren }) =>
    h("a", { href }, children),
}));

describe("the cookie notice", () => {
  it("names the counters that are set", () => {
    expect(noticeText(true, false)).toBe(
      "Мы используем cookie и Яндекс Метрику, чтобы понимать, как работает сайт. Счётчик включится, только если вы согласитесь.",
    );
    expect(noticeText(true, true)).toBe(
      "Мы используем cookie и Яндекс Метрику и Google Analytics, чтобы понимать, как работает сайт. Счётчики включатся, только если вы согласитесь.",
    );
    expect(noticeText(false, true)).toBe(
      "Мы используем cookie и Google Analytics, чтобы понимать, как работает сайт. Счётчик включится, только если вы согласитесь.",
    );
  });

  it("names the call-tracking service and why it is there", () => {
    expect(noticeText(true, false, true)).toBe(
      "Мы используем cookie и Яндекс Метрику и сервис учёта звонков, чтобы понимать, как работает сайт, и показывать номер телефона для вашего визита. Счётчики включатся, только если вы согласитесь.",
    );
    expect(noticeText(true, true, true)).toContain(
      "Яндекс Метрику, Google Analytics и сервис учёта звонков,",
    );
    expect(noticeText(false, false, true)).toBe(
      "Мы используем cookie и сервис учёта звонков, чтобы понимать, как работает сайт, и показывать номер телефона для вашего визита. Сервис включится, только если вы согласитесь.",
    );
  });

  it("is a labelled region with the policy's link and two equal buttons", () => {
    const html = renderToString(
      h(CookieNotice, { text: noticeText(true, false), focus: false, choose: () => {} }),
    );
    expect(html).toMatch(
      /^<section aria-label="Согласие на cookie" tabindex="-1" class="cookie-notice">/,
    );
    expect(html).not.toContain("dialog");
    expect(html).toContain('<a href="/privacy">Политика обработки персональных данных</a>');
    expect(html).toContain('<button type="button">Принять</button>');
    expect(html).toContain('<button type="button">Отказаться</button>');
    expect(html).not.toContain("Сейчас");
  });

  it("asked again, says what was chosen and marks that button pressed", () => {
    const notice = (current: "accepted" | "refused") =>
      renderToString(
        h(CookieNotice, { text: noticeText(true, false), focus: true, current, choose: () => {} }),
      );
    const accepted = notice("accepted");
    expect(accepted).toContain("Сейчас вы выбрали «Принять».");
    expect(accepted).toContain('<button type="button" aria-pressed="true">Принять</button>');
    expect(accepted).toContain('<button type="button" aria-pressed="false">Отказаться</button>');
    const refused = notice("refused");
    expect(refused).toContain("Сейчас вы выбрали «Отказаться».");
    expect(refused).toContain('<button type="button" aria-pressed="false">Принять</button>');
    expect(refused).toContain('<button type="button" aria-pressed="true">Отказаться</button>');
  });
});

describe("the footer's 'Настройки cookie'", () => {
  const footer = (yandexMetrikaId: string, googleAnalyticsId: string, callTrackingScript = "") => {
    primeCache({
      [SETTINGS]: { ...DEFAULT_SETTINGS, yandexMetrikaId, googleAnalyticsId, callTrackingScript },
      [CREDIT_PROGRAMS]: null,
    });
    return renderToString(h(Footer, {}));
  };

  it("is a real button beside the legal links when a counter is set", () => {
    const button = '<button type="button" class="footer-link">Настройки cookie</button>';
    expect(footer("12345678", "")).toContain(button);
    expect(footer("", "G-ABC123")).toContain(button);
    expect(footer("", "", "https://mod.calltouch.ru/init.js?id=abc")).toContain(button);
  });

  it("is not there without a counter", () => {
    expect(footer("", "")).not.toContain("Настройки cookie");
  });
});

describe("a refusal drops the counters' cookies", () => {
  it("names Metrika's and Google's cookies and nothing else", () => {
    expect(
      counterCookies(
        "_ym_uid=1700000000123; _ym_d=1700000000; theme=dark; _ga=GA1.1.5.6; _ga_ABC123=GS1; _gid=GA1.2; _gat_gtag=1; analytics-consent=x; _gads=1",
      ),
    ).toEqual(["_ym_uid", "_ym_d", "_ga", "_ga_ABC123", "_gid", "_gat_gtag"]);
    // The call-tracking scripts' own (Calltouch, UIS/CoMagic).
    expect(counterCookies("_ct_session_id=1; _ct=2; _comagic_idQ1=3; cart=1")).toEqual([
      "_ct_session_id",
      "_ct",
      "_comagic_idQ1",
    ]);
    expect(counterCookies("")).toEqual([]);
  });

  it("expires them on the host and its parent domains", () => {
    const written: string[] = [];
    const doc = {
      location: { hostname: "www.salon.example" },
      get cookie() {
        return "_ym_uid=1; theme=dark";
      },
      set cookie(value: string) {
        written.push(value);
      },
    } as unknown as Document;
    dropCounterCookies(doc);
    expect(written).toEqual([
      "_ym_uid=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/",
      "_ym_uid=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; domain=.www.salon.example",
      "_ym_uid=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; domain=.salon.example",
    ]);
  });
});

describe("the salon's phone in the footer", () => {
  const footer = (phoneClass: string) => {
    primeCache({
      [SETTINGS]: { ...DEFAULT_SETTINGS, phone: "+7 (812) 555-00-00", phoneClass },
      [CREDIT_PROGRAMS]: null,
    });
    return renderToString(h(Footer, {}));
  };

  it("is one element with the call-tracking class inside its link", () => {
    expect(footer("call_phone_1")).toContain(
      '<a href="tel:+78125550000"><span class="salon-phone call_phone_1">+7 (812) 555-00-00</span></a>',
    );
    expect(footer("")).toContain(
      '<a href="tel:+78125550000"><span class="salon-phone">+7 (812) 555-00-00</span></a>',
    );
  });
});
