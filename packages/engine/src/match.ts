import { checkModkill, checkStrike, createGame, replacePlayer, type GameSetup } from "./game.ts";
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
import { nameKey, withPlayer, type Player, type Seat } from "./player.ts";
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
import { withState, type GameState, type Phase } from "./state.ts";
import { struckOut } from "./strikes.ts";
import { castVote, emptyDayBallots, type DayBallots, type Vote } from "./vote.ts";

export type PhaseOutcome = NightOutcome | DayOutcome;

export interface GmOverride {
  readonly phase: Phase;
  readonly kind: "modkill" | "strike" | "replace" | "reopenMafia" | "fixRolls" | "council";
  /** What was decided, in words, e.g. "Вася → Петя" or "girlSilence=false". */
  readonly detail: string;
  readonly reason: string;
}

/** One accepted input, in the order it was accepted (G1). */
export type LogEvent =
  | { readonly kind: "act"; readonly seat: Seat; readonly action: NightAction }
  | { readonly kind: "vote"; readonly seat: Seat; readonly vote: Vote }
  | { readonly kind: "replace"; readonly seat: Seat; readonly name: string }
  | { readonly kind: "modkill"; readonly seat: Seat; readonly reason: string; readonly clause?: "G5" }
  /** G5, P3 (issue 31): a strike for swearing or an insult, given by the GM or the game's policy. */
  | { readonly kind: "strike"; readonly seat: Seat; readonly reason: string }
  | { readonly kind: "endNight"; readonly decisions: NightDecisions; readonly councilUsed: boolean }
  | { readonly kind: "endDay" };

/** An append-only list, newest first: appending shares everything before it. */
interface LogCell {
  readonly event: LogEvent;
  readonly previous: LogCell | null;
}

/**
 * A game in progress together with its log (G1): every accepted input is appended as it comes, so any
 * game the engine ran can be exported (exportReplay) and replayed to the same results.
 */
export interface Match {
  readonly state: GameState;
  readonly night: NightBallots;
  readonly day: DayBallots;
  /** The GM's modkills for the phase now in play (they take effect at its end, F2). */
  readonly modkills: readonly Seat[];
  readonly setup: { readonly seed: string | null; readonly players: readonly Player[] };
  readonly events: LogCell | null;
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
    setup: { seed: setup.seed, players: state.players },
    events: null,
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

const logged = (m: Match, event: LogEvent): LogCell => ({ event, previous: m.events });

/**
 * The match with some fields changed, written out field by field: object spread costs about 20 times as
 * much on Node 20, and this runs for every action and vote.
 */
function withMatch(m: Match, change: Partial<Match>): Match {
  return {
    state: change.state ?? m.state,
    night: change.night ?? m.night,
    day: change.day ?? m.day,
    modkills: change.modkills ?? m.modkills,
    setup: m.setup,
    events: change.events ?? m.events,
    overrides: change.overrides ?? m.overrides,
    outcomes: change.outcomes ?? m.outcomes,
  };
}

const override = (m: Match, kind: GmOverride["kind"], detail: string, reason: string): GmOverride => ({
  phase: m.state.phase,
  kind,
  detail,
  reason,
});

/** Submit, replace or pass a night action (O1). */
export function act(m: Match, seat: Seat, action: NightAction): Match | Rejection {
  const night = submitNightAction(m.state, m.night, seat, action);
  if (isRejection(night)) return night;
  return {
    state: m.state,
    night,
    day: m.day,
    modkills: m.modkills,
    setup: m.setup,
    events: logged(m, { kind: "act", seat, action }),
    overrides: m.overrides,
    outcomes: m.outcomes,
  };
}

/** G10: the night's intake closes (results pending); the GM may then reopen the mafia's action. */
export function closeNightIntake(m: Match): Match {
  return withMatch(m, { night: closeIntake(m.night) });
}

export function reopenMafia(m: Match, reason: string): Match {
  return withMatch(m, {
    night: reopenMafiaAction(m.night),
    overrides: [...m.overrides, override(m, "reopenMafia", "", reason)],
  });
}

/** Cast or change a vote (V1–V7). */
export function vote(m: Match, seat: Seat, v: Vote): Match | Rejection {
  const day = castVote(m.state, m.day, seat, v);
  if (isRejection(day)) return day;
  return {
    state: m.state,
    night: m.night,
    day,
    modkills: m.modkills,
    setup: m.setup,
    events: logged(m, { kind: "vote", seat, vote: v }),
    overrides: m.overrides,
    outcomes: m.outcomes,
  };
}

/**
 * P4: a substitute takes the seat from now on ("at once"). In a replay file a replacement takes effect at
 * the start of its phase, so the export writes the whole phase under the new name.
 */
export function replace(m: Match, seat: Seat, name: string, reason = ""): Match | Rejection {
  const state = replacePlayer(m.state, seat, name);
  if (isRejection(state)) return state;
  const detail = `${m.state.players[seat]!.name} → ${name}`;
  return withMatch(m, {
    state,
    events: logged(m, { kind: "replace", seat, name }),
    overrides: [...m.overrides, override(m, "replace", detail, reason)],
  });
}

/**
 * F2, G5: a modkill by the GM, at the end of the phase; `clause` "G5" when it punishes swearing or an
 * insult (issue 31: the replay file says so).
 */
export function modkill(m: Match, seat: Seat, reason: string, clause?: "G5"): Match | Rejection {
  const bad = checkModkill(m.state, seat);
  if (bad) return bad;
  if (m.modkills.includes(seat)) return m;
  return withMatch(m, {
    modkills: [...m.modkills, seat],
    events: logged(m, clause ? { kind: "modkill", seat, reason, clause } : { kind: "modkill", seat, reason }),
    overrides: [...m.overrides, override(m, "modkill", m.state.players[seat]!.name, reason)],
  });
}

/**
 * G5, P3 (issue 31): a strike for swearing or an insult, given at once (the player is told, and the GM's
 * table counts it). When it is the player's second (P3, shared or separate counting: struckOut), the
 * player is modkilled at the end of the phase, as P3 says; the replay file holds the strike, never a
 * modkill of its own, so a replay derives the modkill the same way.
 */
export function strike(m: Match, seat: Seat, reason: string): Match | Rejection {
  const bad = checkStrike(m.state, seat);
  if (bad) return bad;
  const p = m.state.players[seat]!;
  const players = m.state.players.slice();
  players[seat] = withPlayer(p, { conductStrikes: p.conductStrikes + 1 });
  const out = struckOut(players[seat]!, m.state.options) && !m.modkills.includes(seat);
  return withMatch(m, {
    state: withState(m.state, { players }),
    ...(out ? { modkills: [...m.modkills, seat] } : {}),
    events: logged(m, { kind: "strike", seat, reason }),
    overrides: [...m.overrides, override(m, "strike", p.name, reason)],
  });
}

export interface NightDecisions {
  readonly rolls: Partial<Readonly<Record<RollName, boolean>>>;
  readonly council: CouncilAnswer | null;
  /** F2: why the GM fixed the rolls, if any were fixed. */
  readonly reason?: string;
  /** F2: why the GM's council answer differs from the rules' answer to a listed question (M2c, council.ts). */
  readonly councilReason?: string;
}

/** A copy of the list with one more item, allocated once at its final length (a spread grows it twice). */
function appended<T>(list: readonly T[], item: T): T[] {
  const out = new Array<T>(list.length + 1);
  for (let i = 0; i < list.length; i++) out[i] = list[i]!;
  out[list.length] = item;
  return out;
}

/** Whether an object has an own enumerable key (Object.entries without building the list). */
function hasKeys(o: object): boolean {
  for (const key in o) if (Object.hasOwn(o, key)) return true;
  return false;
}

/** The night's deadline: resolve it (§9) and open the day. */
export function endNight(m: Match, decisions: NightDecisions): Match | Rejection {
  const r = resolveNight(m.state, m.night, {
    rolls: decisions.rolls,
    council: decisions.council,
    modkills: m.modkills,
  });
  if (isRejection(r)) return r;
  let overrides = m.overrides;
  const fixed = hasKeys(decisions.rolls) ? Object.entries(decisions.rolls) : [];
  if (fixed.length > 0) {
    const detail = fixed.map(([key, v]) => `${key}=${String(v)}`).join(", ");
    overrides = [...overrides, override(m, "fixRolls", detail, decisions.reason ?? "")];
  }
  if (r.outcome.council)
    overrides = [
      ...overrides,
      override(m, "council", r.outcome.council.answer, decisions.councilReason ?? ""),
    ];
  return withMatch(m, {
    state: r.state,
    night: emptyBallots(m.state.players.length),
    modkills: [],
    events: logged(m, { kind: "endNight", decisions, councilUsed: r.outcome.council !== null }),
    overrides,
    outcomes: appended(m.outcomes, { outcome: r.outcome, players: r.state.players }),
  });
}

/** The day's deadline (or its early close): tally and open the next night. */
export function endDay(m: Match): Match | Rejection {
  const r = closeDay(m.state, m.day, m.modkills);
  if (isRejection(r)) return r;
  return withMatch(m, {
    state: r.state,
    day: emptyDayBallots(m.state.players.length),
    modkills: [],
    events: logged(m, { kind: "endDay" }),
    outcomes: appended(m.outcomes, { outcome: r.outcome, players: r.state.players }),
  });
}

/** An opaque point in a match's log (the input last read), for reading only what came after it. */
export type LogMark = LogCell | null;

export const logMark = (m: Match): LogMark => m.events;

/** The inputs accepted after `mark`, oldest first: reading a log as it grows costs only what is new. */
export function inputsSince(m: Match, mark: LogMark): LogEvent[] {
  const out: LogEvent[] = [];
  for (let cell = m.events; cell !== null && cell !== mark; cell = cell.previous) out.push(cell.event);
  return out.reverse();
}

/** Every accepted input, oldest first. */
export function matchEvents(m: Match): LogEvent[] {
  const out: LogEvent[] = [];
  for (let cell = m.events; cell !== null; cell = cell.previous) out.push(cell.event);
  return out.reverse();
}

function toReplayAction(names: readonly string[], by: Seat, action: NightAction): ReplayAction {
  const name = (s: Seat): string => names[s]!;
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

function toReplayVote(names: readonly string[], by: Seat, v: Vote): ReplayVote {
  const early = v.early ? { early: true } : {};
  return v.color === "red"
    ? { by: names[by]!, red: names[v.target]!, ...early }
    : { by: names[by]!, blue: names[v.target]!, ...early };
}

/**
 * The finished phases as a REPLAY.md file. Each phase is written with the names as they stood at its end
 * (a replacement takes effect from the start of its phase in the file, P4).
 */
export function exportReplay(m: Match): ReplayFile {
  const names = m.setup.players.map((p) => p.name);
  const phases: (ReplayNight | ReplayDay)[] = [];
  let pending: LogEvent[] = [];
  let night = 1;
  let day = 1;
  for (const event of matchEvents(m)) {
    if (event.kind !== "endNight" && event.kind !== "endDay") {
      pending.push(event);
      continue;
    }
    const gm: GmEntry[] = [];
    const atStart = names.slice();
    for (const e of pending) {
      if (e.kind === "replace") {
        gm.push({ replace: atStart[e.seat]!, with: e.name });
        names[e.seat] = e.name;
        atStart[e.seat] = e.name;
      }
    }
    // F2, G5 (issue 31): strikes and modkills in the order given; a strike's modkill is derived, never listed.
    for (const e of pending)
      if (e.kind === "modkill")
        gm.push({ modkill: names[e.seat]!, reason: e.reason, ...(e.clause ? { clause: e.clause } : {}) });
      else if (e.kind === "strike") gm.push({ strike: names[e.seat]!, reason: e.reason, clause: "G5" });
    const gmPart = gm.length ? { gm } : {};
    if (event.kind === "endNight") {
      const actions = pending.flatMap((e) =>
        e.kind === "act" ? [toReplayAction(names, e.seat, e.action)] : [],
      );
      const { rolls, council } = event.decisions;
      phases.push({
        night: night++,
        actions,
        ...(Object.keys(rolls).length ? { rolls: { ...rolls } } : {}),
        ...(event.councilUsed && council !== null ? { council } : {}),
        ...gmPart,
      });
    } else {
      const votes = pending.flatMap((e) => (e.kind === "vote" ? [toReplayVote(names, e.seat, e.vote)] : []));
      phases.push({ day: day++, votes, ...gmPart });
    }
    pending = [];
  }
  return {
    format: REPLAY_FORMAT,
    ...(m.setup.seed !== null ? { seed: m.setup.seed } : {}),
    options: { ...m.state.options },
    players: m.setup.players.map((p) => ({ name: p.name, role: p.role })),
    phases,
  };
}
