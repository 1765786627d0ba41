/**
 * Issue 28: a stalled game, read from public facts only. The rules have no end for a game in which nobody
 * dies: they give the GM the means to move it on, modkills (F2) and the strikes that end in one (P1, P2,
 * P3). The platform only says that a game has stalled, to the GM and to the players alike; everything it
 * reads is in the public results (A1, A3: deaths, modkills and hangings are announced to everyone), so the
 * notice tells nobody anything they could not count themselves.
 *
 * [reading] A game has stalled when STALL_CYCLES (3) full cycles in a row, three nights and three days,
 * have closed with no death (a modkill included) and no hanging. Why three:
 * - A quiet night or a quiet day alone is ordinary: a heal (T3b), a block of the boss (T4), a tie (G3), an
 *   excuse (V8). Two in a row still happen in play. The repeat limits (M6, T3e, T4, T6) stop the same save
 *   or block from working two nights running, so a third quiet cycle means those limits have lapsed
 *   (alive at night start equals `lapseAt`) or the players are deadlocked on the vote as well: the loop the
 *   balance estimate found (the girl blocks the boss every night, the lawyer's boss is excused every day).
 * - It is not a run of absent players: whoever misses a vote or a night move gets a strike (P1, P2), and
 *   the second strike is a modkill at the end of that phase (P3), which is a death and ends the streak.
 * - Bot games of the classic 17 last about five and a half days (`npm run simulate -- --setup`): three
 *   quiet cycles are more than half a game's length.
 * The count restarts at any death or hanging; an ended game (W1) never stalls.
 */
import type { DayResults, NightResults } from "./events.ts";
import type { Phase } from "./state.ts";

/** Full night-and-day cycles in a row with no death and no hanging after which a game has stalled. */
export const STALL_CYCLES = 3;

/** A stalled game: the quiet streak, from its first phase, as counts of nights and days. */
export interface Stall {
  /** The first phase of the streak: no death and no hanging from its results on. */
  readonly since: Phase;
  /** Nights and days closed in a row with no death and no hanging (each at least STALL_CYCLES). */
  readonly nights: number;
  readonly days: number;
}

/** A phase's public results: did anyone die (a modkill included) or hang? */
const quiet = (r: NightResults | DayResults): boolean =>
  r.died.length === 0 && r.modkilled.length === 0 && (r.type === "nightResults" || r.hanged === null);

/**
 * Whether the game whose public results (oldest first, as GameView.results holds them) are these has
 * stalled, and since when; null when it has not, or has ended (W1).
 */
export function stallOf(
  results: readonly (NightResults | DayResults)[],
  cycles: number = STALL_CYCLES,
): Stall | null {
  const last = results[results.length - 1];
  if (last === undefined || last.winner !== null) return null;
  let nights = 0;
  let days = 0;
  let since: Phase | null = null;
  for (let i = results.length - 1; i >= 0; i--) {
    const r = results[i]!;
    if (!quiet(r)) break;
    if (r.type === "nightResults") nights++;
    else days++;
    since = r.phase;
  }
  if (since === null || nights < cycles || days < cycles) return null;
  return { since, nights, days };
}
