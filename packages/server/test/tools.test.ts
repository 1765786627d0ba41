import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/http/app.ts";
import { Demo } from "../src/demo/demo.ts";
import { Games } from "../src/log/games.ts";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import type { ToolsOptions } from "../src/tools/tools.ts";
import { Client } from "./client.ts";
import { FakeClock, testServer, type TestServer } from "./harness.ts";

/**
 * The GM tools for games on other forums (issue 6): the vote counter and the results writer answer as the
 * `votecount` and `results` commands print, need no login, and refuse bad input with a 400 naming it.
 */
const ROOT = join(import.meta.dirname, "../../..");
const FIXTURES = join(ROOT, "packages/forum/test/fixtures");
const PLAYERS = readFileSync(join(FIXTURES, "votecount-players.txt"), "utf8");
const THREAD: unknown = JSON.parse(readFileSync(join(FIXTURES, "votecount-thread.json"), "utf8"));
const REPLAY = JSON.parse(readFileSync(join(ROOT, "packages/engine/samples/six-players.json"), "utf8")) as {
  phases: unknown[];
};

interface ErrorBody {
  error: { code: string; message: string; clause?: string };
}

let t: TestServer;
let anyone: Client;

beforeAll(async () => {
  t = await testServer();
  anyone = new Client(() => t.server.app);
});
afterAll(async () => t.close());

describe("vote counter tool", () => {
  it("counts a thread without a login, as the CLI prints it", async () => {
    const r = await anyone.post<{ votes: unknown[]; notVoted: string[]; ignored: unknown[]; count: string }>(
      "/api/tools/votecount",
      { players: PLAYERS, gm: "Ведущий", day: 3, silenced: ["Лена"], thread: THREAD },
    );
    expect(r.status).toBe(200);
    expect(r.body.votes).toEqual([
      { by: "Вася", red: "Петя", early: false, post: 1 },
      { by: "Коля", blue: "Вася", early: false, post: 6 },
      { by: "Маша", red: "Вася", early: true, post: 3 },
      { by: "Петя", blue: "Zybr", early: false, post: 2 },
    ]);
    expect(r.body.notVoted).toEqual(["Zybr"]);
    expect(r.body.ignored).toHaveLength(5);
    expect(r.body.count.split("\n")[0]).toBe("[b]Голосование, день 3[/b]");
  });

  it("takes the GM, the day and the silenced players as optional", async () => {
    const r = await anyone.post<{ count: string }>("/api/tools/votecount", {
      players: PLAYERS,
      thread: THREAD,
    });
    expect(r.status).toBe(200);
    expect(r.body.count).toContain("Против:");
  });

  it("refuses a thread that is not an array of posts, naming the field", async () => {
    const r = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      thread: { posts: [] },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid");
    expect(r.body.error.message).toMatch(/^thread: /);
  });

  it("refuses a post without an author, naming the post", async () => {
    const r = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      thread: [{ author: "Вася", body: "привет" }, { body: "Петя КРАСНЫМ" }],
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('post 1 in thread needs a string "author" and "body"');
  });

  it("refuses an empty player list and a silenced player who is not on it", async () => {
    const empty = await anyone.post<ErrorBody>("/api/tools/votecount", { players: " \n", thread: THREAD });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe("the player list (players) is empty");
    const stranger = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      silenced: ["Гена"],
      thread: THREAD,
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toContain("Гена");
  });

  it("refuses an unknown field and a day that is not a whole number from 1", async () => {
    const unknown = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      thread: THREAD,
      days: 2,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('unknown field "days"');
    const day = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      thread: THREAD,
      day: 0,
    });
    expect(day.status).toBe(400);
    expect(day.body.error.message).toMatch(/^day: /);
  });

  it("takes a saved thread larger than the app's 64 KiB body limit", async () => {
    const long = Array.from({ length: 400 }, (_, i) => ({
      author: "Вася",
      time: "",
      body: `Пост ${i}. ${"болтовня ".repeat(40)}`,
    }));
    const r = await anyone.post<{ votes: unknown[] }>("/api/tools/votecount", {
      players: PLAYERS,
      thread: [...long, { author: "Вася", time: "", body: "Петя КРАСНЫМ" }],
    });
    expect(JSON.stringify(long).length).toBeGreaterThan(64 * 1024);
    expect(r.status).toBe(200);
    expect(r.body.votes).toEqual([{ by: "Вася", red: "Петя", early: false, post: 400 }]);
  });

  it("refuses a body over 5 MiB with the tools' own limit", async () => {
    const r = await anyone.post<ErrorBody>("/api/tools/votecount", {
      players: PLAYERS,
      thread: [{ author: "Вася", time: "", body: "x".repeat(5 * 1024 * 1024) }],
    });
    expect(r.status).toBe(413);
    expect(r.body.error.message).toBe(`body: larger than ${5 * 1024 * 1024} bytes`);
  });
});

describe("results writer tool", () => {
  it("writes the results post of the replay's last finished phase, as the CLI prints it", async () => {
    const r = await anyone.post<{ post: string }>("/api/tools/results", { replay: REPLAY });
    expect(r.status).toBe(200);
    expect(r.body.post).toBe("[b]Итоги дня 1[/b]\nПо итогам голосования казнён игрок Вася.\nПобеда города!");
  });

  it("writes the post in English when asked", async () => {
    const r = await anyone.post<{ post: string }>("/api/tools/results", { replay: REPLAY, lang: "en" });
    expect(r.status).toBe(200);
    expect(r.body.post).not.toContain("Итоги");
  });

  it("refuses a missing replay, naming the field", async () => {
    const r = await anyone.post<ErrorBody>("/api/tools/results", {});
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^replay: /);
  });

  it("refuses an illegal action with the replay's message and clause", async () => {
    const bad = structuredClone(REPLAY) as {
      phases: { actions?: { by: string; act: string; target?: string }[] }[];
    };
    bad.phases[0]!.actions![1] = { by: "Петя", act: "visit", target: "Оля" };
    const r = await anyone.post<ErrorBody>("/api/tools/results", { replay: bad });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^replay: night 1: Петя/);
    // The refusal is made in the worker thread and crosses back as a value, clause and all.
    expect(r.body).toEqual({
      error: {
        code: "invalid",
        message: "replay: night 1: Петя (doctor) may not visit: only the girl can (T4)",
        clause: "T4",
      },
    });
  });

  it("refuses a replay with no finished phase", async () => {
    const r = await anyone.post<ErrorBody>("/api/tools/results", { replay: { ...REPLAY, phases: [] } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("replay: no finished phase to report (REPLAY.md)");
  });
});

/**
 * Issue 11: the tools' work runs in worker threads (tools-worker.ts), so a 5 MB thread does not stop the
 * server; one request at a time per address, a time budget per request, a cap on waiting requests.
 * These tests build the app with their own limits and watch the order of answers, never their timing.
 */
describe("the tools' work runs off the event loop", () => {
  /** About 5 MB: the fixture's posts, over and over, as in the finding (the tools' limit is 5 MiB). */
  const BIG_THREAD = Array.from({ length: 32_000 }, (_, i) => (THREAD as unknown[])[i % 10]);
  const BIG = { players: PLAYERS, thread: BIG_THREAD };

  interface ToolsServer {
    readonly app: FastifyInstance;
    /** Called when a tool request has its body parsed and is about to be handed to the pool. */
    onTool: (() => void) | null;
    /** Called as the server starts sending a tool's answer, with its status. */
    onToolAnswer: ((status: number) => void) | null;
    /** The HTTP address once listening, e.g. http://127.0.0.1:40123. */
    url: string;
  }

  /** The whole app on an in-memory store, with the tools' limits given. */
  async function toolsServer(tools: ToolsOptions): Promise<ToolsServer> {
    const store = new SqliteStore(":memory:");
    const clock = new FakeClock();
    const games = new Games(store, clock);
    const app = await buildApp({
      store,
      clock,
      games,
      demo: new Demo(games, store, clock),
      rateLimit: 0,
      tools,
    });
    const s: ToolsServer = { app, onTool: null, onToolAnswer: null, url: "" };
    app.addHook("preHandler", (req, _reply, done) => {
      if (req.url.startsWith("/api/tools/")) s.onTool?.();
      done();
    });
    app.addHook("onSend", (req, reply, payload, done) => {
      if (req.url.startsWith("/api/tools/")) s.onToolAnswer?.(reply.statusCode);
      done(null, payload);
    });
    app.addHook("onClose", async () => store.close());
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    s.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    return s;
  }

  /** A request over real HTTP (every one from 127.0.0.1, the same address). */
  async function call<T>(
    s: ToolsServer,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<{ status: number; body: T }> {
    const res = await fetch(s.url + path, {
      method: body === undefined ? "GET" : "POST",
      ...(body === undefined
        ? {}
        : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  /** Sends a request once the next tool request has its body parsed and its work is about to start. */
  const whenToolStarts = <T>(s: ToolsServer, send: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      s.onTool = () => {
        s.onTool = null;
        send().then(resolve, reject);
      };
    });

  it("is a thread of about 5 MB, as in the finding", () => {
    const size = Buffer.byteLength(JSON.stringify(BIG));
    expect(size).toBeGreaterThan(4.5 * 1024 * 1024);
    expect(size).toBeLessThan(5 * 1024 * 1024);
  });

  it("answers /api/health while a 5 MB thread is being counted", async () => {
    const s = await toolsServer({ budgetMs: 120_000 });
    try {
      const order: string[] = [];
      // Were the count on the event loop, the health check could not even be read before the server began
      // to send the count.
      const health = whenToolStarts(s, () =>
        call(s, "/api/health").then((r) => void order.push(`health answered ${r.status}`)),
      );
      s.onToolAnswer = (status) => order.push(`votecount sent ${status}`);
      const r = await call<{ votes: unknown[] }>(s, "/api/tools/votecount", BIG);
      await health;
      expect(order).toEqual(["health answered 200", "votecount sent 200"]);
      expect(r.body.votes.length).toBeGreaterThan(0);
    } finally {
      await s.app.close();
    }
  });

  it("refuses a second request from the same address while the first is under way, not after", async () => {
    const s = await toolsServer({ budgetMs: 120_000 });
    try {
      const order: string[] = [];
      const second = whenToolStarts(s, () =>
        call<ErrorBody>(s, "/api/tools/votecount", BIG).then((r) => {
          order.push(`second ${r.status}`);
          return r;
        }),
      );
      const first = await call<{ votes: unknown[] }>(s, "/api/tools/votecount", BIG);
      order.push(`first ${first.status}`);
      const refused = await second;
      expect(order).toEqual(["second 429", "first 200"]);
      expect(refused.body.error.code).toBe("tools/busy");
      expect(refused.body.error.message).toMatch(/one tool request at a time/);
      // The first has answered: the address may send again.
      const next = await call<{ post: string }>(s, "/api/tools/results", { replay: REPLAY });
      expect(next.status).toBe(200);
    } finally {
      await s.app.close();
    }
  });

  it("stops the work of a client that hangs up, and frees its address", async () => {
    const s = await toolsServer({ budgetMs: 120_000 });
    try {
      const hangUp = new AbortController();
      void whenToolStarts(s, async () => hangUp.abort());
      const answered = new Promise<number>((resolve) => (s.onToolAnswer = resolve));
      await expect(call(s, "/api/tools/votecount", BIG, hangUp.signal)).rejects.toThrow();
      // Had the count gone on, its answer would be a 200, sent when it ended.
      expect(await answered).toBe(499);
      s.onToolAnswer = null;
      const next = await call<{ post: string }>(s, "/api/tools/results", { replay: REPLAY });
      expect(next.status).toBe(200);
    } finally {
      await s.app.close();
    }
  });

  it("stops a count over its time budget with a clear error, and the next request works", async () => {
    // A 5 MB thread counts in a second or more; the fixture's ten posts in a few milliseconds.
    const s = await toolsServer({ budgetMs: 200 });
    try {
      const slow = await call<ErrorBody>(s, "/api/tools/votecount", BIG);
      expect(slow.status).toBe(413);
      expect(slow.body.error).toEqual({
        code: "tools/too-slow",
        message: "thread: too large to count within 0.2 s; send fewer posts (one day's)",
      });
      const small = await call<{ votes: unknown[] }>(s, "/api/tools/votecount", {
        players: PLAYERS,
        gm: "Ведущий",
        day: 3,
        silenced: ["Лена"],
        thread: THREAD,
      });
      expect(small.status).toBe(200);
      expect(small.body.votes).toHaveLength(4);
      expect((await call(s, "/api/health")).status).toBe(200);
    } finally {
      await s.app.close();
    }
  });

  it("does not count the wait for a thread against the budget", async () => {
    // One thread: the small request from another address waits while the big one runs out its budget.
    const s = await toolsServer({ budgetMs: 200, threads: 1 });
    try {
      const small = whenToolStarts(s, () =>
        s.app.inject({
          method: "POST",
          url: "/api/tools/results",
          remoteAddress: "10.0.0.2",
          payload: { replay: REPLAY },
        }),
      );
      const big = await call<ErrorBody>(s, "/api/tools/votecount", BIG);
      expect(big.body.error.code).toBe("tools/too-slow");
      const r = await small;
      expect(r.statusCode).toBe(200);
      expect(JSON.parse(r.body)).toEqual({
        post: "[b]Итоги дня 1[/b]\nПо итогам голосования казнён игрок Вася.\nПобеда города!",
      });
    } finally {
      await s.app.close();
    }
  });

  it("refuses work beyond the threads and the queue, from any address, with a 503", async () => {
    const s = await toolsServer({ budgetMs: 120_000, threads: 1, queue: 0 });
    try {
      const from = (address: string) =>
        s.app.inject({
          method: "POST",
          url: "/api/tools/results",
          remoteAddress: address,
          payload: { replay: REPLAY },
        });
      const other = whenToolStarts(s, () => from("10.0.0.2"));
      const big = await call(s, "/api/tools/votecount", BIG);
      expect(big.status).toBe(200);
      const r = await other;
      expect(r.statusCode).toBe(503);
      expect((JSON.parse(r.body) as ErrorBody).error.code).toBe("tools/overloaded");
      expect((await from("10.0.0.2")).statusCode).toBe(200);
    } finally {
      await s.app.close();
    }
  });
});
