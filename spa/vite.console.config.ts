import { rename } from "node:fs/promises";
import { join } from "node:path";

import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

import { precompress, routerProductionBuild } from "./vite.shared.ts";

/**
 * The operators' console: its own entry (console.html, src/console/), built into dist-console/
 * with base /admin/, which only the gateway's admin listener serves. Nothing of it is in dist/,
 * and the player site's bundle does not grow.
 */
const dist = join(import.meta.dirname, "dist-console");

/** The gateway serves the console's page as dist-console/index.html, whatever the entry is called. */
function entryAsIndex(): Plugin {
  return {
    name: "console-entry-as-index",
    apply: "build",
    async writeBundle() {
      await rename(join(dist, "console.html"), join(dist, "index.html"));
    },
  };
}

/** `npm run dev:console`: every page under /admin/ is the console's entry, as the gateway does it. */
function consolePages(): Plugin {
  return {
    name: "console-pages",
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const accept = req.headers.accept ?? "";
        if (req.url?.startsWith("/admin") && !req.url.startsWith("/admin/api/") && accept.includes("text/html")) {
          req.url = "/admin/console.html";
        }
        next();
      });
    },
  };
}

// The gateway's admin listener in development (ADMIN_PORT's default).
const admin = "http://127.0.0.1:9100";

export default defineConfig(({ command }) => ({
  base: "/admin/",
  // spa/public holds the player site's files (favicon, lobby pages): none of them belongs here.
  publicDir: false,
  plugins: [react(), consolePages(), entryAsIndex(), precompress(dist)],
  resolve: { alias: command === "build" ? routerProductionBuild : [] },
  server: {
    port: 5174,
    proxy: { "/admin/api": { target: admin }, "/metrics": { target: admin } },
  },
  build: {
    outDir: dist,
    emptyOutDir: true,
    assetsDir: "assets",
    rollupOptions: { input: join(import.meta.dirname, "console.html") },
    // One page for operators on the admin network, loaded once (701 kB, 227 kB gzip with the canary and
    // Planned views, uPlot's ~20 included): React, RTK Query, React Router and i18next are most of it.
    // Loading the canary and Planned views on first visit saved 16 kB of it (their code is shared with
    // the overview's cards), so they stay in the one chunk.
    chunkSizeWarningLimit: 760,
  },
  test: {
    environment: "jsdom",
    // The console lives under /admin/: its cookies (Path=/admin) are visible there.
    environmentOptions: { jsdom: { url: "http://localhost/admin/" } },
    setupFiles: ["./src/console/test/setup.ts"],
    include: ["src/console/**/*.test.{ts,tsx}"],
    restoreMocks: true,
    unstubGlobals: true,
    // One jsdom and one module graph per worker, not per file: the same tests in about a third of
    // the CPU (setup.ts puts back what the app keeps at module level after each test).
    isolate: false,
    // A flow test types a URL and a reason and walks several dialogs: over 5 s on a loaded machine.
    testTimeout: 20_000,
  },
}));
