import type { Entry } from "./entries.ts";

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

export interface SessionRecord {
  readonly userId: string;
  readonly expiresAt: number;
}

/**
 * Everything the server keeps on disk, behind one interface, so a PostgreSQL adapter can take the place of
 * the embedded SQLite one without touching the domain code. A game is its append-only log of entries
 * (STYLE.md: read, decide, append with the expected sequence number); the in-memory room is rebuilt from it.
 */
export interface Store {
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

  /** Game ids in creation order. */
  gameIds(): Promise<string[]>;
  /**
   * Append entries to a game's log. `seq` is the number of entries the caller has already seen; the
   * append fails if the log has moved on. Resolves once the entries are durable.
   */
  append(gameId: string, seq: number, entries: readonly Entry[]): Promise<void>;
  entries(gameId: string): Promise<Entry[]>;
  /** Every game's entries, games in creation order: what a server reads on start. */
  loadAll(): Promise<{ id: string; entries: Entry[] }[]>;

  close(): Promise<void>;
}

export class SeqConflict extends Error {
  constructor(gameId: string, seq: number) {
    super(`game ${gameId}: the log has moved past ${seq}`);
  }
}
