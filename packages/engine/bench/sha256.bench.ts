// `npm run bench:sha256` (issue 29, item 6): what src/sha256.ts saves on a whole random 17-player game
// against @noble/hashes' fastest call. The rule: keep our SHA-256 only while it saves at least 5 % of a
// random game. Two measures, CPU time (the machine is small and shared; wall time is unusable under load):
//
// 1. Per call, in this process: ours and noble's calls on the labels a game hashes (`play:`, `deal:`,
//    `rolls:` and a bot's `bot:…:s`), beside random games, each the median of ROUNDS rounds, interleaved;
//    a random game hashes three labels, a bot game nineteen, hence each one's share of a game.
// 2. A whole game, A/B: sha256-game.ts built twice (ours, and sha256-noble.ts in its place), run in
//    PAIRS alternating processes; the saving is the median over the pairs of (noble − ours) / noble.
//
//   PAIRS=30 ROUNDS=15 npm run bench:sha256
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { build, type Plugin } from "esbuild";
import { playBotGame } from "../src/bots.ts";
import { randomGame } from "../src/random-play.ts";
import { sha256Words } from "../src/sha256.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const PAIRS = Number(process.env.PAIRS ?? 30);
const root = resolve(import.meta.dirname, "../../..");
const out = join(root, "node_modules/.cache/bench");

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const quartiles = (xs: readonly number[]): [number, number] => {
  const s = [...xs].sort((a, b) => a - b);
  return [s[Math.floor(s.length / 4)]!, s[Math.floor((3 * s.length) / 4)]!];
};
const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const pct = (x: number): string => `${x.toFixed(2)} %`;
let sink = 0;

// ——— 1. per call ———
const encoder = new TextEncoder();
const HASHES: Record<string, (s: string) => number> = {
  ours: (s) => sha256Words(s)[0]!,
  "noble sha256(utf8ToBytes(s))": (s) => sha256(utf8ToBytes(s))[0]!,
  "noble sha256(TextEncoder)": (s) => sha256(encoder.encode(s))[0]!,
  "noble create().update()": (s) => sha256.create().update(utf8ToBytes(s)).digest()[0]!,
};
function perCall(hash: (s: string) => number, n: number, base: number): number {
  const labels: string[] = [];
  for (let i = 0; i < n; i++) {
    const seed = `hash-${base + i}`;
    labels.push(`play:${seed}`, `deal:${seed}`, `rolls:${seed}`, `bot:${seed}:${i % 17}`);
  }
  const t = cpuUs();
  for (const l of labels) sink ^= hash(l);
  return (cpuUs() - t) / labels.length;
}
function perGame(play: (seed: string) => number, n: number, base: number): number {
  const t = cpuUs();
  for (let i = 0; i < n; i++) sink ^= play(`game-${base + i}`);
  return (cpuUs() - t) / n;
}
const random = (seed: string): number => randomGame(seed).draws;
const bot = (seed: string): number => playBotGame(seed).outcomes.length;
perGame(random, 300, 1e6);
perGame(bot, 20, 1e6);
for (const h of Object.values(HASHES)) perCall(h, 20_000, 2e6);
const times: Record<string, number[]> = { random: [], bot: [] };
for (const k of Object.keys(HASHES)) times[k] = [];
for (let r = 0; r < ROUNDS; r++) {
  times.random!.push(perGame(random, 400, r * 100_000));
  times.bot!.push(perGame(bot, 30, r * 100_000));
  for (const [k, h] of Object.entries(HASHES)) times[k]!.push(perCall(h, 25_000, r * 100_000));
}
const game = median(times.random!);
const botGame = median(times.bot!);
console.log(`1. per call (CPU µs, medians of ${ROUNDS} rounds, same run)`);
console.log(
  `   a random 17-player game: ${game.toFixed(1)} µs (3 hashes); a bot game: ${botGame.toFixed(1)} µs (19)`,
);
for (const k of Object.keys(HASHES)) {
  const us = median(times[k]!);
  console.log(
    `   ${k.padEnd(30)} ${us.toFixed(3)} µs a hash: ${pct((300 * us) / game)} of a random game, ${pct((1900 * us) / botGame)} of a bot game`,
  );
}
const noble = Math.min(
  ...Object.keys(HASHES)
    .filter((k) => k !== "ours")
    .map((k) => median(times[k]!)),
);
const ours = median(times.ours!);
console.log(
  `   ours saves ${pct((300 * (noble - ours)) / game)} of a random game against noble's fastest call (${pct((1900 * (noble - ours)) / botGame)} of a bot game)`,
);

// ——— 2. a whole game, A/B ———
mkdirSync(out, { recursive: true });
const noblePlugin: Plugin = {
  name: "noble-sha256",
  setup(b) {
    b.onResolve({ filter: /\/sha256\.ts$/ }, (a) =>
      a.importer.endsWith(join("src", "rng.ts"))
        ? { path: join(import.meta.dirname, "sha256-noble.ts") }
        : undefined,
    );
  },
};
const entry = join(import.meta.dirname, "sha256-game.ts");
const files = { ours: join(out, "sha256-ours.mjs"), noble: join(out, "sha256-noble.mjs") };
await build({
  entryPoints: [entry],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: files.ours,
  logLevel: "warning",
});
await build({
  entryPoints: [entry],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: files.noble,
  plugins: [noblePlugin],
  logLevel: "warning",
});
const run = (file: string): { us: number; sink: string } => {
  const [us, s] = execFileSync(process.execPath, [file], { env: { ...process.env, ROUNDS: String(ROUNDS) } })
    .toString()
    .trim()
    .split(" ");
  return { us: Number(us), sink: s! };
};
const pairs: { ours: number; noble: number }[] = [];
for (let i = 0; i < PAIRS; i++) {
  // Alternate which goes first, so that neither always runs on a cooler or a warmer machine.
  let a: { us: number; sink: string };
  let b: { us: number; sink: string };
  if (i % 2 === 0) {
    a = run(files.ours);
    b = run(files.noble);
  } else {
    b = run(files.noble);
    a = run(files.ours);
  }
  if (a.sink !== b.sink) throw new Error("the two builds played different games: their digests differ");
  pairs.push({ ours: a.us, noble: b.us });
}
const saved = pairs.map((p) => (100 * (p.noble - p.ours)) / p.noble);
const [q1, q3] = quartiles(saved);
console.log(
  `2. a whole random game, A/B (CPU µs a game, medians over ${PAIRS} pairs of processes, ${ROUNDS} rounds each)`,
);
console.log(
  `   ours ${median(pairs.map((p) => p.ours)).toFixed(1)} µs, noble ${median(pairs.map((p) => p.noble)).toFixed(1)} µs: ours saves ${pct(median(saved))} (quartiles ${pct(q1)} to ${pct(q3)})`,
);
console.log(`sha256: ours saves ${pct(median(saved))} of a random game (keep it at ≥ 5 %)`);
if (sink === 0.5) console.log(sink);
