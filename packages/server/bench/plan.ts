/** What the benchmark driver (server.bench.ts) hands the load generator (load.ts), and what it gets back. */

export type Scenario = "bare" | "vote" | "post";

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

export interface Plan {
  /** e.g. http://127.0.0.1:40123 */
  readonly url: string;
  readonly connections: number;
  readonly seconds: number;
  /** Interleaved across games, so consecutive requests go to different games. */
  readonly voters: readonly Voter[];
  readonly posters: readonly Poster[];
  /** Requests per second across all connections (autocannon's overallRate); as fast as possible without. */
  readonly rate?: number;
  /** Pad each post's text to about this many bytes (the streams section's posts are 10 KB). */
  readonly postBytes?: number;
}

/** An acknowledged vote: game, seat, colour, target. */
export type AckedVote = readonly [game: string, seat: number, color: "red" | "blue", target: number];

export interface LoadResult {
  readonly scenario: Scenario;
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
