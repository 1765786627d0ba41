import type Database from "better-sqlite3";
import type { FlagOut } from "../rows.ts";

/**
 * Issue 29: what SqliteStore lends its facets (accounts, outbox, library): the connection, its prepared
 * statements, and the wait for the next group commit's fsync, which every write is answered after.
 */
export interface SqliteDb {
  readonly db: Database.Database;
  /** A prepared statement, prepared once per SQL text. */
  sql(text: string): Database.Statement;
  /** Resolves once everything written so far is on disk. */
  durable(): Promise<void>;
}

/** SQLite has no boolean: a flag is written as 0 or 1. */
export const bit: FlagOut = (b) => (b ? 1 : 0);
