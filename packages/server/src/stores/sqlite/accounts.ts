import { marksByGame, settingsValues, toSettings, toUser, userValues } from "../rows.ts";
import type { SettingsRow, UserRow } from "../rows.ts";
import type { AccountStore, SessionRecord, SettingsRecord, UserRecord } from "../store.ts";
import { bit, type SqliteDb } from "./db.ts";

/** Issue 29: users, sessions, settings and read marks in SQLite; each write is answered after an fsync. */
export class SqliteAccounts implements AccountStore {
  constructor(private readonly d: SqliteDb) {}

  /**
   * The check and the insert run in one synchronous transaction (BEGIN IMMEDIATE, so another process
   * writing the same file waits): nothing can come between them. Like every write, the answer waits for
   * the next group commit's fsync; so does "taken", which tells of a user that must be on disk first.
   */
  async createUser(u: UserRecord): Promise<"created" | "taken"> {
    const created = this.d.db
      .transaction((): boolean => {
        const taken = this.d
          .sql(`SELECT 1 FROM users WHERE nick_key = ? OR nick_skeleton = ? LIMIT 1`)
          .get(u.nickKey, u.nickSkeleton);
        if (taken !== undefined) return false;
        this.d
          .sql(
            `INSERT INTO users (id, nick, nick_key, nick_skeleton, password_hash, time_zone, lang, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(...userValues(u));
        return true;
      })
      .immediate();
    await this.d.durable();
    return created ? "created" : "taken";
  }

  async userById(id: string): Promise<UserRecord | null> {
    const r = this.d.sql(`SELECT * FROM users WHERE id = ?`).get(id) as UserRow | undefined;
    return r ? toUser(r) : null;
  }

  async userByNickKey(nickKey: string): Promise<UserRecord | null> {
    const r = this.d.sql(`SELECT * FROM users WHERE nick_key = ?`).get(nickKey) as UserRow | undefined;
    return r ? toUser(r) : null;
  }

  async updateUser(id: string, change: { timeZone?: string; lang?: "ru" | "en" }): Promise<void> {
    if (change.timeZone !== undefined)
      this.d.sql(`UPDATE users SET time_zone = ? WHERE id = ?`).run(change.timeZone, id);
    if (change.lang !== undefined) this.d.sql(`UPDATE users SET lang = ? WHERE id = ?`).run(change.lang, id);
    await this.d.durable();
  }

  async createSession(tokenHash: string, s: SessionRecord): Promise<void> {
    this.d
      .sql(`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES (?, ?, ?)`)
      .run(tokenHash, s.userId, s.expiresAt);
    await this.d.durable();
  }

  async session(tokenHash: string): Promise<SessionRecord | null> {
    const r = this.d.sql(`SELECT user_id, expires_at FROM sessions WHERE token_hash = ?`).get(tokenHash) as
      { user_id: string; expires_at: number } | undefined;
    return r ? { userId: r.user_id, expiresAt: r.expires_at } : null;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    this.d.sql(`DELETE FROM sessions WHERE token_hash = ?`).run(tokenHash);
    await this.d.durable();
  }

  async settings(userId: string): Promise<SettingsRecord | null> {
    const r = this.d.sql(`SELECT * FROM user_settings WHERE user_id = ?`).get(userId) as
      SettingsRow | undefined;
    return r ? toSettings(r) : null;
  }

  async saveSettings(s: SettingsRecord): Promise<void> {
    this.d
      .sql(
        `INSERT INTO user_settings (user_id, email, email_confirmed, email_reminders, before, quiet_from, quiet_to,
         browser_notifications, confirm_token_hash, confirm_expires_at, unsubscribe_token)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, email_confirmed = excluded.email_confirmed,
         email_reminders = excluded.email_reminders, before = excluded.before, quiet_from = excluded.quiet_from,
         quiet_to = excluded.quiet_to, browser_notifications = excluded.browser_notifications,
         confirm_token_hash = excluded.confirm_token_hash, confirm_expires_at = excluded.confirm_expires_at,
         unsubscribe_token = excluded.unsubscribe_token`,
      )
      .run(...settingsValues(s, bit));
    await this.d.durable();
  }

  async settingsByConfirmToken(tokenHash: string): Promise<SettingsRecord | null> {
    const r = this.d.sql(`SELECT * FROM user_settings WHERE confirm_token_hash = ?`).get(tokenHash) as
      SettingsRow | undefined;
    return r ? toSettings(r) : null;
  }

  async settingsByUnsubscribeToken(token: string): Promise<SettingsRecord | null> {
    const r = this.d.sql(`SELECT * FROM user_settings WHERE unsubscribe_token = ?`).get(token) as
      SettingsRow | undefined;
    return r ? toSettings(r) : null;
  }

  async allSettings(): Promise<SettingsRecord[]> {
    const rows = this.d
      .sql(`SELECT * FROM user_settings WHERE email IS NOT NULL AND email_confirmed = 1 ORDER BY user_id`)
      .all() as SettingsRow[];
    return rows.map(toSettings);
  }

  async readMarks(userId: string, gameId: string): Promise<Readonly<Record<string, number>>> {
    const rows = this.d
      .sql(`SELECT place, up_to FROM read_marks WHERE user_id = ? AND game_id = ?`)
      .all(userId, gameId) as { place: string; up_to: number }[];
    return Object.fromEntries(rows.map((r) => [r.place, r.up_to]));
  }

  async userReadMarks(userId: string): Promise<Readonly<Record<string, Readonly<Record<string, number>>>>> {
    const rows = this.d.sql(`SELECT game_id, place, up_to FROM read_marks WHERE user_id = ?`).all(userId) as {
      game_id: string;
      place: string;
      up_to: number;
    }[];
    return marksByGame(rows);
  }

  /** An upsert that keeps the larger mark: a late or repeated request never moves it back. */
  async markRead(userId: string, gameId: string, where: string, upTo: number): Promise<void> {
    this.d
      .sql(
        `INSERT INTO read_marks (user_id, game_id, place, up_to) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id, game_id, place) DO UPDATE SET up_to = MAX(up_to, excluded.up_to)`,
      )
      .run(userId, gameId, where, upTo);
    await this.d.durable();
  }
}
