import { describe, expect, it } from "vitest";
import {
  act,
  endDay,
  endNight,
  isRejection,
  startMatch,
  type Match,
  type Player,
  type RoleId,
} from "../src/index.ts";
import { seatByName, vote } from "../src/match.ts";
import { winnerOf } from "../src/state.ts";
import { game, kill, ok, quickKill, shoot, expectFields } from "./scenario.ts";

/** A table from "role:alive" tokens, e.g. "boss:+ maniac:- citizen:+". */
function table(spec: string): Player[] {
  return spec.split(" ").map((t, i) => {
    const [role, alive] = t.split(":") as [RoleId, string];
    return { name: `P${i}`, role, alive: alive === "+", voteStrikes: 0, nightStrikes: 0, conductStrikes: 0 };
  });
}

describe("W1: the conditions, in order", () => {
  const cases: [string, string, ReturnType<typeof winnerOf>][] = [
    ["everyone dead", "boss:- maniac:- citizen:-", "draw"],
    ["everyone dead, with no maniac in the game", "boss:- citizen:-", "draw"],
    ["no mafia and no maniac alive", "boss:- maniac:- citizen:+ doctor:+", "town"],
    ["one townsman left alone", "boss:- maniac:- citizen:+", "town"],
    ["the maniac alone", "boss:- maniac:+ citizen:-", "maniac"],
    ["the maniac and one mafioso", "boss:+ maniac:+ citizen:-", "maniac"],
    ["the maniac and one townsman", "boss:- maniac:+ citizen:+", "maniac"],
    ["the maniac and two others", "boss:+ maniac:+ citizen:+", null],
    ["the maniac alive and mafia ≥ the rest", "boss:+ troll:+ maniac:+ citizen:+", null],
    ["the maniac dead, mafia = non-mafia", "boss:+ troll:+ maniac:- citizen:+ doctor:+", "mafia"],
    ["the maniac dead, mafia > non-mafia", "boss:+ troll:+ maniac:- citizen:+", "mafia"],
    ["the maniac dead, mafia alone", "boss:+ maniac:- citizen:-", "mafia"],
    ["the maniac dead, mafia < non-mafia", "boss:+ maniac:- citizen:+ doctor:+", null],
    ["nobody has won yet", "boss:+ maniac:+ sheriff:+ citizen:+ citizen:+", null],
  ];
  for (const [what, spec, winner] of cases)
    it(`W1: ${what} → ${String(winner)}`, () => {
      expect(winnerOf(table(spec))).toBe(winner);
    });
});

describe("W1: checked after nights", () => {
  it("W1: everyone dies in one night → a draw, not a town win", () => {
    const g = game("Босс=boss Маньяк=maniac Шериф=sheriff").night({
      Босс: kill("Шериф"),
      Маньяк: quickKill("Босс"),
      Шериф: shoot("Маньяк"),
    });
    expectFields(g.lastNight, { died: ["Босс", "Маньяк", "Шериф"], winner: "draw" });
    expect(g.result.winner).toBe("draw");
  });

  it("W1: the sheriff shoots the last mafioso with no maniac in the game → town", () => {
    const g = game("Босс=boss Шериф=sheriff Мирный1=citizen Мирный2=citizen").night({
      Шериф: shoot("Босс"),
      Босс: kill("Мирный1"),
    });
    expectFields(g.lastNight, { died: ["Босс", "Мирный1"], winner: "town" });
    expect(g.result.winner).toBe("town");
  });

  it("W1: the maniac and one other left after a night → maniac", () => {
    const g = game("Маньяк=maniac Босс=boss Мирный1=citizen Мирный2=citizen").night({
      Босс: kill("Мирный1"),
      Маньяк: quickKill("Мирный2"),
    });
    expectFields(g.lastNight, { died: ["Мирный1", "Мирный2"], winner: "maniac" });
    expect(g.result.winner).toBe("maniac");
  });

  it("W1: the maniac dies and the mafia equal the rest → mafia", () => {
    const g = game(
      "Босс=boss Тролль=troll Маньяк=maniac Шериф=sheriff Мирный1=citizen Мирный2=citizen",
    ).night({ Шериф: shoot("Маньяк"), Босс: kill("Мирный1") });
    expectFields(g.lastNight, { died: ["Маньяк", "Мирный1"], winner: "mafia" });
    expect(g.result.winner).toBe("mafia");
  });

  it("W1: no condition met → the game goes on", () => {
    const g = game(
      "Босс=boss Тролль=troll Маньяк=maniac Шериф=sheriff Мирный1=citizen Мирный2=citizen",
    ).night({ Босс: kill("Мирный1") });
    expectFields(g.lastNight, { died: ["Мирный1"], winner: null });
    expect(g.result.winner).toBe(null);
  });
});

describe("W1: checked after days", () => {
  it("W1: a hanging and the GM's modkills leave nobody → a draw, not a town win", () => {
    const g = game("Босс=boss Шериф=sheriff Мирный=citizen")
      .night()
      .day("Шериф>Босс Мирный>Босс Босс>Шериф", {
        gm: [
          { modkill: "Шериф", reason: "мат" },
          { modkill: "Мирный", reason: "мат" },
        ],
      });
    expectFields(g.lastDay, { hanged: "Босс", died: ["Босс", "Мирный", "Шериф"], winner: "draw" });
    expect(g.result.winner).toBe("draw");
  });

  it("W1: hanging the last mafioso with the maniac dead → town", () => {
    const g = game("Босс=boss Маньяк=maniac Шериф=sheriff Мирный1=citizen Мирный2=citizen")
      .night({ Шериф: shoot("Маньяк") })
      .day("Шериф>Босс Мирный1>Босс Мирный2>Босс Босс>Шериф");
    expect(g.result.phases[0]!.winner).toBe(null);
    expectFields(g.lastDay, { hanged: "Босс", winner: "town" });
    expect(g.result.winner).toBe("town");
  });

  it("W1: a hanging that leaves the maniac and one other → maniac", () => {
    const g = game("Маньяк=maniac Шериф=sheriff Мирный1=citizen Мирный2=citizen")
      .night({ Маньяк: quickKill("Мирный1") })
      .day("Маньяк>Мирный2 Шериф>Мирный2 Мирный2>Маньяк");
    expect(g.result.phases[0]!.winner).toBe(null);
    expectFields(g.lastDay, { hanged: "Мирный2", winner: "maniac" });
    expect(g.result.winner).toBe("maniac");
  });

  it("W1: a hanging that brings the mafia level with the rest, the maniac dead → mafia", () => {
    const g = game(
      "Босс=boss Тролль=troll Маньяк=maniac Шериф=sheriff Мирный1=citizen Мирный2=citizen Мирный3=citizen",
    )
      .night({ Шериф: shoot("Маньяк"), Босс: kill("Мирный1") })
      .day("Босс>Мирный2 Тролль>Мирный2 Шериф>Мирный2 Мирный3>Мирный2 Мирный2>Босс");
    expect(g.result.phases[0]!.winner).toBe(null);
    expectFields(g.lastDay, { hanged: "Мирный2", winner: "mafia" });
    expect(g.result.winner).toBe("mafia");
  });
});

describe("W1: after the end", () => {
  const over = game("Босс=boss Шериф=sheriff Мирный1=citizen Мирный2=citizen").night({
    Шериф: shoot("Босс"),
  });

  it("W1: a phase after the game has ended is an error naming W1", () => {
    expect(over.lastNight.winner).toBe("town");
    expect(over.day("Шериф>Мирный1").error).toBe("day 1: the game is already over, town won (W1)");
    expect(over.day().error).toBe("day 1: the game is already over, town won (W1)");
  });

  it("W1: after the end no vote and no night action is accepted (Match API)", () => {
    const players = [
      { name: "Босс", role: "boss" as const },
      { name: "Шериф", role: "sheriff" as const },
      { name: "Мирный1", role: "citizen" as const },
    ];
    let m: Match = ok(startMatch({ players, seed: null }));
    const at = (n: string): number => seatByName(m.state, n)!;
    m = ok(act(m, at("Шериф"), { act: "shoot", target: at("Босс") }));
    m = ok(endNight(m, { rolls: {}, council: null }));
    expect(m.state.winner).toBe("town");
    const v = vote(m, at("Мирный1"), { color: "red", target: at("Шериф"), early: false });
    expect(v).toMatchObject({ rejected: true, clause: "W1" });
    const a = act(m, at("Шериф"), { act: "shoot", target: at("Мирный1") });
    expect(a).toMatchObject({ rejected: true, clause: "W1" });
    expect(isRejection(endDay(m))).toBe(true);
  });
});
