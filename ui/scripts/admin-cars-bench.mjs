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
const QUERY = "toyota camry";
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

const step = (text) => console.error(`… ${text}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

step(`loading ${COUNT} cars into ${data}`);
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
  step(`server at ${base}; logging in with Chromium`);
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
  await page
    .getByRole("heading", { level: 1, name: "Панель администратора", exact: true })
    .waitFor();

  step("timing /admin/cars");
  const firstCard = [];
  const firstAnswer = [];
  for (let run = 0; run < RUNS + 1; run += 1) {
    await page.goto(`${base}/admin/cars`);
    try {
      await page.getByTestId("car-card").first().waitFor({ timeout: 60_000 });
    } catch (e) {
      await page.screenshot({ path: join(tmpdir(), "admin-cars-bench.png") });
      throw e;
    }
    // Times from the navigation's start (performance.timeOrigin).
    const t = await page.evaluate(() => {
      const api = performance
        .getEntriesByType("resource")
        .find((e) => e.name.includes("/api/admin/cars?"));
      return { shown: performance.now(), answer: api?.responseEnd ?? Number.NaN };
    });
    // The first run warms the caches; it is not counted.
    if (run === 0) continue;
    firstCard.push(t.shown);
    firstAnswer.push(t.answer);
  }
  const total = await page.getByTestId("admin-count").innerText();

  // Typing: one request per pause, the page never blocked.
  const search = page.getByTestId("car-search");
  const typed = Date.now();
  await search.pressSequentially(QUERY, { delay: 40 });
  const typing = Date.now() - typed;
  await page
    .locator('[data-testid="found"]:has-text("Найдено"), [data-testid="empty"]')
    .first()
    .waitFor();
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
  console.log(
    `first page API answer received (navigation start → response end): median ${ms(median(firstAnswer))}`,
  );
  console.log(
    `typing "${QUERY}" (${QUERY.length} keys, 40 ms apart): ${ms(typing)}; results ${ms(found)} after the last key; long tasks ${longTasks.length} (max ${ms(Math.max(0, ...longTasks))})`,
  );
} finally {
  await browser?.close();
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  rmSync(data, { recursive: true, force: true });
}
