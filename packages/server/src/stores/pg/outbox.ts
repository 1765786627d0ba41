import type pg from "pg";
import { PG_LOCKS } from "../pg-locks.ts";
import { createdTimes, mailValues, toMail } from "../rows.ts";
import type { MailRow } from "../rows.ts";
import { quotaAllowsAt } from "../store.ts";
import type { ConfirmQuota, MailRecord, OutboxStore } from "../store.ts";
import { bool, type PgDb } from "./db.ts";

/** A mail's insert, unless one with its key exists (mailValues gives its values). */
const INSERT_MAIL = `INSERT INTO mail_outbox (id, key, user_id, recipient, subject, body, headers, created_at,
   attempts, next_attempt_at, sent_at, last_error, failed)
 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (key) DO NOTHING`;

/** Unsent mail that has not been given up. */
const UNSENT = `sent_at IS NULL AND NOT failed`;

/** Issue 28: when the quota allows the next confirmation mail (Store.confirmationAllowedAt), read with `query`. */
async function confirmationQuota(
  query: (text: string, values: unknown[]) => Promise<pg.QueryResult<{ created_at: string }>>,
  userId: string,
  address: string,
  quota: ConfirmQuota,
  now: number,
): Promise<number> {
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
  return quotaAllowsAt(quota, createdTimes(toAddress.rows), createdTimes(forUser.rows), now);
}

/** Issue 29: the mail outbox in PostgreSQL; each write is committed when answered. */
export class PgOutbox implements OutboxStore {
  constructor(private readonly db: PgDb) {}

  /**
   * Issue 28: one transaction that first takes advisory locks on the user and then on the address (always in
   * that order), so two confirmations for one user or one address, on any instances, are counted one after
   * the other.
   */
  enqueueConfirmation(
    m: MailRecord,
    quota: ConfirmQuota,
  ): Promise<"queued" | "duplicate" | { readonly notBefore: number }> {
    return this.db.transaction(async (c) => {
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
      const r = await c.query(INSERT_MAIL, mailValues(m, bool));
      return r.rowCount === 1 ? "queued" : "duplicate";
    });
  }

  confirmationAllowedAt(userId: string, address: string, quota: ConfirmQuota, now: number): Promise<number> {
    return confirmationQuota((text, values) => this.db.read(text, values), userId, address, quota, now);
  }

  /** The unique key decides: a second mail with a key already queued (or sent) writes nothing. */
  async enqueueMail(m: MailRecord): Promise<"queued" | "duplicate"> {
    const r = await this.db.write(INSERT_MAIL, mailValues(m, bool));
    return r.rowCount === 1 ? "queued" : "duplicate";
  }

  async dueMail(now: number, limit: number): Promise<MailRecord[]> {
    const r = await this.db.read<MailRow>(
      `SELECT * FROM mail_outbox WHERE ${UNSENT} AND next_attempt_at <= $1
       ORDER BY created_at, position LIMIT $2`,
      [now, limit],
    );
    return r.rows.map(toMail);
  }

  async nextMailAt(): Promise<number | null> {
    const r = await this.db.read<{ at: string | null }>(
      `SELECT MIN(next_attempt_at) AS at FROM mail_outbox WHERE ${UNSENT}`,
    );
    const at = r.rows[0]?.at ?? null;
    return at === null ? null : Number(at);
  }

  async mailSent(id: string, at: number): Promise<void> {
    await this.db.write(`UPDATE mail_outbox SET sent_at = $2 WHERE id = $1`, [id, at]);
  }

  async mailFailed(
    id: string,
    change: { attempts: number; nextAttemptAt: number; lastError: string; failed: boolean },
  ): Promise<void> {
    await this.db.write(
      `UPDATE mail_outbox SET attempts = $2, next_attempt_at = $3, last_error = $4, failed = $5 WHERE id = $1`,
      [id, change.attempts, change.nextAttemptAt, change.lastError, change.failed],
    );
  }

  async mailFor(userId: string): Promise<MailRecord[]> {
    const r = await this.db.read<MailRow>(
      `SELECT * FROM mail_outbox WHERE user_id = $1 ORDER BY created_at, position`,
      [userId],
    );
    return r.rows.map(toMail);
  }
}
