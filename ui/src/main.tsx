import { hydrate, render } from "preact";
import { App } from "./App";
import { cached, primeCache } from "./api/client";
import type { Settings } from "./api/types";
import { SETTINGS } from "./api/urls";
import { markHydrated } from "./hooks/useHydrated";
import { setDrawnForPhone } from "./hooks/usePageSize";
import { initConsent } from "./lib/consent";
import { beginHydration, goLive, releaseHeldBack } from "./lib/hydration";
import { captureUtm } from "./lib/utm";
import "./styles/app.css";

/** The server embeds the first screen's API answers (src/http/pages). */
function readEmbedded(): Record<string, unknown> {
  const el = document.getElementById("preload-data");
  if (!el?.textContent) return {};
  try {
    return JSON.parse(el.textContent) as Record<string, unknown>;
  } catch {
    return {};
  }
}

primeCache(readEmbedded());
captureUtm(location.search);
if ("scrollRestoration" in history) history.scrollRestoration = "manual";

// The server draws the public pages (docs/rendering.md): the browser takes
// that markup over; a page sent without it (the admin panel) is drawn here.
const root = document.getElementById("app");
if (root?.firstElementChild) {
  // A catalogue drawn for a phone is taken over as a phone's (10 cars).
  setDrawnForPhone(root.dataset.screen === "phone");
  // Parts below the first screen are held back and taken over one per task
  // afterwards (lib/hydration.ts): no task takes the whole page at once.
  beginHydration();
  hydrate(<App />, root);
  markHydrated();
  // Live (`data-live`) once every held part is: what the page shows then
  // answers. A press the loader held before the code takes them at once.
  const takeAll = releaseHeldBack(goLive);
  if (document.documentElement.hasAttribute("data-early")) takeAll();
} else if (root) {
  markHydrated();
  root.textContent = "";
  render(<App />, root);
  goLive();
}

// Once the page has painted: the counters the visitor accepted start, or
// the cookie notice asks (lib/consent.ts). A drawn page's code starts after
// its first paint (src/http/pages/loader.js), often after `load`.
const startConsent = () => {
  const settings = cached<Settings>(SETTINGS);
  if (settings)
    setTimeout(
      () =>
        initConsent(
          settings.yandexMetrikaId,
          settings.googleAnalyticsId,
          undefined,
          settings.callTrackingScript,
        ),
      0,
    );
};
const afterLoad = () => {
  startConsent();
  // The next page links the stylesheets this one carries (lib/keptStyles.ts,
  // its own small chunk: nothing a page needs waits for it).
  void import("./lib/keptStyles").then((kept) => kept.keepStyles());
};
if (document.readyState === "complete") afterLoad();
else window.addEventListener("load", afterLoad);
