import preact from "@preact/preset-vite";
import { defineConfig } from "vitest/config";

// The server (src/http/pages) renders the HTML shell and reads
// dist/.vite/manifest.json to link the entry script and its styles.
export default defineConfig({
  plugins: [preact()],
  resolve: {
    // wouter's shim for React before 18; preact/compat has the hook itself.
    alias: { "use-sync-external-store/shim/index.js": "preact/compat" },
  },
  build: {
    manifest: true,
    target: "es2020",
    cssTarget: ["chrome100", "edge100", "firefox100", "safari15"],
    cssCodeSplit: true,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: "src/main.tsx",
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
  },
});
