// `npm run bench:bots` (issue 5): games per second of 17-bot games (playBotGame) against the engine-only
// random games of the engine bench (playRandomGame), on one core, measured in the same run: the rounds
// interleave the two, each figure is the median of the rounds, and the ratio is taken per round. Issue 16:
// games of talking bots (playTalkingGame: posts, replies, team channels) are measured in the same rounds;
// talking must keep bot games at no less than half the rate of silent ones.
//
// Each rate is taken over the CPU time the process spent (process.cpuUsage: user + system, GC threads
// included), which is what one core gives the games; on a machine busy with other work the wall-clock
// rate falls while the CPU-time rate holds. The wall-clock rates are printed beside them. The target: at
// least 1,000 silent bot games per second (the median of the rounds).
//   ROUNDS=5 ROUND_MS=2000 npm run bench:bots
import { performance } from "node:perf_hooks";
import { playBotGame, playRandomGame, playTalkingGame } from "../src/bots-entry.ts";
import type { Match } from "../src/index.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const ROUND_MS = Number(process.env.ROUND_MS ?? 2000);
/** Silent bot games per second wanted (issue 5). */
const TARGET = 1000;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmt = (x: number, digits = 1): string =>
  x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

interface Run {
  readonly games: number;
  readonly phases: number;
  /** CPU time of the process, in ms. */
  readonly ms: number;
  /** Wall-clock time, in ms. */
  readonly wallMs: number;
}

const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** Play games from `play` for about `ms` milliseconds of CPU time. */
function playFor(label: string, ms: number, play: (seed: string) => Match): Run {
  let games = 0;
  let phases = 0;
  const start = cpuMs();
  const wallStart = performance.now();
  let now = start;
  while (now - start < ms) {
    phases += play(`${label}-${games}`).outcomes.length;
    games++;
    now = cpuMs();
  }
  return { games, phases, ms: now - start, wallMs: performance.now() - wallStart };
}

/** Games per second of CPU time. */
const rate = (r: Run): number => (r.games * 1000) / r.ms;
/** Games per second of wall-clock time. */
const wallRate = (r: Run): number => (r.games * 1000) / r.wallMs;

function main(): void {
  console.log(
    `bots bench: ${ROUNDS} interleaved rounds of ${ROUND_MS} ms of CPU time each, one core, node ${process.version}`,
  );
  playFor("warmup-bots", 3000, (s) => playBotGame(s));
  playFor("warmup-random", 1000, (s) => playRandomGame(s));
  playFor("warmup-talk", 2000, (s) => playTalkingGame(s).match);
  const talking: number[] = [];
  const talkRatios: number[] = [];
  const bots: number[] = [];
  const random: number[] = [];
  const ratios: number[] = [];
  const wall = { bots: [] as number[], random: [] as number[], talking: [] as number[] };
  let botPhases = 0;
  let botGames = 0;
  let randomPhases = 0;
  let randomGames = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so neither always gets the warmer or the quieter half of a round.
    const first = round % 2 === 0;
    const b1 = first ? playFor(`bots${round}`, ROUND_MS, (s) => playBotGame(s)) : null;
    const r = playFor(`random${round}`, ROUND_MS, (s) => playRandomGame(s));
    const b = b1 ?? playFor(`bots${round}`, ROUND_MS, (s) => playBotGame(s));
    const t = playFor(`talk${round}`, ROUND_MS, (s) => playTalkingGame(s).match);
    talking.push(rate(t));
    talkRatios.push(rate(t) / rate(b));
    bots.push(rate(b));
    random.push(rate(r));
    ratios.push(rate(r) / rate(b));
    wall.bots.push(wallRate(b));
    wall.random.push(wallRate(r));
    wall.talking.push(wallRate(t));
    botPhases += b.phases;
    botGames += b.games;
    randomPhases += r.phases;
    randomGames += r.games;
    console.log(
      `round ${round + 1}: bots ${fmt(rate(b))} games/s, talking ${fmt(rate(t))} games/s, random ${fmt(rate(r))} games/s (random / bots ${fmt(ratios[round]!)}×; wall clock: bots ${fmt(wallRate(b))}, talking ${fmt(wallRate(t))}, random ${fmt(wallRate(r))})`,
    );
  }
  const botRate = median(bots);
  const randomRate = median(random);
  const talkRate = median(talking);
  const talkRatio = median(talkRatios);
  console.log(`
median of ${ROUNDS} rounds, one core (games per second of CPU time; wall clock after the bar):
  bot games (playBotGame):             ${fmt(botRate).padStart(9)} games/s   ${fmt(1000 / botRate, 2).padStart(7)} ms/game   ${fmt(botPhases / botGames)} phases/game | ${fmt(median(wall.bots)).padStart(9)} games/s
  random games (playRandomGame):       ${fmt(randomRate).padStart(9)} games/s   ${fmt(1000 / randomRate, 2).padStart(7)} ms/game   ${fmt(randomPhases / randomGames)} phases/game | ${fmt(median(wall.random)).padStart(9)} games/s
  talking bot games (playTalkingGame): ${fmt(talkRate).padStart(9)} games/s   ${fmt(1000 / talkRate, 2).padStart(7)} ms/game              | ${fmt(median(wall.talking)).padStart(9)} games/s
  a bot game costs ${fmt(median(ratios))}× a random game (median of the per-round ratios)
  talking bot games run at ${fmt(talkRatio, 2)}× the rate of silent ones (median of the per-round ratios; at least 0.5 wanted: ${talkRatio >= 0.5 ? "met" : "MISSED"})
  target ${fmt(TARGET, 0)} silent bot games/s: ${botRate >= TARGET ? "MET" : "MISSED"} (median ${fmt(botRate)} games/s of CPU time; ${fmt(median(wall.bots))} of wall clock)`);
}

main();
