import { describe, expect, it } from "vitest";
import {
  STANDARD,
  TEN,
  THUG_BOSS,
  block,
  expectFields,
  game,
  heal,
  intimidate,
  kill,
  killAndIntimidate,
  lynchDay,
  pass,
  protect,
  question,
  quickKill,
  quietDay,
  shoot,
  visit,
  without,
  type Scenario,
} from "./scenario.ts";

/** The current boss's name (M1), as the engine holds it. */
function bossOf(g: Scenario): string | null {
  const s = g.match.state;
  return s.boss === null ? null : s.players[s.boss]!.name;
}

/** 9 alive: M2b allows at most 2 intimidations (TEN, at 10 alive, still allows 3). */
const NINE = without(TEN, "Сержант");

describe("M1: boss succession", () => {
  it("M1: a boss killed at night is still the boss that night; the troll is boss from the next night", () => {
    // The girl visits the troll: were the troll already boss, the mafia's kill would be cancelled (T4).
    const n1 = game(STANDARD).night(
      { Маньяк: quickKill("Босс"), Девочка: visit("Тролль"), Босс: kill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(n1.lastNight.died).toEqual(["Босс", "Мирный1"]);
    const d1 = quietDay(n1);
    expect(bossOf(d1)).toBe("Тролль");
    // From night 2 the troll's action is the mafia's (M4), and a visit on the elf does not stop it.
    const n2 = d1.night({ Тролль: kill("Мирный2"), Эльф: kill("Мирный3") });
    expect(n2.lastNight.died).toEqual(["Мирный2"]);
    const elfVisited = d1.night(
      { Девочка: visit("Эльф"), Тролль: kill("Мирный2") },
      { rolls: { girlSilence: false } },
    );
    expect(elfVisited.lastNight.died).toEqual(["Мирный2"]);
  });

  it("M1: a boss hanged by day hands over to the troll for the following night", () => {
    const g = lynchDay(game(STANDARD).night({ Босс: kill("Мирный1") }), "Босс");
    expect(g.lastDay.hanged).toBe("Босс");
    expect(bossOf(g)).toBe("Тролль");
    const n2 = g.night(
      { Девочка: visit("Тролль"), Тролль: kill("Мирный2") },
      { rolls: { girlSilence: false } },
    );
    expect(n2.lastNight.died).toEqual([]);
  });

  it("M1: the chain boss → troll → elf → lawyer (who loses the protect) → thug (one action: mafia or block)", () => {
    // Night 1: the maniac kills the boss and the sheriff the troll; the boss's own kill still happens (O0).
    const n1 = game(STANDARD).night({
      Маньяк: quickKill("Босс"),
      Шериф: shoot("Тролль"),
      Босс: kill("Мирный1"),
    });
    expect(n1.lastNight.died).toEqual(["Босс", "Мирный1", "Тролль"]);
    const d1 = quietDay(n1);
    expect(bossOf(d1)).toBe("Эльф");

    // Night 2: the elf is boss; he dies too, and the lawyer's protect of this night holds for day 2 (M5).
    const n2 = d1.night({
      Адвокат: protect("Мирный3"),
      Маньяк: quickKill("Эльф"),
      Эльф: kill("Мирный2"),
    });
    expect(n2.lastNight.died).toEqual(["Мирный2", "Эльф"]);
    const d2 = lynchDay(n2, "Мирный3");
    expectFields(d2.lastDay, { hanged: null, excused: "Мирный3" });
    expect(bossOf(d2)).toBe("Адвокат");

    // Night 3: the lawyer is boss and has lost the protect; his mafia action beats the thug's.
    expect(d2.night({ Адвокат: protect("Мирный4") }).error).toMatch(/^night 3: Адвокат \(lawyer\) .*\(M5\)$/);
    const n3 = d2.night({
      Громила: [kill("Мирный5"), pass()],
      Адвокат: kill("Мирный4"),
      Маньяк: quickKill("Адвокат"),
    });
    expect(n3.lastNight.died).toEqual(["Адвокат", "Мирный4"]);
    const d3 = quietDay(n3);
    expect(bossOf(d3)).toBe("Громила");

    // Night 4: the thug is boss and has one slot: the later of block and kill replaces the earlier.
    const n4 = d3.night(
      { Громила: [block("Шериф"), kill("Мирный5")], Шериф: shoot("Прокурор") },
      { rolls: { thugSilence: true } },
    );
    expectFields(n4.lastNight, { died: ["Мирный5", "Прокурор"], silenced: [] });
  });
});

describe("M2: the boss's action", () => {
  it("M2a: the mafia may kill one player", () => {
    const g = game(STANDARD).night({ Босс: kill("Мирный1") });
    expectFields(g.lastNight, { died: ["Мирный1"], silenced: [] });
  });

  it("M2a: the mafia may kill two players", () => {
    const g = game(STANDARD).night({ Босс: kill("Мирный1", "Мирный2") }, { rolls: { bossExposed: false } });
    expectFields(g.lastNight, { died: ["Мирный1", "Мирный2"], silenced: [] });
  });

  it("M2a: the mafia may kill one and intimidate another", () => {
    const g = game(STANDARD).night(
      { Босс: killAndIntimidate("Мирный1", "Мирный2") },
      { rolls: { bossExposed: false } },
    );
    expectFields(g.lastNight, { died: ["Мирный1"], silenced: ["Мирный2"] });
  });

  it("M2b: the mafia may intimidate one, two or three players", () => {
    const one = game(STANDARD).night({ Босс: intimidate("Мирный1") });
    expectFields(one.lastNight, { died: [], silenced: ["Мирный1"] });
    const two = game(STANDARD).night({ Босс: intimidate("Мирный1", "Шериф") });
    expectFields(two.lastNight, { died: [], silenced: ["Мирный1", "Шериф"] });
    const three = game(STANDARD).night({ Босс: intimidate("Мирный3", "Доктор", "Мирный1") });
    expectFields(three.lastNight, { died: [], silenced: ["Доктор", "Мирный1", "Мирный3"] });
  });

  it("M2a: three kills, two kills with an intimidation, or a kill with two intimidations are refused", () => {
    expect(game(STANDARD).night({ Босс: kill("Мирный1", "Мирный2", "Мирный3") }).error).toMatch(
      /^night 1: Босс \(boss\).*\(M2a\)$/,
    );
    expect(
      game(STANDARD).night({
        Босс: { act: "mafia", kill: ["Мирный1", "Мирный2"], intimidate: ["Мирный3"] },
      }).error,
    ).toMatch(/^night 1: Босс \(boss\).*\(M2a\)$/);
    expect(
      game(STANDARD).night({
        Босс: { act: "mafia", kill: ["Мирный1"], intimidate: ["Мирный2", "Мирный3"] },
      }).error,
    ).toMatch(/^night 1: Босс \(boss\).*\(M2a\)$/);
  });

  it("M2: an action with no target is refused", () => {
    expect(game(STANDARD).night({ Босс: { act: "mafia", kill: [], intimidate: [] } }).error).toMatch(
      /^night 1: Босс \(boss\).*\(M2\)$/,
    );
  });

  it("M2b: four intimidations are refused", () => {
    expect(
      game(STANDARD).night({ Босс: intimidate("Мирный1", "Мирный2", "Мирный3", "Мирный4") }).error,
    ).toMatch(/^night 1: Босс \(boss\).*\(M2b\)$/);
  });

  it("M2b: three intimidations are allowed at 10 alive and refused at 9", () => {
    const ten = game(TEN).night({ Босс: intimidate("Шериф", "Сержант", "Доктор") });
    expectFields(ten.lastNight, { died: [], silenced: ["Доктор", "Сержант", "Шериф"] });
    expect(game(NINE).night({ Босс: intimidate("Шериф", "Девочка", "Доктор") }).error).toMatch(
      /^night 1: Босс \(boss\).*\(M2b\)$/,
    );
    const two = game(NINE).night({ Босс: intimidate("Шериф", "Девочка") });
    expectFields(two.lastNight, { died: [], silenced: ["Девочка", "Шериф"] });
  });

  it("M2: at 3 alive the boss may not kill two, but may kill one and intimidate one", () => {
    const three = "Босс=boss Мирный1=citizen Мирный2=citizen";
    expect(game(three).night({ Босс: kill("Мирный1", "Мирный2") }).error).toMatch(
      /^night 1: Босс \(boss\).*\(M2\)$/,
    );
    const g = game(three).night(
      { Босс: killAndIntimidate("Мирный1", "Мирный2") },
      { rolls: { bossExposed: false } },
    );
    expectFields(g.lastNight, { died: ["Мирный1"], silenced: ["Мирный2"] });
  });

  it("O1a: the mafia may not kill or intimidate a mafia member", () => {
    for (const target of ["Тролль", "Эльф", "Адвокат", "Громила", "Босс"]) {
      expect(game(STANDARD).night({ Босс: kill(target) }).error).toMatch(/^night 1: Босс \(boss\).*\(O1a\)$/);
      expect(game(STANDARD).night({ Босс: intimidate("Мирный1", target) }).error).toMatch(
        /^night 1: Босс \(boss\).*\(O1a\)$/,
      );
    }
    expect(game(STANDARD).night({ Босс: killAndIntimidate("Мирный1", "Громила") }).error).toMatch(
      /^night 1: Босс \(boss\).*\(O1a\)$/,
    );
  });

  it("O1a: the targets of one mafia action are distinct", () => {
    expect(game(STANDARD).night({ Босс: kill("Мирный1", "Мирный1") }).error).toMatch(
      /^night 1: Босс \(boss\).*\(O1a\)$/,
    );
    expect(game(STANDARD).night({ Босс: killAndIntimidate("Мирный1", "Мирный1") }).error).toMatch(
      /^night 1: Босс \(boss\).*\(O1a\)$/,
    );
    expect(game(STANDARD).night({ Босс: intimidate("Мирный2", "Мирный1", "Мирный2") }).error).toMatch(
      /^night 1: Босс \(boss\).*\(O1a\)$/,
    );
  });

  it("O1a: the mafia may not kill a dead player", () => {
    const g = quietDay(game(STANDARD).night({ Босс: kill("Мирный1") }));
    expect(g.night({ Босс: kill("Мирный1") }).error).toMatch(/^night 2: Босс \(boss\).*\(O1a\)$/);
  });

  it("M2: the same players may be targeted every night", () => {
    const n1 = game(STANDARD).night({ Босс: intimidate("Мирный1", "Мирный2") });
    expect(n1.lastNight.silenced).toEqual(["Мирный1", "Мирный2"]);
    const n2 = quietDay(n1).night({ Босс: intimidate("Мирный1", "Мирный2") });
    expect(n2.lastNight.silenced).toEqual(["Мирный1", "Мирный2"]);
    const n3 = quietDay(n2).night(
      { Босс: killAndIntimidate("Мирный2", "Мирный1") },
      { rolls: { bossExposed: false } },
    );
    expectFields(n3.lastNight, { died: ["Мирный2"], silenced: ["Мирный1"] });
  });
});

describe("M2c: the council", () => {
  for (const answer of ["yes", "no", "rejected"] as const) {
    it(`M2c: the council's answer "${answer}" is given to the mafia; nobody dies`, () => {
      const g = game(STANDARD).night({ Босс: question("Шериф жив?") }, { council: answer });
      expectFields(g.lastNight, { died: [], silenced: [], council: answer });
    });
  }

  it("M2c: a question needs the council's answer in the file", () => {
    expect(game(STANDARD).night({ Босс: question("Шериф жив?") }).error).toMatch(/^night 1: .*\(M2c\)$/);
  });

  it("M2c: a blocked boss's question gets no answer and needs none", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Босс"), Босс: question("Шериф жив?") },
      { rolls: { girlSilence: false } },
    );
    expectFields(g.lastNight, { died: [], council: null });
  });

  it("M2c: a question sent by the troll while the boss is silent is the mafia's action", () => {
    const g = game(STANDARD).night({ Тролль: question("Маньяк жив?") }, { council: "no" });
    expect(g.lastNight.council).toBe("no");
  });

  it("M2c: an empty question is refused", () => {
    expect(game(STANDARD).night({ Босс: question("  ") }).error).toMatch(/^night 1: Босс \(boss\).*\(M2c\)$/);
  });

  it("M2c: with a kill as the mafia's action there is no council answer", () => {
    const g = game(STANDARD).night({ Босс: kill("Мирный1") }, { council: "yes" });
    expectFields(g.lastNight, { died: ["Мирный1"], council: null });
  });
});

describe("M3: double action", () => {
  it("M3: after a double kill the boss's vote next day is uncounted; exposed when the roll is true", () => {
    const n = game(STANDARD).night({ Босс: kill("Мирный1", "Мирный2") }, { rolls: { bossExposed: true } });
    expectFields(n.lastNight, { died: ["Мирный1", "Мирный2"], exposed: { Босс: "boss" } });
    const d = quietDay(n);
    // Everyone votes blue for the boss; the boss's blue for the troll is not counted.
    expectFields(d.lastDay, { uncounted: ["Босс"], score: { Босс: -16 }, penalized: [] });
  });

  it("M3: after a double action the boss is not exposed when the roll is false, but is still uncounted", () => {
    const n = game(STANDARD).night({ Босс: kill("Мирный1", "Мирный2") }, { rolls: { bossExposed: false } });
    expect(n.lastNight.exposed).toEqual({});
    expect(quietDay(n).lastDay.uncounted).toEqual(["Босс"]);
  });

  it("M3: a kill and an intimidation is a double action", () => {
    const yes = game(STANDARD).night(
      { Босс: killAndIntimidate("Мирный1", "Мирный2") },
      { rolls: { bossExposed: true } },
    );
    expect(yes.lastNight.exposed).toEqual({ Босс: "boss" });
    expect(quietDay(yes).lastDay.uncounted).toEqual(["Босс"]);
    const no = game(STANDARD).night(
      { Босс: killAndIntimidate("Мирный1", "Мирный2") },
      { rolls: { bossExposed: false } },
    );
    expect(no.lastNight.exposed).toEqual({});
  });

  it("M3: a double action needs the bossExposed roll", () => {
    expect(game(STANDARD).night({ Босс: kill("Мирный1", "Мирный2") }).error).toMatch(
      /^night 1: .*bossExposed.*\(O8\)$/,
    );
  });

  it("M3: a single kill or a single intimidation never exposes and leaves the vote counted", () => {
    const k = game(STANDARD).night({ Босс: kill("Мирный1") }, { rolls: { bossExposed: true } });
    expect(k.lastNight.exposed).toEqual({});
    const kd = quietDay(k);
    expectFields(kd.lastDay, { uncounted: [], score: { Босс: -17, Тролль: -1 } });
    const i = game(STANDARD).night({ Босс: intimidate("Мирный1") }, { rolls: { bossExposed: true } });
    expect(i.lastNight.exposed).toEqual({});
    expect(quietDay(i).lastDay.uncounted).toEqual([]);
  });

  it("M3: three intimidations at 17 alive are fewer than half: no loss, no exposure", () => {
    const g = game(STANDARD).night(
      { Босс: intimidate("Мирный1", "Мирный2", "Мирный3") },
      { rolls: { bossExposed: true } },
    );
    expect(g.lastNight.exposed).toEqual({});
    expect(quietDay(g).lastDay.uncounted).toEqual([]);
  });

  it("M3: intimidating at least half of those alive makes the vote uncounted but never exposes", () => {
    const g = game("Босс=boss Маньяк=maniac Мирный1=citizen Мирный2=citizen").night(
      { Босс: intimidate("Мирный1", "Мирный2") },
      { rolls: { bossExposed: true } },
    );
    expectFields(g.lastNight, { exposed: {}, silenced: ["Мирный1", "Мирный2"] });
    const d = quietDay(g);
    expectFields(d.lastDay, { uncounted: ["Босс"], score: { Босс: -1 } });
    // Two of five is less than half.
    const five = game("Босс=boss Маньяк=maniac Мирный1=citizen Мирный2=citizen Мирный3=citizen").night({
      Босс: intimidate("Мирный1", "Мирный2"),
    });
    expect(quietDay(five).lastDay.uncounted).toEqual([]);
  });

  it("M3: a boss killed the night of his double action is not exposed, and the roll is not needed", () => {
    const g = game(STANDARD).night({ Маньяк: quickKill("Босс"), Босс: kill("Мирный1", "Мирный2") });
    expectFields(g.lastNight, {
      died: ["Босс", "Мирный1", "Мирный2"],
      exposed: {},
      revealed: { Босс: "boss", Мирный1: "citizen", Мирный2: "citizen" },
    });
  });

  it("M3: a boss modkilled the night of his double action is not exposed, and the roll is not needed", () => {
    const g = game(STANDARD).night(
      { Босс: killAndIntimidate("Мирный1", "Мирный2") },
      { gm: [{ modkill: "Босс", reason: "оскорбления" }] },
    );
    expectFields(g.lastNight, {
      died: ["Босс", "Мирный1"],
      modkilled: ["Босс"],
      exposed: {},
    });
  });

  it("M3: a blocked double action neither exposes nor takes the vote", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Босс"), Босс: kill("Мирный1", "Мирный2") },
      { rolls: { girlSilence: false, bossExposed: true } },
    );
    expectFields(g.lastNight, { died: [], exposed: {} });
    expect(quietDay(g).lastDay.uncounted).toEqual([]);
  });
});

describe("M4: who sends the mafia's action", () => {
  it("M4: the boss's own submission wins over an earlier one by the troll", () => {
    const g = game(STANDARD).night([
      ["Тролль", kill("Мирный2")],
      ["Босс", kill("Мирный1")],
    ]);
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("M4: a silent boss: the troll's action counts over the elf's, the lawyer's and the thug's", () => {
    const g = game(STANDARD).night([
      ["Громила", kill("Мирный5")],
      ["Громила", pass()],
      ["Адвокат", kill("Мирный4")],
      ["Адвокат", pass()],
      ["Эльф", kill("Мирный3")],
      ["Тролль", kill("Мирный2")],
    ]);
    expect(g.lastNight.died).toEqual(["Мирный2"]);
  });

  it("M4: boss and troll silent: the elf's action counts", () => {
    const g = game(STANDARD).night([
      ["Громила", kill("Мирный5")],
      ["Громила", pass()],
      ["Адвокат", kill("Мирный4")],
      ["Адвокат", pass()],
      ["Эльф", kill("Мирный3")],
    ]);
    expect(g.lastNight.died).toEqual(["Мирный3"]);
  });

  it("M4: boss, troll and elf silent: the lawyer's action counts over the thug's", () => {
    const g = game(STANDARD).night([
      ["Громила", kill("Мирный5")],
      ["Громила", pass()],
      ["Адвокат", kill("Мирный4")],
      ["Адвокат", pass()],
    ]);
    expect(g.lastNight.died).toEqual(["Мирный4"]);
  });

  it("M4: only the thug sent it: the thug's action counts", () => {
    const g = game(STANDARD).night([
      ["Громила", kill("Мирный5")],
      ["Громила", pass()],
    ]);
    expect(g.lastNight.died).toEqual(["Мирный5"]);
  });

  it("M4: a boss's pass is the boss's submission: the troll's kill does not count", () => {
    const after = game(STANDARD).night([
      ["Тролль", kill("Мирный2")],
      ["Босс", pass()],
    ]);
    expect(after.lastNight.died).toEqual([]);
    const before = game(STANDARD).night([
      ["Босс", pass()],
      ["Тролль", kill("Мирный2")],
    ]);
    expect(before.lastNight.died).toEqual([]);
  });

  it("M4: the troll's action is cancelled by a visit on the boss, not by a visit on the troll", () => {
    const onTroll = game(STANDARD).night(
      { Девочка: visit("Тролль"), Тролль: kill("Мирный2") },
      { rolls: { girlSilence: false } },
    );
    expect(onTroll.lastNight.died).toEqual(["Мирный2"]);
    const onBoss = game(STANDARD).night(
      { Девочка: visit("Босс"), Тролль: kill("Мирный2") },
      { rolls: { girlSilence: false } },
    );
    expect(onBoss.lastNight.died).toEqual([]);
  });

  it("M4: a player outside the mafia may not send the mafia's action", () => {
    expect(game(STANDARD).night({ Шериф: kill("Мирный1") }).error).toMatch(
      /^night 1: Шериф \(sheriff\).*\(M2\)$/,
    );
    expect(game(STANDARD).night({ Маньяк: question("?") }).error).toMatch(
      /^night 1: Маньяк \(maniac\).*\(M2c\)$/,
    );
  });
});

describe("M5: the lawyer", () => {
  it("M5: the lawyer may protect himself", () => {
    const g = lynchDay(game(STANDARD).night({ Адвокат: protect("Адвокат") }), "Адвокат");
    expectFields(g.lastDay, { hanged: null, excused: "Адвокат", died: [] });
  });

  it("M5: the lawyer may protect the same player every night", () => {
    const n1 = game(STANDARD).night({ Адвокат: protect("Мирный1") });
    const d1 = lynchDay(n1, "Мирный1");
    expectFields(d1.lastDay, { hanged: null, excused: "Мирный1" });
    const d2 = lynchDay(d1.night({ Адвокат: protect("Мирный1") }), "Мирный1");
    expectFields(d2.lastDay, { hanged: null, excused: "Мирный1" });
  });

  it("M5: the protection holds for the day even if the lawyer dies that night", () => {
    const n = game(STANDARD).night({ Адвокат: protect("Мирный1"), Маньяк: quickKill("Адвокат") });
    expect(n.lastNight.died).toEqual(["Адвокат"]);
    expectFields(lynchDay(n, "Мирный1").lastDay, { hanged: null, excused: "Мирный1" });
  });

  it("M5: without a protect the player is hanged", () => {
    const g = lynchDay(game(STANDARD).night({ Адвокат: protect("Мирный2") }), "Мирный1");
    expectFields(g.lastDay, { hanged: "Мирный1", excused: null, died: ["Мирный1"] });
  });

  it("M5: a lawyer who is boss has no protect", () => {
    const lawyerBoss = without(STANDARD, "Босс", "Тролль", "Эльф");
    expect(bossOf(game(lawyerBoss))).toBe("Адвокат");
    expect(game(lawyerBoss).night({ Адвокат: protect("Мирный1") }).error).toMatch(
      /^night 1: Адвокат \(lawyer\).*\(M5\)$/,
    );
  });
});

describe("M6: the thug", () => {
  it("M6: the thug's block cancels the target's action", () => {
    const shot = game(STANDARD).night(
      { Громила: block("Шериф"), Шериф: shoot("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expectFields(shot.lastNight, { died: [], silenced: [] });
    const healed = game(STANDARD).night(
      { Громила: block("Доктор"), Доктор: heal("Мирный1"), Босс: kill("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expect(healed.lastNight.died).toEqual(["Мирный1"]);
  });

  it("M6: with the thugSilence roll the blocked player loses the vote, announced in silenced", () => {
    const g = game(STANDARD).night(
      { Громила: block("Шериф"), Шериф: shoot("Мирный1") },
      { rolls: { thugSilence: true } },
    );
    expectFields(g.lastNight, { died: [], silenced: ["Шериф"] });
    const d = quietDay(g);
    expect(d.lastDay.penalized).toEqual([]);
    expect(g.day("Шериф>Босс").error).toMatch(/^day 1: Шериф \(sheriff\).*\(V6\)$/);
  });

  it("M6: the silence roll is needed when the blocked player survives, and not when he dies", () => {
    expect(game(STANDARD).night({ Громила: block("Мирный1") }).error).toMatch(/thugSilence.*\(O8\)$/);
    const g = game(STANDARD).night({ Громила: block("Мирный1"), Босс: kill("Мирный1") });
    expectFields(g.lastNight, { died: ["Мирный1"], silenced: [] });
  });

  it("M6: the thug may not block the same player two nights in a row", () => {
    const n1 = game(STANDARD).night({ Громила: block("Мирный1") }, { rolls: { thugSilence: false } });
    expect(quietDay(n1).night({ Громила: block("Мирный1") }).error).toMatch(
      /^night 2: Громила \(thug\).*\(M6\)$/,
    );
    const other = quietDay(n1).night({ Громила: block("Мирный2") }, { rolls: { thugSilence: false } });
    const back = quietDay(other).night({ Громила: block("Мирный1") }, { rolls: { thugSilence: true } });
    expect(back.lastNight.silenced).toEqual(["Мирный1"]);
  });

  it("M6: the repeat limit holds even if last night's block was cancelled (O1b)", () => {
    const n1 = game(STANDARD).night(
      { Девочка: visit("Громила"), Громила: block("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(quietDay(n1).night({ Громила: block("Мирный1") }).error).toMatch(
      /^night 2: Громила \(thug\).*\(M6\)$/,
    );
  });

  it("M6: at 3 alive the thug may block the same player again", () => {
    const n1 = game("Громила=thug Маньяк=maniac Мирный1=citizen").night(
      { Громила: block("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    const n2 = quietDay(n1).night({ Громила: block("Мирный1") }, { rolls: { thugSilence: true } });
    expectFields(n2.lastNight, { died: [], silenced: ["Мирный1"] });
  });

  it("M6: a thug who is boss keeps the block", () => {
    expect(bossOf(game(THUG_BOSS))).toBe("Громила");
    const g = game(THUG_BOSS).night(
      { Громила: block("Шериф"), Шериф: shoot("Мирный1") },
      { rolls: { thugSilence: true } },
    );
    expectFields(g.lastNight, { died: [], silenced: ["Шериф"] });
  });

  it("M6: a thug who is boss has one action: the later of kill and block replaces the earlier", () => {
    const blockWins = game(THUG_BOSS).night(
      { Громила: [kill("Мирный1"), block("Мирный2")] },
      { rolls: { thugSilence: true } },
    );
    expectFields(blockWins.lastNight, { died: [], silenced: ["Мирный2"] });
    const killWins = game(THUG_BOSS).night(
      { Громила: [block("Мирный2"), kill("Мирный1")] },
      { rolls: { thugSilence: true } },
    );
    expectFields(killWins.lastNight, { died: ["Мирный1"], silenced: [] });
  });

  it("M6: a thug who is not boss may send a mafia action (M4) and also block", () => {
    const g = game(STANDARD).night(
      { Громила: [kill("Мирный1"), block("Мирный2")] },
      { rolls: { thugSilence: true } },
    );
    expectFields(g.lastNight, { died: ["Мирный1"], silenced: ["Мирный2"] });
  });
});

describe("M7: girl against thug", () => {
  it("M7: when girl and thug target each other, the girl is blocked and the thug is not", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Громила"), Громила: block("Девочка") },
      { rolls: { girlSilence: true, thugSilence: true } },
    );
    // The thug's block on the girl stands (her silence roll); her visit does nothing (no silence on him).
    expectFields(g.lastNight, { died: [], silenced: ["Девочка"] });
  });

  it("M7: the girl who visits the thug while he blocks someone else does block him", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Громила"), Громила: block("Шериф"), Шериф: shoot("Мирный1") },
      { rolls: { girlSilence: true, thugSilence: true } },
    );
    expectFields(g.lastNight, { died: ["Мирный1"], silenced: ["Громила"] });
  });

  it("M7: the thug's block on the girl stops her visit on the boss", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Босс"), Громила: block("Девочка"), Босс: kill("Мирный1") },
      { rolls: { girlSilence: true, thugSilence: false } },
    );
    expectFields(g.lastNight, { died: ["Мирный1"], silenced: [] });
  });
});

describe("M8: bloody kill on the thug's target", () => {
  it("M8: the maniac's bloody kill on the thug's block target kills the target and the thug", () => {
    const g = game(STANDARD).night({
      Громила: block("Шериф"),
      Маньяк: { act: "bloodyKill", target: "Шериф" },
    });
    expectFields(g.lastNight, {
      died: ["Громила", "Шериф"],
      revealed: { Громила: "thug", Шериф: "sheriff" },
      maniacVictims: ["Шериф"],
    });
  });

  it("M8: the blocked target's action is cancelled too", () => {
    const g = game(TEN).night({
      Громила: block("Шериф"),
      Шериф: shoot("Доктор"),
      Маньяк: { act: "bloodyKill", target: "Шериф" },
    });
    expectFields(g.lastNight, {
      died: ["Громила", "Шериф"],
      revealed: { Шериф: "sheriff" },
      maniacVictims: ["Шериф"],
    });
  });

  it("M8: a quick kill on the thug's target does not kill the thug", () => {
    const g = game(STANDARD).night({ Громила: block("Шериф"), Маньяк: quickKill("Шериф") });
    expect(g.lastNight.died).toEqual(["Шериф"]);
  });
});
