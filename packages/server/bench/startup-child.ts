/**
 * One measured start of the server, run as a fresh process by startup.bench.ts:
 *   node --expose-gc --import tsx packages/server/bench/startup-child.ts
 * It does what bin/start.ts does (the store from DATABASE_URL or DATA_DIR, createServer, listen) without the
 * web app, on a free port, and times it from before the store is opened until GET /api/health answers 200.
 * It prints one StartupSample as JSON on stdout, then closes the server and exits.
 */
import { createServer, defaultStore } from "../src/server.ts";
import type { StartupSample } from "./startup-plan.ts";

const now = (): number => performance.now();
const mb = (bytes: number): number => bytes / (1024 * 1024);

const t0 = now();
const { store } = await defaultStore();
const opened = now();
const server = await createServer({ store, webRoot: null, rateLimit: 0 });
const created = now();
await server.app.listen({ port: 0, host: "127.0.0.1" });
const address = server.app.server.address();
if (address === null || typeof address === "string") throw new Error("listen: no TCP address");
const res = await fetch(`http://127.0.0.1:${address.port}/api/health`);
if (res.status !== 200) throw new Error(`GET /api/health: ${res.status} ${await res.text()}`);
await res.text();
const answered = now();

const memory = process.memoryUsage();
// The heap that stays: what the games keep, without the garbage of the start.
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const sample: StartupSample = {
  openMs: opened - t0,
  createMs: created - opened,
  listenMs: answered - created,
  totalMs: answered - t0,
  rssMb: mb(memory.rss),
  heapMb: mb(memory.heapUsed),
  heapAfterGcMb: gc ? mb(process.memoryUsage().heapUsed) : null,
  rooms: server.games.rooms.size,
};
process.stdout.write(`${JSON.stringify(sample)}\n`);
await server.close();
process.exit(0);
