/**
 * The balance simulator (issue 5): what bot games say about the ruleset. Pure: a game contributes a
 * GameRecord, records are counted into a Tally (integers only, so tallies merge exactly and in any order),
 * and a Summary adds the rates read from the tally: each faction's win rate with a 95% Wilson interval,
 * the mean game length, per-role survival, and the share of games decided by each W1 condition.
 * The command line (bin/simulate.ts) runs `simulate` per chunk of games on worker threads.
 */
import { gameEvents } from "./events.ts";
import type { Match } from "./match.ts";
import type { GameOptions } from "./options.ts";
import { ROLE_IDS, type RoleId } from "./roles.ts";
import { WIN_CONDITIONS, winCondition, type WinCondition, type Winner } from "./state.ts";
import { playTalkingGame, type TalkingGame } from "./talking-game.ts";
import { viewFor } from "./view.ts";

export const WINNERS = ["town", "mafia", "maniac", "draw"] as const satisfies readonly Winner[];

/** What one finished game contributes. */
export interface GameRecord {
  readonly winner: Winner;
  readonly condition: WinCondition;
  /** Phases played (nights and days), and of them days. */
  readonly phases: number;
  readonly days: number;
  /** Every seat's role and whether its holder was alive at the end. */
  readonly players: readonly { readonly role: RoleId; readonly survived: boolean }[];
  /** Issue 16: what the bots said, when the game was played by talking bots. */
  readonly talk?: TalkCounts;
}

/** Counts of a game's talk (issue 16), added up over games like the rest of a tally. */
export interface TalkCounts {
  /** Posts in the thread, and the days each living bot had to post in (bot-days). */
  readonly posts: number;
  readonly botDays: number;
  /** Per bot: its posts and its sentences, and how many of each were distinct within the game. */
  readonly distinctPosts: number;
  readonly lines: number;
  readonly distinctLines: number;
  /** Messages in the team channels. */
  readonly chat: number;
}

const NO_TALK: TalkCounts = { posts: 0, botDays: 0, distinctPosts: 0, lines: 0, distinctLines: 0, chat: 0 };

/** The talk counts of a talking game. */
export function talkCountsOf(game: TalkingGame): TalkCounts {
  const bySeat = new Map<number, string[]>();
  for (const p of game.thread)
    if (p.seat !== null) bySeat.set(p.seat, [...(bySeat.get(p.seat) ?? []), p.text]);
  let distinctPosts = 0;
  let lines = 0;
  let distinctLines = 0;
  for (const texts of bySeat.values()) {
    distinctPosts += new Set(texts).size;
    const split = texts.flatMap((t) => t.split(/(?<=[.!?…])\s+/u));
    lines += split.length;
    distinctLines += new Set(split).size;
  }
  return {
    posts: game.thread.length,
    botDays: botDays(game.match),
    distinctPosts,
    lines,
    distinctLines,
    chat: game.chat.length,
  };
}

/** The seats alive on each day, added up: the days a living bot had to post in (from the public results). */
function botDays(m: Match): number {
  const view = viewFor(gameEvents(m), { kind: "public" }, []);
  let alive = m.state.players.length;
  let total = 0;
  for (const r of view.results) {
    if (r.type === "nightResults") {
      alive -= new Set([...r.died, ...r.modkilled]).size;
      if (r.winner === null) total += alive;
    } else alive -= new Set([...r.died, ...r.modkilled, ...(r.hanged === null ? [] : [r.hanged])]).size;
  }
  return total;
}

/**
 * Issue 28: a game still running at its phase cap (playBotGameToCap). It is counted among the games and in
 * `stalled`, and nowhere else: it has no winner, no length and no survivors.
 */
export interface StalledRecord {
  readonly stalled: true;
}

/** The record of a finished match; throws for a game still running (a broken invariant here). */
export function recordOf(m: Match): GameRecord {
  const winner = m.state.winner;
  const condition = winCondition(m.state.players);
  if (winner === null || condition === null) throw new Error("recordOf: the game has not ended (W1)");
  let days = 0;
  for (const o of m.outcomes) if (o.outcome.phase.kind === "day") days++;
  return {
    winner,
    condition,
    phases: m.outcomes.length,
    days,
    players: m.state.players.map((p) => ({ role: p.role, survived: p.alive })),
  };
}

/** Counts only: merging two tallies is exact, whatever the order. */
export interface Tally {
  /** Every game played, ended or stalled. */
  readonly games: number;
  /** Issue 28: games still running at the phase cap (StalledRecord); the rest ended, each with one winner. */
  readonly stalled: number;
  readonly wins: { readonly [W in Winner]: number };
  readonly conditions: { readonly [C in WinCondition]: number };
  /** The length of the games that ended, in phases and in days (a stalled game has none). */
  readonly phases: number;
  readonly days: number;
  /** Per role: how many seats held it over the games that ended, and how many of them survived. */
  readonly roles: { readonly [R in RoleId]: { readonly dealt: number; readonly survived: number } };
  readonly talk: TalkCounts;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function zeroes<K extends string>(keys: readonly K[]): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const k of keys) out[k] = 0;
  return out;
}

function roleCounts(): Record<RoleId, { dealt: number; survived: number }> {
  const out = {} as Record<RoleId, { dealt: number; survived: number }>;
  for (const r of ROLE_IDS) out[r] = { dealt: 0, survived: 0 };
  return out;
}

export function emptyTally(): Tally {
  return {
    games: 0,
    stalled: 0,
    wins: zeroes(WINNERS),
    conditions: zeroes(WIN_CONDITIONS),
    phases: 0,
    days: 0,
    roles: roleCounts(),
    talk: NO_TALK,
  };
}

const addTalk = (a: TalkCounts, b: TalkCounts): TalkCounts => ({
  posts: a.posts + b.posts,
  botDays: a.botDays + b.botDays,
  distinctPosts: a.distinctPosts + b.distinctPosts,
  lines: a.lines + b.lines,
  distinctLines: a.distinctLines + b.distinctLines,
  chat: a.chat + b.chat,
});

/** The tally of some records. */
export function tallyOf(records: readonly (GameRecord | StalledRecord)[]): Tally {
  const wins = zeroes(WINNERS);
  const conditions = zeroes(WIN_CONDITIONS);
  const roles = roleCounts();
  const t: Mutable<Tally> = {
    games: 0,
    stalled: 0,
    wins,
    conditions,
    phases: 0,
    days: 0,
    roles,
    talk: NO_TALK,
  };
  for (const r of records) {
    t.games++;
    if ("stalled" in r) {
      t.stalled++;
      continue;
    }
    wins[r.winner]++;
    conditions[r.condition]++;
    t.phases += r.phases;
    t.days += r.days;
    t.talk = addTalk(t.talk, r.talk ?? NO_TALK);
    for (const p of r.players) {
      roles[p.role].dealt++;
      if (p.survived) roles[p.role].survived++;
    }
  }
  return t;
}

export function mergeTallies(a: Tally, b: Tally): Tally {
  const wins = zeroes(WINNERS);
  for (const w of WINNERS) wins[w] = a.wins[w] + b.wins[w];
  const conditions = zeroes(WIN_CONDITIONS);
  for (const c of WIN_CONDITIONS) conditions[c] = a.conditions[c] + b.conditions[c];
  const roles = roleCounts();
  for (const r of ROLE_IDS) {
    roles[r].dealt = a.roles[r].dealt + b.roles[r].dealt;
    roles[r].survived = a.roles[r].survived + b.roles[r].survived;
  }
  return {
    games: a.games + b.games,
    stalled: a.stalled + b.stalled,
    wins,
    conditions,
    phases: a.phases + b.phases,
    days: a.days + b.days,
    roles,
    talk: addTalk(a.talk, b.talk),
  };
}

/** A proportion with its 95% Wilson score interval. */
export interface Rate {
  readonly count: number;
  readonly rate: number;
  readonly low: number;
  readonly high: number;
}

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/** The Wilson score interval of `k` successes in `n` trials (all zero for n = 0). */
export function wilson(k: number, n: number, z = Z95): Rate {
  if (n === 0) return { count: k, rate: 0, low: 0, high: 0 };
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // The bounds are exactly 0 at k = 0 and 1 at k = n; rounding would leave them a hair off.
  return {
    count: k,
    rate: p,
    low: k === 0 ? 0 : Math.max(0, center - half),
    high: k === n ? 1 : Math.min(1, center + half),
  };
}

export interface Summary {
  /** The counts everything else is read from; mergeSummaries adds these. */
  readonly tally: Tally;
  /**
   * Each side's wins over ALL games, stalled ones included (issue 28), so the four rates and `stalled`
   * add up to 1; with no stalled game they are the shares of the games that ended, as before.
   */
  readonly winRates: { readonly [W in Winner]: Rate };
  /** Issue 28: the share of games still running at the phase cap, over all games. */
  readonly stalled: Rate;
  /** The mean length of the games that ended (a stalled game has no length). */
  readonly meanPhases: number;
  readonly meanDays: number;
  /** Per role dealt at least once: the share of its holders alive at the end. */
  readonly survival: { readonly [R in RoleId]?: number };
  /** The share of games decided by each W1 condition. */
  readonly conditions: { readonly [C in WinCondition]: number };
  /** Issue 16: posts per bot per day, the shares of a bot's posts and sentences that were new, channel messages per game. */
  readonly talk: {
    readonly postsPerBotDay: number;
    readonly distinctPosts: number;
    readonly distinctLines: number;
    readonly chatPerGame: number;
  };
}

export function summaryOf(t: Tally): Summary {
  const n = t.games;
  const share = (k: number): number => (n === 0 ? 0 : k / n);
  const ended = n - t.stalled;
  const perEnded = (k: number): number => (ended === 0 ? 0 : k / ended);
  const winRates = {} as Record<Winner, Rate>;
  for (const w of WINNERS) winRates[w] = wilson(t.wins[w], n);
  const conditions = zeroes(WIN_CONDITIONS);
  for (const c of WIN_CONDITIONS) conditions[c] = share(t.conditions[c]);
  const survival: { [R in RoleId]?: number } = {};
  for (const r of ROLE_IDS) {
    const { dealt, survived } = t.roles[r];
    if (dealt > 0) survival[r] = survived / dealt;
  }
  const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);
  const talk = {
    postsPerBotDay: ratio(t.talk.posts, t.talk.botDays),
    distinctPosts: ratio(t.talk.distinctPosts, t.talk.posts),
    distinctLines: ratio(t.talk.distinctLines, t.talk.lines),
    chatPerGame: share(t.talk.chat),
  };
  return {
    tally: t,
    winRates,
    stalled: wilson(t.stalled, n),
    meanPhases: perEnded(t.phases),
    meanDays: perEnded(t.days),
    survival,
    conditions,
    talk,
  };
}

export const summarize = (games: readonly (GameRecord | StalledRecord)[]): Summary =>
  summaryOf(tallyOf(games));

/** Combine partial results: the same as summarizing all their games at once. */
export const mergeSummaries = (a: Summary, b: Summary): Summary => summaryOf(mergeTallies(a.tally, b.tally));

export interface SimulationOptions {
  /** The index of the first game: game i is dealt from `${seed}:${i}`. */
  readonly from?: number;
  readonly gameOptions?: Partial<GameOptions>;
}

/** Play `games` games of talking bots (indices from, from + 1, …) and summarize them. */
export function simulate(seed: string, games: number, options: SimulationOptions = {}): Summary {
  const from = options.from ?? 0;
  const records: GameRecord[] = [];
  for (let i = from; i < from + games; i++) {
    const game = playTalkingGame(`${seed}:${i}`, { gameOptions: options.gameOptions ?? {} });
    records.push({ ...recordOf(game.match), talk: talkCountsOf(game) });
  }
  return summarize(records);
}

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text safe inside an XML element or attribute. */
const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export const WINNER_LABELS: { readonly [W in Winner]: string } = {
  town: "Город / Town",
  mafia: "Мафия / Mafia",
  maniac: "Маньяк / Maniac",
  draw: "Ничья / Draw",
};

const BAR_COLORS: { readonly [W in Winner]: string } = {
  town: "#3b82f6",
  mafia: "#dc2626",
  maniac: "#7c3aed",
  draw: "#6b7280",
};

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** A self-contained SVG bar chart of the win rates, with the 95% intervals as error bars. */
export function winRateSvg(summary: Summary, caption = ""): string {
  const width = 560;
  const height = 320;
  const left = 50;
  const top = 50;
  const plotH = 200;
  const plotW = width - left - 20;
  const slot = plotW / WINNERS.length;
  const barW = slot * 0.5;
  const y = (v: number): number => top + plotH * (1 - v);
  const f = (v: number): string => v.toFixed(1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(`Доля побед / Win rates (${summary.tally.games} games)${caption ? ` — ${caption}` : ""}`)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(
      `Доля побед / Win rates, ${summary.tally.games} игр / games, 95% CI`,
    )}</text>`,
  ];
  if (caption)
    out.push(`<text x="${width / 2}" y="37" text-anchor="middle" fill="#444">${escapeXml(caption)}</text>`);
  for (let t = 0; t <= 100; t += 25) {
    const ty = f(y(t / 100));
    out.push(
      `<line x1="${left}" y1="${ty}" x2="${left + plotW}" y2="${ty}" stroke="#e5e7eb"/>`,
      `<text x="${left - 6}" y="${ty}" text-anchor="end" dominant-baseline="middle">${t}%</text>`,
    );
  }
  WINNERS.forEach((w, i) => {
    const r = summary.winRates[w];
    const cx = left + slot * (i + 0.5);
    const x = cx - barW / 2;
    out.push(
      `<rect class="bar" data-winner="${w}" x="${f(x)}" y="${f(y(r.rate))}" width="${f(barW)}" height="${f(plotH * r.rate)}" fill="${BAR_COLORS[w]}"/>`,
      `<line class="ci" x1="${f(cx)}" y1="${f(y(r.high))}" x2="${f(cx)}" y2="${f(y(r.low))}" stroke="#111" stroke-width="1.5"/>`,
      `<line x1="${f(cx - 8)}" y1="${f(y(r.high))}" x2="${f(cx + 8)}" y2="${f(y(r.high))}" stroke="#111" stroke-width="1.5"/>`,
      `<line x1="${f(cx - 8)}" y1="${f(y(r.low))}" x2="${f(cx + 8)}" y2="${f(y(r.low))}" stroke="#111" stroke-width="1.5"/>`,
      `<text x="${f(cx)}" y="${f(y(r.high) - 6)}" text-anchor="middle">${pct(r.rate)}</text>`,
      `<text x="${f(cx)}" y="${top + plotH + 18}" text-anchor="middle">${escapeXml(WINNER_LABELS[w])}</text>`,
      `<text x="${f(cx)}" y="${top + plotH + 34}" text-anchor="middle" fill="#555">${escapeXml(
        `${pct(r.low)} – ${pct(r.high)}`,
      )}</text>`,
    );
  });
  out.push(`<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="#111"/>`);
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
