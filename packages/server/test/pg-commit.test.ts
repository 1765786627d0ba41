import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { channelName } from "../src/log/cluster.ts";
import type { Entry } from "../src/log/entries.ts";
import { PG_MIGRATIONS, type PgStore } from "../src/stores/pg-store.ts";
import { SeqConflict } from "../src/stores/store.ts";
import { PG_URL, pgAvailable, pgSchema } from "./pg.ts";

/**
 * Issue 20: PgStore's group commit, with two stores on one schema as two servers would have them. What is
 * checked is read from the database itself (the rows, their xmin, pg_locks, LISTEN), not from the store.
 */

/** An entry that names who wrote it, so the log can be checked against what was acknowledged. */
const mark = (tag: string): Entry => ({ at: 0, kind: "signup", userId: tag, nick: tag });
const tagOf = (e: Entry): string => (e.kind === "signup" ? e.userId : "?");

/** What an append came to: undefined when it was written, else its error. */
const outcome = (p: Promise<void>): Promise<Error | undefined> =>
  p.then(
    () => undefined,
    (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
  );

async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(!pgAvailable)("PostgreSQL group commit (issue 20)", () => {
  let schema: Awaited<ReturnType<typeof pgSchema>>;
  let a: PgStore;
  let b: PgStore;
  /** A plain connection to the same schema: the test's own eyes and hands. */
  let admin: pg.Client;

  beforeEach(async () => {
    schema = await pgSchema();
    a = await schema.open();
    b = await schema.open();
    admin = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema.name}` });
    await admin.connect();
  });

  afterEach(async () => {
    await Promise.allSettled([a.close(), b.close(), admin.end()]);
    await schema.drop();
  });

  /** The log of a game as stored: [seq, tag] in seq order. */
  const logOf = async (id: string): Promise<[number, string][]> => {
    const r = await admin.query<{ seq: number; body: Entry }>(
      `SELECT seq, body FROM game_entries WHERE game_id = $1 ORDER BY seq`,
      [id],
    );
    return r.rows.map((row) => [row.seq, tagOf(row.body)]);
  };

  it("lets exactly one of two stores' racing appends at the same position through; the other gets SeqConflict", async () => {
    const games = Array.from({ length: 20 }, (_, i) => `race${i}`);
    // Three rounds; in each, both stores append to every game at the same position, each store's twenty
    // appends in one batch (so the two batches also lock many rows at once, in any order of arrival).
    for (let pos = 0; pos < 3; pos++) {
      const [fromA, fromB] = await Promise.all([
        Promise.all(games.map((id) => outcome(a.append(id, pos, [mark(`a${pos}`)])))),
        Promise.all(games.map((id) => outcome(b.append(id, pos, [mark(`b${pos}`)])))),
      ]);
      for (const [i, id] of games.entries()) {
        const pair = [fromA[i], fromB[i]];
        expect(pair.filter((r) => r === undefined)).toHaveLength(1);
        expect(pair.find((r) => r !== undefined)).toBeInstanceOf(SeqConflict);
        const log = await logOf(id);
        expect(log.map(([n]) => n)).toEqual(log.map((_, n) => n));
        expect(log).toHaveLength(pos + 1);
        expect(log[pos]![1]).toBe(fromA[i] === undefined ? `a${pos}` : `b${pos}`);
      }
    }
  });

  it("commits the other games of a batch when one conflicts", async () => {
    await a.append("g1", 0, [mark("x"), mark("y")]);
    // One turn: one batch. g1 is stale (its log is at 2), g2 and g3 are new.
    const [r1, r2, r3] = await Promise.all([
      outcome(a.append("g1", 1, [mark("stale")])),
      outcome(a.append("g2", 0, [mark("g2")])),
      outcome(a.append("g3", 0, [mark("g3a"), mark("g3b")])),
    ]);
    expect(r1).toBeInstanceOf(SeqConflict);
    expect(r2).toBeUndefined();
    expect(r3).toBeUndefined();
    expect(await logOf("g1")).toEqual([
      [0, "x"],
      [1, "y"],
    ]);
    expect(await logOf("g2")).toEqual([[0, "g2"]]);
    expect(await logOf("g3")).toEqual([
      [0, "g3a"],
      [1, "g3b"],
    ]);
    const rows = await admin.query<{ id: string; seq: number }>(
      `SELECT id, seq FROM games ORDER BY position`,
    );
    expect(rows.rows).toEqual([
      { id: "g1", seq: 2 },
      { id: "g2", seq: 1 },
      { id: "g3", seq: 2 },
    ]);
  });

  /** Hold game `id`'s row lock from the admin connection until `release`; resolves once `store` waits on it. */
  const holdRow = async (id: string): Promise<{ release: () => Promise<void> }> => {
    await admin.query("BEGIN");
    await admin.query(`SELECT 1 FROM games WHERE id = $1 FOR UPDATE`, [id]);
    return {
      release: async () => {
        await admin.query("COMMIT");
      },
    };
  };
  const waitingOnLock = async (): Promise<number | null> => {
    const watcher = new pg.Client({ connectionString: PG_URL });
    await watcher.connect();
    try {
      const r = await watcher.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
        [schema.name],
      );
      return r.rows[0]?.pid ?? null;
    } finally {
      await watcher.end();
    }
  };

  it("refuses an append of a game that conflicted, made while the conflicting batch ran, even if its seq matches the log", async () => {
    await Promise.all([a.append("g", 0, [mark("0"), mark("1")]), a.append("h", 0, [mark("h")])]);
    // The batch waits on h's row (held here), so what comes meanwhile waits for the next one.
    const lock = await holdRow("h");
    // Made against a room that thought g's log was at 1.
    const [stale] = [outcome(a.append("g", 1, [mark("stale")])), a.append("h", 1, [mark("h1")])];
    await until("the batch to wait on the row lock", async () => (await waitingOnLock()) !== null);
    // Pipelined after the stale one by the same caller, before it could hear of the conflict: its seq
    // (2) happens to be the log's length, but it was checked against the same stale state.
    const next = outcome(a.append("g", 2, [mark("after")]));
    await lock.release();
    expect(await stale).toBeInstanceOf(SeqConflict);
    expect(await next).toBeInstanceOf(SeqConflict);
    expect(await logOf("g")).toEqual([
      [0, "0"],
      [1, "1"],
    ]);
    // Once the caller has heard, an append at the log's length goes through.
    await a.append("g", 2, [mark("fresh")]);
    expect((await logOf("g")).map(([, t]) => t)).toEqual(["0", "1", "fresh"]);
  });

  it("rejects every append of a batch whose transaction fails with that error (not SeqConflict), writes none of it, and carries on", async () => {
    await a.append("g1", 0, [mark("0")]);
    const lock = await holdRow("g1");
    const batch = Promise.all([
      outcome(a.append("g1", 1, [mark("lost1")])),
      outcome(a.append("g2", 0, [mark("lost2")])),
    ]);
    let pid: number | null = null;
    await until("the batch to wait on the row lock", async () => (pid = await waitingOnLock()) !== null);
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    const [r1, r2] = await batch;
    await lock.release();
    for (const r of [r1, r2]) {
      expect(r).toBeInstanceOf(Error);
      expect(r).not.toBeInstanceOf(SeqConflict);
    }
    expect(r1?.message).toBe(r2?.message);
    expect(await logOf("g1")).toEqual([[0, "0"]]);
    expect(await logOf("g2")).toEqual([]);
    await Promise.all([a.append("g1", 1, [mark("1")]), a.append("g2", 0, [mark("g2")])]);
    expect(await logOf("g1")).toEqual([
      [0, "0"],
      [1, "1"],
    ]);
  });

  it("keeps every log gapless and exactly what was acknowledged after 1,000 random concurrent appends from two stores", async () => {
    const games = Array.from({ length: 8 }, (_, i) => `fz${i}`);
    /** What each store believes each game's length is (refreshed from the log after a conflict). */
    const known = [new Map<string, number>(), new Map<string, number>()];
    const acked: { id: string; seq: number; tags: string[] }[] = [];
    let attempts = 0;
    let conflicts = 0;
    let seed = 20;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const worker = async (which: 0 | 1, w: number): Promise<void> => {
      const store = which === 0 ? a : b;
      while (attempts < 1000) {
        const n = attempts++;
        const id = games[random(games.length)]!;
        const seq = known[which]!.get(id) ?? 0;
        const tags = Array.from({ length: 1 + random(3) }, (_, i) => `${which}.${w}.${n}.${i}`);
        known[which]!.set(id, seq + tags.length);
        const r = await outcome(store.append(id, seq, tags.map(mark)));
        if (r === undefined) acked.push({ id, seq, tags });
        else if (r instanceof SeqConflict) {
          conflicts++;
          known[which]!.set(id, (await store.entriesFrom(id, 0)).length);
        } else throw r;
      }
    };
    await Promise.all([0, 1].flatMap((which) => [0, 1, 2, 3].map((w) => worker(which as 0 | 1, w))));
    expect(conflicts).toBeGreaterThan(0); // the two stores really raced
    const expected = new Map<string, string[]>();
    for (const { id, seq, tags } of acked) {
      const log = expected.get(id) ?? [];
      tags.forEach((t, i) => (log[seq + i] = t));
      expected.set(id, log);
    }
    let total = 0;
    for (const id of games) {
      const log = await logOf(id);
      expect(log.map(([n]) => n)).toEqual(log.map((_, i) => i));
      expect(log.map(([, t]) => t)).toEqual(expected.get(id) ?? []);
      const row = await admin.query<{ seq: number }>(`SELECT seq FROM games WHERE id = $1`, [id]);
      expect(row.rows[0]?.seq ?? 0).toBe(log.length);
      total += log.length;
    }
    expect(total).toBe(acked.reduce((n, x) => n + x.tags.length, 0));
  });

  it("never lets a reader following changedSince skip a change, while two stores append at once", async () => {
    const games = Array.from({ length: 30 }, (_, i) => `cs${i}`);
    const known = [new Map<string, number>(), new Map<string, number>()];
    let left = 600;
    const worker = async (which: 0 | 1): Promise<void> => {
      const store = which === 0 ? a : b;
      for (let n = 0; left > 0; n++) {
        left--;
        const id = games[(n * 7 + which * 13 + left) % games.length]!;
        const seq = known[which]!.get(id) ?? 0;
        known[which]!.set(id, seq + 1);
        const r = await outcome(store.append(id, seq, [mark(`${which}.${n}`)]));
        if (r instanceof SeqConflict) known[which]!.set(id, (await store.entriesFrom(id, 0)).length);
        else if (r) throw r;
      }
    };
    // The reader: what it has seen of each game, from the changes only.
    const seen = new Map<string, number>();
    let cursor = 0;
    let done = false;
    const follow = async (): Promise<void> => {
      const next = await b.changedSince(cursor);
      for (const g of next.games) seen.set(g.id, Math.max(seen.get(g.id) ?? 0, g.seq));
      cursor = next.cursor;
    };
    const reader = (async () => {
      while (!done) await follow();
    })();
    await Promise.all([0, 1].flatMap((which) => [0, 1, 2].map(() => worker(which as 0 | 1))));
    done = true;
    await reader;
    await follow();
    const index = await a.gameIndex();
    expect(new Map(index.map((g) => [g.id, g.seq]))).toEqual(seen);
  });

  it("notifies `<id>:<count>` once per game a commit wrote, and nothing for a conflicting append", async () => {
    const listener = new pg.Client({ connectionString: PG_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (n) => heard.push(n.payload ?? ""));
    await listener.query(`LISTEN "${channelName(a.namespace, "game")}"`);
    try {
      await Promise.all([a.append("n1", 0, [mark("a"), mark("b")]), a.append("n2", 0, [mark("c")])]);
      // A conflicting append in the same batch as a good one: only the good one's game is announced.
      const [stale] = await Promise.all([
        outcome(b.append("n1", 1, [mark("stale")])),
        b.append("n2", 1, [mark("g")]),
      ]);
      expect(stale).toBeInstanceOf(SeqConflict);
      // Two appends of n1 in one batch: one commit, one notification with the final count.
      await Promise.all([b.append("n1", 2, [mark("d")]), b.append("n1", 3, [mark("e"), mark("f")])]);
      // Notifications arrive in commit order: once the last is heard, all before it have been.
      await b.append("end", 0, [mark("end")]);
      await until("the last notification", async () => heard.includes("end:1"));
      expect(heard.slice(0, 2).sort()).toEqual(["n1:2", "n2:1"]);
      expect(heard.slice(2)).toEqual(["n2:2", "n1:5", "end:1"]);
      // The channel is this schema's: another namespace hears nothing of it.
      expect(channelName(a.namespace, "game")).toBe(channelName(b.namespace, "game"));
    } finally {
      await listener.end();
    }
  });

  it("groups concurrent appends into few transactions (counted by the rows' xmin)", async () => {
    const games = Array.from({ length: 20 }, (_, i) => `gc${i}`);
    const next = new Map<string, number>();
    // 200 appends that arrive over about 20 ms, each on its own timer, as requests would.
    await Promise.all(
      Array.from(
        { length: 200 },
        (_, i) =>
          new Promise<void>((resolve, reject) =>
            setTimeout(
              () => {
                const id = games[i % games.length]!;
                const seq = next.get(id) ?? 0;
                next.set(id, seq + 1);
                a.append(id, seq, [mark(`${i}`)]).then(resolve, reject);
              },
              (i * 7) % 20,
            ),
          ),
      ),
    );
    const r = await admin.query<{ entries: string; commits: string }>(
      `SELECT COUNT(*) AS entries, COUNT(DISTINCT xmin::text) AS commits FROM game_entries`,
    );
    expect(Number(r.rows[0]!.entries)).toBe(200);
    const commits = Number(r.rows[0]!.commits);
    console.log(`200 appends over ~20 ms: ${commits} transactions`);
    expect(commits).toBeLessThan(200 / 4);
  });

  it("close() waits for every append already accepted, and refuses new ones", async () => {
    const accepted = [
      a.append("c1", 0, [mark("a")]),
      a.append("c2", 0, [mark("b")]),
      a.append("c1", 1, [mark("c")]),
    ];
    await a.close();
    await Promise.all(accepted);
    await expect(a.append("c1", 2, [mark("late")])).rejects.toThrow("closed");
    expect(await logOf("c1")).toEqual([
      [0, "a"],
      [1, "c"],
    ]);
    expect(await logOf("c2")).toEqual([[0, "b"]]);
  });

  it("fills seq and change numbers from the logs of a database made before issue 20", async () => {
    await Promise.allSettled([a.close(), b.close()]);
    const old = `${schema.name}_old`;
    const c = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${old}` });
    await c.connect();
    try {
      await c.query(`CREATE SCHEMA ${old}`);
      await c.query(`CREATE TABLE fm_schema (version INTEGER NOT NULL); INSERT INTO fm_schema VALUES (0)`);
      const pool = new pg.Pool({ connectionString: PG_URL, options: `-c search_path=${old}`, max: 1 });
      const pc = await pool.connect();
      for (const step of PG_MIGRATIONS.slice(0, 5))
        if (typeof step === "string") await pc.query(step);
        else await step(pc);
      pc.release();
      await pool.end();
      await c.query(`UPDATE fm_schema SET version = 5`);
      await c.query(`INSERT INTO games (id) VALUES ('old1'), ('old2')`);
      await c.query(
        `INSERT INTO game_entries (game_id, seq, body) VALUES
         ('old1', 0, $1), ('old1', 1, $1), ('old1', 2, $1), ('old2', 0, $1)`,
        [JSON.stringify(mark("o"))],
      );
      const { PgStore } = await import("../src/stores/pg-store.ts");
      const s = await PgStore.connect({ connectionString: PG_URL, options: `-c search_path=${old}` });
      try {
        expect(await s.gameIndex()).toEqual([
          { id: "old1", seq: 3, meta: null },
          { id: "old2", seq: 1, meta: null },
        ]);
        const all = await s.changedSince(0);
        expect(all.games.map((g) => g.id)).toEqual(["old1", "old2"]);
        await expect(s.append("old1", 2, [mark("x")])).rejects.toBeInstanceOf(SeqConflict);
        await s.append("old1", 3, [mark("new")]);
        const after = await s.changedSince(all.cursor);
        expect(after.games).toEqual([{ id: "old1", seq: 4, meta: null }]);
      } finally {
        await s.close();
      }
    } finally {
      await c.query(`DROP SCHEMA ${old} CASCADE`);
      await c.end();
    }
  });
});
