import { mkdtempSync, rmSync } from "node:fs";
import { get, OutgoingMessage, ServerResponse, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { StreamItem } from "@forum-mafia/protocol/stream";
import type { FastifyInstance } from "fastify";
import { describe, expect, it, vi } from "vitest";
import { buildApp } from "../src/http/app.ts";
import { SESSION_DAYS } from "../src/accounts/auth.ts";
import { Demo } from "../src/demo/demo.ts";
import { Games } from "../src/log/games.ts";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import type { StreamLimits } from "../src/streams/connections.ts";
import { Client } from "./client.ts";
import { FakeClock, settle, testServer, type TestServer } from "./harness.ts";
import { expectOk, NICKS, setUpGame, SseStream, type SseEvent } from "./play.ts";

describe("the live stream", () => {
  it("sends each vote once, numbered 1…n, when many votes are stored in one commit; a reconnect sends the same", async () => {
    const t = await testServer();
    try {
      const table = await setUpGame(t, "automatic", { hand: [...DEFAULT_ROLES] });
      expectOk(await table.gm.post(`/api/games/${table.id}/gm/close`));
      await t.server.app.listen({ port: 0, host: "127.0.0.1" });
      const base = `http://127.0.0.1:${(t.server.app.server.address() as AddressInfo).port}`;
      const watcher = table.players[16]!;
      const live = await SseStream.open(base, table.id, { cookie: watcher.cookie, label: "live" });
      await live.until(() => true, "the backlog");
      const before = live.events.length;
      // Everyone but the watcher votes at once: the store commits them together (group commit).
      const voters = table.players.slice(0, 16);
      const replies = await Promise.all(
        voters.map((p, seat) =>
          p.post(`/api/games/${table.id}/votes`, { color: "red", target: (seat + 1) % 16 }),
        ),
      );
      const accepted = replies.filter((r) => r.status === 200).length;
      expect(accepted).toBeGreaterThan(10);
      // Issue 19: a vote comes as a `vote` item with today's votes and the count, as they stand when sent.
      const votes = (s: SseStream) =>
        s.events.filter((e) => (JSON.parse(e.data) as StreamItem).type === "vote");
      await live.until(() => votes(live).length >= accepted, "every vote");
      live.close();
      expect(votes(live).length).toBe(accepted);
      expect(live.events.map((e) => e.id)).toEqual(live.events.map((_, i) => i + 1));
      expect(live.events.length).toBeGreaterThan(before);
      const again = await SseStream.open(base, table.id, { cookie: watcher.cookie, label: "again" });
      await again.until((e) => e.id === live.events.length, "the same backlog");
      again.close();
      // The same items under the same ids; each carries its values as they stand now (stream.ts), so the
      // reconnect's last vote item holds what the live stream's last one held: every accepted vote.
      const kinds = (s: SseStream) => s.events.map((e) => [e.id, (JSON.parse(e.data) as StreamItem).type]);
      expect(kinds(again)).toEqual(kinds(live));
      const last = (s: SseStream) =>
        JSON.parse(votes(s).at(-1)!.data) as Extract<StreamItem, { type: "vote" }>;
      expect(last(again)).toEqual(last(live));
      expect(last(live).votes).toHaveLength(accepted);
    } finally {
      await t.close();
    }
  });
});

// ——— issue 11: caps on open streams, publication after the answer, sessions that end ———

/** Listen on a port of its own: a stream needs a real socket (inject does not stream). */
async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** One request for a stream: an accepted one is held open (and not read) until close(). */
interface Attempt {
  readonly status: number;
  readonly type: string;
  readonly body: unknown;
  close(): void;
}

async function attempt(base: string, id: string, cookie: string | null): Promise<Attempt> {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/games/${id}/stream`, {
    headers: cookie ? { cookie } : {},
    signal: abort.signal,
  });
  const type = res.headers.get("content-type") ?? "";
  if (res.status === 200) return { status: 200, type, body: null, close: () => abort.abort() };
  return { status: res.status, type, body: await res.json(), close: () => {} };
}

/** A stream closed by its client stops counting once the server sees its socket close: retry until then. */
async function acceptedSoon(base: string, id: string, cookie: string | null): Promise<Attempt> {
  for (let i = 0; i < 100; i++) {
    const a = await attempt(base, id, cookie);
    if (a.status === 200) return a;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the stream was never accepted");
}

const tooMany = (cap: string) => ({
  error: { code: "stream/too-many", message: expect.stringContaining(cap) as unknown },
});

async function newGame(gm: Client): Promise<string> {
  const created = await gm.post<{ id: string }>("/api/games", {
    title: "Потоки",
    night: { amount: 12, unit: "hours" },
    day: { amount: 24, unit: "hours" },
    mode: "automatic",
  });
  expectOk(created);
  return created.body.id;
}

/** An app with lowered stream caps (testServer takes the defaults), on a temporary SQLite file. */
async function cappedApp(
  limits: Partial<StreamLimits>,
): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "fm-streams-"));
  const store = new SqliteStore(join(dir, "forum-mafia.sqlite"));
  const clock = new FakeClock();
  const games = new Games(store, clock);
  const demo = new Demo(games, store, clock);
  const app = await buildApp({ store, clock, games, demo, rateLimit: 0, streamLimits: limits });
  return {
    app,
    async close() {
      app.server.closeAllConnections();
      await demo.stop();
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A stream whose client reads nothing until told to: its events are parsed then. */
class PausedStream {
  private text = "";
  private constructor(private readonly res: IncomingMessage) {}

  static open(base: string, id: string): Promise<PausedStream> {
    return new Promise((resolve, reject) => {
      get(`${base}/api/games/${id}/stream`, (res) => {
        res.pause();
        if (res.statusCode !== 200) reject(new Error(`stream refused: ${res.statusCode}`));
        else resolve(new PausedStream(res));
      }).on("error", reject);
    });
  }

  /** Read on until `marker` has come, and return every event so far. */
  async readUntil(marker: string): Promise<SseEvent[]> {
    this.res.setEncoding("utf8");
    await new Promise<void>((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error(`no ${marker} on the paused stream`)), 20_000);
      const check = (chunk: string): void => {
        this.text += chunk;
        if (!this.text.includes(marker)) return;
        clearTimeout(guard);
        this.res.off("data", check);
        resolve();
      };
      this.res.on("data", check);
      this.res.on("close", () => {
        clearTimeout(guard);
        reject(new Error(`the paused stream ended before ${marker}`));
      });
      this.res.resume();
    });
    const events: SseEvent[] = [];
    for (const block of this.text.split("\n\n")) {
      const id = /^id: (\d+)$/m.exec(block);
      const data = /^data: (.*)$/m.exec(block);
      if (id && data) events.push({ id: Number(id[1]), data: data[1]! });
    }
    return events;
  }

  close(): void {
    this.res.destroy();
  }
}

const ids = (events: readonly SseEvent[]): number[] => events.map((e) => e.id);
const run = (events: readonly SseEvent[]): number[] => events.map((_, i) => events[0]!.id + i);
const withText = (events: readonly SseEvent[], text: string): SseEvent[] =>
  events.filter((e) => e.data.includes(text));

describe("caps on open streams (issue 11)", () => {
  it("refuses a 9th anonymous stream from one address with 429 stream/too-many, and takes one again once a stream closes; a logged-in user is not held by that cap", async () => {
    const t = await testServer();
    const open: Attempt[] = [];
    try {
      const gm = new Client(() => t.server.app, "Ведущий");
      expectOk(await gm.register());
      const id = await newGame(gm);
      const base = await listen(t.server.app);
      for (let i = 0; i < 8; i++) {
        const a = await attempt(base, id, null);
        expect(a.status, `anonymous stream ${i + 1}`).toBe(200);
        open.push(a);
      }
      const ninth = await attempt(base, id, null);
      expect(ninth.status).toBe(429);
      expect(ninth.type).toMatch(/^application\/json/);
      expect(ninth.body).toEqual(tooMany("at most 8"));
      // The GM's own stream counts against the GM's cap, not the anonymous one.
      const mine = await attempt(base, id, gm.cookie);
      expect(mine.status).toBe(200);
      open.push(mine);
      open.shift()!.close();
      open.push(await acceptedSoon(base, id, null));
      expect((await attempt(base, id, null)).status).toBe(429);
    } finally {
      for (const a of open) a.close();
      t.server.app.server.closeAllConnections();
      await t.close();
    }
  });

  it("refuses a 9th stream of one user across two games, while another user from the same address is served; one closes, one more is taken", async () => {
    const t = await testServer();
    const open: Attempt[] = [];
    try {
      const gm = new Client(() => t.server.app, "Ведущий");
      expectOk(await gm.register());
      const other = new Client(() => t.server.app, "Зритель");
      expectOk(await other.register());
      const games = [await newGame(gm), await newGame(gm)];
      const base = await listen(t.server.app);
      for (let i = 0; i < 8; i++) {
        const a = await attempt(base, games[i % 2]!, gm.cookie);
        expect(a.status, `the GM's stream ${i + 1}`).toBe(200);
        open.push(a);
      }
      for (const id of games) {
        const refused = await attempt(base, id, gm.cookie);
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual(tooMany("at most 8 may be open at once per user"));
      }
      const theirs = await attempt(base, games[0]!, other.cookie);
      expect(theirs.status).toBe(200);
      open.push(theirs);
      open.shift()!.close();
      open.push(await acceptedSoon(base, games[1]!, gm.cookie));
      expect((await attempt(base, games[0]!, gm.cookie)).status).toBe(429);
    } finally {
      for (const a of open) a.close();
      t.server.app.server.closeAllConnections();
      await t.close();
    }
  });

  it("caps every stream from one address, logged in or not, and the caps are options", async () => {
    const s = await cappedApp({ perAddress: 3, perAnonymousAddress: 2, perUser: 1 });
    const open: Attempt[] = [];
    try {
      const users = ["Аня", "Борис", "Вика"].map((nick) => new Client(() => s.app, nick));
      for (const u of users) expectOk(await u.register());
      const id = await newGame(users[0]!);
      const base = await listen(s.app);
      open.push(await attempt(base, id, null), await attempt(base, id, null));
      expect((await attempt(base, id, null)).body).toEqual(tooMany("at most 2 may be open at once"));
      open.push(await attempt(base, id, users[0]!.cookie));
      expect(open.map((a) => a.status)).toEqual([200, 200, 200]);
      // Вика has no stream of her own yet, but the address has its 3.
      const third = await attempt(base, id, users[2]!.cookie);
      expect(third.status).toBe(429);
      expect(third.body).toEqual(tooMany("at most 3 may be open at once from one address"));
      open.shift()!.close();
      open.push(await acceptedSoon(base, id, users[2]!.cookie));
      expect((await attempt(base, id, users[2]!.cookie)).status).toBe(429);
    } finally {
      for (const a of open) a.close();
      await s.close();
    }
  });
});

describe("publication after the answer (issue 11)", () => {
  it("answers a post before its item is written to any stream; every stream, slow ones too, then gets each item once, in order, numbered on", async () => {
    const t = await testServer();
    const streams: SseStream[] = [];
    const paused: PausedStream[] = [];
    // Where each response is written, in one global order: the post's answer and the streams' items.
    const write = vi.spyOn(OutgoingMessage.prototype, "write");
    const end = vi.spyOn(OutgoingMessage.prototype, "end");
    try {
      const table = await setUpGame(t, "automatic", { hand: [...DEFAULT_ROLES] });
      const base = await listen(t.server.app);
      const watchers = [null, table.gm.cookie, table.players[0]!.cookie, table.players[16]!.cookie];
      for (const [i, cookie] of watchers.entries())
        streams.push(await SseStream.open(base, table.id, { cookie, label: `watcher ${i}` }));
      for (let i = 0; i < 4; i++) paused.push(await PausedStream.open(base, table.id));
      await Promise.all(streams.map((s) => s.until(() => true, "the backlog")));
      const before = streams.map((s) => s.events.length);
      const marks = ["MARK-1", "MARK-2", "MARK-3"];
      for (const text of marks) {
        const res = await fetch(`${base}/api/games/${table.id}/posts`, {
          method: "POST",
          headers: { cookie: table.gm.cookie!, "content-type": "application/json" },
          body: JSON.stringify({ text }),
        });
        expect(res.status).toBe(201);
        await res.text();
      }
      await Promise.all(streams.map((s) => s.until((e) => e.data.includes("MARK-3"), "MARK-3")));
      const slow = await Promise.all(paused.map((p) => p.readUntil("MARK-3")));

      for (const [i, s] of streams.entries()) {
        expect(ids(s.events), s.label).toEqual(run(s.events));
        expect(s.events[0]!.id, s.label).toBe(1);
        const got = s.events.slice(before[i]!);
        expect(
          got.map((e) => marks.find((m) => e.data.includes(m))),
          `${s.label}: the posts once each, in order`,
        ).toEqual(marks);
      }
      for (const events of slow) {
        expect(ids(events)).toEqual(run(events));
        expect(marks.map((m) => withText(events, m).length)).toEqual([1, 1, 1]);
        expect(events.map((e) => e.data)).toEqual(streams[0]!.events.map((e) => e.data));
      }

      // The answers and the streams' writes, in the order they happened on the server.
      const order = (
        spy: typeof write | typeof end,
        match: (chunk: string, res: ServerResponse) => boolean,
      ) =>
        spy.mock.calls.flatMap((args, i) => {
          const res: unknown = spy.mock.contexts[i];
          return res instanceof ServerResponse && match(String(args[0] ?? ""), res)
            ? [spy.mock.invocationCallOrder[i]!]
            : [];
        });
      for (const mark of marks) {
        const answered = order(
          end,
          (_, res) => res.req.method === "POST" && (res.req.url ?? "").endsWith("/posts"),
        )[marks.indexOf(mark)]!;
        const sent = order(write, (chunk) => chunk.includes(mark));
        expect(sent.length, `${mark} written to the streams`).toBe(streams.length + paused.length);
        expect(
          Math.min(...sent),
          `${mark}: the answer is sent before the streams are written`,
        ).toBeGreaterThan(answered);
      }
    } finally {
      write.mockRestore();
      end.mockRestore();
      for (const s of streams) s.close();
      for (const p of paused) p.close();
      t.server.app.server.closeAllConnections();
      await t.close();
    }
  });

  it("a stream opened after a commit is durable but before its publication gets each item exactly once", async () => {
    const t = await testServer();
    const streams: SseStream[] = [];
    // Holds one stream request in its preHandler until released.
    let hold: { reached: () => void; gate: Promise<void> } | null = null;
    t.server.app.addHook("preHandler", async (req) => {
      if (!hold || !req.url.includes("/stream")) return;
      const h = hold;
      hold = null;
      h.reached();
      await h.gate;
    });
    try {
      const table = await setUpGame(t, "automatic", { hand: [...DEFAULT_ROLES] });
      const base = await listen(t.server.app);
      const live = await SseStream.open(base, table.id, { cookie: null, label: "live" });
      streams.push(live);
      await live.until(() => true, "the backlog");

      let release = (): void => {};
      const gate = new Promise<void>((r) => (release = r));
      let reached = (): void => {};
      const arrived = new Promise<void>((r) => (reached = r));
      hold = { reached, gate };
      const late = SseStream.open(base, table.id, { cookie: null, label: "late" });
      await arrived;
      // Released as soon as the post is durable: after the streams are told, before they are written.
      const stop = t.server.games.listen((room, from, to) => {
        if (room.id !== table.id || to === from) return;
        stop();
        release();
      });
      expectOk(await table.gm.post(`/api/games/${table.id}/posts`, { text: "MARK-race" }));
      const s = await late;
      streams.push(s);
      expectOk(await table.gm.post(`/api/games/${table.id}/posts`, { text: "MARK-after" }));
      await Promise.all(streams.map((x) => x.until((e) => e.data.includes("MARK-after"), "MARK-after")));
      const fresh = await SseStream.open(base, table.id, { cookie: null, label: "fresh" });
      streams.push(fresh);
      await fresh.until((e) => e.data.includes("MARK-after"), "MARK-after");

      for (const x of [live, s]) {
        expect(ids(x.events), x.label).toEqual(run(x.events));
        expect(withText(x.events, "MARK-race").length, x.label).toBe(1);
        expect(withText(x.events, "MARK-after").length, x.label).toBe(1);
      }
      expect(s.events.map((e) => e.data)).toEqual(fresh.events.map((e) => e.data));
      expect(ids(s.events)).toEqual(ids(fresh.events));
    } finally {
      for (const x of streams) x.close();
      t.server.app.server.closeAllConnections();
      await t.close();
    }
  });
});

describe("a client that stops reading (issue 11)", () => {
  it("is cut off once its unread buffer passes the limit, instead of holding memory; the others go on", async () => {
    const t = await testServer();
    const streams: SseStream[] = [];
    const paused: PausedStream[] = [];
    // Issue 19: the server ends such a stream with a reset (and cuts it off if it never reads it).
    const end = vi.spyOn(ServerResponse.prototype, "end");
    try {
      const table = await setUpGame(t, "automatic", { hand: [...DEFAULT_ROLES] });
      const base = await listen(t.server.app);
      const reader = await SseStream.open(base, table.id, { cookie: null, label: "a reader" });
      streams.push(reader);
      const stuck = await PausedStream.open(base, table.id);
      paused.push(stuck);
      const cut = () =>
        end.mock.contexts.some(
          (res: unknown, i) =>
            res instanceof ServerResponse &&
            res.req.url?.includes("/stream") &&
            String(end.mock.calls[i]?.[0]).startsWith("event: reset"),
        );
      // Posts of about 40 KB as sent (10,000 two-byte letters, and their HTML): the default limit is 4 MiB,
      // and the kernel's socket buffers hold some more before the server's own buffer grows.
      const big = "ж".repeat(9_900);
      let n = 0;
      for (; n < 2_500 && !cut(); n += 10)
        await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            table.gm
              .post(`/api/games/${table.id}/posts`, { text: `MARK-big-${n + i} ${big}` })
              .then(expectOk),
          ),
        );
      await settle();
      expect(cut(), `cut off after ${n} posts`).toBe(true);
      expectOk(await table.gm.post(`/api/games/${table.id}/posts`, { text: "MARK-last" }));
      await reader.until((e) => e.data.includes("MARK-last"), "the last post");
      expect(ids(reader.events)).toEqual(run(reader.events));
      expect(withText(reader.events, "MARK-big-").length).toBe(n);
      await expect(stuck.readUntil("MARK-last")).rejects.toThrow(/ended|no MARK-last/);
    } finally {
      end.mockRestore();
      for (const x of streams) x.close();
      for (const p of paused) p.close();
      t.server.app.server.closeAllConnections();
      await t.close();
    }
  });
});

describe("a session's streams end with it (issue 11)", () => {
  const BOSS = NICKS.indexOf("Аня");
  const TROLL = NICKS.indexOf("Борис");

  it("logout ends the player's open stream at once, and it receives nothing more: no mafia chat, no GM message", async () => {
    const t = await testServer();
    const streams: SseStream[] = [];
    try {
      const table = await setUpGame(t, "automatic", { hand: [...DEFAULT_ROLES] });
      const base = await listen(t.server.app);
      const boss = table.players[BOSS]!;
      const troll = table.players[TROLL]!;
      const mine = await SseStream.open(base, table.id, { cookie: boss.cookie, label: "the boss" });
      const ally = await SseStream.open(base, table.id, { cookie: troll.cookie, label: "the troll" });
      streams.push(mine, ally);
      const url = `/api/games/${table.id}/channels`;
      expectOk(await troll.post(`${url}/mafia`, { text: "MARK-before" }));
      await mine.until((e) => e.data.includes("MARK-before"), "the mafia chat before the logout");

      const cookie = boss.cookie;
      expectOk(await boss.post("/api/logout"));
      await mine.closedByServer(2_000);
      expect(mine.reset, "the client is told to start again").toBe(true);
      const seen = mine.events.length;

      expectOk(await troll.post(`${url}/mafia`, { text: "MARK-mafia-after" }));
      expectOk(await table.gm.post(`${url}/gm:${BOSS}`, { text: "MARK-gm-after" }));
      expectOk(await table.gm.post(`/api/games/${table.id}/posts`, { text: "MARK-sync" }));
      await ally.until((e) => e.data.includes("MARK-sync"), "the sentinel");
      expect(withText(ally.events, "MARK-mafia-after")).toHaveLength(1);
      expect(mine.events.length).toBe(seen);
      // The old cookie opens the public's stream now.
      const again = await SseStream.open(base, table.id, { cookie, label: "the old cookie" });
      streams.push(again);
      await again.until((e) => e.data.includes("MARK-sync"), "the sentinel");
      expect(again.events.filter((e) => /MARK-(before|mafia-after|gm-after)/.test(e.data))).toEqual([]);
    } finally {
      for (const s of streams) s.close();
      t.server.app.server.closeAllConnections();
      await t.close();
    }
  });

  it("a stream whose session expires is closed when it expires, not before", async () => {
    const t: TestServer = await testServer();
    const streams: SseStream[] = [];
    try {
      const gm = new Client(() => t.server.app, "Ведущий");
      expectOk(await gm.register());
      const id = await newGame(gm);
      const base = await listen(t.server.app);
      const s = await SseStream.open(base, id, { cookie: gm.cookie, label: "the GM" });
      streams.push(s);
      await settle(); // the stream has read its session's expiry
      await t.clock.advance(SESSION_DAYS * 86_400_000 - 60_000);
      // Still live: a signup reaches it.
      const player = new Client(() => t.server.app, "Аня");
      expectOk(await player.register());
      expectOk(await player.post(`/api/games/${id}/signup`));
      await s.until((e) => e.data.includes("Аня"), "the signup");
      expect(s.ended).toBe(false);
      await t.clock.advance(60_000);
      await s.closedByServer(2_000);
      expect(s.reset).toBe(true);
    } finally {
      for (const x of streams) x.close();
      t.server.app.server.closeAllConnections();
      await t.close();
    }
  });
});
