import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// The BFF (gateway) in development; it picks the skin from the Host header, so the
// proxy keeps the browser's Host (no changeOrigin).
const bff = "http://127.0.0.1:8000";
const bffPrefixes = ["/api", "/capi", "/sbapi", "/rest", "/bff"];

export default defineConfig({
  plugins: [react()],
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
});
