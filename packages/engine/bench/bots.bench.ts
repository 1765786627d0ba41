// `npm run bench:bots` (issue 5): games per second of 17-bot games (playBotGame) against the engine-only
// random games of the engine bench (playRandomGame), on one core, measured in the same run: the rounds
// interleave the two, each figure is the median of the rounds, and the ratio is taken per round. Issue 16:
// games of talking bots (playTalkingGame: posts, replies, team channels) are measured in the same rounds;
// talking must keep bot games at no less than half the rate of silent ones.
//   ROUNDS=5 ROUND_MS=2000 npm run bench:bots
import { performance } from "node:perf_hooks";
import { playBotGame, playRandomGame, playTalkingGame } from "../src/bots-entry.ts";
import type { Match } from "../src/index.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const ROUND_MS = Number(process.env.ROUND_MS ?? 2000);

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
  readonly ms: number;
}

/** Play games from `play` for about `ms` milliseconds of wall time. */
function playFor(label: string, ms: number, play: (seed: string) => Match): Run {
  let games = 0;
  let phases = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    phases += play(`${label}-${games}`).outcomes.length;
    games++;
    now = performance.now();
  }
  return { games, phases, ms: now - start };
}

const rate = (r: Run): number => (r.games * 1000) / r.ms;

function main(): void {
  console.log(
    `bots bench: ${ROUNDS} interleaved rounds of ${ROUND_MS} ms each, one core, node ${process.version}`,
  );
  playFor("warmup-bots", 3000, (s) => playBotGame(s));
  playFor("warmup-random", 1000, (s) => playRandomGame(s));
  playFor("warmup-talk", 2000, (s) => playTalkingGame(s).match);
  const talking: number[] = [];
  const talkRatios: number[] = [];
  const bots: number[] = [];
  const random: number[] = [];
  const ratios: number[] = [];
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
    botPhases += b.phases;
    botGames += b.games;
    randomPhases += r.phases;
    randomGames += r.games;
    console.log(
      `round ${round + 1}: bots ${fmt(rate(b))} games/s, talking ${fmt(rate(t))} games/s, random ${fmt(rate(r))} games/s (random / bots ${fmt(ratios[round]!)}×)`,
    );
  }
  const botRate = median(bots);
  const randomRate = median(random);
  console.log(`
median of ${ROUNDS} rounds, one core:
  bot games (playBotGame):         ${fmt(botRate).padStart(9)} games/s   ${fmt(1000 / botRate, 2).padStart(7)} ms/game   ${fmt(botPhases / botGames)} phases/game
  random games (playRandomGame):   ${fmt(randomRate).padStart(9)} games/s   ${fmt(1000 / randomRate, 2).padStart(7)} ms/game   ${fmt(randomPhases / randomGames)} phases/game
  talking bot games (playTalkingGame): ${fmt(median(talking)).padStart(9)} games/s   ${fmt(1000 / median(talking), 2).padStart(7)} ms/game
  a bot game costs ${fmt(median(ratios))}× a random game (median of the per-round ratios)
  talking bot games run at ${fmt(median(talkRatios), 2)}× the rate of silent ones (median of the per-round ratios; at least 0.5 wanted)`);
}

main();
