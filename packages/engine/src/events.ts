import type { DayOutcome } from "./day.ts";
import { inputsSince, logMark, type LogMark, type Match } from "./match.ts";
import { slotFor, type NightAction, type Slot } from "./night-action.ts";
import type { Attack, CheckResult, CouncilAnswer, NightOutcome, Roll } from "./night.ts";
import type { GameOptions } from "./options.ts";
import type { Seat } from "./player.ts";
import { seedCommitment } from "./rng.ts";
import { inPair, isMafia, type RoleId } from "./roles.ts";
import { currentBoss, type Phase, type Winner } from "./state.ts";
import type { VoteColor } from "./vote.ts";

/** The two teams that share a private channel (S2). */
export type Team = "mafia" | "pair";

export const teamOf = (role: RoleId): Team | null => (isMafia(role) ? "mafia" : inPair(role) ? "pair" : null);

interface Member {
  readonly seat: Seat;
  readonly role: RoleId;
}

/**
 * What happened in a game, in order, as the players and the GM would learn it. Each event has exactly one
 * audience (AUDIENCE below); views are folded only from the events their viewer may see.
 */
export type GameEvent =
  /** G4, F1: the table, the seed's commitment and the options. */
  | {
      readonly type: "gameStarted";
      readonly names: readonly string[];
      readonly commitment: string | null;
      readonly options: GameOptions;
    }
  /** S1: a player's own role. */
  | { readonly type: "roleDealt"; readonly seat: Seat; readonly role: RoleId }
  /** S2: the mafia know each other; the sheriff and the sergeant know each other. */
  | { readonly type: "teamRevealed"; readonly team: Team; readonly members: readonly Member[] }
  /** O1: a submission, seen by its sender, or by the team whose shared slot it fills (M4, T1). */
  | {
      readonly type: "actionSubmitted";
      readonly phase: Phase;
      readonly seat: Seat;
      readonly slot: Slot;
      readonly action: NightAction;
    }
  /** A1: the night's public results. */
  | {
      readonly type: "nightResults";
      readonly phase: Phase;
      readonly died: readonly Seat[];
      readonly revealed: readonly Member[];
      readonly exposed: readonly { readonly seat: Seat; readonly as: "boss" | "doctor" }[];
      readonly bloodyVictims: readonly Seat[];
      readonly tortureEvidence: readonly Seat[];
      readonly serum: Seat | null;
      readonly silenced: readonly Seat[];
      readonly modkilled: readonly Seat[];
      readonly winner: Winner | null;
    }
  /** A2: the check's result, to the sheriff and the sergeant. */
  | { readonly type: "checkResult"; readonly phase: Phase; readonly check: CheckResult }
  /** A2, M2c: the council's answer, to the mafia. */
  | {
      readonly type: "councilAnswer";
      readonly phase: Phase;
      readonly question: string;
      readonly answer: CouncilAnswer;
    }
  /**
   * P1, P2: a strike, told to the player who got it (a missed night action must not reveal a role); G5
   * (issue 31): `conduct`, given by the GM or the game's G5 policy for swearing or an insult, at once.
   */
  | {
      readonly type: "strike";
      readonly phase: Phase;
      readonly seat: Seat;
      readonly cause: "vote" | "night" | "conduct";
    }
  /** V1, V2: a vote in the game thread (every vote is shown as 1, V4). */
  | {
      readonly type: "voteCast";
      readonly phase: Phase;
      readonly seat: Seat;
      readonly color: VoteColor;
      readonly target: Seat;
      readonly early: boolean;
    }
  /** A3: the day's public result. Scores are not in it: weights are never shown (V4), nor M3. */
  | {
      readonly type: "dayResults";
      readonly phase: Phase;
      readonly hanged: Seat | null;
      readonly excused: Seat | null;
      readonly closedEarly: boolean;
      readonly notVoted: readonly Seat[];
      readonly modkilled: readonly Seat[];
      readonly died: readonly Seat[];
      readonly revealed: readonly Member[];
      readonly winner: Winner | null;
    }
  /** P4: a substitute takes the seat. */
  | { readonly type: "replaced"; readonly seat: Seat; readonly oldName: string; readonly newName: string }
  /** F2: the GM's modkill order (it takes effect, and is announced, at the end of the phase). */
  | { readonly type: "modkillOrdered"; readonly phase: Phase; readonly seat: Seat; readonly reason: string }
  /** The GM's working detail of a night: every attack, block and roll (published at the end, R3). */
  | {
      readonly type: "nightDetail";
      readonly phase: Phase;
      readonly attacks: readonly Attack[];
      readonly blocked: readonly Seat[];
      readonly rolls: readonly Roll[];
    }
  /** The GM's working detail of a day: the weighted scores, penalties and uncounted votes. */
  | {
      readonly type: "dayDetail";
      readonly phase: Phase;
      readonly score: readonly { readonly seat: Seat; readonly score: number }[];
      readonly penalized: readonly Seat[];
      readonly uncounted: readonly Seat[];
    }
  /** R3, F1: the end: every role and the seed. */
  | {
      readonly type: "gameEnded";
      readonly winner: Winner;
      readonly roles: readonly Member[];
      readonly seed: string | null;
    };

export type GameEventType = GameEvent["type"];
type EventOf<T extends GameEventType> = Extract<GameEvent, { readonly type: T }>;

export type Audience =
  | { readonly to: "everyone" }
  | { readonly to: "seats"; readonly seats: readonly Seat[] }
  | { readonly to: "team"; readonly team: Team }
  | { readonly to: "gm" };

const EVERYONE: Audience = { to: "everyone" };
const GM: Audience = { to: "gm" };

/** Who may see each kind of event. No default: a new event type does not compile until it is listed. */
export const AUDIENCE: { readonly [T in GameEventType]: (event: EventOf<T>) => Audience } = {
  gameStarted: () => EVERYONE,
  roleDealt: (e) => ({ to: "seats", seats: [e.seat] }),
  teamRevealed: (e) => ({ to: "team", team: e.team }),
  actionSubmitted: (e) =>
    e.slot === "own" ? { to: "seats", seats: [e.seat] } : { to: "team", team: e.slot },
  nightResults: () => EVERYONE,
  checkResult: () => ({ to: "team", team: "pair" }),
  councilAnswer: () => ({ to: "team", team: "mafia" }),
  strike: (e) => ({ to: "seats", seats: [e.seat] }),
  voteCast: () => EVERYONE,
  dayResults: () => EVERYONE,
  replaced: () => EVERYONE,
  modkillOrdered: () => GM,
  nightDetail: () => GM,
  dayDetail: () => GM,
  gameEnded: () => EVERYONE,
};

export function audienceOf(event: GameEvent): Audience {
  return (AUDIENCE[event.type] as (e: GameEvent) => Audience)(event);
}

/** Who is looking: a player (by seat), the GM, or anyone else (spectators, the public). */
export type Viewer =
  { readonly kind: "player"; readonly seat: Seat } | { readonly kind: "gm" } | { readonly kind: "public" };

/** Whether the viewer may see the event. A seat's team is fixed by its role, which never changes. */
export function maySee(event: GameEvent, viewer: Viewer, roles: readonly RoleId[]): boolean {
  return mayReach(audienceOf(event), viewer, roles);
}

/**
 * Whether an audience takes in the viewer: the one audience check, for the engine's events and for
 * anything the server addresses the same way (its feed of posts, messages and results).
 */
export function mayReach(a: Audience, viewer: Viewer, roles: readonly RoleId[]): boolean {
  if (viewer.kind === "gm") return true;
  switch (a.to) {
    case "everyone":
      return true;
    case "gm":
      return false;
    case "seats":
      return viewer.kind === "player" && a.seats.includes(viewer.seat);
    case "team":
      return viewer.kind === "player" && teamOf(roles[viewer.seat]!) === a.team;
    default: {
      const never: never = a;
      throw new Error(`unknown audience ${JSON.stringify(never)}`);
    }
  }
}

declare const SEEN: unique symbol;

/**
 * The events one viewer may see, and only those: what a viewer's builders read (the server's response
 * builders take these or a view folded from them, never the match). Made only by eventsSeenBy.
 */
export type SeenEvents = readonly GameEvent[] & { readonly [SEEN]: Viewer["kind"] };

export function eventsSeenBy(
  events: readonly GameEvent[],
  viewer: Viewer,
  roles: readonly RoleId[],
  /** Only the events from this index on (a fold that has read the ones before, ViewFold). */
  from = 0,
): SeenEvents {
  const seen: GameEvent[] = [];
  for (let i = from; i < events.length; i++) if (maySee(events[i]!, viewer, roles)) seen.push(events[i]!);
  return seen as readonly GameEvent[] as SeenEvents;
}

const members = (entries: Iterable<[Seat, RoleId]>): Member[] =>
  [...entries].map(([seat, role]) => ({ seat, role })).sort((a, b) => a.seat - b.seat);

/** Where a reading of a match's events stopped: its log mark and what the fold needs to go on from it. */
export interface EventCursor {
  readonly mark: LogMark;
  readonly phase: Phase;
  readonly finished: number;
  readonly names: readonly string[];
  readonly roles: readonly RoleId[];
  readonly boss: Seat | null;
  readonly ended: boolean;
}

/** The game's events, in order, from a match: its inputs and the outcomes of its finished phases. */
export function gameEvents(m: Match): GameEvent[] {
  return gameEventsSince(m, null).events;
}

/**
 * The events after `cursor` (all of them for null), and the cursor to read on from. gameEvents is
 * append-only as a match goes on, so a server reads each input's events once instead of the whole game.
 */
export function gameEventsSince(
  m: Match,
  cursor: EventCursor | null,
): { events: GameEvent[]; cursor: EventCursor } {
  const roles = cursor?.roles ?? m.setup.players.map((p) => p.role);
  const out: GameEvent[] = [];
  let names: readonly string[];
  let phase: Phase;
  let boss: Seat | null;
  let finished: number;
  if (cursor === null) {
    names = m.setup.players.map((p) => p.name);
    out.push({
      type: "gameStarted",
      names: names.slice(),
      commitment: m.setup.seed === null ? null : seedCommitment(m.setup.seed),
      options: m.state.options,
    });
    roles.forEach((role, seat) => out.push({ type: "roleDealt", seat, role }));
    for (const team of ["mafia", "pair"] as const) {
      const list: Member[] = [];
      for (let seat = 0; seat < roles.length; seat++)
        if (teamOf(roles[seat]!) === team) list.push({ seat, role: roles[seat]! });
      if (list.length > 0) out.push({ type: "teamRevealed", team, members: list });
    }
    phase = { kind: "night", number: 1 };
    // M1: the boss is fixed when a night starts, from the table as the day before left it.
    boss = currentBoss(m.setup.players);
    finished = 0;
  } else {
    names = cursor.names; // copied only when a replacement changes it
    phase = cursor.phase;
    boss = cursor.boss;
    finished = cursor.finished;
  }
  for (const e of inputsSince(m, cursor?.mark ?? null)) {
    switch (e.kind) {
      case "act":
        out.push({
          type: "actionSubmitted",
          phase,
          seat: e.seat,
          slot: slotFor(roles[e.seat]!, boss === e.seat, e.action.act),
          action: e.action,
        });
        break;
      case "vote":
        out.push({
          type: "voteCast",
          phase,
          seat: e.seat,
          color: e.vote.color,
          target: e.vote.target,
          early: e.vote.early,
        });
        break;
      case "replace":
        out.push({ type: "replaced", seat: e.seat, oldName: names[e.seat]!, newName: e.name });
        names = names.map((n, seat) => (seat === e.seat ? e.name : n));
        break;
      case "modkill":
        out.push({ type: "modkillOrdered", phase, seat: e.seat, reason: e.reason });
        break;
      case "strike":
        out.push({ type: "strike", phase, seat: e.seat, cause: "conduct" });
        break;
      case "endNight":
      case "endDay": {
        const { outcome } = m.outcomes[finished]!;
        finished++;
        if (outcome.phase.kind === "night") out.push(...nightEvents(outcome as NightOutcome));
        else out.push(...dayEvents(outcome as DayOutcome));
        phase =
          outcome.phase.kind === "night"
            ? { kind: "day", number: outcome.phase.number }
            : { kind: "night", number: outcome.phase.number + 1 };
        if (phase.kind === "night") boss = currentBoss(m.outcomes[finished - 1]!.players);
        break;
      }
    }
  }
  const ended = m.state.winner !== null;
  if (ended && !cursor?.ended)
    out.push({
      type: "gameEnded",
      winner: m.state.winner!,
      roles: members(roles.map((r, s): [Seat, RoleId] => [s, r])),
      seed: m.setup.seed,
    });
  return { events: out, cursor: { mark: logMark(m), phase, boss, finished, names, roles, ended } };
}

/**
 * A match's events read as the match goes on: each read takes only the inputs accepted since the last
 * (gameEventsSince), and `events` is the whole list so far, the same as gameEvents of the match last read.
 * Each read must be of the match read before or a later one of the same game (its log grown from it).
 */
export class EventReader {
  private cursor: EventCursor | null = null;
  private last: Match | null = null;
  private readonly list: GameEvent[] = [];

  /** The game's events up to `m`, oldest first (the reader's own list: it grows with later reads). */
  read(m: Match): readonly GameEvent[] {
    if (m !== this.last) {
      const next = gameEventsSince(m, this.cursor);
      for (const e of next.events) this.list.push(e);
      this.cursor = next.cursor;
      this.last = m;
    }
    return this.list;
  }
}

export type NightResults = Extract<GameEvent, { readonly type: "nightResults" }>;
export type DayResults = Extract<GameEvent, { readonly type: "dayResults" }>;

/** A1: what a night's outcome makes public. */
export function nightResultsOf(o: NightOutcome): NightResults {
  return {
    type: "nightResults",
    phase: o.phase,
    died: o.died,
    revealed: members(o.revealed),
    exposed: [...o.exposed].map(([seat, as]) => ({ seat, as })),
    bloodyVictims: o.bloodyVictims,
    tortureEvidence: o.tortureEvidence,
    serum: o.serum,
    silenced: o.silenced,
    modkilled: o.modkilled,
    winner: o.winner,
  };
}

/** A3: what a day's outcome makes public (no scores: V4, M3). */
export function dayResultsOf(o: DayOutcome): DayResults {
  return {
    type: "dayResults",
    phase: o.phase,
    hanged: o.hanged,
    excused: o.excused,
    closedEarly: o.closedEarly,
    notVoted: o.notVoted,
    modkilled: o.modkilled,
    died: o.died,
    revealed: members(o.revealed),
    winner: o.winner,
  };
}

function nightEvents(o: NightOutcome): GameEvent[] {
  const out: GameEvent[] = [
    nightResultsOf(o),
    { type: "nightDetail", phase: o.phase, attacks: o.attacks, blocked: o.blocked, rolls: o.rolls },
  ];
  if (o.check) out.push({ type: "checkResult", phase: o.phase, check: o.check });
  if (o.council)
    out.push({
      type: "councilAnswer",
      phase: o.phase,
      question: o.council.question,
      answer: o.council.answer,
    });
  for (const seat of o.struck) out.push({ type: "strike", phase: o.phase, seat, cause: "night" });
  return out;
}

function dayEvents(o: DayOutcome): GameEvent[] {
  return [
    dayResultsOf(o),
    {
      type: "dayDetail",
      phase: o.phase,
      score: [...o.score].map(([seat, score]) => ({ seat, score })),
      penalized: o.penalized,
      uncounted: o.uncounted,
    },
    ...o.notVoted.map((seat): GameEvent => ({ type: "strike", phase: o.phase, seat, cause: "vote" })),
  ];
}
