// Lighthouse at mobile settings on the home page, the new-cars catalogue and
// a car page, against the release binary with demo data. Not part of CI:
//   cargo build --release && (cd ui && npm run lighthouse)
// Prints the four category scores per page and writes the JSON reports to
// ui/lighthouse/ (ignored by git). Exits 1 when a score is under 95, the
// accessibility score under 100 (docs/accessibility.md), LCP 1.5 s or more
// or total blocking time 100 ms or more (docs/rendering.md).
import { mkdirSync, writeFileSync } from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, start } from "../tests/e2e/harness.mjs";
import { MOBILE } from "./lighthouse-settings.mjs";

const MIN = 95;
const MAX_LCP_MS = 1500;
const MAX_TBT_MS = 100;
/** Accessibility has no slack: every audit of the category passes. */
const MIN_SCORE = { accessibility: 100 };
const s = await start();
const [car] = await s.api("/api/cars/fast?status=new&limit=1");
const pages = { home: "/", "new-cars": "/new-cars", car: `/car/${car.slug}` };
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: CHROMIUM_ARGS,
});
const out = new URL("../lighthouse/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });
let failed = false;
try {
  for (const [name, path] of Object.entries(pages)) {
    const result = await lighthouse(s.base + path, {
      ...MOBILE,
      port: chrome.port,
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    });
    writeFileSync(`${out}${name}.json`, result.report);
    const scores = Object.fromEntries(
      Object.entries(result.lhr.categories).map(([k, v]) => [k, Math.round(v.score * 100)]),
    );
    const audits = result.lhr.audits;
    console.log(
      `${name.padEnd(9)} ${path.padEnd(40)} ${JSON.stringify(scores)} LCP ${audits["largest-contentful-paint"].displayValue} CLS ${audits["cumulative-layout-shift"].displayValue} TBT ${audits["total-blocking-time"].displayValue}`,
    );
    // Issue 24's budgets: LCP under 1.5 s and total blocking time under 100 ms.
    const lcp = audits["largest-contentful-paint"].numericValue;
    const tbt = audits["total-blocking-time"].numericValue;
    if (lcp >= MAX_LCP_MS || tbt >= MAX_TBT_MS) {
      failed = true;
      console.log(`  over budget: LCP ${Math.round(lcp)} ms, TBT ${Math.round(tbt)} ms`);
    }
    for (const [category, score] of Object.entries(scores)) {
      if (score < (MIN_SCORE[category] ?? MIN)) {
        failed = true;
        const cat = result.lhr.categories[category];
        const bad = cat.auditRefs
          .map((r) => audits[r.id])
          .filter(
            (a) =>
              a.score !== null &&
              a.score < (category === "accessibility" ? 1 : 0.9) &&
              a.scoreDisplayMode !== "informative",
          );
        console.log(`  ${category} ${score}: ${bad.map((a) => `${a.id} (${a.score})`).join(", ")}`);
      }
    }
  }
} finally {
  chrome.kill();
  await s.stop();
}
process.exit(failed ? 1 : 0);
