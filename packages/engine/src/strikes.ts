import { isThugBoss, type NightBallots } from "./night-action.ts";
import type { GameOptions } from "./options.ts";
import type { Player, Seat } from "./player.ts";
import { inPair, isMafia, roleSpec } from "./roles.ts";
import type { GameState } from "./state.ts";

/**
 * P3: does this player's latest strike make a second one (shared or separate counting)? G5's strikes
 * (issue 31) are a third kind: counted with the others when shared, on their own when separate (a careful
 * GM does not let a swearing player's absence count double, nor an absent player's swearing).
 */
export function struckOut(player: Player, options: GameOptions): boolean {
  return options.strikes === "shared"
    ? player.voteStrikes + player.nightStrikes + player.conductStrikes >= 2
    : player.voteStrikes >= 2 || player.nightStrikes >= 2 || player.conductStrikes >= 2;
}

/**
 * Where a seat's night move stands: `none` (dead, or nothing owed: a citizen, T7; the troll or the elf
 * while no mafia action is in, P2); `owes` (P2's strike if nothing comes by the deadline); `sent` (this
 * seat sent its own move, or the team's); `mafia` or `pair` (a teammate sent the team's one move, which
 * covers this seat: M4, T1).
 */
export type SeatTonight = "none" | "owes" | "sent" | "mafia" | "pair";

const sent = (slots: NightBallots["own"], seat: Seat): boolean => (slots[seat] ?? null) !== null;

/**
 * O1, M4, M6, T1, P2: each seat's night move tonight, from the state and the night's ballots. The seats
 * it finds owing are the ones P2 strikes if the night ends so (missedMoves), so the GM's table and the
 * strikes cannot disagree.
 */
export function nightMoves(state: GameState, ballots: NightBallots): SeatTonight[] {
  const players = state.players;
  const boss = state.boss;
  const thugBoss = boss !== null && isThugBoss(state, boss);
  // M4: the mafia's move is in when any living mafioso sent it; M6: a thug who is boss sends it alone.
  let mafiaIn = false;
  if (thugBoss) mafiaIn = sent(ballots.own, boss);
  else
    for (let i = 0; i < players.length && boss !== null; i++)
      if (players[i]!.alive && isMafia(players[i]!.role) && sent(ballots.mafia, i)) mafiaIn = true;
  return players.map((p, seat): SeatTonight => {
    if (!p.alive) return "none";
    if (seat === boss) {
      if (thugBoss) return sent(ballots.own, seat) ? "sent" : "owes";
      return sent(ballots.mafia, seat) ? "sent" : mafiaIn ? "mafia" : "owes";
    }
    if (inPair(p.role)) {
      if (ballots.pair === null) return "owes"; // T1, P2: both are struck when the pair sends nothing
      return ballots.pairBy === seat ? "sent" : "pair";
    }
    if (roleSpec(p.role).ownAct !== null) return sent(ballots.own, seat) ? "sent" : "owes";
    // P2: the troll and the elf have no move of their own; the mafia's is the boss's to answer for.
    if (isMafia(p.role)) return sent(ballots.mafia, seat) ? "sent" : mafiaIn ? "mafia" : "none";
    return "none";
  });
}

/** P2: the seats that get a night strike (and +2 tomorrow) if the night ends with these ballots. */
export function missedMoves(state: GameState, ballots: NightBallots): Seat[] {
  const out: Seat[] = [];
  nightMoves(state, ballots).forEach((move, seat) => {
    if (move === "owes") out.push(seat);
  });
  return out;
}
