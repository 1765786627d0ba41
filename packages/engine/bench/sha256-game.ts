// One side of sha256.bench.ts's A/B: random 17-player games (as bench:engine plays them), this process's
// CPU time per game, the median of ROUNDS rounds, printed alone. Built twice: with src/sha256.ts, and with
// sha256-noble.ts in its place; the games are the same (the digests are).
import { randomGame } from "../src/random-play.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const GAMES = 500;
const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
let sink = 0;
for (let i = 0; i < 300; i++) sink ^= randomGame(`warm-${i}`).draws;
const rounds: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const t = cpuUs();
  for (let i = 0; i < GAMES; i++) sink ^= randomGame(`game-${r * GAMES + i}`).draws;
  rounds.push((cpuUs() - t) / GAMES);
}
rounds.sort((a, b) => a - b);
console.log(`${rounds[rounds.length >> 1]!.toFixed(2)} ${sink}`);
