// S3's thresholds, each at its edges (issue 17): the clause that reads a threshold does what RULES.md says
// at the number on either side of it. The defaults (10, 10, 15, 3, day 3) are tested clause by clause in
// the other files; here each threshold is moved, and the expected outcomes are worked out by hand.
import { describe, expect, it } from "vitest";
import {
  CITIZENS,
  allRed,
  namesOf,
  STANDARD,
  TEN,
  expectFields,
  game,
  healFrom,
  heal,
  intimidate,
  kill,
  quietDay,
  replayError,
  serum,
  without,
  NO_ROLLS,
  type Act,
  type Scenario,
} from "./scenario.ts";
import type { GameOptions } from "../src/index.ts";

/** 11 players: no citizens, no troll. */
const L11 = without(STANDARD, ...CITIZENS, "Тролль");
/** 15 players. */
const FIFTEEN = without(STANDARD, "Мирный1", "Мирный2");
const FOUR = "Босс=boss Мирный1=citizen Мирный2=citizen Мирный3=citizen";
const SEVEN =
  "Босс=boss Доктор=doctor Прокурор=prosecutor Шериф=sheriff Мирный1=citizen Мирный2=citizen Мирный3=citizen";

const twoNights = (
  lineup: string,
  options: Partial<GameOptions>,
  first: Record<string, Act>,
  second: Record<string, Act>,
): Scenario =>
  quietDay(game(lineup, { options }).night(first, { rolls: NO_ROLLS })).night(second, { rolls: NO_ROLLS });

describe("S3: revealAbove", () => {
  it("S3, R1: with 11 alive a night's death is revealed at revealAbove 10, and not at 11", () => {
    const at10 = game(L11, { options: { revealAbove: 10 } }).night({ Босс: kill("Прокурор") });
    expectFields(at10.lastNight, { died: ["Прокурор"], revealed: { Прокурор: "prosecutor" } });
    const at11 = game(L11, { options: { revealAbove: 11 } }).night({ Босс: kill("Прокурор") });
    expectFields(at11.lastNight, { died: ["Прокурор"], revealed: {} });
  });

  it("S3, R1: with 10 alive a death is revealed at revealAbove 9, and not at 10", () => {
    const at9 = game(TEN, { options: { revealAbove: 9 } }).night({ Босс: kill("Девочка") });
    expectFields(at9.lastNight, { died: ["Девочка"], revealed: { Девочка: "girl" } });
    const at10 = game(TEN, { options: { revealAbove: 10 } }).night({ Босс: kill("Девочка") });
    expectFields(at10.lastNight, { died: ["Девочка"], revealed: {} });
  });

  it("S3, R1: a hanging with 11 alive at the day's start is revealed at revealAbove 10, and not at 11", () => {
    const hang = (revealAbove: number) =>
      game(L11, { options: { revealAbove } })
        .night()
        .day(allRed(namesOf(L11), "Прокурор", "Босс")).lastDay;
    expectFields(hang(10), { hanged: "Прокурор", revealed: { Прокурор: "prosecutor" } });
    expectFields(hang(11), { hanged: "Прокурор", revealed: {} });
  });

  it("S3, T3c: with 11 alive heal-from-role is open at revealAbove 10, refused at 11 naming the number", () => {
    const open = game(L11, { options: { revealAbove: 10 } }).night({
      Босс: kill("Прокурор"),
      Доктор: healFrom("mafia"),
    });
    expectFields(open.lastNight, { died: [] });
    expect(game(L11, { options: { revealAbove: 11 } }).night({ Доктор: healFrom("mafia") }).error).toBe(
      "night 1: Доктор (doctor) may not heal from a role: it needs both mafia and maniac alive and more than 11 players (T3c)",
    );
  });
});

describe("S3: threeIntimidationsFrom", () => {
  it("S3, M2b: with 10 alive three intimidations are allowed at 10 and refused at 11", () => {
    const three = intimidate("Шериф", "Сержант", "Доктор");
    const at10 = game(TEN, { options: { threeIntimidationsFrom: 10 } }).night({ Босс: three });
    expectFields(at10.lastNight, { died: [], silenced: ["Доктор", "Сержант", "Шериф"] });
    expect(game(TEN, { options: { threeIntimidationsFrom: 11 } }).night({ Босс: three }).error).toBe(
      "night 1: Босс (boss): at most 2 players may be intimidated when fewer than 11 are alive (M2b)",
    );
  });
});

describe("S3: serumRepeatBelow", () => {
  it("S3, T3a: with 15 alive a second serum in a row is allowed at 15 and refused at 16", () => {
    const at15 = twoNights(
      FIFTEEN,
      { serumRepeatBelow: 15 },
      { Доктор: serum("Маньяк") },
      { Доктор: serum("Тролль") },
    );
    expect(at15.lastNight.revealed).toEqual({ Тролль: "troll" });
    const at16 = twoNights(
      FIFTEEN,
      { serumRepeatBelow: 16 },
      { Доктор: serum("Маньяк") },
      { Доктор: serum("Тролль") },
    );
    expect(at16.error).toBe(
      "night 2: Доктор (doctor) may not use serum two nights in a row when fewer than 16 are alive (T3a)",
    );
  });
});

describe("S3: lapseAt", () => {
  it("S3, M2: with 4 alive the boss may kill two at lapseAt 3, and not at lapseAt 4", () => {
    const two = game(FOUR, { options: { lapseAt: 3 } }).night(
      { Босс: kill("Мирный1", "Мирный2") },
      { rolls: { bossExposed: false } },
    );
    expectFields(two.lastNight, { died: ["Мирный1", "Мирный2"] });
    expect(game(FOUR, { options: { lapseAt: 4 } }).night({ Босс: kill("Мирный1", "Мирный2") }).error).toBe(
      "night 1: Босс (boss): the mafia may not kill two when 4 are alive (M2)",
    );
  });

  it("S3, T3e: with 7 alive the doctor may heal the same player again at lapseAt 7, and not at lapseAt 3", () => {
    const again = twoNights(SEVEN, { lapseAt: 7 }, { Доктор: heal("Мирный1") }, { Доктор: heal("Мирный1") });
    expectFields(again.lastNight, { died: [] });
    const refused = twoNights(
      SEVEN,
      { lapseAt: 3 },
      { Доктор: heal("Мирный1") },
      { Доктор: heal("Мирный1") },
    );
    expect(refused.error).toBe("night 2: Доктор (doctor) may not heal Мирный1 two nights in a row (T3e)");
  });
});

describe("S3: earlyFromDay", () => {
  it("S3, V7: an early vote is final from earlyFromDay: on day 1 at earlyFromDay 1, not at 2", () => {
    const changed = "Мирный1>Босс! Мирный1>Шериф";
    expect(
      game(SEVEN, { options: { earlyFromDay: 1 } })
        .night()
        .day(changed).error,
    ).toBe("day 1: Мирный1 (citizen) has voted early and may not change the vote (V7)");
    // At 2, day 1's «досрочно» has no effect: the vote changes, and Шериф has Мирный1's red vote; everyone
    // else did not vote, +2 each (P1).
    const d = game(SEVEN, { options: { earlyFromDay: 2 } })
      .night()
      .day(changed);
    expectFields(d.lastDay, {
      score: { Босс: 2, Доктор: 2, Прокурор: 2, Шериф: 1 + 2, Мирный2: 2, Мирный3: 2 },
    });
  });
});

describe("S3: the options in a replay file", () => {
  const file = (options: unknown) => ({
    format: "forum-mafia/replay@1",
    options,
    players: [
      { name: "Аня", role: "boss" },
      { name: "Боря", role: "citizen" },
    ],
    phases: [],
  });

  it("S3: an unknown key or a value of the wrong kind is a file: error; a threshold of 0 is taken", () => {
    expect(replayError(file({ revealAbov: 3 }))).toMatch(/^file: options: .*"revealAbov"/);
    expect(replayError(file({ revealAbove: -1 }))).toMatch(/^file: options\.revealAbove: /);
    expect(replayError(file({ lapseAt: 1.5 }))).toMatch(/^file: options\.lapseAt: /);
    expect(replayError(file({ earlyFromDay: "3" }))).toMatch(/^file: options\.earlyFromDay: /);
    expect(() => replayError(file({ revealAbove: 0, lapseAt: 0 }))).toThrow(/accepted/);
  });

  it("S3: a role list with no town player, with neither a mafia member nor the maniac, or with a role twice is a setup error naming S3", () => {
    const players = (roles: string[]) => ({
      format: "forum-mafia/replay@1",
      players: roles.map((role, i) => ({ name: `Игрок${i + 1}`, role })),
      phases: [],
    });
    // REPLAY.md: "a list with no town player, or with neither a mafia member nor the maniac, is a `setup`
    // error naming S3"; a role other than citizen twice breaks the same clause's list.
    expect(replayError(players(["boss", "troll"]))).toBe("setup: the role list has no town player (S3)");
    expect(replayError(players(["doctor", "citizen", "citizen"]))).toBe(
      "setup: the role list has neither a mafia member nor the maniac (S3)",
    );
    expect(replayError(players(["boss", "doctor", "boss", "citizen"]))).toBe(
      "setup: the role boss appears more than once (S3)",
    );
    expect(() => replayError(players(["maniac", "citizen"]))).toThrow(/accepted/);
    expect(() => replayError(players(["boss", ...Array.from({ length: 30 }, () => "citizen")]))).toThrow(
      /accepted/,
    );
  });
});
