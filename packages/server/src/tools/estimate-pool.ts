import { CLASSIC_SETUP } from "@forum-mafia/protocol/setups";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Piscina } from "piscina";
import type { EstimateOutcome, EstimateTask } from "./estimate-worker.ts";

/**
 * Issue 17, issue 28: the estimates' worker threads (estimate-worker.ts): how they are started (at the lowest
 * OS priority, tsx loaded first), warmed up and closed. Which chunk goes to a free thread is decided in
 * estimate.ts.
 */

/** The estimate threads' nice increment: the lowest priority there is (19), under every other thread. */
export const ESTIMATE_NICE = 19;

const WORKER = fileURLToPath(new URL("./estimate-worker.ts", import.meta.url));
/** As tools.ts: each thread loads tsx's loader first, resolved from here. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** The pool of an estimator, started on first use (or when warmed). */
export class EstimatePool {
  private pool: Piscina<EstimateTask, EstimateOutcome> | null = null;
  private warming: Promise<void> | null = null;
  private closed = false;

  constructor(
    readonly threads: number,
    readonly warmGames: number,
    /** The worker module (tests: a stand-in that fails on purpose); estimate-worker.ts by default. */
    private readonly worker: string = WORKER,
  ) {}

  /** The pool's options (a test checks the threads' priority is lowered). */
  poolOptions(): NonNullable<ConstructorParameters<typeof Piscina>[0]> {
    return {
      filename: this.worker,
      execArgv: ["--import", TSX],
      // The threads stay: a new one pays again for tsx and for compiling the engine (about 2 s of CPU).
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Infinity,
      // Issue 28: below every other thread, so the event loop (and the tools' pool) always come first.
      niceIncrement: ESTIMATE_NICE,
    };
  }

  private poolOf(): Piscina<EstimateTask, EstimateOutcome> {
    if (this.pool) return this.pool;
    const pool = new Piscina<EstimateTask, EstimateOutcome>(this.poolOptions());
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
        this.run({ kind: "warm", setup: CLASSIC_SETUP, games: this.warmGames }),
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

  /** Run one task on a thread (the pool starts if it has not). */
  run(task: EstimateTask): Promise<EstimateOutcome> {
    return this.poolOf().run(task);
  }

  /** The OS priority (nice value) of each of the pool's threads, as each reads its own (tests). */
  async priorities(): Promise<number[]> {
    const pool = this.poolOf();
    await this.warm();
    const seen: number[] = [];
    for (let i = 0; i < this.threads; i++) {
      const outcome = await pool.run({ kind: "priority" });
      if (outcome.kind === "priority") seen.push(outcome.nice);
    }
    return seen;
  }

  /** Whether the pool has been asked to warm up. */
  get warmStarted(): boolean {
    return this.warming !== null;
  }

  /** The estimator closes: no more warming up, and the threads end (once the chunks in flight are back). */
  closing(): void {
    this.closed = true;
  }

  /** End the threads. */
  async destroy(): Promise<void> {
    await this.pool?.destroy();
    this.pool = null;
  }
}
