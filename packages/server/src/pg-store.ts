import { nickSkeleton } from "@forum-mafia/forum";
import pg from "pg";
import type { Setup } from "@forum-mafia/protocol";
import type { Entry } from "./entries.ts";
import {
  SeqConflict,
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
export const PG_MIGRATIONS: readonly (string | ((c: pg.PoolClient) => Promise<void>))[] = [
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
];

/** The advisory locks of registrations are (NICK_LOCK, hashtext(skeleton)): apart from the migration's. */
const NICK_LOCK = 11;
/** A user's saved setups are written under (SETUP_LOCK, hashtext(user id)), so the cap of 50 holds. */
const SETUP_LOCK = 17;
/** A user's new notebooks are written under (NOTEBOOK_LOCK, hashtext(user id)), so MAX_NOTEBOOKS holds. */
const NOTEBOOK_LOCK = 18;

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

/**
 * PostgreSQL behind the same Store interface as SQLite. Each append is one transaction that checks the
 * expected sequence number; a game's appends are chained so they commit in the order they were accepted.
 * The primary key (game_id, seq) refuses a second writer that raced past the check.
 */
export class PgStore implements Store {
  private readonly chains = new Map<string, Promise<void>>();

  private constructor(private readonly pool: pg.Pool) {}

  static async connect(config: pg.PoolConfig): Promise<PgStore> {
    const pool = new pg.Pool({ max: 10, ...config });
    // An idle connection that breaks (the server restarts, the network drops) is reported on the pool; with
    // no listener that would stop the process. The pool replaces it, and the next query says if it cannot.
    pool.on("error", (error) => console.error(`PostgreSQL: an idle connection failed: ${error.message}`));
    const store = new PgStore(pool);
    await store.migrate();
    return store;
  }

  /** `work` in one transaction on a connection of its own: committed if it returns, rolled back if it throws. */
  private async transaction<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query("BEGIN");
      const out = await work(c);
      await c.query("COMMIT");
      return out;
    } catch (error) {
      await c.query("ROLLBACK");
      throw error;
    } finally {
      c.release();
    }
  }

  private migrate(): Promise<void> {
    return this.transaction(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock(7315)");
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
    });
  }

  /**
   * One transaction that first takes an advisory lock on the skeleton: a second registration of a look-alike
   * nick, on this server or another, waits until the first commits and then sees its row (READ COMMITTED
   * reads afresh at each statement). The unique nick_key still refuses a second user with the same key.
   */
  createUser(u: UserRecord): Promise<"created" | "taken"> {
    return this.transaction(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [NICK_LOCK, u.nickSkeleton]);
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
    const r = await this.pool.query<UserRow>(`SELECT * FROM users WHERE id = $1`, [id]);
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  async userByNickKey(nickKey: string): Promise<UserRecord | null> {
    const r = await this.pool.query<UserRow>(`SELECT * FROM users WHERE nick_key = $1`, [nickKey]);
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  async updateUser(id: string, change: { timeZone?: string; lang?: "ru" | "en" }): Promise<void> {
    await this.pool.query(
      `UPDATE users SET time_zone = COALESCE($2, time_zone), lang = COALESCE($3, lang) WHERE id = $1`,
      [id, change.timeZone ?? null, change.lang ?? null],
    );
  }

  async createSession(tokenHash: string, s: SessionRecord): Promise<void> {
    await this.pool.query(`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`, [
      tokenHash,
      s.userId,
      s.expiresAt,
    ]);
  }

  async session(tokenHash: string): Promise<SessionRecord | null> {
    const r = await this.pool.query<{ user_id: string; expires_at: string }>(
      `SELECT user_id, expires_at FROM sessions WHERE token_hash = $1`,
      [tokenHash],
    );
    const row = r.rows[0];
    return row ? { userId: row.user_id, expiresAt: Number(row.expires_at) } : null;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.pool.query(`DELETE FROM sessions WHERE token_hash = $1`, [tokenHash]);
  }

  async settings(userId: string): Promise<SettingsRecord | null> {
    const r = await this.pool.query<SettingsRow>(`SELECT * FROM user_settings WHERE user_id = $1`, [userId]);
    return r.rows[0] ? toSettings(r.rows[0]) : null;
  }

  /** One statement, an upsert: committed (and so durable) when it returns. */
  async saveSettings(s: SettingsRecord): Promise<void> {
    await this.pool.query(
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
    const r = await this.pool.query<SettingsRow>(
      `SELECT * FROM user_settings WHERE confirm_token_hash = $1`,
      [tokenHash],
    );
    return r.rows[0] ? toSettings(r.rows[0]) : null;
  }

  async settingsByUnsubscribeToken(token: string): Promise<SettingsRecord | null> {
    const r = await this.pool.query<SettingsRow>(`SELECT * FROM user_settings WHERE unsubscribe_token = $1`, [
      token,
    ]);
    return r.rows[0] ? toSettings(r.rows[0]) : null;
  }

  async allSettings(): Promise<SettingsRecord[]> {
    const r = await this.pool.query<SettingsRow>(
      `SELECT * FROM user_settings WHERE email IS NOT NULL AND email_confirmed ORDER BY user_id`,
    );
    return r.rows.map(toSettings);
  }

  async readMarks(userId: string, gameId: string): Promise<Readonly<Record<string, number>>> {
    const r = await this.pool.query<{ place: string; up_to: number }>(
      `SELECT place, up_to FROM read_marks WHERE user_id = $1 AND game_id = $2`,
      [userId, gameId],
    );
    return Object.fromEntries(r.rows.map((row) => [row.place, row.up_to]));
  }

  async userReadMarks(userId: string): Promise<Readonly<Record<string, Readonly<Record<string, number>>>>> {
    const r = await this.pool.query<{ game_id: string; place: string; up_to: number }>(
      `SELECT game_id, place, up_to FROM read_marks WHERE user_id = $1`,
      [userId],
    );
    const out: Record<string, Record<string, number>> = {};
    for (const row of r.rows) (out[row.game_id] ??= {})[row.place] = row.up_to;
    return out;
  }

  /** An upsert that keeps the larger mark: a late or repeated request never moves it back. */
  async markRead(userId: string, gameId: string, where: string, upTo: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO read_marks (user_id, game_id, place, up_to) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, game_id, place) DO UPDATE SET up_to = GREATEST(read_marks.up_to, excluded.up_to)`,
      [userId, gameId, where, upTo],
    );
  }

  /** The unique key decides: a second mail with a key already queued (or sent) writes nothing. */
  async enqueueMail(m: MailRecord): Promise<"queued" | "duplicate"> {
    const r = await this.pool.query(
      `INSERT INTO mail_outbox (id, key, user_id, recipient, subject, body, headers, created_at, attempts,
         next_attempt_at, sent_at, last_error, failed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (key) DO NOTHING`,
      [
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
      ],
    );
    return r.rowCount === 1 ? "queued" : "duplicate";
  }

  async dueMail(now: number, limit: number): Promise<MailRecord[]> {
    const r = await this.pool.query<MailRow>(
      `SELECT * FROM mail_outbox WHERE ${UNSENT} AND next_attempt_at <= $1
       ORDER BY created_at, position LIMIT $2`,
      [now, limit],
    );
    return r.rows.map(toMail);
  }

  async nextMailAt(): Promise<number | null> {
    const r = await this.pool.query<{ at: string | null }>(
      `SELECT MIN(next_attempt_at) AS at FROM mail_outbox WHERE ${UNSENT}`,
    );
    const at = r.rows[0]?.at ?? null;
    return at === null ? null : Number(at);
  }

  async mailSent(id: string, at: number): Promise<void> {
    await this.pool.query(`UPDATE mail_outbox SET sent_at = $2 WHERE id = $1`, [id, at]);
  }

  async mailFailed(
    id: string,
    change: { attempts: number; nextAttemptAt: number; lastError: string; failed: boolean },
  ): Promise<void> {
    await this.pool.query(
      `UPDATE mail_outbox SET attempts = $2, next_attempt_at = $3, last_error = $4, failed = $5 WHERE id = $1`,
      [id, change.attempts, change.nextAttemptAt, change.lastError, change.failed],
    );
  }

  async mailFor(userId: string): Promise<MailRecord[]> {
    const r = await this.pool.query<MailRow>(
      `SELECT * FROM mail_outbox WHERE user_id = $1 ORDER BY created_at, position`,
      [userId],
    );
    return r.rows.map(toMail);
  }

  async listSetups(userId: string): Promise<SetupRecord[]> {
    const r = await this.pool.query<SetupRow>(
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
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [SETUP_LOCK, userId]);
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
    const r = await this.pool.query(`DELETE FROM saved_setups WHERE user_id = $1 AND id = $2`, [userId, id]);
    return r.rowCount === 1;
  }

  /** One transaction under the owner's advisory lock: two creations take turns, so the cap holds. */
  createNotebook(n: NotebookRecord, max: number): Promise<"created" | "full"> {
    return this.transaction(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [NOTEBOOK_LOCK, n.ownerId]);
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
    const r = await this.pool.query<NotebookRow>(`SELECT * FROM notebooks WHERE id = $1`, [id]);
    return r.rows[0] ? toNotebook(r.rows[0]) : null;
  }

  async listNotebooks(ownerId: string): Promise<NotebookRecord[]> {
    const r = await this.pool.query<NotebookRow>(
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
    const r = await this.pool.query(
      `UPDATE notebooks SET title = $1, doc = $2, updated_at = $3, published = $4, version = version + 1
       WHERE id = $5 AND owner_id = $6 AND version = $7`,
      [c.title, c.doc, c.updatedAt, c.published, id, ownerId, version],
    );
    return r.rowCount === 1;
  }

  async deleteNotebook(ownerId: string, id: string): Promise<boolean> {
    const r = await this.pool.query(`DELETE FROM notebooks WHERE owner_id = $1 AND id = $2`, [ownerId, id]);
    return r.rowCount === 1;
  }

  async gameIds(): Promise<string[]> {
    const r = await this.pool.query<{ id: string }>(`SELECT id FROM games ORDER BY position`);
    return r.rows.map((row) => row.id);
  }

  append(gameId: string, seq: number, entries: readonly Entry[]): Promise<void> {
    const previous = this.chains.get(gameId) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(() => this.write(gameId, seq, entries));
    this.chains.set(gameId, next);
    const forget = (): void => {
      if (this.chains.get(gameId) === next) this.chains.delete(gameId);
    };
    next.then(forget, forget);
    return next;
  }

  /** One transaction that checks the expected sequence number; the primary key refuses a racing writer. */
  private async write(gameId: string, seq: number, entries: readonly Entry[]): Promise<void> {
    try {
      await this.transaction(async (c) => {
        if (seq === 0) await c.query(`INSERT INTO games (id) VALUES ($1) ON CONFLICT DO NOTHING`, [gameId]);
        const r = await c.query<{ next: number }>(
          `SELECT COALESCE(MAX(seq) + 1, 0) AS next FROM game_entries WHERE game_id = $1`,
          [gameId],
        );
        if (Number(r.rows[0]!.next) !== seq) throw new SeqConflict(gameId, seq);
        await c.query(
          `INSERT INTO game_entries (game_id, seq, body)
           SELECT $1, $2 + n - 1, body FROM unnest($3::jsonb[]) WITH ORDINALITY AS t(body, n)`,
          [gameId, seq, entries.map((e) => JSON.stringify(e))],
        );
      });
    } catch (error) {
      if ((error as { code?: string }).code === "23505") throw new SeqConflict(gameId, seq);
      throw error;
    }
  }

  async entries(gameId: string): Promise<Entry[]> {
    const r = await this.pool.query<{ body: Entry }>(
      `SELECT body FROM game_entries WHERE game_id = $1 ORDER BY seq`,
      [gameId],
    );
    return r.rows.map((row) => row.body);
  }

  async loadAll(): Promise<{ id: string; entries: Entry[] }[]> {
    const byGame = new Map<string, Entry[]>();
    for (const id of await this.gameIds()) byGame.set(id, []);
    const r = await this.pool.query<{ game_id: string; body: Entry }>(
      `SELECT game_id, body FROM game_entries ORDER BY game_id, seq`,
    );
    for (const row of r.rows) byGame.get(row.game_id)!.push(row.body);
    return [...byGame].map(([id, entries]) => ({ id, entries }));
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.chains.values());
    await this.pool.end();
  }
}
