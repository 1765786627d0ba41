import { eventsSeenBy, type GameEvent, type SeenEvents, type Team, type Viewer } from "./events.ts";
import type { NightAction, Slot } from "./night-action.ts";
import type { CheckResult, CouncilAnswer } from "./night.ts";
import type { Seat } from "./player.ts";
import { DEFAULT_OPTIONS, type GameOptions } from "./options.ts";
import type { RoleId } from "./roles.ts";
import type { Phase, Winner } from "./state.ts";
import type { VoteColor } from "./vote.ts";

/** A seat as the viewer sees it. `role` is null unless the viewer may know it. */
export interface SeatView {
  readonly seat: Seat;
  readonly name: string;
  readonly alive: boolean;
  readonly role: RoleId | null;
  /** A1: announced as unable to vote in the day now in play (or the coming one). */
  readonly cannotVote: boolean;
}

export interface VoteView {
  readonly seat: Seat;
  readonly color: VoteColor;
  readonly target: Seat;
  readonly early: boolean;
}

/** A vote as it stood when its day closed (V4: shown as 1). */
export interface PastVoteView extends VoteView {
  readonly day: number;
}

export interface PrivateResultView {
  readonly phase: Phase;
  readonly check: CheckResult | null;
  readonly council: { readonly question: string; readonly answer: CouncilAnswer } | null;
}

/**
 * What one viewer may know of a game, folded only from the events that viewer may see (STYLE.md,
 * "Secrets"): nothing is copied from the full state and then deleted.
 */
export interface GameView {
  readonly viewer: Viewer;
  /** The phase now in play. */
  readonly phase: Phase;
  readonly seats: readonly SeatView[];
  /** The viewer's own seat and team, for a player. */
  readonly me: {
    readonly seat: Seat;
    readonly role: RoleId;
    readonly team: Team | null;
    readonly strikes: number;
    /** O1b: the player's own submission last night (the own slot), for the repeat limits. */
    readonly lastNight: NightAction | null;
  } | null;
  /** Tonight's submissions the viewer may see (their own slot, their team's shared slots), the last in each slot. */
  readonly submissions: readonly { readonly seat: Seat; readonly slot: Slot; readonly action: NightAction }[];
  /** Today's votes in the thread (V4: each shown as 1; weights never appear). */
  readonly votes: readonly VoteView[];
  /** Earlier days' votes, each voter's last of that day: everyone saw them in the thread. */
  readonly pastVotes: readonly PastVoteView[];
  /** The announced results, oldest first (A1, A3). */
  readonly results: readonly (
    | Extract<GameEvent, { readonly type: "nightResults" }>
    | Extract<GameEvent, { readonly type: "dayResults" }>
  )[];
  /** A2: the viewer's private results. */
  readonly privateResults: readonly PrivateResultView[];
  readonly winner: Winner | null;
  /** F1: published at the end. */
  readonly seed: string | null;
  /** S3: the game's options and thresholds, public from the start (gameStarted). */
  readonly options: GameOptions;
}

interface Draft {
  phase: Phase;
  names: string[];
  alive: boolean[];
  roles: (RoleId | null)[];
  cannotVote: boolean[];
  /** Set when names, alive, roles or cannotVote change: a kept list of seats is out of date (ViewFold). */
  seatsChanged: boolean;
  /**
   * Whether the draft owns each list it changes in place, or shares it with a view handed out (ViewFold):
   * a shared list is copied before its next change, so a view once given never changes.
   */
  own: {
    submissions: boolean;
    votes: boolean;
    pastVotes: boolean;
    results: boolean;
    privateResults: boolean;
  };
  me: { seat: Seat; role: RoleId; team: Team | null; strikes: number; lastNight: NightAction | null } | null;
  /** The player's own-slot submission tonight, which becomes `me.lastNight` when the night's results come. */
  ownTonight: NightAction | null;
  submissions: { seat: Seat; slot: Slot; action: NightAction }[];
  votes: VoteView[];
  pastVotes: PastVoteView[];
  results: GameView["results"][number][];
  privateResults: PrivateResultView[];
  winner: Winner | null;
  seed: string | null;
  options: GameOptions;
  /**
   * Set for a player's fold that takes the public lists (votes, past votes, results) from a fold of the
   * public events (ViewFold's `publicLists`): this draft does not keep them.
   */
  sharesPublic: boolean;
}

const emptyDraft = (): Draft => ({
  phase: { kind: "night", number: 1 },
  names: [],
  alive: [],
  roles: [],
  cannotVote: [],
  seatsChanged: true,
  own: { submissions: true, votes: true, pastVotes: true, results: true, privateResults: true },
  me: null,
  ownTonight: null,
  submissions: [],
  votes: [],
  pastVotes: [],
  results: [],
  privateResults: [],
  winner: null,
  seed: null,
  options: DEFAULT_OPTIONS,
  sharesPublic: false,
});

/**
 * Fold a viewer's view. `roles` (seat → role) only decides which team-addressed events a player
 * receives (their own team); it never goes into the view.
 */
export function viewFor(events: readonly GameEvent[], viewer: Viewer, roles: readonly RoleId[]): GameView {
  return foldView(eventsSeenBy(events, viewer, roles), viewer);
}

/** The same fold, from the events already chosen for this viewer (eventsSeenBy): they are not filtered again. */
export function foldView(visible: SeenEvents, viewer: Viewer): GameView {
  const d = emptyDraft();
  for (const e of visible) apply(d, e, viewer);
  return viewOf(d, viewer, seatsOf(d));
}

/** The seats as the draft has them; a seat unchanged since `before` (ViewFold's last list) keeps its object. */
function seatsOf(d: Draft, before: readonly SeatView[] = []): SeatView[] {
  return d.names.map((name, seat) => {
    const b = before[seat];
    const alive = d.alive[seat]!;
    const role = d.roles[seat]!;
    const cannotVote = d.cannotVote[seat]!;
    if (
      b !== undefined &&
      b.name === name &&
      b.alive === alive &&
      b.role === role &&
      b.cannotVote === cannotVote
    )
      return b;
    return { seat, name, alive, role, cannotVote };
  });
}

function viewOf(
  d: Draft,
  viewer: Viewer,
  seats: readonly SeatView[],
  /** The public fold's view, whose lists of votes, past votes and results a player's fold shares. */
  pub: GameView | null = null,
): GameView {
  return {
    viewer,
    phase: d.phase,
    seats,
    me: d.me,
    submissions: d.submissions,
    votes: pub === null ? d.votes : pub.votes,
    pastVotes: pub === null ? d.pastVotes : pub.pastVotes,
    results: pub === null ? d.results : pub.results,
    privateResults: d.privateResults,
    winner: d.winner,
    seed: d.seed,
    options: d.options,
  };
}

/**
 * A viewer's view folded as a game goes on: each call to `add` folds only the events it has not read, and
 * `view()` gives the same view as viewFor of the whole list so far (bots decide hundreds of times a game,
 * and folding the whole game again for each decision was most of their cost). Only the events the viewer
 * may see are folded (eventsSeenBy), exactly as viewFor chooses them. A view given out never changes:
 * the lists it shares with the fold are copied before the fold appends to them.
 */
export class ViewFold {
  private readonly d: Draft = emptyDraft();
  /** How many of the game's events have been read. */
  private read = 0;
  private seats: readonly SeatView[] = [];
  private last: GameView | null = null;
  /** The public fold's view that `last` took its public lists from. */
  private lastPublic: GameView | null = null;

  /**
   * `publicLists`: a fold of the same game for the public viewer, read as far as this one at every view():
   * today's votes, the past votes and the results are folded from public events only (everyone sees
   * them, the same for every player), so the folds of a game's seats share them from one fold instead of
   * each folding them again; this fold keeps only the rest.
   */
  constructor(
    readonly viewer: Viewer,
    private readonly roles: readonly RoleId[],
    private readonly publicLists: ViewFold | null = null,
  ) {
    if (publicLists !== null && publicLists.viewer.kind !== "public")
      throw new Error("ViewFold: shared lists come only from the public viewer's fold");
    this.d.sharesPublic = publicLists !== null;
  }

  /**
   * Fold the game's events that have not been read yet: `events` is the whole list so far (the same list,
   * grown, at every call), of which the fold reads only what comes after the events it read before.
   */
  add(events: readonly GameEvent[]): void {
    if (events.length < this.read) throw new Error("ViewFold: the list of events got shorter");
    if (events.length === this.read) return;
    const fresh = eventsSeenBy(events, this.viewer, this.roles, this.read);
    this.read = events.length;
    if (fresh.length === 0) return;
    for (const e of fresh) apply(this.d, e, this.viewer);
    this.last = null;
  }

  /** The view of the events read so far: the same object until an event the viewer may see is folded. */
  view(): GameView {
    let pub: GameView | null = null;
    if (this.publicLists !== null) {
      if (this.publicLists.read !== this.read)
        throw new Error("ViewFold: the public fold has not read the same events");
      pub = this.publicLists.view();
      if (pub !== this.lastPublic) this.last = null;
    }
    if (this.last !== null) return this.last;
    const d = this.d;
    if (d.seatsChanged) {
      this.seats = seatsOf(d, this.seats);
      d.seatsChanged = false;
    }
    const own = d.own;
    own.submissions = own.votes = own.pastVotes = own.results = own.privateResults = false;
    this.lastPublic = pub;
    return (this.last = viewOf(d, this.viewer, this.seats, pub));
  }
}

/** The draft's lists, each its own to change: copied first when a handed-out view holds it (ViewFold). */
const mine = {
  submissions(d: Draft): Draft["submissions"] {
    if (!d.own.submissions) {
      d.submissions = d.submissions.slice();
      d.own.submissions = true;
    }
    return d.submissions;
  },
  votes(d: Draft): VoteView[] {
    if (!d.own.votes) {
      d.votes = d.votes.slice();
      d.own.votes = true;
    }
    return d.votes;
  },
  pastVotes(d: Draft): PastVoteView[] {
    if (!d.own.pastVotes) {
      d.pastVotes = d.pastVotes.slice();
      d.own.pastVotes = true;
    }
    return d.pastVotes;
  },
  results(d: Draft): Draft["results"] {
    if (!d.own.results) {
      d.results = d.results.slice();
      d.own.results = true;
    }
    return d.results;
  },
  privateResults(d: Draft): PrivateResultView[] {
    if (!d.own.privateResults) {
      d.privateResults = d.privateResults.slice();
      d.own.privateResults = true;
    }
    return d.privateResults;
  },
};

/** Take out of `list`, in place, every item `gone` picks. */
function remove<T>(list: T[], gone: (item: T) => boolean): void {
  let kept = 0;
  for (const item of list) if (!gone(item)) list[kept++] = item;
  list.length = kept;
}

/** The player's own part with one field changed, field by field (object spread costs more on Node 20). */
function meWith(me: NonNullable<Draft["me"]>, change: Partial<NonNullable<Draft["me"]>>): Draft["me"] {
  return {
    seat: me.seat,
    role: me.role,
    team: change.team !== undefined ? change.team : me.team,
    strikes: change.strikes ?? me.strikes,
    lastNight: change.lastNight !== undefined ? change.lastNight : me.lastNight,
  };
}

/** Empty a list for a new phase: a fresh one, the draft's own. */
function fresh(d: Draft, list: "submissions" | "votes"): void {
  d[list] = [];
  d.own[list] = true;
}

function know(d: Draft, members: readonly { readonly seat: Seat; readonly role: RoleId }[]): void {
  for (const m of members) d.roles[m.seat] = m.role;
  d.seatsChanged = true;
}

function apply(d: Draft, e: GameEvent, viewer: Viewer): void {
  switch (e.type) {
    case "gameStarted":
      d.options = e.options;
      d.names = e.names.slice();
      d.alive = e.names.map(() => true);
      d.roles = e.names.map(() => null);
      d.cannotVote = e.names.map(() => false);
      d.seatsChanged = true;
      return;
    case "roleDealt":
      d.roles[e.seat] = e.role;
      d.seatsChanged = true;
      if (viewer.kind === "player" && viewer.seat === e.seat)
        d.me = { seat: e.seat, role: e.role, team: null, strikes: 0, lastNight: null };
      return;
    case "teamRevealed":
      know(d, e.members);
      if (d.me && e.members.some((m) => m.seat === d.me!.seat)) d.me = meWith(d.me, { team: e.team });
      return;
    case "actionSubmitted": {
      // A later submission replaces the earlier one in the same slot; the pair's slot is one for both.
      const list = mine.submissions(d);
      remove(list, (s) => s.slot === e.slot && (e.slot === "pair" || s.seat === e.seat));
      list.push({ seat: e.seat, slot: e.slot, action: e.action });
      if (d.me && e.seat === d.me.seat && e.slot === "own") d.ownTonight = e.action;
      return;
    }
    case "nightResults":
      if (!d.sharesPublic) mine.results(d).push(e);
      for (const s of e.died) d.alive[s] = false;
      know(d, e.revealed);
      d.cannotVote.fill(false);
      for (const s of e.silenced) d.cannotVote[s] = true;
      fresh(d, "submissions");
      if (d.me) d.me = meWith(d.me, { lastNight: d.ownTonight });
      d.ownTonight = null;
      fresh(d, "votes");
      d.phase = { kind: "day", number: e.phase.number };
      if (e.winner !== null) d.winner = e.winner;
      return;
    case "checkResult":
      mine.privateResults(d).push({ phase: e.phase, check: e.check, council: null });
      return;
    case "councilAnswer":
      mine.privateResults(d).push({
        phase: e.phase,
        check: null,
        council: { question: e.question, answer: e.answer },
      });
      return;
    case "strike":
      if (d.me && d.me.seat === e.seat) d.me = meWith(d.me, { strikes: d.me.strikes + 1 });
      return;
    case "voteCast": {
      if (d.sharesPublic) return; // the public fold keeps today's votes
      const list = mine.votes(d);
      remove(list, (v) => v.seat === e.seat);
      list.push({ seat: e.seat, color: e.color, target: e.target, early: e.early });
      return;
    }
    case "dayResults": {
      for (const s of e.died) d.alive[s] = false;
      know(d, e.revealed);
      d.cannotVote.fill(false);
      if (!d.sharesPublic) {
        mine.results(d).push(e);
        // Field by field: object spread costs far more on Node 20, and bots fold views all game long.
        const past = mine.pastVotes(d);
        for (const v of d.votes)
          past.push({
            seat: v.seat,
            color: v.color,
            target: v.target,
            early: v.early,
            day: e.phase.number,
          });
        fresh(d, "votes");
      }
      d.phase = { kind: "night", number: e.phase.number + 1 };
      if (e.winner !== null) d.winner = e.winner;
      return;
    }
    case "replaced":
      d.names[e.seat] = e.newName;
      d.seatsChanged = true;
      return;
    case "gameEnded":
      know(d, e.roles); // R3
      d.winner = e.winner;
      d.seed = e.seed;
      return;
    case "modkillOrdered":
    case "nightDetail":
    case "dayDetail":
      return; // the GM's own working; a player's view never gets here (AUDIENCE)
    default: {
      const never: never = e;
      throw new Error(`unknown event ${JSON.stringify(never)}`);
    }
  }
}
