// tools/mutation-score.ts, the closing line of `npm run mutate:secrets`: it must fail the gate below the
// threshold (docs/testing.md, "Mutation testing of the secrets"). Run as CI runs it, on hand-made reports
// whose scores are worked out here by hand: detected (killed, timed out) over valid (detected, survived,
// not covered); mutants that do not compile, crash or are ignored count for neither.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const TOOL = fileURLToPath(new URL("./mutation-score.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "mutation-score-"));

function report(name: string, statuses: readonly string[]): string {
  const file = join(dir, `${name}.json`);
  // Two files, as Stryker writes one entry per mutated file.
  const half = Math.ceil(statuses.length / 2);
  const mutants = (s: readonly string[]) => s.map((status, i) => ({ id: `${name}${i}`, status }));
  writeFileSync(
    file,
    JSON.stringify({
      files: {
        "a.ts": { mutants: mutants(statuses.slice(0, half)) },
        "b.ts": { mutants: mutants(statuses.slice(half)) },
      },
    }),
  );
  return file;
}

function run(...args: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", TOOL, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout };
}

const times = (n: number, status: string): string[] => Array<string>(n).fill(status);

describe("the mutation score gate", () => {
  it("fails below the threshold: 3 detected of 5 valid is 60 %", () => {
    const file = report("low", [
      "Killed",
      "Killed",
      "Timeout",
      "Survived",
      "NoCoverage",
      "CompileError",
      "RuntimeError",
      "Ignored",
    ]);
    expect(run(file, "90")).toEqual({ code: 1, out: "mutation score: 60.00%\n" });
    expect(run(file, "60")).toEqual({ code: 0, out: "mutation score: 60.00%\n" });
    expect(run(file, "60.01").code).toBe(1);
  });

  it("passes at the threshold and above; 90 is the default", () => {
    // 9 detected of 10 valid: 90 %.
    const at = report("at", [...times(8, "Killed"), "Timeout", "Survived", "CompileError"]);
    expect(run(at, "90")).toEqual({ code: 0, out: "mutation score: 90.00%\n" });
    expect(run(at)).toEqual({ code: 0, out: "mutation score: 90.00%\n" });
    // 89 of 100 valid: 89 %, below the default.
    const below = report("below", [...times(89, "Killed"), ...times(11, "NoCoverage")]);
    expect(run(below)).toEqual({ code: 1, out: "mutation score: 89.00%\n" });
    // The threshold is checked unrounded: 1999 of 2222 is 89.9640… %, shown as 89.96 %.
    const close = report("close", [...times(1999, "Killed"), ...times(223, "Survived")]);
    expect(run(close, "89.97").code).toBe(1);
    expect(run(close, "89.96").code).toBe(0);
  });

  it("fails on a report with no valid mutant, a missing report or a threshold that is no percentage", () => {
    expect(run(report("none", ["CompileError", "Ignored"]), "0").code).toBe(1);
    expect(run(join(dir, "missing.json")).code).not.toBe(0);
    const file = report("ok", ["Killed"]);
    for (const bad of ["", "abc", "101", "-1"]) expect(run(file, bad).code).toBe(2);
    expect(run().code).toBe(2);
  });
});
