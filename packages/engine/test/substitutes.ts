/** Test helper: random legal games with the GM's modkills (F2) and now and then a substitute (P4). */
import { endDay, isRejection, replace, type Match } from "../src/index.ts";
import { MATCH_CALLS, playRandomGame } from "../src/random-play.ts";

/** A random legal game from `seed` in which every third day ends with a substitute in the first living seat (P4). */
export function gameWithSubstitutes(seed: string): Match {
  let n = 0;
  return playRandomGame(seed, {
    calls: {
      ...MATCH_CALLS,
      endDay: (match) => {
        const living = match.state.players.findIndex((p) => p.alive);
        const swapped = n++ % 3 === 0 ? replace(match, living, `Замена${n}`) : match;
        return endDay(isRejection(swapped) ? match : swapped);
      },
    },
  });
}
