import type { NightAction } from "./night-action.ts";
import type { GameOptions } from "./options.ts";
import type { Player, Seat } from "./player.ts";
import type { RngState } from "./rng.ts";
import { roleSpec, type RoleId } from "./roles.ts";

export type Winner = "town" | "mafia" | "maniac" | "draw";

export interface Phase {
  readonly kind: "night" | "day";
  readonly number: number;
}

/** What last night leaves for tonight: the repeat limits (O1b) and T3e's silent limits. */
export interface NightMemory {
  /** Each seat's final own-slot submission last night, effective or not (O1b). */
  readonly own: readonly (NightAction | null)[];
  /** The sheriff/sergeant pair's final submission last night, effective or not (M2c's council questions). */
  readonly pair: NightAction | null;
  /** The doctor's heal (b) target last night (T3e, third limit). */
  readonly healTarget: Seat | null;
  /** Players whom last night's heal-from-role actually saved (T3e, second limit). */
  readonly savedByHealFrom: readonly Seat[];
  /** Torture and poison take the vote for two days (N1c, T3d): who loses the day after tomorrow. */
  readonly silencedNext: readonly Seat[];
}

/** What a night leaves for the day that follows it. */
export interface DayEffects {
  /** A1: who cannot vote today, as announced. */
  readonly silenced: readonly Seat[];
  /** M3: the boss whose vote is silently not counted. */
  readonly bossUncounted: Seat | null;
  /** O3: the lawyer's effective protect target (M5) and the prosecutor's effective unprotect (T5). */
  readonly protect: Seat | null;
  readonly unprotect: Seat | null;
  /** P2: players who get 2 red penalty votes today. */
  readonly penalty: readonly Seat[];
}

export interface GameState {
  readonly options: GameOptions;
  readonly players: readonly Player[];
  /** The phase now in play. */
  readonly phase: Phase;
  /** Alive at the start of the phase now in play (R1, M2, T3, T4, …). */
  readonly aliveAtStart: number;
  /** The current boss (M1), fixed when a night starts; null if no mafia is alive. */
  readonly boss: Seat | null;
  /** The roll stream (rng.ts), or null when no seed was given and every roll must be fixed. */
  readonly rng: RngState | null;
  readonly memory: NightMemory;
  readonly day: DayEffects;
  readonly winner: Winner | null;
}

/** The state with some fields changed, written out field by field (see withPlayer). */
export function withState(s: GameState, change: Partial<GameState>): GameState {
  return {
    options: change.options ?? s.options,
    players: change.players ?? s.players,
    phase: change.phase ?? s.phase,
    aliveAtStart: change.aliveAtStart ?? s.aliveAtStart,
    boss: "boss" in change ? change.boss! : s.boss,
    rng: "rng" in change ? change.rng! : s.rng,
    memory: change.memory ?? s.memory,
    day: change.day ?? s.day,
    winner: "winner" in change ? change.winner! : s.winner,
  };
}

export const NO_DAY_EFFECTS: DayEffects = {
  silenced: [],
  bossUncounted: null,
  protect: null,
  unprotect: null,
  penalty: [],
};

export function countAlive(players: readonly Player[]): number {
  let n = 0;
  for (const p of players) if (p.alive) n++;
  return n;
}

/** M1: the highest-ranked living mafioso in the succession, or null. */
export function currentBoss(
  players: readonly { readonly role: RoleId | null; readonly alive: boolean }[],
): Seat | null {
  let best: Seat | null = null;
  let bestRank = Infinity;
  for (let i = 0; i < players.length; i++) {
    const p = players[i]!;
    // A role the reader does not know (a player's view, night-form.ts) is outside the succession to them.
    const rank = p.role === null ? null : roleSpec(p.role).succession;
    if (p.alive && rank !== null && rank < bestRank) {
      best = i;
      bestRank = rank;
    }
  }
  return best;
}

/** W1's conditions, in the order they are checked, and who each one makes the winner. */
export const WIN_CONDITIONS = ["allDead", "noMafiaNoManiac", "maniacLast", "mafiaParity"] as const;
export type WinCondition = (typeof WIN_CONDITIONS)[number];
const WINNER_OF: { readonly [C in WinCondition]: Winner } = {
  allDead: "draw",
  noMafiaNoManiac: "town",
  maniacLast: "maniac",
  mafiaParity: "mafia",
};

/**
 * One pass over the table for W1 and the count of the living: the living, the living mafia and the living
 * maniac, packed as alive | mafia << 8 | maniac << 16 (a table has fewer than 256 seats). A phase's end
 * reads both the count and the winner, so it reads the table once.
 */
export function headcount(players: readonly Player[]): number {
  let alive = 0;
  let mafia = 0;
  let maniac = 0;
  for (let i = 0; i < players.length; i++) {
    const p = players[i]!;
    if (!p.alive) continue;
    alive++;
    const f = roleSpec(p.role).faction;
    if (f === "mafia") mafia++;
    else if (f === "maniac") maniac++;
  }
  return alive | (mafia << 8) | (maniac << 16);
}

/** The living in a headcount. */
export const aliveIn = (count: number): number => count & 0xff;

/** W1: the condition a headcount meets, checked in this order; null while the game runs. */
export function conditionOf(count: number): WinCondition | null {
  const alive = count & 0xff;
  const mafia = (count >> 8) & 0xff;
  const maniac = count >> 16;
  if (alive === 0) return "allDead";
  if (mafia === 0 && maniac === 0) return "noMafiaNoManiac";
  if (maniac > 0 && alive - maniac <= 1) return "maniacLast";
  if (maniac === 0 && mafia >= alive - mafia) return "mafiaParity";
  return null;
}

/** The winner a headcount gives (W1), or null while the game runs. */
export function winnerIn(count: number): Winner | null {
  const condition = conditionOf(count);
  return condition === null ? null : WINNER_OF[condition];
}

/** W1: the condition the table meets, checked in this order after every night and day; null while it runs. */
export function winCondition(players: readonly Player[]): WinCondition | null {
  return conditionOf(headcount(players));
}

export function winnerOf(players: readonly Player[]): Winner | null {
  const condition = winCondition(players);
  return condition === null ? null : WINNER_OF[condition];
}
