import pg from "pg";
import { channelName } from "../log/cluster.ts";
import type { Entry } from "../log/entries.ts";
import { PgAccounts } from "./pg/accounts.ts";
import { PgDb } from "./pg/db.ts";
import { asUnavailable, isStoreFault, STORE_TIMEOUT_MS } from "./pg/faults.ts";
import { PgLibrary } from "./pg/library.ts";
import { migrateSchema, namespaceOfConnection, PG_MIGRATIONS } from "./pg/migrations.ts";
import { PgOutbox } from "./pg/outbox.ts";
import { SeqConflict, StoreUnavailable, type GameIndexRow, type Store } from "./store.ts";

export { isStoreFault, PG_MIGRATIONS, STORE_TIMEOUT_MS };

/** An append waiting for the next group commit. */
interface Pending {
  readonly gameId: string;
  readonly seq: number;
  readonly entries: readonly Entry[];
  /** Answer it, once: a later answer (the batch's, after the time limit's) is ignored. */
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  /** Answered already (issue 28: its time limit may pass before its batch ends). */
  settled: boolean;
  /** Its batch's statement has been sent: from then on a failure leaves its outcome unknown. */
  sent: boolean;
}

/**
 * One game's appends in a batch, merged: they are contiguous (each starts where the one before ends), so
 * they succeed or conflict together.
 */
interface Group {
  readonly gameId: string;
  readonly expected: number;
  count: number;
  readonly members: Pending[];
  /** Appends of the game out of step with those before them: they cannot be right (SeqConflict). */
  readonly stale: Pending[];
}

/** How often a batch is tried again when PostgreSQL broke a deadlock by aborting it (nothing was written). */
const DEADLOCK_RETRIES = 3;

/**
 * PostgreSQL behind the same Store interface as SQLite, shared by any number of instances (issue 20).
 *
 * Appends are group-committed: every append pending when a cycle starts is written in one transaction of a
 * fixed number of statements, however many there are (see `commit`), and each is answered once COMMIT has
 * returned. One cycle runs at a time: an idle store answers after one transaction, a busy one shares each
 * commit among all the appends that arrived while the previous one ran. The expected sequence number is
 * checked against `games.seq` under the game's row lock, so of two instances appending at the same
 * position exactly one wins; the other gets SeqConflict.
 */
export class PgStore implements Store {
  readonly shared = true;
  /** Issue 29: the store's other concerns, on the same pool and time limit (pg/accounts.ts, outbox.ts, library.ts). */
  readonly accounts: PgAccounts;
  readonly outbox: PgOutbox;
  readonly library: PgLibrary;
  /** The pool and the time limit every call runs within. */
  private readonly db: PgDb;
  private pending: Pending[] = [];
  /** The cycle running, if any. */
  private current: Promise<void> | null = null;
  private scheduled = false;
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    /** The database and schema, hashed (cluster.ts): what names this store's notification channels. */
    readonly namespace: string,
    /**
     * What the pool's connections were made with, time limits included: PgCluster and SharedLimits open
     * their own to the same database.
     */
    readonly clientConfig: pg.ClientConfig,
    /** Issue 28: the time limit of every call (STORE_TIMEOUT_MS unless the caller gave one). */
    readonly timeoutMs: number,
  ) {
    this.db = new PgDb(pool, timeoutMs);
    this.accounts = new PgAccounts(this.db);
    this.outbox = new PgOutbox(this.db);
    this.library = new PgLibrary(this.db);
  }

  /**
   * `timeoutMs` (issue 28): the time limit of every store call, STORE_TIMEOUT_MS by default. The schema's
   * migrations run first on a connection without it (a migration of a large database may take longer).
   */
  static async connect(config: pg.PoolConfig, opts: { timeoutMs?: number } = {}): Promise<PgStore> {
    const timeoutMs = opts.timeoutMs ?? STORE_TIMEOUT_MS;
    const limited: pg.PoolConfig = {
      ...config,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      statement_timeout: timeoutMs,
      idle_in_transaction_session_timeout: timeoutMs,
    };
    const pool = new pg.Pool({ max: 10, ...limited });
    // An idle connection that breaks (the server restarts, the network drops) is reported on the pool; with
    // no listener that would stop the process. The pool replaces it, and the next query says if it cannot.
    pool.on("error", (error) => console.error(`PostgreSQL: an idle connection failed: ${error.message}`));
    try {
      const namespace = await namespaceOfConnection(pool);
      await migrateSchema(config, namespace);
      return new PgStore(pool, namespace, limited, timeoutMs);
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  async gameIndex(): Promise<GameIndexRow[]> {
    const r = await this.db.read<GameIndexRow>(`SELECT id, seq, meta FROM games ORDER BY position`);
    return r.rows;
  }

  async saveGameMeta(gameId: string, meta: string): Promise<void> {
    await this.db.write(`UPDATE games SET meta = $2 WHERE id = $1`, [gameId, meta]);
  }

  async entriesFrom(gameId: string, from: number): Promise<Entry[]> {
    const r = await this.db.read<{ body: Entry }>(
      `SELECT body FROM game_entries WHERE game_id = $1 AND seq >= $2 ORDER BY seq`,
      [gameId, from],
    );
    return r.rows.map((row) => row.body);
  }

  /**
   * Change numbers are given in commit order: an append takes them from the one-row counter fm_changes as
   * its last statement, and holds the counter's row lock until it commits, so no transaction can take a
   * number while one with a lower number is still uncommitted. (A sequence would not do: a transaction that
   * took a lower nextval may commit after one with a higher value, and a reader that moved its cursor past
   * the higher one would skip it for good.) So every change numbered up to the largest one a reader sees
   * is already visible to it, and that largest number is a safe cursor.
   */
  async changedSince(cursor: number): Promise<{ cursor: number; games: GameIndexRow[] }> {
    const r = await this.db.read<GameIndexRow & { changed: string }>(
      `SELECT id, seq, meta, changed FROM games WHERE changed > $1 ORDER BY position`,
      [cursor],
    );
    let next = cursor;
    for (const row of r.rows) next = Math.max(next, Number(row.changed));
    return { cursor: next, games: r.rows.map(({ id, seq, meta }) => ({ id, seq, meta })) };
  }

  /**
   * Issue 28: an append is answered within the time limit, counted from this call. Past it, an append still
   * waiting for its batch is taken out and refused (nothing of it was written); one whose batch's
   * statement was sent is refused as of unknown outcome (StoreUnavailable.unknown: the statement may yet
   * commit, and the caller must catch its room up from the log before it decides anything else).
   */
  append(gameId: string, seq: number, entries: readonly Entry[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the store is closed"));
    return new Promise((outerResolve, outerReject) => {
      const settle = (): boolean => {
        if (p.settled) return false;
        p.settled = true;
        clearTimeout(timer);
        return true;
      };
      const p: Pending = {
        gameId,
        seq,
        entries,
        settled: false,
        sent: false,
        resolve: () => {
          if (settle()) outerResolve();
        },
        reject: (error) => {
          if (settle()) outerReject(error);
        },
      };
      const timer = setTimeout(() => {
        const waiting = this.pending.indexOf(p);
        if (waiting >= 0) this.pending.splice(waiting, 1);
        p.reject(
          new StoreUnavailable(
            `PostgreSQL: the append was not committed within ${this.timeoutMs} ms`,
            waiting < 0 && p.sent,
          ),
        );
      }, this.timeoutMs);
      this.pending.push(p);
      this.wake();
    });
  }

  /** Start a cycle on the next turn of the event loop (so the appends of this turn join it), unless one runs. */
  private wake(): void {
    if (this.scheduled || this.current !== null) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.current === null) void this.runCycle();
    });
  }

  private runCycle(): Promise<void> {
    this.current = this.cycle().finally(() => {
      this.current = null;
      if (this.pending.length > 0) {
        if (this.closed) void this.runCycle();
        else this.wake();
      }
    });
    return this.current;
  }

  /** Everything pending, in one transaction; then each append is answered. Never rejects. */
  private async cycle(): Promise<void> {
    const taken = this.pending;
    this.pending = [];
    if (taken.length === 0) return;
    let c: pg.PoolClient;
    try {
      c = await this.pool.connect();
    } catch (e) {
      // No connection: nothing of the batch was sent.
      const error = asUnavailable(e, false);
      for (const p of taken) p.reject(error instanceof Error ? error : new Error(String(e)));
      return;
    }
    // A connection that dies while checked out emits "error" (the pool listens only to idle ones): with no
    // listener that would end the process; the statement under way rejects with it, which is what we hear.
    const ignore = (): void => {};
    c.on("error", ignore);
    // Those whose time ran out while a connection was found are answered already, and not written.
    const batch = taken.filter((p) => !p.settled);
    const groups = new Map<string, Group>();
    for (const p of batch) {
      p.sent = true;
      const g = groups.get(p.gameId);
      if (!g)
        groups.set(p.gameId, {
          gameId: p.gameId,
          expected: p.seq,
          count: p.entries.length,
          members: [p],
          stale: [],
        });
      else if (g.stale.length === 0 && p.seq === g.expected + g.count) {
        g.members.push(p);
        g.count += p.entries.length;
      } else g.stale.push(p);
    }
    let won: Set<string>;
    let broken: Error | undefined;
    try {
      won = batch.length === 0 ? new Set() : await this.commitWithRetries(c, [...groups.values()]);
    } catch (e) {
      // Refused by the database: nothing of the batch was written, everyone hears why (not a SeqConflict).
      // No answer (a lost connection, the time limit): the outcome is unknown, and the connection is closed.
      const error = asUnavailable(e, true);
      if (isStoreFault(e)) broken = e as Error;
      for (const p of batch) p.reject(error instanceof Error ? error : new Error(String(e)));
      return;
    } finally {
      c.off("error", ignore);
      c.release(broken);
    }
    // An append of a game that conflicted, still waiting, was made before its caller could hear of the
    // conflict: it was checked against the same stale room, so it conflicts too, even if its seq happens to
    // match the log by then (another instance's entries are not what the caller saw).
    const conflicted = new Set<string>();
    for (const g of groups.values()) if (!won.has(g.gameId) || g.stale.length > 0) conflicted.add(g.gameId);
    const late = this.pending.filter((p) => conflicted.has(p.gameId));
    if (late.length > 0) this.pending = this.pending.filter((p) => !conflicted.has(p.gameId));
    for (const g of groups.values()) {
      for (const p of g.members)
        if (won.has(g.gameId)) p.resolve();
        else p.reject(new SeqConflict(p.gameId, p.seq));
      for (const p of g.stale) p.reject(new SeqConflict(p.gameId, p.seq));
    }
    for (const p of late) p.reject(new SeqConflict(p.gameId, p.seq));
  }

  private async commitWithRetries(c: pg.PoolClient, groups: readonly Group[]): Promise<Set<string>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.commit(c, groups);
      } catch (error) {
        // A deadlock aborts the whole statement, so trying it again writes nothing twice. Every batch takes
        // the counter's row first, so it should not happen; this is the fallback if a plan ever differs.
        if ((error as { code?: string }).code !== "40P01" || attempt >= DEADLOCK_RETRIES) throw error;
      }
    }
  }

  /**
   * The batch in ONE statement, its own transaction: one round trip to the database however many appends
   * it holds (a batch's BEGIN, three statements and COMMIT took five, and a game's next append waits for
   * its previous one, so the round trips were what bounded a game's writes). Answers the games written.
   * - `c` takes the change numbers from the counter's row, one per game of the batch (a conflicting game's
   *   number is left unused). Its row lock is taken before any game's (the games' updates need its number)
   *   and held until the statement commits, so numbers are given in commit order (see changedSince), and no
   *   two batches ever wait for each other's game rows in opposite orders.
   * - `fresh`: a new game's row is inserted with its entry count (ON CONFLICT: a game another instance is
   *   creating at the same time conflicts); `moved`: a known game whose `seq` is the expected one moves on
   *   by its entry count. The games not returned conflict; the others still commit.
   * - The winners' entries are inserted, and one notification per game written, `<id>:<entry count>`,
   *   is delivered when the statement commits.
   */
  private async commit(c: pg.PoolClient, groups: readonly Group[]): Promise<Set<string>> {
    const entryGames: string[] = [];
    const entrySeqs: number[] = [];
    const bodies: string[] = [];
    for (const g of groups) {
      let seq = g.expected;
      for (const p of g.members)
        for (const e of p.entries) {
          entryGames.push(g.gameId);
          entrySeqs.push(seq++);
          bodies.push(JSON.stringify(e));
        }
    }
    const r = await c.query<{ id: string }>(
      `WITH c AS (UPDATE fm_changes SET n = n + $7 RETURNING n),
       t AS (SELECT * FROM unnest($1::text[], $2::int[], $3::int[]) WITH ORDINALITY AS t(id, expected, n, i)),
       fresh AS (
         INSERT INTO games (id, seq, changed) SELECT t.id, t.n, c.n - $7 + t.i FROM t, c WHERE t.expected = 0
         ON CONFLICT (id) DO NOTHING RETURNING id, seq),
       moved AS (
         UPDATE games g SET seq = g.seq + t.n, changed = c.n - $7 + t.i FROM t, c
         WHERE g.id = t.id AND t.expected > 0 AND g.seq = t.expected RETURNING g.id, g.seq),
       won AS (SELECT id, seq FROM fresh UNION ALL SELECT id, seq FROM moved),
       written AS (
         INSERT INTO game_entries (game_id, seq, body)
         SELECT e.game_id, e.seq, e.body FROM unnest($4::text[], $5::int[], $6::json[]) AS e(game_id, seq, body)
         WHERE e.game_id IN (SELECT id FROM won))
       SELECT id, pg_notify($8, id || ':' || seq) FROM won`,
      [
        groups.map((g) => g.gameId),
        groups.map((g) => g.expected),
        groups.map((g) => g.count),
        entryGames,
        entrySeqs,
        bodies,
        groups.length,
        channelName(this.namespace, "game"),
      ],
    );
    return new Set(r.rows.map((row) => row.id));
  }

  async entries(gameId: string): Promise<Entry[]> {
    const r = await this.db.read<{ body: Entry }>(
      `SELECT body FROM game_entries WHERE game_id = $1 ORDER BY seq`,
      [gameId],
    );
    return r.rows.map((row) => row.body);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Every append already accepted is committed (or refused) before the pool ends.
    while (this.current !== null || this.pending.length > 0) {
      if (this.current !== null) await this.current;
      else await this.runCycle();
    }
    await this.pool.end();
  }
}
