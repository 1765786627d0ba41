/**
 * RULES.md §4, Voting (V1–V9), with the day's interactions: silences (V6), the M3 boss, the early close
 * (V7) under both [reading] options, and the lawyer against the prosecutor (V8).
 *
 * Every day here gives each player with the right to vote a vote, unless the test is about not voting:
 * P1 would otherwise add +2 to everyone's score.
 */
import { describe, expect, it } from "vitest";
import type { DayResultJson } from "../src/replay.ts";
import type { ReplayVote } from "../src/replay-format.ts";
import {
  NAMES,
  STANDARD,
  allRed,
  block,
  except,
  game,
  intimidate,
  kill,
  killAndIntimidate,
  mark,
  namesOf,
  pass,
  poison,
  protect,
  ring,
  shoot,
  torture,
  unprotect,
  visit,
  type Scenario,
  expectFields,
} from "./scenario.ts";

/** Seven players: one mafioso, the two weighted voters (V4), and a sheriff to shoot with. */
const SMALL =
  "Босс=boss Доктор=doctor Прокурор=prosecutor Шериф=sheriff Мирный1=citizen Мирный2=citizen Мирный3=citizen";

/** Eleven players for the lawyer (V8): no troll or elf, so the lawyer is next in the succession (M1). */
const LAW =
  "Босс=boss Адвокат=lawyer Громила=thug Шериф=sheriff Прокурор=prosecutor Девочка=girl Доктор=doctor " +
  "Мирный1=citizen Мирный2=citizen Мирный3=citizen Мирный4=citizen";

const strikesOf = (g: Scenario, name: string): number =>
  g.match.state.players.find((p) => p.name === name)!.voteStrikes;

/** The day's whole outcome must equal `want`; fields left out are at their quiet values. */
function expectDay(g: Scenario, want: Partial<DayResultJson>): void {
  const hanged = want.hanged ?? null;
  expect(g.lastDay).toEqual({
    phase: "day",
    number: g.lastDay.number,
    score: {},
    hanged,
    excused: null,
    closedEarly: false,
    penalized: [],
    uncounted: [],
    modkilled: [],
    died: hanged === null ? [] : [hanged],
    revealed: {},
    winner: null,
    ...want,
  });
}

const aliveOf = (g: Scenario, name: string): boolean =>
  g.match.state.players.find((p) => p.name === name)!.alive;

describe("V1: one coloured vote per player, the last one counts", () => {
  it("V1: only the last vote of the day counts", () => {
    const g = game(SMALL)
      .night()
      .day(
        "Мирный1>Мирный2 Мирный2>Босс Мирный3>Босс Шериф>Мирный1 Доктор>Мирный1 Прокурор+Шериф " +
          "Босс>Мирный3 Мирный1>Босс",
      );
    expectDay(g, {
      score: { Босс: 3, Мирный1: 2, Мирный3: 1, Шериф: -1 },
      hanged: "Босс",
      winner: "town",
    });
  });

  it("V1: a red vote may be changed to a blue one, and the blue one counts", () => {
    const g = game(SMALL)
      .night()
      .day(
        "Мирный1>Мирный2 Мирный2>Мирный3 Мирный3>Мирный2 Шериф>Мирный2 Доктор>Босс Прокурор+Шериф " +
          "Босс>Шериф Мирный1+Мирный2",
      );
    expectDay(g, { score: { Мирный2: 1, Мирный3: 1, Босс: 1 } });
  });

  it("V1: a vote for a dead player is refused", () => {
    const g = game(SMALL).night({ Босс: kill("Мирный3") });
    expect(g.lastNight.died).toEqual(["Мирный3"]);
    expect(g.day("Мирный1>Мирный3").error).toBe(
      "day 1: Мирный1 (citizen) may not vote for Мирный3: not alive (V1)",
    );
    expect(g.day("Доктор+Мирный3").error).toBe(
      "day 1: Доктор (doctor) may not vote for Мирный3: not alive (V1)",
    );
  });

  it("V1: a dead player's vote is refused (G7)", () => {
    const g = game(SMALL).night({ Босс: kill("Мирный3") });
    expect(g.day("Мирный3>Босс").error).toBe("day 1: Мирный3 (citizen) is dead and cannot vote (G7)");
  });

  it("V1: a vote for a player who is not in the game is refused", () => {
    expect(game(SMALL).night().day("Мирный1>Вася").error).toBe('day 1: unknown player "Вася" (V1)');
  });

  it("V1: a player who cannot vote today may still be voted for, and hanged", () => {
    const g = game(SMALL).night({ Босс: intimidate("Мирный1") });
    expect(g.lastNight.silenced).toEqual(["Мирный1"]);
    const d = g.day(
      "Мирный2>Мирный1 Мирный3>Мирный1 Шериф>Мирный1 Доктор>Босс Прокурор>Мирный2 Босс>Мирный3",
    );
    expectDay(d, { score: { Мирный1: 3, Мирный2: 2, Мирный3: 1, Босс: 1 }, hanged: "Мирный1" });
  });

  it("V1: a vote entry that is both red and blue is an error", () => {
    const both = { by: "Мирный1", red: "Босс", blue: "Шериф" } as unknown as ReplayVote;
    expect(game(SMALL).night().day([both]).error).toBe("day 1: Мирный1: votes[0] is both red and blue (V1)");
    const later = [{ by: "Мирный2", red: "Босс" }, both];
    expect(game(SMALL).night().day(later).error).toBe("day 1: Мирный1: votes[1] is both red and blue (V1)");
  });
});

describe("V2: a vote without a colour", () => {
  it("V2: a vote entry with no colour is refused", () => {
    const none = { by: "Мирный1", target: "Босс" } as unknown as ReplayVote;
    expect(game(SMALL).night().day([none]).error).toBe("day 1: Мирный1: votes[0] has no colour (V2)");
    const bare = { by: "Мирный1" } as unknown as ReplayVote;
    expect(game(SMALL).night().day([bare]).error).toBe("day 1: Мирный1: votes[0] has no colour (V2)");
  });

  it("V2: a player with no coloured vote has not voted: +2 in the score and a strike (P1)", () => {
    const g = game(SMALL)
      .night()
      .day("Мирный1>Шериф Мирный2>Босс Шериф>Мирный1 Доктор+Мирный1 Прокурор+Мирный2 Босс>Мирный2");
    expectDay(g, {
      score: { Шериф: 1, Босс: 1, Мирный1: -2, Мирный3: 2 },
      hanged: "Мирный3",
      penalized: ["Мирный3"],
    });
    expect(strikesOf(g, "Мирный3")).toBe(1);
    expect(strikesOf(g, "Мирный1")).toBe(0);
  });
});

describe("V3: no vote for oneself", () => {
  it("V3: a red vote for oneself is refused", () => {
    expect(game(SMALL).night().day("Мирный1>Мирный1").error).toBe(
      "day 1: Мирный1 (citizen) may not vote for themselves (V3)",
    );
    expect(game(SMALL).night().day("Прокурор>Прокурор").error).toBe(
      "day 1: Прокурор (prosecutor) may not vote for themselves (V3)",
    );
  });

  it("V3: a blue vote for oneself is refused", () => {
    expect(game(SMALL).night().day("Доктор+Доктор").error).toBe(
      "day 1: Доктор (doctor) may not vote for themselves (V3)",
    );
    expect(game(SMALL).night().day("Мирный1>Босс Мирный2+Мирный2").error).toBe(
      "day 1: Мирный2 (citizen) may not vote for themselves (V3)",
    );
  });

  it("V3: a self-vote is refused even when a later vote would replace it", () => {
    expect(game(SMALL).night().day("Босс>Босс Босс>Мирный1").error).toBe(
      "day 1: Босс (boss) may not vote for themselves (V3)",
    );
  });
});

describe("V4: vote weights", () => {
  it("V4: the doctor's blue vote counts 3", () => {
    const g = game(SMALL)
      .night()
      .day(
        "Мирный2>Мирный1 Мирный3>Мирный1 Шериф>Мирный1 Босс>Мирный1 Доктор+Мирный1 Прокурор+Мирный2 " +
          "Мирный1+Мирный2",
      );
    expectDay(g, { score: { Мирный1: 1, Мирный2: -2 }, hanged: "Мирный1" });
  });

  it("V4: the prosecutor's red vote counts 2, the doctor's red vote 1", () => {
    const g = game(SMALL)
      .night()
      .day(
        "Прокурор>Босс Мирный1>Мирный2 Мирный2>Мирный3 Мирный3>Мирный1 Шериф>Доктор Доктор>Шериф " +
          "Босс>Прокурор",
      );
    expectDay(g, {
      score: { Босс: 2, Мирный1: 1, Мирный2: 1, Мирный3: 1, Доктор: 1, Шериф: 1, Прокурор: 1 },
      hanged: "Босс",
      winner: "town",
    });
  });

  it("V4: the prosecutor's blue vote counts 1, the doctor's red vote 1", () => {
    const g = game(SMALL)
      .night()
      .day(
        "Доктор>Мирный1 Мирный2>Мирный1 Босс>Мирный1 Прокурор+Мирный3 Мирный1>Мирный3 Шериф>Мирный3 " +
          "Мирный3>Шериф",
      );
    expectDay(g, { score: { Мирный1: 3, Мирный3: 1, Шериф: 1 }, hanged: "Мирный1" });
  });

  it("V4: a citizen's blue vote counts 1", () => {
    const g = game(SMALL)
      .night()
      .day(
        "Мирный1>Мирный3 Мирный2>Мирный3 Мирный3+Шериф Шериф>Мирный1 Доктор>Мирный1 Прокурор+Мирный2 " +
          "Босс+Мирный1",
      );
    expectDay(g, { score: { Мирный1: 1, Мирный2: -1, Мирный3: 2, Шериф: -1 }, hanged: "Мирный3" });
  });
});

describe("V5: the score and who is hanged", () => {
  it("V5: the unique highest score above zero is hanged (R1 reveals the role with more than 10 alive)", () => {
    const g = game(STANDARD)
      .night()
      .day(allRed(NAMES, "Тролль", "Мирный1"));
    // 15 red votes at 1, the prosecutor's at 2.
    expectDay(g, { score: { Тролль: 17, Мирный1: 1 }, hanged: "Тролль", revealed: { Тролль: "troll" } });
  });

  it("V5: a top score of zero hangs nobody", () => {
    const g = game(SMALL)
      .night()
      .day(
        "Мирный1>Мирный2 Мирный3+Мирный2 Шериф>Босс Мирный2+Босс Прокурор+Мирный1 Доктор+Мирный3 " +
          "Босс>Шериф Мирный1+Шериф",
      );
    expectDay(g, { score: { Мирный1: -1, Мирный2: -1, Мирный3: -3 } });
  });

  it("V5: when every score is negative nobody is hanged", () => {
    const g = game(SMALL)
      .night()
      .day(ring(namesOf(SMALL)));
    expectDay(g, {
      score: { Босс: -1, Доктор: -1, Прокурор: -3, Шериф: -1, Мирный1: -1, Мирный2: -1, Мирный3: -1 },
    });
  });

  it("V5: a tie for the top score hangs nobody (G3)", () => {
    const g = game(SMALL)
      .night()
      .day(
        "Мирный1>Босс Мирный2>Босс Мирный3>Шериф Шериф>Мирный3 Доктор>Шериф Прокурор+Мирный1 Босс>Мирный2",
      );
    expectDay(g, { score: { Босс: 2, Шериф: 2, Мирный3: 1, Мирный2: 1, Мирный1: -1 } });
  });

  it("G3: a three-way tie hangs nobody, with a weighted vote in it", () => {
    const g = game(SMALL)
      .night()
      .day(
        "Прокурор>Босс Мирный1>Шериф Мирный2>Шериф Мирный3>Мирный1 Шериф>Мирный1 Доктор+Мирный3 Босс>Мирный2",
      );
    expectDay(g, { score: { Босс: 2, Шериф: 2, Мирный1: 2, Мирный2: 1, Мирный3: -3 } });
  });

  it("V5: a night's penalty votes (P2) count in the day's score", () => {
    const g = game(SMALL)
      .night({ Босс: pass(), Доктор: pass(), Шериф: pass() }, { autoPass: false })
      .day(
        "Мирный1>Шериф Мирный2>Мирный3 Мирный3>Босс Шериф>Мирный1 Доктор+Мирный1 Прокурор+Мирный3 " +
          "Босс>Мирный2",
      );
    expectDay(g, {
      score: { Шериф: 1, Босс: 1, Мирный1: -2, Мирный2: 1, Прокурор: 2 },
      hanged: "Прокурор",
      penalized: ["Прокурор"],
    });
  });

  it("V5: a day's penalty votes (P1) count in the day's score", () => {
    const g = game(SMALL)
      .night()
      .day("Мирный2>Босс Мирный3>Мирный1 Шериф>Мирный1 Доктор>Босс Прокурор+Шериф Босс>Мирный2");
    expectDay(g, {
      score: { Босс: 2, Мирный1: 4, Мирный2: 1, Шериф: -1 },
      hanged: "Мирный1",
      penalized: ["Мирный1"],
    });
  });
});

describe("V6: players who lost the vote", () => {
  it("V6: an intimidated player's vote is refused; not voting is not penalised", () => {
    const g = game(STANDARD).night({ Босс: intimidate("Мирный1") });
    expect(g.lastNight.silenced).toEqual(["Мирный1"]);
    expect(g.day("Мирный1>Босс").error).toBe("day 1: Мирный1 (citizen) cannot vote today (V6)");
    const d = g.day(ring(except(NAMES, "Мирный1")));
    expectFields(d.lastDay, { hanged: null, penalized: [], uncounted: [] });
    expect(strikesOf(d, "Мирный1")).toBe(0);
    // For that day only.
    const next = d.night();
    expect(next.lastNight.silenced).toEqual([]);
    expect(next.day(ring(NAMES)).lastDay.penalized).toEqual([]);
  });

  it("V6: the girl's visit silences when its roll says so, for one day", () => {
    const g = game(STANDARD).night({ Девочка: visit("Мирный1") }, { rolls: { girlSilence: true } });
    expect(g.lastNight.silenced).toEqual(["Мирный1"]);
    expect(g.day("Мирный2>Мирный1 Мирный1>Мирный2").error).toBe(
      "day 1: Мирный1 (citizen) cannot vote today (V6)",
    );
    const d = g.day(ring(except(NAMES, "Мирный1")));
    expect(d.lastDay.penalized).toEqual([]);
    expect(strikesOf(d, "Мирный1")).toBe(0);
    const n2 = d.night();
    expect(n2.lastNight.silenced).toEqual([]);
    expect(n2.day(ring(NAMES)).lastDay.penalized).toEqual([]);
  });

  it("V6: the girl's visit leaves the vote when its roll says so", () => {
    const g = game(STANDARD).night({ Девочка: visit("Мирный1") }, { rolls: { girlSilence: false } });
    expect(g.lastNight.silenced).toEqual([]);
    expect(g.day(ring(NAMES)).lastDay.penalized).toEqual([]);
    // Not voting is then penalised as usual (P1).
    expect(g.day(ring(except(NAMES, "Мирный1"))).lastDay.penalized).toEqual(["Мирный1"]);
  });

  it("V6: the thug's block silences when its roll says so", () => {
    const g = game(STANDARD).night({ Громила: block("Мирный1") }, { rolls: { thugSilence: true } });
    expect(g.lastNight.silenced).toEqual(["Мирный1"]);
    expect(g.day("Мирный1+Мирный2").error).toBe("day 1: Мирный1 (citizen) cannot vote today (V6)");
    expect(g.day(ring(except(NAMES, "Мирный1"))).lastDay.penalized).toEqual([]);
    const h = game(STANDARD).night({ Громила: block("Мирный1") }, { rolls: { thugSilence: false } });
    expect(h.lastNight.silenced).toEqual([]);
    expect(h.day(ring(NAMES)).lastDay.penalized).toEqual([]);
  });

  it("V6: a tortured player cannot vote on the next two days, then may vote again", () => {
    const g = game(STANDARD).night({ Маньяк: torture("Мирный1") }, { rolls: { tortureEvidence: false } });
    expect(g.lastNight.silenced).toEqual(["Мирный1"]);
    expect(g.day("Мирный1>Маньяк").error).toBe("day 1: Мирный1 (citizen) cannot vote today (V6)");
    const d1 = g.day(ring(except(NAMES, "Мирный1")));
    expect(d1.lastDay.penalized).toEqual([]);
    const n2 = d1.night();
    expect(n2.lastNight.silenced).toEqual(["Мирный1"]);
    expect(n2.day("Мирный1>Маньяк").error).toBe("day 2: Мирный1 (citizen) cannot vote today (V6)");
    const d2 = n2.day(ring(except(NAMES, "Мирный1")));
    expect(d2.lastDay.penalized).toEqual([]);
    expect(strikesOf(d2, "Мирный1")).toBe(0);
    const n3 = d2.night();
    expect(n3.lastNight.silenced).toEqual([]);
    expect(n3.day(ring(NAMES)).lastDay.penalized).toEqual([]);
  });

  it("V6: a poisoned player cannot vote on the next two days, then may vote again", () => {
    const g = game(STANDARD).night({ Доктор: poison("Мирный1") });
    expect(g.lastNight.silenced).toEqual(["Мирный1"]);
    expect(g.day("Мирный1>Босс").error).toBe("day 1: Мирный1 (citizen) cannot vote today (V6)");
    const d1 = g.day(ring(except(NAMES, "Мирный1")));
    expect(d1.lastDay.penalized).toEqual([]);
    const n2 = d1.night();
    expect(n2.lastNight.silenced).toEqual(["Мирный1"]);
    expect(n2.day("Мирный1+Мирный2").error).toBe("day 2: Мирный1 (citizen) cannot vote today (V6)");
    const d2 = n2.day(ring(except(NAMES, "Мирный1")));
    expect(d2.lastDay.penalized).toEqual([]);
    expect(strikesOf(d2, "Мирный1")).toBe(0);
    const n3 = d2.night();
    expect(n3.lastNight.silenced).toEqual([]);
    expect(n3.day(ring(NAMES)).lastDay.penalized).toEqual([]);
  });

  it("V6: after a double kill the boss's vote is accepted but not counted (M3)", () => {
    const g = game(SMALL).night({ Босс: kill("Мирный1", "Мирный2") }, { rolls: { bossExposed: false } });
    expect(g.lastNight.died).toEqual(["Мирный1", "Мирный2"]);
    const d = g.day("Босс>Мирный3 Мирный3>Шериф Шериф>Мирный3 Доктор>Шериф Прокурор+Шериф");
    // Counted, the boss's vote would hang Мирный3 (2 against 1).
    expectDay(d, { score: { Мирный3: 1, Шериф: 1 }, uncounted: ["Босс"] });
    expect(strikesOf(d, "Босс")).toBe(0);
  });

  it("V6: after a kill and an intimidation the boss's vote is accepted but not counted (M3)", () => {
    const g = game(SMALL).night(
      { Босс: killAndIntimidate("Мирный1", "Мирный2") },
      { rolls: { bossExposed: false } },
    );
    expectFields(g.lastNight, { died: ["Мирный1"], silenced: ["Мирный2"] });
    const d = g.day("Босс>Мирный3 Мирный3>Шериф Шериф>Мирный3 Доктор>Шериф Прокурор+Шериф");
    expectDay(d, { score: { Мирный3: 1, Шериф: 1 }, uncounted: ["Босс"] });
  });

  it("V6: the M3 boss's blue vote is not counted either", () => {
    const g = game(SMALL).night({ Босс: kill("Мирный1", "Мирный2") }, { rolls: { bossExposed: false } });
    const d = g.day("Босс+Мирный3 Мирный3>Шериф Шериф>Мирный3 Доктор>Мирный3 Прокурор+Шериф");
    expectDay(d, { score: { Мирный3: 2 }, hanged: "Мирный3", uncounted: ["Босс"] });
  });

  it("V6: a double kill cancelled by the girl leaves the boss's vote counted", () => {
    const g = game(`${SMALL} Девочка=girl`).night(
      { Девочка: visit("Босс"), Босс: kill("Мирный1", "Мирный2") },
      { rolls: { girlSilence: false } },
    );
    expect(g.lastNight.died).toEqual([]);
    const d = g.day(
      "Босс>Мирный3 Мирный3>Шериф Шериф>Мирный3 Доктор>Шериф Прокурор+Шериф Девочка>Мирный1 " +
        "Мирный1+Мирный2 Мирный2+Мирный1",
    );
    expectDay(d, { score: { Мирный3: 2, Шериф: 1, Мирный2: -1 }, hanged: "Мирный3" });
  });

  it("V6: intimidating half of those alive at night start makes the boss's vote uncounted (M3)", () => {
    const g = game("Босс=boss Мирный1=citizen Мирный2=citizen Мирный3=citizen").night({
      Босс: intimidate("Мирный1", "Мирный2"),
    });
    expect(g.lastNight.silenced).toEqual(["Мирный1", "Мирный2"]);
    expect(g.day("Мирный2>Босс").error).toBe("day 1: Мирный2 (citizen) cannot vote today (V6)");
    // Counted, the boss's vote would make a tie.
    const d = g.day("Босс>Мирный3 Мирный3>Босс");
    expectDay(d, { score: { Босс: 1 }, hanged: "Босс", uncounted: ["Босс"], winner: "town" });
  });

  it("V6: intimidating fewer than half of those alive at night start leaves the boss's vote counted", () => {
    const g = game("Босс=boss Мирный1=citizen Мирный2=citizen Мирный3=citizen Мирный4=citizen").night({
      Босс: intimidate("Мирный1", "Мирный2"),
    });
    expect(g.lastNight.silenced).toEqual(["Мирный1", "Мирный2"]);
    const d = g.day("Босс>Мирный3 Мирный3>Мирный4 Мирный4>Мирный3");
    expectDay(d, { score: { Мирный3: 2, Мирный4: 1 }, hanged: "Мирный3" });
  });
});

describe("V7: early close", () => {
  const ALL7 = namesOf(SMALL);
  const OPTIONS = ["majority", "all"] as const;
  /** SMALL after two calm days, at the start of night 3. */
  const toNight3 = (earlyClose: (typeof OPTIONS)[number]): Scenario =>
    game(SMALL, { options: { earlyClose } }).night().day(ring(ALL7)).night().day(ring(ALL7));

  for (const earlyClose of OPTIONS) {
    it(`V7: before day 3 "early" has no effect, and an early vote may be changed (${earlyClose})`, () => {
      const votes =
        "Мирный1>Босс! Мирный2>Босс! Мирный3>Босс! Шериф>Босс! Доктор>Шериф! Прокурор>Шериф! Босс>Мирный1! " +
        "Мирный1>Шериф Мирный2>Шериф";
      const want = { score: { Босс: 2, Шериф: 5, Мирный1: 1 }, hanged: "Шериф" };
      const d1 = game(SMALL, { options: { earlyClose } }).night().day(votes);
      expectDay(d1, { number: 1, ...want });
      const d2 = game(SMALL, { options: { earlyClose } }).night().day(ring(ALL7)).night().day(votes);
      expectDay(d2, { number: 2, ...want });
    });

    it(`V7: from day 3 an early vote cannot be changed (${earlyClose})`, () => {
      const n3 = toNight3(earlyClose).night();
      expect(n3.day("Мирный1>Босс! Мирный1>Шериф").error).toBe(
        "day 3: Мирный1 (citizen) has voted early and may not change the vote (V7)",
      );
      expect(n3.day("Мирный1>Босс! Мирный1>Босс!").error).toBe(
        "day 3: Мирный1 (citizen) has voted early and may not change the vote (V7)",
      );
      expect(n3.day("Доктор+Мирный1! Доктор+Мирный2").error).toBe(
        "day 3: Доктор (doctor) has voted early and may not change the vote (V7)",
      );
    });

    it(`V7: from day 3 an ordinary vote may still be changed, to an early one too (${earlyClose})`, () => {
      const d = toNight3(earlyClose)
        .night()
        .day(
          "Мирный1>Шериф Мирный1>Босс! Мирный2>Босс Мирный3>Шериф Шериф>Мирный3 Доктор>Мирный3 " +
            "Прокурор>Мирный3 Босс>Мирный3 Мирный2>Мирный3",
        );
      expectDay(d, { number: 3, score: { Мирный3: 6, Босс: 1, Шериф: 1 }, hanged: "Мирный3" });
    });
  }

  it("V7: majority: the day closes when more than half vote early, and later votes are ignored", () => {
    const d = toNight3("majority")
      .night()
      .day(
        "Мирный1>Босс Мирный2>Босс Мирный3>Шериф Шериф>Босс! Доктор>Мирный3! Прокурор+Мирный1! " +
          "Босс>Мирный3! Мирный1>Мирный3 Мирный2>Мирный3",
      );
    expectDay(d, {
      number: 3,
      score: { Босс: 3, Мирный3: 2, Шериф: 1, Мирный1: -1 },
      hanged: "Босс",
      closedEarly: true,
      winner: "town",
    });
  });

  it("V7: all: the same 4 early votes out of 7 do not close the day", () => {
    const d = toNight3("all")
      .night()
      .day(
        "Мирный1>Босс Мирный2>Босс Мирный3>Шериф Шериф>Босс! Доктор>Мирный3! Прокурор+Мирный1! " +
          "Босс>Мирный3! Мирный1>Мирный3 Мирный2>Мирный3",
      );
    expectDay(d, { score: { Босс: 1, Мирный3: 4, Шериф: 1, Мирный1: -1 }, hanged: "Мирный3" });
  });

  it("V7: majority: the 4th early vote of 7 closes the day; who had not voted then is penalised (P1)", () => {
    const d = toNight3("majority")
      .night()
      .day(
        "Мирный1>Босс! Мирный2>Босс! Мирный3>Босс! Шериф>Босс! Доктор>Мирный3! Прокурор+Мирный1! " +
          "Босс>Мирный3! Мирный2>Мирный3",
      );
    expectDay(d, {
      score: { Босс: 6, Доктор: 2, Прокурор: 2 },
      hanged: "Босс",
      closedEarly: true,
      penalized: ["Босс", "Доктор", "Прокурор"],
      winner: "town",
    });
    expect(strikesOf(d, "Доктор")).toBe(1);
    expect(strikesOf(d, "Мирный1")).toBe(0);
  });

  it("V7: majority: early votes by exactly half do not close the day", () => {
    const n3 = toNight3("majority").night({ Босс: intimidate("Мирный1") });
    expect(n3.lastNight.silenced).toEqual(["Мирный1"]);
    // 6 may vote: 3 early votes leave the day open, the 4th closes it.
    const d = n3.day(
      "Мирный2>Босс! Мирный3>Босс! Шериф>Босс! Доктор>Мирный3 Прокурор+Мирный2 Босс>Мирный3 " +
        "Доктор>Шериф! Мирный2>Шериф",
    );
    expectDay(d, {
      score: { Босс: 3, Мирный3: 1, Шериф: 1, Мирный2: -1 },
      hanged: "Босс",
      closedEarly: true,
      winner: "town",
    });
  });

  it("V7: all: the day closes when every voter has voted early, and later votes are ignored", () => {
    const d = toNight3("all")
      .night()
      .day(
        "Мирный1>Босс! Мирный2>Босс! Мирный3>Босс! Шериф>Босс! Доктор>Мирный3! Прокурор+Мирный1! " +
          "Босс>Мирный3! Мирный2>Мирный3",
      );
    expectDay(d, {
      score: { Босс: 4, Мирный3: 2, Мирный1: -1 },
      hanged: "Босс",
      closedEarly: true,
      winner: "town",
    });
  });

  it("V7: majority: silenced players are not counted among those with the right to vote", () => {
    const n3 = toNight3("majority").night({ Босс: intimidate("Мирный1", "Мирный2") });
    expect(n3.lastNight.silenced).toEqual(["Мирный1", "Мирный2"]);
    // 5 may vote: 3 early votes close the day (out of 7 they would not).
    const d = n3.day("Мирный3>Босс Прокурор>Босс Шериф>Босс! Доктор+Шериф! Босс>Мирный3! Мирный3>Шериф");
    expectDay(d, {
      score: { Босс: 4, Шериф: -3, Мирный3: 1 },
      hanged: "Босс",
      closedEarly: true,
      winner: "town",
    });
  });

  it("V7: all: silenced players are not counted among those with the right to vote", () => {
    const n3 = toNight3("all").night({ Босс: intimidate("Мирный1", "Мирный2") });
    const d = n3.day("Мирный3>Босс! Прокурор>Босс! Шериф>Босс! Доктор+Шериф! Босс>Мирный3! Прокурор>Шериф");
    expectDay(d, {
      score: { Босс: 4, Шериф: -3, Мирный3: 1 },
      hanged: "Босс",
      closedEarly: true,
      winner: "town",
    });
  });

  it("V7: majority: the M3 boss's early vote counts toward the close, and his vote stays uncounted", () => {
    const n3 = toNight3("majority").night(
      { Босс: killAndIntimidate("Мирный1", "Мирный2") },
      { rolls: { bossExposed: false } },
    );
    expectFields(n3.lastNight, { died: ["Мирный1"], silenced: ["Мирный2"] });
    // 5 may vote, the boss among them: his early vote is the third.
    const d = n3.day("Мирный3>Босс Прокурор>Босс Шериф>Босс! Доктор+Шериф! Босс>Мирный3! Мирный3>Шериф");
    expectDay(d, {
      score: { Босс: 4, Шериф: -3 },
      hanged: "Босс",
      closedEarly: true,
      uncounted: ["Босс"],
      winner: "town",
    });
  });

  it("V7: all: the M3 boss's early vote counts toward the close", () => {
    const n3 = toNight3("all").night(
      { Босс: killAndIntimidate("Мирный1", "Мирный2") },
      { rolls: { bossExposed: false } },
    );
    const early = "Мирный3>Босс! Прокурор>Босс! Шериф>Босс! Доктор+Шериф!";
    const d = n3.day(`${early} Босс>Мирный3! Прокурор>Шериф`);
    expectDay(d, {
      score: { Босс: 4, Шериф: -3 },
      hanged: "Босс",
      closedEarly: true,
      uncounted: ["Босс"],
      winner: "town",
    });
    // With an ordinary vote by the boss the day stays open, so the prosecutor's change is refused.
    expect(n3.day(`${early} Босс>Мирный3 Прокурор>Шериф`).error).toBe(
      "day 3: Прокурор (prosecutor) has voted early and may not change the vote (V7)",
    );
  });
});

describe("V8: the lawyer and the prosecutor", () => {
  const NAMES = namesOf(LAW);
  /** Everyone alive votes red for Мирный1 (11 with the prosecutor's 2, or 10 with one dead). */
  const hangMirny1 = (g: Scenario, ...dead: string[]): Scenario =>
    g.day(allRed(except(NAMES, ...dead), "Мирный1", "Мирный2"));
  const SCORE = { Мирный1: 11, Мирный2: 1 };

  it("V8: the lawyer's protect excuses the player who would be hanged", () => {
    const d = hangMirny1(game(LAW).night({ Адвокат: protect("Мирный1") }));
    expectDay(d, { score: SCORE, excused: "Мирный1" });
  });

  it("V8: the prosecutor's unprotect on the same player voids the protect", () => {
    const d = hangMirny1(game(LAW).night({ Адвокат: protect("Мирный1"), Прокурор: unprotect("Мирный1") }));
    expectDay(d, { score: SCORE, hanged: "Мирный1", revealed: { Мирный1: "citizen" } });
  });

  it("V8: the prosecutor's unprotect on another player leaves the protect", () => {
    const d = hangMirny1(game(LAW).night({ Адвокат: protect("Мирный1"), Прокурор: unprotect("Мирный2") }));
    expectDay(d, { score: SCORE, excused: "Мирный1" });
  });

  it("V8: an unprotect with no protect does nothing", () => {
    const d = hangMirny1(game(LAW).night({ Адвокат: pass(), Прокурор: unprotect("Мирный1") }));
    expectDay(d, { score: SCORE, hanged: "Мирный1", revealed: { Мирный1: "citizen" } });
  });

  it("V8: a protect on someone else does not save the hanged player", () => {
    const d = hangMirny1(game(LAW).night({ Адвокат: protect("Мирный2") }));
    expectDay(d, { score: SCORE, hanged: "Мирный1", revealed: { Мирный1: "citizen" } });
  });

  it("V8: a tie hangs nobody, so nobody is excused", () => {
    const d = game(LAW)
      .night({ Адвокат: protect("Мирный1") })
      .day(
        "Босс>Мирный1 Адвокат>Мирный1 Громила>Мирный1 Шериф>Мирный2 Прокурор>Мирный2 Девочка+Мирный3 " +
          "Доктор>Мирный1 Мирный1>Мирный2 Мирный2>Мирный3 Мирный3+Мирный4 Мирный4+Мирный3",
      );
    expectDay(d, { score: { Мирный1: 4, Мирный2: 4, Мирный3: -1, Мирный4: -1 } });
  });

  it("V8: a lawyer blocked by the girl protects nobody", () => {
    const g = game(LAW).night(
      { Девочка: visit("Адвокат"), Адвокат: protect("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expectDay(hangMirny1(g), { score: SCORE, hanged: "Мирный1", revealed: { Мирный1: "citizen" } });
  });

  it("V8: a lawyer blocked by the thug protects nobody", () => {
    const g = game(LAW).night(
      { Громила: block("Адвокат"), Адвокат: protect("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expectDay(hangMirny1(g), { score: SCORE, hanged: "Мирный1", revealed: { Мирный1: "citizen" } });
  });

  it("V8: a prosecutor blocked by the girl does not void the protect", () => {
    const g = game(LAW).night(
      { Девочка: visit("Прокурор"), Адвокат: protect("Мирный1"), Прокурор: unprotect("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expectDay(hangMirny1(g), { score: SCORE, excused: "Мирный1" });
  });

  it("V8: a prosecutor blocked by the thug does not void the protect", () => {
    const g = game(LAW).night(
      { Громила: block("Прокурор"), Адвокат: protect("Мирный1"), Прокурор: unprotect("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expectDay(hangMirny1(g), { score: SCORE, excused: "Мирный1" });
  });

  it("V8: a lawyer killed that night still protects (M5)", () => {
    const g = game(LAW).night({ Шериф: shoot("Адвокат"), Адвокат: protect("Мирный1") });
    expectFields(g.lastNight, { died: ["Адвокат"], revealed: { Адвокат: "lawyer" } });
    expectDay(hangMirny1(g, "Адвокат"), { score: { Мирный1: 10, Мирный2: 1 }, excused: "Мирный1" });
  });

  it("V8: a lawyer who becomes boss that night still protects for that day (M5)", () => {
    const g = game(LAW).night({ Шериф: shoot("Босс"), Адвокат: protect("Мирный1") });
    expect(g.lastNight.died).toEqual(["Босс"]);
    expectDay(hangMirny1(g, "Босс"), { score: { Мирный1: 10, Мирный2: 1 }, excused: "Мирный1" });
  });

  it("M5: a lawyer who became boss loses the protect from the next night", () => {
    const d = hangMirny1(game(LAW).night({ Шериф: shoot("Босс"), Адвокат: protect("Мирный1") }), "Босс");
    expect(d.match.state.boss).toBe(1);
    expect(d.night({ Адвокат: protect("Мирный1") }).error).toBe(
      "night 2: Адвокат (lawyer) is the boss and has lost the protect (M5)",
    );
    expect(d.night({ Адвокат: protect("Мирный2") }).error).toBe(
      "night 2: Адвокат (lawyer) is the boss and has lost the protect (M5)",
    );
    // No protect is left, so nobody is excused on day 2 (9 alive: no reveal, R1).
    const d2 = hangMirny1(d.night({ Адвокат: kill("Мирный4") }), "Босс", "Мирный4");
    expectDay(d2, { score: { Мирный1: 9, Мирный2: 1 }, hanged: "Мирный1" });
  });

  it("V8: the lawyer may protect himself", () => {
    const d = game(LAW)
      .night({ Адвокат: protect("Адвокат") })
      .day(allRed(NAMES, "Адвокат", "Мирный1"));
    expectDay(d, { score: { Адвокат: 11, Мирный1: 1 }, excused: "Адвокат" });
  });

  it("V8: the protect holds for the following day only", () => {
    const g = game(LAW)
      .night({ Адвокат: protect("Мирный1") })
      .day(ring(NAMES))
      .night({ Адвокат: protect("Мирный2") });
    expectDay(hangMirny1(g), { score: SCORE, hanged: "Мирный1", revealed: { Мирный1: "citizen" } });
  });
});

describe("V9: the shahid hanged", () => {
  it("V9: hanging the shahid does not trigger the mark", () => {
    const g = game(STANDARD).night({ Шахид: mark("Мирный1") });
    const d = g.day(allRed(NAMES, "Шахид", "Босс"));
    expectDay(d, { score: { Шахид: 17, Босс: 1 }, hanged: "Шахид", revealed: { Шахид: "shahid" } });
    expect(aliveOf(d, "Мирный1")).toBe(true);
    expect(d.night().lastNight.died).toEqual([]);
  });
});
