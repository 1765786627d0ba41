import react from "@vitejs/plugin-react";
import { defineConfig, type LogLevel } from "vite";
import { compression } from "vite-plugin-compression2";
import { VitePWA } from "vite-plugin-pwa";

/** The build's log level (`npm start` builds with `warn`), for the service worker's own build too. */
let logLevel: LogLevel = "info";

/** The page's colours (styles.css: --bg and --accent, light scheme), for the installed app's frame. */
const BACKGROUND = "#f6f5f2";
const THEME = "#2b5fb8";

/**
 * The web app. `npm start` builds it into dist/, which the server serves at `/`. In development
 * (`npm run dev -w @forum-mafia/web`) Vite serves it and forwards /api to the server on port 3000.
 *
 * Every file of the build gets a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside it, made
 * once here rather than on each request: the server sends the one the browser accepts (issue 12).
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    // Issue 32: installable on a phone. The manifest, and the service worker built from src/sw.ts with the
    // list of the build's files to keep (workbox's precache). The page registers it itself (main.tsx).
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src",
      filename: "sw.ts",
      injectRegister: false,
      manifestFilename: "manifest.webmanifest",
      injectManifest: { globPatterns: ["**/*.{js,css,html,svg}"] },
      // The worker's build is a Vite build of its own: as quiet as the app's, and without the bundler's
      // notice about the plugin's deprecated output option (one file either way).
      integration: {
        configureOptions: (resolved) => {
          logLevel = resolved.logLevel ?? "info";
        },
        configureCustomSWViteBuild: (inline) => {
          inline.logLevel = logLevel;
          const output = inline.build?.rollupOptions?.output;
          if (output && !Array.isArray(output)) {
            delete output.inlineDynamicImports;
            Object.assign(output, { codeSplitting: false });
          }
        },
      },
      manifest: {
        id: "/",
        name: "Форумная мафия",
        short_name: "Мафия",
        description:
          "Форумная мафия по правилам сида: игры с ведущим и без, ходы и голосование, итоги ночей и дней, проверяемые лог и реплей, подсчёт голосов в темах других форумов.",
        lang: "ru",
        dir: "ltr",
        start_url: "/",
        scope: "/",
        display: "standalone",
        background_color: BACKGROUND,
        theme_color: THEME,
        icons: [
          { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
    }),
    compression({ algorithms: ["brotliCompress", "gzip"], logLevel: "silent" }),
  ],
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
