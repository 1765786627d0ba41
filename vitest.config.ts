import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Two commands, four projects (docs/testing.md, "The fast loop and the full suite"):
 *
 * - `npm test`, the fast loop: the projects "in-process" and "quick". Every test that runs inside vitest's
 *   own process, with no PostgreSQL, no browser, no command or worker pool of its own, two files at a time;
 *   the long property tests with fewer runs.
 * - `npm run test:all`, everything (CI runs it): "in-process" and "full" together (PostgreSQL, Chromium, the
 *   commands, the long property tests at their full count: two files at a time, each with its own
 *   schemas, databases, folders and ports), then "serial" (the files that start server processes, proxies
 *   or a PostgreSQL of their own, or use every core, one at a time).
 *
 * Which project a file is in is read from what it needs (its imports, and the few named below); a new file
 * is sorted the same way.
 */

/** Every test file, relative to the repository (vitest's include patterns, read here to sort them). */
const ROOT = fileURLToPath(new URL(".", import.meta.url));
const testFiles = (dir: string): string[] =>
  existsSync(join(ROOT, dir))
    ? readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".test.ts") && !f.split(sep).includes("node_modules"))
        .map((f) => `${dir}/${f.split(sep).join("/")}`)
    : [];
const FILES = [
  ...readdirSync(join(ROOT, "packages")).flatMap((p) => testFiles(`packages/${p}/test`)),
  ...testFiles("tools"),
].sort();

/** What a file needs, read from its imports: a helper that starts processes, PostgreSQL, Chromium. */
const imports = (file: string, helpers: string): boolean =>
  new RegExp(`from "(\\./|\\.\\./\\.\\./server/test/)(${helpers})\\.ts"`).test(
    readFileSync(join(ROOT, file), "utf8"),
  );
/** Server processes (instances.ts), haproxy (haproxy.ts), nginx (nginx.ts), rolling restarts (rolling*.ts). */
const startsProcesses = (f: string): boolean => imports(f, "instances|haproxy|nginx|rolling|rolling-suite");
const needsPostgresOrChromium = (f: string): boolean =>
  imports(f, "pg|browser") || /from "pg"/.test(readFileSync(join(ROOT, f), "utf8"));

/**
 * Use every core by design, so they run alone: the `npm run simulate` tests (which also share one bundle file,
 * node_modules/.cache/simulate/simulate.mjs, that two at once would write over), and the server's worker
 * pools at full size: the balance estimates play 2,000 bot games a setup on every thread (beside another
 * file, under load, they ran past their 60 s; preset-estimates.test.ts plays every preset again, to check
 * the figures kept with the code), and the GM tools' tests fill the threads and wait out the
 * time budget.
 */
const ALSO_SERIAL = [
  "packages/engine/test/simulation.test.ts",
  "packages/engine/test/estimate.test.ts",
  "packages/engine/test/estimate-stall.test.ts",
  "packages/server/test/estimate.test.ts",
  "packages/server/test/estimate-stall.test.ts",
  "packages/server/test/preset-estimates.test.ts",
  "packages/server/test/tools.test.ts",
];
/**
 * Run the commands themselves, a process per case (`npm run replay`, `results`, `votecount`: about a second
 * each). Independent: two at a time, in the full suite.
 */
const COMMANDS = [
  "packages/engine/test/cli.test.ts",
  "packages/engine/test/results.test.ts",
  "packages/forum/test/votecount-cli.test.ts",
  "packages/forum/test/profanity-cli.test.ts",
  "packages/server/test/g5-replay-cli.test.ts",
];
/**
 * Long property tests with a count of runs for each command (packages/server/test/runs.ts): in the project
 * "quick" (the fast loop) the schema fuzz runs on SQLite, 10 runs a route, and the leak games 6 a mode; in
 * "full" (test:all) the fuzz runs on both stores, 60 runs a route, and the leak games 20 a mode.
 */
const QUICK_AND_FULL = ["packages/server/test/fuzz.test.ts", "packages/server/test/leaks.test.ts"];
// A name here that is no file would leave the file (renamed) in the fast loop.
for (const f of [...ALSO_SERIAL, ...COMMANDS, ...QUICK_AND_FULL])
  if (!FILES.includes(f)) throw new Error(`vitest.config.ts: no test file ${f}`);

/**
 * Start processes: server instances, haproxy and nginx on ports found free, a PostgreSQL cluster of their
 * own (pg-faults), SIGSTOP and kill -9; or use every core (ALSO_SERIAL). Timing matters to them (leader locks, drains), and a port found free
 * can be taken by a file running beside them: one at a time, after the rest.
 */
const SERIAL = FILES.filter((f) => startsProcesses(f) || ALSO_SERIAL.includes(f));
/**
 * PostgreSQL (each test makes a schema or database of its own, named by its process and a random suffix),
 * Chromium (each file builds the app into a folder of its own and serves it on a port of its own), the
 * commands above, and the long property tests at their full count: independent, two at a time.
 */
const FULL = FILES.filter(
  (f) =>
    !SERIAL.includes(f) && (QUICK_AND_FULL.includes(f) || COMMANDS.includes(f) || needsPostgresOrChromium(f)),
);

const ALL = ["packages/*/test/**/*.test.ts", "tools/**/*.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // A hang guard for beforeAll/afterAll (servers, stores, users with argon2 hashes), not a speed target:
    // vitest's 10 s default failed setups that were only slow on a busy machine (issue 29).
    hookTimeout: 120_000,
    // The JSON report lets .ci/run print the plain "N passed, N failed" line CI reads.
    reporters: ["default", ["json", { outputFile: "node_modules/.cache/vitest/results.json" }]],
    projects: [
      {
        extends: true,
        test: {
          name: "in-process",
          include: ALL,
          exclude: [...FULL, ...SERIAL],
          // Two files at a time (vitest's default here is one: the cores less one).
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "quick",
          include: QUICK_AND_FULL,
          provide: { runs: "quick" },
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "full",
          include: FULL,
          provide: { runs: "full" },
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "serial",
          include: SERIAL,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
