import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * The web app. `npm start` builds it into dist/, which the server serves at `/`. In development
 * (`npm run dev -w @forum-mafia/web`) Vite serves it and forwards /api to the server on port 3000.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", reportCompressedSize: false },
  server: { proxy: { "/api": { target: "http://127.0.0.1:3000", changeOrigin: false } } },
});
