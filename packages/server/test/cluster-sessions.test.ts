import type { AddressInfo } from "node:net";
import pg from "pg";
import type { ApiError, GameDetail } from "@forum-mafia/protocol";
import { afterEach, describe, expect, it } from "vitest";
import type { Entry } from "../src/log/entries.ts";
import type { PgStore } from "../src/stores/pg-store.ts";
import type { Server } from "../src/server.ts";
import { Client, type Reply } from "./client.ts";
import { FakeClock, serverOn, settle } from "./harness.ts";
import { PG_LOCKS } from "../src/stores/pg-locks.ts";
import { SharedLimits } from "../src/accounts/shared-limits.ts";
import { PG_URL, pgAvailable, pgSchema } from "./pg.ts";
import { detail, expectOk, SseStream } from "./play.ts";

/**
 * Issue 20: sessions, rate limits, the login back-off and the demo bots across instances. Two servers in
 * this process, each with its own PgStore on one schema: two instances sharing a database. Each has its
 * own fake clock, both at the same time (and moved together), so a session cached on B would stay cached
 * for good unless B is told of the logout.
 */

const MINUTE = 60_000;
const SECOND = 1_000;

interface Pair {
  /** The schema's name: the application_name of every connection of both instances. */
  readonly name: string;
  readonly a: Server;
  readonly b: Server;
  readonly clocks: readonly [FakeClock, FakeClock];
  /** A third connection to the schema, to read the logs as they are stored. */
  readonly reader: PgStore;
  close(): Promise<void>;
}

let open: Pair | null = null;

afterEach(async () => {
  await open?.close();
  open = null;
});

/** Two instances on one fresh schema; A starts first, so A takes the leader's lock. */
async function twoInstances(rateLimit = 0): Promise<Pair> {
  const schema = await pgSchema();
  const clocks = [new FakeClock(), new FakeClock()] as const;
  const a = await serverOn(await schema.open(), clocks[0], { rateLimit });
  const b = await serverOn(await schema.open(), clocks[1], { rateLimit });
  const reader = await schema.open();
  const pair: Pair = {
    name: schema.name,
    a,
    b,
    clocks,
    reader,
    async close() {
      // Either may have been closed already by a test that stops an instance.
      await b.close().catch(() => {});
      await a.close().catch(() => {});
      await reader.close();
      await schema.drop();
    },
  };
  open = pair;
  return pair;
}

/** Poll `check` until it holds (or `ms` pass): notifications between instances arrive asynchronously. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A client of B holding the session of a client of A (a browser whose requests the proxy sends to B). */
function sameBrowser(c: Client, server: Server): Client {
  const other = new Client(() => server.app, c.nick);
  other.cookie = c.cookie;
  return other;
}

const me = async (c: Client): Promise<string | null> =>
  (await c.get<{ user: { nick: string } | null }>("/api/me")).body.user?.nick ?? null;

/** A game the user creates on B, and the user's live stream of it on B. */
async function streamOnB(
  onB: Client,
  b: Server,
  title: string,
): Promise<{ created: Reply<{ id: string }>; stream: SseStream }> {
  const created = await onB.post<{ id: string }>("/api/games", {
    title,
    night: { amount: 12, unit: "hours" },
    day: { amount: 24, unit: "hours" },
    mode: "automatic",
  });
  expectOk(created);
  await b.app.listen({ port: 0, host: "127.0.0.1" });
  const port = (b.app.server.address() as AddressInfo).port;
  const stream = await SseStream.open(`http://127.0.0.1:${port}`, created.body.id, {
    cookie: onB.cookie,
    label: "B's stream",
  });
  return { created, stream };
}

describe.skipIf(!pgAvailable)("sessions, limits and demo bots across instances (issue 20)", () => {
  it("a logout on A is refused on B at once, without waiting for B's session cache, and ends B's streams", async () => {
    const { a, b } = await twoInstances();
    const onA = new Client(() => a.app, "Уходящий");
    expectOk(await onA.register());
    const onB = sameBrowser(onA, b);
    // B knows the session (and caches it: its clock never moves, so the cache would hold it for good).
    expect(await me(onB)).toBe("Уходящий");
    expect(await me(onB)).toBe("Уходящий");
    // A game on B, and the user's live stream of it on B.
    const { created, stream } = await streamOnB(onB, b, "Поток на B");
    try {
      // Another browser of the same user keeps its own session.
      const other = new Client(() => b.app, "Уходящий");
      expectOk(await other.post("/api/login", { nick: "Уходящий", password: "correct horse battery" }));

      expectOk(await onA.post("/api/logout"));
      await eventually(async () => (await me(onB)) === null, "B refuses the logged-out session");
      await stream.closedByServer(5_000);
      expect(stream.reset).toBe(true);
      // A write with the old cookie is refused on B too, and the other session is untouched.
      expect((await onB.post(`/api/games/${created.body.id}/signup`)).status).toBe(401);
      expect(await me(other)).toBe("Уходящий");
    } finally {
      stream.close();
    }
  });

  it("a logout missed while B's notifications were down is caught up when they are back: the cache goes, the stream ends", async () => {
    const { name, a, b } = await twoInstances();
    const onA = new Client(() => a.app, "Незамеченный");
    expectOk(await onA.register());
    const onB = sameBrowser(onA, b);
    expect(await me(onB)).toBe("Незамеченный");
    const { stream } = await streamOnB(onB, b, "Поток без уведомлений");
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      // Both instances' listening connections are cut (as by a network fault): the logout's notification
      // reaches nobody. Each listens again after LEADER_RETRY_MS and then reads what it may have missed.
      const cut = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = $1 AND query LIKE 'LISTEN%'`,
        [name],
      );
      expect(cut.rowCount).toBe(2);
      await new Promise((r) => setTimeout(r, 200));
      expectOk(await onA.post("/api/logout"));
      // Still known on B right after: nothing told it (so this test sees the catching up, not a notification).
      expect(await me(onB)).toBe("Незамеченный");
      await eventually(async () => (await me(onB)) === null, "B refuses the session after listening again");
      await stream.closedByServer(5_000);
      expect(stream.reset).toBe(true);
    } finally {
      stream.close();
      await admin.end();
    }
  });

  it("rate limits are counted together: requests spread over A and B are refused after the limit, not twice it", async () => {
    const limit = 20;
    const { a, b } = await twoInstances(limit);
    const onA = new Client(() => a.app, "Торопыга");
    expectOk(await onA.register());
    const onB = sameBrowser(onA, b);
    // One at a time, alternating: the shared count is exact, so exactly `limit` pass (the register above
    // counted on the auth routes' own limit, by address).
    const statuses: number[] = [];
    for (let i = 0; i < limit + 6; i++) statuses.push((await (i % 2 ? onB : onA).get("/api/me")).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.slice(limit)).toEqual(Array.from({ length: 6 }, () => 429));
    const refused = await onB.get<ApiError>("/api/me");
    expect(refused.body.error.code).toBe("rate-limited");

    // At once, from many requests in parallel on both: still exactly the limit (another user's own count).
    const fast = new Client(() => b.app, "Шквал");
    expectOk(await fast.register());
    const both = [fast, sameBrowser(fast, a)];
    const burst = await Promise.all(
      Array.from({ length: 3 * limit }, (_, i) => both[i % 2]!.get("/api/me").then((r) => r.status)),
    );
    expect(burst.filter((s) => s === 200)).toHaveLength(limit);
    expect(burst.filter((s) => s === 429)).toHaveLength(2 * limit);
  });

  it("with a larger limit, instances reserve leases of it: never past the limit, at most a lease short, few statements", async () => {
    const schema = await pgSchema();
    const config = { connectionString: PG_URL, options: `-c search_path=${schema.name}` };
    const now = (): number => Date.UTC(2026, 10, 30, 9, 0, 10);
    const a = await SharedLimits.open(config, now);
    const b = await SharedLimits.open(config, now);
    try {
      // A limit of 320: leases grow 1, 2, 4… up to 320 / 16 = 20.
      const max = 320;
      const admitted = (results: readonly { current: number }[]): number =>
        results.filter((r) => r.current <= max).length;
      const one: { current: number }[] = [];
      for (let i = 0; i < 2 * max; i++) one.push(await (i % 2 ? b : a).hit("user:one", MINUTE, max));
      // Never past the limit; short of it by at most the other instance's unused lease (one of 20).
      const n = admitted(one);
      expect(n).toBeLessThanOrEqual(max);
      expect(n).toBeGreaterThanOrEqual(max - max / 16);
      // Far fewer statements than requests: leases, and none once the row is full.
      expect(a.statements + b.statements).toBeLessThan((2 * max) / 8);
      // Once an instance has been refused, it refuses the rest of the window without asking.
      const firstRefused = one.findIndex((r) => r.current > max);
      const sameInstance = one.filter((_, i) => i > firstRefused && i % 2 === firstRefused % 2);
      expect(sameInstance.every((r) => r.current > max)).toBe(true);

      // Many at once on both, for another key: the same bounds.
      const burst = await Promise.all(
        Array.from({ length: 2 * max }, (_, i) => (i % 2 ? b : a).hit("user:two", MINUTE, max)),
      );
      const m = admitted(burst);
      expect(m).toBeLessThanOrEqual(max);
      expect(m).toBeGreaterThanOrEqual(max - max / 16);
    } finally {
      await a.close();
      await b.close();
      await schema.drop();
    }
  });

  it("the login back-off is shared: failures on A count on B", async () => {
    const { a, b, clocks } = await twoInstances();
    const owner = new Client(() => a.app, "Осаждённый");
    expectOk(await owner.register());
    const guess = (server: Server, password: string) =>
      new Client(() => server.app).post<ApiError>("/api/login", { nick: "осаждённый", password });
    // Five failures, spread over both: on its own neither has five.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await guess(i % 2 ? b : a, "wrong guess")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    // The sixth is refused on either, without checking the password (even the right one).
    const onB = await guess(b, "correct horse battery");
    expect(onB.status).toBe(429);
    expect(onB.body.error.code).toBe("login/backoff");
    expect(onB.body.error.message).toMatch(/^nick: .*retry in 2 s$/);
    expect((await guess(a, "wrong guess")).status).toBe(429);
    // After the first back-off (2 s) the right password logs in, and the failures are forgotten.
    for (const clock of clocks) await clock.advance(2 * SECOND);
    expectOk(await guess(b, "correct horse battery"));
    for (let i = 0; i < 4; i++) expect((await guess(i % 2 ? b : a, "wrong guess")).status).toBe(401);
  });

  it("demo bots play on one instance: a demo created on B is played by the leader's bots, no move twice", async () => {
    const { name, a, b, clocks, reader } = await twoInstances();
    // A connected first and leads; B does not (the bots, like the deadlines, are the leader's).
    expect([a.cluster.leader, b.cluster.leader]).toEqual([true, false]);
    const human = new Client(() => b.app, "Гость демо");
    expectOk(await human.register());
    const created = await human.post<{ id: string }>("/api/demo", {});
    expectOk(created);
    const id = created.body.id;
    const entries = (): Promise<readonly Entry[]> => reader.entries(id);
    const quiet = async (): Promise<void> => {
      for (const s of [a, b]) {
        await s.games.idle();
        await s.demo.idle();
      }
      await settle();
      // Time for the other instance to hear what was written, and to act on it if it (wrongly) would.
      await new Promise((r) => setTimeout(r, 300));
      for (const s of [a, b]) await s.demo.idle();
    };
    const advance = async (ms: number): Promise<void> => {
      for (const clock of clocks) await clock.advance(ms);
      await quiet();
    };
    // Night 1: the bots act at its start, on A, which heard of the game from B.
    await eventually(async () => (await entries()).some((e) => e.kind === "act"), "a bot's night move");
    await quiet();
    // Day 1: the bots post at moments over the day, one of them their vote; look just before it ends.
    await advance(2 * MINUTE);
    await advance(2 * MINUTE - SECOND);
    let d: GameDetail = await detail(human, id);
    expect(d.view!.phase).toEqual({ kind: "day", number: 1 });
    const voters = d.view!.seats.filter((s) => s.alive && !s.cannotVote && s.seat !== d.me.seat);
    expect(voters.length).toBeGreaterThan(0);
    expect(d.view!.votes.map((v) => v.seat).sort()).toEqual(voters.map((s) => s.seat).sort());
    // A loses the lead without stopping (its lock's connection is cut): its bots stop, B's take over.
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const cut = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks
         WHERE locktype = 'advisory' AND granted AND classid = $2 AND objsubid = 2
           AND pid IN (SELECT pid FROM pg_stat_activity WHERE application_name = $1)`,
        [name, PG_LOCKS.leader],
      );
      expect(cut.rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await eventually(
      async () => !a.cluster.leader && b.cluster.leader,
      "B leads after A lost the lock",
      8_000,
    );
    // Night 2: B's bots act (were A's still playing, a bot would act twice).
    await advance(SECOND);
    const actsBy = async (endDays: number): Promise<boolean> => {
      const log = await entries();
      const from = log.findIndex(
        (_, i) => log.slice(0, i + 1).filter((e) => e.kind === "endDay").length === endDays,
      );
      return from >= 0 && log.slice(from).some((e) => e.kind === "act");
    };
    // B arms the deadlines once it has read the log as the new leader, which may come after that second:
    // a timer armed late is due at once, and fires on the next move of the test's clocks.
    await eventually(async () => {
      await advance(0);
      return actsBy(1);
    }, "a bot's move in night 2");
    await quiet();
    // Day 2 starts, and then B stops before its bots have said anything: A takes the lead back (within
    // LEADER_RETRY_MS) and resumes what the bots owe, with no commit to set it off: their day's talk.
    await advance(2 * MINUTE);
    d = await detail(human, id);
    expect(d.view!.phase).toEqual({ kind: "day", number: 2 });
    await b.close();
    await eventually(async () => a.cluster.leader, "A leads again once B has stopped", 6_000);
    await quiet();
    await clocks[0].advance(2 * MINUTE - SECOND);
    await quiet();
    d = await detail(sameBrowser(human, a), id);
    expect(d.view!.phase).toEqual({ kind: "day", number: 2 });
    const still = d.view!.seats.filter((s) => s.alive && !s.cannotVote && s.seat !== d.me.seat);
    expect(still.length).toBeGreaterThan(0);
    expect(d.view!.votes.map((v) => v.seat).sort()).toEqual(still.map((s) => s.seat).sort());

    // No bot moved twice: at most one night action per seat a night, one vote-casting post per seat a day.
    const log = await entries();
    let phase = 0;
    const moves = new Set<string>();
    const twice: string[] = [];
    for (const e of log) {
      if (e.kind === "publishNight" || e.kind === "endDay") phase++;
      const move = e.kind === "act" ? `act ${e.seat}` : e.kind === "post" && e.vote ? `vote ${e.seat}` : null;
      if (move === null) continue;
      const key = `${phase}: ${move}`;
      if (moves.has(key)) twice.push(key);
      moves.add(key);
    }
    expect(twice).toEqual([]);
    expect([...moves].filter((m) => m.startsWith("0: act")).length).toBeGreaterThan(0);
  });
});
