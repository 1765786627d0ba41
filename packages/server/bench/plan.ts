/** What the benchmark driver (server.bench.ts) hands the load generator (load.ts), and what it gets back. */
import type { ActionRequest } from "@forum-mafia/protocol";

/**
 * bare: GET /api/health; vote, post: the plan's voters and posters in turn; mixed: the capacity section's
 * writes, one game after another (posts and votes in day games, night actions in night games).
 */
export type Scenario = "bare" | "vote" | "post" | "mixed";

/** A living player who may vote today, with the seats they may vote for (alive, not themselves). */
export interface Voter {
  readonly game: string;
  readonly cookie: string;
  readonly seat: number;
  readonly targets: readonly number[];
}

/** A living player who posts in the thread, and the names they find suspicious (plain text: no votes). */
export interface Poster {
  readonly game: string;
  readonly cookie: string;
  readonly suspects: readonly string[];
}

/** A living player in a night game with the night actions the server accepted at set-up. */
export interface Actor {
  readonly game: string;
  readonly cookie: string;
  readonly seat: number;
  readonly actions: readonly ActionRequest[];
}

/** One game of the mixed scenario: a day game's voters and posters, or a night game's actors. */
export interface MixedGame {
  readonly id: string;
  readonly voters: readonly Voter[];
  readonly posters: readonly Poster[];
  readonly actors: readonly Actor[];
}

export interface Plan {
  /** e.g. http://127.0.0.1:40123 */
  readonly url: string;
  /**
   * Issue 20: several instances of one server (`url` among them): the connections and the rate are split
   * evenly over them, and the players' requests, taken in turn, go to whichever instance's connection is
   * free next, as behind a round-robin proxy. Without it every request goes to `url`.
   */
  readonly urls?: readonly string[];
  /** The index of the first vote or post (runs repeated on one plan go on where the last one stopped). */
  readonly offset?: number;
  readonly connections: number;
  readonly seconds: number;
  /** Interleaved across games, so consecutive requests go to different games. */
  readonly voters: readonly Voter[];
  readonly posters: readonly Poster[];
  /** Requests per second across all connections (autocannon's overallRate); as fast as possible without. */
  readonly rate?: number;
  /** Pad each post's text to about this many bytes (the streams section's posts are 10 KB). */
  readonly postBytes?: number;
  /** The mixed scenario's games. */
  readonly mixed?: readonly MixedGame[];
}

/** An acknowledged vote: game, seat, colour, target. */
export type AckedVote = readonly [game: string, seat: number, color: "red" | "blue", target: number];
/** An acknowledged night action: game, seat. */
export type AckedAct = readonly [game: string, seat: number];

export interface LoadResult {
  readonly scenario: Scenario;
  /** Requests set up (answered or not): the next run's offset. */
  readonly sent: number;
  /** Responses per second (autocannon's mean over its one-second samples). */
  readonly requestsPerSecond: number;
  /** Latency percentiles in milliseconds, over every response, from the request's write to its last byte. */
  readonly p50: number;
  readonly p99: number;
  readonly responses: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly seconds: number;
  readonly statusCodes: Readonly<Record<string, number>>;
  /** A few refused responses' bodies, to explain a non-2xx count. */
  readonly refusals: readonly string[];
  readonly votes: readonly AckedVote[];
  /** Ids of the acknowledged posts. */
  readonly posts: readonly string[];
  /** The acknowledged night actions (the mixed scenario). */
  readonly acts: readonly AckedAct[];
}

/**
 * The k-th vote of a run: voters in turn; each round a voter switches colour (and moves to the next
 * target), so every vote is a real change of that voter's ballot.
 */
export function voteAt(plan: Plan, k: number): { voter: Voter; color: "red" | "blue"; target: number } {
  const voter = plan.voters[k % plan.voters.length]!;
  const round = Math.floor(k / plan.voters.length);
  return {
    voter,
    color: round % 2 === 0 ? "red" : "blue",
    target: voter.targets[round % voter.targets.length]!,
  };
}

/** The k-th post of a run: posters in turn, each naming a suspect in bold (no colour, so no vote, V2). */
export function postAt(plan: Plan, k: number): { poster: Poster; text: string } {
  const poster = plan.posters[k % plan.posters.length]!;
  const round = Math.floor(k / plan.posters.length);
  const suspect = poster.suspects[round % poster.suspects.length]!;
  const text = `Я думаю, [b]${suspect}[/b] подозрителен. Запись ${k + 1}.`;
  const pad = Math.max(0, Math.floor(((plan.postBytes ?? 0) - Buffer.byteLength(text)) / 2));
  return { poster, text: pad > 0 ? `${text} ${"ж".repeat(pad)}` : text };
}

/** One write of the mixed scenario: its path, body, who sends it, and what it is. */
export type MixedWrite =
  | { readonly kind: "vote"; readonly voter: Voter; readonly color: "red"; readonly target: number }
  | { readonly kind: "post"; readonly poster: Poster; readonly text: string }
  | { readonly kind: "act"; readonly actor: Actor; readonly action: ActionRequest };

/**
 * The k-th write of the mixed scenario: games in turn (so at R writes/s each of G games gets one every G/R
 * seconds); within a day game two posts to one vote, the posters and voters in turn, each voter moving to
 * their next target at each of their votes; within a night game the actors in turn, each changing between
 * the actions the server accepted at set-up.
 */
export function mixedAt(plan: Plan, k: number): MixedWrite {
  const games = plan.mixed ?? [];
  if (games.length === 0) throw new Error("mixedAt: the plan has no mixed games");
  const game = games[k % games.length]!;
  const round = Math.floor(k / games.length);
  if (game.actors.length > 0) {
    const actor = game.actors[round % game.actors.length]!;
    const turn = Math.floor(round / game.actors.length);
    return { kind: "act", actor, action: actor.actions[turn % actor.actions.length]! };
  }
  if (round % 3 === 2 && game.voters.length > 0) {
    const v = Math.floor(round / 3);
    const voter = game.voters[v % game.voters.length]!;
    const turn = Math.floor(v / game.voters.length);
    return { kind: "vote", voter, color: "red", target: voter.targets[turn % voter.targets.length]! };
  }
  const p = round - Math.floor(round / 3);
  const poster = game.posters[p % game.posters.length]!;
  const turn = Math.floor(p / game.posters.length);
  const suspect = poster.suspects[turn % poster.suspects.length]!;
  return { kind: "post", poster, text: `Вечер. Мне не нравится [b]${suspect}[/b]. Запись ${k + 1}.` };
}

export const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** What the stream holder (streams.ts) saw of its streams by the end of the streams section. */
export interface StreamStats {
  /** Streams the server accepted. */
  readonly opened: number;
  /** Streams refused, by status and body (or connection error), with how many. */
  readonly refused: Readonly<Record<string, number>>;
  /** Accepted streams the server closed before the holder did. */
  readonly endedByServer: number;
  /** Items received by the stream that received fewest and by the one that received most. */
  readonly minItems: number;
  readonly maxItems: number;
  /** Streams whose ids did not run on by one (a gap, a repeat or a reordering). */
  readonly withGaps: number;
  readonly megabytes: number;
}

/** What the viewer holder (viewers.ts) is asked to do: written as JSON by the driver. */
export interface ViewerSpec {
  readonly url: string;
  /** Issue 20: several instances (`url` among them); viewer k watches through the (k mod n)-th. */
  readonly urls?: readonly string[];
  /**
   * fanout: anonymous viewers of one game, each vote item's arrival noted; storm: the same, and each viewer
   * fetches the game's detail when a vote item arrives (as the old app did for every item); count: one
   * logged-in stream per entry of `players`, counted.
   */
  readonly mode: "fanout" | "storm" | "count";
  /** fanout and storm: the game and how many anonymous viewers. */
  readonly game?: string;
  readonly count?: number;
  /** count: one stream per player, with their session. */
  readonly players?: readonly { readonly game: string; readonly cookie: string }[];
  /** Streams per loopback address (the server's cap: 8 without a session, 64 with). */
  readonly perAddress: number;
  /** The addresses used are 127.<subnet>.x.y, so sections never share an address. */
  readonly subnet: number;
}

/** What the viewer holder saw by the end. */
export interface ViewerStats {
  readonly opened: number;
  /** Streams refused, by status and body (or connection error), with how many. */
  readonly refused: Readonly<Record<string, number>>;
  /** Accepted streams the server closed before the holder did. */
  readonly endedByServer: number;
  /** Streams whose ids did not run on by one (a gap, a repeat or a reordering). */
  readonly withGaps: number;
  /** `event: reset` received (the stream's numbering no longer applies). */
  readonly resets: number;
  readonly minItems: number;
  readonly maxItems: number;
  /** Items of type "vote" received by the stream that received fewest and by the one that received most. */
  readonly minVotes: number;
  readonly maxVotes: number;
  /** Items whose type read from the data's text differed from its parsed JSON (checked on each stream's first items). */
  readonly typeMismatches: number;
  /** Item types received over all streams, with how many. */
  readonly types: Readonly<Record<string, number>>;
  readonly megabytes: number;
  /** storm: the detail fetches made when a vote arrived. */
  readonly refetches: number;
  /** storm: fetches that failed, by status or error. */
  readonly refetchFailures: Readonly<Record<string, number>>;
  /** storm: fetched details whose streamAt was behind the vote item that caused the fetch. */
  readonly staleRefetches: number;
}
