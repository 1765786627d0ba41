import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LEADER_LEASE_MS, PgCluster } from "../src/log/cluster.ts";
import { PG_URL, pgAvailable } from "./pg.ts";

/**
 * Issue 28, item 8: when LISTEN fails, the connection PgCluster opened for it is ended, not left open (each
 * retry, every 2 s, would leave one more). LISTEN is made to fail by a namespace that is not a valid
 * channel name (a double quote ends the quoted identifier: a syntax error); the connections are counted in
 * pg_stat_activity by their application_name.
 */

const open = async (sql: string, values: unknown[]): Promise<number> => {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    const r = await c.query<{ n: string }>(sql, values);
    return Number(r.rows[0]!.n);
  } finally {
    await c.end();
  }
};

describe.skipIf(!pgAvailable)("PgCluster's listening connection (issue 28)", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it("is ended when LISTEN fails", async () => {
    const name = `fm_listen_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await expect(
      PgCluster.connect({ connectionString: PG_URL, application_name: name }, 'bad"namespace'),
    ).rejects.toThrow();
    // The server sees the connection end a moment after the client ends it: waited for, with a guard.
    let count = -1;
    for (let i = 0; i < 50; i++) {
      count = await open("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE application_name = $1", [name]);
      if (count === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    cleanups.push(async () => {
      await open(
        "SELECT COUNT(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE application_name = $1",
        [name],
      );
    });
    expect(count).toBe(0);
  });

  it("a lead not confirmed for LEADER_LEASE_MS is given up when it is next read (a process that was frozen)", async () => {
    const name = `fm_lease_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const cluster = await PgCluster.connect({ connectionString: PG_URL, application_name: name }, name);
    cleanups.push(() => cluster.close());
    const heard: boolean[] = [];
    cluster.onLeader((leader) => heard.push(leader));
    expect(cluster.leader).toBe(true);
    // The process "wakes" past its lease, before any round of its own has confirmed the lock again: as
    // after a SIGSTOP, its deadline timers may run first. Reading `leader` (the scheduler does, before a
    // deadline fires) gives the lead up at once.
    const now = performance.now();
    const spy = vi.spyOn(performance, "now").mockReturnValue(now + LEADER_LEASE_MS + 1);
    try {
      expect(cluster.leader).toBe(false);
    } finally {
      spy.mockRestore();
    }
    expect(heard).toEqual([true, false]);
  });
});
