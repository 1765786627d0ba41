import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";

/**
 * The web app. `npm start` builds it into dist/, which the server serves at `/`. In development
 * (`npm run dev -w @forum-mafia/web`) Vite serves it and forwards /api to the server on port 3000.
 *
 * Every file of the build gets a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside it, made
 * once here rather than on each request: the server sends the one the browser accepts (issue 12).
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), compression({ algorithms: ["brotliCompress", "gzip"], logLevel: "silent" })],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: false,
    // Issue 32: on a busy machine the bundler printed a yellow English [PLUGIN_TIMINGS] block (the brotli
    // copies at quality 11 take most of the build) on every `npm start`, which a newcomer reads as a fault.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: { proxy: { "/api": { target: "http://127.0.0.1:3000", changeOrigin: false } } },
});
