// Runs every browser test file against one server: the demo data is made
// once (its pictures take a while), then node's test runner runs the files.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { startServer } from "./harness.mjs";

const dir = new URL(".", import.meta.url).pathname;
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".test.mjs"))
  .map((f) => dir + f);
const server = await startServer();
const code = await new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    ["--test", "--test-concurrency=1", ...process.argv.slice(2), ...files],
    {
      env: { ...process.env, E2E_BASE: server.base, E2E_DATA: server.data },
      stdio: "inherit",
    },
  );
  child.on("exit", (c) => resolve(c ?? 1));
});
await server.stop();
process.exit(code);
