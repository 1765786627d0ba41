import { checkModkill, createGame, replacePlayer, type GameSetup } from "./game.ts";
import { closeDay, type DayOutcome } from "./day.ts";
import {
  closeIntake,
  emptyBallots,
  reopenMafiaAction,
  submitNightAction,
  type NightAction,
  type NightBallots,
} from "./night-action.ts";
import { resolveNight, type CouncilAnswer, type NightOutcome, type RollName } from "./night.ts";
import { nameKey, type Player, type Seat } from "./player.ts";
import { isRejection, type Rejection } from "./rejection.ts";
import {
  REPLAY_FORMAT,
  type GmEntry,
  type ReplayAction,
  type ReplayDay,
  type ReplayFile,
  type ReplayNight,
  type ReplayVote,
} from "./replay-format.ts";
import type { GameState, Phase } from "./state.ts";
import { castVote, emptyDayBallots, type DayBallots, type Vote } from "./vote.ts";

export type PhaseOutcome = NightOutcome | DayOutcome;

export interface GmOverride {
  readonly phase: Phase;
  readonly kind: "modkill" | "replace" | "reopenMafia" | "fixRolls" | "council";
  /** What was decided, in words, e.g. "Вася → Петя" or "girlSilence=false". */
  readonly detail: string;
  readonly reason: string;
}

/**
 * A game in progress together with its log (G1): every input is written down in the replay format as it
 * is accepted, so any game the engine ran can be exported and replayed to the same results.
 */
export interface Match {
  readonly state: GameState;
  readonly night: NightBallots;
  readonly day: DayBallots;
  /** The GM's modkills for the phase now in play (they take effect at its end, F2). */
  readonly modkills: readonly Seat[];
  readonly log: ReplayFile;
  /** The open phase's log entry. */
  readonly open: ReplayNight | ReplayDay;
  /**
   * F2: every GM decision with its reason, in order, published with the log at the end. The replay file
   * holds what changes results (modkills, replacements, fixed rolls, council answers); this list also
   * holds what does not show in it, such as reopening the mafia's action (G10).
   */
  readonly overrides: readonly GmOverride[];
  /** One outcome per finished phase, with the table as it stood right after it (names, deaths). */
  readonly outcomes: readonly { readonly outcome: PhaseOutcome; readonly players: readonly Player[] }[];
}

export function startMatch(setup: GameSetup): Match | Rejection {
  const state = createGame(setup);
  if (isRejection(state)) return state;
  return {
    state,
    night: emptyBallots(state.players.length),
    day: emptyDayBallots(state.players.length),
    modkills: [],
    log: {
      format: REPLAY_FORMAT,
      ...(setup.seed !== null ? { seed: setup.seed } : {}),
      options: { ...state.options },
      players: state.players.map((p) => ({ name: p.name, role: p.role })),
      phases: [],
    },
    open: { night: 1, actions: [] },
    overrides: [],
    outcomes: [],
  };
}

/** The seat a name refers to now, matched as REPLAY.md says; null if nobody has it. */
export function seatByName(state: GameState, name: string): Seat | null {
  const key = nameKey(name);
  const i = state.players.findIndex((p) => nameKey(p.name) === key);
  return i < 0 ? null : i;
}

const nameOf = (m: Match, seat: Seat): string => m.state.players[seat]!.name;

function logGm(open: ReplayNight | ReplayDay, entry: GmEntry): ReplayNight | ReplayDay {
  const before = open.gm === undefined ? [] : Array.isArray(open.gm) ? open.gm : [open.gm];
  return { ...open, gm: [...before, entry] };
}

export function toReplayAction(state: GameState, by: Seat, action: NightAction): ReplayAction {
  const name = (s: Seat): string => state.players[s]!.name;
  const who = name(by);
  switch (action.act) {
    case "mafia":
      return {
        by: who,
        act: "mafia",
        ...(action.kill.length ? { kill: action.kill.map(name) } : {}),
        ...(action.intimidate.length ? { intimidate: action.intimidate.map(name) } : {}),
      };
    case "council":
      return { by: who, act: "mafia", question: action.question };
    case "healFrom":
      return { by: who, act: "healFrom", role: action.role };
    case "pass":
      return { by: who, act: "pass" };
    default:
      return { by: who, act: action.act, target: name(action.target) };
  }
}

/** Submit, replace or pass a night action (O1). */
export function act(m: Match, seat: Seat, action: NightAction): Match | Rejection {
  const night = submitNightAction(m.state, m.night, seat, action);
  if (isRejection(night)) return night;
  const open = m.open as ReplayNight;
  return {
    ...m,
    night,
    open: { ...open, actions: [...(open.actions ?? []), toReplayAction(m.state, seat, action)] },
  };
}

/** G10: the night's intake closes (results pending); the GM may then reopen the mafia's action. */
export function closeNightIntake(m: Match): Match {
  return { ...m, night: closeIntake(m.night) };
}

export function reopenMafia(m: Match, reason: string): Match {
  return {
    ...m,
    night: reopenMafiaAction(m.night),
    overrides: [...m.overrides, override(m, "reopenMafia", "", reason)],
  };
}

const override = (m: Match, kind: GmOverride["kind"], detail: string, reason: string): GmOverride => ({
  phase: m.state.phase,
  kind,
  detail,
  reason,
});

/** Cast or change a vote (V1–V7). */
export function vote(m: Match, seat: Seat, v: Vote): Match | Rejection {
  const day = castVote(m.state, m.day, seat, v);
  if (isRejection(day)) return day;
  const open = m.open as ReplayDay;
  const early = v.early ? { early: true } : {};
  const entry: ReplayVote =
    v.color === "red"
      ? { by: nameOf(m, seat), red: nameOf(m, v.target), ...early }
      : { by: nameOf(m, seat), blue: nameOf(m, v.target), ...early };
  return { ...m, day, open: { ...open, votes: [...(open.votes ?? []), entry] } };
}

/**
 * P4: a substitute takes the seat from now on ("at once"). In a replay file a replacement takes effect at
 * the start of its phase, so the open phase's earlier entries are logged under the new name.
 */
export function replace(m: Match, seat: Seat, name: string, reason = ""): Match | Rejection {
  const state = replacePlayer(m.state, seat, name);
  if (isRejection(state)) return state;
  const old = nameOf(m, seat);
  const open = logGm(renameInPhase(m.open, old, name), { replace: old, with: name });
  return {
    ...m,
    state,
    open,
    overrides: [...m.overrides, override(m, "replace", `${old} → ${name}`, reason)],
  };
}

function renameInPhase(open: ReplayNight | ReplayDay, from: string, to: string): ReplayNight | ReplayDay {
  const key = nameKey(from);
  const r = (n: string): string => (nameKey(n) === key ? to : n);
  const gm =
    open.gm === undefined
      ? undefined
      : (Array.isArray(open.gm) ? open.gm : [open.gm]).map((g): GmEntry =>
          "modkill" in g ? { ...g, modkill: r(g.modkill) } : { replace: r(g.replace), with: r(g.with) },
        );
  if ("night" in open) {
    const actions = (open.actions ?? []).map((a): ReplayAction => {
      const by = r(a.by);
      if ("target" in a) return { ...a, by, target: r(a.target) };
      if ("kill" in a || "intimidate" in a)
        return {
          ...a,
          by,
          ...(a.kill ? { kill: a.kill.map(r) } : {}),
          ...(a.intimidate ? { intimidate: a.intimidate.map(r) } : {}),
        };
      return { ...a, by };
    });
    return { ...open, actions, ...(gm ? { gm } : {}) };
  }
  const votes = (open.votes ?? []).map((v): ReplayVote =>
    "red" in v ? { ...v, by: r(v.by), red: r(v.red) } : { ...v, by: r(v.by), blue: r(v.blue) },
  );
  return { ...open, votes, ...(gm ? { gm } : {}) };
}

/** F2, G5: a modkill by the GM, at the end of the phase. */
export function modkill(m: Match, seat: Seat, reason: string): Match | Rejection {
  const bad = checkModkill(m.state, seat);
  if (bad) return bad;
  if (m.modkills.includes(seat)) return m;
  return {
    ...m,
    modkills: [...m.modkills, seat],
    open: logGm(m.open, { modkill: nameOf(m, seat), reason }),
    overrides: [...m.overrides, override(m, "modkill", nameOf(m, seat), reason)],
  };
}

export interface NightDecisions {
  readonly rolls: Partial<Readonly<Record<RollName, boolean>>>;
  readonly council: CouncilAnswer | null;
  /** F2: why the GM fixed the rolls, if any were fixed. */
  readonly reason?: string;
}

/** The night's deadline: resolve it (§9) and open the day. */
export function endNight(m: Match, decisions: NightDecisions): Match | Rejection {
  const r = resolveNight(m.state, m.night, { ...decisions, modkills: m.modkills });
  if (isRejection(r)) return r;
  const open: ReplayNight = {
    ...(m.open as ReplayNight),
    ...(Object.keys(decisions.rolls).length ? { rolls: { ...decisions.rolls } } : {}),
    ...(r.outcome.council ? { council: decisions.council! } : {}),
  };
  const fixed = Object.entries(decisions.rolls).map(([k, v]) => `${k}=${String(v)}`);
  const decided = [
    ...(fixed.length ? [override(m, "fixRolls", fixed.join(", "), decisions.reason ?? "")] : []),
    ...(r.outcome.council ? [override(m, "council", r.outcome.council.answer, "")] : []),
  ];
  return {
    ...m,
    state: r.state,
    night: emptyBallots(m.state.players.length),
    overrides: [...m.overrides, ...decided],
    modkills: [],
    log: { ...m.log, phases: [...m.log.phases, open] },
    open: { day: r.state.phase.number, votes: [] },
    outcomes: [...m.outcomes, { outcome: r.outcome, players: r.state.players }],
  };
}

/** The day's deadline (or its early close): tally and open the next night. */
export function endDay(m: Match): Match | Rejection {
  const r = closeDay(m.state, m.day, m.modkills);
  if (isRejection(r)) return r;
  return {
    ...m,
    state: r.state,
    day: emptyDayBallots(m.state.players.length),
    modkills: [],
    log: { ...m.log, phases: [...m.log.phases, m.open] },
    open: { night: r.state.phase.number, actions: [] },
    outcomes: [...m.outcomes, { outcome: r.outcome, players: r.state.players }],
  };
}

/** The finished phases as a REPLAY.md file. */
export function exportReplay(m: Match): ReplayFile {
  return m.log;
}
