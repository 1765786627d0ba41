import type { AddressInfo } from "node:net";
import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { GameDetail, Lang, PostView } from "@forum-mafia/protocol";
import { applyStreamItem, type StreamItem } from "@forum-mafia/protocol/stream";
import { describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { settle, testServer, type TestServer } from "./harness.ts";
import {
  dayTurn,
  DAY_MS,
  expectOk,
  NICKS,
  NIGHT_MS,
  nightTurn,
  pick,
  reviewNight,
  rng,
  sseBlocks,
} from "./play.ts";

/**
 * Issue 19: the live stream carries what changed, and a client that applies each item to the detail it
 * holds (protocol's applyStreamItem, what the web app runs) holds exactly what a fresh GET /api/games/:id
 * would give it. The oracle is the server's own fresh detail, fetched at quiet moments, for every kind of
 * viewer: the GM, each of the 17 players (in Russian and in English), a guest in each language and a
 * signed-in spectator who later takes a seat (P4). It also checks the stream never skips an id, and that
 * a client refetches only after a reset: the start (a player takes a seat), a seat changing hands (P4), a
 * channel opened to a dead player (G8) and the end (R3).
 */

interface Event {
  readonly id: number | null;
  readonly reset: boolean;
  readonly data: string;
}

/** A client as the web app is one: a detail, the thread, a stream whose items are applied to them. */
class Mirror {
  detail!: GameDetail;
  readonly posts = new Map<string, PostView>();
  lastId = 0;
  /** Detail fetches after the first, and why. */
  readonly refetches: string[] = [];
  readonly gaps: string[] = [];
  private abort: AbortController | null = null;
  private busy: Promise<void> = Promise.resolve();

  constructor(
    readonly label: string,
    private readonly base: string,
    private readonly id: string,
    readonly cookie: string | null,
    readonly lang: Lang,
    readonly nick: string | null,
  ) {}

  async start(): Promise<void> {
    await this.load();
  }

  private headers(): Record<string, string> {
    return this.cookie ? { cookie: this.cookie } : {};
  }

  private async load(): Promise<void> {
    this.abort?.abort();
    const res = await fetch(`${this.base}/api/games/${this.id}?lang=${this.lang}`, {
      headers: this.headers(),
    });
    this.detail = (await res.json()) as GameDetail;
    this.lastId = this.detail.streamAt;
    const posts = await fetch(`${this.base}/api/games/${this.id}/posts?after=0&limit=500`, {
      headers: this.headers(),
    });
    if (posts.ok)
      for (const p of ((await posts.json()) as { posts: PostView[] }).posts) this.posts.set(p.id, p);
    const abort = new AbortController();
    this.abort = abort;
    const stream = await fetch(
      `${this.base}/api/games/${this.id}/stream?after=${this.lastId}&lang=${this.lang}`,
      { headers: this.headers(), signal: abort.signal },
    );
    if (stream.status !== 200 || !stream.body) throw new Error(`${this.label}: stream ${stream.status}`);
    void this.pump(stream.body, abort);
  }

  private refetch(why: string): void {
    this.refetches.push(why);
    // The old stream is done with: nothing more from it is applied.
    this.abort?.abort();
    this.busy = this.busy.then(() => this.load());
  }

  private async pump(body: ReadableStream<Uint8Array>, abort: AbortController): Promise<void> {
    try {
      await sseBlocks(
        body,
        (block) => {
          if (this.abort === abort) this.take(parse(block));
        },
        () => abort.signal.aborted,
      );
    } catch {
      // aborted: a new stream took its place
    }
  }

  private take(e: Event | null): void {
    if (e === null) return;
    if (e.reset) return this.refetch("reset");
    if (e.id === null) return;
    if (e.id <= this.lastId) return; // a repeat
    if (e.id !== this.lastId + 1) {
      this.gaps.push(`${this.lastId} → ${e.id}`);
      return this.refetch("gap");
    }
    const item = JSON.parse(e.data) as StreamItem;
    if (item.type === "post") this.posts.set(item.post.id, item.post);
    if (item.type === "postHidden") {
      const p = this.posts.get(item.id);
      if (p) this.posts.set(item.id, { ...p, html: "", hidden: { reason: item.reason } });
    }
    const next = applyStreamItem(this.detail, e.id, item, this.nick);
    if (next === null) return this.refetch("cannot apply");
    this.detail = next;
    this.lastId = e.id;
  }

  close(): void {
    this.abort?.abort();
  }
}

function parse(block: string): Event | null {
  let id: number | null = null;
  let data = "";
  let reset = false;
  for (const line of block.split("\n")) {
    if (line === "event: reset") reset = true;
    else if (line.startsWith("id: ")) id = Number(line.slice(4));
    else if (line.startsWith("data: ")) data = line.slice(6);
  }
  return reset || id !== null ? { id, reset, data } : null;
}

/** What a client applies items to: the detail without the server's read marks (the web app keeps its own). */
const held = (d: GameDetail): GameDetail => ({ ...d, unread: null });

async function waitFor(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

interface Game {
  readonly t: TestServer;
  readonly base: string;
  readonly id: string;
  readonly gm: Client;
  readonly players: Client[];
  readonly mirrors: Mirror[];
  checks: number;
}

/** Every mirror, once it has applied its stream up to a fresh detail's position, holds that detail. */
async function check(g: Game, when: string): Promise<void> {
  await settle();
  for (const m of g.mirrors) {
    const res = await fetch(`${g.base}/api/games/${g.id}?lang=${m.lang}`, {
      headers: m.cookie ? { cookie: m.cookie } : {},
    });
    const fresh = (await res.json()) as GameDetail;
    await waitFor(`${m.label} to reach ${fresh.streamAt} (${when})`, () => m.lastId >= fresh.streamAt);
    expect(m.gaps, `${m.label}: ids skipped (${when})`).toEqual([]);
    expect(held(m.detail), `${m.label} (${when})`).toEqual(held(fresh));
    const posts = await fetch(`${g.base}/api/games/${g.id}/posts?after=0&limit=500`, {
      headers: m.cookie ? { cookie: m.cookie } : {},
    });
    if (posts.ok)
      expect([...m.posts.values()], `${m.label}: the thread (${when})`).toEqual(
        ((await posts.json()) as { posts: PostView[] }).posts,
      );
  }
  g.checks++;
}

async function setUp(mode: "automatic" | "review"): Promise<Game> {
  const t = await testServer();
  await t.server.app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(t.server.app.server.address() as AddressInfo).port}`;
  const app = () => t.server.app;
  const gm = new Client(app, "Ведущий");
  expectOk(await gm.register());
  const created = await gm.post<{ id: string }>("/api/games", {
    title: "Живая партия",
    night: { amount: 12, unit: "hours" },
    day: { amount: 24, unit: "hours" },
    mode,
  });
  expectOk(created);
  const id = created.body.id;
  const g: Game = { t, base, id, gm, players: [], mirrors: [], checks: 0 };
  const watch = async (label: string, c: Client | null, lang: Lang): Promise<Mirror> => {
    const m = new Mirror(label, base, id, c?.cookie ?? null, lang, c?.nick ?? null);
    await m.start();
    g.mirrors.push(m);
    return m;
  };
  await watch("a guest", null, "ru");
  await watch("a guest (en)", null, "en");
  const spectator = new Client(app, "Зритель");
  expectOk(await spectator.register());
  g.players.push(spectator);
  await watch("the spectator", spectator, "ru");
  await watch("the GM", gm, "ru");
  // The lobby: each signup is a `lobby` item; the players watch from the start (their place in the list).
  for (const [i, nick] of NICKS.entries()) {
    const c = new Client(app, nick);
    expectOk(await c.register());
    await watch(nick, c, i % 2 === 0 ? "ru" : "en");
    expectOk(await c.post(`/api/games/${id}/signup`));
    g.players.splice(g.players.length - 1, 0, c);
  }
  // The spectator stays last in `players`: the 17 seated players come first, in seat order.
  await check(g, "the lobby");
  expectOk(await gm.post(`/api/games/${id}/start`, { deal: { hand: [...DEFAULT_ROLES] } }));
  await check(g, "the start");
  return g;
}

const detailOf = async (c: Client, id: string): Promise<GameDetail> =>
  (await c.get<GameDetail>(`/api/games/${id}`)).body;

/** A night: everyone with a form acts, a channel message or two, a check in the middle; then the deadline. */
async function night(g: Game, r: () => number, mode: "automatic" | "review"): Promise<void> {
  const seated = g.players.slice(0, 17);
  for (const [i, p] of seated.entries()) {
    const d = await nightTurn(p, g.id, r);
    const writable = d.channels.filter((c) => c.canPost);
    if (writable.length > 0 && r() < 0.3)
      expectOk(await p.post(`/api/games/${g.id}/channels/${pick(r, writable).id}`, { text: `ночью ${i}` }));
    if (i === 8) await check(g, "mid-night");
  }
  expectOk(
    await g.gm.post(`/api/games/${g.id}/channels/gm:${Math.floor(r() * 17)}`, { text: "от ведущего" }),
  );
  await g.t.clock.advance(NIGHT_MS);
  if (mode === "review") {
    await check(g, "the night in review");
    await reviewNight(g.gm, g.id, r);
  }
}

/** A day: posts and votes (by tap and by a coloured nick), a hidden and restored post, a pause and an extension. */
async function day(g: Game, r: () => number, dayNo: number): Promise<void> {
  for (const [i, p] of g.players.slice(0, 17).entries()) {
    await dayTurn(p, g.id, r);
    if (i === 6) await check(g, `mid-day ${dayNo}`);
  }
  const posts = (await g.gm.get<{ posts: PostView[] }>(`/api/games/${g.id}/posts?after=0&limit=500`)).body
    .posts;
  const last = posts.at(-1);
  if (last) {
    expectOk(await g.gm.post(`/api/games/${g.id}/posts/${last.id}/hide`, { reason: "оффтоп" }));
    await check(g, "a post hidden");
    expectOk(await g.gm.post(`/api/games/${g.id}/posts/${last.id}/restore`, { reason: "ошибка" }));
  }
  expectOk(await g.gm.post(`/api/games/${g.id}/gm/pause`));
  await check(g, "paused");
  expectOk(await g.gm.post(`/api/games/${g.id}/gm/resume`));
  expectOk(await g.gm.post(`/api/games/${g.id}/gm/extend`, { minutes: 30 }));
  await g.t.clock.advance(DAY_MS + 30 * 60_000);
}

async function playWhole(mode: "automatic" | "review", seed: number): Promise<Game> {
  const g = await setUp(mode);
  const r = rng(seed);
  let replaced = false;
  for (let phase = 0; phase < 60; phase++) {
    const d = await detailOf(g.gm, g.id);
    if (d.summary.status === "ended") break;
    if (d.view!.phase.kind === "night") await night(g, r, mode);
    else {
      // P4: on day 2 the spectator takes a living player's seat.
      if (!replaced && d.view!.phase.number === 2) {
        const seat = d.view!.seats.find((s) => s.alive)!.seat;
        const res = await g.gm.post(`/api/games/${g.id}/gm/replace`, {
          seat,
          nick: "Зритель",
          reason: "пропал",
        });
        expectOk(res);
        replaced = true;
        g.players[seat] = g.players[17]!;
        await check(g, "a replacement");
      }
      await day(g, r, d.view!.phase.number);
    }
    await check(g, `phase ${phase + 1}`);
  }
  expect((await detailOf(g.gm, g.id)).summary.status).toBe("ended");
  return g;
}

describe("stream items applied to a detail equal a fresh detail (issue 19)", { timeout: 240_000 }, () => {
  for (const [mode, seed] of [
    ["automatic", 19],
    ["review", 1919],
  ] as const)
    it(`${mode} mode: every viewer's applied stream equals its fresh detail at every check, with refetches only after a reset`, async () => {
      const g = await playWhole(mode, seed);
      try {
        expect(g.checks).toBeGreaterThan(10);
        for (const m of g.mirrors) {
          // No gap, and nothing the client could not apply: every refetch followed a reset.
          expect(
            m.refetches.filter((w) => w !== "reset"),
            m.label,
          ).toEqual([]);
          expect(m.gaps, m.label).toEqual([]);
        }
        // The end (R3) resets everyone; the start resets those who took a seat.
        for (const m of g.mirrors) expect(m.refetches.length, m.label).toBeGreaterThanOrEqual(1);
        const guest = g.mirrors[0]!;
        expect(guest.refetches, "a guest is reset only at the end").toEqual(["reset"]);
        // R3: a client that holds something from before the end and resumes after it is told to start
        // again, as the live streams were; one that holds nothing gets the whole stream.
        const resumed = await (await fetch(`${g.base}/api/games/${g.id}/stream?after=1`)).text();
        expect(resumed).toContain("event: reset");
        expect(resumed).not.toMatch(/^id: /m);
        const whole = await fetch(`${g.base}/api/games/${g.id}/stream?after=0`);
        const reader = whole.body!.getReader();
        let head = "";
        while (!head.includes("\n\nid: 2\n")) {
          const { value, done } = await reader.read();
          if (done) break;
          head += new TextDecoder().decode(value);
        }
        await reader.cancel();
        expect(head).toMatch(/^id: 1$/m);
        expect(head).not.toContain("event: reset");
      } finally {
        for (const m of g.mirrors) m.close();
        g.t.server.app.server.closeAllConnections();
        await g.t.close();
      }
    });
});
