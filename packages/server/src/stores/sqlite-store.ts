import { closeSync, fsync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { nickSkeleton } from "@forum-mafia/forum";
import Database from "better-sqlite3";
import type { Entry } from "../log/entries.ts";
import { SqliteAccounts } from "./sqlite/accounts.ts";
import type { SqliteDb } from "./sqlite/db.ts";
import { SqliteLibrary } from "./sqlite/library.ts";
import { SQLITE_MIGRATIONS } from "./sqlite/migrations.ts";
import { SqliteOutbox } from "./sqlite/outbox.ts";
import { SeqConflict, type GameIndexRow, type Store } from "./store.ts";

export { SQLITE_MIGRATIONS };

/** The least time between two group commits (see SqliteStore.wake). */
const GROUP_COMMIT_MS = 3;

interface Pending {
  readonly gameId: string;
  readonly seq: number;
  readonly entries: readonly Entry[];
  readonly done: (error: Error | null) => void;
}

/**
 * Embedded SQLite (better-sqlite3) in WAL mode, where nothing is acknowledged before it is on disk.
 *
 * - Appends that arrive in the same turn of the event loop are committed together in one transaction
 *   (group commit): one fsync for many votes.
 * - The fsync is ours, not SQLite's: SQLite runs with synchronous=NORMAL (in WAL mode it syncs the WAL
 *   before each checkpoint and the database after it), and after each commit the WAL file is fsynced on
 *   libuv's thread pool, so the event loop never waits for the disk. A write is answered when that fsync
 *   returns: the same durability as synchronous=FULL, surviving a crash or a power cut.
 * - Batches are answered in the order they were committed, so live streams publish in log order.
 * - Users, sessions, settings, read marks and the mail outbox are written the same way: each write is
 *   answered after an fsync. Issue 29: they are the facets' (sqlite/accounts.ts, outbox.ts, library.ts),
 *   which share this connection and its group commit.
 */
export class SqliteStore implements Store {
  /** This process is the file's only writer (issue 20): its rooms are the logs. */
  readonly shared = false;
  readonly accounts: SqliteAccounts;
  readonly outbox: SqliteOutbox;
  readonly library: SqliteLibrary;
  private readonly db: Database.Database;
  /** The last change number given (games.changed); this store is the only writer, so it counts in memory. */
  private lastChange: number;
  private pending: Pending[] = [];
  private closed = false;
  private readonly next = new Map<string, number>();
  private readonly walFile: string | null;
  private walFd: number | null = null;
  /** The group commit: the cycle running or scheduled, when the last one started, who waits for an fsync. */
  private current: Promise<void> | null = null;
  /** Cancels the scheduled cycle, if one is scheduled. */
  private timer: (() => void) | null = null;
  private lastCycle = 0;
  private waiting: ((error: Error | null) => void)[] = [];

  constructor(file: string) {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    this.walFile = file === ":memory:" ? null : `${file}-wal`;
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("busy_timeout = 5000");
    this.db.function("nick_skeleton", { deterministic: true }, (nick: string) => nickSkeleton(nick));
    this.migrate();
    this.lastChange = (this.sql(`SELECT MAX(changed) AS n FROM games`).get() as { n: number | null }).n ?? 0;
    const d: SqliteDb = { db: this.db, sql: (text) => this.sql(text), durable: () => this.durable() };
    this.accounts = new SqliteAccounts(d);
    this.outbox = new SqliteOutbox(d);
    this.library = new SqliteLibrary(d);
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** A prepared statement, prepared once per SQL text. */
  private sql(text: string): Database.Statement {
    let st = this.statements.get(text);
    if (!st) this.statements.set(text, (st = this.db.prepare(text)));
    return st;
  }

  private migrate(): void {
    const version = this.db.pragma("user_version", { simple: true }) as number;
    for (let v = version; v < SQLITE_MIGRATIONS.length; v++) {
      this.db.transaction(() => {
        this.db.exec(SQLITE_MIGRATIONS[v]!);
        this.db.pragma(`user_version = ${v + 1}`);
      })();
    }
  }

  append(gameId: string, seq: number, entries: readonly Entry[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the store is closed"));
    return new Promise((resolve, reject) => {
      this.pending.push({ gameId, seq, entries, done: (e) => (e ? reject(e) : resolve()) });
      this.wake();
    });
  }

  /** Resolves once everything written so far is on disk (users and sessions wait for it after a write). */
  private durable(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push((error) => (error ? reject(error) : resolve()));
      this.wake();
    });
  }

  /**
   * Group commit. A cycle commits the pending appends in one transaction, fsyncs the WAL on libuv's thread
   * pool, and then answers everyone it covers, in order. One cycle runs at a time, and cycles start at
   * least GROUP_COMMIT_MS apart: an idle server answers after a single fsync (about 0.1 ms on this
   * machine's disk), a busy one shares each fsync (about 36 µs of CPU here) among every write of the
   * last couple of milliseconds.
   */
  private wake(): void {
    if (this.timer !== null || this.current !== null || this.closed) return;
    const wait = this.lastCycle + GROUP_COMMIT_MS - Date.now();
    const run = (): void => {
      this.timer = null;
      void this.runCycle();
    };
    if (wait > 0) {
      const t = setTimeout(run, wait);
      this.timer = () => clearTimeout(t);
    } else {
      const t = setImmediate(run);
      this.timer = () => clearImmediate(t);
    }
  }

  private runCycle(): Promise<void> {
    this.current = this.cycle().finally(() => {
      this.current = null;
      if (this.pending.length > 0 || this.waiting.length > 0) this.wake();
    });
    return this.current;
  }

  private async cycle(): Promise<void> {
    this.lastCycle = Date.now();
    this.commitPending();
    const group = this.waiting;
    this.waiting = [];
    if (group.length === 0) return;
    let error: Error | null = null;
    try {
      await this.fsyncWal();
    } catch (e) {
      error = e instanceof Error ? e : new Error(String(e));
    }
    for (const answer of group) answer(error);
  }

  /** A game's next sequence number: its entry count, kept in its row (0 for a new game), then in memory. */
  private nextSeq(gameId: string): number {
    let n = this.next.get(gameId);
    if (n === undefined) {
      const row = this.sql(`SELECT seq FROM games WHERE id = ?`).get(gameId) as { seq: number } | undefined;
      n = row?.seq ?? 0;
      this.next.set(gameId, n);
    }
    return n;
  }

  /** One transaction for every pending append; each waits for the cycle's fsync to be answered. */
  private commitPending(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const failed = new Map<Pending, Error>();
    try {
      const insert = this.sql(`INSERT INTO game_entries (game_id, seq, body) VALUES (?, ?, ?)`);
      const newGame = this.sql(`INSERT INTO games (id, position) VALUES (?, (SELECT COUNT(*) FROM games))`);
      const moved = this.sql(`UPDATE games SET seq = ?, changed = ? WHERE id = ?`);
      let change = this.lastChange;
      this.db.transaction(() => {
        // Each game's row is written once per batch, however many of its appends the batch holds.
        const written = new Set<string>();
        for (const p of batch) {
          const expected = this.nextSeq(p.gameId);
          if (expected !== p.seq) {
            failed.set(p, new SeqConflict(p.gameId, p.seq));
            continue;
          }
          if (expected === 0) newGame.run(p.gameId);
          for (let i = 0; i < p.entries.length; i++)
            insert.run(p.gameId, p.seq + i, JSON.stringify(p.entries[i]));
          this.next.set(p.gameId, p.seq + p.entries.length);
          written.add(p.gameId);
        }
        for (const id of written) moved.run(this.next.get(id)!, ++change, id);
      })();
      this.lastChange = change;
    } catch (error) {
      // Nothing of the batch is on disk: every caller hears so (the server then stops, see Games.commit).
      this.next.clear();
      for (const p of batch) p.done(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    for (const p of batch) this.waiting.push((error) => p.done(error ?? failed.get(p) ?? null));
  }

  /** fsync the WAL on the thread pool: what was committed before the call is on disk when it resolves. */
  private fsyncWal(): Promise<void> {
    const fd = this.wal();
    if (fd === null) return Promise.resolve();
    return new Promise((resolve, reject) => fsync(fd, (e) => (e ? reject(e) : resolve())));
  }

  /** The WAL file's descriptor (it exists from the first write on; SQLite keeps its inode while open). */
  private wal(): number | null {
    if (this.walFile === null) return null;
    this.walFd ??= openSync(this.walFile, "r+");
    return this.walFd;
  }

  async entries(gameId: string): Promise<Entry[]> {
    return this.entriesFrom(gameId, 0);
  }

  async entriesFrom(gameId: string, from: number): Promise<Entry[]> {
    const rows = this.sql(`SELECT body FROM game_entries WHERE game_id = ? AND seq >= ? ORDER BY seq`).all(
      gameId,
      from,
    ) as { body: string }[];
    return rows.map((r) => JSON.parse(r.body) as Entry);
  }

  async gameIndex(): Promise<GameIndexRow[]> {
    return this.sql(`SELECT id, seq, meta FROM games ORDER BY position`).all() as GameIndexRow[];
  }

  async saveGameMeta(gameId: string, meta: string): Promise<void> {
    this.sql(`UPDATE games SET meta = ? WHERE id = ?`).run(meta, gameId);
    await this.durable();
  }

  /**
   * The games whose change number is past the cursor. Numbers are given in commit order (this process is
   * the only writer and commits one batch at a time), so the largest one seen is a safe next cursor.
   */
  async changedSince(cursor: number): Promise<{ cursor: number; games: GameIndexRow[] }> {
    const rows = this.sql(`SELECT id, seq, meta, changed FROM games WHERE changed > ? ORDER BY position`).all(
      cursor,
    ) as (GameIndexRow & { changed: number })[];
    let next = cursor;
    for (const r of rows) next = Math.max(next, r.changed);
    return { cursor: next, games: rows.map(({ id, seq, meta }) => ({ id, seq, meta })) };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Every write already accepted is committed and fsynced before the file closes.
    for (;;) {
      this.timer?.();
      this.timer = null;
      if (this.current !== null) await this.current;
      else if (this.pending.length > 0 || this.waiting.length > 0) await this.runCycle();
      else break;
    }
    if (this.walFd !== null) closeSync(this.walFd);
    this.db.close();
  }
}
