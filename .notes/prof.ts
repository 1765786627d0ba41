import { randomGame } from "/work/main/packages/engine/src/random-play.ts";
let n = 0; const t = performance.now();
while (performance.now() - t < 6000) { randomGame(`g${n++}`); }
console.log(n / 6, "games/s");
