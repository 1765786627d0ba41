import { randomGame, matchEvents, createGame, submitNightAction, castVote, resolveNight, closeDay, emptyBallots, emptyDayBallots, isRejection, type LogEvent, type GameState, type Seat } from "/work/main/packages/engine/src/index.ts";
const games: { seed: string; events: LogEvent[]; options: GameState["options"] }[] = [];
for (let i = 0; i < 300; i++) { const g = randomGame(`c${i}`); games.push({ seed: `c${i}`, events: matchEvents(g.match), options: g.match.state.options }); }
const players = Array.from({ length: 17 }, (_, i) => ({ name: `Игрок${i + 1}` }));
function play(seed: string, events: LogEvent[], options: GameState["options"]) {
  let s = createGame({ players, seed, options }) as GameState;
  let nb = emptyBallots(17); let db = emptyDayBallots(17); let mk: Seat[] = [];
  for (const e of events) {
    switch (e.kind) {
      case "act": { const r = submitNightAction(s, nb, e.seat, e.action); if (isRejection(r)) throw new Error(r.message); nb = r; break; }
      case "vote": { const r = castVote(s, db, e.seat, e.vote); if (isRejection(r)) throw new Error(r.message); db = r; break; }
      case "modkill": mk.push(e.seat); break;
      case "endNight": { const r = resolveNight(s, nb, { rolls: e.decisions.rolls, council: e.decisions.council, modkills: mk }); if (isRejection(r)) throw new Error(r.message); s = r.state; nb = emptyBallots(17); mk = []; break; }
      case "endDay": { const r = closeDay(s, db, mk); if (isRejection(r)) throw new Error(r.message); s = r.state; db = emptyDayBallots(17); mk = []; break; }
      default: break;
    }
  }
  return s;
}
for (let k = 0; k < 3; k++) for (const g of games) play(g.seed, g.events, g.options);
const t = performance.now(); let n = 0;
while (performance.now() - t < 4000) { for (const g of games) { play(g.seed, g.events, g.options); n++; } }
console.log("core replay games/s", (n * 1000) / (performance.now() - t));
const t2 = performance.now(); let n2 = 0;
while (performance.now() - t2 < 2000) { for (const g of games) { createGame({ players, seed: g.seed }); n2++; } }
console.log("createGame µs", ((performance.now() - t2) * 1000) / n2);
