import {
  balanceOf,
  canonicalSetup,
  mergeChunks,
  type EstimateSetup,
  type Tally,
} from "@forum-mafia/engine/bots";
import { PRESET_ESTIMATES } from "@forum-mafia/protocol/preset-estimates";
import { SETUP_PRESETS, type BalanceEstimate, type Setup } from "@forum-mafia/protocol/setups";
import { ApiError } from "../http/errors.ts";
import {
  ESTIMATE_DEFAULTS,
  type ChunkOutcome,
  type EstimateCounters,
  type EstimateOptions,
} from "./estimate-options.ts";
import { EstimatePool } from "./estimate-pool.ts";
import type { EstimateOutcome } from "./estimate-worker.ts";

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
 * place of that user's previous one (the setup changed: the old answer is stale); and the route's rate
 * limit (routes/estimate.ts). A run nobody waits for any more (each of its requesters hung up or was
 * superseded) stops within a game.
 *
 * Sharing the CPU (issue 28): the threads run at the lowest OS priority (piscina's `niceIncrement`, through
 * `@napi-rs/nice`), so the event loop takes a core whenever it has work and the estimates get what is left.
 * The chunks are handed out here, one per free thread (the pool never queues them): the next goes to the run
 * whose least served waiting user has used the least thread time lately (each chunk's CPU time is charged
 * to the users waiting for its run, and halves every minute); among equals, to the run served least recently.
 * So a user who arrives while others push gets the next free thread, and one user cannot hold the pool
 * while others wait. Only when `queue` runs are under way is a user who starts a new one refused (503
 * `estimate/busy`, with Retry-After): a user replacing a run that only they waited for, or joining a run,
 * never is.
 *
 * A run that fails (a chunk throws: an engine bug, or a thread that died) stops its other chunks at once
 * and answers 500 `estimate/failed`; the failure is kept for its setup as an answer is, for a while
 * (`failureMs`), so asking again gives the same 500 at once instead of replaying the games that failed
 * (they are dealt from fixed seeds, so they would fail again).
 *
 * Issue 32: the presets of the setup editor are answered at once, with no run, from their figures kept with
 * the code (PRESET_ESTIMATES in the protocol package, made by `npm run presets:estimate` through this
 * estimator, with `presetFigures: false`, and checked against a fresh run by
 * packages/server/test/preset-estimates.test.ts). They are never evicted, and any list of the same roles in
 * another order with the same options is the same preset (estimateKey).
 *
 * The limits' defaults and the counters are in estimate-options.ts, the threads in estimate-pool.ts.
 */

/** A user's charged thread time halves in this long (ms): what counts is what they used lately. */
const USAGE_HALF_LIFE_MS = 60_000;
/** The Retry-After of a 503 `estimate/busy`, in seconds. */
export const ESTIMATE_RETRY_AFTER_S = 5;

/** Why a request stopped waiting: its client hung up, the same user asked for another setup, or the server closes. */
type Leave = "client-gone" | "superseded" | "closing";

/** One estimate under way: its chunks, the requests waiting for it, its stop flag. */
interface Run {
  readonly key: string;
  readonly setup: EstimateSetup;
  readonly stop: Int32Array;
  readonly waiting: Set<Ticket>;
  readonly done: Promise<BalanceEstimate>;
  /** The tallies by chunk (index from / chunk), filled as chunks come back. */
  readonly tallies: (Tally | undefined)[];
  /** The first game of the next chunk to hand out (games: every chunk handed out). */
  next: number;
  /** Chunks back with their tally. */
  played: number;
  /** When the run last got a thread (the scheduler's turn counter), 0 before its first chunk. */
  served: number;
  /** Settles `done`. */
  readonly settle: { resolve: (e: BalanceEstimate) => void; reject: (e: Error) => void };
}

/** One request's place in a run. */
interface Ticket {
  readonly user: string;
  readonly run: Run;
  readonly leave: (why: Leave) => void;
}

/** A user's thread time charged lately: `ms` as of `at` (performance.now()), halving every USAGE_HALF_LIFE_MS. */
interface Usage {
  ms: number;
  at: number;
}

/** The 503 of a full queue, with the seconds after which to ask again. */
export class EstimateBusy extends ApiError {
  readonly retryAfter = ESTIMATE_RETRY_AFTER_S;
}

/** The cache key of a setup: its canonical form (roles in the table's order, the options in one order). */
export const estimateKey = (setup: EstimateSetup): string => JSON.stringify(canonicalSetup(setup));

/** Issue 32: the presets' figures kept with the code, by their setup's key. */
const PRESET_FIGURES: ReadonlyMap<string, BalanceEstimate> = new Map(
  SETUP_PRESETS.map((p) => [estimateKey(p.setup), PRESET_ESTIMATES[p.id]]),
);

/** The estimator: one per app, its pool, its cache, the runs under way and who waits for each. */
export class Estimator {
  readonly threads: number;
  readonly games: number;
  readonly chunk: number;
  readonly queue: number;
  readonly cacheSize: number;
  readonly failureMs: number;
  readonly warmGames: number;
  readonly warmOnListen: boolean;
  readonly presetFigures: boolean;
  readonly counters: EstimateCounters = {
    runsStarted: 0,
    runsFinished: 0,
    runsStopped: 0,
    runsFailed: 0,
    chunksDone: 0,
    chunksStopped: 0,
    cacheHits: 0,
    failureHits: 0,
    presetHits: 0,
  };
  private readonly onChunk: ((outcome: ChunkOutcome) => void) | null;
  /** The worker threads, started on first use or when warmed. */
  private readonly pool: EstimatePool;
  /** Finished estimates by key; a Map iterates in insertion order, so the first key is the least recent. */
  private readonly cache = new Map<string, BalanceEstimate>();
  /** Failed runs' answers by key, each until its time (performance.now()); the oldest first. */
  private readonly failures = new Map<string, { error: ApiError; until: number }>();
  /** The runs under way by key (a stopped or failed run is no longer here, even while its chunks drain). */
  private readonly runs = new Map<string, Run>();
  /** Each user's one request under way. */
  private readonly byUser = new Map<string, Ticket>();
  /** Each user's thread time charged lately (the scheduler's measure of who has had the most). */
  private readonly usage = new Map<string, Usage>();
  /** Chunks handed to the pool and not yet back, of any run: at most one per thread. */
  private readonly inPool = new Set<Promise<unknown>>();
  /** The scheduler's turn counter: each chunk handed out takes the next. */
  private turn = 0;
  private closed = false;

  constructor(options: EstimateOptions = {}) {
    this.threads = options.threads ?? ESTIMATE_DEFAULTS.threads;
    this.games = options.games ?? ESTIMATE_DEFAULTS.games;
    this.chunk = options.chunk ?? ESTIMATE_DEFAULTS.chunk;
    this.queue = options.queue ?? ESTIMATE_DEFAULTS.queue;
    this.cacheSize = options.cache ?? ESTIMATE_DEFAULTS.cache;
    this.failureMs = options.failureMs ?? ESTIMATE_DEFAULTS.failureMs;
    this.warmGames = options.warmGames ?? ESTIMATE_DEFAULTS.warmGames;
    this.warmOnListen = options.warmOnListen ?? ESTIMATE_DEFAULTS.warmOnListen;
    this.presetFigures = options.presetFigures ?? ESTIMATE_DEFAULTS.presetFigures;
    this.onChunk = options.onChunk ?? null;
    this.pool = new EstimatePool(this.threads, this.warmGames, options.worker);
  }

  /** The pool's options (a test checks the threads' priority is lowered). */
  poolOptions(): ReturnType<EstimatePool["poolOptions"]> {
    return this.pool.poolOptions();
  }

  /**
   * Start the threads and play a few games on each, so the first estimate runs at full speed
   * (estimate-pool.ts; routes/estimate.ts calls it when the server starts listening, if `warmOnListen`).
   */
  warm(): Promise<void> {
    return this.pool.warm();
  }

  /** The OS priority (nice value) of each of the pool's threads, as each reads its own (tests). */
  priorities(): Promise<number[]> {
    return this.pool.priorities();
  }

  /** Stop every run and the pool's threads (the app closes). */
  async close(): Promise<void> {
    this.closed = true;
    this.pool.closing();
    // Whoever still waits is told (503), and the runs stop with their last requester.
    for (const run of [...this.runs.values()]) for (const ticket of [...run.waiting]) ticket.leave("closing");
    await Promise.allSettled([...this.inPool]);
    await this.pool.destroy();
  }

  /** Forget every finished estimate and failure (benches: each run cold). */
  clearCache(): void {
    this.cache.clear();
    this.failures.clear();
  }

  /** Whether the pool has been asked to warm up. */
  get warmStarted(): boolean {
    return this.pool.warmStarted;
  }

  /** Runs under way now (stopped ones excluded). */
  get underWay(): number {
    return this.runs.size;
  }

  /** How many requests wait for the run of `key` (0 when none is under way). */
  waitingFor(key: string): number {
    return this.runs.get(key)?.waiting.size ?? 0;
  }

  /** Resolves once no chunk of any run is in the pool (tests: after a stop, every chunk has come back). */
  async idle(): Promise<void> {
    while (this.inPool.size > 0) await Promise.allSettled([...this.inPool]);
  }

  /**
   * The estimate of `setup` for `user`: from a preset's figures kept with the code, from the cache, from a run already under way for the same setup,
   * or from a new run. The user's previous request, if still waiting, is answered 409 `estimate/superseded`
   * (and its run stops if nobody else waits for it). `signal` aborts when the client hangs up.
   */
  estimate(user: string, setup: Setup, signal: AbortSignal): Promise<BalanceEstimate> {
    if (this.closed)
      return Promise.reject(new ApiError(503, "estimate/closed", "the server is shutting down"));
    const key = estimateKey(setup);
    const previous = this.byUser.get(user);
    const kept = this.presetFigures ? PRESET_FIGURES.get(key) : undefined;
    if (kept) {
      previous?.leave("superseded");
      this.counters.presetHits++;
      return Promise.resolve(kept);
    }
    const cached = this.cache.get(key);
    if (cached) {
      previous?.leave("superseded");
      this.counters.cacheHits++;
      // Most recently asked for: to the end of the order.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return Promise.resolve(cached);
    }
    const failed = this.failures.get(key);
    if (failed && failed.until > performance.now()) {
      previous?.leave("superseded");
      this.counters.failureHits++;
      return Promise.reject(failed.error);
    }
    if (failed) this.failures.delete(key);
    let run = this.runs.get(key);
    // The same setup again (a second click): join the run first, so leaving the old ticket does not stop it.
    const ticket = run ? this.join(user, run, signal) : null;
    previous?.leave("superseded");
    if (ticket) return ticket;
    // A user who held a run has just given it up, so a full queue refuses only users who held none.
    if (this.runs.size >= this.queue)
      return Promise.reject(
        new EstimateBusy(
          503,
          "estimate/busy",
          `the balance estimates are busy: ${this.runs.size} setups are being played for other users; ` +
            `try again in ${ESTIMATE_RETRY_AFTER_S} seconds`,
        ),
      );
    run = this.start(key, canonicalSetup(setup));
    const joined = this.join(user, run, signal);
    this.dispatch();
    return joined;
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
      const end = (): boolean => {
        if (left) return false;
        left = true;
        signal.removeEventListener("abort", onAbort);
        run.waiting.delete(ticket);
        if (this.byUser.get(user) === ticket) this.byUser.delete(user);
        return true;
      };
      run.done.then(
        (estimate) => {
          if (end()) resolve(estimate);
        },
        (error: unknown) => {
          if (end()) reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /** Nobody waits for the run any more: its chunks in flight stop within a game, the rest are never played. */
  private stopRun(run: Run): void {
    if (this.runs.get(run.key) !== run) return;
    this.end(run);
    Atomics.store(run.stop, 0, 1);
    this.counters.runsStopped++;
    this.counters.chunksStopped += this.chunksLeft(run);
    run.next = this.games;
    run.settle.reject(new Error("estimate: stopped"));
    this.dispatch();
  }

  private start(key: string, setup: EstimateSetup): Run {
    const stop = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    let settle!: Run["settle"];
    const done = new Promise<BalanceEstimate>((resolve, reject) => (settle = { resolve, reject }));
    // Every waiting ticket handles the outcome; a stopped run has none left, and its failure is expected.
    done.catch(() => undefined);
    const run: Run = {
      key,
      setup,
      stop,
      waiting: new Set(),
      done,
      tallies: Array.from({ length: Math.ceil(this.games / this.chunk) }, () => undefined),
      next: 0,
      played: 0,
      served: 0,
      settle,
    };
    this.counters.runsStarted++;
    this.runs.set(key, run);
    return run;
  }

  /** Chunks of `run` never handed out. */
  private chunksLeft(run: Run): number {
    return Math.ceil((this.games - run.next) / this.chunk);
  }

  /** A user's charged thread time as of `now`, halved for each half-life since it was charged. */
  private used(user: string, now: number): number {
    const u = this.usage.get(user);
    return u ? u.ms * 2 ** (-(now - u.at) / USAGE_HALF_LIFE_MS) : 0;
  }

  /** Charge `ms` of thread time to `user`. */
  private charge(user: string, ms: number, now: number): void {
    this.usage.set(user, { ms: this.used(user, now) + ms, at: now });
  }

  /**
   * Hand chunks to free threads, one each: every time, to the run with chunks left whose least served
   * waiting user has used the least thread time lately, the run served least recently among equals.
   */
  private dispatch(): void {
    if (this.closed) return;
    while (this.inPool.size < this.threads) {
      const now = performance.now();
      let best: Run | null = null;
      let bestUse = Infinity;
      for (const run of this.runs.values()) {
        if (run.next >= this.games) continue;
        let use = Infinity;
        for (const t of run.waiting) use = Math.min(use, this.used(t.user, now));
        if (use < bestUse || (use === bestUse && best !== null && run.served < best.served)) {
          best = run;
          bestUse = use;
        }
      }
      if (best === null) return;
      this.handOut(best);
    }
  }

  /** Give `run`'s next chunk to the pool. */
  private handOut(run: Run): void {
    const from = run.next;
    const count = Math.min(this.chunk, this.games - from);
    run.next += count;
    run.served = ++this.turn;
    this.onChunk?.({ key: run.key, from, kind: "started" });
    const chunk = this.pool
      .run({ kind: "chunk", setup: run.setup, from, count, stop: run.stop })
      .then((outcome) => this.back(run, from, outcome))
      .catch((error: unknown) => this.fail(run, error));
    this.inPool.add(chunk);
    void chunk.finally(() => {
      this.inPool.delete(chunk);
      this.dispatch();
    });
  }

  /** A chunk came back: charge its time, keep its tally, and finish the run with its last chunk. */
  private back(run: Run, from: number, outcome: EstimateOutcome): void {
    if (outcome.kind !== "done") {
      this.counters.chunksStopped++;
      this.onChunk?.({ key: run.key, from, kind: "stopped" });
      return;
    }
    this.counters.chunksDone++;
    const now = performance.now();
    // Shared by whoever waits for the run: joining another's run costs each of them less.
    for (const t of run.waiting) this.charge(t.user, outcome.ms / run.waiting.size, now);
    this.onChunk?.({ key: run.key, from, kind: "done" });
    if (this.runs.get(run.key) !== run) return;
    run.tallies[from / this.chunk] = outcome.tally;
    run.played++;
    if (run.played < run.tallies.length) return;
    // In index order: the same figures however the chunks were spread over the threads.
    const tallies: Tally[] = [];
    for (const t of run.tallies) if (t) tallies.push(t);
    const estimate: BalanceEstimate = balanceOf(mergeChunks(tallies));
    this.remember(run.key, estimate);
    this.end(run);
    this.counters.runsFinished++;
    run.settle.resolve(estimate);
  }

  /**
   * A chunk failed (a bug in the games, or its thread died): the run stops, its waiting requests get a 500
   * once, and the failure is kept for the setup, so asking again does not replay the failing games.
   */
  private fail(run: Run, error: unknown): void {
    if (this.runs.get(run.key) !== run) return;
    console.error(`estimate: the games of ${run.key} failed:`, error);
    Atomics.store(run.stop, 0, 1);
    this.counters.chunksStopped += this.chunksLeft(run);
    run.next = this.games;
    this.end(run);
    this.counters.runsFailed++;
    const failure = new ApiError(
      500,
      "estimate/failed",
      "the bot games of this setup failed on the server; asking again gives the same answer for a while",
    );
    this.failures.delete(run.key);
    this.failures.set(run.key, { error: failure, until: performance.now() + this.failureMs });
    while (this.failures.size > this.cacheSize) {
      const oldest = this.failures.keys().next();
      if (oldest.done) break;
      this.failures.delete(oldest.value);
    }
    run.settle.reject(failure);
  }

  /** The run is no longer under way; the usage of users who are gone and have used next to nothing is forgotten. */
  private end(run: Run): void {
    if (this.runs.get(run.key) === run) this.runs.delete(run.key);
    const now = performance.now();
    for (const user of this.usage.keys())
      if (!this.byUser.has(user) && this.used(user, now) < 1) this.usage.delete(user);
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
