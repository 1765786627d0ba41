// `npm run simulate -- --games 100000 [--workers N] [--seed S] [--option earlyClose=all] [--out DIR]`
// (issue 5): bot games on worker threads. Game i is dealt from `${seed}:${i}`; the games are cut into
// fixed chunks by index, any worker plays any chunk, and the chunks' tallies (integer counts) are added in
// index order, so the result depends on the seed and options only, not on the worker count. Prints the
// summary on stdout and writes simulation.svg and simulation.json into DIR (default ./simulation/).
// The npm script bundles this file with esbuild and runs the bundle, which starts itself as the worker.
//
// `npm run simulate -- --setup FILE.json [--games N] [--workers N] [--out DIR]` (issue 17): the balance
// estimate of a setup, exactly as the app shows it beside the setup editor (POST /api/setups/estimate):
// FILE holds `{ "roles": [...], "options": {...} }` (options optional, each key defaulted), game i is the
// silent bot game dealt from `estimate:${i}` (estimateChunk), 2,000 games unless --games says otherwise,
// and the figures are read by the same balanceOf. Prints the win rates with their 95% intervals and the
// mean length; writes estimate.json (the endpoint's answer, to the last digit) and estimate.svg.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { z } from "zod";
import {
  DEFAULT_OPTIONS,
  OPTION_VALUES,
  ROLE_IDS,
  isRejection,
  startMatch,
  type GameOptions,
} from "../src/index.ts";
import {
  ESTIMATE_GAMES,
  WINNERS,
  WINNER_LABELS,
  balanceOf,
  canonicalSetup,
  emptyTally,
  estimateChunk,
  mergeTallies,
  simulate,
  summaryOf,
  winRateSvg,
  type Balance,
  type EstimateSetup,
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
  /** Issue 17: the setup of --setup FILE, whose balance estimate is played; null for talking bots' games. */
  readonly setup: { readonly file: string; readonly setup: EstimateSetup } | null;
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
  /** With --setup: the estimate's games (estimateChunk) instead of talking bots' (simulate). */
  readonly estimate: EstimateSetup | null;
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

const threshold = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A setup file (issue 17): the protocol's Setup, with the options optional and each key defaulted. */
const setupFileSchema = z.strictObject({
  roles: z.array(z.enum(ROLE_IDS)),
  options: z
    .strictObject({
      earlyClose: z.enum(OPTION_VALUES.earlyClose).default(DEFAULT_OPTIONS.earlyClose),
      strikes: z.enum(OPTION_VALUES.strikes).default(DEFAULT_OPTIONS.strikes),
      revealAbove: threshold.default(DEFAULT_OPTIONS.revealAbove),
      threeIntimidationsFrom: threshold.default(DEFAULT_OPTIONS.threeIntimidationsFrom),
      serumRepeatBelow: threshold.default(DEFAULT_OPTIONS.serumRepeatBelow),
      lapseAt: threshold.default(DEFAULT_OPTIONS.lapseAt),
      earlyFromDay: threshold.default(DEFAULT_OPTIONS.earlyFromDay),
    })
    .default(DEFAULT_OPTIONS),
});

/** The first fault zod found, as `roles[3]: …`, with S3 (the setup's clause). */
function setupIssue(error: z.ZodError, json: object): string {
  const issue = error.issues[0]!;
  const [field, index] = issue.path;
  if (field === "roles" && typeof index === "number" && "roles" in json && Array.isArray(json.roles)) {
    const role: unknown = json.roles[index];
    if (typeof role === "string")
      return `roles[${index}]: unknown role ${JSON.stringify(role)}, not one of ${ROLE_IDS.join(", ")} (S3)`;
  }
  const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  const where = path.replace(/^\./, "");
  const what =
    issue.code === "unrecognized_keys"
      ? `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")} (expected ${
          where === "" ? "roles, options" : Object.keys(DEFAULT_OPTIONS).join(", ")
        })`
      : issue.message;
  return `${where === "" ? "" : `${where}: `}${what} (S3)`;
}

/** Read and check a setup file; every fault is a UsageError of one line naming the file and the problem. */
function readSetup(path: string): EstimateSetup {
  const name = basename(path);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new UsageError(`--setup ${path}: cannot read it (${e instanceof Error ? e.message : String(e)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${name}: not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new UsageError(`${name}: wants an object { "roles": [...], "options": {...} }`);
  const parsed = setupFileSchema.safeParse(json);
  if (!parsed.success) throw new UsageError(`${name}: ${setupIssue(parsed.error, json)}`);
  const { roles, options } = parsed.data;
  // S3's check of the role list is the engine's own, with its words: the deal refuses what it cannot deal.
  const dealt = startMatch({
    players: roles.map((_, i) => ({ name: `p${i + 1}` })),
    seed: "check",
    roles,
    options,
  });
  if (isRejection(dealt)) throw new UsageError(`${name}: roles: ${dealt.message} (${dealt.clause})`);
  return { roles, options };
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
        setup: { type: "string" },
      },
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const v = parsed.values;
  if (v.seed === "") throw new UsageError("--seed wants a non-empty string");
  if (v.setup !== undefined && (v.seed !== undefined || v.option !== undefined))
    throw new UsageError(
      "--setup plays the estimate's own games (seeds estimate:0, estimate:1, …) with the file's options: leave out --seed and --option",
    );
  // npm runs scripts from the root; a relative path is relative to where npm was called.
  const here = process.env.INIT_CWD ?? process.cwd();
  const setupFile = v.setup === undefined ? null : resolve(here, v.setup);
  return {
    setup: setupFile === null ? null : { file: setupFile, setup: readSetup(setupFile) },
    games: positiveInt("games", v.games, setupFile === null ? 10_000 : ESTIMATE_GAMES),
    workers: positiveInt("workers", v.workers, availableParallelism()),
    seed: v.seed ?? "sim",
    options: gameOptions(v.option ?? []),
    out: resolve(here, v.out ?? "simulation"),
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
      const tally =
        setup.estimate === null
          ? simulate(setup.seed, job.count, { from: job.from, gameOptions: setup.options }).tally
          : estimateChunk(setup.estimate, job.from, job.count);
      port.postMessage({ kind: "done", chunk: job.chunk, tally } satisfies FromWorker);
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
        workerData: {
          seed: s.seed,
          options: s.options,
          estimate: s.setup?.setup ?? null,
        } satisfies WorkerSetup,
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

/** Issue 17: the figures of POST /api/setups/estimate, as rates with four digits and percentages. */
function estimateReport(
  s: Settings,
  setup: EstimateSetup,
  b: Balance,
  seconds: number,
  workers: number,
): string {
  const roles = canonicalSetup(setup).roles;
  const counts = new Map<string, number>();
  for (const r of roles) counts.set(r, (counts.get(r) ?? 0) + 1);
  const o = setup.options;
  const lines = [
    `balance estimate of ${s.setup!.file}: ${b.games} bot games (seeds estimate:0…estimate:${b.games - 1}); ` +
      `${workers} worker${workers === 1 ? "" : "s"}, ${seconds.toFixed(1)} s (${(b.games / seconds).toFixed(0)} games/s)`,
    `  ${roles.length} players: ${[...counts].map(([r, n]) => (n === 1 ? r : `${r} ×${n}`)).join(", ")}`,
    `  options: earlyClose=${o.earlyClose} strikes=${o.strikes} revealAbove=${o.revealAbove} ` +
      `threeIntimidationsFrom=${o.threeIntimidationsFrom} serumRepeatBelow=${o.serumRepeatBelow} ` +
      `lapseAt=${o.lapseAt} earlyFromDay=${o.earlyFromDay}`,
    "",
    "winner                  rate     95% CI              (share of 1; as a percentage)",
  ];
  for (const w of WINNERS) {
    const r = b.winRates[w];
    lines.push(
      `  ${WINNER_LABELS[w].padEnd(20)}  ${r.rate.toFixed(4)}   ${r.low.toFixed(4)} – ${r.high.toFixed(4)}     ` +
        `${pct(r.rate)} (${pct(r.low)} – ${pct(r.high)})`,
    );
  }
  const st = b.stalled;
  lines.push(
    `  ${"Не кончились / Stalled".padEnd(20)}  ${st.rate.toFixed(4)}   ${st.low.toFixed(4)} – ${st.high.toFixed(4)}     ` +
      `${pct(st.rate)} (${pct(st.low)} – ${pct(st.high)})`,
    "",
    // Issue 28: what the figures are shares of, and what "stalled" means.
    `the rates are shares of all ${b.games} games; "stalled" is the share that did not end within ` +
      `${b.phaseCap} phases (${b.phaseCap / 2} nights and ${b.phaseCap / 2} days), and the five add up to 1`,
    st.rate > 0
      ? `warning: ${pct(st.rate)} of the games stalled: this setup lets a game go on with nobody dying or hanged; a GM would have to move it on (modkills, F2; strikes, P3)`
      : "no game stalled",
    "",
    `mean game length (games that ended): ${b.meanDays.toFixed(2)} days, ${b.meanPhases.toFixed(2)} phases`,
  );
  return `${lines.join("\n")}\n`;
}

/** Issue 17: --setup: the estimate's games, its figures on stdout, its answer in estimate.json. */
function writeEstimate(s: Settings, setup: EstimateSetup, tally: Tally, seconds: number): void {
  const balance = balanceOf(tally);
  mkdirSync(s.out, { recursive: true });
  // Exactly what the endpoint answers for this setup and game count, beside the setup as played.
  const json = { setup: canonicalSetup(setup), estimate: balance };
  writeFileSync(join(s.out, "estimate.json"), `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(join(s.out, "estimate.svg"), winRateSvg(summaryOf(tally), basename(s.setup!.file)));
  const workers = Math.min(s.workers, Math.ceil(s.games / CHUNK));
  process.stdout.write(estimateReport(s, setup, balance, seconds, workers));
  process.stdout.write(`\nwrote ${join(s.out, "estimate.svg")} and ${join(s.out, "estimate.json")}\n`);
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
  if (s.setup !== null) {
    writeEstimate(s, s.setup.setup, tally, seconds);
    return 0;
  }
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
