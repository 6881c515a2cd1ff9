import { fileURLToPath } from "node:url";
import preact from "@preact/preset-vite";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

/** The chunks the entry imports (itself included), loaded before any lazy
 * chunk can be asked for: a lazy chunk's list of what to fetch with it
 * leaves them out (every name in that list is bytes of the entry). */
const loadedFirst = new Set<string>();
const knowLoadedFirst: Plugin = {
  name: "dealership:loaded-first",
  generateBundle(_, bundle) {
    loadedFirst.clear();
    const add = (name: string) => {
      const chunk = bundle[name];
      if (loadedFirst.has(name) || chunk?.type !== "chunk") return;
      loadedFirst.add(name);
      for (const next of chunk.imports) add(next);
    };
    for (const chunk of Object.values(bundle)) {
      if (chunk.type === "chunk" && chunk.isEntry) add(chunk.fileName);
    }
  },
};

/** The browser's build takes lib/serverFragments.browser.ts for
 * lib/serverFragments.tsx: the fragments the server draws once are their
 * components themselves there (the tests and the server build keep the
 * module itself). */
const browserFragments: Plugin = {
  name: "dealership:browser-fragments",
  apply: "build",
  enforce: "pre",
  resolveId(source) {
    return source.endsWith("/lib/serverFragments")
      ? fileURLToPath(new URL("src/lib/serverFragments.browser.ts", import.meta.url))
      : null;
  },
};

// The server (src/http/pages) renders the HTML shell and reads
// dist/.vite/manifest.json to link the entry script and its styles.
export default defineConfig({
  plugins: [preact(), knowLoadedFirst, browserFragments],
  resolve: {
    // wouter's shim for React before 18; preact/compat has the hook itself.
    alias: { "use-sync-external-store/shim/index.js": "preact/compat" },
  },
  build: {
    manifest: true,
    target: "es2020",
    cssTarget: ["chrome100", "edge100", "firefox100", "safari15"],
    cssCodeSplit: true,
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_, deps) => deps.filter((dep) => !loadedFirst.has(dep)),
    },
    rollupOptions: {
      input: "src/main.tsx",
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
  },
});
