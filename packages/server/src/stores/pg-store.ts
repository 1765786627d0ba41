import { nickSkeleton } from "@forum-mafia/forum";
import pg from "pg";
import type { Setup } from "@forum-mafia/protocol";
import { channelName, namespaceOf } from "../log/cluster.ts";
import { PG_LOCKS } from "./pg-locks.ts";
import type { Entry } from "../log/entries.ts";
import {
  SeqConflict,
  StoreUnavailable,
  quotaAllowsAt,
  type ConfirmQuota,
  type GameIndexRow,
  setupNameKey,
  type MailRecord,
  type NotebookRecord,
  type SessionRecord,
  type SettingsRecord,
  type SetupRecord,
  type Store,
  type UserRecord,
} from "./store.ts";

/**
 * Schema versions, applied in order on start, in one transaction, recorded in fm_schema: SQL, or a step
 * that needs the server's code (a value computed in TypeScript).
 */
export const PG_MIGRATIONS: readonly (string | ((c: pg.ClientBase) => Promise<void>))[] = [
  `CREATE TABLE users (
     id TEXT PRIMARY KEY,
     nick TEXT NOT NULL,
     nick_key TEXT NOT NULL UNIQUE,
     password_hash TEXT NOT NULL,
     time_zone TEXT NOT NULL,
     lang TEXT NOT NULL,
     created_at BIGINT NOT NULL
   );
   CREATE TABLE sessions (
     token_hash TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id),
     expires_at BIGINT NOT NULL
   );
   CREATE TABLE games (
     id TEXT PRIMARY KEY,
     position BIGSERIAL NOT NULL
   );
   CREATE TABLE game_entries (
     game_id TEXT NOT NULL REFERENCES games(id),
     seq INTEGER NOT NULL,
     body JSONB NOT NULL,
     PRIMARY KEY (game_id, seq)
   );`,
  // v2 (issue 11): each user's nick skeleton, so look-alike nicks cannot both register; existing users get
  // theirs computed here. Not unique: an old database may already hold two look-alike nicks, and both keep
  // working.
  async (c) => {
    await c.query(`ALTER TABLE users ADD COLUMN nick_skeleton TEXT`);
    const users = await c.query<{ id: string; nick: string }>(`SELECT id, nick FROM users`);
    await c.query(
      `UPDATE users SET nick_skeleton = t.skeleton
       FROM unnest($1::text[], $2::text[]) AS t(id, skeleton) WHERE users.id = t.id`,
      [users.rows.map((u) => u.id), users.rows.map((u) => nickSkeleton(u.nick))],
    );
    await c.query(`ALTER TABLE users ALTER COLUMN nick_skeleton SET NOT NULL`);
    await c.query(`CREATE INDEX users_nick_skeleton ON users (nick_skeleton)`);
  },
  // v3 (issue 15): each user's reminder and e-mail settings, read marks, and the mail outbox.
  `CREATE TABLE user_settings (
     user_id TEXT PRIMARY KEY REFERENCES users(id),
     email TEXT,
     email_confirmed BOOLEAN NOT NULL,
     email_reminders BOOLEAN NOT NULL,
     before JSONB NOT NULL,
     quiet_from TEXT,
     quiet_to TEXT,
     browser_notifications BOOLEAN NOT NULL,
     confirm_token_hash TEXT UNIQUE,
     confirm_expires_at BIGINT,
     unsubscribe_token TEXT NOT NULL UNIQUE
   );
   CREATE TABLE read_marks (
     user_id TEXT NOT NULL REFERENCES users(id),
     game_id TEXT NOT NULL,
     place TEXT NOT NULL,
     up_to INTEGER NOT NULL,
     PRIMARY KEY (user_id, game_id, place)
   );
   CREATE TABLE mail_outbox (
     position BIGSERIAL PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     key TEXT NOT NULL UNIQUE,
     user_id TEXT NOT NULL REFERENCES users(id),
     recipient TEXT NOT NULL,
     subject TEXT NOT NULL,
     body TEXT NOT NULL,
     headers JSONB NOT NULL,
     created_at BIGINT NOT NULL,
     attempts INTEGER NOT NULL,
     next_attempt_at BIGINT NOT NULL,
     sent_at BIGINT,
     last_error TEXT,
     failed BOOLEAN NOT NULL
   );
   CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND NOT failed;
   CREATE INDEX mail_outbox_user ON mail_outbox (user_id);`,
  // v4 (issue 17): each user's saved setups, one per name ignoring case (name_key); `position` orders them
  // by when they were last saved (a replaced setup takes a new one from the sequence).
  `CREATE SEQUENCE saved_setups_position;
   CREATE TABLE saved_setups (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id),
     name TEXT NOT NULL,
     name_key TEXT NOT NULL,
     setup JSONB NOT NULL,
     saved_at BIGINT NOT NULL,
     position BIGINT NOT NULL DEFAULT nextval('saved_setups_position'),
     UNIQUE (user_id, name_key)
   );
   CREATE INDEX saved_setups_user ON saved_setups (user_id, position);`,
  // v5 (issue 18): the off-site games' notebooks, one row each; `version` guards every write.
  `CREATE TABLE notebooks (
     id TEXT PRIMARY KEY,
     owner_id TEXT NOT NULL REFERENCES users(id),
     title TEXT NOT NULL,
     doc TEXT NOT NULL,
     version INTEGER NOT NULL,
     created_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL,
     published BOOLEAN NOT NULL
   );
   CREATE INDEX notebooks_owner ON notebooks (owner_id, updated_at);`,
  // v6 (issue 20): each game's entry count (`seq`, what an append checks, kept by the append itself), its
  // change number (`changed`, what changedSince reads) and the meta text Games keeps with it. Change
  // numbers come from the one-row counter fm_changes, taken as each append's last step, so they are given
  // in commit order (see PgStore.commit). Existing games get theirs in creation order. The log's foreign
  // key goes: an append writes entries only for the games whose row it holds locked, and its check, on a
  // row the same transaction has just locked and updated, cost 140 µs an entry (15 of a 100-append
  // batch's 16 ms).
  `ALTER TABLE game_entries DROP CONSTRAINT game_entries_game_id_fkey;
   ALTER TABLE games ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE games ADD COLUMN changed BIGINT NOT NULL DEFAULT 0;
   ALTER TABLE games ADD COLUMN meta TEXT;
   UPDATE games g SET seq = t.n
     FROM (SELECT game_id, MAX(seq) + 1 AS n FROM game_entries GROUP BY game_id) t WHERE g.id = t.game_id;
   UPDATE games g SET changed = t.n
     FROM (SELECT id, row_number() OVER (ORDER BY position) AS n FROM games) t WHERE g.id = t.id;
   CREATE TABLE fm_changes (n BIGINT NOT NULL);
   INSERT INTO fm_changes (n) SELECT COUNT(*) FROM games;
   CREATE INDEX games_changed ON games (changed);`,
  // v7 (issue 20): the log's bodies as written (json keeps the text; jsonb reorders an object's keys). An
  // instance that reads a game from the log must build exactly the room the writing instance holds, down
  // to the key order of what it serves (a setting's `{ amount, unit }`), so its answers are the same bytes.
  // The rows written before keep jsonb's order.
  `ALTER TABLE game_entries ALTER COLUMN body TYPE json USING body::json;`,
  // v8 (issue 28): every user's nick skeleton worked out again, since nickSkeleton now reads letters drawn
  // with several characters too ("ш" as "LLI", "ю" as "IO"); and the outbox by address, for the limits on
  // confirmation mails (settings.ts: CONFIRM_QUOTA).
  async (c) => {
    const users = await c.query<{ id: string; nick: string }>(`SELECT id, nick FROM users`);
    await c.query(
      `UPDATE users SET nick_skeleton = t.skeleton
       FROM unnest($1::text[], $2::text[]) AS t(id, skeleton) WHERE users.id = t.id`,
      [users.rows.map((u) => u.id), users.rows.map((u) => nickSkeleton(u.nick))],
    );
    await c.query(`CREATE INDEX mail_outbox_recipient ON mail_outbox (lower(recipient), created_at)`);
  },
];

/** A mail's insert, unless one with its key exists (mailValues gives its values). */
const INSERT_MAIL = `INSERT INTO mail_outbox (id, key, user_id, recipient, subject, body, headers, created_at,
   attempts, next_attempt_at, sent_at, last_error, failed)
 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (key) DO NOTHING`;
const mailValues = (m: MailRecord): unknown[] => [
  m.id,
  m.key,
  m.userId,
  m.to,
  m.subject,
  m.text,
  JSON.stringify(m.headers),
  m.createdAt,
  m.attempts,
  m.nextAttemptAt,
  m.sentAt,
  m.lastError,
  m.failed,
];

/** Issue 28: when the quota allows the next confirmation mail (Store.confirmationAllowedAt), read with `query`. */
async function confirmationQuota(
  query: (text: string, values: unknown[]) => Promise<pg.QueryResult<{ created_at: string }>>,
  userId: string,
  address: string,
  quota: ConfirmQuota,
  now: number,
): Promise<number> {
  const times = (r: pg.QueryResult<{ created_at: string }>): number[] =>
    r.rows.map((row) => Number(row.created_at));
  const toAddress = await query(
    `SELECT created_at FROM mail_outbox WHERE lower(recipient) = lower($1) AND key LIKE 'confirm:%'
       AND created_at > $2 ORDER BY created_at DESC LIMIT $3`,
    [address, now - quota.addressWindowMs, quota.perAddress],
  );
  const forUser = await query(
    `SELECT created_at FROM mail_outbox WHERE user_id = $1 AND key LIKE 'confirm:%'
       AND created_at > $2 ORDER BY created_at DESC LIMIT $3`,
    [userId, now - quota.userWindowMs, quota.perUser],
  );
  return quotaAllowsAt(quota, times(toAddress), times(forUser), now);
}

interface NotebookRow {
  id: string;
  owner_id: string;
  title: string;
  doc: string;
  version: number;
  created_at: string;
  updated_at: string;
  published: boolean;
}

const toNotebook = (r: NotebookRow): NotebookRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  title: r.title,
  doc: r.doc,
  version: r.version,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
  published: r.published,
});

interface UserRow {
  id: string;
  nick: string;
  nick_key: string;
  nick_skeleton: string;
  password_hash: string;
  time_zone: string;
  lang: "ru" | "en";
  created_at: string;
}

const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  nick: r.nick,
  nickKey: r.nick_key,
  nickSkeleton: r.nick_skeleton,
  passwordHash: r.password_hash,
  timeZone: r.time_zone,
  lang: r.lang,
  createdAt: Number(r.created_at),
});

interface SettingsRow {
  user_id: string;
  email: string | null;
  email_confirmed: boolean;
  email_reminders: boolean;
  before: string[];
  quiet_from: string | null;
  quiet_to: string | null;
  browser_notifications: boolean;
  confirm_token_hash: string | null;
  confirm_expires_at: string | null;
  unsubscribe_token: string;
}

const toSettings = (r: SettingsRow): SettingsRecord => ({
  userId: r.user_id,
  email: r.email,
  emailConfirmed: r.email_confirmed,
  emailReminders: r.email_reminders,
  before: r.before,
  quietHours: r.quiet_from !== null && r.quiet_to !== null ? { from: r.quiet_from, to: r.quiet_to } : null,
  browserNotifications: r.browser_notifications,
  confirmTokenHash: r.confirm_token_hash,
  confirmExpiresAt: r.confirm_expires_at === null ? null : Number(r.confirm_expires_at),
  unsubscribeToken: r.unsubscribe_token,
});

interface SetupRow {
  id: string;
  name: string;
  setup: Setup;
  saved_at: string;
}

const toSetup = (r: SetupRow): SetupRecord => ({
  id: r.id,
  name: r.name,
  setup: r.setup,
  at: Number(r.saved_at),
});

interface MailRow {
  id: string;
  key: string;
  user_id: string;
  recipient: string;
  subject: string;
  body: string;
  headers: Record<string, string>;
  created_at: string;
  attempts: number;
  next_attempt_at: string;
  sent_at: string | null;
  last_error: string | null;
  failed: boolean;
}

const toMail = (r: MailRow): MailRecord => ({
  id: r.id,
  key: r.key,
  userId: r.user_id,
  to: r.recipient,
  subject: r.subject,
  text: r.body,
  headers: r.headers,
  createdAt: Number(r.created_at),
  attempts: r.attempts,
  nextAttemptAt: Number(r.next_attempt_at),
  sentAt: r.sent_at === null ? null : Number(r.sent_at),
  lastError: r.last_error,
  failed: r.failed,
});

/** Unsent mail that has not been given up. */
const UNSENT = `sent_at IS NULL AND NOT failed`;

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
 * Issue 28: how long a store call may take, by default (STORE_TIMEOUT_MS), before its caller hears
 * StoreUnavailable (the request: 503 with Retry-After). It bounds the wait for a connection, each
 * statement (client side, so a frozen database is noticed too; and server side, so a statement stuck
 * behind a lock gives it up) and a call as a whole.
 */
export const STORE_TIMEOUT_MS = 5_000;

/**
 * Issue 28: whether an error says that the database cannot answer now (rather than that a statement is
 * wrong): a connection refused, reset or timed out, the database shutting down or out of connections, a
 * statement cancelled by its time limit.
 */
export function isStoreFault(error: unknown): boolean {
  if (error instanceof StoreUnavailable) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  // SQLSTATE 08 connection, 53 resources, 57P shutdown, 57014 cancelled, 55P03 lock timeout; E…: a socket.
  if (
    typeof code === "string" &&
    /^(08|53|57P|57014$|55P03$|(ECONNREFUSED|ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$)/.test(
      code,
    )
  )
    return true;
  // pg's own messages for a connection that failed or a time limit that passed (they carry no code).
  return /^(Query read timeout|timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Client was closed)/.test(
    error.message,
  );
}

/**
 * Issue 28: whether a write that failed with `error` after it was sent may have been stored all the same.
 * An error the server answered about the statement itself means it was rolled back; the connection lost
 * or a time limit passed on this side (or the server ending the session mid-statement) leave it unknown.
 */
function mayHaveCommitted(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return !(typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !/^(08|57P)/.test(code));
}

/** A store fault as StoreUnavailable (`sent`: a write had left, so its outcome may be unknown); others as they are. */
function asUnavailable(error: unknown, sent: boolean): unknown {
  if (error instanceof StoreUnavailable || !isStoreFault(error)) return error;
  const unknown = sent && mayHaveCommitted(error);
  return new StoreUnavailable(`PostgreSQL: ${(error as Error).message}`, unknown);
}

/** The schema's migrations, on a connection of their own with no time limit (issue 28: see connect). */
async function migrate(config: pg.ClientConfig, namespace: string): Promise<void> {
  const c = new pg.Client(config);
  const ignore = (): void => {};
  c.on("error", ignore);
  await c.connect();
  try {
    await c.query("BEGIN");
    try {
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [PG_LOCKS.migration, namespace]);
      await c.query("CREATE TABLE IF NOT EXISTS fm_schema (version INTEGER NOT NULL)");
      const r = await c.query<{ version: number }>("SELECT version FROM fm_schema");
      let version = r.rows[0]?.version ?? 0;
      if (r.rows.length === 0) await c.query("INSERT INTO fm_schema (version) VALUES (0)");
      for (; version < PG_MIGRATIONS.length; version++) {
        const step = PG_MIGRATIONS[version]!;
        if (typeof step === "string") await c.query(step);
        else await step(c);
        await c.query("UPDATE fm_schema SET version = $1", [version + 1]);
      }
      await c.query("COMMIT");
    } catch (error) {
      await c.query("ROLLBACK").catch(() => {});
      throw error;
    }
  } finally {
    c.off("error", ignore);
    await c.end().catch(() => {});
  }
}

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
  ) {}

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
      const r = await pool.query<{ db: string; schema: string | null }>(
        "SELECT current_database() AS db, current_schema() AS schema",
      );
      const { db, schema } = r.rows[0]!;
      if (schema === null) throw new Error("PostgreSQL: no schema of the search_path exists");
      const namespace = namespaceOf(db, schema);
      await migrate(config, namespace);
      return new PgStore(pool, namespace, limited, timeoutMs);
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  /**
   * Issue 28: `work`, or StoreUnavailable once the time limit has passed (`unknown` when `sent`: a write
   * whose outcome nobody can tell yet). The work is left to end on its own: pg's own limits end its
   * connection, which the pool then drops.
   */
  private within<T>(work: Promise<T>, sent: boolean | (() => boolean)): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const unknown = typeof sent === "boolean" ? sent : sent();
        reject(new StoreUnavailable(`PostgreSQL: no answer within ${this.timeoutMs} ms`, unknown));
      }, this.timeoutMs);
      work.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(asUnavailable(error, typeof sent === "boolean" ? sent : sent()));
        },
      );
    });
  }

  /** One statement that only reads, within the time limit. */
  private read<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.within(this.pool.query<R>(text, values), false);
  }

  /** One statement that writes (its own transaction), within the time limit: its outcome may be unknown. */
  private write<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.within(this.pool.query<R>(text, values), true);
  }

  /**
   * `work` in one transaction on a connection of its own: committed if it returns, rolled back if it throws,
   * all within the time limit (issue 28; past it the connection is closed, so PostgreSQL rolls back
   * whatever had not committed: only a COMMIT under way is of unknown outcome).
   */
  private transaction<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    let committing = false;
    const run = async (): Promise<T> => {
      const c = await this.pool.connect();
      let broken: Error | undefined;
      // A connection that dies while checked out also emits "error" (the pool listens only to idle ones);
      // the query under way rejects with it, which is what the caller hears.
      const ignore = (): void => {};
      c.on("error", ignore);
      try {
        await c.query("BEGIN");
        const out = await work(c);
        committing = true;
        await c.query("COMMIT").catch((error: unknown) => {
          throw asUnavailable(error, true);
        });
        return out;
      } catch (error) {
        // The caller hears the first error; a connection that failed, or cannot even roll back, is not
        // reused (closing it rolls back).
        if (isStoreFault(error)) broken = error as Error;
        else
          await c.query("ROLLBACK").catch((e: unknown) => {
            broken = e instanceof Error ? e : new Error(String(e));
          });
        throw error;
      } finally {
        c.off("error", ignore);
        c.release(broken);
      }
    };
    return this.within(run(), () => committing);
  }

  /**
   * One transaction that first takes an advisory lock on the skeleton: a second registration of a look-alike
   * nick, on this server or another, waits until the first commits and then sees its row (READ COMMITTED
   * reads afresh at each statement). The unique nick_key still refuses a second user with the same key.
   */
  createUser(u: UserRecord): Promise<"created" | "taken"> {
    return this.transaction(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [PG_LOCKS.nick, u.nickSkeleton]);
      const taken = await c.query(`SELECT 1 FROM users WHERE nick_key = $1 OR nick_skeleton = $2 LIMIT 1`, [
        u.nickKey,
        u.nickSkeleton,
      ]);
      const r =
        taken.rows.length > 0
          ? null
          : await c.query(
              `INSERT INTO users (id, nick, nick_key, nick_skeleton, password_hash, time_zone, lang, created_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (nick_key) DO NOTHING`,
              [u.id, u.nick, u.nickKey, u.nickSkeleton, u.passwordHash, u.timeZone, u.lang, u.createdAt],
            );
      return r?.rowCount === 1 ? "created" : "taken";
    });
  }

  async userById(id: string): Promise<UserRecord | null> {
    const r = await this.read<UserRow>(`SELECT * FROM users WHERE id = $1`, [id]);
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  async userByNickKey(nickKey: string): Promise<UserRecord | null> {
    const r = await this.read<UserRow>(`SELECT * FROM users WHERE nick_key = $1`, [nickKey]);
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  async updateUser(id: string, change: { timeZone?: string; lang?: "ru" | "en" }): Promise<void> {
    await this.write(
      `UPDATE users SET time_zone = COALESCE($2, time_zone), lang = COALESCE($3, lang) WHERE id = $1`,
      [id, change.timeZone ?? null, change.lang ?? null],
    );
  }

  async createSession(tokenHash: string, s: SessionRecord): Promise<void> {
    await this.write(`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`, [
      tokenHash,
      s.userId,
      s.expiresAt,
    ]);
  }

  async session(tokenHash: string): Promise<SessionRecord | null> {
    const r = await this.read<{ user_id: string; expires_at: string }>(
      `SELECT user_id, expires_at FROM sessions WHERE token_hash = $1`,
      [tokenHash],
    );
    const row = r.rows[0];
    return row ? { userId: row.user_id, expiresAt: Number(row.expires_at) } : null;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.write(`DELETE FROM sessions WHERE token_hash = $1`, [tokenHash]);
  }

  async settings(userId: string): Promise<SettingsRecord | null> {
    const r = await this.read<SettingsRow>(`SELECT * FROM user_settings WHERE user_id = $1`, [userId]);
    return r.rows[0] ? toSettings(r.rows[0]) : null;
  }

  /** One statement, an upsert: committed (and so durable) when it returns. */
  async saveSettings(s: SettingsRecord): Promise<void> {
    await this.write(
      `INSERT INTO user_settings (user_id, email, email_confirmed, email_reminders, before, quiet_from, quiet_to,
         browser_notifications, confirm_token_hash, confirm_expires_at, unsubscribe_token)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, email_confirmed = excluded.email_confirmed,
         email_reminders = excluded.email_reminders, before = excluded.before, quiet_from = excluded.quiet_from,
         quiet_to = excluded.quiet_to, browser_notifications = excluded.browser_notifications,
         confirm_token_hash = excluded.confirm_token_hash, confirm_expires_at = excluded.confirm_expires_at,
         unsubscribe_token = excluded.unsubscribe_token`,
      [
        s.userId,
        s.email,
        s.emailConfirmed,
        s.emailReminders,
        JSON.stringify(s.before),
        s.quietHours?.from ?? null,
        s.quietHours?.to ?? null,
        s.browserNotifications,
        s.confirmTokenHash,
        s.confirmExpiresAt,
        s.unsubscribeToken,
      ],
    );
  }

  async settingsByConfirmToken(tokenHash: string): Promise<SettingsRecord | null> {
    const r = await this.read<SettingsRow>(`SELECT * FROM user_settings WHERE confirm_token_hash = $1`, [
      tokenHash,
    ]);
    return r.rows[0] ? toSettings(r.rows[0]) : null;
  }

  async settingsByUnsubscribeToken(token: string): Promise<SettingsRecord | null> {
    const r = await this.read<SettingsRow>(`SELECT * FROM user_settings WHERE unsubscribe_token = $1`, [
      token,
    ]);
    return r.rows[0] ? toSettings(r.rows[0]) : null;
  }

  async allSettings(): Promise<SettingsRecord[]> {
    const r = await this.read<SettingsRow>(
      `SELECT * FROM user_settings WHERE email IS NOT NULL AND email_confirmed ORDER BY user_id`,
    );
    return r.rows.map(toSettings);
  }

  async readMarks(userId: string, gameId: string): Promise<Readonly<Record<string, number>>> {
    const r = await this.read<{ place: string; up_to: number }>(
      `SELECT place, up_to FROM read_marks WHERE user_id = $1 AND game_id = $2`,
      [userId, gameId],
    );
    return Object.fromEntries(r.rows.map((row) => [row.place, row.up_to]));
  }

  async userReadMarks(userId: string): Promise<Readonly<Record<string, Readonly<Record<string, number>>>>> {
    const r = await this.read<{ game_id: string; place: string; up_to: number }>(
      `SELECT game_id, place, up_to FROM read_marks WHERE user_id = $1`,
      [userId],
    );
    const out: Record<string, Record<string, number>> = {};
    for (const row of r.rows) (out[row.game_id] ??= {})[row.place] = row.up_to;
    return out;
  }

  /** An upsert that keeps the larger mark: a late or repeated request never moves it back. */
  async markRead(userId: string, gameId: string, where: string, upTo: number): Promise<void> {
    await this.write(
      `INSERT INTO read_marks (user_id, game_id, place, up_to) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, game_id, place) DO UPDATE SET up_to = GREATEST(read_marks.up_to, excluded.up_to)`,
      [userId, gameId, where, upTo],
    );
  }

  /** The unique key decides: a second mail with a key already queued (or sent) writes nothing. */
  /**
   * Issue 28: one transaction that first takes advisory locks on the user and then on the address (always in
   * that order), so two confirmations for one user or one address, on any instances, are counted one after
   * the other.
   */
  enqueueConfirmation(
    m: MailRecord,
    quota: ConfirmQuota,
  ): Promise<"queued" | "duplicate" | { readonly notBefore: number }> {
    return this.transaction(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [PG_LOCKS.confirmUser, m.userId]);
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext(lower($2)))", [PG_LOCKS.confirmAddress, m.to]);
      const at = await confirmationQuota(
        (text, values) => c.query(text, values),
        m.userId,
        m.to,
        quota,
        m.createdAt,
      );
      if (at > m.createdAt) return { notBefore: at };
      const r = await c.query(INSERT_MAIL, mailValues(m));
      return r.rowCount === 1 ? "queued" : "duplicate";
    });
  }

  confirmationAllowedAt(userId: string, address: string, quota: ConfirmQuota, now: number): Promise<number> {
    return confirmationQuota((text, values) => this.read(text, values), userId, address, quota, now);
  }

  async enqueueMail(m: MailRecord): Promise<"queued" | "duplicate"> {
    const r = await this.write(INSERT_MAIL, mailValues(m));
    return r.rowCount === 1 ? "queued" : "duplicate";
  }

  async dueMail(now: number, limit: number): Promise<MailRecord[]> {
    const r = await this.read<MailRow>(
      `SELECT * FROM mail_outbox WHERE ${UNSENT} AND next_attempt_at <= $1
       ORDER BY created_at, position LIMIT $2`,
      [now, limit],
    );
    return r.rows.map(toMail);
  }

  async nextMailAt(): Promise<number | null> {
    const r = await this.read<{ at: string | null }>(
      `SELECT MIN(next_attempt_at) AS at FROM mail_outbox WHERE ${UNSENT}`,
    );
    const at = r.rows[0]?.at ?? null;
    return at === null ? null : Number(at);
  }

  async mailSent(id: string, at: number): Promise<void> {
    await this.write(`UPDATE mail_outbox SET sent_at = $2 WHERE id = $1`, [id, at]);
  }

  async mailFailed(
    id: string,
    change: { attempts: number; nextAttemptAt: number; lastError: string; failed: boolean },
  ): Promise<void> {
    await this.write(
      `UPDATE mail_outbox SET attempts = $2, next_attempt_at = $3, last_error = $4, failed = $5 WHERE id = $1`,
      [id, change.attempts, change.nextAttemptAt, change.lastError, change.failed],
    );
  }

  async mailFor(userId: string): Promise<MailRecord[]> {
    const r = await this.read<MailRow>(
      `SELECT * FROM mail_outbox WHERE user_id = $1 ORDER BY created_at, position`,
      [userId],
    );
    return r.rows.map(toMail);
  }

  async listSetups(userId: string): Promise<SetupRecord[]> {
    const r = await this.read<SetupRow>(
      `SELECT id, name, setup, saved_at FROM saved_setups WHERE user_id = $1 ORDER BY position DESC`,
      [userId],
    );
    return r.rows.map(toSetup);
  }

  /**
   * One transaction under the user's advisory lock: two saves of the same user, on this server or another,
   * take turns, so the name's row and the count each sees are current and the cap holds.
   */
  saveSetup(userId: string, s: SetupRecord, max: number): Promise<SetupRecord | "full"> {
    return this.transaction(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [PG_LOCKS.setups, userId]);
      const key = setupNameKey(s.name);
      const setup = JSON.stringify(s.setup);
      const same = await c.query<{ id: string }>(
        `UPDATE saved_setups SET name = $3, setup = $4, saved_at = $5, position = nextval('saved_setups_position')
         WHERE user_id = $1 AND name_key = $2 RETURNING id`,
        [userId, key, s.name, setup, s.at],
      );
      if (same.rows[0]) return { ...s, id: same.rows[0].id };
      const count = await c.query<{ n: string }>(
        `SELECT COUNT(*) AS n FROM saved_setups WHERE user_id = $1`,
        [userId],
      );
      if (Number(count.rows[0]!.n) >= max) return "full";
      await c.query(
        `INSERT INTO saved_setups (id, user_id, name, name_key, setup, saved_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [s.id, userId, s.name, key, setup, s.at],
      );
      return s;
    });
  }

  async deleteSetup(userId: string, id: string): Promise<boolean> {
    const r = await this.write(`DELETE FROM saved_setups WHERE user_id = $1 AND id = $2`, [userId, id]);
    return r.rowCount === 1;
  }

  /** One transaction under the owner's advisory lock: two creations take turns, so the cap holds. */
  createNotebook(n: NotebookRecord, max: number): Promise<"created" | "full"> {
    return this.transaction(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [PG_LOCKS.notebooks, n.ownerId]);
      const count = await c.query<{ n: string }>(`SELECT COUNT(*) AS n FROM notebooks WHERE owner_id = $1`, [
        n.ownerId,
      ]);
      if (Number(count.rows[0]!.n) >= max) return "full";
      await c.query(
        `INSERT INTO notebooks (id, owner_id, title, doc, version, created_at, updated_at, published)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [n.id, n.ownerId, n.title, n.doc, n.version, n.createdAt, n.updatedAt, n.published],
      );
      return "created";
    });
  }

  async notebook(id: string): Promise<NotebookRecord | null> {
    const r = await this.read<NotebookRow>(`SELECT * FROM notebooks WHERE id = $1`, [id]);
    return r.rows[0] ? toNotebook(r.rows[0]) : null;
  }

  async listNotebooks(ownerId: string): Promise<NotebookRecord[]> {
    const r = await this.read<NotebookRow>(
      `SELECT * FROM notebooks WHERE owner_id = $1 ORDER BY updated_at DESC, created_at DESC, id`,
      [ownerId],
    );
    return r.rows.map(toNotebook);
  }

  async updateNotebook(
    ownerId: string,
    id: string,
    version: number,
    c: Pick<NotebookRecord, "title" | "doc" | "updatedAt" | "published">,
  ): Promise<boolean> {
    const r = await this.write(
      `UPDATE notebooks SET title = $1, doc = $2, updated_at = $3, published = $4, version = version + 1
       WHERE id = $5 AND owner_id = $6 AND version = $7`,
      [c.title, c.doc, c.updatedAt, c.published, id, ownerId, version],
    );
    return r.rowCount === 1;
  }

  async deleteNotebook(ownerId: string, id: string): Promise<boolean> {
    const r = await this.write(`DELETE FROM notebooks WHERE owner_id = $1 AND id = $2`, [ownerId, id]);
    return r.rowCount === 1;
  }

  async gameIndex(): Promise<GameIndexRow[]> {
    const r = await this.read<GameIndexRow>(`SELECT id, seq, meta FROM games ORDER BY position`);
    return r.rows;
  }

  async saveGameMeta(gameId: string, meta: string): Promise<void> {
    await this.write(`UPDATE games SET meta = $2 WHERE id = $1`, [gameId, meta]);
  }

  async entriesFrom(gameId: string, from: number): Promise<Entry[]> {
    const r = await this.read<{ body: Entry }>(
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
    const r = await this.read<GameIndexRow & { changed: string }>(
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
    const r = await this.read<{ body: Entry }>(
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
