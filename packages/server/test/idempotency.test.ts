import type { GameDetail, PostView } from "@forum-mafia/protocol";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { DeafCluster } from "./deaf-cluster.ts";
import type { Entry } from "../src/log/entries.ts";
import type { Server } from "../src/server.ts";
import type { Store } from "../src/stores/store.ts";
import { Client, type Reply } from "./client.ts";
import { FakeClock, serverOn, testServer } from "./harness.ts";
import { pgAvailable, pgSchema } from "./pg.ts";
import { expectOk, setUpGame, type Table } from "./play.ts";

/**
 * Issue 28: a write sent again with its Idempotency-Key (after a dropped connection, a 502 or a 503) is
 * answered as the first was and stored once; the same key with another body is refused (422); keys are
 * per user and are never shown. On PostgreSQL the retry may land on another instance, one that has not
 * heard of the first write yet: it finds the key in the log.
 *
 * Expected values come from the contract (one write, the first answer again), counted in the store's log.
 */

/** A request with an Idempotency-Key, as the user `c` (its session cookie). */
async function keyed(
  app: FastifyInstance,
  c: Client,
  method: "POST" | "DELETE",
  url: string,
  key: string,
  body?: unknown,
): Promise<Reply<Record<string, unknown>>> {
  const res = await app.inject({
    method,
    url,
    headers: {
      ...(c.cookie ? { cookie: c.cookie } : {}),
      "idempotency-key": key,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  c.seen.push(res.body);
  return { status: res.statusCode, body: res.json(), raw: res.body };
}

/** The kinds of a game's stored entries, in order. */
const kinds = async (store: Store, id: string): Promise<string[]> =>
  (await store.entries(id)).map((e: Entry) => e.kind);

const count = (list: readonly string[], kind: string): number => list.filter((k) => k === kind).length;

/** The thread as a player reads it. */
const thread = async (c: Client, id: string): Promise<PostView[]> =>
  (await c.get<{ posts: PostView[] }>(`/api/games/${id}/posts?limit=500`)).body.posts;

interface Setup {
  /** Where the first requests go. */
  a: Server;
  /** Where retries go: `a` itself on SQLite, another instance on PostgreSQL. */
  b: Server;
  store: Store;
  table: Table;
}

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function onSqlite(): Promise<Setup> {
  const t = await testServer();
  open.push(() => t.close());
  const table = await setUpGame(t, "automatic");
  return { a: t.server, b: t.server, store: t.server.games["store"] as Store, table };
}

async function onPostgres(): Promise<Setup> {
  const db = await pgSchema();
  open.push(db.drop);
  const clock = new FakeClock();
  const store = await db.open();
  const a = await serverOn(store, clock, { rateLimit: 0 });
  open.push(() => a.close());
  const b = await serverOn(await db.open(), clock, { rateLimit: 0, cluster: new DeafCluster() });
  open.push(() => b.close());
  const table = await setUpGame({ server: a }, "automatic");
  // B builds the game now, so later it holds a room that is behind (it hears no notification).
  expectOk(await new Client(() => b.app).get(`/api/games/${table.id}`));
  return { a, b, store, table };
}

const stores: [string, () => Promise<Setup>, boolean][] = [
  ["SQLite", onSqlite, true],
  ["PostgreSQL, the retry on another instance", onPostgres, pgAvailable],
];

describe.each(stores)("Idempotency-Key on %s (issue 28)", (_name, setUp, available) => {
  it.skipIf(!available)(
    "G1: a post sent twice with one key is stored once; the retry gets the first answer",
    async () => {
      const { a, b, store, table } = await setUp();
      const p = table.players[0]!;
      const url = `/api/games/${table.id}/posts`;
      const first = await keyed(a.app, p, "POST", url, "post-key-0001", { text: "Доброе утро" });
      expect(first.status).toBe(201);
      const again = await keyed(b.app, p, "POST", url, "post-key-0001", { text: "Доброе утро" });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(count(await kinds(store, table.id), "post")).toBe(1);
      const posts = await thread(p, table.id);
      expect(posts.filter((x) => x.html === "Доброе утро")).toHaveLength(1);
      // A new key is a new post.
      const other = await keyed(b.app, p, "POST", url, "post-key-0002", { text: "Доброе утро" });
      expect(other.status).toBe(201);
      expect(other.body).not.toEqual(first.body);
      expect(count(await kinds(store, table.id), "post")).toBe(2);
    },
  );

  it.skipIf(!available)(
    "the same key with another body is refused with 422 idempotency/mismatch, and nothing is stored",
    async () => {
      const { a, b, store, table } = await setUp();
      const p = table.players[1]!;
      const url = `/api/games/${table.id}/posts`;
      expectOk(await keyed(a.app, p, "POST", url, "mismatch-key-1", { text: "первый" }));
      const before = await kinds(store, table.id);
      const other = await keyed(b.app, p, "POST", url, "mismatch-key-1", { text: "второй" });
      expect(other.status).toBe(422);
      expect((other.body as { error: { code: string } }).error.code).toBe("idempotency/mismatch");
      expect(await kinds(store, table.id)).toEqual(before);
      expect((await thread(p, table.id)).some((x) => x.html.includes("второй"))).toBe(false);
    },
  );

  it.skipIf(!available)("keys are per user: another user's same key is their own write", async () => {
    const { a, b, store, table } = await setUp();
    const url = `/api/games/${table.id}/posts`;
    expectOk(await keyed(a.app, table.players[2]!, "POST", url, "shared-key-1", { text: "одно" }));
    expectOk(await keyed(b.app, table.players[3]!, "POST", url, "shared-key-1", { text: "одно" }));
    expect(count(await kinds(store, table.id), "post")).toBe(2);
  });

  it.skipIf(!available)(
    "V1: a vote, a night action and a message retried with their keys are stored once",
    async () => {
      const { a, b, store, table } = await setUp();
      const id = table.id;
      // Night 1: a night action (O1) by the doctor (the deal is random: a citizen has no night action to
      // pass), and the GM's message to that player's channel (G6).
      let doctor = -1;
      for (const [seat, p] of table.players.entries()) {
        const d = (await p.get<GameDetail>(`/api/games/${id}`)).body;
        expect(d.view!.phase.kind).toBe("night");
        if (d.roleCard?.role === "doctor") doctor = seat;
      }
      expect(doctor).toBeGreaterThanOrEqual(0);
      const doc = table.players[doctor]!;
      const act = { act: "pass" };
      expectOk(await keyed(a.app, doc, "POST", `/api/games/${id}/actions`, "act-key-01", act));
      expectOk(await keyed(b.app, doc, "POST", `/api/games/${id}/actions`, "act-key-01", act));
      const msg = { text: "Вопрос к тебе" };
      const channel = `/api/games/${id}/channels/gm:${doctor}`;
      const m1 = await keyed(a.app, table.gm, "POST", channel, "msg-key-001", msg);
      const m2 = await keyed(b.app, table.gm, "POST", channel, "msg-key-001", msg);
      expect(m1.status).toBe(201);
      expect(m2.status).toBe(201);
      let log = await kinds(store, id);
      expect(count(log, "act")).toBe(1);
      expect(count(log, "message")).toBe(1);
      // Day 1: a vote (V1).
      expectOk(await table.gm.post(`/api/games/${id}/gm/close`));
      const day = (await table.gm.get<GameDetail>(`/api/games/${id}`)).body;
      expect(day.view!.phase.kind).toBe("day");
      const voter = day.view!.seats.find((s) => s.alive && !s.cannotVote)!;
      const target = day.view!.seats.find((s) => s.alive && s.seat !== voter.seat)!;
      const vote = { color: "red", target: target.seat };
      const v = table.players[voter.seat]!;
      expectOk(await keyed(a.app, v, "POST", `/api/games/${id}/votes`, "vote-key-01", vote));
      const before = (await store.entries(id)).length;
      expectOk(await keyed(b.app, v, "POST", `/api/games/${id}/votes`, "vote-key-01", vote));
      log = await kinds(store, id);
      expect(log.length).toBe(before);
      expect(count(log, "vote")).toBe(1);
    },
  );

  it.skipIf(!available)(
    "the key is never shown: not in any answer, and the log keeps only its hash",
    async () => {
      const { a, b, store, table } = await setUp();
      const p = table.players[5]!;
      const key = "secret-key-Zq9xWv3";
      expectOk(await keyed(a.app, p, "POST", `/api/games/${table.id}/posts`, key, { text: "тайна" }));
      expectOk(await keyed(b.app, p, "POST", `/api/games/${table.id}/posts`, key, { text: "тайна" }));
      // The same key with another body: the refusal does not echo it either.
      expect(
        (await keyed(b.app, p, "POST", `/api/games/${table.id}/posts`, key, { text: "иное" })).status,
      ).toBe(422);
      for (const c of [table.gm, p, table.players[6]!]) {
        await c.get(`/api/games/${table.id}`);
        await c.get(`/api/games/${table.id}/posts`);
        expect(c.seen.join("\n").includes(key)).toBe(false);
      }
      expect(JSON.stringify(await store.entries(table.id)).includes(key)).toBe(false);
    },
  );

  it.skipIf(!available)(
    "a malformed key is refused with 400 naming the header, and nothing is stored",
    async () => {
      const { a, store, table } = await setUp();
      const before = await kinds(store, table.id);
      const r = await keyed(a.app, table.players[7]!, "POST", `/api/games/${table.id}/posts`, "short", {
        text: "текст",
      });
      expect(r.status).toBe(400);
      expect(r.raw).toContain("Idempotency-Key");
      expect(await kinds(store, table.id)).toEqual(before);
    },
  );
});

describe("Idempotency-Key in the API document (issue 28)", () => {
  it("each write that honours it lists the header; a read does not", async () => {
    const t = await testServer();
    open.push(() => t.close());
    const doc = (
      await new Client(() => t.server.app).get<{
        paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
      }>("/api/openapi.json")
    ).body;
    const hasKey = (path: string, method: string): boolean =>
      (doc.paths[path]?.[method]?.parameters ?? []).some(
        (p) => p.in === "header" && p.name === "Idempotency-Key",
      );
    for (const [path, method] of [
      ["/api/games/{id}/posts", "post"],
      ["/api/games/{id}/votes", "post"],
      ["/api/games/{id}/actions", "post"],
      ["/api/games/{id}/channels/{channel}", "post"],
      ["/api/games/{id}/signup", "post"],
      ["/api/games/{id}/signup", "delete"],
    ] as const)
      expect(hasKey(path, method), `${method} ${path}`).toBe(true);
    expect(hasKey("/api/games/{id}/posts", "get")).toBe(false);
  });
});
