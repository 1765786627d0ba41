import {
  ACT_CLAUSE as RULES_ACT_CLAUSE,
  ROLES,
  ROLE_IDS,
  type ActKind,
  type HealFromRole,
  type TargetedAct,
} from "@forum-mafia/rules";
import type { ClauseId } from "./clauses.ts";
import { playerLabel, type Player, type Seat } from "./player.ts";
import { reject, type Rejection } from "./rejection.ts";
import { inPair, isMafia, roleSpec, type RoleId } from "./roles.ts";
import type { GameState } from "./state.ts";
import type { GameOptions } from "./options.ts";

export {
  ACT_KINDS,
  HEAL_FROM_ROLES,
  TARGETED_ACTS,
  type ActKind,
  type HealFromRole,
  type TargetedAct,
} from "@forum-mafia/rules";

export type NightAction =
  | { readonly act: "mafia"; readonly kill: readonly Seat[]; readonly intimidate: readonly Seat[] }
  | { readonly act: "council"; readonly question: string }
  | { readonly act: TargetedAct; readonly target: Seat }
  | { readonly act: "healFrom"; readonly role: HealFromRole }
  | { readonly act: "pass" };

/** The rules' list of acts and the acts a NightAction can carry are the same set (checked by the compiler). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const ACTS_MATCH: Same<ActKind, NightAction["act"]> = true;
void ACTS_MATCH;

/**
 * The night's submissions, slot by slot (REPLAY.md): each player's own action, each mafioso's mafia
 * action (M4 picks one), the sheriff/sergeant pair's one action (T1). A thug who is boss has one slot for
 * both the mafia action and the block (M6), kept in his own slot. A later submission replaces an earlier
 * one in the same slot, so only each slot's last submission matters.
 */
export interface NightBallots {
  readonly own: readonly (NightAction | null)[];
  readonly mafia: readonly (NightAction | null)[];
  readonly pair: NightAction | null;
  /** T1: which of the pair sent its action (the GM's table shows who did); null while none is in. */
  readonly pairBy: Seat | null;
  /** G10: intake closes at the deadline; the GM may reopen the mafia's action alone as a penalty. */
  readonly intake: "open" | "closed" | "mafiaReopened";
}

/** One list of nulls per table size, shared (a list of ballots is never changed, only copied). */
const NONE: (readonly null[] | undefined)[] = [];

/** `seats` nulls, built by push so the list is packed (reads and copies of a holey list cost more). */
export function nulls(seats: number): readonly null[] {
  let none = NONE[seats];
  if (none === undefined) {
    const list: null[] = [];
    for (let i = 0; i < seats; i++) list.push(null);
    none = NONE[seats] = list;
  }
  return none;
}

export function emptyBallots(seats: number): NightBallots {
  const none: readonly (NightAction | null)[] = nulls(seats);
  return { own: none, mafia: none, pair: null, pairBy: null, intake: "open" };
}

/** The ballots with some fields changed, written out field by field (object spread is slow on Node 20). */
function withBallots(b: NightBallots, change: Partial<NightBallots>): NightBallots {
  return {
    own: change.own ?? b.own,
    mafia: change.mafia ?? b.mafia,
    pair: "pair" in change ? change.pair! : b.pair,
    pairBy: "pairBy" in change ? change.pairBy! : b.pairBy,
    intake: change.intake ?? b.intake,
  };
}

/** G10: the night's intake has closed; results are pending. */
export const closeIntake = (ballots: NightBallots): NightBallots =>
  withBallots(ballots, { intake: "closed" });

/** G10: the GM's penalty for a claim while results are pending: the mafia may change its action. */
export const reopenMafiaAction = (ballots: NightBallots): NightBallots =>
  withBallots(ballots, { intake: "mafiaReopened" });

/** The slot a submission fills (REPLAY.md): the player's own, a mafioso's mafia slot, or the pair's one. */
export type Slot = "own" | "mafia" | "pair";

/** The clause each act comes from (the rules' table, as clause ids). */
const ACT_CLAUSE: { readonly [A in ActKind]: ClauseId } = RULES_ACT_CLAUSE;

/** How a refusal words an act: its id, but for the acts whose id is no English verb phrase. */
const ACT_PHRASE: { readonly [A in ActKind]?: string } = {
  mafia: "send the mafia's action",
  council: "ask the council",
  bloodyKill: "make a bloody kill",
  quickKill: "make a quick kill",
  serum: "use the serum",
  healFrom: "heal from a role",
};
const actPhrase = (act: ActKind): string => ACT_PHRASE[act] ?? act;

const VERB: { readonly [A in TargetedAct]: string } = {
  block: "block",
  protect: "protect",
  bloodyKill: "kill",
  quickKill: "kill",
  torture: "torture",
  shoot: "shoot",
  check: "check",
  serum: "use serum on",
  heal: "heal",
  poison: "poison",
  visit: "visit",
  unprotect: "unprotect",
  mark: "mark",
};

/** `Маша (girl)`: how refusals name a player. */
export function who(state: GameState, seat: Seat): string {
  return playerLabel(state.players[seat]!);
}

/** A seat as the acting player knows it tonight. */
export interface ActorSeat {
  readonly name: string;
  readonly alive: boolean;
  /** S2: a member of the mafia, as only a mafia actor knows; false for everyone else's actor. */
  readonly mafia: boolean;
}

/**
 * What a night check reads: the acting player's night, and nothing that player does not know. The
 * server's check builds it from the state (actorOf); a player's form builds it from that player's own
 * view (night-form.ts, actorFromView); a test checks that both agree at every point of random games, so
 * no refusal and no form can tell a player what their view does not hold.
 */
export interface NightActor {
  readonly seat: Seat;
  readonly role: RoleId;
  readonly alive: boolean;
  /** M1: the actor is tonight's boss, as the mafia know (S2); false for anyone outside the mafia. */
  readonly boss: boolean;
  /** It is night (O1). */
  readonly night: boolean;
  /** W1: the game is over. */
  readonly over: boolean;
  /** M2, M2b, T3a, O1b: the living at the night's start (public: every death is announced, A1, A3). */
  readonly aliveAtStart: number;
  readonly seats: readonly ActorSeat[];
  /** O1b: the actor's own submission last night, whether or not it took effect. */
  readonly last: NightAction | null;
  /** T3c: heal-from-role is open tonight (more than revealAbove alive, so every death's role is known, R1). */
  readonly healFromOpen: boolean;
  /** S3: the game's thresholds (public from the start). */
  readonly options: GameOptions;
}

/**
 * The actors of the state last asked about, seat by seat, and the two ways its table looks (to a mafia
 * actor and to anyone else). A phase's submissions all read one state, so each actor is built once per
 * phase rather than once per submission; and a seat whose player did not change since the state before
 * keeps its ActorSeat. Only a cache: a state never changes, and an actor is read only.
 */
let actorsOf: GameState | null = null;
let actors: (NightActor | undefined)[] = [];
let seatsToMafia: readonly ActorSeat[] | null = null;
let seatsToOthers: readonly ActorSeat[] | null = null;
let healFromOpen = false;
/** The players the tables below were last built from. */
let mafiaSeen: readonly Player[] = [];
let mafiaTable: readonly ActorSeat[] = [];
let othersSeen: readonly Player[] = [];
let othersTable: readonly ActorSeat[] = [];

function seatsOf(
  players: readonly Player[],
  seen: readonly Player[],
  table: readonly ActorSeat[],
  mafia: boolean,
): ActorSeat[] {
  const out = new Array<ActorSeat>(players.length);
  for (let i = 0; i < players.length; i++) {
    const q = players[i]!;
    out[i] = seen[i] === q ? table[i]! : { name: q.name, alive: q.alive, mafia: mafia && isMafia(q.role) };
  }
  return out;
}

function tableAsSeen(state: GameState, mafia: boolean): readonly ActorSeat[] {
  const players = state.players;
  if (mafia) {
    if (seatsToMafia === null) {
      seatsToMafia = seatsOf(players, mafiaSeen, mafiaTable, true);
      mafiaSeen = players;
      mafiaTable = seatsToMafia;
    }
    return seatsToMafia;
  }
  if (seatsToOthers === null) {
    seatsToOthers = seatsOf(players, othersSeen, othersTable, false);
    othersSeen = players;
    othersTable = seatsToOthers;
  }
  return seatsToOthers;
}

/** The actor's night from the full state (the server's check of a submission, and random play). */
export function actorOf(state: GameState, seat: Seat): NightActor {
  if (state !== actorsOf) {
    actorsOf = state;
    actors = [];
    seatsToMafia = null;
    seatsToOthers = null;
    healFromOpen = healFromAvailable(state);
  }
  const known = actors[seat];
  if (known !== undefined) return known;
  const p = state.players[seat]!;
  const mafia = isMafia(p.role);
  const actor: NightActor = {
    seat,
    role: p.role,
    alive: p.alive,
    boss: mafia && state.boss === seat,
    night: state.phase.kind === "night",
    over: state.winner !== null,
    aliveAtStart: state.aliveAtStart,
    seats: tableAsSeen(state, mafia),
    last: state.memory.own[seat] ?? null,
    healFromOpen,
    options: state.options,
  };
  actors[seat] = actor;
  return actor;
}

const actorLabel = (a: NightActor): string => `${a.seats[a.seat]!.name} (${a.role})`;

/** M6: the boss is the thug, who has one slot for the mafia's action and the block. */
export const isThugBoss = (state: GameState, seat: Seat): boolean =>
  state.boss === seat && state.players[seat]!.role === "thug";

/** Whether a living player may send this act tonight (O1), before targets are considered. */
function mayUse(a: NightActor, act: ActKind): boolean {
  return actorActs(a).includes(act);
}

const NO_ACTS: readonly ActKind[] = [];

/** The acts a living player may send tonight, before targets are considered (O1). */
export function actsFor(state: GameState, seat: Seat): readonly ActKind[] {
  const p = state.players[seat];
  if (!p || !p.alive || state.phase.kind !== "night" || state.winner !== null) return NO_ACTS;
  const spec = roleSpec(p.role);
  return state.boss === seat ? spec.bossActs : spec.acts;
}

/** The same, for an actor's night as that player knows it (O1). */
export function actorActs(a: NightActor): readonly ActKind[] {
  if (!a.alive || !a.night || a.over) return NO_ACTS;
  const spec = roleSpec(a.role);
  return a.boss ? spec.bossActs : spec.acts;
}

/** Which slot an act fills for a holder of `role` (the current boss or not): REPLAY.md's slot rules. */
export function slotFor(role: RoleId, boss: boolean, act: ActKind): Slot {
  const thugBoss = boss && role === "thug"; // M6: one slot for the mafia's action and the block
  switch (act) {
    case "mafia":
    case "council":
      return thugBoss ? "own" : "mafia";
    case "shoot":
    case "check":
      return "pair";
    case "pass":
      if (inPair(role)) return "pair";
      if (boss) return thugBoss ? "own" : "mafia";
      // A mafioso with no act of his own passes in the mafia's slot.
      return isMafia(role) && roleSpec(role).ownAct === null ? "mafia" : "own";
    default:
      return "own";
  }
}

/** O1a: a target must be a living player, and only the heal and the protect may target oneself. */
function checkTarget(a: NightActor, act: TargetedAct, target: Seat): Rejection | null {
  const t = a.seats[target];
  if (!t) return reject("night/unknown-target", "O1a", `${actorLabel(a)} names no such player`);
  if (!t.alive)
    return reject("night/dead-target", "O1a", `${actorLabel(a)} may not ${VERB[act]} ${t.name}: not alive`);
  if (target === a.seat && act !== "heal" && act !== "protect")
    return reject("night/self-target", "O1a", `${actorLabel(a)} may not ${VERB[act]} themselves`);
  return null;
}

/** The acts that may not name the same target two nights in a row (M6, T4, T6, T3e's first limit). */
const REPEAT_LIMIT: { readonly [A in TargetedAct]?: ClauseId } = {
  block: "M6",
  visit: "T4",
  mark: "T6",
  heal: "T3e",
};

/** O1b: repeat limits compare with the player's own submission last night, effective or not. */
function repeated(a: NightActor, act: TargetedAct, target: Seat): boolean {
  const last = a.last;
  return last !== null && last.act === act && "target" in last && last.target === target;
}

function checkMafia(a: NightActor, kill: readonly Seat[], intimidate: readonly Seat[]): Rejection | null {
  const k = kill.length;
  const i = intimidate.length;
  if (k === 0 && i === 0)
    return reject("night/mafia-empty", "M2", `${actorLabel(a)} sent a mafia action with no target`);
  if (k > 2)
    return reject(
      "night/mafia-too-many-kills",
      "M2a",
      `${actorLabel(a)}: the mafia may kill at most two players`,
    );
  if (k === 2 && i > 0)
    return reject(
      "night/mafia-combination",
      "M2a",
      `${actorLabel(a)}: the mafia may kill two, or kill one and intimidate one`,
    );
  if (k === 1 && i > 1)
    return reject(
      "night/mafia-combination",
      "M2a",
      `${actorLabel(a)}: with a kill the mafia may intimidate only one player`,
    );
  if (k === 0 && i > 3)
    return reject(
      "night/too-many-intimidations",
      "M2b",
      `${actorLabel(a)}: at most 3 players may be intimidated`,
    );
  if (k === 0 && i > 2 && a.aliveAtStart < a.options.threeIntimidationsFrom)
    return reject(
      "night/too-many-intimidations",
      "M2b",
      `${actorLabel(a)}: at most 2 players may be intimidated when fewer than ${a.options.threeIntimidationsFrom} are alive`,
    );
  if (k === 2 && a.aliveAtStart === a.options.lapseAt)
    return reject(
      "night/no-double-kill-at-three",
      "M2",
      `${actorLabel(a)}: the mafia may not kill two when ${a.options.lapseAt} are alive`,
    );
  // Kills first, then intimidations, each target in turn: unknown, dead, mafia, or named twice.
  for (let j = 0; j < k + i; j++) {
    const t = j < k ? kill[j]! : intimidate[j - k]!;
    const verb = j < k ? "kill" : "intimidate";
    const target = a.seats[t];
    if (!target) return reject("night/unknown-target", "O1a", `${actorLabel(a)} names no such player`);
    if (!target.alive)
      return reject("night/dead-target", "O1a", `${actorLabel(a)} may not ${verb} ${target.name}: not alive`);
    if (target.mafia)
      return reject(
        "night/mafia-target",
        "O1a",
        `${actorLabel(a)}: the mafia may not ${verb} a mafia member (${target.name})`,
      );
    for (let e = 0; e < j; e++)
      if ((e < k ? kill[e]! : intimidate[e - k]!) === t)
        return reject(
          "night/duplicate-target",
          "O1a",
          `${actorLabel(a)}: the targets of one mafia action must be distinct`,
        );
  }
  return null;
}

/** T3c: heal-from-role needs both mafia and maniac alive and roles still revealed (> revealAbove alive). */
function healFromAvailable(state: GameState): boolean {
  if (state.aliveAtStart <= state.options.revealAbove) return false;
  let mafia = false;
  let maniac = false;
  for (const p of state.players) {
    if (!p.alive) continue;
    if (isMafia(p.role)) mafia = true;
    else if (p.role === "maniac") maniac = true;
  }
  return mafia && maniac;
}

/** O1, O1a, O1b: check one submission as the server would, returning the refusal or null. */
export function checkNightAction(state: GameState, seat: Seat, action: NightAction): Rejection | null {
  if (!state.players[seat]) return reject("night/unknown-player", "O1", `no such player`);
  return checkActorAction(actorOf(state, seat), action);
}

/** The same check on an actor's night as that player knows it: one set of rules for the server and the form. */
export function checkActorAction(a: NightActor, action: NightAction): Rejection | null {
  if (a.over) return reject("game/over", "W1", `the game is over`);
  if (!a.night) return reject("night/out-of-phase", "O1", `${actorLabel(a)} may not act: it is not night`);
  if (!a.alive) return reject("night/dead-actor", "G7", `${actorLabel(a)} is dead and cannot act`);
  if (!mayUse(a, action.act)) {
    if (action.act === "pass")
      return reject("night/no-action", "T7", `${actorLabel(a)} has no night action to pass`);
    if (action.act === "protect" && a.role === "lawyer")
      return reject("night/lawyer-is-boss", "M5", `${actorLabel(a)} is the boss and has lost the protect`);
    const need =
      action.act === "mafia" || action.act === "council"
        ? "a mafia member"
        : `the ${ROLE_IDS.find((r) => ROLES[r].acts.includes(action.act))!}`;
    return reject(
      "night/act-not-available",
      ACT_CLAUSE[action.act],
      `${actorLabel(a)} may not ${actPhrase(action.act)}: only ${need} can`,
    );
  }
  const three = a.aliveAtStart === a.options.lapseAt;
  switch (action.act) {
    case "mafia":
      return checkMafia(a, action.kill, action.intimidate);
    case "council":
      return action.question.trim() === ""
        ? reject("night/empty-question", "M2c", `${actorLabel(a)}: the question to the council is empty`)
        : null;
    case "healFrom": {
      if (!a.healFromOpen)
        return reject(
          "night/heal-from-unavailable",
          "T3c",
          `${actorLabel(a)} may not heal from a role: it needs both mafia and maniac alive and more than ${a.options.revealAbove} players`,
        );
      const last = a.last;
      if (last && last.act === "healFrom" && last.role === action.role)
        return reject(
          "night/repeat-heal-from",
          "T3c",
          `${actorLabel(a)} may not heal from ${action.role} two nights in a row`,
        );
      return null;
    }
    case "pass":
      return null;
    default: {
      const bad = checkTarget(a, action.act, action.target);
      if (bad) return bad;
      // O1b: the same target two nights in a row, unless 3 are alive at night start.
      const limit = REPEAT_LIMIT[action.act];
      if (limit !== undefined && !three && repeated(a, action.act, action.target))
        return reject(
          "night/repeat-target",
          limit,
          `${actorLabel(a)} may not ${VERB[action.act]} ${a.seats[action.target]!.name} two nights in a row`,
        );
      const last = a.last;
      if (
        action.act === "serum" &&
        a.aliveAtStart < a.options.serumRepeatBelow &&
        last &&
        last.act === "serum"
      )
        return reject(
          "night/repeat-serum",
          "T3a",
          `${actorLabel(a)} may not use serum two nights in a row when fewer than ${a.options.serumRepeatBelow} are alive`,
        );
      return null;
    }
  }
}

/** G10: what the mafia may change when its action is reopened: the mafia slots, and a thug-boss's one slot. */
function mafiaSlot(state: GameState, seat: Seat, action: NightAction, slot: Slot): boolean {
  if (slot === "mafia") return true;
  return slot === "own" && isThugBoss(state, seat) && action.act !== "block";
}

/** Submit, replace or pass: the new ballots, or the refusal (nothing changes then). */
export function submitNightAction(
  state: GameState,
  ballots: NightBallots,
  seat: Seat,
  action: NightAction,
): NightBallots | Rejection {
  const bad = checkNightAction(state, seat, action);
  if (bad) return bad;
  const slot = slotFor(state.players[seat]!.role, state.boss === seat, action.act);
  if (
    ballots.intake === "closed" ||
    (ballots.intake === "mafiaReopened" && !mafiaSlot(state, seat, action, slot))
  )
    return reject(
      "night/intake-closed",
      "G10",
      `${who(state, seat)} may not act: the night's intake has closed`,
    );
  if (slot === "pair")
    return { own: ballots.own, mafia: ballots.mafia, pair: action, pairBy: seat, intake: ballots.intake };
  const list = ballots[slot].slice();
  list[seat] = action;
  return slot === "own"
    ? { own: list, mafia: ballots.mafia, pair: ballots.pair, pairBy: ballots.pairBy, intake: ballots.intake }
    : { own: ballots.own, mafia: list, pair: ballots.pair, pairBy: ballots.pairBy, intake: ballots.intake };
}

/** The living players a targeted act may name (for forms and bots): each checked as a submission. */
export function legalTargets(state: GameState, seat: Seat, act: TargetedAct): Seat[] {
  const a = actorOf(state, seat);
  const out: Seat[] = [];
  for (let t = 0; t < a.seats.length; t++) {
    if (a.seats[t]!.alive && checkActorAction(a, { act, target: t }) === null) out.push(t);
  }
  return out;
}
