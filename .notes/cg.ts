import { createGame, rngFromSeed, nameKey } from "../packages/engine/src/index.ts";
const players = Array.from({ length: 17 }, (_, i) => ({ name: `Игрок${i + 1}` }));
for (const [label, f] of [
  ["createGame", (i: number) => createGame({ players, seed: `s${i}` })],
  ["rngFromSeed", (i: number) => rngFromSeed(`s${i}`)],
  ["17 nameKey", (i: number) => { for (const p of players) nameKey(p.name + (i & 1)); }],
] as const) {
  for (let i = 0; i < 2000; i++) f(i);
  const t = performance.now(); let n = 0;
  while (performance.now() - t < 1000) { f(n++); }
  console.log(label, ((performance.now() - t) * 1000 / n).toFixed(2), "µs");
}
