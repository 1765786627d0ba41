import { playerLabel, type Seat } from "./player.ts";
import { nulls } from "./night-action.ts";
import { reject, type Rejection } from "./rejection.ts";
import type { GameState } from "./state.ts";

export type VoteColor = "red" | "blue";

export interface Vote {
  readonly color: VoteColor;
  readonly target: Seat;
  /** V7: carries the word "досрочно"; it has effect from day 3 on. */
  readonly early: boolean;
}

/** The day's ballots: each player's last vote (V1), and whether the day closed early (V7). */
export interface DayBallots {
  readonly votes: readonly (Vote | null)[];
  /**
   * The voters in the order their last votes were cast (a changed vote moves its voter to the end), so
   * the public count lists voters as they voted. The tally never reads it (V5 does not depend on order).
   */
  readonly order: readonly Seat[];
  readonly closedEarly: boolean;
}

const NO_VOTERS: readonly Seat[] = [];

export function emptyDayBallots(seats: number): DayBallots {
  return { votes: nulls(seats), order: NO_VOTERS, closedEarly: false };
}

/** V6: the living players who may vote today (the M3 boss keeps the right in public). */
export function mayVote(state: GameState, seat: Seat): boolean {
  return state.players[seat]?.alive === true && !state.day.silenced.includes(seat);
}

/** V7, S3: whether an early vote has effect on this day (from `earlyFromDay`, 3 by default). */
export const earlyCounts = (day: number, earlyFromDay: number): boolean => day >= earlyFromDay;

/** V1, V3, V6, V7, G7: check one vote as the server would. */
export function checkVote(state: GameState, ballots: DayBallots, seat: Seat, vote: Vote): Rejection | null {
  const voter = state.players[seat];
  if (!voter) return reject("vote/unknown-player", "V1", "no such player");
  if (state.winner !== null) return reject("game/over", "W1", "the game is over");
  if (state.phase.kind !== "day")
    return reject("vote/out-of-phase", "V1", `${playerLabel(voter)} may not vote: it is not day`);
  if (ballots.closedEarly)
    return reject("vote/day-closed", "V7", `${playerLabel(voter)} may not vote: the day has closed early`);
  if (!voter.alive) return reject("vote/dead-voter", "G7", `${playerLabel(voter)} is dead and cannot vote`);
  if (!mayVote(state, seat)) return reject("vote/silenced", "V6", `${playerLabel(voter)} cannot vote today`);
  const target = state.players[vote.target];
  if (!target) return reject("vote/unknown-target", "V1", `${playerLabel(voter)} votes for no such player`);
  if (vote.target === seat)
    return reject("vote/self", "V3", `${playerLabel(voter)} may not vote for themselves`);
  if (!target.alive)
    return reject(
      "vote/dead-target",
      "V1",
      `${playerLabel(voter)} may not vote for ${target.name}: not alive`,
    );
  const last = ballots.votes[seat];
  if (last && last.early && earlyCounts(state.phase.number, state.options.earlyFromDay))
    return reject(
      "vote/early-final",
      "V7",
      `${playerLabel(voter)} has voted early and may not change the vote`,
    );
  return null;
}

/** Cast (or replace) a vote; the day closes at once when enough early votes are in (V7). */
export function castVote(
  state: GameState,
  ballots: DayBallots,
  seat: Seat,
  vote: Vote,
): DayBallots | Rejection {
  const bad = checkVote(state, ballots, seat, vote);
  if (bad) return bad;
  const votes = ballots.votes.slice();
  votes[seat] = vote;
  // The voter moves to the end. Built by hand into an array of the exact length: concat and filter cost
  // more than the whole vote, and a push after a copy allocates the array twice.
  const prev = ballots.order;
  const was = prev.indexOf(seat);
  const order = new Array<Seat>(was < 0 ? prev.length + 1 : prev.length);
  let k = 0;
  for (let i = 0; i < prev.length; i++) if (i !== was) order[k++] = prev[i]!;
  order[k] = seat;
  let closedEarly = false;
  // V7: only an early vote can close the day (an early vote is final, and who may vote is fixed all day).
  if (vote.early && earlyCounts(state.phase.number, state.options.earlyFromDay)) {
    let eligible = 0;
    let early = 0;
    for (let i = 0; i < votes.length; i++) {
      if (!mayVote(state, i)) continue;
      eligible++;
      if (votes[i]?.early) early++;
    }
    closedEarly = state.options.earlyClose === "all" ? early === eligible : early * 2 > eligible;
  }
  return { votes, order, closedEarly };
}
