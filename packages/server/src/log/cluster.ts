import { createHash } from "node:crypto";
import pg from "pg";
import { PG_LOCKS } from "../stores/pg-locks.ts";

/**
 * Issue 20: what the instances sharing one database tell each other. Notifications carry positions and ids
 * only, never a secret (PostgreSQL's NOTIFY payload is limited to 8 KB, and any session of the database may
 * LISTEN):
 * - `game`: `<gameId>:<entries>`, sent by the store in the transaction that appended them, so it is
 *   delivered exactly when they are committed;
 * - `session`: the SHA-256 (hex) of a revoked session's token, as stored: every instance forgets it and
 *   closes its streams;
 * - `user`: the id of a user whose profile changed (time zone, language): every instance reads it again.
 */
export type Topic = "game" | "session" | "user";

export interface Cluster {
  /** False when this process is alone with its database (SQLite): everything stays in this process. */
  readonly shared: boolean;
  /** Tell every instance, this one included. Resolves once the database has taken it. */
  publish(topic: Topic, payload: string): Promise<void>;
  /** Called with each payload of the topic, from any instance (this one too). */
  subscribe(topic: Topic, handler: (payload: string) => void): () => void;
  /**
   * Called after the notifications may have been missed (the listening connection was lost and is back):
   * whoever keeps state from them reads it again.
   */
  onResync(handler: () => void): () => void;
  /**
   * The instance that runs the deadlines, the demo bots and the reminders: exactly one holds the leader's
   * lock at a time. `handler` is called at once with the current state, then at each change.
   */
  onLeader(handler: (leader: boolean) => void): () => void;
  readonly leader: boolean;
  /**
   * Issue 28: this instance is shutting down: it stops leading (and trying to), and the others are told to
   * try the leader's lock at once. Absent: nothing to give up (one process, or a test's stand-in).
   */
  resign?(): Promise<void>;
  close(): Promise<void>;
}

/** The NOTIFY channel of a topic in one namespace (database and schema: tests share a database). */
export function channelName(namespace: string, topic: Topic): string {
  return `fm_${topic}_${namespace}`;
}

/** A short, identifier-safe name for the database and schema a store works in. */
export function namespaceOf(database: string, schema: string): string {
  return createHash("sha256").update(`${database}\u0000${schema}`).digest("hex").slice(0, 16);
}

/** The single process on an embedded database: it leads, and hears what it publishes. */
export class LocalCluster implements Cluster {
  readonly shared = false;
  readonly leader = true;
  private readonly handlers = new Map<Topic, Set<(payload: string) => void>>();

  publish(topic: Topic, payload: string): Promise<void> {
    for (const h of [...(this.handlers.get(topic) ?? [])]) queueMicrotask(() => h(payload));
    return Promise.resolve();
  }

  subscribe(topic: Topic, handler: (payload: string) => void): () => void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  onResync(): () => void {
    return () => {};
  }

  onLeader(handler: (leader: boolean) => void): () => void {
    handler(true);
    return () => {};
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** How often an instance that does not lead tries the leader's lock: a dead leader is replaced within it. */
export const LEADER_RETRY_MS = 2_000;
const TOPICS: readonly Topic[] = ["game", "session", "user"];
/** Issue 28: how long the lock's connection may take to answer when the config gives no query_timeout. */
const LOCK_QUERY_MS = 5_000;
/**
 * Issue 28: a leader leads for this long after its lock's connection last answered (it checks every
 * LEADER_RETRY_MS). A process frozen longer (SIGSTOP, a paused VM) has stopped leading when it wakes, before
 * any of its timers may fire a deadline; PostgreSQL ends its idle session after twice this (the lock's
 * idle_session_timeout), so another instance takes the lock only after this one's lead has run out.
 */
export const LEADER_LEASE_MS = 10_000;
/** Issue 28: a leader that resigns tells the others on this channel (no payload), so one leads at once. */
const RESIGNED = "resigned";

/**
 * Instances on one PostgreSQL. Two connections of its own, outside the store's pool: one LISTENs to every
 * topic, one holds the leader's session-level advisory lock. PostgreSQL releases that lock when the
 * holder's connection ends, including when its process is killed (the kernel closes the socket), so the
 * next instance to try takes it within LEADER_RETRY_MS.
 */
export class PgCluster implements Cluster {
  readonly shared = true;
  private listener: pg.Client | null = null;
  private lockClient: pg.Client | null = null;
  private isLeader = false;
  private closed = false;
  /** Shutting down (resign): the lock is neither held nor tried again. */
  private resigned = false;
  private readonly handlers = new Map<Topic, Set<(payload: string) => void>>();
  private readonly resync = new Set<() => void>();
  private readonly leaders = new Set<(leader: boolean) => void>();
  private retry: NodeJS.Timeout | null = null;
  /** The last notification sent on the listening connection. */
  private sending: Promise<void> = Promise.resolve();
  /** Issue 28: the last query on the lock's connection (one at a time on a connection: pg 9 requires it). */
  private locking: Promise<unknown> = Promise.resolve();
  /** Issue 28: a round under way (one at a time, so the lock's connection never gets two tries at once). */
  private rounding = false;
  /** Issue 28: when the lock's connection last answered while this instance led (performance.now()). */
  private confirmedAt = 0;

  private constructor(
    private readonly config: pg.ClientConfig,
    readonly namespace: string,
  ) {}

  /** `config` as the store's (the same database and search_path); `namespace` the store's. */
  static async connect(config: pg.ClientConfig, namespace: string): Promise<PgCluster> {
    // Issue 28: its connections never wait without end (the store's config gives its own limits).
    const limited = { connectionTimeoutMillis: LOCK_QUERY_MS, query_timeout: LOCK_QUERY_MS, ...config };
    const cluster = new PgCluster(limited, namespace);
    await cluster.listen();
    await cluster.tryLead();
    return cluster;
  }

  /** False once the lead has run out unconfirmed (LEADER_LEASE_MS): it is given up at that moment. */
  get leader(): boolean {
    if (this.isLeader && performance.now() - this.confirmedAt > LEADER_LEASE_MS) {
      console.error("PostgreSQL: the leader's lock was not confirmed in time: no longer leading");
      this.dropLock(this.lockClient);
    }
    return this.isLeader;
  }

  async publish(topic: Topic, payload: string): Promise<void> {
    const args = [channelName(this.namespace, topic), payload];
    const listener = this.listener;
    if (listener) {
      // One query at a time on a connection (pg queues them, but warns that this goes away in pg 9).
      const sent = this.sending.then(() => listener.query("SELECT pg_notify($1, $2)", args));
      this.sending = sent.then(
        () => {},
        () => {},
      );
      await sent;
      return;
    }
    const c = new pg.Client(this.config);
    await c.connect();
    try {
      await c.query("SELECT pg_notify($1, $2)", args);
    } finally {
      await c.end();
    }
  }

  subscribe(topic: Topic, handler: (payload: string) => void): () => void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  onResync(handler: () => void): () => void {
    this.resync.add(handler);
    return () => this.resync.delete(handler);
  }

  onLeader(handler: (leader: boolean) => void): () => void {
    this.leaders.add(handler);
    handler(this.isLeader);
    return () => this.leaders.delete(handler);
  }

  private async listen(): Promise<void> {
    const c = new pg.Client(this.config);
    const byChannel = new Map(TOPICS.map((t) => [channelName(this.namespace, t), t]));
    const resigned = `fm_${RESIGNED}_${this.namespace}`;
    c.on("notification", (n) => {
      if (n.channel === resigned) {
        if (!this.isLeader) this.schedule(0);
        return;
      }
      const topic = byChannel.get(n.channel);
      if (!topic || n.payload === undefined) return;
      for (const h of [...(this.handlers.get(topic) ?? [])]) h(n.payload);
    });
    const lost = (error?: Error): void => {
      if (this.listener !== c) return;
      this.listener = null;
      if (this.closed) return;
      console.error(`PostgreSQL: the notifications' connection was lost (${error?.message ?? "ended"})`);
      this.schedule();
    };
    c.on("error", lost);
    c.on("end", () => lost());
    try {
      await c.connect();
      for (const channel of [...byChannel.keys(), resigned]) await c.query(`LISTEN "${channel}"`);
    } catch (error) {
      // Issue 28: the connection is ended, not left open, when it cannot listen (the next round opens another).
      void c.end().catch(() => {});
      throw error;
    }
    this.listener = c;
  }

  /**
   * Issue 28: one query at a time on the lock's connection, each within its time limit; a connection that
   * does not answer in time is dropped (and with it the lead: see dropLock).
   */
  private lockQuery<R extends pg.QueryResultRow>(
    c: pg.Client,
    text: string,
    values?: unknown[],
  ): Promise<R[]> {
    const limit = Number(this.config.query_timeout) || LOCK_QUERY_MS;
    const run = this.locking.then(
      () =>
        new Promise<R[]>((resolve, reject) => {
          const timer = setTimeout(() => {
            this.dropLock(c);
            reject(new Error(`the lock's connection did not answer within ${limit} ms`));
          }, limit);
          c.query<R>(text, values).then(
            (r) => {
              clearTimeout(timer);
              resolve(r.rows);
            },
            (error: unknown) => {
              clearTimeout(timer);
              reject(error instanceof Error ? error : new Error(String(error)));
            },
          );
        }),
    );
    this.locking = run.catch(() => {});
    return run;
  }

  /**
   * Issue 28: the lock's connection is given up (it failed, or did not answer): this instance stops leading
   * at once. Ending the connection releases the lock in PostgreSQL as soon as it notices.
   */
  private dropLock(c: pg.Client | null): void {
    if (c === null) return;
    if (this.lockClient === c) {
      this.lockClient = null;
      this.setLeader(false);
      if (!this.closed) this.schedule(2 * LEADER_RETRY_MS);
    }
    void c.end().catch(() => {});
  }

  private async tryLead(): Promise<void> {
    if (this.closed || this.resigned || this.isLeader) return;
    try {
      if (!this.lockClient) {
        const c = new pg.Client(this.config);
        const lost = (): void => {
          if (this.lockClient !== c) return;
          this.lockClient = null;
          this.setLeader(false);
          // An instance whose connection failed lets the others try first (they try every
          // LEADER_RETRY_MS): the lead passes to an instance whose database connection is sound.
          if (!this.closed) this.schedule(2 * LEADER_RETRY_MS);
        };
        c.on("error", lost);
        c.on("end", lost);
        try {
          await c.connect();
          // Issue 28: a frozen holder's idle session is ended by PostgreSQL, which releases the lock (before
          // version 14 there is no such setting: the lock then waits for the connection to break).
          await c.query(`SET idle_session_timeout = ${2 * LEADER_LEASE_MS}`).catch(() => {});
        } catch (error) {
          void c.end().catch(() => {});
          throw error;
        }
        this.lockClient = c;
      }
      const rows = await this.lockQuery<{ ok: boolean }>(
        this.lockClient,
        "SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok",
        [PG_LOCKS.leader, this.namespace],
      );
      if (rows[0]?.ok) {
        this.confirmedAt = performance.now();
        this.setLeader(true);
      }
    } catch (error) {
      console.error(`PostgreSQL: the leader's lock could not be tried: ${String(error)}`);
    }
    this.schedule();
  }

  private setLeader(leader: boolean): void {
    if (this.isLeader === leader) return;
    this.isLeader = leader;
    for (const h of [...this.leaders]) h(leader);
  }

  /** The next round: reconnect what was lost (then resync), and try the lock unless this instance leads. */
  private schedule(delay = LEADER_RETRY_MS): void {
    if (this.closed) return;
    if (this.retry) {
      if (delay === LEADER_RETRY_MS) return;
      clearTimeout(this.retry);
    }
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.round();
    }, delay);
    this.retry.unref();
  }

  private async round(): Promise<void> {
    if (this.closed || this.rounding) return;
    this.rounding = true;
    try {
      if (!this.listener) {
        try {
          await this.listen();
          for (const h of [...this.resync]) h();
        } catch (error) {
          console.error(`PostgreSQL: could not listen for notifications: ${String(error)}`);
        }
      }
      if (!this.isLeader) await this.tryLead();
      else {
        await this.confirm();
        this.schedule();
      }
    } finally {
      this.rounding = false;
    }
  }

  /** Issue 28: the leader checks that its lock's connection answers (else it stops leading: lockQuery). */
  private async confirm(): Promise<void> {
    const c = this.lockClient;
    if (!c) return;
    try {
      await this.lockQuery(c, "SELECT 1");
      if (this.lockClient === c) this.confirmedAt = performance.now();
    } catch (error) {
      console.error(`PostgreSQL: the leader's connection failed (${String(error)}): no longer leading`);
      this.dropLock(c);
    }
  }

  async resign(): Promise<void> {
    if (this.resigned || this.closed) return;
    this.resigned = true;
    const lock = this.lockClient;
    const led = this.isLeader;
    this.setLeader(false);
    if (!led || !lock) return;
    try {
      await this.lockQuery(lock, "SELECT pg_advisory_unlock($1, hashtext($2))", [
        PG_LOCKS.leader,
        this.namespace,
      ]);
      await this.lockQuery(lock, "SELECT pg_notify($1, '')", [`fm_${RESIGNED}_${this.namespace}`]);
    } catch (error) {
      // The lock goes with its connection when close() ends it; the others find it free within LEADER_RETRY_MS.
      console.error(`PostgreSQL: the leader's lock could not be given up: ${String(error)}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.setLeader(false);
    const clients = [this.listener, this.lockClient];
    this.listener = null;
    this.lockClient = null;
    await Promise.allSettled(clients.map((c) => c?.end()));
  }
}
