import type { AddressInfo } from "node:net";
import { DEFAULT_ROLES, type RoleId } from "@forum-mafia/engine";
import {
  CLASSIC_SETUP,
  SETUP_PRESETS,
  G5_POLICIES,
  TARGETED_ACTS,
  type ActionForm,
  type G5Settings,
  type Setup,
  type ChannelId,
  type GameDetail,
  type NightDraft,
} from "@forum-mafia/protocol";
import fc from "fast-check";
import type { StreamItem } from "@forum-mafia/protocol/stream";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { fullRuns } from "./runs.ts";
import {
  checkBody,
  checkReveals,
  emptyTally,
  knowledge,
  marker,
  publicPart,
  reveals,
  type Holder,
  type MarkerKind,
  type Tally,
  type Truth,
} from "./leak-oracle.ts";
import {
  DAY_MS,
  detail,
  expectOk,
  NIGHT_MS,
  pick,
  rng,
  setUpGame,
  SseStream,
  type SseEvent,
  type Table,
} from "./play.ts";

/**
 * Issue 3, "No leaks": random whole games through HTTP and SSE, in which every private text carries a
 * unique marker, and every body any session received (responses, refusals, stream events) is checked
 * against what its holder may know at that moment (leak-oracle.ts).
 */

type Mode = "automatic" | "review";

interface Stats {
  games: number;
  phases: number;
  responses: number;
  events: number;
  markers: number;
  refusals: number;
  ms: number;
  /** What the checks found and allowed (leak-oracle.ts): they were not vacuous. */
  tally: Tally;
  /** The GM's moves and other rarer paths the games took. */
  moves: Record<string, number>;
  /**
   * The deaths and reveals the finished games' results held to the oracle's R1/R2 (checkReveals): deaths
   * with more than 10 alive at the phase's start, deaths with 10 or fewer, bloody kills, serums.
   */
  reveals: { r1: number; unrevealed: number; bloody: number; serum: number };
}
const stats: Record<string, Stats> = {};
const statsFor = (name: string): Stats =>
  (stats[name] ??= {
    games: 0,
    phases: 0,
    responses: 0,
    events: 0,
    markers: 0,
    refusals: 0,
    ms: 0,
    tally: emptyTally(),
    moves: {},
    reveals: { r1: 0, unrevealed: 0, bloody: 0, serum: 0 },
  });
const count = (s: Stats, move: string): void => {
  s.moves[move] = (s.moves[move] ?? 0) + 1;
};

/**
 * Issue 17: the setup a leak game is played with: half the games the classic 17, the others the editor's
 * presets of 9 and 12, or a role list drawn here by S3 (each role at most once but citizens; a town player;
 * a mafia member or the maniac), of 7 to 17 seats, with thresholds drawn around the player count.
 */
function leakSetup(r: () => number): Setup {
  const x = r();
  if (x < 0.5) return CLASSIC_SETUP;
  if (x < 0.65) return SETUP_PRESETS.find((p) => p.id === "small9")!.setup;
  if (x < 0.8) return SETUP_PRESETS.find((p) => p.id === "medium12")!.setup;
  const opponents: RoleId[] = ["boss", "troll", "elf", "lawyer", "thug", "maniac"];
  const town: RoleId[] = ["sheriff", "sergeant", "doctor", "girl", "prosecutor", "shahid"];
  const some = (list: RoleId[]): RoleId[] => list.filter(() => r() < 0.5);
  const against = some(opponents);
  if (against.length === 0) against.push(pick(r, opponents));
  const roles = [...against, ...some(town)];
  const citizens = Math.max(roles.length === against.length ? 1 : 0, Math.floor(r() * 6));
  for (let i = 0; i < citizens && roles.length < 17; i++) roles.push("citizen");
  while (roles.length < 7) roles.push("citizen");
  const n = roles.length;
  const upTo = (max: number): number => Math.floor(r() * (max + 1));
  return {
    roles,
    options: {
      earlyClose: r() < 0.5 ? "majority" : "all",
      strikes: r() < 0.5 ? "shared" : "separate",
      revealAbove: upTo(n),
      threeIntimidationsFrom: upTo(n + 1),
      serumRepeatBelow: upTo(n + 2),
      lapseAt: upTo(4),
      earlyFromDay: upTo(4),
    },
  };
}

afterAll(() => {
  for (const [name, s] of Object.entries(stats))
    console.log(
      `${name}: ${s.games} games, ${s.phases} phases, ${s.responses} responses and ${s.events} stream events ` +
        `checked, ${s.markers} markers planted, ${s.refusals} refusals, ${(s.ms / 1000).toFixed(1)} s\n` +
        `  allowed and seen: ${JSON.stringify(s.tally)}\n  moves: ${JSON.stringify(s.moves)}\n` +
        `  deaths and reveals: ${JSON.stringify(s.reveals)}`,
    );
});

/** A session whose every body is checked: a player, the public, a registered non-player, a substitute. */
interface Watcher {
  readonly label: string;
  readonly client: Client;
  holder: Holder;
  /** How many of client.seen have been checked; and how many of them came before the end. */
  checked: number;
  preEndSeen: number | null;
  /** The stream as received so far in its current numbering (ids 1..n), across reconnects. */
  events: SseEvent[];
  eventsChecked: number;
  preEndEvents: number | null;
  /**
   * The data of every event checked, in the order checked (issue 19: a stream reopened from the start carries
   * today's values under old ids, so "before the end" is when an event was received, not its id).
   */
  checkedData: string[];
  stream: SseStream | null;
  /** How many of stream.events have been moved into events. */
  taken: number;
  /** A stream reopened from the start must repeat these first (the backlog equals what came live). */
  expect: SseEvent[] | null;
  /** How many posts of the thread this session has read. */
  posts: number;
}

async function listen(t: TestServer): Promise<string> {
  await t.server.app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(t.server.app.server.address() as AddressInfo).port}`;
}

function shuffled<T>(r: () => number, list: readonly T[]): T[] {
  const out = list.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * A stream item received again from the start is the one received live, except a post the GM has hidden
 * since: that comes back hidden (empty, with the reason).
 */
function sameItem(live: string, again: string): boolean {
  if (live === again) return true;
  const a = JSON.parse(live) as StreamItem;
  const b = JSON.parse(again) as StreamItem;
  // Issue 19: an item of the game's state carries its values as they stand when it is sent (stream.ts), so
  // a backlog holds the same kinds of item under the same ids, with today's values; every one of them is
  // checked against what its viewer may know like any other body.
  if (a.type === b.type && STATE_ITEMS.has(a.type)) return true;
  if (a.type !== "post" || b.type !== "post" || a.post.hidden !== null || b.post.hidden === null)
    return false;
  return JSON.stringify({ ...a.post, html: "", hidden: b.post.hidden }) === JSON.stringify(b.post);
}

const STATE_ITEMS: ReadonlySet<StreamItem["type"]> = new Set(["lobby", "clock", "vote", "phase", "you"]);

class LeakGame {
  readonly watchers: Watcher[] = [];
  private gm!: GameDetail;
  private truth!: Truth;
  private roles: RoleId[] = [];
  /** The setup the game was created with (issue 17): published to everyone, the oracle's R1 threshold. */
  private setup: Setup = CLASSIC_SETUP;
  private marks = 0;
  private syncs = 0;
  private replaced = false;
  private readonly hidden = new Set<string>();
  /** G5 (issue 31): the game's policy; every fourth marker is written with мат, flagged for the GM alone. */
  private g5: G5Settings = { policy: "off", strikes: true };
  private swears = (token: string): string =>
    Number(/\d+$/.exec(token)![0]) % 4 === 0 ? `${token} бл*ть, вот х*йня` : token;
  private readonly violations: string[] = [];
  private readonly pub: Watcher;
  private readonly substitute: Watcher;

  private constructor(
    private readonly t: TestServer,
    private readonly base: string,
    private readonly table: Table,
    private readonly mode: Mode,
    private readonly r: () => number,
    private readonly stats: Stats,
    extra: { pub: Client; outsider: Client; substitute: Client },
  ) {
    table.players.forEach((c, seat) => this.watch(c.nick, c, { kind: "player", seat }));
    this.pub = this.watch("the public", extra.pub, { kind: "public" });
    this.watch("a non-player", extra.outsider, { kind: "public" });
    this.substitute = this.watch("the substitute", extra.substitute, { kind: "public" });
  }

  static async start(seed: number, mode: Mode, stats: Stats): Promise<LeakGame> {
    const t = await testServer();
    const base = await listen(t);
    const r = rng(seed);
    const setup = leakSetup(r);
    const deal = r() < 0.5 ? "random" : { hand: shuffled(r, setup.roles) };
    // G5 (issue 31): each policy a third of the games (by the seed: the draws of the rest are unchanged).
    const g5 = { policy: G5_POLICIES[Math.abs(seed) % G5_POLICIES.length]!, strikes: true } as G5Settings;
    const table = await setUpGame(t, mode, deal, setup, g5);
    count(stats, `a setup of ${setup.roles.length}`);
    const app = () => t.server.app;
    const outsider = new Client(app, "Зритель");
    expectOk(await outsider.register());
    const substitute = new Client(app, "Фёдор");
    expectOk(await substitute.register());
    const g = new LeakGame(t, base, table, mode, r, stats, { pub: new Client(app), outsider, substitute });
    g.setup = setup;
    g.g5 = g5;
    await g.refresh();
    // The setup is published as the GM made it (its role list, not who holds which role).
    expect(g.gm.settings.roles).toEqual(setup.roles);
    expect(g.gm.settings.options).toEqual(setup.options);
    g.roles = g.gm.view!.seats.map((s) => s.role!);
    return g;
  }

  private watch(label: string, client: Client, holder: Holder): Watcher {
    const w: Watcher = {
      label,
      client,
      holder,
      checked: 0,
      preEndSeen: null,
      events: [],
      eventsChecked: 0,
      preEndEvents: null,
      checkedData: [],
      stream: null,
      taken: 0,
      expect: null,
      posts: 0,
    };
    this.watchers.push(w);
    return w;
  }

  private get id(): string {
    return this.table.id;
  }

  async close(): Promise<void> {
    for (const w of this.watchers) w.stream?.close();
    this.t.server.app.server.closeAllConnections(); // the streams' sockets: do not wait for them to idle
    await this.t.close();
  }

  // ——— the game ———

  async play(): Promise<void> {
    for (const w of this.watchers) await this.open(w, "start");
    await this.checkpoint();
    for (let phases = 0; !this.truth.ended; phases++) {
      if (phases >= 60) throw new Error("the game did not end in 60 phases");
      if (this.gm.view!.phase.kind === "night") await this.night();
      else await this.day();
      this.stats.phases++;
    }
    await this.finish();
  }

  private seated(): { w: Watcher; seat: number }[] {
    const out: { w: Watcher; seat: number }[] = [];
    for (const w of this.watchers) if (w.holder.kind === "player") out.push({ w, seat: w.holder.seat });
    return out.sort((a, b) => a.seat - b.seat);
  }

  private mark(kind: MarkerKind): string {
    this.stats.markers++;
    return marker(kind, ++this.marks);
  }

  private async night(): Promise<void> {
    for (const { w, seat } of this.seated()) {
      const d = await detail(w.client, this.id);
      await this.chatter(w, seat, d);
      if (this.r() < 0.1) await this.strayNight(w, d);
      if (!d.form || this.r() < 0.05) continue; // P2: now and then someone forgets
      const action = this.randomAction(d.form);
      if (!action) continue;
      const res = await w.client.post(`/api/games/${this.id}/actions`, action);
      // A refused action (the form offers what the engine may still refuse, e.g. M2's limits) falls back
      // to a pass, which must be accepted: it is not a refusal test, but its body is checked like any.
      if (res.status !== 200) expectOk(await w.client.post(`/api/games/${this.id}/actions`, { act: "pass" }));
      await this.glance();
    }
    await this.checkpoint();
    await this.t.clock.advance(NIGHT_MS);
    if (this.mode === "review") {
      await this.checkpoint(); // the night awaits review: G10's notice is up, nothing is published
      const gm = this.table.gm;
      if (this.r() < 0.3) {
        expectOk(await gm.post(`/api/games/${this.id}/gm/reopen-mafia`, { reason: this.mark("gmreason") }));
        count(this.stats, "reopen-mafia (G10)");
        for (const { w } of this.seated()) {
          const d = await detail(w.client, this.id);
          const mafia = d.form?.acts.find((a) => a.act === "mafia");
          if (!mafia || mafia.targets.length === 0) continue;
          const res = await w.client.post(`/api/games/${this.id}/actions`, {
            act: "mafia",
            kill: [pick(this.r, mafia.targets)],
          });
          count(this.stats, `mafia's action after the reopening: ${res.status}`);
          break;
        }
        await this.checkpoint();
      }
      const draft = (await gm.get<NightDraft>(`/api/games/${this.id}/gm/draft`)).body;
      if (draft.blocked) {
        expectOk(
          await gm.post(`/api/games/${this.id}/gm/council`, {
            answer: pick(this.r, ["yes", "no", "rejected"]),
          }),
        );
        count(this.stats, "council answered (M2c)");
      }
      if (this.r() < 0.3) {
        expectOk(
          await gm.post(`/api/games/${this.id}/gm/rolls`, {
            rolls: {
              bossExposed: this.r() < 0.5,
              doctorExposed: this.r() < 0.5,
              girlSilence: this.r() < 0.5,
            },
            reason: this.mark("gmreason"),
          }),
        );
        count(this.stats, "rolls fixed (F2)");
      }
      expectOk(await gm.post(`/api/games/${this.id}/gm/publish`));
    }
    await this.refresh();
  }

  private async day(): Promise<void> {
    // V7: from day 3 on, now and then a day on which most vote "досрочно", and the day closes early.
    const earlyDay = this.gm.view!.phase.number >= 3 && this.r() < 0.3;
    for (const { w, seat } of this.seated()) {
      const d = await detail(w.client, this.id);
      if (d.summary.status !== "running" || d.view!.phase.kind !== "day") break;
      await this.chatter(w, seat, d);
      const me = d.view!.seats[seat]!;
      if (!me.alive) {
        if (this.r() < 0.2)
          await this.refusal(w.client.post(`/api/games/${this.id}/posts`, { text: "Я ещё здесь" }));
        continue;
      }
      if (this.r() < 0.3) {
        const token = this.mark("post");
        const text = this.swears(token);
        // G5: the hide-and-strike policy hides a flagged post at once: its text is then the GM's (F2).
        if (text !== token && this.g5.policy === "hideStrike") this.hidden.add(token);
        expectOk(
          await w.client.post(`/api/games/${this.id}/posts`, {
            text: `Думаю, думаю… [b]${pick(this.r, d.view!.seats).name}[/b] подозрителен. ${text}`,
          }),
        );
      }
      if (this.r() < 0.1) await this.strayDay(w, seat, d);
      if (me.cannotVote || this.r() < 0.05) continue;
      const target = pick(
        this.r,
        d.view!.seats.filter((s) => s.alive && s.seat !== seat),
      );
      const color = this.r() < 0.8 ? "red" : "blue";
      const early = earlyDay && this.r() < 0.8;
      // This vote may close the day (V7): what came before it is checked against what was known before it.
      if (early) await this.checkpoint(false);
      expectOk(
        this.r() < 0.5
          ? await w.client.post(`/api/games/${this.id}/votes`, { color, target: target.seat, early })
          : await w.client.post(`/api/games/${this.id}/posts`, {
              text: `[color=${color}]${target.name}[/color]${early ? " досрочно" : ""}`,
            }),
      );
      await this.glance();
    }
    await this.refresh();
    if (this.truth.ended) return;
    await this.moderate();
    await this.checkpoint();
    if (this.gm.view!.phase.kind === "night") {
      count(this.stats, "day closed early (V7)");
      return;
    }
    await this.t.clock.advance(DAY_MS); // exactly to the deadline: not into the next night
    await this.refresh();
  }

  /** The GM: words in the faction chats, a hidden post, a modkill (F2), a replacement (P4). */
  private async moderate(): Promise<void> {
    const gm = this.table.gm;
    if (this.r() < 0.3)
      expectOk(await gm.post(`/api/games/${this.id}/channels/mafia`, { text: this.mark("mafia") }));
    if (this.r() < 0.3)
      expectOk(await gm.post(`/api/games/${this.id}/channels/pair`, { text: this.mark("pair") }));
    const posts = (
      await gm.get<{ posts: { id: string; seat: number | null; html: string; hidden: unknown }[] }>(
        `/api/games/${this.id}/posts?limit=500`,
      )
    ).body.posts.filter((p) => p.seat !== null && !p.hidden && p.html.includes("MARK-post-"));
    if (posts.length > 0 && this.r() < 0.2) {
      const post = pick(this.r, posts);
      await this.checkpoint(false); // what came before the hiding may hold the text
      expectOk(await gm.post(`/api/games/${this.id}/posts/${post.id}/hide`, { reason: "Оскорбление (G5)" }));
      this.hidden.add(/MARK-post-\d+/.exec(post.html)![0]);
      count(this.stats, "post hidden");
    }
    const living = this.gm.view!.seats.filter((s) => s.alive).map((s) => s.seat);
    if (this.r() < 0.12) {
      expectOk(
        await gm.post(`/api/games/${this.id}/gm/modkill`, {
          seat: pick(this.r, living),
          reason: this.mark("gmreason"),
        }),
      );
      count(this.stats, "modkill (F2)");
    }
    if (!this.replaced && this.r() < 0.35) await this.replace(pick(this.r, living));
  }

  /** P4: the substitute takes a seat; both sessions' streams are told to start again (a new numbering). */
  private async replace(seat: number): Promise<void> {
    await this.checkpoint(); // everything so far is checked against the holders before the change
    this.replaced = true;
    const old = this.watchers.find((w) => w.holder.kind === "player" && w.holder.seat === seat)!;
    const res = await this.table.gm.post(`/api/games/${this.id}/gm/replace`, {
      seat,
      nick: this.substitute.client.nick,
      reason: this.mark("gmreason"),
    });
    count(this.stats, `replacement (P4): ${res.status}`);
    if (res.status !== 200) return; // e.g. a pending modkill: nothing changed
    old.holder = { kind: "public" };
    this.substitute.holder = { kind: "player", seat };
    for (const w of [old, this.substitute]) {
      await w.stream!.closedByServer();
      if (!w.stream!.reset)
        this.violations.push(`${w.label}: the stream was not reset when the seat changed hands`);
      w.events = [];
      w.eventsChecked = 0;
      w.expect = null;
      await this.open(w, "start");
    }
  }

  /** Private words with markers: the faction chats, the spectators' room, the channel with the GM (and refusals). */
  private async chatter(w: Watcher, seat: number, d: GameDetail): Promise<void> {
    const say = (channel: ChannelId, text: string) =>
      w.client.post(`/api/games/${this.id}/channels/${channel}`, {
        text: `${this.swears(text)} — ну что, как дела?`,
      });
    for (const c of d.channels) {
      const p = this.r();
      if (c.id === "mafia" || c.id === "pair") {
        if (c.canPost && p < 0.4) expectOk(await say(c.id, this.mark(c.id)));
        else if (!c.canPost && p < 0.3) await this.refusal(say(c.id, this.mark(c.id)), 403); // G7
      } else if (c.id === "spectators") {
        if (p < 0.5) expectOk(await say(c.id, this.mark("spect")));
      } else if (p < 0.12) {
        expectOk(await say(c.id, this.mark(`gm${seat}`)));
        if (this.r() < 0.6)
          expectOk(
            await this.table.gm.post(`/api/games/${this.id}/channels/${c.id}`, {
              text: this.mark(`gm${seat}`),
            }),
          );
      }
    }
    if (this.r() < 0.08) {
      const mine = new Set(d.channels.map((c) => c.id));
      const others = (
        ["mafia", "pair", "spectators", `gm:${(seat + 1) % this.roles.length}`] as const
      ).filter((c) => !mine.has(c));
      const c = pick(this.r, others);
      const kind: MarkerKind =
        c === "spectators"
          ? "spect"
          : c.startsWith("gm:")
            ? `gm${(seat + 1) % this.roles.length}`
            : (c as MarkerKind);
      await this.refusal(say(c, this.mark(kind)), 403); // G6: not a member
    }
  }

  /** A request that must be refused: a 4xx (the given one, when named), whose body is checked like any. */
  private async refusal(p: Promise<{ status: number; raw: string }>, status?: number): Promise<void> {
    const res = await p;
    expect(res.status, res.raw).toBeGreaterThanOrEqual(400);
    expect(res.status, res.raw).toBeLessThan(500);
    if (status !== undefined) expect(res.status, res.raw).toBe(status);
    this.stats.refusals++;
  }

  /** Requests a player should not make at night: another role's act, a vote. Their refusals are checked too. */
  private async strayNight(w: Watcher, d: GameDetail): Promise<void> {
    const target = Math.floor(this.r() * this.roles.length);
    // Another role's act: never one of the player's own, which could be legal.
    const own = new Set(d.form?.acts.map((a) => a.act) ?? []);
    const foreign = TARGETED_ACTS.filter((a) => !own.has(a));
    if (this.r() < 0.7)
      await this.refusal(
        w.client.post(`/api/games/${this.id}/actions`, { act: pick(this.r, foreign), target }),
      );
    else await this.refusal(w.client.post(`/api/games/${this.id}/votes`, { color: "red", target }), 422);
  }

  private async strayDay(w: Watcher, seat: number, d: GameDetail): Promise<void> {
    const dead = d.view!.seats.filter((s) => !s.alive);
    const x = this.r();
    if (x < 0.4)
      await this.refusal(
        w.client.post(`/api/games/${this.id}/actions`, { act: pick(this.r, TARGETED_ACTS), target: seat }),
      );
    else if (x < 0.7 || dead.length === 0)
      await this.refusal(w.client.post(`/api/games/${this.id}/votes`, { color: "red", target: seat }), 422); // V3
    else
      await this.refusal(
        w.client.post(`/api/games/${this.id}/votes`, { color: "red", target: pick(this.r, dead).seat }),
        422,
      );
  }

  private randomAction(form: ActionForm): Record<string, unknown> | null {
    const acts = form.acts.filter(
      (a) => a.act === "pass" || a.act === "council" || a.targets.length > 0 || (a.roles?.length ?? 0) > 0,
    );
    if (acts.length === 0) return null;
    const a = pick(this.r, acts);
    switch (a.act) {
      case "pass":
        return { act: "pass" };
      case "council":
        count(this.stats, "council asked (M2c)");
        // M2c: an automatic game takes only the rules' listed questions (no marker can ride in one); a GM
        // may be asked anything, so a review game's question carries a marker.
        return this.mode === "automatic"
          ? { act: "council", question: "Есть ли среди живых маньяк?" }
          : { act: "council", question: `${this.mark("council")}: жив ли маньяк?` };
      case "mafia": {
        const x = this.r();
        const first = pick(this.r, a.targets);
        const second = pick(this.r, a.targets);
        if (x < 0.55 || second === first) return { act: "mafia", kill: [first] };
        if (x < 0.75) return { act: "mafia", kill: [first, second] };
        if (x < 0.9) return { act: "mafia", kill: [first], intimidate: [second] };
        return { act: "mafia", intimidate: [first, second] };
      }
      case "healFrom":
        return { act: "healFrom", role: pick(this.r, a.roles!) };
      default:
        return { act: a.act, target: pick(this.r, a.targets) };
    }
  }

  /** After a command: a few sessions look at the game (all of them do at each checkpoint). */
  private async glance(): Promise<void> {
    for (const w of [this.pub, pick(this.r, this.watchers)]) await detail(w.client, this.id);
  }

  // ——— checking ———

  private async refresh(): Promise<void> {
    this.gm = await detail(this.table.gm, this.id);
    const v = this.gm.view!;
    this.truth = {
      roles: this.roles.length ? this.roles : v.seats.map((s) => s.role!),
      names: v.seats.map((s) => s.name),
      results: v.results,
      ended: this.gm.summary.status === "ended",
      hidden: this.hidden,
      // The GM's record, as the log publishes it at the end: who acted on whom (R2's bloody kill, serum).
      record: this.t.server.games.room(this.id).events.slice(),
      revealAbove: this.setup.options.revealAbove,
    };
  }

  private async open(w: Watcher, how: "start" | "header" | "query"): Promise<void> {
    const last = w.events.length;
    if (how === "start") {
      // What a stream from the start must repeat: all received so far (or more, if an earlier reopening
      // from the start has not yet repeated all it must).
      const known = w.expect && w.expect.length > w.events.length ? w.expect : w.events;
      w.expect = known.length > 0 ? known : null;
      w.events = [];
    }
    w.stream = await SseStream.open(this.base, this.id, {
      cookie: w.client.cookie,
      label: w.label,
      ...(how === "header" ? { lastEventId: last } : how === "query" ? { after: last } : {}),
    });
    w.taken = 0;
  }

  /** Move the stream's new events into w.events: ids must run 1, 2, 3… with no gap or repeat, across reconnects. */
  private drain(w: Watcher): void {
    const s = w.stream!;
    for (; w.taken < s.events.length; w.taken++) {
      const e = s.events[w.taken]!;
      if (e.id !== w.events.length + 1)
        this.violations.push(`${w.label}: stream id ${e.id} after ${w.events.length} (a gap or a repeat)`);
      const i = w.events.length;
      w.events.push(e);
      if (w.expect) {
        const was = w.expect[i]!;
        if (was.id !== e.id || !sameItem(was.data, e.data))
          this.violations.push(
            `${w.label}: reopened from the start, item ${i + 1} differs: ${e.data} vs ${was.data}`,
          );
        if (w.events.length >= w.expect.length) w.expect = null;
      }
    }
  }

  /**
   * Check everything received so far against what each holder may know now (which the previous checkpoint
   * already covered up to then: between checkpoints, nothing is published and no seat changes hands).
   */
  async checkpoint(full = true): Promise<void> {
    const n = ++this.syncs;
    // Issue 19: a stream the server reset (a channel opened to a dead player, the end) starts again from
    // the start, and must repeat what came before (a client that resumed from before the end would be reset
    // again: the end changes what every viewer may see, R3).
    for (const w of this.watchers)
      if (w.stream!.ended && w.stream!.reset) {
        this.drain(w);
        count(this.stats, "a stream reset (a new channel, the end)");
        await this.open(w, "start");
      }
    // Reconnects: a rotating third resumes by Last-Event-ID or ?after=; the public comes back from the start.
    for (const [i, w] of this.watchers.entries()) {
      if (!full || (w !== this.pub && (i + n) % 3 !== 0)) continue;
      this.drain(w);
      w.stream!.close();
      await this.open(w, w === this.pub ? "start" : n % 2 === 0 ? "header" : "query");
    }
    const tag = `SYNC-${n}-`;
    expectOk(await this.table.gm.post(`/api/games/${this.id}/posts`, { text: tag }));
    await Promise.all(this.watchers.map((w) => this.until(w, tag)));
    for (const w of this.watchers) {
      this.drain(w);
      if (w.expect) this.violations.push(`${w.label}: reopened from the start, the backlog lost items`);
    }
    await this.refresh();
    this.violations.push(...checkReveals(this.truth));
    if (full) await this.fullRound();

    for (const w of this.watchers) {
      if (this.truth.ended && w.preEndSeen === null) {
        w.preEndSeen = w.checked;
        w.preEndEvents = w.checkedData.length;
      }
      const k = knowledge(w.holder, this.truth, w.label);
      const seen = w.client.seen;
      for (; w.checked < seen.length; w.checked++) {
        this.violations.push(...checkBody(seen[w.checked]!, k, `response #${w.checked}`, this.stats.tally));
        this.stats.responses++;
      }
      for (; w.eventsChecked < w.events.length; w.eventsChecked++) {
        w.checkedData.push(w.events[w.eventsChecked]!.data);
        this.violations.push(
          ...checkBody(w.events[w.eventsChecked]!.data, k, `event ${w.eventsChecked + 1}`, this.stats.tally),
        );
        this.stats.events++;
      }
    }
    this.throwViolations();
  }

  /** Wait for a tag on the watcher's stream; a stream the server resets meanwhile starts again. */
  private async until(w: Watcher, tag: string): Promise<void> {
    for (;;) {
      try {
        return await w.stream!.until((e) => e.data.includes(tag), tag);
      } catch (error) {
        if (!w.stream!.ended || !w.stream!.reset) throw error;
        this.drain(w);
        count(this.stats, "a stream reset (a new channel, the end)");
        await this.open(w, "start");
      }
    }
  }

  private throwViolations(): void {
    if (this.violations.length === 0) return;
    const shown = [...new Set(this.violations)].slice(0, 15).join("\n");
    throw new Error(`${this.violations.length} leaks found, for example:\n${shown}`);
  }

  /** Everyone reads everything now; every player's public facts must be the public's. */
  private async fullRound(): Promise<void> {
    const base = `/api/games/${this.id}`;
    const details: { w: Watcher; d: GameDetail }[] = [];
    for (const [i, w] of this.watchers.entries()) {
      const d = await detail(w.client, this.id);
      details.push({ w, d });
      // The thread's new posts, as a client polls them; the public reads it all, like a new visitor (a hidden
      // post's text must not come back).
      const after = w === this.pub ? 0 : w.posts;
      const page = await w.client.get<{ total: number }>(`${base}/posts?after=${after}&limit=500`);
      w.posts = page.body.total;
      // The channels themselves (their messages are in the detail too): a rotating third each time.
      if ((i + this.syncs) % 3 === 0)
        for (const c of d.channels) expectOk(await w.client.get(`${base}/channels/${c.id}`));
      const mine = new Set(d.channels.map((c) => c.id));
      const seat = w.holder.kind === "player" ? w.holder.seat : 0;
      const others = ["mafia", "pair", "spectators", `gm:${(seat + 1) % this.roles.length}`].filter(
        (c) => !mine.has(c as ChannelId),
      );
      await this.refusal(w.client.get(`${base}/channels/${pick(this.r, others)}`), 403);
      if (!this.truth.ended && this.r() < 0.2) {
        await this.refusal(w.client.get(`${base}/gm/draft`));
        await this.refusal(w.client.get(`${base}/log`), 409);
      }
    }
    await this.pub.client.get("/api/games");
    const pub = JSON.stringify(publicPart(details.find((x) => x.w === this.pub)!.d));
    for (const { w, d } of details) {
      const mine = JSON.stringify(publicPart(d));
      if (mine !== pub)
        this.violations.push(`${w.label}: the public facts differ from the public's:\n${mine}\n${pub}`);
    }
  }

  /** After the end: the seed was secret until now (F1), and every stream's backlog equals what came live. */
  private async finish(): Promise<void> {
    await this.checkpoint(); // the first after the end: it marks where the end came in each session's bodies
    // G5 (issue 31): the flags the GM was shown (chats and thread) and what the policy did with them.
    const room = this.t.server.games.room(this.id);
    for (const f of room.flags) {
      count(
        this.stats,
        `G5 flag (${f.where === "thread" ? "thread" : f.where.startsWith("gm:") ? "gm" : f.where})`,
      );
      for (const m of f.measures) count(this.stats, `G5 ${m.auto ? "policy" : "GM"}: ${m.kind}`);
    }
    const log = await this.table.gm.get<{ seed: string; events: unknown[] }>(`/api/games/${this.id}/log`);
    expectOk(log);
    // The GM's record the oracle read during the game is the one the log publishes (G1, R3).
    expect(log.body.events).toEqual(JSON.parse(JSON.stringify(this.truth.record)));
    const seed = log.body.seed;
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    for (const w of this.watchers) {
      if (w.preEndSeen === null || w.preEndEvents === null)
        throw new Error(`${w.label}: the end was not marked`);
      for (let i = 0; i < w.preEndSeen; i++)
        if (w.client.seen[i]!.includes(seed))
          this.violations.push(`${w.label}: response #${i} holds the seed before the end`);
      for (let i = 0; i < w.preEndEvents; i++)
        if (w.checkedData[i]!.includes(seed))
          this.violations.push(`${w.label}: event #${i + 1} checked holds the seed before the end`);
      this.drain(w);
      w.stream!.close();
      await this.open(w, "start");
    }
    await this.checkpoint(); // every stream reopened from the start must repeat exactly what came before
    for (const w of this.watchers) w.stream!.close();
    for (const x of reveals(this.truth)) {
      const died = x.result.died.length;
      if (x.aliveAtStart > this.setup.options.revealAbove) this.stats.reveals.r1 += died;
      else this.stats.reveals.unrevealed += died;
      this.stats.reveals.bloody += x.bloody.length;
      if (x.serum !== null) this.stats.reveals.serum++;
    }
    this.stats.games++;
  }
}

async function playLeakGame(seed: number, mode: Mode, stats: Stats): Promise<void> {
  const start = performance.now();
  const g = await LeakGame.start(seed, mode, stats);
  try {
    await g.play();
  } finally {
    await g.close();
    stats.ms += performance.now() - start;
  }
}

// ——— the swap: two town players whose public history is the same ———

/** Acts that kill or reveal: the swapped players are never their targets (a reveal would tell them apart). */
const TELLING = new Set(["bloodyKill", "quickKill", "shoot", "serum", "mark"]);

/** What one scripted game showed each session (players by seat, and the public) and its stream, normalised. */
type Shown = Map<string, string[]>;

/** Random ids (game, posts, messages, users) and the seed's commitment differ between runs; nothing else may. */
function normalise(body: string, gameId: string): string {
  return body
    .split(gameId)
    .join("<game>")
    .replace(/"id":"[^"]*"/g, '"id":"<id>"')
    .replace(/[0-9a-f]{64}/g, "<hex>");
}

/**
 * A game played from a script that does not depend on who holds which role: the same inputs in the same
 * order, every choice drawn from `seed` in the same amounts. The `quiet` seats pass every night (where they
 * may), vote blue, and are never the target of a kill, a shot, a mark or the serum, nor voted against.
 */
async function scriptedGame(hand: readonly RoleId[], seed: number, quiet: readonly number[]): Promise<Shown> {
  const t = await testServer();
  try {
    const base = await listen(t);
    const table = await setUpGame(t, "review", { hand: [...hand] });
    const pub = new Client(() => t.server.app);
    const r = rng(seed);
    const id = table.id;
    const gm = table.gm;
    const everyone = [...table.players, pub];
    for (let phase = 0; phase < 5; phase++) {
      const g = await detail(gm, id);
      if (g.summary.status === "ended") break;
      if (g.view!.phase.kind === "night") {
        for (const [seat, c] of table.players.entries()) {
          const d = await detail(c, id);
          const x = [r(), r(), r()] as const;
          if (quiet.includes(seat)) {
            await c.post(`/api/games/${id}/actions`, { act: "pass" }); // refused for a citizen (T7)
            continue;
          }
          if (!d.form) continue;
          const acts = d.form.acts.filter((a) => a.act !== "council");
          const a = acts[Math.floor(x[0] * acts.length)]!;
          const targets = a.targets.filter(
            (s) => !(a.act === "mafia" || TELLING.has(a.act)) || !quiet.includes(s),
          );
          const target = targets[Math.floor(x[1] * targets.length)];
          const action =
            a.act === "pass"
              ? { act: "pass" }
              : a.act === "healFrom"
                ? { act: "healFrom", role: a.roles![Math.floor(x[2] * a.roles!.length)] }
                : target === undefined
                  ? { act: "pass" }
                  : a.act === "mafia"
                    ? { act: "mafia", kill: [target] }
                    : { act: a.act, target };
          const res = await c.post(`/api/games/${id}/actions`, action);
          if (res.status !== 200) await c.post(`/api/games/${id}/actions`, { act: "pass" });
        }
        await t.clock.advance(NIGHT_MS);
        const draft = (await gm.get<NightDraft>(`/api/games/${id}/gm/draft`)).body;
        if (draft.blocked) expectOk(await gm.post(`/api/games/${id}/gm/council`, { answer: "no" }));
        const roll = (): boolean => r() < 0.5;
        expectOk(
          await gm.post(`/api/games/${id}/gm/rolls`, {
            rolls: {
              bossExposed: roll(),
              doctorExposed: roll(),
              tortureEvidence: roll(),
              girlSilence: roll(),
              thugSilence: roll(),
            },
            reason: "по сценарию",
          }),
        );
        expectOk(await gm.post(`/api/games/${id}/gm/publish`));
      } else {
        for (const [seat, c] of table.players.entries()) {
          const d = await detail(c, id);
          const x = [r(), r(), r()] as const;
          const me = d.view!.seats[seat]!;
          if (!me.alive) continue;
          if (x[0] < 0.3) expectOk(await c.post(`/api/games/${id}/posts`, { text: `Мысли вслух №${phase}` }));
          if (me.cannotVote) continue;
          const targets = d.view!.seats.filter((s) => s.alive && s.seat !== seat && !quiet.includes(s.seat));
          const target = targets[Math.floor(x[1] * targets.length)]!;
          const color = quiet.includes(seat) || x[2] < 0.2 ? "blue" : "red";
          expectOk(await c.post(`/api/games/${id}/votes`, { color, target: target.seat }));
        }
        await t.clock.advance(DAY_MS);
      }
      for (const c of everyone) {
        const d = await detail(c, id);
        await c.get(`/api/games/${id}/posts?limit=500`);
        for (const ch of d.channels) await c.get(`/api/games/${id}/channels/${ch.id}`);
      }
    }
    // After the end everything is revealed (R3): the script must stop before it.
    if ((await detail(gm, id)).summary.status === "ended") throw new Error("the scripted game ended early");
    // Every stream from the start, up to a sentinel post.
    const streams = await Promise.all(
      everyone.map((c, i) => SseStream.open(base, id, { cookie: c.cookie, label: c.nick || `public ${i}` })),
    );
    expectOk(await gm.post(`/api/games/${id}/posts`, { text: "SYNC-end-" }));
    await Promise.all(streams.map((s) => s.until((e) => e.data.includes("SYNC-end-"), "the sentinel")));
    for (const s of streams) s.close();
    t.server.app.server.closeAllConnections();
    const shown: Shown = new Map();
    everyone.forEach((c, i) => {
      const who = i < table.players.length ? `seat ${i}` : "the public";
      shown.set(
        who,
        c.seen.map((b) => normalise(b, id)),
      );
      shown.set(
        `${who}'s stream`,
        streams[i]!.events.map((e) => normalise(`event ${e.id}: ${e.data}`, id)),
      );
    });
    return shown;
  } finally {
    await t.close();
  }
}

describe("no leaks (issue 3): random games, every body and stream event checked against what its holder may know", () => {
  it("the oracle itself flags planted leaks (a self-test of leak-oracle.ts)", () => {
    const names = ["Аня", "Борис", "Вика", "Гоша"];
    const roles: RoleId[] = ["citizen", "boss", "sheriff", "sergeant"];
    const truth: Truth = {
      roles,
      names,
      results: [],
      ended: false,
      hidden: new Set(["MARK-post-7"]),
      record: [],
    };
    const citizen = knowledge({ kind: "player", seat: 0 }, truth, "Аня");
    const boss = knowledge({ kind: "player", seat: 1 }, truth, "Борис");
    const flags = (body: unknown, k = citizen): number =>
      checkBody(typeof body === "string" ? body : JSON.stringify(body), k, "test").length;
    expect(flags({ view: { seats: [{ seat: 0, role: "citizen" }] } })).toBe(0);
    expect(flags({ view: { seats: [{ seat: 1, role: "boss" }] } })).toBe(1);
    expect(flags({ view: { seats: [{ seat: 1, role: "boss" }] } }, boss)).toBe(0);
    expect(flags({ roleCard: { role: "boss", lines: [] } })).toBe(1);
    const act = { type: "actionSubmitted", phase: {}, seat: 1, slot: "mafia", action: { act: "pass" } };
    expect(flags({ type: "game", event: act })).toBe(1);
    expect(flags({ type: "game", event: act }, boss)).toBe(0);
    expect(flags({ submissions: [{ seat: 2, slot: "own", action: { act: "pass" } }] })).toBe(1);
    expect(flags({ type: "game", event: { type: "checkResult", phase: {}, check: {} } })).toBe(1);
    expect(flags({ type: "game", event: { type: "nightDetail" } }, boss)).toBe(1);
    expect(flags({ type: "game", event: { type: "strike", phase: {}, seat: 0, cause: "night" } })).toBe(0);
    expect(flags({ type: "game", event: { type: "strike", phase: {}, seat: 1, cause: "night" } })).toBe(1);
    expect(flags({ privateResults: [{ phase: {}, check: null, council: { answer: "yes" } }] })).toBe(1);
    expect(flags({ type: "message", message: { channel: "pair", html: "" } })).toBe(1);
    expect(flags({ id: "mafia", canPost: true, messages: [] })).toBe(1);
    expect(flags(`{"html":"${marker("mafia", 1)}"}`)).toBe(1);
    expect(flags(`{"html":"${marker("gm0", 2)} ${marker("gm1", 3)}"}`)).toBe(1);
    expect(flags({ error: { message: "Борис (boss) may not vote: it is not day" } })).toBe(1);
    expect(flags({ error: { message: "Аня (citizen) may not vote: it is not day" } })).toBe(0);
    expect(flags({ html: "MARK-post-6 MARK-post-7" })).toBe(1);
    expect(flags({ view: { seed: null } })).toBe(0);
    expect(flags({ view: { seed: "ab12" } })).toBe(1);
    expect(flags({ nested: { attacks: [] } })).toBe(1);
    // G5 (issue 31): the GM's flag list, a flag notice on the stream, another's conduct strike.
    expect(flags({ gm: { flags: [] } })).toBe(1);
    expect(flags({ type: "you", you: { gm: { strikes: [], flags: [] } } }, boss)).toBe(1);
    expect(flags({ type: "flag", id: "x" })).toBe(1);
    expect(flags({ type: "game", event: { type: "strike", phase: {}, seat: 1, cause: "conduct" } })).toBe(1);
    expect(flags({ type: "game", event: { type: "strike", phase: {}, seat: 0, cause: "conduct" } })).toBe(0);
    const revealed = {
      type: "nightResults",
      phase: { kind: "night", number: 1 },
      died: [1],
      exposed: [],
      bloodyVictims: [],
      serum: null,
    };
    const later: Truth = {
      ...truth,
      record: [
        { type: "nightDetail", phase: { kind: "night", number: 1 }, attacks: [], blocked: [], rolls: [] },
      ],
      results: [
        { ...revealed, revealed: [{ seat: 1, role: "boss" }] } as unknown as Truth["results"][number],
      ],
    };
    // R1: 4 alive at the night's start (10 or fewer): the death is announced without the role, whatever the
    // results say (leak-oracle.test.ts tests R1 and R2 in full).
    expect(flags({ seat: 1, role: "boss" }, knowledge({ kind: "public" }, later, "public"))).toBe(1);
    expect(flags({ seat: 2, role: "sheriff" }, knowledge({ kind: "public" }, later, "public"))).toBe(1);
    expect(flags({ seat: 3, role: "sergeant" }, knowledge({ kind: "player", seat: 2 }, later, "x"))).toBe(0);
    expect(checkReveals(later)).toHaveLength(1);
  });

  /**
   * fast-check stops starting games after its 60 s time box, but the game in play runs to its end: on a loaded
   * machine a game takes 10 s or more, so the test's own limit must exceed the box by more than that.
   */
  /** A hang guard, not a speed target. */
  const GAMES_TIMEOUT = 900_000;
  /**
   * Games per mode: 10 in the full suite (`npm run test:all`), 6 in the fast loop (runs.ts). Every one is
   * played: a run cut off after a time (fast-check's interruptAfterTimeLimit, as before) played fewer games
   * on a busy machine and then failed `reached` for the wrong reason (issue 29: no wall-clock bound).
   */
  const GAMES = fullRuns() ? 10 : 6;

  /** The games reached far enough for the checks to mean something (they were printed, never checked). */
  const reached = (s: Stats): void => {
    expect(s.games).toBeGreaterThanOrEqual(3);
    expect(s.phases).toBeGreaterThanOrEqual(s.games * 4);
    expect(s.responses).toBeGreaterThanOrEqual(1_000);
    expect(s.events).toBeGreaterThanOrEqual(1_000);
    expect(s.markers).toBeGreaterThanOrEqual(50);
    expect(s.refusals).toBeGreaterThanOrEqual(10);
    // R1 was held to both sides of its threshold (the rarer R2 reveals: the scripted game below).
    expect(s.reveals.r1).toBeGreaterThan(0);
    expect(s.reveals.unrevealed).toBeGreaterThan(0);
  };

  it(
    "automatic mode",
    async () => {
      const s = statsFor("automatic");
      await fc.assert(
        fc.asyncProperty(fc.integer(), (seed) => playLeakGame(seed, "automatic", s)),
        { numRuns: GAMES, seed: 3_2026, endOnFailure: true },
      );
      reached(s);
    },
    GAMES_TIMEOUT,
  );

  it(
    "review mode (the GM reopens the mafia's action, answers the council, fixes rolls)",
    async () => {
      const s = statsFor("review");
      await fc.assert(
        fc.asyncProperty(fc.integer(), (seed) => playLeakGame(seed, "review", s)),
        { numRuns: GAMES, seed: 3_2027, endOnFailure: true },
      );
      reached(s);
    },
    GAMES_TIMEOUT,
  );

  it("swapping the roles of a quiet citizen and a quiet shahid, prosecutor or girl changes nobody else's responses", async () => {
    const s = statsFor("swap");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<RoleId>("shahid", "prosecutor", "girl"),
        fc.integer(),
        async (role, seed) => {
          const start = performance.now();
          const r = rng(seed);
          const hand = shuffled(r, DEFAULT_ROLES);
          const a = hand.indexOf(role);
          const citizens = hand.flatMap((x, i) => (x === "citizen" ? [i] : []));
          const b = pick(r, citizens);
          const swapped = hand.slice();
          [swapped[a], swapped[b]] = [hand[b]!, hand[a]!];
          const one = await scriptedGame(hand, seed, [a, b]);
          const two = await scriptedGame(swapped, seed, [a, b]);
          for (const [who, bodies] of one) {
            if (who.startsWith(`seat ${a}`) || who.startsWith(`seat ${b}`)) continue;
            const other = two.get(who)!;
            if (who.endsWith("stream")) s.events += bodies.length;
            else s.responses += bodies.length;
            const i = bodies.findIndex((x, j) => x !== other[j]);
            if (i >= 0 || bodies.length !== other.length)
              throw new Error(
                `${who} can tell seat ${a} (${role}) from seat ${b} (citizen): body ${i} differs:\n${bodies[i]}\n${other[i]}`,
              );
          }
          s.games += 2;
          s.phases += 10;
          s.ms += performance.now() - start;
        },
      ),
      {
        numRuns: 3,
        seed: 3_2028,
        endOnFailure: true,
        examples: [
          ["shahid", 11],
          ["prosecutor", 12],
          ["girl", 13],
        ],
      },
    );
  });

  it("R1, R2: a scripted game across the threshold reveals exactly the roles the oracle names, to everyone", async () => {
    // §1's table, one seat each: 0 boss, 1 troll, 2 elf, 3 lawyer, 4 thug, 5 maniac, 6 sheriff, 7 sergeant,
    // 8 doctor, 9 girl, 10 prosecutor, 11 shahid, 12–16 citizens.
    const hand: RoleId[] = [
      ...["boss", "troll", "elf", "lawyer", "thug", "maniac", "sheriff", "sergeant"],
      ...["doctor", "girl", "prosecutor", "shahid", "citizen", "citizen", "citizen", "citizen", "citizen"],
    ] as RoleId[];
    const t = await testServer();
    try {
      const table = await setUpGame(t, "automatic", { hand });
      const id = table.id;
      const pub = new Client(() => t.server.app);
      const violations: string[] = [];
      const truth = async (): Promise<Truth> => {
        const gm = await detail(table.gm, id);
        return {
          roles: hand,
          names: gm.view!.seats.map((x) => x.name),
          results: gm.view!.results,
          ended: gm.summary.status === "ended",
          hidden: new Set(),
          record: t.server.games.room(id).events.slice(),
        };
      };
      /** Every body each session received since the last look, against what it may know now. */
      const checked = new Map<Client, number>();
      const look = async (): Promise<void> => {
        const now = await truth();
        violations.push(...checkReveals(now));
        const sessions: [Client, Holder][] = [
          [pub, { kind: "public" }],
          ...table.players.map((c, seat): [Client, Holder] => [c, { kind: "player", seat }]),
        ];
        for (const [c, holder] of sessions) {
          await detail(c, id);
          const k = knowledge(holder, now, c.nick || "the public");
          for (let i = checked.get(c) ?? 0; i < c.seen.length; i++)
            violations.push(...checkBody(c.seen[i]!, k, `response #${i}`));
          checked.set(c, c.seen.length);
        }
      };
      /** A night: the given actions; every other player with a form passes (the sergeant leaves the pair's slot to the sheriff). */
      const night = async (acts: Record<number, Record<string, unknown>>, modkill: number[] = []) => {
        for (const seat of modkill)
          expectOk(await table.gm.post(`/api/games/${id}/gm/modkill`, { seat, reason: "по сценарию" }));
        for (const [seat, c] of table.players.entries()) {
          const d = await detail(c, id);
          if (!d.view!.seats[seat]!.alive || !d.form || seat === 7) continue;
          expectOk(await c.post(`/api/games/${id}/actions`, acts[seat] ?? { act: "pass" }));
        }
        await t.clock.advance(NIGHT_MS);
        await look();
      };
      /** A day: every living player votes red against `target`, who votes against seat 0. */
      const day = async (target: number) => {
        for (const [seat, c] of table.players.entries()) {
          const d = await detail(c, id);
          if (!d.view!.seats[seat]!.alive) continue;
          expectOk(
            await c.post(`/api/games/${id}/votes`, { color: "red", target: seat === target ? 0 : target }),
          );
        }
        await t.clock.advance(DAY_MS);
        await look();
      };
      // 17 alive: the deaths are revealed (R1); the maniac's bloody kill on seat 16 is cancelled by the
      // heal from the maniac, and the mafia's kill is what kills: not the maniac's victim (N1a).
      await night(
        {
          0: { act: "mafia", kill: [16] },
          5: { act: "bloodyKill", target: 16 },
          8: { act: "healFrom", role: "maniac" },
        },
        [10, 12, 13, 14, 15],
      );
      await day(11); // 11 alive: the hanged shahid is revealed (R1)
      await night({ 8: { act: "serum", target: 1 } }); // 10 alive: nobody dies, the serum reveals (R2)
      await day(9); // 10 alive: the hanged girl is not revealed (R1)
      await night({ 5: { act: "bloodyKill", target: 7 }, 6: { act: "shoot", target: 2 } }); // 9 alive: R2 only
      await day(3); // 7 alive: the hanged lawyer is not revealed
      await night({ 5: { act: "bloodyKill", target: 0 }, 8: { act: "heal", target: 0 } }); // healed: no bloody kill (N1a)
      // The scenario did what it says: night 1's bloody kill was cancelled, night 4's was healed.
      const attacks = t.server.games
        .room(id)
        .events.flatMap((e) =>
          e.type === "nightDetail" ? e.attacks.filter((a) => a.source === "maniac") : [],
        );
      expect(attacks.map((a) => [a.target, a.kind, a.cancelledBy])).toEqual([
        [16, "bloodyKill", "healFrom"],
        [7, "bloodyKill", null],
        [0, "bloodyKill", "heal"],
      ]);
      const shown = reveals(await truth()).map((x) => ({
        where: x.where,
        alive: x.aliveAtStart,
        died: [...x.result.died].sort((a, b) => a - b),
        public: [...x.public.keys()].sort((a, b) => a - b),
      }));
      expect(shown).toEqual([
        {
          where: "nightResults night 1",
          alive: 17,
          died: [10, 12, 13, 14, 15, 16],
          public: [10, 12, 13, 14, 15, 16],
        },
        { where: "dayResults day 1", alive: 11, died: [11], public: [11] },
        { where: "nightResults night 2", alive: 10, died: [], public: [1] },
        { where: "dayResults day 2", alive: 10, died: [9], public: [] },
        { where: "nightResults night 3", alive: 9, died: [2, 7], public: [7] },
        { where: "dayResults day 3", alive: 7, died: [3], public: [] },
        { where: "nightResults night 4", alive: 6, died: [], public: [] },
      ]);
      expect([...new Set(violations)].slice(0, 15)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("a hidden post's text is not served again before the end (it is published with the log, F2)", async () => {
    const t = await testServer();
    try {
      const base = await listen(t);
      const table = await setUpGame(t, "automatic");
      const author = table.players[0]!;
      const res = await author.post<{ id: string }>(`/api/games/${table.id}/posts`, {
        text: "MARK-hidden-1 ругань",
      });
      expectOk(res);
      expectOk(await table.gm.post(`/api/games/${table.id}/posts/${res.body.id}/hide`, { reason: "G5" }));
      const visitor = new Client(() => t.server.app);
      const posts = await visitor.get(`/api/games/${table.id}/posts`);
      expect(posts.raw).not.toContain("MARK-hidden-1");
      const stream = await SseStream.open(base, table.id, { cookie: null, label: "a visitor" });
      expectOk(await table.gm.post(`/api/games/${table.id}/posts`, { text: "SYNC-1-" }));
      await stream.until((e) => e.data.includes("SYNC-1-"), "the sentinel");
      stream.close();
      t.server.app.server.closeAllConnections();
      const shown = stream.events.filter((e) => e.data.includes("MARK-hidden-1")).map((e) => e.data);
      expect(shown, "the stream's backlog repeats the hidden post's text").toEqual([]);
    } finally {
      await t.close();
    }
  });
});
