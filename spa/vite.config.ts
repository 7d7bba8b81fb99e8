import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

/**
 * Writes `<asset>.br` and `<asset>.gz` next to each script, style and SVG of the build, so the
 * gateway serves the one a browser accepts without compressing on every request (the hashed
 * assets never change). Brotli at its best quality (11): time is free at build time, and it is
 * about a sixth smaller than gzip -9 for the scripts.
 */
function precompress(): Plugin {
  return {
    name: "precompress-assets",
    apply: "build",
    async closeBundle() {
      const assets = join(import.meta.dirname, "dist", "assets");
      for (const name of await readdir(assets)) {
        if (!/\.(js|css|svg|json)$/.test(name)) continue;
        const body = await readFile(join(assets, name));
        const gzipped = gzipSync(body, { level: 9 });
        if (gzipped.length < body.length) await writeFile(join(assets, `${name}.gz`), gzipped);
        const brotli = brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        });
        if (brotli.length < body.length) await writeFile(join(assets, `${name}.br`), brotli);
      }
    },
  };
}

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

/**
 * React Router 7's package exports only its development build (remix-run/react-router#12532,
 * "intended to be temporary"): its warnings and checks run on every navigation. The production
 * build of the same version sits beside it; a build resolves to it.
 */
const routerProductionBuild = [
  { find: /^react-router$/, replacement: join(import.meta.dirname, "node_modules/react-router/dist/production/index.mjs") },
  { find: /^react-router\/dom$/, replacement: join(import.meta.dirname, "node_modules/react-router/dist/production/dom-export.mjs") },
];

export default defineConfig(({ command }) => ({
  plugins: [react(), inlineEntryCss(), precompress()],
  resolve: { alias: command === "build" ? routerProductionBuild : [] },
  server: {
    proxy: Object.fromEntries(bffPrefixes.map((prefix) => [prefix, { target: bff }])),
  },
  build: {
    outDir: "dist",
    assetsDir: "assets",
    // scripts/bundle-size.mjs reads dist/.vite/manifest.json.
    manifest: true,
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    restoreMocks: true,
    unstubGlobals: true,
  },
}));
