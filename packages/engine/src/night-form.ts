/**
 * The night form: the acts a player may send tonight, each with its legal targets (O1, O1a, O1b). It is
 * what a player's screen offers and what a bot chooses from. Every input here is something the player
 * knows: their own role and last night's submission (O1b), who is alive, how many were alive at the
 * night's start, and, for the mafia, who the mafia are (S2). T3c's "both mafia and maniac alive" is known
 * too: while more than 10 are alive every death has been announced with its role (R1). The same logic as
 * the server's action form, which builds it from the player's own view (nightFormFor).
 */
import type { ClauseId } from "./clauses.ts";
import { COUNCIL_QUESTIONS, type CouncilQuestionId } from "./council.ts";
import {
  HEAL_FROM_ROLES,
  actorActs,
  actorOf,
  actsFor,
  checkActorAction,
  type ActKind,
  type HealFromRole,
  type NightAction,
  type NightActor,
} from "./night-action.ts";
import type { Seat } from "./player.ts";
import { isMafia, type RoleId } from "./roles.ts";
import { currentBoss, type GameState } from "./state.ts";
import type { GameView } from "./view.ts";

/** A listed council question as a form offers it: its id and the text the action carries. */
export interface CouncilChoice {
  readonly id: CouncilQuestionId;
  readonly text: string;
}

/** A living player the act may not name tonight, and why: the code and clause of checkNightAction's refusal. */
export interface UnavailableTarget {
  readonly seat: Seat;
  readonly reason: string;
  readonly clause: ClauseId;
}

export interface NightFormAct {
  /** T3c: the roles a heal-from-role may name tonight (only for healFrom). */
  readonly roles: readonly HealFromRole[];
  readonly act: ActKind;
  /** The seats a targeted act may name (for the mafia: those a one-kill action may name); else empty. */
  readonly targets: readonly Seat[];
  /**
   * The living players a targeted act (or the mafia's) may not name tonight, each with the refusal the
   * submission would get (O1: "night/repeat-target", T4), so a form can list them disabled with the reason.
   */
  readonly unavailable: readonly UnavailableTarget[];
  /**
   * M2c: the council questions the rules answer (council.ts), each with the text to send (the canonical
   * Russian one); only for the council act, else empty. A game without a GM takes only these (the server's
   * automatic mode); a GM may also be asked a question of one's own.
   */
  readonly questions: readonly CouncilChoice[];
}

export interface NightForm {
  readonly acts: readonly NightFormAct[];
  /** M2: how many the mafia may kill and intimidate tonight; null for a player without the mafia's action. */
  readonly mafiaLimits: { readonly kill: number; readonly intimidate: number } | null;
}

const NO_SEATS: readonly Seat[] = [];
const NO_ROLES: readonly HealFromRole[] = [];
const NONE_UNAVAILABLE: readonly UnavailableTarget[] = [];
const NO_QUESTIONS: readonly CouncilChoice[] = [];
const QUESTIONS: readonly CouncilChoice[] = COUNCIL_QUESTIONS.map((q) => ({ id: q.id, text: q.text.ru }));

/** Every living player's refusal for this act, or null where the act may name them. */
function targetsOf(
  a: NightActor,
  action: (target: Seat) => NightAction,
): { targets: Seat[]; unavailable: UnavailableTarget[] } {
  const targets: Seat[] = [];
  const unavailable: UnavailableTarget[] = [];
  for (let t = 0; t < a.seats.length; t++) {
    if (!a.seats[t]!.alive) continue;
    const bad = checkActorAction(a, action(t));
    if (bad === null) targets.push(t);
    else unavailable.push({ seat: t, reason: bad.code, clause: bad.clause });
  }
  return { targets, unavailable };
}

/** The acts open to `seat` tonight with their targets, or null when the player has no act tonight. */
export function nightForm(state: GameState, seat: Seat): NightForm | null {
  // The same null formOf gives for an actor with no act tonight, without building the actor.
  if (actsFor(state, seat).length === 0) return null;
  return formOf(actorOf(state, seat));
}

/**
 * A player's night form from that player's own view (the server's action form): the same form as
 * nightForm, built from nothing the player does not know. `roleList` is the game's role list, which is
 * public (readings.md, "The role list is public"); it tells the doctor whether a maniac was dealt (T3c).
 */
export function nightFormFor(view: GameView, roleList: readonly RoleId[]): NightForm | null {
  const a = actorFromView(view, roleList);
  return a === null ? null : formOf(a);
}

/**
 * The actor's night as the player's view holds it: names and deaths are public (A1, A3), the mafia's
 * members known to the mafia (S2), the boss worked out from them by the succession (M1), the player's own
 * submission last night (O1b), and every dead player's role while more than 10 are alive (R1).
 */
export function actorFromView(view: GameView, roleList: readonly RoleId[]): NightActor | null {
  const me = view.me;
  if (me === null) return null;
  const mafia = isMafia(me.role);
  let aliveAtStart = 0;
  const dead = new Map<RoleId, number>();
  for (const s of view.seats) {
    if (s.alive) aliveAtStart++;
    else if (s.role !== null) dead.set(s.role, (dead.get(s.role) ?? 0) + 1);
  }
  const dealt = (pick: (role: RoleId) => boolean): number => roleList.filter(pick).length;
  const died = (pick: (role: RoleId) => boolean): number =>
    [...dead].reduce((n, [role, k]) => (pick(role) ? n + k : n), 0);
  const isManiac = (role: RoleId): boolean => role === "maniac";
  return {
    seat: me.seat,
    role: me.role,
    alive: view.seats[me.seat]!.alive,
    boss: mafia && currentBoss(view.seats) === me.seat,
    night: view.phase.kind === "night",
    over: view.winner !== null,
    aliveAtStart,
    seats: view.seats.map((s) => ({
      name: s.name,
      alive: s.alive,
      mafia: mafia && s.role !== null && isMafia(s.role),
    })),
    last: me.lastNight,
    healFromOpen:
      aliveAtStart > view.options.revealAbove &&
      dealt(isMafia) > died(isMafia) &&
      dealt(isManiac) > died(isManiac),
    options: view.options,
  };
}

function formOf(a: NightActor): NightForm | null {
  if (!a.night) return null;
  const kinds = actorActs(a);
  if (kinds.length === 0) return null;
  const acts: NightFormAct[] = [];
  for (const act of kinds) {
    switch (act) {
      case "mafia": {
        const { targets, unavailable } = targetsOf(a, (t) => ({
          act: "mafia",
          kill: [t],
          intimidate: [],
        }));
        acts.push({ act, targets, roles: NO_ROLES, unavailable, questions: NO_QUESTIONS });
        break;
      }
      case "healFrom": {
        const roles = HEAL_FROM_ROLES.filter(
          (role) => checkActorAction(a, { act: "healFrom", role }) === null,
        );
        if (roles.length > 0)
          acts.push({
            act,
            targets: NO_SEATS,
            roles,
            unavailable: NONE_UNAVAILABLE,
            questions: NO_QUESTIONS,
          });
        break;
      }
      case "council":
      case "pass": {
        const questions = act === "council" ? QUESTIONS : NO_QUESTIONS;
        acts.push({ act, targets: NO_SEATS, roles: NO_ROLES, unavailable: NONE_UNAVAILABLE, questions });
        break;
      }
      default: {
        // The same check as legalTargets, keeping each refusal.
        const { targets, unavailable } = targetsOf(a, (target) => ({ act, target }));
        if (targets.length > 0)
          acts.push({ act, targets, roles: NO_ROLES, unavailable, questions: NO_QUESTIONS });
      }
    }
  }
  return {
    acts,
    mafiaLimits: kinds.includes("mafia")
      ? {
          kill: a.aliveAtStart === a.options.lapseAt ? 1 : 2,
          intimidate: a.aliveAtStart < a.options.threeIntimidationsFrom ? 2 : 3,
        }
      : null,
  };
}
