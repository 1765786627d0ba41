import iconv from "iconv-lite";
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE_PAGES, PAGES } from "./fixture-pages.ts";

const ROOT = join(import.meta.dirname, "../../..");
const CLI = join(ROOT, "packages/forum/bin/votecount.ts");
const TSX = join(ROOT, "node_modules/tsx/dist/cli.mjs");
const FIXTURES = join(import.meta.dirname, "fixtures");
const PLAYERS = join(FIXTURES, "votecount-players.txt");
const THREAD = join(FIXTURES, "votecount-thread.json");

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [TSX, CLI, ...args], { encoding: "utf8", timeout: 15_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The CLI as a child process, without blocking: the pages' runs go side by side (a spawn costs ~1 s of tsx). */
function runAsync(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSX, CLI, ...args],
      { encoding: "utf8", timeout: 50_000 },
      (error, stdout, stderr) =>
        resolve({
          status: error === null ? 0 : typeof error.code === "number" ? error.code : null,
          stdout,
          stderr,
        }),
    );
  });
}

function temp(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "votecount-")), name);
  writeFileSync(path, text);
  return path;
}

describe("votecount CLI", () => {
  it("V1: counts a realistic mixed-dialect thread", () => {
    const { status, stdout, stderr } = run(
      "--players", PLAYERS, "--gm", "Ведущий", "--day", "3", "--silenced", "Лена", THREAD,
    ); // prettier-ignore
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      votes: [
        { by: "Вася", red: "Петя", early: false, post: 1 },
        { by: "Коля", blue: "Вася", early: false, post: 6 },
        { by: "Маша", red: "Вася", early: true, post: 3 },
        { by: "Петя", blue: "Zybr", early: false, post: 2 },
      ],
      notVoted: ["Zybr"],
      ignored: [
        {
          post: 0,
          text: "[color=red]красный[/color], [color=blue]синий[/color]",
          reason: "post by the GM",
        },
        { post: 5, text: "[color=red]Колю[/color]", reason: "Маша already voted early in post 3 (V7)" },
        {
          post: 7,
          text: "Вася КРАСНЫМ",
          reason: "post by Гена, who is not a living player (a non-player or the dead)",
        },
        { post: 8, text: "[color=red]Маша[/color]", reason: "Лена cannot vote today (silenced, V6)" },
        { post: 9, text: "[color=red]‹b›Ваня‹/b›[/color]", reason: "vote for a non-player" },
      ],
      count: [
        "[b]Голосование, день 3[/b]",
        "Против:",
        "Вася (1): Маша (досрочно)",
        "Петя (1): Вася",
        "В защиту:",
        "Zybr (1): Петя",
        "Вася (1): Коля",
        "Лишены голоса: Лена",
        "Не проголосовали: Zybr",
      ].join("\n"),
    });
    expect(stdout).not.toMatch(/[<>]/u);
  });

  it("prints its usage on --help, and nothing on stderr", () => {
    const { status, stdout, stderr } = run("--help");
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout).toMatch(/^usage: votecount --players PLAYERS\.txt/u);
  });

  it.each([
    ["malformed JSON", () => ["--players", PLAYERS, temp("t.json", "[{")], /not valid JSON/u],
    ["an unknown option", () => ["--players", PLAYERS, "--colour", "red", THREAD], /colour/u],
    ["an empty player list", () => ["--players", temp("p.txt", "\n\n"), THREAD], /empty/u],
    ["a missing file", () => ["--players", PLAYERS, join(FIXTURES, "nope.json")], /cannot read/u],
    ["a bad day", () => ["--players", PLAYERS, "--day", "two", THREAD], /--day/u],
    [
      "plain text with no posts",
      () => ["--players", PLAYERS, temp("t.txt", "Вася: голосую за Петю")],
      /no posts/u,
    ],
    ["an empty thread file", () => ["--players", PLAYERS, temp("t.html", "  \n")], /empty/u],
  ])("bad input: %s gives one line on stderr and nothing on stdout", (_, args, message) => {
    const { status, stdout, stderr } = run(...args());
    expect(status).not.toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  // Every fixture page (fixture-pages.ts), as thread-pages.test.ts, the API's and the browser's tests.
  it.concurrent.each(FIXTURE_PAGES.map((p) => [p.name, p.expected] as const))(
    "V1: counts the saved %s page as worked out by hand",
    async (name, want) => {
      const players = temp("players.txt", want.players);
      const { status, stdout, stderr } = await runAsync(
        "--players", players, "--gm", want.gm, "--day", String(want.day), join(PAGES, `${name}.html`),
      ); // prettier-ignore
      expect(stderr).toBe("");
      expect(status).toBe(0);
      const out = JSON.parse(stdout) as { count: string; votes: unknown[] };
      expect(out.count).toBe(want.count);
      expect(out.votes).toEqual(want.votes);
    },
  );

  // Issue 30: twins made by encoding-twins.ts; the player list saved in windows-1251 too, as Notepad would.
  it.each([
    ["discourse", "discourse.windows-1251.nometa.html"],
    ["phpbb", "phpbb.windows-1251.html"],
    ["smf", "smf.koi8-r.nometa.html"],
  ])("V1: counts the saved %s page in %s as its UTF-8 twin", (engine, twin) => {
    const pages = join(FIXTURES, "pages");
    const want = JSON.parse(readFileSync(join(pages, `${engine}.expected.json`), "utf8")) as {
      players: string;
      gm: string;
      day: number;
      count: string;
      votes: unknown[];
    };
    const players = temp("players.txt", "");
    writeFileSync(players, iconv.encode(want.players, "windows-1251"));
    const { status, stdout, stderr } = run(
      "--players", players, "--gm", want.gm, "--day", String(want.day), join(pages, "encodings", twin),
    ); // prettier-ignore
    expect(stderr).toBe("");
    expect(status).toBe(0);
    const out = JSON.parse(stdout) as { count: string; votes: unknown[] };
    expect(out.count).toBe(want.count);
    expect(out.votes).toEqual(want.votes);
  });

  it("V1: counts posts quoted in BBCode (a phpBB multi-quote)", () => {
    const thread = temp(
      "thread.txt",
      [
        '[quote="Вася" post_id=11 time=1709391600 user_id=3]Голосую [color=red]Петя[/color][/quote]',
        '[quote="Петя" post_id=12 time=1709391660 user_id=4][quote="Вася" post_id=11]' +
          "[color=red]Петя[/color][/quote][color=blue]Маша[/color][/quote]",
      ].join("\n"),
    );
    const { status, stdout, stderr } = run("--players", PLAYERS, "--day", "1", thread);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect((JSON.parse(stdout) as { votes: unknown }).votes).toEqual([
      { by: "Вася", red: "Петя", early: false, post: 0 },
      { by: "Петя", blue: "Маша", early: false, post: 1 },
    ]);
  });
});
