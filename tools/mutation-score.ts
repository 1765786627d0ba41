// The closing line of `npm run mutate:secrets`: Stryker's mutation score, read from its JSON report, and
// a failing exit below the threshold. Stryker's definition: detected (killed or timed out) over valid
// (detected, survived or not covered); mutants that do not compile, crash the run or are ignored count for
// neither. Usage: tsx tools/mutation-score.ts <report.json> [threshold, default 90]
import { readFileSync } from "node:fs";

interface Report {
  readonly files: Record<string, { readonly mutants: readonly { readonly status: string }[] }>;
}

const [file, threshold = "90"] = process.argv.slice(2);
if (!file) {
  console.error("usage: tsx tools/mutation-score.ts <report.json> [threshold]");
  process.exit(2);
}
const bar = Number(threshold);
if (threshold.trim() === "" || !Number.isFinite(bar) || bar < 0 || bar > 100) {
  console.error(`threshold ${JSON.stringify(threshold)} is not a percentage`);
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, "utf8")) as Report;
const count = new Map<string, number>();
for (const { mutants } of Object.values(report.files))
  for (const m of mutants) count.set(m.status, (count.get(m.status) ?? 0) + 1);
const n = (status: string): number => count.get(status) ?? 0;
const detected = n("Killed") + n("Timeout");
const valid = detected + n("Survived") + n("NoCoverage");
if (valid === 0) {
  console.error(`${file} holds no valid mutant`);
  process.exit(1);
}
const score = (100 * detected) / valid;
// Rounded to two decimals, as Stryker prints it; the threshold is checked on the unrounded score.
const shown = Math.round(score * 100) / 100;
console.log(`mutation score: ${shown.toFixed(2)}%`);
if (score < bar) {
  console.error(`below the threshold of ${bar}%`);
  process.exit(1);
}
