// How quickly the admin cars screen shows its first page with a big
// catalogue: a fresh data directory gets COUNT cars (bench/load_cars.py) and
// an admin user, the server starts, Chromium logs in once and then opens
// /admin/cars RUNS times, timing navigation start → the first car card drawn
// (and, separately, the API answer of the first page). Then it types a
// search word by word and times the answer.
//
//   node scripts/admin-cars-bench.mjs [COUNT=10000] [RUNS=5]
// Environment: DEALERSHIP_BIN (default ../target/release/dealership; a debug
// binary serves the ui/dist of the tree it was built in), CHROME_PATH.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, DESKTOP } from "../tests/e2e/harness.mjs";

const COUNT = Number(process.argv[2] ?? 10000);
const RUNS = Number(process.argv[3] ?? 5);
const bin = resolve(process.env.DEALERSHIP_BIN ?? "../target/release/dealership");
const root = new URL("../..", import.meta.url).pathname;
const data = mkdtempSync(join(tmpdir(), "dealership-bench-"));
const USER = "bench";
const PASSWORD = "bench-password-1";

function port() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port: p } = server.address();
      server.close(() => ok(p));
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

execFileSync(bin, ["--data", data, "migrate"], { stdio: "inherit" });
execFileSync(
  "python3",
  [join(root, "bench/load_cars.py"), join(data, "dealership.db"), String(COUNT)],
  {
    stdio: ["ignore", "ignore", "inherit"],
  },
);
execFileSync(bin, ["--data", data, "user", "create", USER, "--password-stdin"], {
  input: `${PASSWORD}\n`,
  stdio: ["pipe", "ignore", "inherit"],
});
const base = `http://127.0.0.1:${await port()}`;
const server = spawn(bin, ["--data", data, "serve", "--listen", base.slice(7)], {
  env: { ...process.env, RUST_LOG: "warn", DEALERSHIP_BASE_URL: base },
  stdio: ["ignore", "inherit", "inherit"],
});
let browser;
try {
  for (let i = 0; ; i += 1) {
    try {
      if ((await fetch(`${base}/api/settings`)).ok) break;
    } catch {
      // not yet listening
    }
    if (i > 600) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ viewport: DESKTOP, locale: "ru-RU" });
  const page = await context.newPage();
  await page.goto(`${base}/admin`);
  await page.getByLabel("Логин").fill(USER);
  await page.getByLabel("Пароль").fill(PASSWORD);
  await page.getByRole("button", { name: "Войти" }).click();
  await page.getByRole("heading", { level: 1, name: "Панель администратора" }).waitFor();

  const firstCard = [];
  const firstAnswer = [];
  for (let run = 0; run < RUNS + 1; run += 1) {
    const answer = page.waitForResponse((r) => r.url().includes("/api/admin/cars?"));
    await page.goto(`${base}/admin/cars`);
    await page.getByTestId("car-card").first().waitFor();
    const shown = await page.evaluate(() => performance.now());
    const response = await answer;
    const timing = response.request().timing();
    // The first run warms the caches; it is not counted.
    if (run === 0) continue;
    firstCard.push(shown);
    firstAnswer.push(timing.responseEnd);
  }
  const total = await page.getByTestId("admin-count").innerText();

  // Typing: one request per pause, the page never blocked.
  const search = page.getByTestId("car-search");
  const typed = Date.now();
  await search.pressSequentially("toyota camry 2023", { delay: 40 });
  const typing = Date.now() - typed;
  await page.getByTestId("found").filter({ hasText: "Найдено" }).waitFor();
  const found = Date.now() - typed - typing;
  const longTasks = await page.evaluate(
    () =>
      new Promise((ok) => {
        const seen = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) seen.push(e.duration);
        }).observe({ type: "longtask", buffered: true });
        setTimeout(() => ok(seen), 50);
      }),
  );

  console.log(`cars in the database: ${COUNT} (screen says ${total.trim()})`);
  console.log(
    `/admin/cars first page drawn (navigation start → first card): median ${ms(median(firstCard))} of ${RUNS} (${firstCard.map(ms).join(", ")})`,
  );
  console.log(`first page API answer (request → response end): median ${ms(median(firstAnswer))}`);
  console.log(
    `typing 17 characters: ${ms(typing)}; results ${ms(found)} after the last key; long tasks ${longTasks.length} (max ${ms(Math.max(0, ...longTasks))})`,
  );
} finally {
  await browser?.close();
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  rmSync(data, { recursive: true, force: true });
}
