import { createdTimes, mailValues, toMail } from "../rows.ts";
import type { MailRow } from "../rows.ts";
import { quotaAllowsAt } from "../store.ts";
import type { ConfirmQuota, MailRecord, OutboxStore } from "../store.ts";
import { bit, type SqliteDb } from "./db.ts";

/** Unsent mail that has not been given up. */
const UNSENT = `sent_at IS NULL AND failed = 0`;

/** Issue 29: the mail outbox in SQLite; each write is answered after an fsync. */
export class SqliteOutbox implements OutboxStore {
  constructor(private readonly d: SqliteDb) {}

  /** The unique key decides: a second mail with a key already queued (or sent) writes nothing. */
  async enqueueMail(m: MailRecord): Promise<"queued" | "duplicate"> {
    const queued = this.insertMail(m);
    // "duplicate" waits too: it tells of a mail that must be on disk first.
    await this.d.durable();
    return queued ? "queued" : "duplicate";
  }

  /** The quota's check and the insert in one synchronous transaction (BEGIN IMMEDIATE), as createUser. */
  async enqueueConfirmation(
    m: MailRecord,
    quota: ConfirmQuota,
  ): Promise<"queued" | "duplicate" | { readonly notBefore: number }> {
    const out = this.d.db
      .transaction((): "queued" | "duplicate" | { readonly notBefore: number } => {
        const at = this.confirmationAllowedAtNow(m.userId, m.to, quota, m.createdAt);
        if (at > m.createdAt) return { notBefore: at };
        return this.insertMail(m) ? "queued" : "duplicate";
      })
      .immediate();
    if (typeof out === "string") await this.d.durable();
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
    const toAddress = this.d
      .sql(
        `SELECT created_at FROM mail_outbox WHERE lower(recipient) = lower(?) AND key LIKE 'confirm:%'
         AND created_at > ? ORDER BY created_at DESC LIMIT ?`,
      )
      .all(address, now - quota.addressWindowMs, quota.perAddress) as { created_at: number }[];
    const forUser = this.d
      .sql(
        `SELECT created_at FROM mail_outbox WHERE user_id = ? AND key LIKE 'confirm:%'
         AND created_at > ? ORDER BY created_at DESC LIMIT ?`,
      )
      .all(userId, now - quota.userWindowMs, quota.perUser) as { created_at: number }[];
    return quotaAllowsAt(quota, createdTimes(toAddress), createdTimes(forUser), now);
  }

  /** Insert a mail unless one with its key exists; true when inserted. */
  private insertMail(m: MailRecord): boolean {
    const r = this.d
      .sql(
        `INSERT INTO mail_outbox (id, key, user_id, recipient, subject, body, headers, created_at, attempts,
         next_attempt_at, sent_at, last_error, failed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
      )
      .run(...mailValues(m, bit));
    return r.changes === 1;
  }

  async dueMail(now: number, limit: number): Promise<MailRecord[]> {
    const rows = this.d
      .sql(
        `SELECT * FROM mail_outbox WHERE ${UNSENT} AND next_attempt_at <= ? ORDER BY created_at, position LIMIT ?`,
      )
      .all(now, limit) as MailRow[];
    return rows.map(toMail);
  }

  async nextMailAt(): Promise<number | null> {
    const r = this.d.sql(`SELECT MIN(next_attempt_at) AS at FROM mail_outbox WHERE ${UNSENT}`).get() as {
      at: number | null;
    };
    return r.at;
  }

  async mailSent(id: string, at: number): Promise<void> {
    this.d.sql(`UPDATE mail_outbox SET sent_at = ? WHERE id = ?`).run(at, id);
    await this.d.durable();
  }

  async mailFailed(
    id: string,
    change: { attempts: number; nextAttemptAt: number; lastError: string; failed: boolean },
  ): Promise<void> {
    this.d
      .sql(
        `UPDATE mail_outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, failed = ? WHERE id = ?`,
      )
      .run(change.attempts, change.nextAttemptAt, change.lastError, bit(change.failed), id);
    await this.d.durable();
  }

  async mailFor(userId: string): Promise<MailRecord[]> {
    const rows = this.d
      .sql(`SELECT * FROM mail_outbox WHERE user_id = ? ORDER BY created_at, position`)
      .all(userId) as MailRow[];
    return rows.map(toMail);
  }
}
