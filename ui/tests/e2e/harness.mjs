// Browser-test harness: the real release binary with demo data on a
// temporary data directory, Debian's Chromium driven by playwright-core.
//
// Environment:
//   DEALERSHIP_BIN  the binary (default ../target/release/dealership)
//   CHROME_PATH     the browser (default /usr/bin/chromium)
// Leads are checked in the server's SQLite file with python3's sqlite3
// module (Node 20 has no SQLite of its own).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 900 };

export function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.unref();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

async function waitForServer(base, child) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${base}/api/settings`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not start in 180 s");
}

/** Starts the release binary with demo data on a fresh data directory.
 * `env` adds settings (`DEALERSHIP_SMTP_HOST`, ...); `demo: false` starts an
 * empty site (quick) with only the demo admin user. */
export async function startServer({ env = {}, demo = true } = {}) {
  const bin = resolve(process.env.DEALERSHIP_BIN ?? "../target/release/dealership");
  const data = mkdtempSync(join(tmpdir(), "dealership-e2e-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  if (!demo) {
    execFileSync(bin, ["--data", data, "user", "create", "demo", "--password-stdin"], {
      input: "demo-password\n",
      stdio: ["pipe", "ignore", "inherit"],
    });
  }
  const args = [
    "--data",
    data,
    "serve",
    ...(demo ? ["--demo"] : []),
    "--listen",
    `127.0.0.1:${port}`,
  ];
  const child = spawn(bin, args, {
    env: {
      ...process.env,
      DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE: "0",
      DEALERSHIP_BASE_URL: base,
      RUST_LOG: "warn",
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  // The demo draws its pictures on first start: allow for a slow machine.
  await waitForServer(base, child);
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    rmSync(data, { recursive: true, force: true });
  };
  return { base, data, stop };
}

/** A drawn page's code starts after its first paint (src/http/pages/loader.js,
 * docs/rendering.md): the page's own loads (`goto`, `reload`, back and
 * forward) return once the code has taken the page over, as they did when
 * the code was linked in the page. A press before that is held and done
 * again by the loader (rendered.test.mjs tests it on a page of its own). */
function untilLiveAfterLoads(page) {
  for (const name of ["goto", "reload", "goBack", "goForward"]) {
    const load = page[name].bind(page);
    page[name] = async (...args) => {
      const response = await load(...args);
      await page.waitForFunction(
        () =>
          !document.querySelector("script[data-entry]") ||
          document.documentElement.hasAttribute("data-live"),
      );
      return response;
    };
  }
}

/** The browser and helpers, on the server of the run (E2E_BASE and E2E_DATA,
 * set by run.mjs) or on one of its own (always with `server` options). */
export async function start(server) {
  const own = process.env.E2E_BASE && !server ? null : await startServer(server);
  const base = own?.base ?? process.env.E2E_BASE;
  const data = own?.data ?? process.env.E2E_DATA;
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  const dbPath = join(data, "dealership.db");

  /** Rows of a read-only query on the server's database, as objects. */
  function query(sql, params = []) {
    const script =
      "import json,sqlite3,sys\n" +
      "c=sqlite3.connect('file:'+sys.argv[1]+'?mode=ro',uri=True)\n" +
      "c.row_factory=sqlite3.Row\n" +
      "rows=c.execute(sys.argv[2],json.loads(sys.argv[3])).fetchall()\n" +
      "print(json.dumps([dict(r) for r in rows]))";
    const out = execFileSync("python3", ["-c", script, dbPath, sql, JSON.stringify(params)]);
    return JSON.parse(out.toString());
  }

  /** Writes to the server's database behind its back, as someone with
   * `sqlite3` would (data from before a rule, a hand edit). */
  function write(sql, params = []) {
    const script =
      "import json,sqlite3,sys\n" +
      "c=sqlite3.connect(sys.argv[1],timeout=10)\n" +
      "c.execute(sys.argv[2],json.loads(sys.argv[3]))\n" +
      "c.commit()";
    execFileSync("python3", ["-c", script, dbPath, sql, JSON.stringify(params)]);
    // Another process's write reaches the server's answer cache within a
    // tenth of a second (docs/cache.md).
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
  }

  async function api(path) {
    const r = await fetch(base + path);
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    return r.json();
  }

  /** A new page at a viewport, failing the test on script errors; `options`
   * go to the browser context (`hasTouch`, `permissions`). */
  async function open(viewport, path, options = {}) {
    const context = await browser.newContext({ viewport, locale: "ru-RU", ...options });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error" && !m.text().includes("404")) errors.push(m.text());
    });
    page.errors = errors;
    if (options.javaScriptEnabled !== false) {
      untilLiveAfterLoads(page);
      context.on("page", untilLiveAfterLoads);
    }
    if (path) await page.goto(base + path);
    return page;
  }

  async function stop() {
    await browser.close();
    await own?.stop();
  }

  return { base, data, query, write, api, open, stop };
}
