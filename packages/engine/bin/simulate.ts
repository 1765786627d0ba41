// `npm run simulate -- --games 100000 [--workers N] [--seed S] [--option earlyClose=all] [--out DIR]`
// (issue 5): bot games on worker threads. Game i is dealt from `${seed}:${i}`; the games are cut into
// fixed chunks by index, any worker plays any chunk, and the chunks' tallies (integer counts) are added in
// index order, so the result depends on the seed and options only, not on the worker count. Prints the
// summary on stdout and writes simulation.svg and simulation.json into DIR (default ./simulation/).
// The npm script bundles this file with esbuild and runs the bundle, which starts itself as the worker.
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { DEFAULT_OPTIONS, OPTION_VALUES, ROLE_IDS, type GameOptions } from "../src/index.ts";
import {
  WINNERS,
  WINNER_LABELS,
  emptyTally,
  mergeTallies,
  simulate,
  summaryOf,
  winRateSvg,
  type Tally,
} from "../src/bots-entry.ts";
import { WIN_CONDITIONS } from "../src/state.ts";

/** Games per chunk: fixed, so the chunks are the same for any worker count. */
const CHUNK = 25;

interface Settings {
  readonly games: number;
  readonly workers: number;
  readonly seed: string;
  readonly options: GameOptions;
  readonly out: string;
}

interface Job {
  readonly chunk: number;
  readonly from: number;
  readonly count: number;
}

type FromWorker =
  | { readonly kind: "done"; readonly chunk: number; readonly tally: Tally }
  | { readonly kind: "failed"; readonly message: string };

interface WorkerSetup {
  readonly seed: string;
  readonly options: GameOptions;
}

class UsageError extends Error {}

function positiveInt(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    throw new UsageError(`--${flag} wants a positive integer, not "${text}"`);
  return Number(text);
}

function gameOptions(pairs: readonly string[]): GameOptions {
  const options: { -readonly [K in keyof GameOptions]: GameOptions[K] } = { ...DEFAULT_OPTIONS };
  for (const pair of pairs) {
    const m = /^([^=]+)=(.*)$/.exec(pair);
    const key = m?.[1];
    if (!m || (key !== "earlyClose" && key !== "strikes"))
      throw new UsageError(
        `--option wants NAME=VALUE with NAME one of ${Object.keys(OPTION_VALUES).join(", ")}, not "${pair}"`,
      );
    const allowed: readonly string[] = OPTION_VALUES[key];
    const value = m[2]!;
    if (key === "earlyClose" && (value === "majority" || value === "all")) options.earlyClose = value;
    else if (key === "strikes" && (value === "shared" || value === "separate")) options.strikes = value;
    else throw new UsageError(`--option ${key} wants one of ${allowed.join(", ")}, not "${value}"`);
  }
  return options;
}

function settings(args: string[]): Settings {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        games: { type: "string" },
        workers: { type: "string" },
        seed: { type: "string" },
        option: { type: "string", multiple: true },
        out: { type: "string" },
      },
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const v = parsed.values;
  if (v.seed === "") throw new UsageError("--seed wants a non-empty string");
  return {
    games: positiveInt("games", v.games, 10_000),
    workers: positiveInt("workers", v.workers, availableParallelism()),
    seed: v.seed ?? "sim",
    options: gameOptions(v.option ?? []),
    // npm runs scripts from the root; a relative --out is relative to where npm was called.
    out: resolve(process.env.INIT_CWD ?? process.cwd(), v.out ?? "simulation"),
  };
}

function runWorker(setup: WorkerSetup): void {
  const port = parentPort!;
  port.on("message", (job: Job | null) => {
    if (job === null) {
      port.close();
      return;
    }
    try {
      const summary = simulate(setup.seed, job.count, { from: job.from, gameOptions: setup.options });
      port.postMessage({ kind: "done", chunk: job.chunk, tally: summary.tally } satisfies FromWorker);
    } catch (e) {
      port.postMessage({
        kind: "failed",
        message: e instanceof Error ? e.message : String(e),
      } satisfies FromWorker);
    }
  });
}

/** The progress bar on a terminal; a few plain lines otherwise. */
function progress(total: number): (done: number) => void {
  const tty = process.stderr.isTTY;
  const start = performance.now();
  let lastDraw = 0;
  let nextQuarter = 1;
  return (done) => {
    const now = performance.now();
    const rate = done / Math.max((now - start) / 1000, 1e-3);
    if (tty) {
      if (done < total && now - lastDraw < 100) return;
      lastDraw = now;
      const width = 30;
      const filled = Math.round((width * done) / total);
      const eta = done > 0 ? (total - done) / rate : NaN;
      process.stderr.write(
        `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${((100 * done) / total).toFixed(0).padStart(3)}% ` +
          `${done}/${total} games, ${rate.toFixed(0)}/s${Number.isFinite(eta) && done < total ? `, ${eta.toFixed(0)} s left` : ""}\x1b[K`,
      );
      if (done === total) process.stderr.write("\n");
    } else {
      const quarter = Math.floor((4 * done) / total);
      if (quarter >= nextQuarter) {
        process.stderr.write(
          `simulate: ${done}/${total} games (${((100 * done) / total).toFixed(0)}%), ${rate.toFixed(0)}/s\n`,
        );
        nextQuarter = quarter + 1;
      }
    }
  };
}

function playAll(s: Settings): Promise<Tally> {
  const jobs: Job[] = [];
  for (let from = 0, chunk = 0; from < s.games; from += CHUNK, chunk++)
    jobs.push({ chunk, from, count: Math.min(CHUNK, s.games - from) });
  const results: (Tally | undefined)[] = Array.from({ length: jobs.length }, () => undefined);
  const show = progress(s.games);
  let next = 0;
  let done = 0;
  return new Promise((resolvePromise, reject) => {
    const workers: Worker[] = [];
    const fail = (message: string): void => {
      for (const w of workers) void w.terminate();
      reject(new Error(message));
    };
    const feed = (w: Worker): void => {
      const job = jobs[next];
      if (job) {
        next++;
        w.postMessage(job satisfies Job);
      } else w.postMessage(null);
    };
    const count = Math.min(s.workers, jobs.length);
    for (let i = 0; i < count; i++) {
      const w = new Worker(new URL(import.meta.url), {
        workerData: { seed: s.seed, options: s.options } satisfies WorkerSetup,
      });
      workers.push(w);
      w.on("message", (msg: FromWorker) => {
        if (msg.kind === "failed") return fail(msg.message);
        results[msg.chunk] = msg.tally;
        done += jobs[msg.chunk]!.count;
        show(done);
        if (done === s.games) {
          for (const x of workers) x.postMessage(null);
          // Added in index order: the same sum for any worker count.
          let tally = emptyTally();
          for (const r of results) tally = mergeTallies(tally, r!);
          resolvePromise(tally);
        } else feed(w);
      });
      w.on("error", (e) => fail(e.message));
      feed(w);
    }
  });
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

function report(s: Settings, tally: Tally, seconds: number, workers: number): string {
  const summary = summaryOf(tally);
  const lines = [
    `${tally.games} bot games, seed "${s.seed}", earlyClose=${s.options.earlyClose} strikes=${s.options.strikes}; ` +
      `${workers} worker${workers === 1 ? "" : "s"}, ${seconds.toFixed(1)} s (${(tally.games / seconds).toFixed(0)} games/s)`,
    "",
    "winner                  games    rate    95% CI",
  ];
  for (const w of WINNERS) {
    const r = summary.winRates[w];
    lines.push(
      `  ${WINNER_LABELS[w].padEnd(20)}${String(r.count).padStart(7)}  ${pct(r.rate).padStart(6)}   ${pct(r.low)} – ${pct(r.high)}`,
    );
  }
  lines.push(
    "",
    `mean game length: ${summary.meanPhases.toFixed(2)} phases, ${summary.meanDays.toFixed(2)} days`,
    "",
    "decided by (W1)",
  );
  for (const c of WIN_CONDITIONS)
    lines.push(
      `  ${c.padEnd(20)}${String(tally.conditions[c]).padStart(7)}  ${pct(summary.conditions[c]).padStart(6)}`,
    );
  const talk = summary.talk;
  lines.push(
    "",
    "talk (issue 16)",
    `  posts per bot per day   ${talk.postsPerBotDay.toFixed(2)}`,
    `  distinct posts          ${pct(talk.distinctPosts)} (a bot's posts in a game)`,
    `  distinct lines          ${pct(talk.distinctLines)} (a bot's sentences in a game)`,
    `  team channel messages   ${talk.chatPerGame.toFixed(1)} per game`,
  );
  lines.push("", "survival by role");
  for (const r of ROLE_IDS) {
    const rate = summary.survival[r];
    if (rate !== undefined) lines.push(`  ${r.padEnd(20)}${pct(rate).padStart(6)}`);
  }
  return `${lines.join("\n")}\n`;
}

async function main(args: string[]): Promise<number> {
  let s: Settings;
  try {
    s = settings(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`simulate: ${e.message.replace(/\s+/g, " ")}\n`);
    return 2;
  }
  const start = performance.now();
  let tally: Tally;
  try {
    tally = await playAll(s);
  } catch (e) {
    process.stderr.write(`simulate: ${String(e instanceof Error ? e.message : e).replace(/\s+/g, " ")}\n`);
    return 1;
  }
  const seconds = (performance.now() - start) / 1000;
  const summary = summaryOf(tally);
  const caption = `seed ${s.seed}, earlyClose=${s.options.earlyClose}, strikes=${s.options.strikes}`;
  mkdirSync(s.out, { recursive: true });
  // The JSON holds what the seed and options decide, not the time or worker count, so runs compare.
  const json = { seed: s.seed, games: s.games, options: s.options, summary };
  writeFileSync(join(s.out, "simulation.json"), `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(join(s.out, "simulation.svg"), winRateSvg(summary, caption));
  process.stdout.write(report(s, tally, seconds, Math.min(s.workers, Math.ceil(s.games / CHUNK))));
  process.stdout.write(`\nwrote ${join(s.out, "simulation.svg")} and ${join(s.out, "simulation.json")}\n`);
  return 0;
}

if (isMainThread) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(
        `simulate: internal error: ${String(e instanceof Error ? e.message : e).replace(/\s+/g, " ")}\n`,
      );
      process.exitCode = 3;
    },
  );
} else runWorker(workerData as WorkerSetup);
