import type pg from "pg";
import type { FlagOut } from "../rows.ts";
import { StoreUnavailable } from "../store.ts";
import { asUnavailable, isStoreFault } from "./faults.ts";

/** PostgreSQL has booleans: a flag is written as it is. */
export const bool: FlagOut = (b) => b;

/**
 * Issue 29: PgStore's pool and its time limit, with the three ways a call runs within it (a read, a write,
 * a transaction); the log and the facets (accounts, outbox, library) all call through one.
 */
export class PgDb {
  constructor(
    readonly pool: pg.Pool,
    /** Issue 28: the time limit of every call. */
    readonly timeoutMs: number,
  ) {}

  /**
   * Issue 28: `work`, or StoreUnavailable once the time limit has passed (`unknown` when `sent`: a write
   * whose outcome nobody can tell yet). The work is left to end on its own: pg's own limits end its
   * connection, which the pool then drops.
   */
  within<T>(work: Promise<T>, sent: boolean | (() => boolean)): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const unknown = typeof sent === "boolean" ? sent : sent();
        reject(new StoreUnavailable(`PostgreSQL: no answer within ${this.timeoutMs} ms`, unknown));
      }, this.timeoutMs);
      work.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(asUnavailable(error, typeof sent === "boolean" ? sent : sent()));
        },
      );
    });
  }

  /** One statement that only reads, within the time limit. */
  read<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.within(this.pool.query<R>(text, values), false);
  }

  /** One statement that writes (its own transaction), within the time limit: its outcome may be unknown. */
  write<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.within(this.pool.query<R>(text, values), true);
  }

  /**
   * `work` in one transaction on a connection of its own: committed if it returns, rolled back if it throws,
   * all within the time limit (issue 28; past it the connection is closed, so PostgreSQL rolls back
   * whatever had not committed: only a COMMIT under way is of unknown outcome).
   */
  transaction<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    let committing = false;
    const run = async (): Promise<T> => {
      const c = await this.pool.connect();
      let broken: Error | undefined;
      // A connection that dies while checked out also emits "error" (the pool listens only to idle ones);
      // the query under way rejects with it, which is what the caller hears.
      const ignore = (): void => {};
      c.on("error", ignore);
      try {
        await c.query("BEGIN");
        const out = await work(c);
        committing = true;
        await c.query("COMMIT").catch((error: unknown) => {
          throw asUnavailable(error, true);
        });
        return out;
      } catch (error) {
        // The caller hears the first error; a connection that failed, or cannot even roll back, is not
        // reused (closing it rolls back).
        if (isStoreFault(error)) broken = error as Error;
        else
          await c.query("ROLLBACK").catch((e: unknown) => {
            broken = e instanceof Error ? e : new Error(String(e));
          });
        throw error;
      } finally {
        c.off("error", ignore);
        c.release(broken);
      }
    };
    return this.within(run(), () => committing);
  }
}
