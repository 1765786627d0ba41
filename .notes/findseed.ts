import { readFileSync } from "node:fs";
import { runReplay } from "../packages/engine/src/index.ts";
const dir = "packages/engine/test/golden/";
const input = JSON.parse(readFileSync(dir + "full-game-town.json", "utf8"));
const want = JSON.stringify(JSON.parse(readFileSync(dir + "full-game-town.out.json", "utf8")));
for (let k = 0; k < 20000; k++) {
  const seed = `golden-17/${k}`;
  try {
    if (JSON.stringify(runReplay({ ...input, seed })) === want) { console.log(seed); break; }
  } catch { /* a seed that makes a later phase illegal */ }
}
