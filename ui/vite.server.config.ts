import { fileURLToPath } from "node:url";
import preact from "@preact/preset-vite";
import { defineConfig, type Plugin } from "vite";

/** The admin panel is never drawn on the server (its shell is sent as it
 * is): its chunk is left out of the server build. */
function withoutAdmin(): Plugin {
  const empty = fileURLToPath(new URL("src/server/noAdmin.tsx", import.meta.url));
  return {
    name: "without-admin",
    enforce: "pre",
    resolveId(source) {
      return source === "./admin/AdminApp" ? empty : null;
    },
  };
}

// The server build (dist-server/render.js): one self-contained script that
// src/http/pages/render.rs evaluates in QuickJS. It defines globalThis.ssr.
export default defineConfig({
  plugins: [withoutAdmin(), preact()],
  resolve: {
    alias: { "use-sync-external-store/shim/index.js": "preact/compat" },
  },
  ssr: { noExternal: true, target: "webworker" },
  build: {
    ssr: "src/server/render.tsx",
    outDir: "dist-server",
    emptyOutDir: true,
    target: "es2020",
    minify: true,
    rollupOptions: {
      output: {
        format: "iife",
        name: "ssr",
        entryFileNames: "render.js",
        inlineDynamicImports: true,
      },
    },
  },
});
