/**
 * The results writer of issue 6: `npm run --silent results -- GAME.json [en]` replays a REPLAY.md file and
 * prints the BBCode forum post of its last finished phase, worded as the server words it (A1–A3). Most
 * cases call resultsPost directly; the command itself is spawned a few times (about a second each).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  dayAnnouncement,
  nightAnnouncement,
  ReplayError,
  replayMatch,
  resultsPost,
  type DayOutcome,
  type NightOutcome,
} from "../src/index.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const golden = "packages/engine/test/golden";

type ReplayFile = Record<string, unknown> & { phases: Record<string, unknown>[] };
const load = (name: string): ReplayFile =>
  JSON.parse(readFileSync(join(root, golden, `${name}.json`), "utf8")) as ReplayFile;
/** The file cut after its first `count` phases. */
const upTo = (file: ReplayFile, count: number): ReplayFile => ({
  ...file,
  phases: file.phases.slice(0, count),
});

const NIGHT_1_RU = [
  "[b]Итоги ночи 1[/b]",
  "Погиб игрок Аня. Роль: Мирный житель.",
  "Сегодня Айболит лишен возможности голосовать",
  "Сегодня Джокер лишен возможности голосовать",
  "",
  "[b]Лично: Шериф Ковбой, Сержант Пуля[/b]",
  "Проверка: Волк — мафия.",
].join("\n");

const tmp = mkdtempSync(join(tmpdir(), "forum-mafia-results-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the results post (issue 6)", () => {
  it("A1: after a night, the bold title and the A1 lines in order, as nightAnnouncement gives them", () => {
    const m = replayMatch(load("draw"));
    expect(resultsPost(m, "ru")).toBe(
      [
        "[b]Итоги ночи 2[/b]",
        "Погиб игрок Ася.",
        "Погиб игрок Барон.",
        "Погиб игрок Коп.",
        "Погиб игрок Псих.",
        "Погиб игрок Смертник.",
        "Ничья: в городе не осталось живых.",
      ].join("\n"),
    );
    const { outcome, players } = m.outcomes[m.outcomes.length - 1]!;
    const a = nightAnnouncement(outcome as NightOutcome, players, "ru");
    expect(resultsPost(m, "ru")).toBe([`[b]${a.title}[/b]`, ...a.lines].join("\n"));
  });

  it("A1: exposures and lost votes are written with the server's wording", () => {
    const post = resultsPost(replayMatch(upTo(load("full-game-town"), 5)), "ru");
    expect(post).toBe(
      [
        "[b]Итоги ночи 3[/b]",
        "Погиб игрок Пуля. Роль: Сержант.",
        "Мафия оставила улики: босс мафии — Тень.",
        "Сегодня Neo лишен возможности голосовать",
        "Сегодня Юрист лишен возможности голосовать",
      ].join("\n"),
    );
  });

  it("A2: the check goes under a header naming the sheriff and the sergeant, after the public lines", () => {
    expect(resultsPost(replayMatch(upTo(load("full-game-town"), 1)), "ru")).toBe(NIGHT_1_RU);
  });

  it("A2: the council's answer goes under a header naming every living mafia member", () => {
    const file = load("error-council-unanswered");
    const answered = { ...file, phases: [{ ...file.phases[0], council: "yes" }] };
    expect(resultsPost(replayMatch(answered), "ru")).toBe(
      [
        "[b]Итоги ночи 1[/b]",
        "Этой ночью никто не погиб.",
        "",
        "[b]Лично: Босс мафии Вася[/b]",
        "Совет ответил: да.",
      ].join("\n"),
    );
  });

  it("A2: a private result with nobody alive to read it is left out", () => {
    // Night 3 of the town's game: the sergeant checks and dies, and the sheriff is already dead.
    const post = resultsPost(replayMatch(upTo(load("full-game-town"), 5)), "ru")!;
    expect(post).not.toContain("Лично");
    expect(post).not.toContain("Проверка");
  });

  it("A2: in English, the header and the texts are the English ones", () => {
    expect(resultsPost(replayMatch(upTo(load("full-game-town"), 1)), "en")).toBe(
      [
        "[b]Night 1 results[/b]",
        "Player Аня died. Role: Citizen.",
        "Today Айболит cannot vote",
        "Today Джокер cannot vote",
        "",
        "[b]Privately to: Sheriff Ковбой, Sergeant Пуля[/b]",
        "Check: Волк is mafia.",
      ].join("\n"),
    );
  });

  it("A3: after a day, the bold title and the A3 lines, as dayAnnouncement gives them", () => {
    const m = replayMatch(load("full-game-town"));
    expect(resultsPost(m, "ru")).toBe(
      ["[b]Итоги дня 5[/b]", "По итогам голосования казнён игрок Джокер.", "Победа города!"].join("\n"),
    );
    const { outcome, players } = m.outcomes[m.outcomes.length - 1]!;
    const a = dayAnnouncement(outcome as DayOutcome, players, "en");
    expect(resultsPost(m, "en")).toBe([`[b]${a.title}[/b]`, ...a.lines].join("\n"));
  });

  it("A3: the lawyer's excuse (V8) is the last day's post", () => {
    const post = resultsPost(replayMatch(load("lawyer-excused")), "ru")!;
    expect(post.startsWith("[b]Итоги дня 3[/b]\n")).toBe(true);
  });

  it("A1: names are written as they are, with no HTML added", () => {
    const file = load("error-council-unanswered");
    const players = (file.players as { name: string; role: string }[]).map((p) =>
      p.name === "Оля" ? { ...p, name: "<b>Оля & Co</b>" } : p,
    );
    const phases = [
      {
        night: 1,
        actions: [
          { by: "Вася", act: "mafia", kill: ["<b>Оля & Co</b>"] },
          { by: "Петя", act: "pass" },
          { by: "Коля", act: "pass" },
        ],
        rolls: { bossExposed: false },
      },
    ];
    const post = resultsPost(replayMatch({ ...file, players, phases }), "ru")!;
    expect(post).toBe("[b]Итоги ночи 1[/b]\nПогиб игрок <b>Оля & Co</b>.");
    expect(post).not.toMatch(/&amp;|&lt;/);
  });

  it("G1: a file with no finished phase has no post", () => {
    expect(resultsPost(replayMatch(upTo(load("draw"), 0)), "ru")).toBeNull();
  });

  it.each([
    ["S3", "error-duplicate-name"],
    ["T4", "error-repeat-visit"],
    ["M2c", "error-council-unanswered"],
  ])("%s: a refused file throws the replay command's ReplayError (%s)", (_clause, name) => {
    const expected = readFileSync(join(root, golden, `${name}.err.txt`), "utf8").trim();
    expect(() => resultsPost(replayMatch(load(name)), "ru")).toThrow(ReplayError);
    expect(() => resultsPost(replayMatch(load(name)), "ru")).toThrow(expected);
  });
});

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function results(...args: string[]): Run {
  const r = spawnSync("npm", ["run", "--silent", "results", "--", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false" },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A refused file: exit 1, nothing on stdout, exactly one line on stderr; returns that line. */
function refused(run: Run): string {
  expect(run.status).toBe(1);
  expect(run.stdout).toBe("");
  const lines = run.stderr.split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe("");
  return lines[0]!;
}

describe("the results command (issue 6)", () => {
  it("A2: prints the last night's post with its private results and exits 0", () => {
    const file = join(tmp, "night-1.json");
    writeFileSync(file, JSON.stringify(upTo(load("full-game-town"), 1)));
    const run = results(file);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${NIGHT_1_RU}\n`);
  });

  it("A3: prints the last day's post in English when asked", () => {
    const run = results(`${golden}/full-game-town.json`, "en");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("[b]Day 5 results[/b]\nPlayer Джокер was hanged by the vote.\nThe town wins!\n");
  });

  it("T4: an illegal action gives the replay command's error line and exit 1", () => {
    const line = refused(results(`${golden}/error-repeat-visit.json`));
    expect(`${line}\n`).toBe(readFileSync(join(root, golden, "error-repeat-visit.err.txt"), "utf8"));
  });

  it("G1: a file with no finished phase gives one line on stderr and exit 1", () => {
    const file = join(tmp, "empty.json");
    writeFileSync(file, JSON.stringify(upTo(load("draw"), 0)));
    expect(refused(results(file))).toBe("file: no finished phase to report (REPLAY.md)");
  });
});
