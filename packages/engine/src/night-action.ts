import type { ClauseId } from "./clauses.ts";
import { playerLabel, type Seat } from "./player.ts";
import { reject, type Rejection } from "./rejection.ts";
import { ROLE_IDS, isMafia, roleSpec, type RoleId } from "./roles.ts";
import type { GameState } from "./state.ts";

export const HEAL_FROM_ROLES = ["mafia", "maniac", "sheriff"] as const;
export type HealFromRole = (typeof HEAL_FROM_ROLES)[number];

export const TARGETED_ACTS = [
  "block",
  "protect",
  "bloodyKill",
  "quickKill",
  "torture",
  "shoot",
  "check",
  "serum",
  "heal",
  "poison",
  "visit",
  "unprotect",
  "mark",
] as const;
export type TargetedAct = (typeof TARGETED_ACTS)[number];

export type NightAction =
  | { readonly act: "mafia"; readonly kill: readonly Seat[]; readonly intimidate: readonly Seat[] }
  | { readonly act: "council"; readonly question: string }
  | { readonly act: TargetedAct; readonly target: Seat }
  | { readonly act: "healFrom"; readonly role: HealFromRole }
  | { readonly act: "pass" };

export type ActKind = NightAction["act"];

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
  /** G10: intake closes at the deadline; the GM may reopen the mafia's action alone as a penalty. */
  readonly intake: "open" | "closed" | "mafiaReopened";
}

export function emptyBallots(seats: number): NightBallots {
  const none: (NightAction | null)[] = new Array<NightAction | null>(seats).fill(null);
  return { own: none, mafia: none, pair: null, intake: "open" };
}

/** The ballots with some fields changed, written out field by field (object spread is slow on Node 20). */
function withBallots(b: NightBallots, change: Partial<NightBallots>): NightBallots {
  return {
    own: change.own ?? b.own,
    mafia: change.mafia ?? b.mafia,
    pair: "pair" in change ? change.pair! : b.pair,
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

const TARGET_ACT_ROLE: { readonly [A in TargetedAct]: string } = {
  block: "thug",
  protect: "lawyer",
  bloodyKill: "maniac",
  quickKill: "maniac",
  torture: "maniac",
  shoot: "sheriff",
  check: "sergeant",
  serum: "doctor",
  heal: "doctor",
  poison: "doctor",
  visit: "girl",
  unprotect: "prosecutor",
  mark: "shahid",
};

const ACT_CLAUSE: { readonly [A in ActKind]: ClauseId } = {
  mafia: "M2",
  council: "M2c",
  block: "M6",
  protect: "M5",
  bloodyKill: "N1a",
  quickKill: "N1b",
  torture: "N1c",
  shoot: "T1",
  check: "T2",
  serum: "T3a",
  heal: "T3b",
  healFrom: "T3c",
  poison: "T3d",
  visit: "T4",
  unprotect: "T5",
  mark: "T6",
  pass: "P2",
};

const ACT_PHRASE: { readonly [A in ActKind]: string } = {
  mafia: "send the mafia's action",
  council: "ask the council",
  block: "block",
  protect: "protect",
  bloodyKill: "make a bloody kill",
  quickKill: "make a quick kill",
  torture: "torture",
  shoot: "shoot",
  check: "check",
  serum: "use the serum",
  heal: "heal",
  healFrom: "heal from a role",
  poison: "poison",
  visit: "visit",
  unprotect: "unprotect",
  mark: "mark",
  pass: "pass",
};

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

const isThugBoss = (state: GameState, seat: Seat): boolean =>
  state.boss === seat && state.players[seat]!.role === "thug";

/** Whether a living player may send this act tonight (O1), before targets are considered. */
export function mayUse(state: GameState, seat: Seat, act: ActKind): boolean {
  const p = state.players[seat];
  if (!p || !p.alive || state.phase.kind !== "night" || state.winner !== null) return false;
  return roleMayUse(p.role, state.boss === seat, act);
}

/** The act table by role: what a holder of `role` may send, as the current boss or not. */
function roleMayUse(role: RoleId, boss: boolean, act: ActKind): boolean {
  const own = roleSpec(role).ownAct;
  switch (act) {
    case "mafia":
    case "council":
      return isMafia(role);
    case "protect":
      return own === "protect" && !boss; // M5: a lawyer who becomes boss loses the protect
    case "block":
      return own === "block"; // M6: a thug who becomes boss keeps the block
    case "bloodyKill":
    case "quickKill":
    case "torture":
      return own === "maniac";
    case "shoot":
      return role === "sheriff";
    case "check":
      return role === "sergeant";
    case "serum":
    case "heal":
    case "healFrom":
    case "poison":
      return own === "doctor";
    case "visit":
    case "unprotect":
    case "mark":
      return own === act;
    case "pass":
      return isMafia(role) || own !== null;
    default: {
      const never: never = act;
      throw new Error(`unknown act ${String(never)}`);
    }
  }
}

/** Every act, in the order forms list them: the mafia's first, the player's own next, the pass last. */
export const ACT_KINDS: readonly ActKind[] = [
  "mafia",
  "council",
  "protect",
  "block",
  "bloodyKill",
  "quickKill",
  "torture",
  "shoot",
  "check",
  "serum",
  "heal",
  "healFrom",
  "poison",
  "visit",
  "unprotect",
  "mark",
  "pass",
];

/** Each role's acts in ACT_KINDS order, as the boss ([1]) and not ([0]), worked out once from roleMayUse. */
const actsOf = (role: RoleId, boss: boolean): readonly ActKind[] =>
  ACT_KINDS.filter((act) => roleMayUse(role, boss, act));
const ACTS_BY_ROLE = new Map<RoleId, readonly [readonly ActKind[], readonly ActKind[]]>(
  ROLE_IDS.map((role) => [role, [actsOf(role, false), actsOf(role, true)]]),
);

const NO_ACTS: readonly ActKind[] = [];

/** The acts a living player may send tonight, before targets are considered (O1). */
export function actsFor(state: GameState, seat: Seat): readonly ActKind[] {
  const p = state.players[seat];
  if (!p || !p.alive || state.phase.kind !== "night" || state.winner !== null) return NO_ACTS;
  return ACTS_BY_ROLE.get(p.role)![state.boss === seat ? 1 : 0];
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
      if (role === "sheriff" || role === "sergeant") return "pair";
      if (boss) return thugBoss ? "own" : "mafia";
      return role === "troll" || role === "elf" ? "mafia" : "own";
    default:
      return "own";
  }
}

/** O1a: a target must be a living player, and only the heal and the protect may target oneself. */
function checkTarget(state: GameState, seat: Seat, act: TargetedAct, target: Seat): Rejection | null {
  const t = state.players[target];
  if (!t) return reject("night/unknown-target", "O1a", `${who(state, seat)} names no such player`);
  if (!t.alive)
    return reject(
      "night/dead-target",
      "O1a",
      `${who(state, seat)} may not ${VERB[act]} ${t.name}: not alive`,
    );
  if (target === seat && act !== "heal" && act !== "protect")
    return reject("night/self-target", "O1a", `${who(state, seat)} may not ${VERB[act]} themselves`);
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
function repeated(state: GameState, seat: Seat, act: TargetedAct, target: Seat): boolean {
  const last = state.memory.own[seat];
  return (
    last !== null && last !== undefined && last.act === act && "target" in last && last.target === target
  );
}

function checkMafia(
  state: GameState,
  seat: Seat,
  kill: readonly Seat[],
  intimidate: readonly Seat[],
): Rejection | null {
  const k = kill.length;
  const i = intimidate.length;
  if (k === 0 && i === 0)
    return reject("night/mafia-empty", "M2", `${who(state, seat)} sent a mafia action with no target`);
  if (k > 2)
    return reject(
      "night/mafia-too-many-kills",
      "M2a",
      `${who(state, seat)}: the mafia may kill at most two players`,
    );
  if (k === 2 && i > 0)
    return reject(
      "night/mafia-combination",
      "M2a",
      `${who(state, seat)}: the mafia may kill two, or kill one and intimidate one`,
    );
  if (k === 1 && i > 1)
    return reject(
      "night/mafia-combination",
      "M2a",
      `${who(state, seat)}: with a kill the mafia may intimidate only one player`,
    );
  if (k === 0 && i > 3)
    return reject(
      "night/too-many-intimidations",
      "M2b",
      `${who(state, seat)}: at most 3 players may be intimidated`,
    );
  if (k === 0 && i > 2 && state.aliveAtStart < 10)
    return reject(
      "night/too-many-intimidations",
      "M2b",
      `${who(state, seat)}: at most 2 players may be intimidated when fewer than 10 are alive`,
    );
  if (k === 2 && state.aliveAtStart === 3)
    return reject(
      "night/no-double-kill-at-three",
      "M2",
      `${who(state, seat)}: the mafia may not kill two when 3 are alive`,
    );
  const seen = new Set<Seat>();
  for (const [list, verb] of [
    [kill, "kill"],
    [intimidate, "intimidate"],
  ] as const) {
    for (const t of list) {
      const target = state.players[t];
      if (!target) return reject("night/unknown-target", "O1a", `${who(state, seat)} names no such player`);
      if (!target.alive)
        return reject(
          "night/dead-target",
          "O1a",
          `${who(state, seat)} may not ${verb} ${target.name}: not alive`,
        );
      if (isMafia(target.role))
        return reject(
          "night/mafia-target",
          "O1a",
          `${who(state, seat)}: the mafia may not ${verb} a mafia member (${target.name})`,
        );
      if (seen.has(t))
        return reject(
          "night/duplicate-target",
          "O1a",
          `${who(state, seat)}: the targets of one mafia action must be distinct`,
        );
      seen.add(t);
    }
  }
  return null;
}

/** T3c: heal-from-role needs both mafia and maniac alive and roles still revealed (> 10 alive). */
export function healFromAvailable(state: GameState): boolean {
  if (state.aliveAtStart <= 10) return false;
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
  const actor = state.players[seat];
  if (!actor) return reject("night/unknown-player", "O1", `no such player`);
  if (state.winner !== null) return reject("game/over", "W1", `the game is over`);
  if (state.phase.kind !== "night")
    return reject("night/out-of-phase", "O1", `${who(state, seat)} may not act: it is not night`);
  if (!actor.alive) return reject("night/dead-actor", "G7", `${who(state, seat)} is dead and cannot act`);
  if (!mayUse(state, seat, action.act)) {
    if (action.act === "pass")
      return reject("night/no-action", "T7", `${who(state, seat)} has no night action to pass`);
    if (action.act === "protect" && actor.role === "lawyer")
      return reject("night/lawyer-is-boss", "M5", `${who(state, seat)} is the boss and has lost the protect`);
    const need =
      action.act === "mafia" || action.act === "council"
        ? "a mafia member"
        : `the ${"target" in action ? TARGET_ACT_ROLE[action.act] : "doctor"}`;
    return reject(
      "night/act-not-available",
      ACT_CLAUSE[action.act],
      `${who(state, seat)} may not ${ACT_PHRASE[action.act]}: only ${need} can`,
    );
  }
  const three = state.aliveAtStart === 3;
  switch (action.act) {
    case "mafia":
      return checkMafia(state, seat, action.kill, action.intimidate);
    case "council":
      return action.question.trim() === ""
        ? reject("night/empty-question", "M2c", `${who(state, seat)}: the question to the council is empty`)
        : null;
    case "healFrom": {
      if (!healFromAvailable(state))
        return reject(
          "night/heal-from-unavailable",
          "T3c",
          `${who(state, seat)} may not heal from a role: it needs both mafia and maniac alive and more than 10 players`,
        );
      const last = state.memory.own[seat];
      if (last && last.act === "healFrom" && last.role === action.role)
        return reject(
          "night/repeat-heal-from",
          "T3c",
          `${who(state, seat)} may not heal from ${action.role} two nights in a row`,
        );
      return null;
    }
    case "pass":
      return null;
    default: {
      const bad = checkTarget(state, seat, action.act, action.target);
      if (bad) return bad;
      // O1b: the same target two nights in a row, unless 3 are alive at night start.
      const limit = REPEAT_LIMIT[action.act];
      if (limit !== undefined && !three && repeated(state, seat, action.act, action.target))
        return reject(
          "night/repeat-target",
          limit,
          `${who(state, seat)} may not ${VERB[action.act]} ${state.players[action.target]!.name} two nights in a row`,
        );
      const last = state.memory.own[seat];
      if (action.act === "serum" && state.aliveAtStart < 15 && last && last.act === "serum")
        return reject(
          "night/repeat-serum",
          "T3a",
          `${who(state, seat)} may not use serum two nights in a row when fewer than 15 are alive`,
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
  if (slot === "pair") return withBallots(ballots, { pair: action });
  const list = ballots[slot].slice();
  list[seat] = action;
  return withBallots(ballots, slot === "own" ? { own: list } : { mafia: list });
}

/** The living players a targeted act may name (for forms and bots): each checked as a submission. */
export function legalTargets(state: GameState, seat: Seat, act: TargetedAct): Seat[] {
  const out: Seat[] = [];
  for (let t = 0; t < state.players.length; t++) {
    if (state.players[t]!.alive && checkNightAction(state, seat, { act, target: t }) === null) out.push(t);
  }
  return out;
}
