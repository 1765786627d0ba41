import type { Setup } from "@forum-mafia/protocol";
import type { Entry } from "../log/entries.ts";

export interface UserRecord {
  readonly id: string;
  readonly nick: string;
  readonly nickKey: string;
  /** nickSkeleton(nick): look-alike nicks share it (issue 11); not unique in old databases. */
  readonly nickSkeleton: string;
  readonly passwordHash: string;
  readonly timeZone: string;
  readonly lang: "ru" | "en";
  readonly createdAt: number;
}

/** Issue 15: a user's reminder and e-mail settings (MySettings on the wire). */
export interface SettingsRecord {
  readonly userId: string;
  readonly email: string | null;
  readonly emailConfirmed: boolean;
  /** Off after an unsubscribe link (RFC 8058); the user may turn it on again. */
  readonly emailReminders: boolean;
  /** Reminder offsets as written ("2h", "15m"), the default ["2h", "15m"]. */
  readonly before: readonly string[];
  readonly quietHours: { readonly from: string; readonly to: string } | null;
  readonly browserNotifications: boolean;
  /** SHA-256 (hex) of the pending confirmation link's token, and when it expires; null when none. */
  readonly confirmTokenHash: string | null;
  readonly confirmExpiresAt: number | null;
  /** The token of the user's unsubscribe links: random, made once, carried by every e-mail. */
  readonly unsubscribeToken: string;
}

/**
 * One e-mail in the outbox. `key` is unique: a reminder's is its game, phase, owed move and user, so a
 * reminder is queued once however often it is worked out, and a restart finds it queued or sent.
 */
export interface MailRecord {
  readonly id: string;
  readonly key: string;
  readonly userId: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  readonly headers: Readonly<Record<string, string>>;
  readonly createdAt: number;
  readonly attempts: number;
  /** When it may next be tried (backoff after a failure). */
  readonly nextAttemptAt: number;
  readonly sentAt: number | null;
  /** The last failure's message, or null. */
  readonly lastError: string | null;
  /** Given up after too many failures. */
  readonly failed: boolean;
}

/**
 * Issue 28: how many confirmation mails may be queued: at most `perAddress` to one address (whoever asks)
 * within `addressWindowMs`, and at most `perUser` for one user (whatever the addresses) within `userWindowMs`.
 */
export interface ConfirmQuota {
  readonly perAddress: number;
  readonly addressWindowMs: number;
  readonly perUser: number;
  readonly userWindowMs: number;
}

/**
 * Issue 28: when the quota allows the next confirmation mail, given the times (newest first) of those queued
 * to the address within its window and for the user within theirs: `now` when it allows one now.
 */
export function quotaAllowsAt(
  quota: ConfirmQuota,
  toAddress: readonly number[],
  forUser: readonly number[],
  now: number,
): number {
  const address =
    toAddress.length >= quota.perAddress ? toAddress[quota.perAddress - 1]! + quota.addressWindowMs : now;
  const user = forUser.length >= quota.perUser ? forUser[quota.perUser - 1]! + quota.userWindowMs : now;
  return Math.max(now, address, user);
}

/**
 * Issue 17: a setup a user saved under a name, to reuse in new games. A user's names are unique ignoring
 * case (`setupNameKey`): saving under a name the user has already used replaces that setup, keeping its id.
 */
export interface SetupRecord {
  readonly id: string;
  /** As the user wrote it last (trimmed, at most 80 characters: the edge checks it). */
  readonly name: string;
  readonly setup: Setup;
  /** When it was last saved. */
  readonly at: number;
}

/** The most setups one user may keep (issue 17); saving a new name beyond it is refused. */
export const MAX_SAVED_SETUPS = 50;

/** A saved setup's name as compared: case ignored (Unicode's, so Cyrillic too), NFC. */
export const setupNameKey = (name: string): string => name.normalize("NFC").toLowerCase();

/**
 * Issue 18: an off-site game's notebook, one row: its owner, title, the document (notebook.ts: the setup,
 * the deal, every phase's inputs and decisions, the corrections) and a version that every write checks.
 */
export interface NotebookRecord {
  readonly id: string;
  readonly ownerId: string;
  readonly title: string;
  /** The notebook's document as JSON text (notebook.ts reads and checks it). */
  readonly doc: string;
  /** 1 when created; each write stores version + 1 only if the row still has the version read. */
  readonly version: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly published: boolean;
}

/** What a notebook's write changes (LibraryStore.updateNotebook). */
export type NotebookChange = Pick<NotebookRecord, "title" | "doc" | "updatedAt" | "published">;

export interface SessionRecord {
  readonly userId: string;
  readonly expiresAt: number;
}

/**
 * Issue 29: users, their sessions, settings and read marks (Store.accounts). The interfaces are named
 * …Store, not after the facet, so they do not clash with the Accounts class of accounts/auth.ts.
 */
export interface AccountStore {
  /**
   * "taken" when another user has the nick key or the nick skeleton already. The check and the insert are
   * one atomic step: of two look-alike nicks registered at the same time, at most one is created.
   */
  createUser(user: UserRecord): Promise<"created" | "taken">;
  userById(id: string): Promise<UserRecord | null>;
  userByNickKey(nickKey: string): Promise<UserRecord | null>;
  updateUser(id: string, change: { readonly timeZone?: string; readonly lang?: "ru" | "en" }): Promise<void>;

  createSession(tokenHash: string, session: SessionRecord): Promise<void>;
  session(tokenHash: string): Promise<SessionRecord | null>;
  deleteSession(tokenHash: string): Promise<void>;

  /** Issue 15: the user's settings, or null before they were first saved (the defaults apply). */
  settings(userId: string): Promise<SettingsRecord | null>;
  saveSettings(settings: SettingsRecord): Promise<void>;
  settingsByConfirmToken(tokenHash: string): Promise<SettingsRecord | null>;
  settingsByUnsubscribeToken(token: string): Promise<SettingsRecord | null>;
  /** Every user's settings that have a confirmed address (what the reminders read on start). */
  allSettings(): Promise<SettingsRecord[]>;

  /**
   * Read marks: for each place of one game ("thread", or a channel id), how many of its items the user has
   * read. A mark only moves forward: a lower `upTo` than the stored one changes nothing.
   */
  readMarks(userId: string, gameId: string): Promise<Readonly<Record<string, number>>>;
  /** Every read mark of one user, by game (what «Мои игры» reads). */
  userReadMarks(userId: string): Promise<Readonly<Record<string, Readonly<Record<string, number>>>>>;
  markRead(userId: string, gameId: string, where: string, upTo: number): Promise<void>;
}

/** Issue 29: the mail outbox, and the quota on confirmation mails (Store.outbox). */
export interface OutboxStore {
  /** Queue an e-mail; "duplicate" (and nothing written) when one with the same key was ever queued. */
  enqueueMail(mail: MailRecord): Promise<"queued" | "duplicate">;
  /** Unsent mail that may be tried at `now`, oldest first, at most `limit`. */
  dueMail(now: number, limit: number): Promise<MailRecord[]>;
  /** The next time any unsent mail may be tried, or null when none waits. */
  nextMailAt(): Promise<number | null>;
  mailSent(id: string, at: number): Promise<void>;
  mailFailed(
    id: string,
    change: { attempts: number; nextAttemptAt: number; lastError: string; failed: boolean },
  ): Promise<void>;
  /** Every mail queued for one user, oldest first (tests, and the settings page's "last sent"). */
  mailFor(userId: string): Promise<MailRecord[]>;
  /**
   * Issue 28: queue a confirmation mail (its key starts `confirm:`) only while the quota allows one at
   * `mail.createdAt` (confirmationAllowedAt); the check and the insert are one atomic step, across instances.
   * Otherwise nothing is written and the answer says when one may be queued again.
   */
  enqueueConfirmation(
    mail: MailRecord,
    quota: ConfirmQuota,
  ): Promise<"queued" | "duplicate" | { readonly notBefore: number }>;
  /**
   * Issue 28: when the next confirmation mail to `address` (any user's, case ignored) for `userId` may be
   * queued, by the quota and the confirmation mails queued so far: `now` when it may be now.
   */
  confirmationAllowedAt(userId: string, address: string, quota: ConfirmQuota, now: number): Promise<number>;
}

/** Issue 29: what users keep to reuse: their saved setups and their off-site games' notebooks (Store.library). */
export interface LibraryStore {
  /** Issue 17: the user's saved setups, the last saved first. */
  listSetups(userId: string): Promise<SetupRecord[]>;
  /**
   * Save a setup: one with the same name (setupNameKey) is replaced, keeping its id, and becomes the last
   * saved; a new name is added unless the user already has `max` setups ("full", and nothing written). The
   * check and the write are one atomic step. Answers the setup as stored.
   */
  saveSetup(userId: string, setup: SetupRecord, max: number): Promise<SetupRecord | "full">;
  /** Delete one of the user's setups; false (nothing written) when the user has none with that id. */
  deleteSetup(userId: string, id: string): Promise<boolean>;

  /**
   * Issue 18: store a new notebook unless its owner already has `max` ("full", nothing written); the count
   * and the insert are one atomic step.
   */
  createNotebook(notebook: NotebookRecord, max: number): Promise<"created" | "full">;
  notebook(id: string): Promise<NotebookRecord | null>;
  /** The owner's notebooks, the last changed first. */
  listNotebooks(ownerId: string): Promise<NotebookRecord[]>;
  /**
   * Write a notebook's new title, document, time and published flag as `version + 1`, only if the stored
   * row still has `version` and belongs to `ownerId`; false (nothing written) otherwise: a lost race.
   */
  updateNotebook(ownerId: string, id: string, version: number, change: NotebookChange): Promise<boolean>;
  /** Delete one of the owner's notebooks; false (nothing written) when the owner has none with that id. */
  deleteNotebook(ownerId: string, id: string): Promise<boolean>;
}

/**
 * Everything the server keeps on disk, behind one interface, so a PostgreSQL adapter can take the place of
 * the embedded SQLite one without touching the domain code. A game is its append-only log of entries
 * (STYLE.md: read, decide, append with the expected sequence number); the in-memory room is rebuilt from it.
 * Issue 29: the log's members are the Store's own; the rest is in facets by concern (accounts, outbox,
 * library), each one class per backend on the Store's connection.
 */
export interface Store {
  /** Issue 29: users, sessions, settings and read marks. */
  readonly accounts: AccountStore;
  /** Issue 29: the mail outbox. */
  readonly outbox: OutboxStore;
  /** Issue 29: saved setups and notebooks. */
  readonly library: LibraryStore;

  /**
   * Issue 20: true when other processes may append to the same logs at the same time (PostgreSQL, which any
   * number of instances may share); false when this process is the only writer (embedded SQLite). When
   * true, Games reads the log before it trusts its memory, and a SeqConflict means another instance wrote.
   */
  readonly shared: boolean;
  /**
   * Issue 28: the time limit of each call, when the store has one (PostgreSQL: STORE_TIMEOUT_MS). A command
   * waits at most this long for its game's turn too, so a queue of commands behind a stuck store is
   * answered 503 within it instead of one limit after another.
   */
  readonly timeoutMs?: number;

  /**
   * Issue 20: every game in creation order, with its number of entries and the meta text Games last kept for
   * it (saveGameMeta), or null. What an instance reads on start instead of every log.
   */
  gameIndex(): Promise<GameIndexRow[]>;
  /**
   * Issue 20: keep a short text with a game (Games keeps a finished game's summary there, so it is listed
   * without reading its log). Replaces the previous one.
   */
  saveGameMeta(gameId: string, meta: string): Promise<void>;
  /** Issue 20: a game's entries from index `from` on (the first `from` are already known); [] when none. */
  entriesFrom(gameId: string, from: number): Promise<Entry[]>;
  /**
   * Issue 20: the games whose log grew after `cursor` (0 on the first call), with their number of entries
   * now, in creation order, and the cursor to pass next time. One cheap query however many games there are
   * (a change counter kept with each game), so a list of games can be made fresh on every read.
   */
  changedSince(cursor: number): Promise<{ readonly cursor: number; readonly games: readonly GameIndexRow[] }>;
  /**
   * Append entries to a game's log. `seq` is the number of entries the caller has already seen; the
   * append fails if the log has moved on. Resolves once the entries are durable.
   */
  append(gameId: string, seq: number, entries: readonly Entry[]): Promise<void>;
  entries(gameId: string): Promise<Entry[]>;

  close(): Promise<void>;
}

export interface GameIndexRow {
  readonly id: string;
  /** The number of entries in its log. */
  readonly seq: number;
  readonly meta: string | null;
}

export class SeqConflict extends Error {
  constructor(gameId: string, seq: number) {
    super(`game ${gameId}: the log has moved past ${seq}`);
  }
}

/**
 * Issue 28: the store did not answer within its time limit, or lost its connection: the request is
 * answered 503 with Retry-After, never 500, never after a hang. `unknown` is true when a write was sent
 * and no answer came back: it may have been stored all the same (a statement that commits just as the
 * time runs out, a database restarted between its commit and its reply), so nobody may be told it was not.
 * False when nothing was written (the statement never left, or the database refused it).
 */
export class StoreUnavailable extends Error {
  constructor(
    message: string,
    readonly unknown: boolean,
  ) {
    super(message);
  }
}
