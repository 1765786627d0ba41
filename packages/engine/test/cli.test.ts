/**
 * The replay command of REPLAY.md, run for real: `npm run --silent replay -- FILE` from the repository
 * root. A valid file prints the outcome JSON and nothing else (exit 0); a bad one prints nothing on
 * standard output and one line on standard error, starting with "file:" for a fault of the file itself
 * or with the phase otherwise, and ending with the clause in parentheses. Each spawn takes about a
 * second, so every case is one spawn.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const golden = "packages/engine/test/golden";

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function replay(file: string): Run {
  const r = spawnSync("npm", ["run", "--silent", "replay", "--", file], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false" },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The clause at the end of an error line: a RULES.md id, or REPLAY.md for the file format itself. */
const CLAUSE_AT_END = /\((?:[SGRVPMNTOAWF]\d{1,2}[a-e]?|REPLAY\.md)\)$/;

/** A refused file: non-zero exit, nothing on stdout, exactly one line on stderr; returns that line. */
function refused(run: Run): string {
  expect(run.status).not.toBe(0);
  expect(run.status).not.toBeNull();
  expect(run.stdout).toBe("");
  const lines = run.stderr.split("\n");
  expect(lines).toHaveLength(2); // one line and its newline
  expect(lines[1]).toBe("");
  return lines[0]!;
}

const tmp = mkdtempSync(join(tmpdir(), "forum-mafia-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the replay command (REPLAY.md)", () => {
  it("G1: a valid file prints exactly its outcome JSON, nothing on stderr, and exits 0", () => {
    const run = replay(`${golden}/full-game-town.json`);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.endsWith("}\n")).toBe(true);
    const expected: unknown = JSON.parse(readFileSync(join(root, golden, "full-game-town.out.json"), "utf8"));
    expect(JSON.parse(run.stdout)).toEqual(expected);
  });

  it("G1: malformed JSON is a file fault, refused with one line that ends with the clause", () => {
    const file = join(tmp, "malformed.json");
    writeFileSync(file, '{ "format": "forum-mafia/replay@1", "players": [ }\n');
    const line = refused(replay(file));
    expect(line).toMatch(/^file: malformed JSON/);
    expect(line).toMatch(CLAUSE_AT_END);
  });

  it("G1: a missing file is a file fault, refused with one line that ends with the clause", () => {
    const line = refused(replay(`${golden}/no-such-file.json`));
    expect(line).toMatch(/^file: /);
    expect(line).toContain("no-such-file.json");
    expect(line).toMatch(CLAUSE_AT_END);
  });

  it.each([
    ["G1", "a wrong format", "error-wrong-format"],
    ["S3", "a duplicate name", "error-duplicate-name"],
    ["S3", "an unknown role", "error-unknown-role"],
  ])("%s: %s is a file fault: one line starting with file: (%s)", (_clause, _what, name) => {
    const line = refused(replay(`${golden}/${name}.json`));
    expect(line).toMatch(/^file: /);
    expect(line).toMatch(CLAUSE_AT_END);
    expect(`${line}\n`).toBe(readFileSync(join(root, golden, `${name}.err.txt`), "utf8"));
  });

  it.each([
    ["O1", "an unknown player", "error-unknown-player", "night 1: "],
    ["T4", "an illegal action", "error-repeat-visit", "night 2: "],
    ["G4", "a phase out of order", "error-phase-order", "night 2: "],
  ])("%s: %s is refused with one line naming the phase (%s)", (_clause, _what, name, phase) => {
    const line = refused(replay(`${golden}/${name}.json`));
    expect(line.startsWith(phase)).toBe(true);
    expect(line).toMatch(CLAUSE_AT_END);
    expect(`${line}\n`).toBe(readFileSync(join(root, golden, `${name}.err.txt`), "utf8"));
  });
});
