// Issue 29: the PostgreSQL advisory locks, named once (pg-locks.ts), all in the two-key form with the
// lock's number first. The numbers are written here by hand from what earlier versions took: instances of
// two versions share a database during a rolling restart, and a lock one of them holds while it runs (the
// leader's, a registration's, a user's setups, notebooks or confirmation mails) must keep its number.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { namespaceOf } from "../src/log/cluster.ts";
import { PG_LOCKS } from "../src/stores/pg-locks.ts";
import { SharedLimits } from "../src/accounts/shared-limits.ts";
import { PG_URL, pgAvailable, pgSchema } from "./pg.ts";

describe("the advisory locks (pg-locks.ts)", () => {
  it("keep the numbers earlier versions took, one number for each lock", () => {
    expect(PG_LOCKS).toEqual({
      nick: 11,
      setups: 17,
      notebooks: 18,
      confirmUser: 28,
      confirmAddress: 29,
      migration: 7315,
      leader: 7320,
      limitsTables: 7321,
    });
  });
});

/** Resolves once a connection named `app` waits for an advisory lock whose first key is `key`. */
async function waiting(sql: pg.Client, app: string, key: number): Promise<void> {
  const guard = Date.now() + 20_000; // only turns a hang into an error
  for (;;) {
    const r = await sql.query(
      `SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND NOT l.granted AND l.classid = $1 AND l.objsubid = 2
         AND a.application_name = $2`,
      [key, app],
    );
    if (r.rowCount) return;
    if (Date.now() > guard) throw new Error(`${app} never waited for lock ${key}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function track<T>(p: Promise<T>): { done: () => boolean; value: Promise<T> } {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  return { done: () => done, value: p };
}

describe.skipIf(!pgAvailable)("locks taken on start, on the namespace (the database and schema)", () => {
  it("a schema's migration waits while its namespace's migration lock is held; another schema's does not", async () => {
    const a = await pgSchema();
    const b = await pgSchema();
    const holder = new pg.Client({ connectionString: PG_URL });
    await holder.connect();
    try {
      const db = (await holder.query<{ db: string }>("SELECT current_database() AS db")).rows[0]!.db;
      const lock = [PG_LOCKS.migration, namespaceOf(db, a.name)];
      await holder.query("SELECT pg_advisory_lock($1, hashtext($2))", lock);
      const opening = track(a.open());
      await waiting(holder, a.name, PG_LOCKS.migration);
      // Another schema in the same database migrates meanwhile.
      await (await b.open()).close();
      expect(opening.done()).toBe(false);
      await holder.query("SELECT pg_advisory_unlock($1, hashtext($2))", lock);
      await (await opening.value).close();
    } finally {
      await holder.end();
      await a.drop();
      await b.drop();
    }
  });

  it("the rate limits' tables are created under their namespace's lock", async () => {
    const a = await pgSchema();
    const b = await pgSchema();
    const holder = new pg.Client({ connectionString: PG_URL });
    await holder.connect();
    const config = (name: string): pg.ClientConfig => ({
      connectionString: PG_URL,
      options: `-c search_path=${name}`,
      application_name: name,
    });
    const now = (): number => Date.UTC(2026, 11, 7, 9, 0, 0);
    try {
      const db = (await holder.query<{ db: string }>("SELECT current_database() AS db")).rows[0]!.db;
      const lock = [PG_LOCKS.limitsTables, namespaceOf(db, a.name)];
      await holder.query("SELECT pg_advisory_lock($1, hashtext($2))", lock);
      const opening = track(SharedLimits.open(config(a.name), now));
      await waiting(holder, a.name, PG_LOCKS.limitsTables);
      await (await SharedLimits.open(config(b.name), now)).close();
      expect(opening.done()).toBe(false);
      await holder.query("SELECT pg_advisory_unlock($1, hashtext($2))", lock);
      await (await opening.value).close();
    } finally {
      await holder.end();
      await a.drop();
      await b.drop();
    }
  });
});

describe.skipIf(!pgAvailable)("one migration runner (issue 29)", () => {
  it("the rate limits' tables are versions of their own, recorded in fm_limits_schema beside the store's fm_schema; a database that has the tables from before the record keeps them", async () => {
    const s = await pgSchema();
    const sql = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${s.name}` });
    await sql.connect();
    const config: pg.ClientConfig = { connectionString: PG_URL, options: `-c search_path=${s.name}` };
    const now = (): number => Date.UTC(2026, 11, 7, 9, 0, 0);
    try {
      const store = await s.open();
      // The tables as SharedLimits made them before the runner: there, with a count in them, and no record.
      await sql.query(`CREATE UNLOGGED TABLE fm_rate (
        key TEXT NOT NULL, window_start BIGINT NOT NULL, expires_at BIGINT NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (key, window_start))`);
      await sql.query(`INSERT INTO fm_rate VALUES ('k', 0, $1, 3)`, [now() + 60_000]);
      const limits = await SharedLimits.open(store, now);
      await limits.close();
      // Opened again (the namespace read from the database this time): nothing is applied twice.
      await (await SharedLimits.open(config, now)).close();
      await store.close();
      const version = async (table: string): Promise<number | undefined> =>
        (await sql.query<{ version: number }>(`SELECT version FROM ${table}`)).rows[0]?.version;
      expect(await version("fm_limits_schema")).toBe(1);
      expect(await version("fm_schema")).toBeGreaterThan(1);
      expect((await sql.query(`SELECT n FROM fm_rate WHERE key = 'k'`)).rows).toEqual([{ n: 3 }]);
      expect((await sql.query(`SELECT COUNT(*)::int AS n FROM fm_login_failures`)).rows).toEqual([{ n: 0 }]);
    } finally {
      await sql.end();
      await s.drop();
    }
  });
});
