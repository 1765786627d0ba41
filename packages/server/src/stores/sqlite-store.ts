import { closeSync, fsync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { nickSkeleton } from "@forum-mafia/forum";
import Database from "better-sqlite3";
import type { Setup } from "@forum-mafia/protocol";
import type { Entry } from "../log/entries.ts";
import {
  SeqConflict,
  quotaAllowsAt,
  setupNameKey,
  type ConfirmQuota,
  type GameIndexRow,
  type MailRecord,
  type NotebookRecord,
  type SessionRecord,
  type SettingsRecord,
  type SetupRecord,
  type Store,
  type UserRecord,
} from "./store.ts";

/** Schema versions, applied in order on start; each runs once, in a transaction. */
/** The least time between two group commits (see SqliteStore.wake). */
const GROUP_COMMIT_MS = 3;

export const SQLITE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE users (
     id TEXT PRIMARY KEY,
     nick TEXT NOT NULL,
     nick_key TEXT NOT NULL UNIQUE,
     password_hash TEXT NOT NULL,
     time_zone TEXT NOT NULL,
     lang TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE sessions (
     token_hash TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id),
     expires_at INTEGER NOT NULL
   );
   CREATE TABLE games (
     id TEXT PRIMARY KEY,
     position INTEGER NOT NULL
   );
   CREATE TABLE game_entries (
     game_id TEXT NOT NULL REFERENCES games(id),
     seq INTEGER NOT NULL,
     body TEXT NOT NULL,
     PRIMARY KEY (game_id, seq)
   ) WITHOUT ROWID;`,
  // v2: the log in insertion order (a rowid table without a secondary index), so a commit that touches
  // twenty games appends to one page instead of twenty. Each game's next sequence number is kept in memory
  // (today read once from its row in games: nextSeq), so a commit writes nothing else.
  `CREATE TABLE game_log (
     id INTEGER PRIMARY KEY,
     game_id TEXT NOT NULL REFERENCES games(id),
     seq INTEGER NOT NULL,
     body TEXT NOT NULL
   );
   INSERT INTO game_log (game_id, seq, body) SELECT game_id, seq, body FROM game_entries ORDER BY game_id, seq;
   DROP TABLE game_entries;
   ALTER TABLE game_log RENAME TO game_entries;`,
  // v3 (issue 11): each user's nick skeleton, so look-alike nicks cannot both register. Existing users get
  // theirs from nick_skeleton(), nickSkeleton registered on the connection. Not unique: an old database may
  // already hold two look-alike nicks, and both keep working.
  `ALTER TABLE users ADD COLUMN nick_skeleton TEXT NOT NULL DEFAULT '';
   UPDATE users SET nick_skeleton = nick_skeleton(nick);
   CREATE INDEX users_nick_skeleton ON users (nick_skeleton);`,
  // v4 (issue 15): each user's reminder and e-mail settings, read marks, and the mail outbox.
  `CREATE TABLE user_settings (
     user_id TEXT PRIMARY KEY REFERENCES users(id),
     email TEXT,
     email_confirmed INTEGER NOT NULL,
     email_reminders INTEGER NOT NULL,
     before TEXT NOT NULL,
     quiet_from TEXT,
     quiet_to TEXT,
     browser_notifications INTEGER NOT NULL,
     confirm_token_hash TEXT UNIQUE,
     confirm_expires_at INTEGER,
     unsubscribe_token TEXT NOT NULL UNIQUE
   );
   CREATE TABLE read_marks (
     user_id TEXT NOT NULL REFERENCES users(id),
     game_id TEXT NOT NULL,
     place TEXT NOT NULL,
     up_to INTEGER NOT NULL,
     PRIMARY KEY (user_id, game_id, place)
   ) WITHOUT ROWID;
   CREATE TABLE mail_outbox (
     position INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     key TEXT NOT NULL UNIQUE,
     user_id TEXT NOT NULL REFERENCES users(id),
     recipient TEXT NOT NULL,
     subject TEXT NOT NULL,
     body TEXT NOT NULL,
     headers TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     attempts INTEGER NOT NULL,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT,
     failed INTEGER NOT NULL
   );
   CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed = 0;
   CREATE INDEX mail_outbox_user ON mail_outbox (user_id);`,
  // v5 (issue 17): each user's saved setups, one per name ignoring case (name_key); `position` orders them
  // by when they were last saved (a replaced setup takes a new one).
  `CREATE TABLE saved_setups (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id),
     name TEXT NOT NULL,
     name_key TEXT NOT NULL,
     setup TEXT NOT NULL,
     saved_at INTEGER NOT NULL,
     position INTEGER NOT NULL,
     UNIQUE (user_id, name_key)
   );
   CREATE INDEX saved_setups_user ON saved_setups (user_id, position);`,
  // v6 (issue 18): the off-site games' notebooks, one row each; `version` guards every write.
  `CREATE TABLE notebooks (
     id TEXT PRIMARY KEY,
     owner_id TEXT NOT NULL REFERENCES users(id),
     title TEXT NOT NULL,
     doc TEXT NOT NULL,
     version INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     published INTEGER NOT NULL
   );
   CREATE INDEX notebooks_owner ON notebooks (owner_id, updated_at);`,
  // v7 (issue 20): each game's entry count (`seq`, kept by the append), its change number (`changed`, what
  // changedSince reads; existing games get theirs in creation order) and the meta text Games keeps with
  // it; and an index of the log by game, so one game's log is read without scanning every game's (an
  // instance now builds a game's room when it first needs it, not every room on start).
  `CREATE INDEX game_entries_game ON game_entries (game_id, seq);
   ALTER TABLE games ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE games ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE games ADD COLUMN meta TEXT;
   UPDATE games SET seq = (SELECT COALESCE(MAX(seq) + 1, 0) FROM game_entries WHERE game_id = games.id),
     changed = position + 1;
   CREATE INDEX games_changed ON games (changed);`,
  // v8 (issue 28): every user's nick skeleton worked out again, since nickSkeleton now reads letters drawn
  // with several characters too ("ш" as "LLI", "ю" as "IO"); and the outbox by address, for the limits on
  // confirmation mails (settings.ts: CONFIRM_QUOTA).
  `UPDATE users SET nick_skeleton = nick_skeleton(nick);
   CREATE INDEX mail_outbox_recipient ON mail_outbox (lower(recipient), created_at);`,
];

interface NotebookRow {
  id: string;
  owner_id: string;
  title: string;
  doc: string;
  version: number;
  created_at: number;
  updated_at: number;
  published: number;
}

const toNotebook = (r: NotebookRow): NotebookRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  title: r.title,
  doc: r.doc,
  version: r.version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  published: r.published === 1,
});

interface UserRow {
  id: string;
  nick: string;
  nick_key: string;
  nick_skeleton: string;
  password_hash: string;
  time_zone: string;
  lang: "ru" | "en";
  created_at: number;
}

const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  nick: r.nick,
  nickKey: r.nick_key,
  nickSkeleton: r.nick_skeleton,
  passwordHash: r.password_hash,
  timeZone: r.time_zone,
  lang: r.lang,
  createdAt: r.created_at,
});

interface SettingsRow {
  user_id: string;
  email: string | null;
  email_confirmed: number;
  email_reminders: number;
  before: string;
  quiet_from: string | null;
  quiet_to: string | null;
  browser_notifications: number;
  confirm_token_hash: string | null;
  confirm_expires_at: number | null;
  unsubscribe_token: string;
}

const toSettings = (r: SettingsRow): SettingsRecord => ({
  userId: r.user_id,
  email: r.email,
  emailConfirmed: r.email_confirmed === 1,
  emailReminders: r.email_reminders === 1,
  before: JSON.parse(r.before) as string[],
  quietHours: r.quiet_from !== null && r.quiet_to !== null ? { from: r.quiet_from, to: r.quiet_to } : null,
  browserNotifications: r.browser_notifications === 1,
  confirmTokenHash: r.confirm_token_hash,
  confirmExpiresAt: r.confirm_expires_at,
  unsubscribeToken: r.unsubscribe_token,
});

interface SetupRow {
  id: string;
  name: string;
  setup: string;
  saved_at: number;
}

const toSetup = (r: SetupRow): SetupRecord => ({
  id: r.id,
  name: r.name,
  setup: JSON.parse(r.setup) as Setup,
  at: r.saved_at,
});

interface MailRow {
  id: string;
  key: string;
  user_id: string;
  recipient: string;
  subject: string;
  body: string;
  headers: string;
  created_at: number;
  attempts: number;
  next_attempt_at: number;
  sent_at: number | null;
  last_error: string | null;
  failed: number;
}

const toMail = (r: MailRow): MailRecord => ({
  id: r.id,
  key: r.key,
  userId: r.user_id,
  to: r.recipient,
  subject: r.subject,
  text: r.body,
  headers: JSON.parse(r.headers) as Record<string, string>,
  createdAt: r.created_at,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  sentAt: r.sent_at,
  lastError: r.last_error,
  failed: r.failed === 1,
});

/** Unsent mail that has not been given up. */
const UNSENT = `sent_at IS NULL AND failed = 0`;

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
 *   answered after an fsync.
 */
export class SqliteStore implements Store {
  /** This process is the file's only writer (issue 20): its rooms are the logs. */
  readonly shared = false;
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

  /**
   * The check and the insert run in one synchronous transaction (BEGIN IMMEDIATE, so another process
   * writing the same file waits): nothing can come between them. Like every write, the answer waits for
   * the next group commit's fsync; so does "taken", which tells of a user that must be on disk first.
   */
  async createUser(u: UserRecord): Promise<"created" | "taken"> {
    const created = this.db
      .transaction((): boolean => {
        const taken = this.sql(`SELECT 1 FROM users WHERE nick_key = ? OR nick_skeleton = ? LIMIT 1`).get(
          u.nickKey,
          u.nickSkeleton,
        );
        if (taken !== undefined) return false;
        this.sql(
          `INSERT INTO users (id, nick, nick_key, nick_skeleton, password_hash, time_zone, lang, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(u.id, u.nick, u.nickKey, u.nickSkeleton, u.passwordHash, u.timeZone, u.lang, u.createdAt);
        return true;
      })
      .immediate();
    await this.durable();
    return created ? "created" : "taken";
  }

  async userById(id: string): Promise<UserRecord | null> {
    const r = this.sql(`SELECT * FROM users WHERE id = ?`).get(id) as UserRow | undefined;
    return r ? toUser(r) : null;
  }

  async userByNickKey(nickKey: string): Promise<UserRecord | null> {
    const r = this.sql(`SELECT * FROM users WHERE nick_key = ?`).get(nickKey) as UserRow | undefined;
    return r ? toUser(r) : null;
  }

  async updateUser(id: string, change: { timeZone?: string; lang?: "ru" | "en" }): Promise<void> {
    if (change.timeZone !== undefined)
      this.sql(`UPDATE users SET time_zone = ? WHERE id = ?`).run(change.timeZone, id);
    if (change.lang !== undefined) this.sql(`UPDATE users SET lang = ? WHERE id = ?`).run(change.lang, id);
    await this.durable();
  }

  async createSession(tokenHash: string, s: SessionRecord): Promise<void> {
    this.sql(`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES (?, ?, ?)`).run(
      tokenHash,
      s.userId,
      s.expiresAt,
    );
    await this.durable();
  }

  async session(tokenHash: string): Promise<SessionRecord | null> {
    const r = this.sql(`SELECT user_id, expires_at FROM sessions WHERE token_hash = ?`).get(tokenHash) as
      { user_id: string; expires_at: number } | undefined;
    return r ? { userId: r.user_id, expiresAt: r.expires_at } : null;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    this.sql(`DELETE FROM sessions WHERE token_hash = ?`).run(tokenHash);
    await this.durable();
  }

  async settings(userId: string): Promise<SettingsRecord | null> {
    const r = this.sql(`SELECT * FROM user_settings WHERE user_id = ?`).get(userId) as
      SettingsRow | undefined;
    return r ? toSettings(r) : null;
  }

  async saveSettings(s: SettingsRecord): Promise<void> {
    this.sql(
      `INSERT INTO user_settings (user_id, email, email_confirmed, email_reminders, before, quiet_from, quiet_to,
         browser_notifications, confirm_token_hash, confirm_expires_at, unsubscribe_token)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, email_confirmed = excluded.email_confirmed,
         email_reminders = excluded.email_reminders, before = excluded.before, quiet_from = excluded.quiet_from,
         quiet_to = excluded.quiet_to, browser_notifications = excluded.browser_notifications,
         confirm_token_hash = excluded.confirm_token_hash, confirm_expires_at = excluded.confirm_expires_at,
         unsubscribe_token = excluded.unsubscribe_token`,
    ).run(
      s.userId,
      s.email,
      s.emailConfirmed ? 1 : 0,
      s.emailReminders ? 1 : 0,
      JSON.stringify(s.before),
      s.quietHours?.from ?? null,
      s.quietHours?.to ?? null,
      s.browserNotifications ? 1 : 0,
      s.confirmTokenHash,
      s.confirmExpiresAt,
      s.unsubscribeToken,
    );
    await this.durable();
  }

  async settingsByConfirmToken(tokenHash: string): Promise<SettingsRecord | null> {
    const r = this.sql(`SELECT * FROM user_settings WHERE confirm_token_hash = ?`).get(tokenHash) as
      SettingsRow | undefined;
    return r ? toSettings(r) : null;
  }

  async settingsByUnsubscribeToken(token: string): Promise<SettingsRecord | null> {
    const r = this.sql(`SELECT * FROM user_settings WHERE unsubscribe_token = ?`).get(token) as
      SettingsRow | undefined;
    return r ? toSettings(r) : null;
  }

  async allSettings(): Promise<SettingsRecord[]> {
    const rows = this.sql(
      `SELECT * FROM user_settings WHERE email IS NOT NULL AND email_confirmed = 1 ORDER BY user_id`,
    ).all() as SettingsRow[];
    return rows.map(toSettings);
  }

  async readMarks(userId: string, gameId: string): Promise<Readonly<Record<string, number>>> {
    const rows = this.sql(`SELECT place, up_to FROM read_marks WHERE user_id = ? AND game_id = ?`).all(
      userId,
      gameId,
    ) as { place: string; up_to: number }[];
    return Object.fromEntries(rows.map((r) => [r.place, r.up_to]));
  }

  async userReadMarks(userId: string): Promise<Readonly<Record<string, Readonly<Record<string, number>>>>> {
    const rows = this.sql(`SELECT game_id, place, up_to FROM read_marks WHERE user_id = ?`).all(userId) as {
      game_id: string;
      place: string;
      up_to: number;
    }[];
    const out: Record<string, Record<string, number>> = {};
    for (const r of rows) (out[r.game_id] ??= {})[r.place] = r.up_to;
    return out;
  }

  /** An upsert that keeps the larger mark: a late or repeated request never moves it back. */
  async markRead(userId: string, gameId: string, where: string, upTo: number): Promise<void> {
    this.sql(
      `INSERT INTO read_marks (user_id, game_id, place, up_to) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id, game_id, place) DO UPDATE SET up_to = MAX(up_to, excluded.up_to)`,
    ).run(userId, gameId, where, upTo);
    await this.durable();
  }

  /** The unique key decides: a second mail with a key already queued (or sent) writes nothing. */
  async enqueueMail(m: MailRecord): Promise<"queued" | "duplicate"> {
    const queued = this.insertMail(m);
    // "duplicate" waits too: it tells of a mail that must be on disk first.
    await this.durable();
    return queued ? "queued" : "duplicate";
  }

  /** The quota's check and the insert in one synchronous transaction (BEGIN IMMEDIATE), as createUser. */
  async enqueueConfirmation(
    m: MailRecord,
    quota: ConfirmQuota,
  ): Promise<"queued" | "duplicate" | { readonly notBefore: number }> {
    const out = this.db
      .transaction((): "queued" | "duplicate" | { readonly notBefore: number } => {
        const at = this.confirmationAllowedAtNow(m.userId, m.to, quota, m.createdAt);
        if (at > m.createdAt) return { notBefore: at };
        return this.insertMail(m) ? "queued" : "duplicate";
      })
      .immediate();
    if (typeof out === "string") await this.durable();
    return out;
  }

  async confirmationAllowedAt(
    userId: string,
    address: string,
    quota: ConfirmQuota,
    now: number,
  ): Promise<number> {
    return this.confirmationAllowedAtNow(userId, address, quota, now);
  }

  private confirmationAllowedAtNow(
    userId: string,
    address: string,
    quota: ConfirmQuota,
    now: number,
  ): number {
    const times = (rows: unknown[]): number[] => (rows as { created_at: number }[]).map((r) => r.created_at);
    const toAddress = this.sql(
      `SELECT created_at FROM mail_outbox WHERE lower(recipient) = lower(?) AND key LIKE 'confirm:%'
         AND created_at > ? ORDER BY created_at DESC LIMIT ?`,
    ).all(address, now - quota.addressWindowMs, quota.perAddress);
    const forUser = this.sql(
      `SELECT created_at FROM mail_outbox WHERE user_id = ? AND key LIKE 'confirm:%'
         AND created_at > ? ORDER BY created_at DESC LIMIT ?`,
    ).all(userId, now - quota.userWindowMs, quota.perUser);
    return quotaAllowsAt(quota, times(toAddress), times(forUser), now);
  }

  /** Insert a mail unless one with its key exists; true when inserted. */
  private insertMail(m: MailRecord): boolean {
    const r = this.sql(
      `INSERT INTO mail_outbox (id, key, user_id, recipient, subject, body, headers, created_at, attempts,
         next_attempt_at, sent_at, last_error, failed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
    ).run(
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
      m.failed ? 1 : 0,
    );
    return r.changes === 1;
  }

  async dueMail(now: number, limit: number): Promise<MailRecord[]> {
    const rows = this.sql(
      `SELECT * FROM mail_outbox WHERE ${UNSENT} AND next_attempt_at <= ? ORDER BY created_at, position LIMIT ?`,
    ).all(now, limit) as MailRow[];
    return rows.map(toMail);
  }

  async nextMailAt(): Promise<number | null> {
    const r = this.sql(`SELECT MIN(next_attempt_at) AS at FROM mail_outbox WHERE ${UNSENT}`).get() as {
      at: number | null;
    };
    return r.at;
  }

  async mailSent(id: string, at: number): Promise<void> {
    this.sql(`UPDATE mail_outbox SET sent_at = ? WHERE id = ?`).run(at, id);
    await this.durable();
  }

  async mailFailed(
    id: string,
    change: { attempts: number; nextAttemptAt: number; lastError: string; failed: boolean },
  ): Promise<void> {
    this.sql(
      `UPDATE mail_outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, failed = ? WHERE id = ?`,
    ).run(change.attempts, change.nextAttemptAt, change.lastError, change.failed ? 1 : 0, id);
    await this.durable();
  }

  async mailFor(userId: string): Promise<MailRecord[]> {
    const rows = this.sql(`SELECT * FROM mail_outbox WHERE user_id = ? ORDER BY created_at, position`).all(
      userId,
    ) as MailRow[];
    return rows.map(toMail);
  }

  async listSetups(userId: string): Promise<SetupRecord[]> {
    const rows = this.sql(
      `SELECT id, name, setup, saved_at FROM saved_setups WHERE user_id = ? ORDER BY position DESC`,
    ).all(userId) as SetupRow[];
    return rows.map(toSetup);
  }

  /** The name's row, the count and the write run in one synchronous transaction: nothing comes between them. */
  async saveSetup(userId: string, r: SetupRecord, max: number): Promise<SetupRecord | "full"> {
    const key = setupNameKey(r.name);
    const saved = this.db
      .transaction((): SetupRecord | "full" => {
        const position = (
          this.sql(`SELECT COALESCE(MAX(position), 0) + 1 AS p FROM saved_setups`).get() as { p: number }
        ).p;
        const same = this.sql(`SELECT id FROM saved_setups WHERE user_id = ? AND name_key = ?`).get(
          userId,
          key,
        ) as { id: string } | undefined;
        const setup = JSON.stringify(r.setup);
        if (same) {
          this.sql(
            `UPDATE saved_setups SET name = ?, setup = ?, saved_at = ?, position = ? WHERE id = ?`,
          ).run(r.name, setup, r.at, position, same.id);
          return { ...r, id: same.id };
        }
        const count = (
          this.sql(`SELECT COUNT(*) AS n FROM saved_setups WHERE user_id = ?`).get(userId) as { n: number }
        ).n;
        if (count >= max) return "full";
        this.sql(
          `INSERT INTO saved_setups (id, user_id, name, name_key, setup, saved_at, position)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).run(r.id, userId, r.name, key, setup, r.at, position);
        return r;
      })
      .immediate();
    // "full" waits too: it tells of setups that must be on disk first.
    await this.durable();
    return saved;
  }

  async deleteSetup(userId: string, id: string): Promise<boolean> {
    const r = this.sql(`DELETE FROM saved_setups WHERE user_id = ? AND id = ?`).run(userId, id);
    await this.durable();
    return r.changes === 1;
  }

  /** The count and the insert run in one synchronous transaction: nothing comes between them. */
  async createNotebook(n: NotebookRecord, max: number): Promise<"created" | "full"> {
    const done = this.db
      .transaction((): "created" | "full" => {
        const count = (
          this.sql(`SELECT COUNT(*) AS n FROM notebooks WHERE owner_id = ?`).get(n.ownerId) as { n: number }
        ).n;
        if (count >= max) return "full";
        this.sql(
          `INSERT INTO notebooks (id, owner_id, title, doc, version, created_at, updated_at, published)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(n.id, n.ownerId, n.title, n.doc, n.version, n.createdAt, n.updatedAt, n.published ? 1 : 0);
        return "created";
      })
      .immediate();
    await this.durable();
    return done;
  }

  async notebook(id: string): Promise<NotebookRecord | null> {
    const row = this.sql(`SELECT * FROM notebooks WHERE id = ?`).get(id) as NotebookRow | undefined;
    return row ? toNotebook(row) : null;
  }

  async listNotebooks(ownerId: string): Promise<NotebookRecord[]> {
    const rows = this.sql(
      `SELECT * FROM notebooks WHERE owner_id = ? ORDER BY updated_at DESC, created_at DESC, id`,
    ).all(ownerId) as NotebookRow[];
    return rows.map(toNotebook);
  }

  async updateNotebook(
    ownerId: string,
    id: string,
    version: number,
    c: Pick<NotebookRecord, "title" | "doc" | "updatedAt" | "published">,
  ): Promise<boolean> {
    const r = this.sql(
      `UPDATE notebooks SET title = ?, doc = ?, updated_at = ?, published = ?, version = version + 1
         WHERE id = ? AND owner_id = ? AND version = ?`,
    ).run(c.title, c.doc, c.updatedAt, c.published ? 1 : 0, id, ownerId, version);
    await this.durable();
    return r.changes === 1;
  }

  async deleteNotebook(ownerId: string, id: string): Promise<boolean> {
    const r = this.sql(`DELETE FROM notebooks WHERE owner_id = ? AND id = ?`).run(ownerId, id);
    await this.durable();
    return r.changes === 1;
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
