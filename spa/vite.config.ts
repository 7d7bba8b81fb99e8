import { join } from "node:path";

import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { configDefaults, defineConfig } from "vitest/config";

import { precompress, routerProductionBuild } from "./vite.shared.ts";

/**
 * Puts the entry stylesheet into index.html as a `<style>` element. A linked stylesheet blocks
 * the first paint until it arrives, one more round trip on a phone's network; inline, the page
 * paints its frame while the scripts are still loading. (The lazily loaded screens keep their
 * own linked CSS.)
 */
function inlineEntryCss(): Plugin {
  return {
    name: "inline-entry-css",
    apply: "build",
    enforce: "post",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g, (link, name: string) => {
          const asset = bundle[name];
          if (!asset || asset.type !== "asset") return link;
          const css = typeof asset.source === "string" ? asset.source : new TextDecoder().decode(asset.source);
          return `<style>${css.replace(/<\/style/gi, "<\\/style")}</style>`;
        });
      },
    },
  };
}

// The BFF (gateway) in development; it picks the skin from the Host header, so the
// proxy keeps the browser's Host (no changeOrigin).
const bff = "http://127.0.0.1:8000";
const bffPrefixes = ["/api", "/capi", "/sbapi", "/rest", "/bff"];

export default defineConfig(({ command }) => ({
  plugins: [react(), inlineEntryCss(), precompress(join(import.meta.dirname, "dist"))],
  resolve: { alias: command === "build" ? routerProductionBuild : [] },
  server: {
    proxy: Object.fromEntries(bffPrefixes.map((prefix) => [prefix, { target: bff }])),
  },
  build: {
    outDir: "dist",
    assetsDir: "assets",
    // scripts/bundle-size.mjs reads dist/.vite/manifest.json.
    manifest: true,
    // Everything the first page loads anyway (the entry and what it imports statically) is one
    // file, not the entry plus a dozen shared pieces the lazy screens also import: the same bytes
    // (3.7 kB less gzip), twelve requests fewer before anything a screen asks for. On a phone's
    // HTTP/1.1 connection (six at a time) those were three waves of round trips in front of the
    // screen's own code and data: Lighthouse's simulated mobile LCP of /deposit went from 3.3 s
    // to 2.8 s with it (bench/lighthouse.py, side by side). Its size is watched by
    // scripts/bundle-size.mjs (the budget), so the generic 500 kB warning is raised.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [{ name: "app", tags: ["$initial"] }] },
      },
    },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    // The operators' console has its own i18n and setup: vite.console.config.ts runs its tests.
    exclude: [...configDefaults.exclude, "src/console/**"],
    restoreMocks: true,
    unstubGlobals: true,
    // One jsdom and one module graph per worker, not per file: the same tests in about a third of
    // the CPU (setup.ts puts back what the app keeps at module level after each test).
    isolate: false,
    // A file's first whole-app render loads its lazy screens: over 5 s on a busy 2-core machine.
    testTimeout: 15_000,
  },
}));
