// `npm run bench:engine`: random legal 17-player games (src/random-play.ts) played to the end on one
// core, no workers. Prints games per second and the median time of a night resolution, each the median
// of several rounds, beside a baseline measured in the same run: the machine may be small and shared,
// so the ratio to the baseline says more than the raw figure. Wall time and this process's CPU time are
// both shown; on a busy machine the CPU figure is the steadier one.
//   ROUNDS=5 ROUND_MS=1500 npm run bench:engine
import { performance } from "node:perf_hooks";
import {
  act,
  castVote,
  closeDay,
  isRejection,
  submitNightAction,
  type GameOptions,
  type LogEvent,
  type Seat,
  endDay,
  endNight,
  modkill,
  startMatch,
  type GameState,
  type NightBallots,
} from "../src/index.ts";
import { createGame } from "../src/game.ts";
import { emptyBallots } from "../src/night-action.ts";
import { emptyDayBallots } from "../src/vote.ts";
import { matchEvents, vote } from "../src/match.ts";
import { nextU32, rngFromSeed, type RngState } from "../src/rng.ts";
import { resolveNight, type NightInput } from "../src/night.ts";
import { MATCH_CALLS, RANDOM_PLAYER_NAMES, randomGame, type MatchCalls } from "../src/random-play.ts";

const TARGET = 20_000;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const ROUND_MS = Number(process.env.ROUND_MS ?? 1500);

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const fmt = (x: number, digits = 1): string =>
  x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const nowUs = (): number => Number(process.hrtime.bigint()) / 1000;
/** This process's CPU time (user + system), milliseconds. */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Run {
  readonly games: number;
  readonly draws: number;
  readonly phases: number;
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** Play games for about `ms` milliseconds of wall time. */
function playFor(label: string, ms: number, calls: MatchCalls = MATCH_CALLS): Run {
  let games = 0;
  let draws = 0;
  let phases = 0;
  const cpu = cpuMs();
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 20; i++) {
      const g = randomGame(`${label}-${games}`, { calls });
      draws += g.draws;
      phases += g.match.outcomes.length;
      games++;
    }
    now = performance.now();
  }
  return { games, draws, phases, wallMs: now - start, cpuMs: cpuMs() - cpu };
}

/** The baseline: a bare loop drawing as many numbers from rng.ts as the games drew (wall, CPU ms). */
function bareDraws(count: number): { wallMs: number; cpuMs: number } {
  let s: RngState = rngFromSeed("baseline");
  let acc = 0;
  const cpu = cpuMs();
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const r = nextU32(s);
    s = r.state;
    acc ^= r.value;
  }
  const wallMs = performance.now() - start;
  if (acc === 0.5) console.log(acc); // keeps the loop from being optimised away
  return { wallMs, cpuMs: cpuMs() - cpu };
}

/** A recorded random game: what the engine alone must do to play it again. */
interface Recorded {
  readonly seed: string;
  readonly options: GameOptions;
  readonly events: readonly LogEvent[];
}

function record(count: number): Recorded[] {
  const out: Recorded[] = [];
  for (let i = 0; i < count; i++) {
    const seed = `core-${i}`;
    const { match } = randomGame(seed);
    out.push({ seed, options: match.state.options, events: matchEvents(match) });
  }
  return out;
}

const CORE_PLAYERS = RANDOM_PLAYER_NAMES.map((name) => ({ name }));

/**
 * The engine alone: deal from the seed, check every recorded submission and vote, resolve every night and
 * day, with the pure functions (no random player, no Match log). Throws if the engine disagrees with the
 * recording, so the figure is for games played right.
 */
function playRecorded(g: Recorded): void {
  let state = createGame({ players: CORE_PLAYERS, seed: g.seed, options: g.options });
  if (isRejection(state)) throw new Error(state.message);
  let night = emptyBallots(state.players.length);
  let day = emptyDayBallots(state.players.length);
  let modkills: Seat[] = [];
  for (const e of g.events) {
    switch (e.kind) {
      case "act": {
        const r = submitNightAction(state, night, e.seat, e.action);
        if (isRejection(r)) throw new Error(r.message);
        night = r;
        break;
      }
      case "vote": {
        const r = castVote(state, day, e.seat, e.vote);
        if (isRejection(r)) throw new Error(r.message);
        day = r;
        break;
      }
      case "modkill":
        modkills = [...modkills, e.seat];
        break;
      case "endNight": {
        const { rolls, council } = e.decisions;
        const r = resolveNight(state, night, { rolls, council, modkills });
        if (isRejection(r)) throw new Error(r.message);
        state = r.state;
        night = emptyBallots(state.players.length);
        modkills = [];
        break;
      }
      case "endDay": {
        const r = closeDay(state, day, modkills);
        if (isRejection(r)) throw new Error(r.message);
        state = r.state;
        day = emptyDayBallots(state.players.length);
        modkills = [];
        break;
      }
      case "replace":
        break;
    }
  }
  if (state.winner === null) throw new Error(`the recorded game ${g.seed} did not end`);
}

function playRecordedFor(games: readonly Recorded[], ms: number): { games: number; wallMs: number } {
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (const g of games) playRecorded(g);
    n += games.length;
    now = performance.now();
  }
  return { games: n, wallMs: now - start };
}

type Timed = "act" | "vote" | "endNight" | "endDay";

/** Match calls that time themselves (µs) and keep the nights' inputs for resolveNight alone. */
function timedCalls() {
  const times: Record<Timed, number[]> = { act: [], vote: [], endNight: [], endDay: [] };
  const nights: { state: GameState; ballots: NightBallots; input: NightInput }[] = [];
  const calls: MatchCalls = {
    act: (m, seat, action) => {
      const t = nowUs();
      const r = act(m, seat, action);
      times.act.push(nowUs() - t);
      return r;
    },
    vote: (m, seat, v) => {
      const t = nowUs();
      const r = vote(m, seat, v);
      times.vote.push(nowUs() - t);
      return r;
    },
    modkill,
    endNight: (m, decisions) => {
      if (nights.length < 5000)
        nights.push({ state: m.state, ballots: m.night, input: { ...decisions, modkills: m.modkills } });
      const t = nowUs();
      const r = endNight(m, decisions);
      times.endNight.push(nowUs() - t);
      return r;
    },
    endDay: (m) => {
      const t = nowUs();
      const r = endDay(m);
      times.endDay.push(nowUs() - t);
      return r;
    },
  };
  return { calls, times, nights };
}

/** The median cost of one timer pair (µs), subtracted from the breakdown. */
function timerCost(): number {
  const xs: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const s = nowUs();
    xs.push(nowUs() - s);
  }
  return median(xs);
}

function breakdown(run: Run, times: Record<Timed, number[]>): void {
  const pair = timerCost();
  const players = RANDOM_PLAYER_NAMES.map((name) => ({ name }));
  const starts: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const s = nowUs();
    startMatch({ players, seed: `start-${i}` });
    starts.push(nowUs() - s);
  }
  const rows = [
    ...(["act", "vote", "endNight", "endDay"] as const).map((name) => {
      const xs = times[name];
      return { name, us: sum(xs) - xs.length * pair, calls: xs.length, median: median(xs) };
    }),
    { name: "startMatch", us: median(starts) * run.games, calls: run.games, median: median(starts) },
  ];
  const totalUs = run.wallMs * 1000;
  const engine = sum(rows.map((r) => r.us));
  rows.push({ name: "the rest (player)", us: totalUs - engine, calls: run.games, median: NaN });
  console.log(
    `\nwhere a game's time goes (every call timed, ${fmt(pair, 2)} µs per timer pair subtracted; "the rest" is the random player plus the timing wrappers):`,
  );
  for (const r of rows)
    console.log(
      `  ${r.name.padEnd(18)} ${fmt((100 * r.us) / totalUs).padStart(5)} %  ${fmt(r.us / run.games).padStart(7)} µs/game  ${fmt(r.calls / run.games).padStart(5)} calls/game  ${Number.isNaN(r.median) ? "" : `median ${fmt(r.median, 2)} µs/call`}`,
    );
  console.log("");
}

/** The machine's pace: nanoseconds per iteration of a bare integer loop (a desktop does ~0.3–1 ns). */
function loopNs(): number {
  let x = 0;
  const n = 50_000_000;
  const start = performance.now();
  for (let i = 0; i < n; i++) x = (x + i * 7) | 0;
  const ns = ((performance.now() - start) * 1e6) / n;
  if (x === 0.5) console.log(x);
  return ns;
}

function main(): void {
  console.log(`engine bench: ${ROUNDS} rounds of ${ROUND_MS} ms, one core, node ${process.version}`);
  playFor("warmup", 2000);

  const recorded = record(200);
  playRecordedFor(recorded, 1000);
  const coreRate: number[] = [];
  const wallRate: number[] = [];
  const cpuRate: number[] = [];
  const wallRatio: number[] = [];
  const cpuRatio: number[] = [];
  const baseUs: number[] = [];
  const nightMedian: number[] = [];
  const resolveMedian: number[] = [];
  let phases = 0;
  let draws = 0;
  let games = 0;

  for (let round = 0; round < ROUNDS; round++) {
    // 1. Whole games, nothing timed inside, and the baseline right after them.
    const r = playFor(`round${round}`, ROUND_MS);
    const base = bareDraws(r.draws);
    wallRate.push((r.games * 1000) / r.wallMs);
    cpuRate.push((r.games * 1000) / r.cpuMs);
    wallRatio.push(r.wallMs / base.wallMs);
    cpuRatio.push(r.cpuMs / Math.max(base.cpuMs, 1e-3));
    baseUs.push((base.wallMs * 1000) / r.games);
    phases += r.phases;
    draws += r.draws;
    games += r.games;

    // 2. The engine alone, on recorded games.
    const core = playRecordedFor(recorded, ROUND_MS / 2);
    coreRate.push((core.games * 1000) / core.wallMs);

    // 3. The same kind of games with every Match call timed: endNight per call.
    const timed = timedCalls();
    const t = playFor(`timed${round}`, ROUND_MS / 3, timed.calls);
    nightMedian.push(median(timed.times.endNight));

    // 4. resolveNight alone, on the nights just played.
    const solo: number[] = [];
    for (const n of timed.nights) {
      const s = nowUs();
      resolveNight(n.state, n.ballots, n.input);
      solo.push(nowUs() - s);
    }
    resolveMedian.push(median(solo));

    if (round === ROUNDS - 1) breakdown(t, timed.times);
    console.log(
      `round ${round + 1}: ${fmt(wallRate[round]!, 0)} games/s wall, ${fmt(cpuRate[round]!, 0)} per CPU s; ` +
        `baseline ${fmt(baseUs[round]!)} µs/game (games / baseline ${fmt(wallRatio[round]!)}×); ` +
        `median endNight ${fmt(nightMedian[round]!, 2)} µs, resolveNight ${fmt(resolveMedian[round]!, 2)} µs; ` +
        `engine alone ${fmt(coreRate[round]!, 0)} games/s`,
    );
  }

  const rate = median(wallRate);
  console.log(`
games per second (median of ${ROUNDS} rounds):   ${fmt(rate, 0)} wall, ${fmt(median(cpuRate), 0)} per CPU second   (target ${fmt(TARGET, 0)}: ${rate >= TARGET ? "met" : `missed by ${fmt(TARGET / rate)}×`})
engine alone, recorded games replayed:    ${fmt(median(coreRate), 0)} games/s (the same games' inputs checked and resolved by the pure functions, without the random player and the Match log)
µs per game:                              ${fmt(1e6 / rate)}   (${fmt(phases / games)} phases, ${fmt(draws / games, 0)} draws of the player's generator)
median µs per night resolution:           ${fmt(median(nightMedian), 2)} (endNight), ${fmt(median(resolveMedian), 2)} (resolveNight alone)
baseline, bare rng.ts draws:              ${fmt(median(baseUs), 2)} µs per game's worth; a game costs ${fmt(median(wallRatio))}× that (CPU time: ${fmt(median(cpuRatio))}×)
machine pace, bare integer loop:          ${fmt(loopNs(), 2)} ns per iteration`);
  // The last line, for scripts: the median wall rate as an integer.
  console.log(`engine: ${Math.round(rate)} games/s`);
}

main();
