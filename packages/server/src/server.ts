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
 * The store the environment asks for: PostgreSQL when DATABASE_URL is set, else embedded SQLite in
 * DATA_DIR (./data by default).
 */
export async function defaultStore(): Promise<{ store: Store; where: string }> {
  const url = process.env.DATABASE_URL;
  if (url) return { store: await PgStore.connect({ connectionString: url }), where: "PostgreSQL" };
  const file = join(process.env.DATA_DIR ?? "data", "forum-mafia.sqlite");
  return { store: new SqliteStore(file), where: file };
}
