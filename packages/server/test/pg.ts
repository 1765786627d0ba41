import pg from "pg";
import { PgStore } from "../src/stores/pg-store.ts";

/** The PostgreSQL the tests use (CI's service); override with PG_URL. */
export const PG_URL = process.env.PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function reachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export const pgAvailable = await reachable();
if (!pgAvailable) {
  // CI's machine runs PostgreSQL: there a missing server is a failure, never a quiet skip.
  if (process.env.CI)
    throw new Error(`PostgreSQL is not reachable at ${PG_URL} (CI=true: the PostgreSQL tests must run)`);
  console.warn(`PostgreSQL is not reachable at ${PG_URL}: the PostgreSQL store tests are skipped`);
}

/** A fresh schema for one test; `drop` removes it. */
export async function pgSchema(): Promise<{
  open: () => Promise<PgStore>;
  drop: () => Promise<void>;
  /** The application_name of the store's connections (to find them in pg_stat_activity). */
  name: string;
}> {
  const schema = `fm_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return {
    name: schema,
    open: () =>
      PgStore.connect({
        connectionString: PG_URL,
        options: `-c search_path=${schema}`,
        application_name: schema,
      }),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
