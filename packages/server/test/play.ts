import type { ActionForm, G5Settings, GameDetail, NightDraft, Setup } from "@forum-mafia/protocol";
import { Client } from "./client.ts";
import type { TestServer } from "./harness.ts";

export const NICKS = [
  "Аня",
  "Борис",
  "Вика",
  "Гоша",
  "Даша",
  "Егор",
  "Ёлка",
  "Женя",
  "Зоя",
  "Игорь",
  "Катя",
  "Лёва",
  "Маша",
  "Ника",
  "Олег",
  "Петя",
  "Рома",
];

/** A small seeded generator for test drivers (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

export interface Table {
  gm: Client;
  players: Client[];
  id: string;
}

/** S3's options at their defaults, written by hand from RULES.md (not read from the code under test). */
export const S3_DEFAULTS = {
  earlyClose: "majority",
  strikes: "shared",
  revealAbove: 10,
  threeIntimidationsFrom: 10,
  serumRepeatBelow: 15,
  lapseAt: 3,
  earlyFromDay: 3,
} as const;

export const NIGHT_MS = 12 * 3_600_000;
export const DAY_MS = 24 * 3_600_000;

/**
 * Register a GM and the players, create a game, sign everyone up and start it: the classic 17, or (issue
 * 17) a setup of up to 17 seats, one player per role (the first of NICKS).
 */
export async function setUpGame(
  t: Pick<TestServer, "server">,
  mode: "automatic" | "review",
  deal: "random" | { hand: string[] } = "random",
  setup?: Setup,
  g5?: G5Settings,
): Promise<Table> {
  const app = () => t.server.app;
  const gm = new Client(app, "Ведущий");
  expectOk(await gm.register());
  const count = setup?.roles.length ?? NICKS.length;
  if (count > NICKS.length) throw new Error(`setUpGame: at most ${NICKS.length} players, not ${count}`);
  const created = await gm.post<{ id: string }>("/api/games", {
    title: "Тестовая партия",
    night: { amount: 12, unit: "hours" },
    day: { amount: 24, unit: "hours" },
    mode,
    ...(setup ? { roles: setup.roles, options: setup.options } : {}),
    ...(g5 ? { g5 } : {}),
  });
  expectOk(created);
  const id = created.body.id;
  const players: Client[] = [];
  for (const nick of NICKS.slice(0, count)) {
    const c = new Client(app, nick);
    expectOk(await c.register());
    expectOk(await c.post(`/api/games/${id}/signup`));
    players.push(c);
  }
  expectOk(await gm.post(`/api/games/${id}/start`, { deal }));
  return { gm, players, id };
}

export function expectOk(r: { status: number; raw: string }): void {
  if (r.status >= 300) throw new Error(`expected success, got ${r.status}: ${r.raw}`);
}

export const detail = async (c: Client, id: string): Promise<GameDetail> =>
  (await c.get<GameDetail>(`/api/games/${id}`)).body;

/** A random legal-looking action from the player's form (the server still checks it). */
export function randomAction(r: () => number, form: ActionForm): Record<string, unknown> | null {
  const acts = form.acts.filter(
    (a) => a.act === "pass" || a.act === "council" || a.targets.length > 0 || (a.roles?.length ?? 0) > 0,
  );
  if (acts.length === 0) return null;
  const a = pick(r, acts);
  switch (a.act) {
    case "pass":
      return { act: "pass" };
    case "council":
      // M2c: a question of the rules' list (an automatic game takes only those).
      return { act: "council", question: "Есть ли среди живых маньяк?" };
    case "mafia":
      return { act: "mafia", kill: [pick(r, a.targets)] };
    case "healFrom":
      return { act: "healFrom", role: pick(r, a.roles!) };
    default:
      return { act: a.act, target: pick(r, a.targets) };
  }
}

/**
 * One player's night: an action from the player's form (now and then none, for P2), a pass if the server
 * refuses it. Returns the detail the player read first.
 */
export async function nightTurn(p: Client, id: string, r: () => number): Promise<GameDetail> {
  const d = await detail(p, id);
  if (!d.form || r() < 0.05) return d;
  const action = randomAction(r, d.form);
  if (!action) return d;
  const res = await p.post(`/api/games/${id}/actions`, action);
  if (res.status !== 200) await p.post(`/api/games/${id}/actions`, { act: "pass" });
  return d;
}

/**
 * One night: every player with a form acts (now and then someone forgets, for P2), then the deadline
 * passes; in review mode the GM reads the draft, answers the council if asked, and publishes.
 */
export async function playNight(
  t: TestServer,
  table: Table,
  r: () => number,
  mode: "automatic" | "review",
): Promise<void> {
  for (const p of table.players) await nightTurn(p, table.id, r);
  await t.clock.advance(NIGHT_MS);
  if (mode === "review") await reviewNight(table.gm, table.id, r);
}

/** Review mode: the GM reads the draft, answers the council if asked (with a reason where it differs, F2), and publishes. */
export async function reviewNight(gm: Client, id: string, r: () => number): Promise<void> {
  const draft = (await gm.get<NightDraft>(`/api/games/${id}/gm/draft`)).body;
  if (draft.blocked) {
    // F2: an answer other than the rules' (M2c) needs a reason.
    const answer = pick(r, ["yes", "no"]);
    const differs = draft.councilSuggested !== null && answer !== draft.councilSuggested;
    const body = differs ? { answer, reason: "ведущий решил иначе" } : { answer };
    expectOk(await gm.post(`/api/games/${id}/gm/council`, body));
  }
  expectOk(await gm.post(`/api/games/${id}/gm/publish`));
}

/** One day: the living vote, some by a one-tap call, some by a coloured nick in a post (V2); then the deadline. */
export async function playDay(t: TestServer, table: Table, r: () => number): Promise<void> {
  for (const p of table.players) await dayTurn(p, table.id, r);
  await t.clock.advance(DAY_MS);
}

/** One player's day, if the player lives: a post now and then, and a vote by a one-tap call or a coloured nick (V2). */
export async function dayTurn(p: Client, id: string, r: () => number): Promise<void> {
  const d = await detail(p, id);
  if (!d.view || d.me.seat === null || d.summary.status !== "running" || d.view.phase.kind !== "day") return;
  const me = d.view.seats[d.me.seat]!;
  if (!me.alive) return;
  if (r() < 0.3) {
    expectOk(
      await p.post(`/api/games/${id}/posts`, {
        text: `Думаю, думаю… [b]${pick(r, NICKS)}[/b] подозрителен.`,
      }),
    );
  }
  if (me.cannotVote || r() < 0.05) return;
  const targets = d.view.seats.filter((s) => s.alive && s.seat !== d.me.seat);
  const target = pick(r, targets);
  const color = r() < 0.8 ? "red" : "blue";
  const res =
    r() < 0.5
      ? await p.post(`/api/games/${id}/votes`, { color, target: target.seat })
      : await p.post(`/api/games/${id}/posts`, { text: `[color=${color}]${target.name}[/color]` });
  expectOk(res);
}

/** Play until someone wins; returns the number of phases played. */
export async function playToEnd(
  t: TestServer,
  table: Table,
  seed: number,
  mode: "automatic" | "review",
): Promise<number> {
  const r = rng(seed);
  for (let phases = 0; phases < 60; phases++) {
    const d = await detail(table.gm, table.id);
    if (d.summary.status === "ended") return phases;
    if (d.view!.phase.kind === "night") await playNight(t, table, r, mode);
    else await playDay(t, table, r);
  }
  throw new Error("the game did not end in 60 phases");
}

/**
 * Read a server-sent events body, handing each block (the lines up to a blank line) to `take`, until the
 * body ends or `stop` says so. A failed read (the stream aborted, the server gone) is thrown.
 */
export async function sseBlocks(
  body: ReadableStream<Uint8Array>,
  take: (block: string) => void,
  stop: () => boolean = () => false,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done || stop()) return;
    buffer += decoder.decode(value, { stream: true });
    for (let i = buffer.indexOf("\n\n"); i >= 0; i = buffer.indexOf("\n\n")) {
      take(buffer.slice(0, i));
      buffer = buffer.slice(i + 2);
    }
  }
}

/** One server-sent event as a client received it. */
export interface SseEvent {
  readonly id: number;
  readonly data: string;
}

/**
 * A live SSE stream read over real HTTP (Fastify's inject does not stream): start the app with
 * `app.listen({ port: 0 })` and open `/api/games/:id/stream` here. It collects the events as they
 * arrive; `until` waits for one that matches (e.g. a sentinel post), `reset` says the server asked the
 * client to start again (P4), and `ended` that the server closed the stream.
 */
export class SseStream {
  readonly events: SseEvent[] = [];
  reset = false;
  ended = false;
  private waiters: { match: (e: SseEvent) => boolean; done: (error?: Error) => void }[] = [];
  private readonly abort = new AbortController();
  private finished: Promise<void> = Promise.resolve();

  private constructor(readonly label: string) {}

  /** Open a stream: `lastEventId` is sent as the Last-Event-ID header, `after` as the ?after= query. */
  static async open(
    base: string,
    gameId: string,
    opts: { cookie: string | null; label: string; lastEventId?: number; after?: number },
  ): Promise<SseStream> {
    const s = new SseStream(opts.label);
    const query = opts.after !== undefined ? `?after=${opts.after}` : "";
    const res = await fetch(`${base}/api/games/${gameId}/stream${query}`, {
      headers: {
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
        ...(opts.lastEventId !== undefined ? { "last-event-id": String(opts.lastEventId) } : {}),
      },
      signal: s.abort.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`${opts.label}: stream refused: ${res.status}`);
    s.finished = s.pump(res.body);
    return s;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    try {
      await sseBlocks(body, (block) => this.block(block));
    } catch {
      // aborted by close(), or the server went away: either way the stream is over
    }
    this.ended = true;
    for (const w of this.waiters.splice(0))
      w.done(
        new Error(`${this.label}: the stream ended${this.reset ? " (reset)" : ""} before the event came`),
      );
  }

  private block(text: string): void {
    let id: number | null = null;
    let data: string | null = null;
    for (const line of text.split("\n")) {
      if (line === "event: reset") this.reset = true;
      else if (line.startsWith("id: ")) id = Number(line.slice(4));
      else if (line.startsWith("data: ")) data = line.slice(6);
    }
    if (id === null || data === null) return;
    const e: SseEvent = { id, data };
    this.events.push(e);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(e)) return true;
      w.done();
      return false;
    });
  }

  /** Wait until an event matching `match` has arrived (a guard of `guardMs` only turns a hang into an error). */
  until(match: (e: SseEvent) => boolean, what: string, guardMs = 20_000): Promise<void> {
    if (this.events.some(match)) return Promise.resolve();
    if (this.ended) return Promise.reject(new Error(`${this.label}: the stream has ended; no ${what}`));
    return new Promise((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error(`${this.label}: no ${what} on the stream`)), guardMs);
      this.waiters.push({
        match,
        done: (error) => {
          clearTimeout(guard);
          if (error) reject(error);
          else resolve();
        },
      });
    });
  }

  /** Wait until the server has closed the stream (a guard of `guardMs` only turns a hang into an error). */
  async closedByServer(guardMs = 20_000): Promise<void> {
    let guard: NodeJS.Timeout | undefined;
    const hang = new Promise<never>((_, reject) => {
      guard = setTimeout(
        () => reject(new Error(`${this.label}: the server did not close the stream`)),
        guardMs,
      );
    });
    try {
      await Promise.race([this.finished, hang]);
    } finally {
      clearTimeout(guard);
    }
  }

  close(): void {
    this.abort.abort();
  }
}
