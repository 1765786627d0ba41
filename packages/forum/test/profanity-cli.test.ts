import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const CLI = join(ROOT, "packages/forum/bin/profanity.ts");
const TSX = join(ROOT, "node_modules/tsx/dist/cli.mjs");

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [TSX, CLI, ...args], { encoding: "utf8", timeout: 15_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function temp(name: string, content: string | Uint8Array): string {
  const path = join(mkdtempSync(join(tmpdir(), "profanity-")), name);
  writeFileSync(path, content);
  return path;
}

describe("G5: the profanity CLI", () => {
  it("G5: prints one JSON object a line, offsets into each line", () => {
    const file = temp("messages.txt", "\uFEFFголосую за Аню\r\n[b]иди[/b] нахуй\nты дебил\n");
    const { status, stdout, stderr } = run(file);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(
      stdout
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      { flag: null, spans: [] },
      { flag: "obscene", spans: [{ start: 11, end: 16, word: "нахуй" }] },
      { flag: "insult", spans: [{ start: 3, end: 8, word: "дебил" }] },
    ]);
  });

  it("G5: a missing file, a folder, NUL bytes or invalid UTF-8: one stderr line, exit 1", () => {
    const folder = mkdtempSync(join(tmpdir(), "profanity-"));
    const cases = [
      join(folder, "missing.txt"),
      folder,
      temp("nul.txt", new Uint8Array([0x68, 0x00, 0x69])),
      temp("cp1251.txt", new Uint8Array([0xef, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2])),
    ];
    for (const path of cases) {
      const { status, stdout, stderr } = run(path);
      expect(status, path).toBe(1);
      expect(stdout).toBe("");
      expect(stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(stderr).toMatch(/^profanity: /u);
    }
  });

  it("G5: bad usage: one stderr line, exit 2", () => {
    for (const args of [[], ["a.txt", "b.txt"], ["--unknown"]]) {
      const { status, stderr } = run(...args);
      expect(status, args.join(" ")).toBe(2);
      expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });
});
