// The JavaScript budget: what a public page downloads (the entry chunk and
// its static imports, never the lazily loaded admin chunk), gzip-compressed,
// must stay within 60 KB.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET = 60 * 1024;
const dist = new URL("../dist/", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));
const entry = manifest["src/main.tsx"];
if (!entry) throw new Error("no src/main.tsx entry in the manifest: run npm run build");

const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const publicFiles = new Set([entry.file]);
const walk = (chunk) => {
  for (const name of chunk.imports ?? []) {
    const dep = manifest[name];
    if (dep && !publicFiles.has(dep.file)) {
      publicFiles.add(dep.file);
      walk(dep);
    }
  }
};
walk(entry);
let js = 0;
for (const file of publicFiles) js += gz(file);
const css = (entry.css ?? []).reduce((sum, file) => sum + gz(file), 0);
const lazy = (entry.dynamicImports ?? []).map((name) => manifest[name]);
const admin = lazy.find((c) => c?.src?.includes("admin"));

console.log(
  `public page JavaScript: ${kb(js)} gzip (${[...publicFiles].join(", ")}), budget ${kb(BUDGET)}`,
);
console.log(`public page CSS: ${kb(css)} gzip`);
if (admin)
  console.log(`admin chunk (lazy, not on public pages): ${admin.file} ${kb(gz(admin.file))} gzip`);
if (!admin || publicFiles.has(admin.file)) {
  console.error("the admin panel must be its own lazily loaded chunk");
  process.exit(1);
}
if (js > BUDGET) {
  console.error(`over the JavaScript budget by ${kb(js - BUDGET)}`);
  process.exit(1);
}
