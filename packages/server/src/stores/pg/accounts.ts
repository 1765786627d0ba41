import { PG_LOCKS } from "../pg-locks.ts";
import { marksByGame, settingsValues, toSettings, toUser, userValues } from "../rows.ts";
import type { SettingsRow, UserRow } from "../rows.ts";
import type { AccountStore, SessionRecord, SettingsRecord, UserRecord } from "../store.ts";
import { bool, type PgDb } from "./db.ts";

/** Issue 29: users, sessions, settings and read marks in PostgreSQL; each write is committed when answered. */
export class PgAccounts implements AccountStore {
  constructor(private readonly db: PgDb) {}

  /**
   * One transaction that first takes an advisory lock on the skeleton: a second registration of a look-alike
   * nick, on this server or another, waits until the first commits and then sees its row (READ COMMITTED
   * reads afresh at each statement). The unique nick_key still refuses a second user with the same key.
   */
  createUser(u: UserRecord): Promise<"created" | "taken"> {
    return this.db.transaction(async (c) => {
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
              userValues(u),
            );
      return r?.rowCount === 1 ? "created" : "taken";
    });
  }

  async userById(id: string): Promise<UserRecord | null> {
    const r = await this.db.read<UserRow>(`SELECT * FROM users WHERE id = $1`, [id]);
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  async userByNickKey(nickKey: string): Promise<UserRecord | null> {
    const r = await this.db.read<UserRow>(`SELECT * FROM users WHERE nick_key = $1`, [nickKey]);
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  async updateUser(id: string, change: { timeZone?: string; lang?: "ru" | "en" }): Promise<void> {
    await this.db.write(
      `UPDATE users SET time_zone = COALESCE($2, time_zone), lang = COALESCE($3, lang) WHERE id = $1`,
      [id, change.timeZone ?? null, change.lang ?? null],
    );
  }

  async createSession(tokenHash: string, s: SessionRecord): Promise<void> {
    await this.db.write(`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`, [
      tokenHash,
      s.userId,
      s.expiresAt,
    ]);
  }

  async session(tokenHash: string): Promise<SessionRecord | null> {
    const r = await this.db.read<{ user_id: string; expires_at: string }>(
      `SELECT user_id, expires_at FROM sessions WHERE token_hash = $1`,
      [tokenHash],
    );
    const row = r.rows[0];
    return row ? { userId: row.user_id, expiresAt: Number(row.expires_at) } : null;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.write(`DELETE FROM sessions WHERE token_hash = $1`, [tokenHash]);
  }

  async settings(userId: string): Promise<SettingsRecord | null> {
    const r = await this.db.read<SettingsRow>(`SELECT * FROM user_settings WHERE user_id = $1`, [userId]);
    return r.rows[0] ? toSettings(r.rows[0]) : null;
  }

  /** One statement, an upsert: committed (and so durable) when it returns. */
  async saveSettings(s: SettingsRecord): Promise<void> {
    await this.db.write(
      `INSERT INTO user_settings (user_id, email, email_confirmed, email_reminders, before, quiet_from, quiet_to,
         browser_notifications, confirm_token_hash, confirm_expires_at, unsubscribe_token)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, email_confirmed = excluded.email_confirmed,
         email_reminders = excluded.email_reminders, before = excluded.before, quiet_from = excluded.quiet_from,
         quiet_to = excluded.quiet_to, browser_notifications = excluded.browser_notifications,
         confirm_token_hash = excluded.confirm_token_hash, confirm_expires_at = excluded.confirm_expires_at,
         unsubscribe_token = excluded.unsubscribe_token`,
      settingsValues(s, bool),
    );
  }

  async settingsByConfirmToken(tokenHash: string): Promise<SettingsRecord | null> {
    const r = await this.db.read<SettingsRow>(`SELECT * FROM user_settings WHERE confirm_token_hash = $1`, [
      tokenHash,
    ]);
    return r.rows[0] ? toSettings(r.rows[0]) : null;
  }

  async settingsByUnsubscribeToken(token: string): Promise<SettingsRecord | null> {
    const r = await this.db.read<SettingsRow>(`SELECT * FROM user_settings WHERE unsubscribe_token = $1`, [
      token,
    ]);
    return r.rows[0] ? toSettings(r.rows[0]) : null;
  }

  async allSettings(): Promise<SettingsRecord[]> {
    const r = await this.db.read<SettingsRow>(
      `SELECT * FROM user_settings WHERE email IS NOT NULL AND email_confirmed ORDER BY user_id`,
    );
    return r.rows.map(toSettings);
  }

  async readMarks(userId: string, gameId: string): Promise<Readonly<Record<string, number>>> {
    const r = await this.db.read<{ place: string; up_to: number }>(
      `SELECT place, up_to FROM read_marks WHERE user_id = $1 AND game_id = $2`,
      [userId, gameId],
    );
    return Object.fromEntries(r.rows.map((row) => [row.place, row.up_to]));
  }

  async userReadMarks(userId: string): Promise<Readonly<Record<string, Readonly<Record<string, number>>>>> {
    const r = await this.db.read<{ game_id: string; place: string; up_to: number }>(
      `SELECT game_id, place, up_to FROM read_marks WHERE user_id = $1`,
      [userId],
    );
    return marksByGame(r.rows);
  }

  /** An upsert that keeps the larger mark: a late or repeated request never moves it back. */
  async markRead(userId: string, gameId: string, where: string, upTo: number): Promise<void> {
    await this.db.write(
      `INSERT INTO read_marks (user_id, game_id, place, up_to) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, game_id, place) DO UPDATE SET up_to = GREATEST(read_marks.up_to, excluded.up_to)`,
      [userId, gameId, where, upTo],
    );
  }
}
