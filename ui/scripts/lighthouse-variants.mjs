// An experiment for the pages' speed budgets (issue 24, docs/rendering.md):
// Lighthouse at mobile settings, each run through a proxy that rewrites the
// served HTML by a variant's [from, to] pairs (a variant with none is piped
// as served), printing the simulated and the observed paints and the LCP
// element's phases. Compare a variant with a no-op control, never with the
// direct runs: the rewriting proxy itself costs time. Not part of CI:
//   cargo build --release && (cd ui && node scripts/lighthouse-variants.mjs \
//     '{"control":[["zzz","x"]],"inline":[["<link …>","<style>…</style>"]]}' / 3)
// A variants file may be given as @path. Reports go to /tmp/lcp/.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, startServer } from "../tests/e2e/harness.mjs";
import { MOBILE } from "./lighthouse-settings.mjs";

const s = await startServer();
const arg = process.argv[2] ?? '{"base":[]}';
const variants = JSON.parse(arg.startsWith("@") ? readFileSync(arg.slice(1), "utf8") : arg);
const path = process.argv[3] ?? "/";
const runs = Number(process.argv[4] ?? 2);
let rewrite = [];
const proxy = http.createServer((req, res) => {
  const headers = { ...req.headers };
  if (rewrite.length > 0) headers["accept-encoding"] = "identity";
  const up = http.request(s.base + req.url, { method: req.method, headers }, (r) => {
    const html = (r.headers["content-type"] ?? "").startsWith("text/html");
    if (!html || rewrite.length === 0) {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
      return;
    }
    const chunks = [];
    r.on("data", (c) => chunks.push(c));
    r.on("end", () => {
      let text = Buffer.concat(chunks).toString();
      for (const [from, to] of rewrite) text = text.split(from).join(to);
      const headers = { ...r.headers };
      delete headers["content-length"];
      delete headers["content-encoding"];
      delete headers.etag;
      const zip = /gzip/.test(req.headers["accept-encoding"] ?? "");
      if (zip) headers["content-encoding"] = "gzip";
      res.writeHead(r.statusCode, headers);
      res.end(zip ? gzipSync(text) : text);
    });
  });
  req.pipe(up);
});
await new Promise((r) => proxy.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${proxy.address().port}`;
const chrome = await chromeLauncher.launch({
  chromePath: "/usr/bin/chromium",
  chromeFlags: CHROMIUM_ARGS,
});
try {
  for (let i = 0; i < runs; i += 1) {
    for (const [name, rules] of Object.entries(variants)) {
      rewrite = rules;
      const result = await lighthouse(base + path, {
        ...MOBILE,
        port: chrome.port,
        onlyCategories: ["performance"],
      });
      const a = result.lhr.audits;
      mkdirSync("/tmp/lcp", { recursive: true });
      writeFileSync(`/tmp/lcp/${name}-${i}.json`, result.report);
      const m = a.metrics.details.items[0];
      console.log(
        `${name.padEnd(10)} ${JSON.stringify(a["largest-contentful-paint-element"].details?.items?.[1]?.items?.map((p) => `${p.phase}:${Math.round(p.timing)}`))} el ${a["largest-contentful-paint-element"].details?.items?.[0]?.items?.[0]?.node?.selector} perf ${Math.round(result.lhr.categories.performance.score * 100)} FCP ${a["first-contentful-paint"].displayValue} LCP ${a["largest-contentful-paint"].displayValue} TBT ${a["total-blocking-time"].displayValue} | observed FCP ${m.observedFirstContentfulPaint} LCP ${m.observedLargestContentfulPaint} DCL ${m.observedDomContentLoaded} load ${m.observedLoad}`,
      );
    }
  }
} finally {
  chrome.kill();
  proxy.close();
  await s.stop();
}
