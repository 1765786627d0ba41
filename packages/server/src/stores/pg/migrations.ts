import { nickSkeleton } from "@forum-mafia/forum";
import pg from "pg";
import { namespaceOf } from "../../log/cluster.ts";
import { PG_LOCKS } from "../pg-locks.ts";

/** One schema version: SQL, or a step that needs the server's code (a value computed in TypeScript). */
export type MigrationStep = string | ((c: pg.ClientBase) => Promise<void>);

/**
 * Issue 29: a named list of schema versions, applied by `migrate`, the one runner: the store's schema and
 * the rate limits' tables (SharedLimits.open) both go through it. Versions are only ever appended.
 */
export interface Migrations {
  /** What the versions are of (the store's schema, the rate limits' tables). */
  readonly name: string;
  /** The one-row table (`version INTEGER`) that records how many of the versions the schema has. */
  readonly table: string;
  /** The advisory lock (PG_LOCKS) they are applied under, taken on the namespace. */
  readonly lock: number;
  readonly versions: readonly MigrationStep[];
}

/**
 * Schema versions, applied in order on start, in one transaction, recorded in fm_schema: SQL, or a step
 * that needs the server's code (a value computed in TypeScript).
 */
export const PG_MIGRATIONS: readonly MigrationStep[] = [
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
  // v6 (issue 20): each game's entry count (`seq`, what an append checks, kept by the append itself), its
  // change number (`changed`, what changedSince reads) and the meta text Games keeps with it. Change
  // numbers come from the one-row counter fm_changes, taken as each append's last step, so they are given
  // in commit order (see PgStore.commit). Existing games get theirs in creation order. The log's foreign
  // key goes: an append writes entries only for the games whose row it holds locked, and its check, on a
  // row the same transaction has just locked and updated, cost 140 µs an entry (15 of a 100-append
  // batch's 16 ms).
  `ALTER TABLE game_entries DROP CONSTRAINT game_entries_game_id_fkey;
   ALTER TABLE games ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE games ADD COLUMN changed BIGINT NOT NULL DEFAULT 0;
   ALTER TABLE games ADD COLUMN meta TEXT;
   UPDATE games g SET seq = t.n
     FROM (SELECT game_id, MAX(seq) + 1 AS n FROM game_entries GROUP BY game_id) t WHERE g.id = t.game_id;
   UPDATE games g SET changed = t.n
     FROM (SELECT id, row_number() OVER (ORDER BY position) AS n FROM games) t WHERE g.id = t.id;
   CREATE TABLE fm_changes (n BIGINT NOT NULL);
   INSERT INTO fm_changes (n) SELECT COUNT(*) FROM games;
   CREATE INDEX games_changed ON games (changed);`,
  // v7 (issue 20): the log's bodies as written (json keeps the text; jsonb reorders an object's keys). An
  // instance that reads a game from the log must build exactly the room the writing instance holds, down
  // to the key order of what it serves (a setting's `{ amount, unit }`), so its answers are the same bytes.
  // The rows written before keep jsonb's order.
  `ALTER TABLE game_entries ALTER COLUMN body TYPE json USING body::json;`,
  // v8 (issue 28): every user's nick skeleton worked out again, since nickSkeleton now reads letters drawn
  // with several characters too ("ш" as "LLI", "ю" as "IO"); and the outbox by address, for the limits on
  // confirmation mails (settings.ts: CONFIRM_QUOTA).
  async (c) => {
    const users = await c.query<{ id: string; nick: string }>(`SELECT id, nick FROM users`);
    await c.query(
      `UPDATE users SET nick_skeleton = t.skeleton
       FROM unnest($1::text[], $2::text[]) AS t(id, skeleton) WHERE users.id = t.id`,
      [users.rows.map((u) => u.id), users.rows.map((u) => nickSkeleton(u.nick))],
    );
    await c.query(`CREATE INDEX mail_outbox_recipient ON mail_outbox (lower(recipient), created_at)`);
  },
];

/** The store's schema: recorded in fm_schema, applied under PG_LOCKS.migration. */
export const SCHEMA_MIGRATIONS: Migrations = {
  name: "schema",
  table: "fm_schema",
  lock: PG_LOCKS.migration,
  versions: PG_MIGRATIONS,
};

/**
 * The namespace (cluster.ts: namespaceOf) of the database and schema a connection works in: what names its
 * advisory locks and notification channels. Fails when no schema of the search_path exists.
 */
export async function namespaceOfConnection(c: pg.ClientBase | pg.Pool): Promise<string> {
  const r = await c.query<{ db: string; schema: string | null }>(
    "SELECT current_database() AS db, current_schema() AS schema",
  );
  const { db, schema } = r.rows[0]!;
  if (schema === null) throw new Error("PostgreSQL: no schema of the search_path exists");
  return namespaceOf(db, schema);
}

/**
 * Apply the versions of `list` the schema does not have yet, in one transaction on `c`, under the list's
 * advisory lock on `namespace` (instances that start together take turns; test schemas in one database
 * migrate side by side), recording each in the list's table. Rolled back whole if a version fails.
 */
export async function migrate(c: pg.ClientBase, list: Migrations, namespace: string): Promise<void> {
  await c.query("BEGIN");
  try {
    await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [list.lock, namespace]);
    await c.query(`CREATE TABLE IF NOT EXISTS ${list.table} (version INTEGER NOT NULL)`);
    const r = await c.query<{ version: number }>(`SELECT version FROM ${list.table}`);
    let version = r.rows[0]?.version ?? 0;
    if (r.rows.length === 0) await c.query(`INSERT INTO ${list.table} (version) VALUES (0)`);
    for (; version < list.versions.length; version++) {
      const step = list.versions[version]!;
      if (typeof step === "string") await c.query(step);
      else await step(c);
      await c.query(`UPDATE ${list.table} SET version = $1`, [version + 1]);
    }
    await c.query("COMMIT");
  } catch (error) {
    await c.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** The schema's migrations, on a connection of their own with no time limit (issue 28: see PgStore.connect). */
export async function migrateSchema(config: pg.ClientConfig, namespace: string): Promise<void> {
  const c = new pg.Client(config);
  const ignore = (): void => {};
  c.on("error", ignore);
  await c.connect();
  try {
    await migrate(c, SCHEMA_MIGRATIONS, namespace);
  } finally {
    c.off("error", ignore);
    await c.end().catch(() => {});
  }
}
