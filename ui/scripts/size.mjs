// The JavaScript budgets. A public page downloads the entry chunk and its
// static imports, never the lazily loaded admin panel: gzip-compressed they
// must stay within 42.5 KB (the server draws the pages: docs/rendering.md; 40 KB
// until the catalogue's filters became a form that works without scripts and
// every script-needing control got its note, issue 43; 41 KB until several
// salons, issue 46: a car's salon on its card and page, drawn on the server
// from the same components, and the catalogue's «Салон» filter; the general
// forms' salon choice and its hours now are lazy chunks loaded only on a site
// with several salons; 42 KB until the lease page and a brand's page became
// numbered pages the server draws, issue 47: a brand's sections each with its
// own pages, its counters and models read from the API, its model filter a
// form that works without scripts; making either page a lazy chunk split the
// router out of the entry and weighed more). The admin panel (its chunk and every chunk it
// imports or loads lazily, less what the public page already has) has a
// budget of its own: 183 KB gzip (150 KB until the panel gained a person's
// requests, retention and ad marking; 165 KB until each car's fate and figures
// on the marketplaces came: the car's charts drawn as inline SVG without a
// chart library, the dashboard's two cards, two settings, issue 44; 169 KB
// since the car form gained the marketplaces' fields (owners, accident, state,
// wheel) and the notice of the feeds that leave a car out, and the parser
// screen the list of those cars, issue 44 item 0; 171 KB since the
// marketplaces' connections screen «Площадки», 1.6 KB, issue 44; 174 KB
// since calls came in as leads: the «Звонки» screen of the call-tracking
// services, a lead's calls and its callback's outcome, issue 45; 175 KB
// since the dashboard counts the calls called back per manager and the
// team's dialogs set the PBX number, issue 45; 182 KB since several salons,
// issue 46: the «Салоны» screen (its form: addresses, hours, recipients per
// lead type, the salon's legal entity; a lazy chunk of 4.6 KB), a car's
// salon and its move in the car's form, the team's salons, a lead's salon;
// 183 KB since an import feed's salon;
// each screen is a lazy chunk of its own,
// so a screen opened downloads a fraction of it). No admin module may end up in the public
// page's files.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET = 42.5 * 1024;
const ADMIN_BUDGET = 183 * 1024;
const dist = new URL("../dist/", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));
const entry = manifest["src/main.tsx"];
if (!entry) throw new Error("no src/main.tsx entry in the manifest: run npm run build");

const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** The files of `chunk` and of what it imports (and, with `lazy`, of what it
 * loads lazily), transitively. */
function closure(chunk, lazy, files = new Set(), sources = new Set()) {
  if (files.has(chunk.file)) return { files, sources };
  files.add(chunk.file);
  if (chunk.src) sources.add(chunk.src);
  const next = [...(chunk.imports ?? []), ...(lazy ? (chunk.dynamicImports ?? []) : [])];
  for (const name of next) {
    const dep = manifest[name];
    if (dep) closure(dep, lazy, files, sources);
  }
  return { files, sources };
}

const publicPage = closure(entry, false);
let js = 0;
for (const file of publicPage.files) js += gz(file);
const css = (entry.css ?? []).reduce((sum, file) => sum + gz(file), 0);
const lazy = (entry.dynamicImports ?? []).map((name) => manifest[name]);
const admin = lazy.find((c) => c?.src?.includes("admin"));

console.log(
  `public page JavaScript: ${kb(js)} gzip (${[...publicPage.files].join(", ")}), budget ${kb(BUDGET)}`,
);
console.log(`public page CSS: ${kb(css)} gzip`);
let failed = false;
if (!admin || publicPage.files.has(admin.file)) {
  console.error("the admin panel must be its own lazily loaded chunk");
  process.exit(1);
}
const adminPart = closure(admin, true);
const adminFiles = [...adminPart.files].filter((f) => !publicPage.files.has(f));
const adminJs = adminFiles.reduce((sum, file) => sum + gz(file), 0);
console.log(
  `admin panel JavaScript (lazy, not on public pages): ${kb(adminJs)} gzip in ${adminFiles.length} chunks, budget ${kb(ADMIN_BUDGET)}`,
);
const leaked = [...publicPage.sources].filter((src) => src.includes("src/admin/"));
if (leaked.length > 0) {
  console.error(`admin modules in the public page: ${leaked.join(", ")}`);
  failed = true;
}
// A text only the admin panel has (its login screen) must not be in them either.
for (const file of publicPage.files) {
  if (readFileSync(join(dist, file), "utf8").includes("Вход в панель администратора")) {
    console.error(`admin code bundled into the public page: ${file}`);
    failed = true;
  }
}
console.log(`public page JavaScript in bytes: ${js} of ${BUDGET}`);
if (js > BUDGET) {
  console.error(`over the public JavaScript budget by ${kb(js - BUDGET)}`);
  failed = true;
}
if (adminJs > ADMIN_BUDGET) {
  console.error(`over the admin JavaScript budget by ${kb(adminJs - ADMIN_BUDGET)}`);
  failed = true;
}
if (failed) process.exit(1);
