import type { Setup } from "@forum-mafia/protocol";
import type { MailRecord, NotebookRecord, SettingsRecord, SetupRecord, UserRecord } from "./store.ts";

/**
 * Issue 29: the rows both stores read and the values both write, once. The two backends differ only in how
 * a driver hands a column back: a BIGINT is a number from SQLite and a string from pg (which will not round
 * it past 2^53), a flag is 0/1 from SQLite and a boolean from PostgreSQL, and a JSON column is text from
 * SQLite and the parsed value from PostgreSQL's JSONB. The row types take either, and the mappers read both.
 */

/** A BIGINT column as either driver returns it. */
export type Int = number | string;
/** A flag column: SQLite's 0/1, PostgreSQL's BOOLEAN. */
export type Flag = number | boolean;
/** A JSON column: SQLite's text, PostgreSQL's JSONB (already parsed: never a string for our columns). */
export type Json<T> = string | T;

const flag = (v: Flag): boolean => v === true || v === 1;
const json = <T>(v: Json<T>): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);
const intOrNull = (v: Int | null): number | null => (v === null ? null : Number(v));

/** How a backend writes a flag: SQLite as 0/1, PostgreSQL as a boolean. */
export type FlagOut = (b: boolean) => Flag;

export interface NotebookRow {
  id: string;
  owner_id: string;
  title: string;
  doc: string;
  version: number;
  created_at: Int;
  updated_at: Int;
  published: Flag;
}

export const toNotebook = (r: NotebookRow): NotebookRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  title: r.title,
  doc: r.doc,
  version: r.version,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
  published: flag(r.published),
});

/** A new notebook's values, in the insert's column order (id, owner_id, title, doc, version, created_at, updated_at, published). */
export const notebookValues = (n: NotebookRecord, out: FlagOut): unknown[] => [
  n.id,
  n.ownerId,
  n.title,
  n.doc,
  n.version,
  n.createdAt,
  n.updatedAt,
  out(n.published),
];

export interface UserRow {
  id: string;
  nick: string;
  nick_key: string;
  nick_skeleton: string;
  password_hash: string;
  time_zone: string;
  lang: "ru" | "en";
  created_at: Int;
}

export const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  nick: r.nick,
  nickKey: r.nick_key,
  nickSkeleton: r.nick_skeleton,
  passwordHash: r.password_hash,
  timeZone: r.time_zone,
  lang: r.lang,
  createdAt: Number(r.created_at),
});

/** A new user's values, in the insert's column order (id, nick, nick_key, nick_skeleton, password_hash, time_zone, lang, created_at). */
export const userValues = (u: UserRecord): unknown[] => [
  u.id,
  u.nick,
  u.nickKey,
  u.nickSkeleton,
  u.passwordHash,
  u.timeZone,
  u.lang,
  u.createdAt,
];

export interface SettingsRow {
  user_id: string;
  email: string | null;
  email_confirmed: Flag;
  email_reminders: Flag;
  before: Json<string[]>;
  quiet_from: string | null;
  quiet_to: string | null;
  browser_notifications: Flag;
  confirm_token_hash: string | null;
  confirm_expires_at: Int | null;
  unsubscribe_token: string;
}

export const toSettings = (r: SettingsRow): SettingsRecord => ({
  userId: r.user_id,
  email: r.email,
  emailConfirmed: flag(r.email_confirmed),
  emailReminders: flag(r.email_reminders),
  before: json(r.before),
  quietHours: r.quiet_from !== null && r.quiet_to !== null ? { from: r.quiet_from, to: r.quiet_to } : null,
  browserNotifications: flag(r.browser_notifications),
  confirmTokenHash: r.confirm_token_hash,
  confirmExpiresAt: intOrNull(r.confirm_expires_at),
  unsubscribeToken: r.unsubscribe_token,
});

/**
 * Settings' values, in the upsert's column order (user_id, email, email_confirmed, email_reminders, before,
 * quiet_from, quiet_to, browser_notifications, confirm_token_hash, confirm_expires_at, unsubscribe_token).
 */
export const settingsValues = (s: SettingsRecord, out: FlagOut): unknown[] => [
  s.userId,
  s.email,
  out(s.emailConfirmed),
  out(s.emailReminders),
  JSON.stringify(s.before),
  s.quietHours?.from ?? null,
  s.quietHours?.to ?? null,
  out(s.browserNotifications),
  s.confirmTokenHash,
  s.confirmExpiresAt,
  s.unsubscribeToken,
];

export interface SetupRow {
  id: string;
  name: string;
  setup: Json<Setup>;
  saved_at: Int;
}

export const toSetup = (r: SetupRow): SetupRecord => ({
  id: r.id,
  name: r.name,
  setup: json(r.setup),
  at: Number(r.saved_at),
});

export interface MailRow {
  id: string;
  key: string;
  user_id: string;
  recipient: string;
  subject: string;
  body: string;
  headers: Json<Record<string, string>>;
  created_at: Int;
  attempts: number;
  next_attempt_at: Int;
  sent_at: Int | null;
  last_error: string | null;
  failed: Flag;
}

export const toMail = (r: MailRow): MailRecord => ({
  id: r.id,
  key: r.key,
  userId: r.user_id,
  to: r.recipient,
  subject: r.subject,
  text: r.body,
  headers: json(r.headers),
  createdAt: Number(r.created_at),
  attempts: r.attempts,
  nextAttemptAt: Number(r.next_attempt_at),
  sentAt: intOrNull(r.sent_at),
  lastError: r.last_error,
  failed: flag(r.failed),
});

/**
 * A mail's values, in the insert's column order (id, key, user_id, recipient, subject, body, headers,
 * created_at, attempts, next_attempt_at, sent_at, last_error, failed).
 */
export const mailValues = (m: MailRecord, out: FlagOut): unknown[] => [
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
  out(m.failed),
];

/** The creation times of the confirmation mails a quota query read (newest first, as quotaAllowsAt takes them). */
export const createdTimes = (rows: readonly { readonly created_at: Int }[]): number[] =>
  rows.map((r) => Number(r.created_at));

/** One user's read marks, by game then place (Store.accounts.userReadMarks). */
export function marksByGame(
  rows: readonly { readonly game_id: string; readonly place: string; readonly up_to: number }[],
): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const r of rows) (out[r.game_id] ??= {})[r.place] = r.up_to;
  return out;
}
