import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "./http/app.ts";
import { systemClock, type Clock } from "./clock.ts";
import { Demo } from "./demo/demo.ts";
import { commandsOf, type Commands } from "./game/commands.ts";
import { Games } from "./log/games.ts";
import { Mailer } from "./mail/mailer.ts";
import { Reminders } from "./mail/reminders.ts";
import { Scheduler } from "./game/scheduler.ts";
import { PgStore } from "./stores/pg-store.ts";
import { SqliteStore } from "./stores/sqlite-store.ts";
import type { Room } from "./log/room.ts";
import type { Store } from "./stores/store.ts";
import { LocalCluster, PgCluster, type Cluster } from "./log/cluster.ts";
import { PASSWORD_COST, type PasswordCost } from "./accounts/auth.ts";

export interface ServerOptions {
  readonly store: Store;
  /**
   * Issue 20: the other instances on the same database. By default a PgCluster when the store is shared
   * (PostgreSQL), else a LocalCluster.
   */
  readonly cluster?: Cluster;
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
  /** Issue 15: SMTP_URL (checked by parseSmtpUrl); without it no e-mail is sent or queued. */
  readonly smtpUrl?: string | null;
  /** MAIL_FROM, the sender of every mail; by default noreply at the site's host. */
  readonly mailFrom?: string | null;
  /**
   * The origin e-mail links use when there is no publicUrl: the one the server is reached at locally
   * (bin/start.ts passes `http://localhost:<PORT>`); `http://localhost:3000` by default.
   */
  readonly localUrl?: string;
  /** Issue 17: the balance estimates' sizes and limits (estimate-options.ts, ESTIMATE_DEFAULTS); tests play fewer games. */
  readonly estimates?: import("./tools/estimate-options.ts").EstimateOptions;
  /** The GM tools' limits (tools.ts, TOOLS_DEFAULTS); the tests give the work a longer budget as a hang guard. */
  readonly tools?: import("./tools/tools.ts").ToolsOptions;
  /**
   * Tests only (issue 29): a cheaper argon2 cost for new password hashes (auth.ts, TEST_PASSWORD_COST),
   * passed in code by the test harness. PASSWORD_COST when absent; `productionOptions` refuses a cheaper one.
   */
  readonly passwordCost?: PasswordCost;
}

export interface Server {
  readonly app: FastifyInstance;
  /** The log keeper: the rooms, in step with the store. */
  readonly games: Games;
  /** Issue 29: the game commands (signups, play, the GM's), committed through `games`. */
  readonly commands: Commands;
  readonly cluster: Cluster;
  readonly scheduler: Scheduler;
  readonly demo: Demo;
  /** Issue 15: the outbox's mailer and the reminders, or null when e-mail is off (no SMTP_URL). */
  readonly mailer: Mailer | null;
  readonly reminders: Reminders | null;
  /**
   * Stop (issue 28: what SIGTERM does, bin/start.ts): give up leading (another instance leads at once), stop
   * listening and close idle connections, end the live streams with a reconnect hint, serve the requests in
   * flight for up to `drainMs` (DRAIN_MS), then cut what is left and close the store.
   */
  close(drainMs?: number): Promise<void>;
}

/** Issue 28: how long a shutdown waits for the requests in flight before it cuts their connections. */
export const DRAIN_MS = 10_000;

/** The whole server: the games rebuilt from the store, the scheduler armed, the HTTP app. */
export async function createServer(opts: ServerOptions): Promise<Server> {
  const clock = opts.clock ?? systemClock;
  const cluster: Cluster =
    opts.cluster ??
    (opts.store instanceof PgStore
      ? await PgCluster.connect(opts.store.clientConfig, opts.store.namespace)
      : new LocalCluster());
  let scheduler: Scheduler | null = null;
  let reminders: Reminders | null = null;
  const deadlineChanged = (room: Room): void => {
    scheduler?.arm(room);
    reminders?.arm(room);
  };
  const games = new Games(opts.store, clock, deadlineChanged, opts.seed);
  const commands = commandsOf(games);
  // Issue 28: a deadline fires only while this instance still leads (a lead that ran out unconfirmed, as
  // after the process was frozen, is given up here, and its timers with it).
  scheduler = new Scheduler(clock, (id) =>
    cluster.leader ? commands.gm.deadlinePassed(id) : Promise.resolve(),
  );
  const demo = new Demo(games, opts.store, clock, undefined, commands);
  games.isDemo = (room) => demo.isDemo(room);
  const mailer = opts.smtpUrl
    ? new Mailer({
        store: opts.store,
        clock,
        smtpUrl: opts.smtpUrl,
        from: opts.mailFrom ?? null,
        siteUrl: opts.publicUrl ?? opts.localUrl ?? "http://localhost:3000",
      })
    : null;
  await games.load();
  games.follow(cluster);
  // Issue 20: deadlines on the leader only (always this process on SQLite).
  const sched = scheduler;
  cluster.onLeader((leader) => {
    sched.lead(leader, games).catch((error: unknown) => {
      console.error(`the scheduler could not take over the deadlines: ${String(error)}`);
    });
  });
  if (mailer) {
    const r = new Reminders(games, opts.store, clock, mailer);
    await r.start();
    reminders = r;
    cluster.onLeader((leader) => mailer.lead(leader, cluster.shared));
  }
  demo.resume();
  const app = await buildApp({
    store: opts.store,
    cluster,
    clock,
    games,
    commands,
    demo,
    ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}),
    ...(opts.logger !== undefined ? { logger: opts.logger } : {}),
    webRoot: opts.webRoot ?? null,
    publicUrl: opts.publicUrl ?? null,
    ...(opts.trustProxy !== undefined ? { trustProxy: opts.trustProxy } : {}),
    mail: mailer && reminders ? { mailer, reminders } : null,
    ...(opts.estimates ? { estimates: opts.estimates } : {}),
    ...(opts.tools ? { tools: opts.tools } : {}),
    ...(opts.passwordCost ? { passwordCost: opts.passwordCost } : {}),
  });
  const s = scheduler;
  const rs = reminders;
  return {
    app,
    games,
    commands,
    cluster,
    scheduler: s,
    demo,
    mailer,
    reminders: rs,
    async close(drainMs = DRAIN_MS) {
      s.stop();
      games.stop();
      await rs?.stop();
      await demo.stop();
      // Issue 28: the deadlines, the mail and the demo bots pass to another instance now, not after the drain.
      await cluster.resign?.();
      const cut = setTimeout(() => app.server.closeAllConnections(), drainMs);
      try {
        await app.close();
      } finally {
        clearTimeout(cut);
      }
      // After the app: a request under way may still queue a mail, which waits for the next start.
      await mailer?.close();
      if (!opts.cluster) await cluster.close();
      await opts.store.close();
    },
  };
}

/**
 * The production start's options, checked (bin/start.ts): a password cost below PASSWORD_COST, in memory,
 * passes or lanes, is refused with an error. The cheap cost exists for tests (TEST_PASSWORD_COST), which build
 * their servers in code; no environment variable sets it.
 */
export function productionOptions(opts: ServerOptions): ServerOptions {
  const c = opts.passwordCost;
  if (
    c &&
    (c.memoryCost < PASSWORD_COST.memoryCost ||
      c.timeCost < PASSWORD_COST.timeCost ||
      c.parallelism < PASSWORD_COST.parallelism)
  )
    throw new Error(
      `passwordCost: m=${c.memoryCost},t=${c.timeCost},p=${c.parallelism} is below the production cost ` +
        `m=${PASSWORD_COST.memoryCost},t=${PASSWORD_COST.timeCost},p=${PASSWORD_COST.parallelism} (a cheaper cost is for tests only)`,
    );
  return opts;
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
  // Issue 28: STORE_TIMEOUT_MS, the time limit of every store call (5 s by default).
  const timeoutMs = Number(process.env.STORE_TIMEOUT_MS) || undefined;
  if (url)
    return {
      store: await PgStore.connect({ connectionString: url }, timeoutMs ? { timeoutMs } : {}),
      where: "PostgreSQL",
    };
  const file = join(process.env.DATA_DIR ?? "data", "forum-mafia.sqlite");
  return { store: new SqliteStore(file), where: file };
}
