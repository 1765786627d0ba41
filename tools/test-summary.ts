// Prints the plain closing line CI reads ("N passed, N failed, N skipped") from vitest's JSON report, and
// fails when nothing passed, anything failed (a test, or a file that failed before its tests ran), or (under
// CI=true) anything was skipped: on the CI machine PostgreSQL, Chromium and haproxy are there, so a skipped
// test is a test that did not run. CI runs `npm run test:all`, one vitest run over every project
// (vitest.config.ts), so its one report counts every test.
import { existsSync, readFileSync, statSync } from "node:fs";

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  /** Files that failed, counting those that failed outside any test (an import that threw). */
  numFailedTestSuites: number;
  numPendingTests: number;
  numTodoTests: number;
}

const file = process.argv[2] ?? "node_modules/.cache/vitest/results.json";
/** A report older than this run (CI_STARTED, seconds since the epoch) is not this run's. */
const since = Number(process.env.CI_STARTED ?? 0) * 1000;
if (!existsSync(file) || statSync(file).mtimeMs < since) {
  console.log("0 passed, 0 failed, 0 skipped (the tests did not run: an earlier step failed)");
  process.exitCode = 1;
} else {
  const r = JSON.parse(readFileSync(file, "utf8")) as Report;
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  if (r.numPassedTests === 0 || r.numFailedTests > 0) process.exitCode = 1;
  if (r.numFailedTestSuites > 0) {
    console.error(`${r.numFailedTestSuites} test file(s) or suite(s) failed`);
    process.exitCode = 1;
  }
  if (process.env.CI && skipped > 0) {
    console.error(`CI=true: ${skipped} skipped test(s) did not run; nothing may skip on CI`);
    process.exitCode = 1;
  }
}
