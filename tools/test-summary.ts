// Prints the plain closing line CI reads ("N passed, N failed, N skipped") from vitest's JSON report.
import { readFileSync } from "node:fs";

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

const file = process.argv[2] ?? "node_modules/.cache/vitest/results.json";
const r = JSON.parse(readFileSync(file, "utf8")) as Report;
console.log(
  `${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`,
);
if (r.numPassedTests === 0 || r.numFailedTests > 0) process.exitCode = 1;
