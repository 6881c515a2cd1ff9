import preact from "@preact/preset-vite";
import { defineConfig } from "vitest/config";

// The server (src/http/pages) renders the HTML shell and reads
// dist/.vite/manifest.json to link the entry script and its styles.
export default defineConfig({
  plugins: [preact()],
  build: {
    manifest: true,
    target: "es2020",
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
