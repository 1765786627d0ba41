import { balanceOf, estimateChunk, mergeChunks } from "@forum-mafia/engine/bots";
import { SETUP_PRESETS, type BalanceEstimate, type PresetId, type Setup } from "@forum-mafia/protocol";
import type { FastifyInstance } from "fastify";
import { getPriority } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/http/app.ts";
import { Demo } from "../src/demo/demo.ts";
import { Estimator, estimateKey } from "../src/tools/estimate.ts";
import {
  ESTIMATE_DEFAULTS,
  type ChunkOutcome,
  type EstimateCounters,
  type EstimateOptions,
} from "../src/tools/estimate-options.ts";
import { Games } from "../src/log/games.ts";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import { Client } from "./client.ts";
import { FakeClock } from "./harness.ts";

/**
 * Issue 17: the balance estimate of a setup (POST /api/setups/estimate). Its figures are the engine's for
 * the same games; a finished estimate is cached by setup; a request nobody waits for any more stops its
 * chunks; and the limits hold (a login, one estimate per user, a cap across users, the rate). These run
 * the real worker pool: nothing here measures time (the 3 s target is `npm run bench:estimate`'s).
 */

interface ErrorBody {
  error: { code: string; message: string; clause?: string };
}

const preset = (id: PresetId): Setup => SETUP_PRESETS.find((p) => p.id === id)!.setup;
/** A variant of a preset, so each test plays a setup no other test has cached. */
const variant = (id: PresetId, revealAbove: number): Setup => ({
  roles: preset(id).roles,
  options: { ...preset(id).options, revealAbove },
});

interface EstimateServer {
  readonly app: FastifyInstance;
  readonly estimator: Estimator;
  readonly url: string;
  /** Resolves at the next chunk of `setup` that comes back with `kind`. */
  chunk(setup: Setup, kind: ChunkOutcome["kind"]): Promise<void>;
}

/** The whole app on an in-memory store, listening on a free port, with the estimator given. */
async function estimateServer(
  options: { rateLimit?: number; onChunk?: (c: ChunkOutcome) => void } & Omit<
    EstimateOptions,
    "onChunk"
  > = {},
): Promise<EstimateServer> {
  const waiters: { key: string; kind: ChunkOutcome["kind"]; resolve: () => void }[] = [];
  const { rateLimit, onChunk, ...estimates } = options;
  const estimator = new Estimator({
    // The presets are played here like any setup (issue 32: the app answers them from kept figures,
    // preset-estimates.test.ts).
    presetFigures: false,
    ...estimates,
    warmOnListen: options.warmOnListen ?? false,
    onChunk: (c) => {
      onChunk?.(c);
      for (const w of waiters.filter((x) => x.key === c.key && x.kind === c.kind)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
  });
  const store = new SqliteStore(":memory:");
  const clock = new FakeClock();
  const games = new Games(store, clock);
  const app = await buildApp({
    store,
    clock,
    games,
    demo: new Demo(games, store, clock),
    rateLimit: rateLimit ?? 0,
    estimates: estimator,
  });
  app.addHook("onClose", async () => store.close());
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    app,
    estimator,
    url,
    chunk: (setup, kind) =>
      new Promise<void>((resolve) => waiters.push({ key: estimateKey(setup), kind, resolve })),
  };
}

/** POST /api/setups/estimate over real HTTP as a signed-in client, which can hang up. */
async function ask<T>(
  s: EstimateServer,
  who: Client,
  setup: unknown,
  signal?: AbortSignal,
): Promise<{ status: number; body: T; retryAfter: string | null }> {
  const res = await fetch(`${s.url}/api/setups/estimate`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(who.cookie ? { cookie: who.cookie } : {}) },
    body: JSON.stringify(setup),
    ...(signal ? { signal } : {}),
  });
  return { status: res.status, body: (await res.json()) as T, retryAfter: res.headers.get("retry-after") };
}

/** Waits (without timing anything) until the condition holds; fails after 30 s. */
async function until(what: string, condition: () => boolean): Promise<void> {
  for (let i = 0; i < 3000 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error(`never happened: ${what}`);
}

const delta = (before: EstimateCounters, after: EstimateCounters): EstimateCounters => ({
  runsStarted: after.runsStarted - before.runsStarted,
  runsFinished: after.runsFinished - before.runsFinished,
  runsStopped: after.runsStopped - before.runsStopped,
  runsFailed: after.runsFailed - before.runsFailed,
  chunksDone: after.chunksDone - before.chunksDone,
  chunksStopped: after.chunksStopped - before.chunksStopped,
  cacheHits: after.cacheHits - before.cacheHits,
  failureHits: after.failureHits - before.failureHits,
  presetHits: after.presetHits - before.presetHits,
});

/** The in-process figures: the engine's estimateChunk over the same seeds, in two halves. */
const inProcess = (setup: Setup): BalanceEstimate =>
  balanceOf(mergeChunks([estimateChunk(setup, 0, 1000), estimateChunk(setup, 1000, 1000)]));

let s: EstimateServer;
let anna: Client;
let boris: Client;
let vera: Client;
let stranger: Client;

beforeAll(async () => {
  s = await estimateServer({ queue: 2, warmOnListen: true });
  anna = new Client(() => s.app, "Анна");
  boris = new Client(() => s.app, "Борис");
  vera = new Client(() => s.app, "Вера");
  stranger = new Client(() => s.app);
  for (const c of [anna, boris, vera]) expect((await c.register()).status).toBe(201);
});
afterAll(async () => s.app.close());

describe("the balance estimate", () => {
  it("S3: the pool warms up as the server starts listening (by default outside tests), before any estimate", async () => {
    expect(s.estimator.warmStarted).toBe(true);
    await s.estimator.warm();
    expect(s.estimator.counters.runsStarted).toBe(0);
    // A test suite's many servers leave their pools cold unless asked.
    expect(ESTIMATE_DEFAULTS.warmOnListen).toBe(false);
    expect(new Estimator().warmStarted).toBe(false);
  });

  it("S3: the 12-player preset's estimate is 2,000 games, its rates add up to 1, each inside its interval, and they equal the engine's for the same seeds", async () => {
    const medium = preset("medium12");
    const answer = ask<BalanceEstimate>(s, anna, medium);
    // Worked out here meanwhile, on this thread, split otherwise than the server's chunks.
    const expected = inProcess(medium);
    const r = await answer;
    expect(r.status).toBe(200);
    expect(r.body.games).toBe(2000);
    const rates = Object.values(r.body.winRates);
    expect(rates).toHaveLength(4);
    expect(rates.reduce((sum, x) => sum + x.rate, 0)).toBeCloseTo(1, 12);
    for (const x of rates) {
      expect(x.low).toBeLessThanOrEqual(x.rate);
      expect(x.rate).toBeLessThanOrEqual(x.high);
      expect(x.low).toBeGreaterThanOrEqual(0);
      expect(x.high).toBeLessThanOrEqual(1);
    }
    expect(r.body.meanDays).toBeGreaterThan(0);
    expect(r.body.meanPhases).toBeGreaterThan(r.body.meanDays);
    expect(r.body).toEqual(expected);
  });

  it("S3: the same setup again, from anyone and with its roles in another order, is answered from the cache: no run, no chunk", async () => {
    const medium = preset("medium12");
    const before = { ...s.estimator.counters };
    const again = await ask<BalanceEstimate>(s, boris, medium);
    const reordered = await ask<BalanceEstimate>(s, vera, { ...medium, roles: [...medium.roles].reverse() });
    const after = s.estimator.counters;
    expect(again.status).toBe(200);
    expect(reordered.body).toEqual(again.body);
    expect(delta(before, after)).toEqual({
      runsStarted: 0,
      runsFinished: 0,
      runsStopped: 0,
      runsFailed: 0,
      chunksDone: 0,
      chunksStopped: 0,
      cacheHits: 2,
      failureHits: 0,
      presetHits: 0,
    });
    // Another option is another setup: not from the cache.
    expect(estimateKey(variant("medium12", 8))).not.toBe(estimateKey(medium));
  });

  it("S3: a role list without an opponent is a 400 naming the roles and S3, and starts nothing", async () => {
    const before = { ...s.estimator.counters };
    const r = await ask<ErrorBody>(s, anna, { roles: ["sheriff", "citizen", "citizen"] });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid");
    expect(r.body.error.message).toMatch(/^roles: .*\(S3\)$/);
    const unknown = await ask<ErrorBody>(s, anna, { roles: ["boss", "citizen"], options: { reveal: 3 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('options: unknown field "reveal"');
    expect(s.estimator.counters).toEqual(before);
  });

  it("S3: without a session the estimate is a 401, whatever the body, and starts nothing", async () => {
    const before = { ...s.estimator.counters };
    const r = await ask<ErrorBody>(s, stranger, preset("small9"));
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("unauthenticated");
    expect((await ask<ErrorBody>(s, stranger, { roles: [] })).status).toBe(401);
    expect(s.estimator.counters).toEqual(before);
  });

  it("S3: a client that hangs up stops its estimate: the chunks not yet played are stopped, and nothing is cached", async () => {
    const setup = variant("large21", 12);
    const before = { ...s.estimator.counters };
    const hangUp = new AbortController();
    const started = s.chunk(setup, "done");
    const asked = ask(s, anna, setup, hangUp.signal).catch((e: unknown) => e);
    await started;
    hangUp.abort();
    expect(await asked).toMatchObject({ name: "AbortError" });
    await until("the run stops", () => s.estimator.counters.runsStopped > before.runsStopped);
    await s.estimator.idle();
    const d = delta(before, s.estimator.counters);
    expect(d.runsStarted).toBe(1);
    expect(d.runsStopped).toBe(1);
    expect(d.runsFinished).toBe(0);
    expect(d.chunksDone).toBeGreaterThanOrEqual(1);
    expect(d.chunksStopped).toBeGreaterThan(0);
    expect(d.chunksDone + d.chunksStopped).toBe(2000 / s.estimator.chunk);
    expect(s.estimator.underWay).toBe(0);
  });

  it("S3: a user's new request replaces that user's older one: the old is answered 409 and its run stops", async () => {
    const stale = variant("large21", 11);
    const fresh = variant("small9", 5);
    const before = { ...s.estimator.counters };
    const started = s.chunk(stale, "done");
    const old = ask<ErrorBody>(s, boris, stale);
    await started;
    const now = await ask<BalanceEstimate>(s, boris, fresh);
    const replaced = await old;
    expect(replaced.status).toBe(409);
    expect(replaced.body.error.code).toBe("estimate/superseded");
    expect(now.status).toBe(200);
    expect(now.body.games).toBe(2000);
    await s.estimator.idle();
    const d = delta(before, s.estimator.counters);
    expect(d.runsStarted).toBe(2);
    expect(d.runsStopped).toBe(1);
    expect(d.runsFinished).toBe(1);
    expect(d.chunksStopped).toBeGreaterThan(0);
  });

  it("S3: requests for one setup share one run, which goes on while anyone still waits for it", async () => {
    const setup = variant("classic17", 9);
    const before = { ...s.estimator.counters };
    const hangUp = new AbortController();
    const started = s.chunk(setup, "done");
    const first = ask(s, anna, setup, hangUp.signal).catch((e: unknown) => e);
    const second = ask<BalanceEstimate>(s, vera, setup);
    await started;
    hangUp.abort();
    expect(await first).toMatchObject({ name: "AbortError" });
    const r = await second;
    expect(r.status).toBe(200);
    expect(r.body.games).toBe(2000);
    await s.estimator.idle();
    const d = delta(before, s.estimator.counters);
    expect(d.runsStarted).toBe(1);
    expect(d.runsStopped).toBe(0);
    expect(d.chunksStopped).toBe(0);
    expect(d.chunksDone).toBe(2000 / s.estimator.chunk);
  });

  it("S3: when as many runs are under way as the queue allows, another user's new setup is a 503 estimate/busy with Retry-After; a user replacing a run only they wait for, or joining one, is not refused", async () => {
    const one = variant("large21", 14);
    const two = variant("large21", 15);
    const three = variant("large21", 17);
    const before = { ...s.estimator.counters };
    const stops = [new AbortController(), new AbortController()];
    const started = s.chunk(one, "done");
    const asked = [
      ask<ErrorBody>(s, anna, one, stops[0]!.signal).catch((e: unknown) => e),
      ask(s, boris, two, stops[1]!.signal).catch((e: unknown) => e),
    ];
    await started;
    await until("both run", () => s.estimator.underWay === 2);
    const busy = await ask<ErrorBody>(s, vera, preset("small9"));
    expect(busy.status).toBe(503);
    expect(busy.body.error.code).toBe("estimate/busy");
    expect(busy.body.error.message).toMatch(/busy.*try again in 5 seconds/);
    expect(busy.retryAfter).toBe("5");
    // Anna's new setup takes the place of her old one, which only she waited for: the queue is full, and
    // she is not refused.
    const replaced = new AbortController();
    const replacing = ask(s, anna, three, replaced.signal).catch((e: unknown) => e);
    await until("anna's new run starts", () => s.estimator.counters.runsStarted === before.runsStarted + 3);
    const old = (await asked[0]) as { status: number; body: ErrorBody };
    expect(old.status).toBe(409);
    expect(s.estimator.underWay).toBe(2);
    // Joining a setup already under way takes no new place.
    const joined = new AbortController();
    const joining = ask(s, vera, two, joined.signal).catch((e: unknown) => e);
    await until("vera waits for boris's run", () => s.estimator.waitingFor(estimateKey(two)) === 2);
    expect(s.estimator.underWay).toBe(2);
    for (const c of [...stops, joined, replaced]) c.abort();
    await Promise.all([...asked, joining, replacing]);
    await until("all stop", () => s.estimator.underWay === 0);
    await s.estimator.idle();
    const d = delta(before, s.estimator.counters);
    expect(d.runsStarted).toBe(3);
    expect(d.runsStopped).toBe(3);
  });

  it("S3: the estimate is in the API's document, with the setup's schema", async () => {
    const doc = (
      await anna.get<{ paths: Record<string, { post?: { requestBody?: unknown } }> }>("/api/openapi.json")
    ).body;
    expect(doc.paths["/api/setups/estimate"]?.post?.requestBody).toBeDefined();
  });
});

describe("the balance estimate when the server closes", () => {
  it("S3: a request still waiting is answered 503 estimate/closed, and its run stops", async () => {
    const closing = await estimateServer();
    const lena = new Client(() => closing.app, "Лена");
    expect((await lena.register()).status).toBe(201);
    const setup = variant("large21", 16);
    const started = closing.chunk(setup, "done");
    // Through inject: a socket would be closed by the server itself before the answer could be sent.
    const asked = lena.post<ErrorBody>("/api/setups/estimate", setup);
    await started;
    const closed = closing.app.close();
    const r = await asked;
    await closed;
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe("estimate/closed");
    expect(closing.estimator.counters.runsStopped).toBe(1);
  });
});

describe("the balance estimate's rate", () => {
  let limited: EstimateServer;
  beforeAll(async () => {
    limited = await estimateServer({ rateLimit: 100 });
  });
  afterAll(async () => limited.app.close());

  it("S3: a user gets a tenth of the app's rate (at least 10 a minute), then 429", async () => {
    const gleb = new Client(() => limited.app, "Глеб");
    expect((await gleb.register()).status).toBe(201);
    const statuses: number[] = [];
    // Refused bodies count too: the limit comes before the body is read, and nothing here starts a run.
    for (let i = 0; i < 11; i++) statuses.push((await ask(limited, gleb, { roles: [] })).status);
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => 400), 429]);
    expect(limited.estimator.counters.runsStarted).toBe(0);
  });
});

/**
 * Issue 28: five accounts hammering the estimate with different setups locked everyone else out (4 runs at
 * once, the rest 503) and starved the event loop. The threads now run below the event loop, and the
 * chunks are handed out fairly: a newcomer's run gets the next free thread. Nothing here is timed: the
 * order of the chunks handed out, and which runs are still under way when an answer comes, tell it.
 */
describe("the balance estimate's sharing of the pool", () => {
  /** One chunk handed to a thread, with the number of runs started by then. */
  interface Start {
    readonly key: string;
    readonly runsBefore: number;
  }

  /** A server of two threads and 1,000 games in chunks of 25, noting every chunk handed out. */
  async function fairServer(): Promise<{ server: EstimateServer; starts: Start[] }> {
    const starts: Start[] = [];
    const server: EstimateServer = await estimateServer({
      threads: 2,
      games: 1000,
      chunk: 25,
      warmOnListen: true,
      onChunk: (c) => {
        if (c.kind === "started")
          starts.push({ key: c.key, runsBefore: server.estimator.counters.runsStarted });
      },
    });
    await server.estimator.warm();
    return { server, starts };
  }

  it("S3: the estimate threads run at a lower OS priority than the event loop (piscina's niceIncrement)", async () => {
    const { server } = await fairServer();
    try {
      expect(server.estimator.poolOptions().niceIncrement).toBe(19);
      const mine = getPriority();
      const theirs = await server.estimator.priorities();
      expect(theirs.length).toBeGreaterThan(0);
      // Each thread reads its own nice value: raised by the increment (an absent @napi-rs/nice leaves it).
      for (const nice of theirs) expect(nice).toBe(Math.min(19, mine + 19));
    } finally {
      await server.app.close();
    }
  });

  it("S3: while one user's run holds both threads, another user's run gets the next free thread and is answered first", async () => {
    const { server, starts } = await fairServer();
    try {
      const [olga, pavel] = (await users(server, ["Ольга", "Павел"])) as [Client, Client];
      const big = variant("large21", 20);
      const small = variant("small9", 20);
      const stop = new AbortController();
      const firstDone = server.chunk(big, "done");
      const holding = ask(server, olga, big, stop.signal).catch((e: unknown) => e);
      await firstDone;
      const answer = await ask<BalanceEstimate>(server, pavel, small);
      expect(answer.status).toBe(200);
      expect(answer.body.games).toBe(1000);
      // Olga's run is still under way: Pavel's did not wait for it to end.
      expect(server.estimator.underWay).toBe(1);
      expect(server.estimator.counters.runsFinished).toBe(1);
      // The first chunk handed out once Pavel's run had started was his.
      const after = starts.filter((x) => x.runsBefore === 2);
      expect(after[0]?.key).toBe(estimateKey(small));
      stop.abort();
      await holding;
    } finally {
      await server.app.close();
    }
  });

  it("S3: while five users' runs are under way, a sixth user's new setup is not refused, gets its chunks before theirs and is answered while theirs still run", async () => {
    const { server, starts } = await fairServer();
    try {
      const people = await users(server, ["Алла", "Богдан", "Влад", "Галя", "Дима", "Ева"]);
      const five = [0, 1, 2, 3, 4].map((i) => variant("large21", 30 + i));
      const stop = new AbortController();
      const pushing = five.map((setup, i) =>
        ask(server, people[i]!, setup, stop.signal).catch((e: unknown) => e),
      );
      // Each of the five has had a chunk played.
      await Promise.all(five.map((setup) => server.chunk(setup, "done")));
      expect(server.estimator.underWay).toBe(5);
      const sixth = variant("small9", 30);
      const answer = await ask<BalanceEstimate>(server, people[5]!, sixth);
      expect(answer.status).toBe(200);
      expect(answer.body.games).toBe(1000);
      // None of the five's runs had ended.
      expect(server.estimator.underWay).toBe(5);
      expect(server.estimator.counters.runsFinished).toBe(1);
      // From the sixth run's start, the next chunks handed out were the sixth's, before the others' remaining.
      const after = starts.filter((x) => x.runsBefore === 6);
      expect(after[0]?.key).toBe(estimateKey(sixth));
      expect(after[1]?.key).toBe(estimateKey(sixth));
      stop.abort();
      await Promise.all(pushing);
      await until("the five stop", () => server.estimator.underWay === 0);
    } finally {
      await server.app.close();
    }
  });

  /** Registered clients of `server`. */
  async function users(server: EstimateServer, nicks: readonly string[]): Promise<Client[]> {
    const out: Client[] = [];
    for (const nick of nicks) {
      const c = new Client(() => server.app, nick);
      expect((await c.register()).status).toBe(201);
      out.push(c);
    }
    return out;
  }
});

describe("the balance estimate when its games fail", () => {
  it("S3: a run whose games throw answers 500 estimate/failed once; asking again for that setup gives the same answer at once, without playing it again", async () => {
    const failing = await estimateServer({
      worker: fileURLToPath(new URL("./estimate-failing-worker.ts", import.meta.url)),
      threads: 1,
      games: 40,
      chunk: 10,
    });
    try {
      const nina = new Client(() => failing.app, "Нина");
      const oleg = new Client(() => failing.app, "Олег");
      for (const c of [nina, oleg]) expect((await c.register()).status).toBe(201);
      const setup = preset("small9");
      const first = await ask<ErrorBody>(failing, nina, setup);
      expect(first.status).toBe(500);
      expect(first.body.error.code).toBe("estimate/failed");
      expect(first.body.error.message).toMatch(/failed.*asking again/);
      const c1 = { ...failing.estimator.counters };
      expect(c1.runsStarted).toBe(1);
      expect(c1.runsFailed).toBe(1);
      // The failing chunk stopped the rest: fewer than the run's 4 chunks were played or handed out.
      await failing.estimator.idle();
      expect(failing.estimator.counters.chunksDone).toBeLessThan(4);
      const again = await ask<ErrorBody>(failing, nina, setup);
      const other = await ask<ErrorBody>(failing, oleg, { ...setup, roles: [...setup.roles].reverse() });
      for (const r of [again, other]) {
        expect(r.status).toBe(500);
        expect(r.body.error.code).toBe("estimate/failed");
      }
      expect(failing.estimator.counters.runsStarted).toBe(1);
      expect(failing.estimator.counters.failureHits).toBe(2);
      // Another setup is another run (and fails on its own).
      expect((await ask<ErrorBody>(failing, oleg, variant("small9", 2))).status).toBe(500);
      expect(failing.estimator.counters.runsStarted).toBe(2);
    } finally {
      await failing.app.close();
    }
  });
});
