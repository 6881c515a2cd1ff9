// Lighthouse at mobile settings on every public route, against the release
// binary with demo data, each route run LIGHTHOUSE_RUNS times (default 3)
// and judged on its median run (Lighthouse's own computeMedianRun), its
// LCP and blocking time on the middle of the runs' own values:
//   cargo build --release && (cd ui && npm run lighthouse)
// Prints each route's four category scores, LCP, CLS and TBT, and writes the
// median runs' JSON reports to ui/lighthouse/ (ignored by git).
//
// What fails a route (exit 1):
// - always: accessibility, best practices or SEO under 100, a layout shift
//   of 0.01 or more, LCP 1.0 s or more (issue 47): these do not depend on
//   how busy the machine is (LCP is Lantern's replay of the page's requests
//   at a phone's network; with the first screen's other pictures held until
//   its paint, docs/rendering.md, its graph is the page and its hero, and
//   LCP was 0.90-0.92 s on every run of 2026-12-03);
// - by hand (not with --ci): any layout shift at all (CLS above 0; the
//   favourites page showed one of 0.0009 once, the header's phone link
//   moving, which a browser without Lighthouse's emulation never showed), a
//   performance score under 100, total blocking time 100 ms or more (issue
//   47; docs/rendering.md).
//   The README's test command runs `--ci`: there the score is printed, not
//   judged, and the blocking time judged at twice its budget (200 ms), since
//   Lighthouse's blocking time is the page's real main-thread work times
//   four, which another process on a 2-core machine doubles (210-570 ms for
//   one build, docs/rendering.md); on a quiet machine every route's median
//   was 0-56 ms (2026-12-03).
// Each run has a browser of its own, a first visit: Lighthouse clears the
// cache before a run but keeps cookies, so in a shared browser the `styles`
// cookie of an earlier run (docs/rendering.md, "The second page") would claim
// a stylesheet the cache no longer has, a visitor that cannot be.
// The favourites and the comparison are a visitor's own lists, `noindex` on
// purpose (nothing there for a search engine): their SEO category lacks only
// `is-crawlable`, which is all it may lack.
import { mkdirSync, writeFileSync } from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { CHROMIUM_ARGS, start } from "../tests/e2e/harness.mjs";
import { MOBILE } from "./lighthouse-settings.mjs";

const CI = process.argv.includes("--ci");
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const MAX_LCP_MS = 1000;
const MAX_TBT_MS = 100;
/** With --ci: twice the budget, a guard against taking the page over in
 * one task again (hundreds of ms) that a busier machine does not trip. */
const CI_MAX_TBT_MS = 200;
/** The categories that must score 100 everywhere, in CI too. */
const EXACT = ["accessibility", "best-practices", "seo"];
/** Pages kept out of search engines on purpose. */
const NOINDEX = new Set(["favorites", "compare"]);

const s = await start();
const [car] = await s.api("/api/cars/fast?status=new&limit=1");
const [brand] = await s.api("/api/brands/fast");
const [body] = await s.api("/api/body-types");
const pages = {
  home: "/",
  "new-cars": "/new-cars",
  "used-cars": "/used-cars",
  "lease-cars": "/lease-cars",
  "trade-in": "/trade-in",
  "auto-credit": "/auto-credit",
  "auto-selection": "/auto-selection",
  car: `/car/${car.slug}`,
  brand: `/brand/${brand.slug}`,
  "body-type": `/body-type/${body.bodyType}`,
  consent: "/consent",
  privacy: "/privacy",
  favorites: "/favorites",
  compare: "/compare",
};
/** One Lighthouse run in a browser of its own. */
async function run(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: CHROMIUM_ARGS,
  });
  try {
    return await lighthouse(url, {
      ...MOBILE,
      port: chrome.port,
      onlyCategories: ["performance", ...EXACT],
    });
  } finally {
    chrome.kill();
  }
}
const out = new URL("../lighthouse/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });
const ms = (audit) => Math.round(audit.numericValue);
let failed = false;
try {
  for (const [name, path] of Object.entries(pages)) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await run(s.base + path));
    const median = computeMedianRun(runs.map((r) => r.lhr));
    const result = runs.find((r) => r.lhr === median) ?? runs[0];
    writeFileSync(`${out}${name}.json`, result.report);
    const { categories, audits } = result.lhr;
    const scores = Object.fromEntries(
      Object.entries(categories).map(([k, v]) => [k, Math.round(v.score * 100)]),
    );
    const cls = audits["cumulative-layout-shift"];
    // LCP and the blocking time are judged on the middle of the runs' own
    // values: the median run is chosen by its first paint and its time to
    // interactive, and one run's figure is the machine's moment as much as
    // the page's (2026-12-03: one CI run's home page at 298 ms of blocking
    // time, its runs here 114-192 ms the same hour; a car page's runs at
    // 905, 902 and 1,511 ms of LCP, the last the median run).
    const middle = (id) => {
      const each = runs.map((r) => ms(r.lhr.audits[id]));
      return [[...each].sort((a, b) => a - b)[Math.floor(each.length / 2)], each.join("/")];
    };
    const [lcp, lcps] = middle("largest-contentful-paint");
    const [tbt, tbts] = middle("total-blocking-time");
    console.log(
      `${name.padEnd(14)} ${path.padEnd(44)} ${JSON.stringify(scores)} LCP ${lcp} ms (runs ${lcps}) TBT ${tbt} ms (runs ${tbts}) CLS ${cls.numericValue}`,
    );
    const problems = [];
    for (const category of EXACT) {
      const bad = categories[category].auditRefs
        .map((r) => audits[r.id])
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative")
        .map((a) => a.id)
        .filter((id) => !(NOINDEX.has(name) && id === "is-crawlable"));
      if (bad.length > 0) problems.push(`${category} ${scores[category]}: ${bad.join(", ")}`);
    }
    if (cls.numericValue >= 0.01 || (!CI && cls.numericValue > 0)) {
      problems.push(`layout shift ${cls.numericValue}`);
    }
    if (lcp >= MAX_LCP_MS) problems.push(`LCP ${lcp} ms`);
    if (!CI) {
      if (scores.performance < 100) problems.push(`performance ${scores.performance}`);
      if (tbt >= MAX_TBT_MS) problems.push(`TBT ${tbt} ms`);
    } else if (tbt >= CI_MAX_TBT_MS) {
      problems.push(`TBT ${tbt} ms (the guard in CI is ${CI_MAX_TBT_MS})`);
    }
    for (const problem of problems) console.log(`  over budget: ${problem}`);
    if (problems.length > 0) failed = true;
  }
} finally {
  await s.stop();
}
process.exit(failed ? 1 : 0);
