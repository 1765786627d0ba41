/**
 * The night form: the acts a player may send tonight, each with its legal targets (O1, O1a, O1b). It is
 * what a player's screen offers and what a bot chooses from. Every input here is something the player
 * knows: their own role and last night's submission (O1b), who is alive, how many were alive at the
 * night's start, and, for the mafia, who the mafia are (S2). T3c's "both mafia and maniac alive" is known
 * too: while more than 10 are alive every death has been announced with its role (R1). The same logic as
 * the server's action form.
 */
import type { ClauseId } from "./clauses.ts";
import {
  HEAL_FROM_ROLES,
  actsFor,
  checkNightAction,
  type ActKind,
  type HealFromRole,
  type NightAction,
} from "./night-action.ts";
import type { Seat } from "./player.ts";
import type { GameState } from "./state.ts";

export interface NightFormAct {
  readonly act: ActKind;
  /** The seats a targeted act may name (for the mafia: those a one-kill action may name); else empty. */
  readonly targets: readonly Seat[];
  /** T3c: the roles a heal-from-role may name tonight (only for healFrom). */
  readonly roles: readonly HealFromRole[];
  /**
   * The living players a targeted act (or the mafia's) may not name tonight, each with the refusal the
   * submission would get (O1: "night/repeat-target", T4), so a form can list them disabled with the reason.
   */
  readonly unavailable: readonly UnavailableTarget[];
}

/** A living player the act may not name tonight, and why: the code and clause of checkNightAction's refusal. */
export interface UnavailableTarget {
  readonly seat: Seat;
  readonly reason: string;
  readonly clause: ClauseId;
}

export interface NightForm {
  readonly acts: readonly NightFormAct[];
  /** M2: how many the mafia may kill and intimidate tonight; null for a player without the mafia's action. */
  readonly mafiaLimits: { readonly kill: number; readonly intimidate: number } | null;
}

const NO_SEATS: readonly Seat[] = [];
const NO_ROLES: readonly HealFromRole[] = [];
const NONE_UNAVAILABLE: readonly UnavailableTarget[] = [];

/** Every living player's refusal for this act, or null where the act may name them. */
function targetsOf(
  state: GameState,
  seat: Seat,
  action: (target: Seat) => NightAction,
): { targets: Seat[]; unavailable: UnavailableTarget[] } {
  const targets: Seat[] = [];
  const unavailable: UnavailableTarget[] = [];
  for (let t = 0; t < state.players.length; t++) {
    if (!state.players[t]!.alive) continue;
    const bad = checkNightAction(state, seat, action(t));
    if (bad === null) targets.push(t);
    else unavailable.push({ seat: t, reason: bad.code, clause: bad.clause });
  }
  return { targets, unavailable };
}

/** The acts open to `seat` tonight with their targets, or null when the player has no act tonight. */
export function nightForm(state: GameState, seat: Seat): NightForm | null {
  if (state.phase.kind !== "night") return null;
  const kinds = actsFor(state, seat);
  if (kinds.length === 0) return null;
  const acts: NightFormAct[] = [];
  for (const act of kinds) {
    switch (act) {
      case "mafia": {
        const { targets, unavailable } = targetsOf(state, seat, (t) => ({
          act: "mafia",
          kill: [t],
          intimidate: [],
        }));
        acts.push({ act, targets, roles: NO_ROLES, unavailable });
        break;
      }
      case "healFrom": {
        const roles = HEAL_FROM_ROLES.filter(
          (role) => checkNightAction(state, seat, { act: "healFrom", role }) === null,
        );
        if (roles.length > 0) acts.push({ act, targets: NO_SEATS, roles, unavailable: NONE_UNAVAILABLE });
        break;
      }
      case "council":
      case "pass":
        acts.push({ act, targets: NO_SEATS, roles: NO_ROLES, unavailable: NONE_UNAVAILABLE });
        break;
      default: {
        // The same check as legalTargets, keeping each refusal.
        const { targets, unavailable } = targetsOf(state, seat, (target) => ({ act, target }));
        if (targets.length > 0) acts.push({ act, targets, roles: NO_ROLES, unavailable });
      }
    }
  }
  return {
    acts,
    mafiaLimits: kinds.includes("mafia")
      ? { kill: state.aliveAtStart === 3 ? 1 : 2, intimidate: state.aliveAtStart < 10 ? 2 : 3 }
      : null,
  };
}
