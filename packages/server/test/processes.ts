import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * Issue 29: the one process starter of the tests and the benches. A child process (a server instance, a
 * proxy, a bench's client) is spawned, its stdout read line by line, its output kept (the tail, for failure
 * messages), its exit tracked, and it is killed (kill -9) or terminated (a signal, then kill -9 after a
 * guard). What "ready" means stays with the caller: a line on stdout (`ready`), or a poll of its own.
 */

/** How a process ended: its exit code, or the signal that ended it. */
export interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ChildOptions {
  /** Names the process in error messages. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Keep a pipe to its stdin open (a command protocol, as instance.ts's); ignored by default. */
  readonly stdin?: boolean;
  /** Read stdout line by line (the default), or ignore it (haproxy, nginx). */
  readonly stdout?: "lines" | "ignore";
  /**
   * Keep the stdout lines no listener took in the output, after stderr's; true by default. Off where only
   * stderr explains a failure, or where stdout is data (a client's JSON report).
   */
  readonly logStdout?: boolean;
  /** How many characters of output to keep, the last ones; all of it by default. */
  readonly keep?: number;
  /** Told of the process as soon as it is spawned (the benches' clean-up list). */
  readonly onSpawn?: (proc: ChildProcess) => void;
}

/** `node --import tsx <script> …`: a TypeScript entry of the repository, as the tests and benches run them. */
export const tsx = (script: string, ...args: readonly string[]): { command: string; args: string[] } => ({
  command: process.execPath,
  args: ["--import", "tsx", script, ...args],
});

/** One child process, from its spawn to its exit. */
export class Child {
  readonly proc: ChildProcess;
  readonly name: string;
  /** Resolves when the process has exited. */
  readonly exited: Promise<Ended>;
  /** Resolves once it has exited and its output has been read to the end (a report printed before exit). */
  readonly closed: Promise<Ended>;
  private output = "";
  private ended: Ended | null = null;
  private readonly keep: number;
  private readonly listeners = new Set<(line: string) => boolean>();

  constructor(opts: ChildOptions) {
    this.name = opts.name;
    this.keep = opts.keep ?? Infinity;
    const stdout = opts.stdout ?? "lines";
    const proc = spawn(opts.command, [...opts.args], {
      ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
      ...(opts.env !== undefined ? { env: opts.env } : {}),
      stdio: [opts.stdin ? "pipe" : "ignore", stdout === "lines" ? "pipe" : "ignore", "pipe"],
    });
    this.proc = proc;
    opts.onSpawn?.(proc);
    proc.stderr!.setEncoding("utf8");
    proc.stderr!.on("data", (chunk: string) => this.note(chunk));
    const logStdout = opts.logStdout ?? true;
    if (proc.stdout)
      createInterface({ input: proc.stdout }).on("line", (line) => {
        let taken = false;
        for (const listener of [...this.listeners]) if (listener(line)) taken = true;
        if (!taken && logStdout) this.note(`${line}\n`);
      });
    this.exited = new Promise((resolve) =>
      proc.once("exit", (code, signal) => {
        this.ended = { code, signal };
        resolve(this.ended);
      }),
    );
    this.closed = new Promise((resolve) => proc.once("close", (code, signal) => resolve({ code, signal })));
  }

  /** Not yet exited. */
  get alive(): boolean {
    return this.ended === null;
  }

  /** How it ended, once it has: `code 70`, `signal SIGKILL`; null while it runs. */
  get exit(): string | null {
    if (this.ended === null) return null;
    return this.ended.signal ? `signal ${this.ended.signal}` : `code ${this.ended.code}`;
  }

  /** Its exit code and signal, once it has exited. */
  get status(): Ended | null {
    return this.ended;
  }

  /** The output kept so far: stderr, and the stdout lines no listener took (see ChildOptions.logStdout). */
  log(): string {
    return this.output;
  }

  /** The end of the output, for an error message. */
  tail(chars = 4000): string {
    return this.output.slice(-chars);
  }

  /** Add to the kept output (a note of the test's own, e.g. how the process ended). */
  note(text: string): void {
    this.output = (this.output + text).slice(-this.keep);
  }

  /**
   * Hear each stdout line; a listener that returns true has taken the line, which is then not kept in the
   * output. Returns the way to stop listening.
   */
  onLine(listener: (line: string) => boolean): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The first stdout line that `match` accepts (kept in the output as any other line); if the process exits
   * first, an error with the message `failure` gives.
   */
  readyLine<T>(match: (line: string) => T | null, failure: (ended: Ended) => string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const stop = this.onLine((line) => {
        const found = match(line);
        if (found === null) return false;
        stop();
        resolve(found);
        return false;
      });
      void this.exited.then((ended) => {
        stop();
        reject(new Error(failure(ended)));
      });
    });
  }

  /** Write one line to its stdin (ChildOptions.stdin). */
  write(line: string): void {
    this.proc.stdin!.write(`${line}\n`);
  }

  /** Send a signal if it still runs (SIGSTOP and SIGCONT freeze and thaw it). */
  signal(signal: NodeJS.Signals): void {
    if (this.alive) this.proc.kill(signal);
  }

  /** kill -9 if it still runs: no shutdown of any kind, the kernel closes its sockets. Resolves once it has exited. */
  async kill(): Promise<Ended> {
    this.signal("SIGKILL");
    return this.exited;
  }

  /**
   * Ask it to stop (SIGTERM by default; nginx's graceful stop is SIGQUIT), and kill -9 if it has not exited
   * within `guardMs` (none: wait as long as it takes). Resolves with how it ended.
   */
  async terminate(opts: { signal?: NodeJS.Signals; guardMs?: number } = {}): Promise<Ended> {
    if (!this.alive) return this.exited;
    this.proc.kill(opts.signal ?? "SIGTERM");
    const guard = opts.guardMs === undefined ? null : setTimeout(() => this.signal("SIGKILL"), opts.guardMs);
    const ended = await this.exited;
    if (guard) clearTimeout(guard);
    return ended;
  }
}

/** Spawn a process (see ChildOptions). */
export const startChild = (opts: ChildOptions): Child => new Child(opts);
