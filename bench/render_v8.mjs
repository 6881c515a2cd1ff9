// The server render in V8 (node), for comparison with QuickJS
// (benches/render.rs): the same script (ui/dist-server/render.js), the same
// page data (NAME.url + NAME.json pairs captured by bench/pages.sh), the same
// loop. The script runs in a `vm` context whose globals lack Intl, URL and
// URLSearchParams, as in QuickJS (the UI spells numbers and dates without
// Intl and ships its own URLSearchParams).
//
//   node bench/render_v8.mjs              # V8 with its JIT tiers
//   node --jitless bench/render_v8.mjs    # V8's interpreter only (Ignition):
//                                         # what MemoryDenyWriteExecute allows
//
// Environment (all optional): RENDER_SCRIPT, RENDER_DATA_DIR,
// RENDER_ITERATIONS (300), RENDER_WARMUP (30), RENDER_TSV (append one line
// per page), as benches/render.rs.
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const scriptPath = process.env.RENDER_SCRIPT ?? join(root, "ui/dist-server/render.js");
const dataDir = process.env.RENDER_DATA_DIR ?? join(root, "bench/out/render-data");
const iterations = Math.max(1, Number(process.env.RENDER_ITERATIONS ?? 300));
const warmup = Number(process.env.RENDER_WARMUP ?? 30);
const jitless = process.execArgv.includes("--jitless");
const engine = jitless ? "v8-jitless" : "v8";

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const memory = () => {
  globalThis.gc?.();
  return process.memoryUsage();
};
const before = memory();

const script = readFileSync(scriptPath, "utf8");
const cases = readdirSync(dataDir)
  .filter((f) => f.endsWith(".url"))
  .sort()
  .map((f) => {
    const name = f.slice(0, -4);
    return {
      name,
      url: readFileSync(join(dataDir, f), "utf8").trim(),
      data: readFileSync(join(dataDir, `${name}.json`), "utf8"),
    };
  });
if (cases.length === 0) {
  console.error(`render_v8: no NAME.url files in ${dataDir} (run bench/pages.sh first)`);
  process.exit(1);
}

// A fresh context has the language's built-ins only (no console, no URL);
// Intl is a V8 built-in and goes too.
const quiet = () => {};
const context = vm.createContext({
  console: { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet },
});
vm.runInContext("delete globalThis.Intl; delete globalThis.URL; delete globalThis.URLSearchParams;", context);
const missing = vm.runInContext(
  "['Intl','URL','URLSearchParams','TextEncoder','setTimeout'].filter((n) => typeof globalThis[n] !== 'undefined')",
  context,
);
if (missing.length) {
  console.error(`render_v8: the context still has ${missing.join(", ")}`);
  process.exit(1);
}

let started = process.hrtime.bigint();
vm.runInContext(script, context, { filename: "render.js" });
const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
// The page's answers as the server hands them (src/http/held/render.rs):
// URL, JSON, digest, item digests, four strings each, flat. No digests here
// (no fragment store either): every key spells its value out.
const flat = (data) =>
  Object.entries(JSON.parse(data)).flatMap(([url, answer]) => [url, JSON.stringify(answer), "", ""]);
const draw = vm.runInContext("(url, answers) => globalThis.ssr.render(url, answers)", context);
const split = new Map();
const render = (url, data) => {
  if (!split.has(data)) split.set(data, flat(data));
  return draw(url, split.get(data));
};
const loaded = memory();

const quantile = (sorted, q) => sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1];
console.log(
  `render bench: ${engine} (node ${process.version}, V8 ${process.versions.v8}${jitless ? ", --jitless" : ""}), ${scriptPath} (${script.length} chars)`,
);
console.log(`${iterations} timed renders per page after ${warmup} warm-up renders, one context for all pages`);
console.log(
  `script load: ${loadMs.toFixed(1)} ms; process RSS ${mb(before.rss)} MB before the script, ${mb(loaded.rss)} MB after; heap used ${mb(before.heapUsed)} -> ${mb(loaded.heapUsed)} MB`,
);
console.log("");
console.log(
  `${"page".padEnd(16)} ${"html B".padStart(9)} ${"p50 ms".padStart(8)} ${"p90 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)} ${"mean ms".padStart(8)}  url`,
);
let tsv = "";
for (const c of cases) {
  let html = "";
  for (let i = 0; i < warmup; i++) html = await render(c.url, c.data);
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    started = process.hrtime.bigint();
    html = await render(c.url, c.data);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  samples.sort((a, b) => a - b);
  const [p50, p90, p99] = [0.5, 0.9, 0.99].map((q) => quantile(samples, q));
  const max = samples[samples.length - 1];
  console.log(
    `${c.name.padEnd(16)} ${String(Buffer.byteLength(html)).padStart(9)} ${p50.toFixed(2).padStart(8)} ${p90.toFixed(2).padStart(8)} ${p99.toFixed(2).padStart(8)} ${max.toFixed(2).padStart(8)} ${mean.toFixed(2).padStart(8)}  ${c.url}`,
  );
  const m = process.memoryUsage();
  tsv += `${engine}\t${c.name}\t${p50.toFixed(3)}\t${p90.toFixed(3)}\t${p99.toFixed(3)}\t${mean.toFixed(3)}\t${m.rss}\t${m.heapUsed}\n`;
}
const after = memory();
console.log("");
console.log(
  `process after all pages: RSS ${mb(after.rss)} MB (${after.rss} B), heap used ${mb(after.heapUsed)} MB (${after.heapUsed} B), heap total ${mb(after.heapTotal)} MB${globalThis.gc ? " (after gc)" : ""}`,
);
if (process.env.RENDER_TSV) {
  appendFileSync(process.env.RENDER_TSV, tsv + `${engine}\t_process\t${after.rss}\t${after.heapUsed}\t${before.rss}\t${loaded.rss}\n`);
}
