import { withPlayer, type Player, type Seat } from "./player.ts";
import { reject, type Rejection } from "./rejection.ts";
import { roleSpec, type RoleId } from "./roles.ts";
import {
  NO_DAY_EFFECTS,
  aliveIn,
  currentBoss,
  headcount,
  winnerIn,
  type GameState,
  type Phase,
  type Winner,
} from "./state.ts";
import { struckOut } from "./strikes.ts";
import type { DayBallots } from "./vote.ts";

/** Everything the day decided (A3). */
export interface DayOutcome {
  readonly phase: Phase;
  /** V5: every living player's score, penalties included (zero scores left out). */
  readonly score: ReadonlyMap<Seat, number>;
  readonly hanged: Seat | null;
  /** V8: the player the lawyer saved. */
  readonly excused: Seat | null;
  readonly closedEarly: boolean;
  /** P1, P2: who got the +2. */
  readonly penalized: readonly Seat[];
  /** M3: votes cast but not counted. */
  readonly uncounted: readonly Seat[];
  /** P1: who did not vote (and got a strike). */
  readonly notVoted: readonly Seat[];
  readonly modkilled: readonly Seat[];
  readonly died: readonly Seat[];
  readonly revealed: ReadonlyMap<Seat, RoleId>;
  readonly winner: Winner | null;
}

/**
 * The day's scores and marks per seat, reused from day to day: they never leave closeDay, and are cleared
 * before use (a fresh array per day costs more than the tally).
 */
let SCORE = new Float64Array(32);
let FLAGS = new Uint8Array(32);
const PENALIZED = 1;
const MISSED = 2;
const SILENCED = 4;

/** SCORE and FLAGS for a table of n seats, cleared. */
function clearMarks(n: number): void {
  if (SCORE.length < n) {
    SCORE = new Float64Array(n);
    FLAGS = new Uint8Array(n);
  }
  for (let i = 0; i < n; i++) {
    SCORE[i] = 0;
    FLAGS[i] = 0;
  }
}

/** Close the day (early or at the deadline): tally, penalties, the lawyer, modkills, reveals, win check. */
export function closeDay(
  state: GameState,
  ballots: DayBallots,
  gmModkills: readonly Seat[],
): { state: GameState; outcome: DayOutcome } | Rejection {
  if (state.winner !== null) return reject("game/over", "W1", "the game is over");
  if (state.phase.kind !== "day") return reject("day/out-of-phase", "V1", "there is no day to close");
  const n = state.players.length;
  clearMarks(n);
  const score = SCORE;
  const flags = FLAGS; // PENALIZED, MISSED, SILENCED
  const notVoted: Seat[] = [];
  const uncounted: Seat[] = [];
  for (const seat of state.day.silenced) flags[seat]! |= SILENCED;
  for (const seat of state.day.penalty) {
    score[seat]! += 2; // P2
    flags[seat]! |= PENALIZED;
  }
  for (let seat = 0; seat < n; seat++) {
    if (!state.players[seat]!.alive || (flags[seat]! & SILENCED) !== 0) continue; // V6 (mayVote)
    const vote = ballots.votes[seat];
    if (!vote) {
      score[seat]! += 2; // P1
      flags[seat]! |= PENALIZED | MISSED;
      notVoted.push(seat);
      continue;
    }
    if (state.day.bossUncounted === seat) {
      uncounted.push(seat); // M3, V6: accepted, shown, silently not counted
      continue;
    }
    const spec = roleSpec(state.players[seat]!.role);
    if (vote.color === "red") score[vote.target]! += spec.redWeight;
    else score[vote.target]! -= spec.blueWeight; // V4
  }

  // V5, G3: the unique highest score above zero is hanged. The same pass lists the living players' scores
  // (zero left out) and who got the +2, both in seat order.
  let top: Seat | null = null;
  let best = 0;
  let tie = false;
  const scoreMap = new Map<Seat, number>();
  const penalizedSeats: Seat[] = [];
  for (let seat = 0; seat < n; seat++) {
    if ((flags[seat]! & PENALIZED) !== 0) penalizedSeats.push(seat);
    if (!state.players[seat]!.alive) continue;
    const s = score[seat]!;
    if (s !== 0) scoreMap.set(seat, s);
    if (s > best) {
      best = s;
      top = seat;
      tie = false;
    } else if (s === best && s > 0) tie = true;
  }
  let hanged = tie ? null : top;
  let excused: Seat | null = null;
  // V8: the lawyer's effective protect, unless the prosecutor named the same player.
  if (hanged !== null && state.day.protect === hanged && state.day.unprotect !== hanged) {
    excused = hanged;
    hanged = null;
  }

  const players: Player[] = state.players.slice();
  for (const seat of notVoted)
    players[seat] = withPlayer(players[seat]!, { voteStrikes: players[seat]!.voteStrikes + 1 });
  const died: Seat[] = [];
  const modkilled: Seat[] = [];
  for (let seat = 0; seat < n; seat++) {
    if (!players[seat]!.alive) continue;
    if (seat === hanged) died.push(seat);
    else if (
      ((flags[seat]! & MISSED) !== 0 && struckOut(players[seat]!, state.options)) ||
      (gmModkills.length > 0 && gmModkills.includes(seat))
    ) {
      modkilled.push(seat); // P3, F2
      died.push(seat);
    }
  }
  for (const seat of died) players[seat] = withPlayer(players[seat]!, { alive: false });
  const revealed = new Map<Seat, RoleId>();
  if (state.aliveAtStart > state.options.revealAbove)
    for (const seat of died) revealed.set(seat, players[seat]!.role); // R1

  const count = headcount(players);
  const winner = winnerIn(count);
  const next: GameState = {
    options: state.options,
    players,
    phase: { kind: "night", number: state.phase.number + 1 },
    aliveAtStart: aliveIn(count),
    boss: currentBoss(players), // M1: succession takes effect from the next night
    rng: state.rng,
    memory: state.memory,
    day: NO_DAY_EFFECTS,
    winner,
  };
  return {
    state: next,
    outcome: {
      phase: state.phase,
      score: scoreMap,
      hanged,
      excused,
      closedEarly: ballots.closedEarly,
      penalized: penalizedSeats,
      uncounted,
      notVoted,
      modkilled,
      died,
      revealed,
      winner,
    },
  };
}
