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
