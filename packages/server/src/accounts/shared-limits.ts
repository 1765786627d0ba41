import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import pg from "pg";
import type { LoginLimiter } from "./auth-limits.ts";
import { backoffError, FORGET_MS, lockAfter, MAX_LOCK_MS } from "./auth-limits.ts";
import type { Clock } from "../clock.ts";
import { PG_LOCKS } from "../stores/pg-locks.ts";
import { migrate, namespaceOfConnection, type Migrations } from "../stores/pg/migrations.ts";

/**
 * Issue 20: the rate limits and the login back-off of every instance on one PostgreSQL, counted in the
 * database so that N instances allow what one would, not N times as much.
 *
 * Rate limits: each key's window has a row whose count `n` only grows. An instance does not write a row per
 * request: it reserves a lease of requests for the key, adding the lease's size to the row in one upsert
 * (`n = n + excluded.n`, RETURNING n), and is granted what still fitted under the limit (`max - (n - size)`,
 * at most the size). It then admits that many requests of the key on its own, without the database. The
 * leases of the instances never add up to more than the limit, so nothing is admitted past it (the bound on
 * over-admission is zero). The price is the other way: requests reserved by one instance and not used there
 * by the end of the window are lost to the others, so a client whose requests are spread over N instances
 * may be refused by one of them up to (N - 1) x LEASE_SHARE of the limit early (while another still admits
 * it: its total stays between max - (N - 1) x max/16 and max). A lease starts at one request and doubles
 * with each reservation of the window, up to max/16, so a key costs about log2(max/16) + 16 statements a
 * window however busy it is; a limit under 32 is counted request by request (leases of one), exactly.
 * Reservations that arrive while a statement is under way wait for the next one, which takes them all.
 * Once a window's row is full, that instance refuses the key until the window turns, without a statement.
 *
 * The tables are UNLOGGED and written with synchronous_commit off: a count costs no disk flush, and a crash
 * of the database forgets the counts of the current window, which is harmless. Windows are fixed and the
 * same on every instance: [k x timeWindow, (k + 1) x timeWindow) of the clock, so a client may make up to
 * twice the limit across the turn of a window (as with the in-memory store, whose window starts at the
 * first request).
 */

/** A lease is at most this part of the limit (see above: the bound on what is lost to unused leases). */
const LEASE_SHARE = 16;

/** How often windows that have ended, and nicks whose failures are forgotten, are deleted. */
const SWEEP_MS = 60_000;

/**
 * The rate limits' tables, a list of versions of their own (issue 29: applied by the stores' one runner,
 * recorded in fm_limits_schema). Version 1 keeps IF NOT EXISTS: databases made before the list have the
 * tables and no record of them.
 */
const LIMITS_MIGRATIONS: Migrations = {
  name: "rate limits",
  table: "fm_limits_schema",
  lock: PG_LOCKS.limitsTables,
  versions: [
    `CREATE UNLOGGED TABLE IF NOT EXISTS fm_rate (
  key TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE UNLOGGED TABLE IF NOT EXISTS fm_login_failures (
  nick_key TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  last BIGINT NOT NULL,
  until BIGINT NOT NULL
);`,
  ],
};

/** What this instance holds of a key's window: the requests it reserved and has not used yet. */
interface Lease {
  readonly windowStart: number;
  readonly expiresAt: number;
  readonly max: number;
  /** Reserved and not used yet. */
  left: number;
  /** The next reservation's size. */
  size: number;
  /** The row has reached the limit: everything else in this window is refused here. */
  full: boolean;
}

/** A request waiting for its key's next reservation: told its place in the count (over max: refused). */
type Waiter = (current: number | Error) => void;

/** The requests of one key's window waiting for the next statement. */
interface Pending {
  readonly key: string;
  readonly lease: Lease;
  readonly waiters: Waiter[];
}

interface RateRow {
  key: string;
  window_start: string;
  n: number;
}

/** The lock after each number of failures (1-based), up to the first that reaches MAX_LOCK_MS. */
function lockTable(): number[] {
  const locks: number[] = [];
  for (let count = 1; locks[locks.length - 1] !== MAX_LOCK_MS; count++) locks.push(lockAfter(count));
  return locks;
}

export class SharedLimits {
  private readonly leases = new Map<string, Lease>();
  private pending = new Map<string, Pending>();
  private flying = false;
  private readonly sweeper: NodeJS.Timeout;
  private readonly locks = lockTable();
  /** Statements sent for the rate limits (tests read it: leases save statements). */
  statements = 0;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number,
  ) {
    this.sweeper = setInterval(() => {
      this.sweep().catch((error: unknown) => {
        console.error(`rate limits: old windows could not be deleted: ${String(error)}`);
      });
    }, SWEEP_MS);
    this.sweeper.unref();
  }

  /**
   * Its own small pool on the store's database (`on`: the store's `config`, with its search_path; or the
   * PgStore itself, whose namespace then names the tables' lock, which is otherwise read from the
   * database), and its tables. `now` is the clock the windows and the back-off are counted on.
   */
  static async open(
    on: pg.ClientConfig | { readonly clientConfig: pg.ClientConfig; readonly namespace: string },
    now: () => number,
  ): Promise<SharedLimits> {
    const config = "clientConfig" in on ? on.clientConfig : on;
    const namespace = "clientConfig" in on ? on.namespace : undefined;
    // Counts need no flush to disk (see above): each connection says so when it opens (issue 28: in its
    // start-up options, not a statement of its own that would run beside the first query on it).
    const options = [config.options, "-c synchronous_commit=off"].filter(Boolean).join(" ");
    const pool = new pg.Pool({ ...config, options, max: 2 });
    pool.on("error", (error) => console.error(`PostgreSQL (rate limits): ${error.message}`));
    const limits = new SharedLimits(pool, now);
    try {
      // Instances that start together race to create the tables: one waits for the other's lock.
      const c = await pool.connect();
      try {
        await migrate(c, LIMITS_MIGRATIONS, namespace ?? (await namespaceOfConnection(c)));
      } finally {
        c.release();
      }
    } catch (error) {
      await limits.close();
      throw error;
    }
    return limits;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.pool.end();
  }

  /**
   * One more request of `key` in the current window of `timeWindow` ms, which admits `max`: its place in the
   * count (over `max`: refused), and the ms left in the window.
   */
  hit(key: string, timeWindow: number, max: number): Promise<{ current: number; ttl: number }> {
    const now = this.now();
    const windowStart = Math.floor(now / timeWindow) * timeWindow;
    let lease = this.leases.get(key);
    if (!lease || lease.windowStart !== windowStart) {
      lease = { windowStart, expiresAt: windowStart + timeWindow, max, left: 0, size: 1, full: false };
      this.leases.set(key, lease);
    }
    const ttl = lease.expiresAt - now;
    const local = this.fromLease(lease);
    if (local !== null) return Promise.resolve({ current: local, ttl });
    // One row per key and window: the requests of a window that has turned wait apart from the new one's.
    const row = `${key}\u0000${windowStart}`;
    let p = this.pending.get(row);
    if (!p) this.pending.set(row, (p = { key, lease, waiters: [] }));
    const waiters = p.waiters;
    const counted = new Promise<number | Error>((resolve) => waiters.push(resolve));
    if (!this.flying) this.fly();
    return counted.then((current) => {
      if (current instanceof Error) throw current;
      return { current, ttl };
    });
  }

  /** A request answered from what this instance holds: admitted from its lease, or refused; null: ask. */
  private fromLease(lease: Lease): number | null {
    if (lease.left > 0) {
      lease.left--;
      // What is known to remain: this instance's lease (others may hold more).
      return lease.max - lease.left;
    }
    return lease.full ? lease.max + 1 : null;
  }

  /** Reserve for what is pending in one statement, then for what came meanwhile, until nothing is left. */
  private fly(): void {
    this.flying = true;
    const batch: Pending[] = [];
    for (const p of this.pending.values()) {
      // A reservation that came back meanwhile may answer these without asking again.
      const waiting = p.waiters.filter((resolve) => {
        const local = this.fromLease(p.lease);
        if (local !== null) resolve(local);
        return local === null;
      });
      if (waiting.length > 0) batch.push({ ...p, waiters: waiting });
    }
    this.pending = new Map();
    if (batch.length === 0) {
      this.flying = false;
      return;
    }
    const sizes = batch.map((p) => Math.max(p.waiters.length, p.lease.size));
    this.reserve(batch, sizes)
      .then(
        (counts) => {
          batch.forEach((p, i) => {
            const size = sizes[i]!;
            const before = counts[i]! - size;
            const granted = Math.max(0, Math.min(size, p.lease.max - before));
            const lease = p.lease;
            if (granted < size) lease.full = true;
            lease.size = Math.min(Math.max(1, Math.floor(lease.max / LEASE_SHARE)), lease.size * 2);
            // The first `granted` waiters are admitted, in order; the rest are refused (the row is full).
            p.waiters.forEach((resolve, j) => resolve(j < granted ? before + j + 1 : lease.max + 1));
            lease.left += Math.max(0, granted - p.waiters.length);
          });
        },
        (error: unknown) => {
          const e = error instanceof Error ? error : new Error(String(error));
          for (const p of batch) for (const resolve of p.waiters) resolve(e);
        },
      )
      .finally(() => {
        this.flying = false;
        if (this.pending.size > 0) this.fly();
      });
  }

  /** Add each key's reservation to its row; the rows' new counts, in the batch's order. */
  private async reserve(batch: readonly Pending[], sizes: readonly number[]): Promise<number[]> {
    // Rows are locked in one order on every instance (by key), so two statements never deadlock.
    const order = batch
      .map((_, i) => i)
      .sort((i, j) => {
        const a = batch[i]!;
        const b = batch[j]!;
        return a.key < b.key ? -1 : a.key > b.key ? 1 : a.lease.windowStart - b.lease.windowStart;
      });
    this.statements++;
    const r = await this.pool.query<RateRow>({
      // Prepared once per connection: the statement is planned once.
      name: "fm_rate_reserve",
      text: `INSERT INTO fm_rate AS t (key, window_start, expires_at, n)
             SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::int[])
             ON CONFLICT (key, window_start) DO UPDATE SET n = t.n + excluded.n
             RETURNING key, window_start, n`,
      values: [
        order.map((i) => batch[i]!.key),
        order.map((i) => batch[i]!.lease.windowStart),
        order.map((i) => batch[i]!.lease.expiresAt),
        order.map((i) => sizes[i]!),
      ],
    });
    const byId = new Map(r.rows.map((row) => [`${row.key}\u0000${row.window_start}`, row.n]));
    return batch.map((p) => {
      const n = byId.get(`${p.key}\u0000${p.lease.windowStart}`);
      if (n === undefined) throw new Error(`rate limits: no count returned for key ${p.key}`);
      return n;
    });
  }

  private async sweep(): Promise<void> {
    const now = this.now();
    for (const [key, lease] of this.leases) if (lease.expiresAt <= now) this.leases.delete(key);
    await this.pool.query("DELETE FROM fm_rate WHERE expires_at <= $1", [now]);
    await this.pool.query("DELETE FROM fm_login_failures WHERE last + $2 <= $1 AND until <= $1", [
      now,
      FORGET_MS,
    ]);
  }

  /**
   * A store class for @fastify/rate-limit that counts here. Each route with a limit of its own gets a child
   * with its own counts (as the in-memory store gives it), told apart by the route's method and URL.
   */
  rateStore(): FastifyRateLimitStoreCtor {
    return rateStoreOf(this);
  }

  /** The login back-off, counted in the database: a failure on one instance counts on every other. */
  loginLimiter(clock: Clock): LoginLimiter {
    return new SharedLoginBackoff(this.pool, clock, this.locks);
  }
}

class SharedRateStore implements FastifyRateLimitStore {
  constructor(
    private readonly limits: SharedLimits,
    private readonly scope: string,
  ) {}

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
    max: number,
  ): void {
    this.limits.hit(`${this.scope}|${key}`, timeWindow, max).then(
      (result) => callback(null, result),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  child(routeOptions: object): FastifyRateLimitStore {
    return new SharedRateStore(this.limits, routeScope(routeOptions));
  }
}

/** The plugin makes its store with `new`: a class whose instances count in `limits`, for every route. */
function rateStoreOf(limits: SharedLimits): FastifyRateLimitStoreCtor {
  return class extends SharedRateStore {
    constructor() {
      super(limits, "*");
    }
  };
}

/**
 * The route a child store counts for. The plugin passes its options merged with `routeInfo` (the route's
 * options); its types say the route's options themselves, so both are read.
 */
function routeScope(options: object): string {
  const info: unknown = "routeInfo" in options ? options.routeInfo : options;
  if (typeof info !== "object" || info === null) return "route";
  const method = "method" in info ? String(info.method) : "";
  const url = "url" in info ? String(info.url) : "";
  return `${method} ${url}`;
}

interface FailureRow {
  counted: number | null;
  until: string | null;
}

/**
 * LoginBackoff's rule (auth-limits.ts) on a shared table: one statement per attempt, which counts the
 * failure only if the nick is not backing off, and otherwise returns when it may try again.
 */
class SharedLoginBackoff implements LoginLimiter {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
    private readonly locks: readonly number[],
  ) {}

  async attempt(nickKey: string): Promise<void> {
    const now = this.clock.now();
    // The outer SELECT sees the row as it was before the upsert: its lock, when the upsert did nothing.
    // The new count, and the lock it brings (none before FREE_FAILURES): the same rule as LoginBackoff's.
    const count = "CASE WHEN f.last + $4 <= $2 THEN 1 ELSE f.count + 1 END";
    const lock = `($3::bigint[])[LEAST(${count}, $5)]`;
    // The outer SELECT sees the row as it was before the upsert: its lock, when the upsert did nothing.
    const r = await this.pool.query<FailureRow>(
      `WITH up AS (
         INSERT INTO fm_login_failures AS f (nick_key, count, last, until)
         VALUES ($1, 1, $2, CASE WHEN ($3::bigint[])[1] > 0 THEN $2 + ($3::bigint[])[1] ELSE 0 END)
         ON CONFLICT (nick_key) DO UPDATE SET
           count = ${count},
           last = $2,
           until = CASE WHEN ${lock} > 0 THEN $2 + ${lock} ELSE 0 END
         WHERE f.until <= $2
         RETURNING count
       )
       SELECT (SELECT count FROM up) AS counted,
              (SELECT until FROM fm_login_failures WHERE nick_key = $1) AS until`,
      [nickKey, now, this.locks, FORGET_MS, this.locks.length],
    );
    const row = r.rows[0];
    if (!row || row.counted !== null) return;
    // Not counted: the nick backs off. A lock committed by another instance after this statement's snapshot
    // is not in `until`: it is read again.
    let until = Number(row.until ?? 0);
    if (until <= now) {
      const again = await this.pool.query<{ until: string }>(
        "SELECT until FROM fm_login_failures WHERE nick_key = $1",
        [nickKey],
      );
      until = Number(again.rows[0]?.until ?? 0);
    }
    throw backoffError(until - now);
  }

  async succeeded(nickKey: string): Promise<void> {
    await this.pool.query("DELETE FROM fm_login_failures WHERE nick_key = $1", [nickKey]);
  }
}
