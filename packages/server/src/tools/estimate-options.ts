import { ESTIMATE_GAMES } from "@forum-mafia/engine/bots";
import { availableParallelism } from "node:os";

/**
 * Issue 17: the balance estimates' limits and sizes with their defaults, and the counts the estimator keeps
 * (estimate.ts).
 */

/** The limits and sizes of the estimates; every field has a default (ESTIMATE_DEFAULTS). */
export interface EstimateOptions {
  /** Worker threads in the pool: every core, at the lowest priority (the event loop comes first). */
  readonly threads?: number;
  /** Games per estimate. */
  readonly games?: number;
  /** Games per chunk: the unit of work handed to a thread, and of a stop's delay at worst. */
  readonly chunk?: number;
  /** Runs under way at once, across users; a user starting one more gets 503 `estimate/busy`. */
  readonly queue?: number;
  /** Finished estimates kept, the least recently asked for dropped first. */
  readonly cache?: number;
  /** How long a failed run's answer is kept for its setup, in ms. */
  readonly failureMs?: number;
  /** Games each thread plays when the pool is warmed (the first estimate then runs at full speed). */
  readonly warmGames?: number;
  /**
   * Whether the pool starts and warms up when the server starts listening. By default it does, except
   * under a test runner (NODE_ENV=test): a test suite starts many servers that never estimate anything.
   */
  readonly warmOnListen?: boolean;
  /** The worker module (tests: a stand-in that fails on purpose); estimate-worker.ts by default. */
  readonly worker?: string;
  /** Told of each chunk as it is handed to a thread and as it comes back (tests, benches). */
  readonly onChunk?: (outcome: ChunkOutcome) => void;
  /**
   * Issue 32: whether a preset's setup is answered at once from the figures kept with the code
   * (PRESET_ESTIMATES, `npm run presets:estimate`). Off, a preset is played like any setup: the command
   * that makes those figures, the test that checks them, the benches and the tests of the runs.
   */
  readonly presetFigures?: boolean;
}

/** What became of one chunk: handed to a thread, played to its end, or stopped (its estimate no longer wanted). */
export interface ChunkOutcome {
  readonly key: string;
  readonly from: number;
  readonly kind: "started" | "done" | "stopped";
}

/**
 * 2,000 games of the classic 17 cost about 3 s of CPU (`npm run bench:estimate`, December 2026), so
 * about 1.5 s on two idle cores; the 21 a little more, the 9 and the 12 much less. 32 runs under way share
 * the pool 32 ways (a classic 17 then takes some 50 s): past that, a new setup is refused (503).
 */
export const ESTIMATE_DEFAULTS = {
  threads: Math.min(4, Math.max(1, availableParallelism())),
  games: ESTIMATE_GAMES,
  chunk: 50,
  queue: 32,
  cache: 200,
  failureMs: 10 * 60_000,
  warmGames: 30,
  warmOnListen: process.env.NODE_ENV !== "test",
  presetFigures: true,
} as const satisfies Required<Omit<EstimateOptions, "onChunk" | "worker">>;

/** Counts since the estimator was made (tests, benches). */
export interface EstimateCounters {
  /** Runs started, finished (and cached), stopped because nobody waited for them, and failed. */
  runsStarted: number;
  runsFinished: number;
  runsStopped: number;
  runsFailed: number;
  /** Chunks played to their end, and chunks stopped (before or while running). */
  chunksDone: number;
  chunksStopped: number;
  /** Requests answered from the cache, and from the failures kept. */
  cacheHits: number;
  failureHits: number;
  /** Issue 32: requests answered from a preset's figures kept with the code (no run, no cache). */
  presetHits: number;
}
