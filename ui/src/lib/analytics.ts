/** Yandex Metrika and Google Analytics, when their ids are set in the
 * settings: loaded after the page, so they never delay the first screen.
 * Their cookies (_ym_uid, _ga) give the leads their analytics client id. */

type Queue = ((...args: unknown[]) => void) & { a?: unknown[][]; l?: number };
type AnalyticsWindow = Window & { ym?: Queue; dataLayer?: unknown[]; gtag?: Queue };

let counters: { ym?: number; ga?: string } = {};

function load(src: string): void {
  const script = document.createElement("script");
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

export function startAnalytics(yandexId: string, googleId: string): void {
  const w = window as AnalyticsWindow;
  const ym = yandexId.trim();
  const ga = googleId.trim();
  if (/^\d{4,12}$/.test(ym)) {
    const queue: Queue = (...args: unknown[]) => {
      queue.a = queue.a ?? [];
      queue.a.push(args);
    };
    queue.l = Date.now();
    w.ym = w.ym ?? queue;
    w.ym(Number(ym), "init", { clickmap: true, trackLinks: true, accurateTrackBounce: true });
    load("https://mc.yandex.ru/metrika/tag.js");
    counters.ym = Number(ym);
  }
  if (/^[A-Z0-9-]{4,30}$/i.test(ga)) {
    w.dataLayer = w.dataLayer ?? [];
    // gtag.js reads the arguments objects it is given.
    w.gtag = function gtag() {
      // biome-ignore lint/complexity/noArguments: gtag.js expects the arguments object
      w.dataLayer?.push(arguments);
    };
    w.gtag("js", new Date());
    w.gtag("config", ga);
    load(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(ga)}`);
    counters.ga = ga;
  }
}

/** A client-side route change is a page view. */
export function trackPageView(url: string): void {
  const w = window as AnalyticsWindow;
  if (counters.ym && w.ym) w.ym(counters.ym, "hit", url);
  if (counters.ga && w.gtag) w.gtag("event", "page_view", { page_location: url });
}

export function resetAnalyticsForTests(): void {
  counters = {};
}
