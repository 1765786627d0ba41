import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.ts";
import { systemClock, type Clock } from "./clock.ts";
import { Demo } from "./demo.ts";
import { Games } from "./games.ts";
import { Scheduler } from "./scheduler.ts";
import { PgStore } from "./pg-store.ts";
import { SqliteStore } from "./sqlite-store.ts";
import type { Store } from "./store.ts";

export interface ServerOptions {
  readonly store: Store;
  readonly clock?: Clock;
  readonly rateLimit?: number;
  readonly logger?: boolean;
  /** F1: where game seeds come from (random by default; tests fix them to replay a failure). */
  readonly seed?: () => string;
  /** The built web app to serve at `/` (see AppOptions.webRoot). */
  readonly webRoot?: string | null;
  /** See AppOptions.publicUrl and AppOptions.trustProxy. */
  readonly publicUrl?: string | null;
  readonly trustProxy?: boolean | string;
}

export interface Server {
  readonly app: FastifyInstance;
  readonly games: Games;
  readonly scheduler: Scheduler;
  readonly demo: Demo;
  close(): Promise<void>;
}

/** The whole server: the games rebuilt from the store, the scheduler armed, the HTTP app. */
export async function createServer(opts: ServerOptions): Promise<Server> {
  const clock = opts.clock ?? systemClock;
  let scheduler: Scheduler | null = null;
  const games = new Games(opts.store, clock, (room) => scheduler?.arm(room), opts.seed);
  scheduler = new Scheduler(clock, (id) => games.deadlinePassed(id));
  const demo = new Demo(games, opts.store, clock);
  await games.load();
  scheduler.armAll(games);
  demo.resume();
  const app = await buildApp({
    store: opts.store,
    clock,
    games,
    demo,
    ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}),
    ...(opts.logger !== undefined ? { logger: opts.logger } : {}),
    webRoot: opts.webRoot ?? null,
    publicUrl: opts.publicUrl ?? null,
    ...(opts.trustProxy !== undefined ? { trustProxy: opts.trustProxy } : {}),
  });
  const s = scheduler;
  return {
    app,
    games,
    scheduler: s,
    demo,
    async close() {
      s.stop();
      games.stop();
      await demo.stop();
      await app.close();
      await opts.store.close();
    },
  };
}

/**
 * PUBLIC_URL as an origin (`https://host[:port]`), or a one-line reason why it is not one. A path, query or
 * credentials in it are refused rather than dropped, so a typo is not served silently.
 */
export function parsePublicUrl(value: string | undefined): { url: string | null } | { error: string } {
  if (value === undefined || value === "") return { url: null };
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return {
      error: `PUBLIC_URL: ${JSON.stringify(value)} is not a URL (expected e.g. https://mafia.example.org)`,
    };
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    return { error: `PUBLIC_URL: expected an http or https URL, got ${JSON.stringify(value)}` };
  if ((u.pathname !== "/" && u.pathname !== "") || u.search || u.hash || u.username || u.password)
    return { error: `PUBLIC_URL: expected only a scheme, host and port, got ${JSON.stringify(value)}` };
  return { url: u.origin };
}

/** TRUST_PROXY: "true" trusts any peer; otherwise addresses or CIDR ranges, comma-separated. */
export function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === "" || value === "false") return false;
  return value === "true" ? true : value;
}

/**
 * The store the environment asks for: PostgreSQL when DATABASE_URL is set, else embedded SQLite in
 * DATA_DIR (./data by default).
 */
export async function defaultStore(): Promise<{ store: Store; where: string }> {
  const url = process.env.DATABASE_URL;
  if (url) return { store: await PgStore.connect({ connectionString: url }), where: "PostgreSQL" };
  const file = join(process.env.DATA_DIR ?? "data", "forum-mafia.sqlite");
  return { store: new SqliteStore(file), where: file };
}
