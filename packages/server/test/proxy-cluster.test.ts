import type { GameDetail, PostView } from "@forum-mafia/protocol";
import { applyStreamItem, type StreamItem } from "@forum-mafia/protocol/stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type Reply } from "./client.ts";
import {
  freePort,
  haproxyMissing,
  SERVED_BY,
  startHaproxy,
  startInstances,
  type Haproxy,
  type Instances,
} from "./haproxy.ts";
import { PG_URL, pgAvailable } from "./pg.ts";
import { dayTurn, expectOk, NICKS, nightTurn, rng, sseBlocks } from "./play.ts";

/**
 * Issue 20 as deployed: two server processes on one PostgreSQL database behind Debian's haproxy,
 * round-robin, every request through the proxy. A whole game of nine is played; on day 1, while a burst of
 * posts, votes and reads is in flight, one instance is killed with SIGKILL. The proxy stops sending to it, the
 * game goes on to its end through the other, every acknowledged write is in the game, and the live pages
 * whose stream was on the dead instance resume with Last-Event-ID on the other without a gap or a repeat,
 * holding what a fresh detail holds.
 */

/** A game of nine (the «Малая» preset's roles, S3), so a whole game stays short. */
const SMALL9 = ["boss", "thug", "maniac", "sheriff", "doctor", "citizen", "citizen", "citizen", "citizen"];

/** Every game's seed (F1): the same deal and night outcomes each run, so the game's length stays the same. */
const SEED = process.env.PROXY_SEED ?? "pr0xy1";

const missing = haproxyMissing();
if (missing) console.warn(`skipping the proxy cluster test: ${missing}`);

/** Which instance answered each request (haproxy's SERVED_BY header), and how often a read was retried. */
interface Traffic {
  readonly served: Map<string, number>;
  retriedReads: number;
}

/**
 * An answer the request got because its instance died under it: the connection dropped (status 0 here), or
 * haproxy's own 502/503/504 (not the API's JSON error: a 503 `game/busy` from the app is a refusal, not a
 * loss). A write that got one may or may not have been done.
 */
const lostAnswer = (r: { status: number; raw: string }): boolean =>
  r.status === 0 || ([502, 503, 504].includes(r.status) && !r.raw.startsWith('{"error"'));

/**
 * A user of the API through the proxy over real HTTP, shaped as the test drivers' Client (play.ts's turns
 * take it), with its session cookie and the site's Origin as a browser sends them. A read that fails
 * because its instance died under it is sent again (it changes nothing); a write is never repeated: the
 * caller sees the failure (status 0 for a dropped connection) and the test checks what was kept.
 */
/** How often a lost read is sent, and the pause before the n-th retry (n × this): 1.5 s in all. */
const READ_ATTEMPTS = 6;
const RETRY_PAUSE_MS = 100;

class ProxyClient extends Client {
  constructor(
    readonly base: string,
    nick: string,
    private readonly traffic: Traffic,
  ) {
    super(() => {
      throw new Error("ProxyClient goes through the proxy, not inject");
    }, nick);
  }

  override async req<T = Record<string, unknown>>(
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    body?: unknown,
  ): Promise<Reply<T>> {
    // A read haproxy could not deliver is asked again after a pause, as a browser's retry would be: right
    // after a kill, haproxy answers 502 until its next health check (every 500 ms) marks the instance down,
    // and three retries at once could all fall in that half second under load.
    for (let attempt = 1; ; attempt++) {
      const reply = await this.once<T>(method, url, body);
      if (method !== "GET" || !lostAnswer(reply) || attempt === READ_ATTEMPTS) return reply;
      this.traffic.retriedReads++;
      await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS * attempt));
    }
  }

  private async once<T>(method: string, url: string, body?: unknown): Promise<Reply<T>> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${url}`, {
        method,
        headers: {
          origin: this.base,
          ...(this.cookie ? { cookie: this.cookie } : {}),
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      return { status: 0, body: null as T, raw: String(error) };
    }
    const by = res.headers.get(SERVED_BY);
    if (by) this.traffic.served.set(by, (this.traffic.served.get(by) ?? 0) + 1);
    const set = res.headers.getSetCookie()[0];
    if (set) {
      const pair = set.split(";")[0]!;
      this.cookie = pair.endsWith("=") ? null : pair;
    }
    let raw: string;
    try {
      raw = await res.text();
    } catch (error) {
      // The connection dropped in the middle of the answer: as good as none.
      return { status: 0, body: null as T, raw: String(error) };
    }
    this.seen.push(raw);
    let parsed: unknown = null;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      parsed = raw;
    }
    return { status: res.status, body: parsed as T, raw };
  }
}

/**
 * A page of the web app as far as the game goes, through the proxy: the detail, the thread, and the live
 * stream whose items it applies with the protocol's reducer (what use-game.ts runs). When the stream's
 * connection drops (its instance died) it opens it again with Last-Event-ID, the last id it applied, as
 * EventSource does; after `event: reset` it fetches the detail again and opens the stream after it. An id
 * that skips one is a gap, one it already has a repeat: both are recorded, never smoothed over.
 */
class Mirror {
  detail!: GameDetail;
  readonly posts = new Map<string, PostView>();
  lastId = 0;
  readonly gaps: string[] = [];
  readonly repeats: number[] = [];
  /** The instance that served each stream connection, in order, with what opened it. */
  readonly connections: { by: string; after: "start" | "reset" | "dropped" }[] = [];
  /** Whether a stream connection is open and has not been told to start again. */
  open = false;
  private closed = false;
  private readonly abort = new AbortController();
  private running: Promise<void> = Promise.resolve();

  constructor(
    readonly label: string,
    private readonly client: ProxyClient,
    private readonly id: string,
  ) {}

  /** Load the detail and open the stream (resolves once the first connection is open). */
  async start(): Promise<void> {
    await this.load();
    this.running = this.loop();
    while (this.connections.length === 0) {
      if (this.failed) throw this.failed;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  private failed: unknown = null;

  private async load(): Promise<void> {
    const d = await this.client.get<GameDetail>(`/api/games/${this.id}`);
    if (d.status !== 200) throw new Error(`${this.label}: the detail: ${d.status} ${d.raw}`);
    this.detail = d.body;
    this.lastId = d.body.streamAt;
    const posts = await this.client.get<{ posts: PostView[] }>(`/api/games/${this.id}/posts?limit=500`);
    this.posts.clear();
    for (const p of posts.body.posts) this.posts.set(p.id, p);
  }

  private async loop(): Promise<void> {
    let why: "start" | "reset" | "dropped" = "start";
    for (let failures = 0; !this.closed;) {
      let reset = false;
      try {
        const res = await fetch(`${this.client.base}/api/games/${this.id}/stream?after=${this.lastId}`, {
          headers: {
            ...(this.client.cookie ? { cookie: this.client.cookie } : {}),
            // What EventSource sends when it reconnects; it wins over ?after= on the server.
            ...(why === "dropped" ? { "last-event-id": String(this.lastId) } : {}),
          },
          signal: this.abort.signal,
        });
        if (res.status !== 200 || !res.body) throw new Error(`${this.label}: stream refused: ${res.status}`);
        this.connections.push({ by: res.headers.get(SERVED_BY) ?? "?", after: why });
        failures = 0;
        this.open = true;
        await sseBlocks(
          res.body,
          (block) => {
            reset ||= this.take(block);
            if (reset) this.open = false;
          },
          () => reset,
        );
      } catch (error) {
        this.open = false;
        if (this.closed) return;
        if (++failures > 20) {
          this.failed = error;
          return;
        }
      }
      this.open = false;
      if (this.closed) return;
      if (reset) {
        why = "reset";
        try {
          await this.load();
        } catch (error) {
          this.failed = error;
          return;
        }
      } else {
        why = "dropped";
        // EventSource waits the server's `retry:` (2 s); a test need not.
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Apply one event; true when it is a reset (the stream is then left). */
  private take(block: string): boolean {
    let id: number | null = null;
    let data = "";
    for (const line of block.split("\n")) {
      if (line === "event: reset") return true;
      if (line.startsWith("id: ")) id = Number(line.slice(4));
      else if (line.startsWith("data: ")) data = line.slice(6);
    }
    if (id === null) return false;
    if (id <= this.lastId) {
      this.repeats.push(id);
      return false;
    }
    if (id !== this.lastId + 1) {
      this.gaps.push(`${this.lastId} → ${id}`);
      return true;
    }
    const item = JSON.parse(data) as StreamItem;
    if (item.type === "post") this.posts.set(item.post.id, item.post);
    if (item.type === "postHidden") {
      const p = this.posts.get(item.id);
      if (p) this.posts.set(item.id, { ...p, html: "", hidden: { reason: item.reason } });
    }
    const next = applyStreamItem(this.detail, id, item, this.client.nick || null);
    if (next === null) return true;
    this.detail = next;
    this.lastId = id;
    return false;
  }

  /** Once it has applied its stream up to a fresh detail's position, it holds that detail and thread. */
  async check(when: string): Promise<void> {
    const fresh = await this.client.get<GameDetail>(`/api/games/${this.id}`);
    const until = Date.now() + 20_000;
    while (this.lastId < fresh.body.streamAt && this.gaps.length + this.repeats.length === 0) {
      if (this.failed) throw this.failed;
      if (Date.now() > until)
        throw new Error(`${this.label}: at ${this.lastId}, not ${fresh.body.streamAt} (${when})`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(this.gaps, `${this.label}: ids skipped (${when})`).toEqual([]);
    expect(this.repeats, `${this.label}: ids repeated (${when})`).toEqual([]);
    expect(held(this.detail), `${this.label} (${when})`).toEqual(held(fresh.body));
    const posts = await this.client.get<{ posts: PostView[] }>(`/api/games/${this.id}/posts?limit=500`);
    expect([...this.posts.values()], `${this.label}: the thread (${when})`).toEqual(posts.body.posts);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.abort.abort();
    await this.running;
  }
}

/** What a client applies items to: the detail without the server's read marks (the web app keeps its own). */
const held = (d: GameDetail): GameDetail => ({ ...d, unread: null });

describe.skipIf(missing !== null || !pgAvailable)(
  "issue 20: two instances behind haproxy, one killed mid-game",
  { timeout: 240_000 },
  () => {
    let proxy: Haproxy;
    let cluster: Instances;
    const traffic: Traffic = { served: new Map(), retriedReads: 0 };
    /** The live pages a test opened, closed after it whatever happens. */
    const pages: Mirror[] = [];

    beforeAll(async () => {
      const port = await freePort();
      const site = `127.0.0.1:${port}`;
      cluster = await startInstances(2, { pgUrl: PG_URL, publicUrl: `http://${site}`, seed: SEED });
      proxy = await startHaproxy({
        port,
        backends: cluster.list.map((i) => ({ name: i.name, port: i.port })),
        host: () => site,
      });
      await proxy.waitFor({ i0: "UP", i1: "UP" });
    }, 90_000);

    afterAll(async () => {
      await Promise.all(pages.map((m) => m.close()));
      await proxy?.stop();
      await cluster?.stop();
    });

    /** What the instances said on stderr, for a failure's message. */
    const stderr = () => cluster.list.map((i) => `${i.name}: ${i.stderr().slice(-2000)}`).join("\n");

    it("a whole game is played through the proxy; a kill -9 loses no acknowledged write and no stream item", async () => {
      const r = rng(2020);
      const user = (nick: string) => new ProxyClient(proxy.url, nick, traffic);
      const gm = user("Ведущий");
      const players = NICKS.slice(0, SMALL9.length).map(user);
      // Sessions are in the database: a cookie made on one instance works on the others.
      for (const c of [gm, ...players]) expectOk(await c.register());
      const created = await gm.post<{ id: string }>("/api/games", {
        title: "Партия за прокси",
        night: { amount: 12, unit: "hours" },
        day: { amount: 24, unit: "hours" },
        mode: "automatic",
        roles: SMALL9,
      });
      expectOk(created);
      const id = created.body.id;
      for (const p of players) expectOk(await p.post(`/api/games/${id}/signup`));
      expectOk(await gm.post(`/api/games/${id}/start`, { deal: "random" }));

      // Live pages of the public, the GM and two players, each stream on whichever instance the proxy picks.
      const mirrors = [
        new Mirror("guest", user(""), id),
        new Mirror("gm", gm, id),
        new Mirror(players[0]!.nick, players[0]!, id),
        new Mirror(players[1]!.nick, players[1]!, id),
      ];
      pages.push(...mirrors);
      for (const m of mirrors) await m.start();
      const detail = async (c: ProxyClient): Promise<GameDetail> => {
        const res = await c.get<GameDetail>(`/api/games/${id}`);
        expect(res.status, res.raw).toBe(200);
        return res.body;
      };
      const close = async () => expectOk(await gm.post(`/api/games/${id}/gm/close`));

      // Night 1, every player's turn through the proxy; the GM closes it (automatic mode publishes at once).
      for (const p of players) await nightTurn(p, id, r);
      await close();
      let d = await detail(gm);
      expect(d.view!.phase).toMatchObject({ kind: "day", number: 1 });
      for (const m of mirrors) await m.check("night 1");
      const spread = new Map(traffic.served);
      expect([...spread.keys()].sort(), "the proxy spreads requests over every instance").toEqual([
        "i0",
        "i1",
      ]);

      // Day 1: every living player posts a marked post, votes and reads the thread, all at once; meanwhile
      // the instance holding the guest's stream is killed.
      const victim = cluster.list.find((i) => i.name === mirrors[0]!.connections[0]!.by)!;
      const living = d.view!.seats.filter((s) => s.alive && !s.cannotVote);
      const nameOf = (seat: number) => d.view!.seats[seat]!.name;
      const writes = living.flatMap((s, k) => {
        const p = players.find((c) => c.nick === s.name)!;
        const others = living.filter((o) => o.seat !== s.seat);
        const target = others[Math.floor(r() * others.length)]!.seat;
        return [
          { kind: "post" as const, p, marker: `метка-${k}`, target },
          { kind: "vote" as const, p, marker: "", target },
        ];
      });
      const sent = writes.map(async (w) => {
        const res =
          w.kind === "post"
            ? await w.p.post(`/api/games/${id}/posts`, { text: `Пишу сквозь прокси: ${w.marker}` })
            : await w.p.post(`/api/games/${id}/votes`, { color: "red", target: w.target });
        return { ...w, status: res.status, raw: res.raw };
      });
      // Reads under way too: each player's thread, sent again by the client if its instance dies under it.
      const reads = living.map(async (s) => {
        const p = players.find((c) => c.nick === s.name)!;
        return (await p.get(`/api/games/${id}/posts?limit=500`)).status;
      });
      await new Promise((resolve) => setTimeout(resolve, 15));
      // The pages whose stream is on the victim as it dies (the guest's at least).
      const cut = mirrors.filter((m) => m.open && m.connections.at(-1)!.by === victim.name);
      const cutAt = cut.map((m) => m.connections.length);
      await victim.kill();
      const answers = await Promise.all(sent);
      expect(await Promise.all(reads), "every read is answered, if need be by the other instance").toEqual(
        living.map(() => 200),
      );
      const acked = answers.filter((a) => a.status >= 200 && a.status < 300);
      const lost = answers.filter(lostAnswer);
      // Any other answer is a refusal, which none of these writes deserves.
      expect(
        answers.filter((a) => !acked.includes(a) && !lost.includes(a)).map((a) => `${a.status} ${a.raw}`),
        stderr(),
      ).toEqual([]);

      // Every acknowledged write is in the game, read through the proxy (on a surviving instance): each
      // acknowledged post exactly once, a lost one at most once; each acknowledged vote in the count.
      const thread = await gm.get<{ posts: PostView[] }>(`/api/games/${id}/posts?limit=500`);
      expect(thread.status).toBe(200);
      const times = (marker: string) => thread.body.posts.filter((p) => p.html.endsWith(marker)).length;
      for (const a of answers.filter((x) => x.kind === "post"))
        if (acked.includes(a)) expect(times(a.marker), a.marker).toBe(1);
        else expect(times(a.marker), a.marker).toBeLessThanOrEqual(1);
      d = await detail(gm);
      for (const a of acked.filter((x) => x.kind === "vote")) {
        const line = d.voteCount!.red.find((l) => l.startsWith(`${nameOf(a.target)} (`)) ?? "";
        expect(line.split("): ")[1]?.split(", ") ?? [], `${a.p.nick}'s vote`).toContain(a.p.nick);
      }

      // The live pages whose stream was on the dead instance resumed on another, without a gap or a
      // repeat, and hold what a fresh detail says.
      await proxy.waitFor({ [victim.name]: "DOWN" });
      for (const m of mirrors) await m.check("after the kill");
      // The guest's (whose stream never starts again before the end) reopened as EventSource does: with
      // Last-Event-ID, after the connection dropped. A player's may have been told to start again just
      // before the kill.
      expect(cut.map((m) => m.label)).toContain("guest");
      expect(mirrors[0]!.connections[cutAt[cut.indexOf(mirrors[0]!)]!]).toMatchObject({ after: "dropped" });
      cut.forEach((m, k) => {
        const again = m.connections.slice(cutAt[k]);
        expect(again.length, `${m.label}'s stream reopened after the kill`).toBeGreaterThan(0);
        expect(again.map((c) => c.by)).not.toContain(victim.name);
      });

      // The game goes on to its end through the instance left.
      const before = traffic.served.get(victim.name) ?? 0;
      let phases = 0;
      for (d = await detail(gm); d.summary.status !== "ended"; d = await detail(gm)) {
        if (++phases > 60) throw new Error("the game did not end in 60 phases");
        for (const p of players)
          if (d.view!.phase.kind === "night") await nightTurn(p, id, r);
          else await dayTurn(p, id, r);
        await close();
      }
      expect(traffic.served.get(victim.name) ?? 0, "nothing reached the dead instance").toBe(before);
      expect(
        cluster.list.filter((i) => i !== victim).map((i) => i.alive()),
        stderr(),
      ).toEqual([true]);
      for (const m of mirrors) await m.check("the end");
      for (const m of mirrors) await m.close();
      console.log(
        `issue 20 proxy: ${phases + 2} phases; requests per instance ${JSON.stringify(Object.fromEntries(traffic.served))}` +
          ` (night 1: ${JSON.stringify(Object.fromEntries(spread))}); killed ${victim.name} under ` +
          `${writes.length} writes: ${acked.length} acknowledged, ${lost.length} lost; reads retried ` +
          `${traffic.retriedReads}; streams: ${mirrors
            .map((m) => `${m.label} ${m.connections.map((c) => `${c.by}(${c.after})`).join("→")}`)
            .join(", ")}`,
      );
    });
  },
);
