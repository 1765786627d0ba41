import type { FastifyReply, FastifyRequest } from "fastify";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { Piscina } from "piscina";
import { ApiError } from "../http/errors.ts";
import { rawBodyOf } from "../http/raw-body.ts";
import type { NotebookThreadAnswer } from "../notebooks/notebook-paste.ts";
import type { PasteDay, ToolOutcome, ToolTask } from "./tools-worker.ts";

/**
 * The GM tools for games on other forums (issue 6, "In the app"): the vote counter and the results
 * writer, the same code as `npm run votecount` and `npm run results`. They touch no game, so they need no
 * login; a saved forum thread or a whole game's replay can be large, so they take bodies up to 5 MiB.
 *
 * Counting a 5 MB thread takes seconds, so the work runs in a small pool of worker threads
 * (tools-worker.ts) and the event loop keeps answering everyone else (issue 11). Three limits keep one
 * client from occupying the pool: one request at a time per address (429 `tools/busy`), a time budget per
 * request after which its worker is stopped (413 `tools/too-slow`), and a cap on the requests waiting for
 * a thread from all addresses together (503 `tools/overloaded`).
 *
 * Issue 28: reading the body is work of the same size, so it runs there too. The routes keep the body as
 * the bytes that arrived (raw-body.ts); the worker decodes, parses and checks them (tools-body.ts), does
 * the work, and sends back the answer as JSON text (or a refusal worded as the event loop's was). The
 * event loop only collects the bytes, hands them over without a copy, and sends the text. The threads run
 * at a lower priority (nice 10), so on a busy machine the event loop is served first.
 */
export {
  pasteSchema,
  resultsToolSchema,
  threadToolSchema,
  TOOLS_BODY_LIMIT,
  voteCountToolSchema,
  type Paste,
  type ResultsToolBody,
  type ThreadToolBody,
  type VoteCountToolBody,
} from "./tools-body.ts";

/** The limits on the tools' work; every field has a default (TOOLS_DEFAULTS). */
export interface ToolsOptions {
  /** How long one request's work may run in its worker before the worker is stopped, in ms. */
  readonly budgetMs?: number;
  /** Worker threads in the pool. */
  readonly threads?: number;
  /** Requests that may wait for a free thread, from all addresses together; one more gets a 503. */
  readonly queue?: number;
}

/**
 * A 5 MB thread counts in about 1 s in an idle worker on this machine and in 3–4 s when the server is
 * saturated beside it, so 10 s leaves room. One thread on a machine of two cores (the other stays with the
 * event loop), two at most; the second one exits after 30 s idle. Eight waiting requests from other
 * addresses (each address has one request at a time): six addresses sending 5 MB bodies at once all wait
 * their turn instead of a 503 (issue 28, bench:server's hostile section); a 5 MB body takes about a second,
 * so the last one waits seconds, and a 5 MB body waiting costs 5 MB of memory, 40 MB for the whole queue.
 */
export const TOOLS_DEFAULTS = {
  budgetMs: 10_000,
  threads: Math.min(2, Math.max(1, availableParallelism() - 1)),
  queue: 8,
} as const satisfies Required<ToolsOptions>;
const IDLE_MS = 30_000;
/** The worker threads' nice value above the process's (issue 28): 10, as `nice` gives by default. */
const NICE = 10;

const WORKER = fileURLToPath(new URL("./tools-worker.ts", import.meta.url));
/**
 * The worker is TypeScript, as the server is: each worker thread loads tsx's loader first (piscina then
 * require()s the file, which tsx compiles). The loader is resolved from here, so it is found whatever the
 * working directory, under `tsx`, `node --import tsx` or vitest alike; the thread does not inherit the
 * process's own flags (--cpu-prof, vitest's).
 */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** Why a task was stopped before its answer. */
type Stop = "too-slow" | "client-gone";

/**
 * The tools' worker pool and its limits, one per app: `claim` holds an address's one request, `run` hands
 * a task to the pool within the budget. The routes are in routes/tools.ts.
 */
export class ToolRunner {
  readonly budgetMs: number;
  readonly threads: number;
  readonly queue: number;
  /** The budget as a message reads it ("10 s"). */
  readonly seconds: string;
  // Started on the first request, so a server that never counts a thread never starts a thread.
  private pool: Piscina<ToolTask, ToolOutcome> | null = null;
  /** The addresses with a request under way, each with the token of that request. */
  private readonly busy = new Map<string, symbol>();
  private readonly releases = new WeakMap<FastifyRequest, () => void>();
  /** Requests handed to the pool and not yet answered: running or waiting for a thread. */
  private tasks = 0;

  constructor(options: ToolsOptions = {}) {
    this.budgetMs = options.budgetMs ?? TOOLS_DEFAULTS.budgetMs;
    this.threads = options.threads ?? TOOLS_DEFAULTS.threads;
    this.queue = options.queue ?? TOOLS_DEFAULTS.queue;
    this.seconds = `${this.budgetMs / 1000} s`;
  }

  private poolOf(): Piscina<ToolTask, ToolOutcome> {
    if (this.pool) return this.pool;
    const pool = new Piscina<ToolTask, ToolOutcome>({
      filename: WORKER,
      execArgv: ["--import", TSX],
      // One thread stays (about 50 MB): in piscina 5.3, when stopping a task removes the pool's last
      // worker and minThreads is 0, no new worker is started and the tasks waiting for one wait forever.
      minThreads: 1,
      maxThreads: this.threads,
      idleTimeout: IDLE_MS,
      // Issue 28: the event loop (and every other thread of the machine at the default priority) gets the CPU
      // first; the tools' work takes what is left (@napi-rs/nice, piscina's optional dependency, on Linux).
      niceIncrement: NICE,
    });
    // A worker that fails with no task of its own to fail: nobody waits for it, and the next task gets a
    // new worker; without a listener the pool's 'error' event would end the process.
    pool.on("error", (error: unknown) => console.error("tools: a worker failed outside a task:", error));
    this.pool = pool;
    return pool;
  }

  /** Stop the pool's threads (the app closes). */
  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = null;
  }

  /**
   * One request at a time per address, taken before the body is read, so a second request is refused
   * without parsing its 5 MB; given back as its answer is sent, or when its connection closes first.
   */
  readonly claim = (req: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    if (this.busy.has(req.ip))
      return done(
        new ApiError(
          429,
          "tools/busy",
          "one tool request at a time from an address: wait for the answer to the previous one",
        ),
      );
    const token = Symbol(req.ip);
    this.busy.set(req.ip, token);
    const release = (): void => {
      if (this.busy.get(req.ip) === token) this.busy.delete(req.ip);
    };
    this.releases.set(req, release);
    reply.raw.once("close", release);
    done();
  };

  /** Give back the request's claim (its answer is on its way). */
  release(req: FastifyRequest): void {
    this.releases.get(req)?.();
  }

  /**
   * A tool's request: its raw body read, checked and worked on in the pool, and its answer (JSON text made
   * there) sent as it came.
   */
  async tool(
    req: FastifyRequest,
    reply: FastifyReply,
    tool: "votecount" | "thread" | "results",
    tooSlow: string,
  ): Promise<FastifyReply> {
    const json = await this.run(reply, (started) => ({ tool, body: rawBodyOf(req), started }), tooSlow);
    return reply.type("application/json; charset=utf-8").send(json);
  }

  /**
   * The notebook's day pasted (POST /api/notebooks/:id/thread): its raw body read, checked and applied to
   * the notebook's document in the pool; the changed document, or the refusal, comes back. `day` gives the
   * notebook, or throws its own refusal (not a day): then the body is only checked, and a bad body is
   * refused first, as when the body was checked on the event loop before the phase.
   */
  async notebookPaste(
    req: FastifyRequest,
    reply: FastifyReply,
    day: () => PasteDay,
    tooSlow: string,
  ): Promise<NotebookThreadAnswer> {
    let refusal: { error: unknown } | null = null;
    let today: PasteDay | null = null;
    try {
      today = day();
    } catch (error) {
      refusal = { error };
    }
    const answer = await this.run(
      reply,
      (started) => ({ tool: "notebookThread", body: rawBodyOf(req), day: today, started }),
      tooSlow,
    );
    // A refusal of the body (400) is an answer: it comes before the phase's.
    if (refusal && (answer === null || (answer as NotebookThreadAnswer).ok)) throw refusal.error;
    return answer as NotebookThreadAnswer;
  }

  /** Run one task in the pool within the budget; stopped early if the client hangs up. */
  async run(
    reply: FastifyReply,
    task: (started: MessagePort) => ToolTask,
    tooSlow: string,
  ): Promise<unknown> {
    if (this.tasks >= this.threads + this.queue)
      throw new ApiError(
        503,
        "tools/overloaded",
        "the tools are busy with other requests: try again in a minute",
      );
    this.tasks++;
    const abort = new AbortController();
    const stop = (why: Stop): void => {
      if (!abort.signal.aborted) abort.abort(why);
    };
    const { port1, port2 } = new MessageChannel();
    let timer: NodeJS.Timeout | null = null;
    // The budget counts from the moment a worker takes the task: waiting for a thread is not the input's fault.
    port1.once("message", () => {
      timer = setTimeout(() => stop("too-slow"), this.budgetMs);
    });
    const hungUp = (): void => {
      if (!reply.raw.writableFinished) stop("client-gone");
    };
    reply.raw.once("close", hungUp);
    try {
      const t = task(port2);
      const outcome = await this.poolOf().run(t, {
        transferList: [port2, ...ownBuffer(t.body)],
        signal: abort.signal,
      });
      if (!outcome.ok) throw new ApiError(400, outcome.code ?? "invalid", outcome.message, outcome.clause);
      return outcome.value;
    } catch (e) {
      const why: unknown = abort.signal.reason;
      if (why === "too-slow") throw new ApiError(413, "tools/too-slow", tooSlow);
      // Nobody is there to read it; 499 (client closed request) keeps it out of the 500s' log.
      if (why === "client-gone")
        throw new ApiError(499, "tools/cancelled", "the client closed the connection before the answer");
      throw e;
    } finally {
      this.tasks--;
      if (timer) clearTimeout(timer);
      port1.close();
      reply.raw.off("close", hungUp);
    }
  }
}

/**
 * The body's memory, handed to the worker rather than copied, when the body owns all of it: a body of 4 KiB
 * or more, which fastify joins into a buffer of its own. A smaller one may share node's pool with other
 * buffers, so it is copied (a few KiB).
 */
function ownBuffer(body: Uint8Array | null): ArrayBuffer[] {
  if (body === null) return [];
  const memory = body.buffer;
  return memory instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === memory.byteLength
    ? [memory]
    : [];
}
