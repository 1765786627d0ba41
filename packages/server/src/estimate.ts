import {
  ESTIMATE_GAMES,
  balanceOf,
  canonicalSetup,
  mergeChunks,
  type EstimateSetup,
  type Tally,
} from "@forum-mafia/engine/bots";
import type { BalanceEstimate, Setup } from "@forum-mafia/protocol/setups";
import { CLASSIC_SETUP } from "@forum-mafia/protocol/setups";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Piscina } from "piscina";
import { ApiError } from "./errors.ts";
import type { EstimateOutcome, EstimateTask } from "./estimate-worker.ts";

/**
 * The balance estimate of a setup (issue 17, `POST /api/setups/estimate`): the win rates and the mean
 * length of 2,000 silent bot games of exactly that role list and those options, from the engine's
 * `estimateChunk` (game i is dealt from `estimate:i`, so the figures are those of
 * `npm run simulate -- --setup FILE`).
 *
 * The games run in a pool of worker threads (estimate-worker.ts), cut into chunks of 50 by index; the
 * chunks' tallies are integer counts merged in index order, so the figures never depend on the threads.
 * A finished estimate is cached by its setup (the roles in the table's order and every option); requests
 * for a setup already being estimated wait for the same run. The limits, so that a stranger cannot freeze
 * the server: signed-in users only; one estimate per user at a time, a new request from a user taking the
 * place of that user's previous one (the setup changed: the old answer is stale); a cap on the estimates
 * running at once across users (503 `estimate/busy`); and the route's rate limit (routes/estimate.ts). A
 * run nobody waits for any more (each of its requesters hung up or was superseded) stops within a game.
 */

/** The limits and sizes of the estimates; every field has a default (ESTIMATE_DEFAULTS). */
export interface EstimateOptions {
  /** Worker threads in the pool: every core (the estimate's 3 s needs both of this machine's two). */
  readonly threads?: number;
  /** Games per estimate. */
  readonly games?: number;
  /** Games per chunk: the unit of work handed to a thread, and of a stop's delay at worst. */
  readonly chunk?: number;
  /** Estimates running at once, across users; one more gets 503 `estimate/busy`. */
  readonly running?: number;
  /** Finished estimates kept, the least recently asked for dropped first. */
  readonly cache?: number;
  /** Games each thread plays when the pool is warmed (the first estimate then runs at full speed). */
  readonly warmGames?: number;
  /**
   * Whether the pool starts and warms up when the server starts listening. By default it does, except
   * under a test runner (NODE_ENV=test): a test suite starts many servers that never estimate anything.
   */
  readonly warmOnListen?: boolean;
  /** Told of each chunk as it comes back (tests, benches). */
  readonly onChunk?: (outcome: ChunkOutcome) => void;
}

/** What became of one chunk: played to its end, or stopped because its estimate was no longer wanted. */
export interface ChunkOutcome {
  readonly key: string;
  readonly from: number;
  readonly kind: "done" | "stopped";
}

/**
 * 2,000 games of the classic 17 cost about 3 s of CPU (`npm run bench:estimate`, December 2026), so
 * about 1.5 s on two idle cores; the 21 a little more, the 9 and the 12 much less. Four estimates at once
 * means the last one waits for three others, and a fifth setup is refused (503) rather than queued.
 */
export const ESTIMATE_DEFAULTS = {
  threads: Math.min(4, Math.max(1, availableParallelism())),
  games: ESTIMATE_GAMES,
  chunk: 50,
  running: 4,
  cache: 200,
  warmGames: 30,
  warmOnListen: process.env.NODE_ENV !== "test",
} as const satisfies Required<Omit<EstimateOptions, "onChunk">>;

/** Counts since the estimator was made (tests, benches). */
export interface EstimateCounters {
  /** Runs started, finished (and cached), and stopped because nobody waited for them. */
  runsStarted: number;
  runsFinished: number;
  runsStopped: number;
  /** Chunks played to their end, and chunks stopped (before or while running). */
  chunksDone: number;
  chunksStopped: number;
  /** Requests answered from the cache. */
  cacheHits: number;
}

const WORKER = fileURLToPath(new URL("./estimate-worker.ts", import.meta.url));
/** As tools.ts: each thread loads tsx's loader first, resolved from here. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** Why a request stopped waiting: its client hung up, the same user asked for another setup, or the server closes. */
type Leave = "client-gone" | "superseded" | "closing";

/** One estimate under way: its chunks in the pool, the requests waiting for it, its stop flag. */
interface Run {
  readonly key: string;
  readonly stop: Int32Array;
  readonly waiting: Set<Ticket>;
  readonly done: Promise<BalanceEstimate>;
}

/** One request's place in a run. */
interface Ticket {
  readonly user: string;
  readonly run: Run;
  readonly leave: (why: Leave) => void;
}

/** The cache key of a setup: its canonical form (roles in the table's order, the options in one order). */
export const estimateKey = (setup: EstimateSetup): string => JSON.stringify(canonicalSetup(setup));

/** The estimator: one per app, its pool, its cache, the runs under way and who waits for each. */
export class Estimator {
  readonly threads: number;
  readonly games: number;
  readonly chunk: number;
  readonly running: number;
  readonly cacheSize: number;
  readonly warmGames: number;
  readonly warmOnListen: boolean;
  readonly counters: EstimateCounters = {
    runsStarted: 0,
    runsFinished: 0,
    runsStopped: 0,
    chunksDone: 0,
    chunksStopped: 0,
    cacheHits: 0,
  };
  private readonly onChunk: ((outcome: ChunkOutcome) => void) | null;
  private pool: Piscina<EstimateTask, EstimateOutcome> | null = null;
  private warming: Promise<void> | null = null;
  /** Finished estimates by key; a Map iterates in insertion order, so the first key is the least recent. */
  private readonly cache = new Map<string, BalanceEstimate>();
  /** The runs under way by key (a stopped run is no longer here, even while its chunks drain). */
  private readonly runs = new Map<string, Run>();
  /** Each user's one request under way. */
  private readonly byUser = new Map<string, Ticket>();
  /** Chunks handed to the pool and not yet back, of any run. */
  private readonly inPool = new Set<Promise<unknown>>();
  private closed = false;

  constructor(options: EstimateOptions = {}) {
    this.threads = options.threads ?? ESTIMATE_DEFAULTS.threads;
    this.games = options.games ?? ESTIMATE_DEFAULTS.games;
    this.chunk = options.chunk ?? ESTIMATE_DEFAULTS.chunk;
    this.running = options.running ?? ESTIMATE_DEFAULTS.running;
    this.cacheSize = options.cache ?? ESTIMATE_DEFAULTS.cache;
    this.warmGames = options.warmGames ?? ESTIMATE_DEFAULTS.warmGames;
    this.warmOnListen = options.warmOnListen ?? ESTIMATE_DEFAULTS.warmOnListen;
    this.onChunk = options.onChunk ?? null;
  }

  private poolOf(): Piscina<EstimateTask, EstimateOutcome> {
    if (this.pool) return this.pool;
    const pool = new Piscina<EstimateTask, EstimateOutcome>({
      filename: WORKER,
      execArgv: ["--import", TSX],
      // The threads stay: a new one pays again for tsx and for compiling the engine (about 2 s of CPU).
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Infinity,
    });
    pool.on("error", (error: unknown) => console.error("estimate: a worker failed outside a task:", error));
    this.pool = pool;
    return pool;
  }

  /**
   * Start the threads and play a few games on each, so the first estimate runs at full speed: about 2 s
   * of CPU per thread, for tsx and the engine's compilation (routes/estimate.ts calls it when the server
   * starts listening, if `warmOnListen`; otherwise the pool starts with the first estimate).
   */
  warm(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.warming ??= Promise.all(
      Array.from({ length: this.threads }, () =>
        this.poolOf().run({ kind: "warm", setup: CLASSIC_SETUP, games: this.warmGames }),
      ),
    ).then(
      () => undefined,
      (error: unknown) => {
        // The pool closed while warming (a server stopped at once): nothing to report.
        if (!this.closed) throw error;
      },
    );
    return this.warming;
  }

  /** Stop every run and the pool's threads (the app closes). */
  async close(): Promise<void> {
    this.closed = true;
    // Whoever still waits is told (503), and the runs stop with their last requester.
    for (const run of [...this.runs.values()]) for (const ticket of [...run.waiting]) ticket.leave("closing");
    await Promise.allSettled([...this.inPool]);
    await this.pool?.destroy();
    this.pool = null;
  }

  /** Forget every finished estimate (benches: each run cold). */
  clearCache(): void {
    this.cache.clear();
  }

  /** Whether the pool has been asked to warm up. */
  get warmStarted(): boolean {
    return this.warming !== null;
  }

  /** Runs under way now (stopped ones excluded). */
  get underWay(): number {
    return this.runs.size;
  }

  /** Resolves once no chunk of any run is in the pool (tests: after a stop, every chunk has come back). */
  async idle(): Promise<void> {
    while (this.inPool.size > 0) await Promise.allSettled([...this.inPool]);
  }

  /**
   * The estimate of `setup` for `user`: from the cache, from a run already under way for the same setup,
   * or from a new run. The user's previous request, if still waiting, is answered 409 `estimate/superseded`
   * (and its run stops if nobody else waits for it). `signal` aborts when the client hangs up.
   */
  estimate(user: string, setup: Setup, signal: AbortSignal): Promise<BalanceEstimate> {
    if (this.closed)
      return Promise.reject(new ApiError(503, "estimate/closed", "the server is shutting down"));
    const key = estimateKey(setup);
    const previous = this.byUser.get(user);
    const cached = this.cache.get(key);
    if (cached) {
      previous?.leave("superseded");
      this.counters.cacheHits++;
      // Most recently asked for: to the end of the order.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return Promise.resolve(cached);
    }
    let run = this.runs.get(key);
    // The same setup again (a second click): join the run first, so leaving the old ticket does not stop it.
    const ticket = run ? this.join(user, run, signal) : null;
    previous?.leave("superseded");
    if (ticket) return ticket;
    if (this.runs.size >= this.running)
      return Promise.reject(
        new ApiError(
          503,
          "estimate/busy",
          `the balance estimates are busy: ${this.running} setups are being played at the moment; try again in a few seconds`,
        ),
      );
    run = this.start(key, canonicalSetup(setup));
    return this.join(user, run, signal);
  }

  /** Wait for `run` on behalf of one request. */
  private join(user: string, run: Run, signal: AbortSignal): Promise<BalanceEstimate> {
    return new Promise<BalanceEstimate>((resolve, reject) => {
      let left = false;
      const onAbort = (): void => ticket.leave("client-gone");
      const ticket: Ticket = {
        user,
        run,
        leave: (why) => {
          if (left) return;
          left = true;
          signal.removeEventListener("abort", onAbort);
          run.waiting.delete(ticket);
          if (this.byUser.get(user) === ticket) this.byUser.delete(user);
          if (run.waiting.size === 0) this.stopRun(run);
          reject(
            why === "superseded"
              ? new ApiError(
                  409,
                  "estimate/superseded",
                  "a newer estimate request of yours replaced this one (one estimate at a time per user)",
                )
              : why === "closing"
                ? new ApiError(503, "estimate/closed", "the server is shutting down")
                : // Nobody is there to read it; 499 (client closed request) keeps it out of the 500s' log.
                  new ApiError(
                    499,
                    "estimate/cancelled",
                    "the client closed the connection before the answer",
                  ),
          );
        },
      };
      run.waiting.add(ticket);
      this.byUser.set(user, ticket);
      signal.addEventListener("abort", onAbort, { once: true });
      if (signal.aborted) return onAbort();
      run.done.then(
        (estimate) => {
          if (left) return;
          left = true;
          signal.removeEventListener("abort", onAbort);
          if (this.byUser.get(user) === ticket) this.byUser.delete(user);
          resolve(estimate);
        },
        (error: unknown) => {
          if (left) return;
          left = true;
          signal.removeEventListener("abort", onAbort);
          if (this.byUser.get(user) === ticket) this.byUser.delete(user);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /** Nobody waits for the run any more: its chunks stop within a game, and it is not cached. */
  private stopRun(run: Run): void {
    if (this.runs.get(run.key) !== run) return;
    this.runs.delete(run.key);
    Atomics.store(run.stop, 0, 1);
    this.counters.runsStopped++;
  }

  private start(key: string, setup: EstimateSetup): Run {
    const stop = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const pool = this.poolOf();
    const chunks: Promise<Tally | null>[] = [];
    for (let from = 0; from < this.games; from += this.chunk) {
      const count = Math.min(this.chunk, this.games - from);
      const chunk = pool.run({ kind: "chunk", setup, from, count, stop }).then((outcome): Tally | null => {
        const kind = outcome.kind === "done" ? "done" : "stopped";
        if (kind === "done") this.counters.chunksDone++;
        else this.counters.chunksStopped++;
        this.onChunk?.({ key, from, kind });
        return outcome.kind === "done" ? outcome.tally : null;
      });
      this.inPool.add(chunk);
      const out = (): void => void this.inPool.delete(chunk);
      chunk.then(out, out);
      chunks.push(chunk);
    }
    this.counters.runsStarted++;
    const done = Promise.all(chunks).then((tallies) => {
      const complete: Tally[] = [];
      for (const t of tallies) if (t !== null) complete.push(t);
      // A stopped run's answer reaches nobody (every ticket has left): no figures from part of the games.
      if (complete.length < tallies.length) throw new Error("estimate: stopped");
      // In index order: the same figures however the chunks were spread over the threads.
      const estimate: BalanceEstimate = balanceOf(mergeChunks(complete));
      this.remember(key, estimate);
      if (this.runs.get(key) === run) this.runs.delete(key);
      this.counters.runsFinished++;
      return estimate;
    });
    // Every waiting ticket handles the outcome; a stopped run has none left, and its failure is expected.
    // A chunk that failed (a bug, answered 500) stops the others.
    done.catch(() => {
      Atomics.store(stop, 0, 1);
      if (this.runs.get(key) === run) this.runs.delete(key);
    });
    const run: Run = { key, stop, waiting: new Set(), done };
    this.runs.set(key, run);
    return run;
  }

  private remember(key: string, estimate: BalanceEstimate): void {
    this.cache.delete(key);
    this.cache.set(key, estimate);
    while (this.cache.size > this.cacheSize) {
      const oldest = this.cache.keys().next();
      if (oldest.done) break;
      this.cache.delete(oldest.value);
    }
  }
}
