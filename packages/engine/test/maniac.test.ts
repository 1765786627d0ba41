import { describe, expect, it } from "vitest";
import {
  STANDARD,
  TEN,
  block,
  bloodyKill,
  expectFields,
  game,
  heal,
  healFrom,
  kill,
  quickKill,
  quietDay,
  shoot,
  torture,
  visit,
} from "./scenario.ts";

describe("N1: the maniac", () => {
  it("N1: one action per night: a later submission replaces the earlier", () => {
    const g = game(STANDARD).night({ Маньяк: [bloodyKill("Мирный1"), quickKill("Мирный2")] });
    expectFields(g.lastNight, { died: ["Мирный2"], maniacVictims: [] });
    const t = game(STANDARD).night(
      { Маньяк: [quickKill("Мирный2"), torture("Мирный1")] },
      { rolls: { tortureEvidence: true } },
    );
    expectFields(t.lastNight, { died: [], silenced: ["Мирный1"], maniacVictims: ["Мирный1"] });
  });

  it("N1: the maniac may not target himself", () => {
    expect(game(STANDARD).night({ Маньяк: bloodyKill("Маньяк") }).error).toMatch(
      /^night 1: Маньяк \(maniac\).*\(O1a\)$/,
    );
    expect(game(STANDARD).night({ Маньяк: torture("Маньяк") }).error).toMatch(
      /^night 1: Маньяк \(maniac\).*\(O1a\)$/,
    );
  });

  it("N1: only the maniac has the maniac's actions", () => {
    expect(game(STANDARD).night({ Шериф: bloodyKill("Мирный1") }).error).toMatch(
      /^night 1: Шериф \(sheriff\).*\(N1a\)$/,
    );
    expect(game(STANDARD).night({ Босс: quickKill("Мирный1") }).error).toMatch(
      /^night 1: Босс \(boss\).*\(N1b\)$/,
    );
    expect(game(STANDARD).night({ Доктор: torture("Мирный1") }).error).toMatch(
      /^night 1: Доктор \(doctor\).*\(N1c\)$/,
    );
  });

  it("N1: a blocked maniac does nothing", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Маньяк"), Маньяк: bloodyKill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expectFields(g.lastNight, { died: [], maniacVictims: [] });
  });
});

describe("N1a: bloody kill", () => {
  it("N1a: the victim dies, the role is revealed and the victim is listed as the maniac's", () => {
    const g = game(STANDARD).night({ Маньяк: bloodyKill("Мирный1") });
    expectFields(g.lastNight, {
      died: ["Мирный1"],
      revealed: { Мирный1: "citizen" },
      maniacVictims: ["Мирный1"],
      exposed: {},
    });
  });

  it("N1a: the victim's role is revealed even at 10 alive (R2)", () => {
    const g = game(TEN).night({ Маньяк: bloodyKill("Сержант") });
    expectFields(g.lastNight, {
      died: ["Сержант"],
      revealed: { Сержант: "sergeant" },
      maniacVictims: ["Сержант"],
    });
  });

  it("N1a: a bloody kill that succeeds alongside a mafia kill on the same victim still reveals at 10 alive", () => {
    const g = game(TEN).night({ Маньяк: bloodyKill("Сержант"), Босс: kill("Сержант") });
    expectFields(g.lastNight, {
      died: ["Сержант"],
      revealed: { Сержант: "sergeant" },
      maniacVictims: ["Сержант"],
    });
  });

  it("N1a: the girl who visited the victim dies too", () => {
    const g = game(STANDARD).night({ Девочка: visit("Мирный1"), Маньяк: bloodyKill("Мирный1") });
    expectFields(g.lastNight, {
      died: ["Девочка", "Мирный1"],
      revealed: { Девочка: "girl", Мирный1: "citizen" },
      maniacVictims: ["Мирный1"],
    });
  });

  it("N1a: the thug who blocked the victim dies too (M8)", () => {
    const g = game(STANDARD).night({ Громила: block("Мирный1"), Маньяк: bloodyKill("Мирный1") });
    expectFields(g.lastNight, { died: ["Громила", "Мирный1"], maniacVictims: ["Мирный1"] });
  });

  it("N1a: girl and thug both on the victim: all three die", () => {
    const g = game(STANDARD).night({
      Девочка: visit("Мирный1"),
      Громила: block("Мирный1"),
      Маньяк: bloodyKill("Мирный1"),
    });
    expectFields(g.lastNight, { died: ["Громила", "Девочка", "Мирный1"], maniacVictims: ["Мирный1"] });
  });

  it("N1a: the collateral on the girl happens even if the victim is healed", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Мирный1"), Доктор: heal("Мирный1"), Маньяк: bloodyKill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expectFields(g.lastNight, { died: ["Девочка"], maniacVictims: [] });
  });

  it("N1a: the collateral on the thug happens even if the victim is healed", () => {
    const g = game(STANDARD).night(
      { Громила: block("Мирный1"), Доктор: heal("Мирный1"), Маньяк: bloodyKill("Мирный1") },
      { rolls: { thugSilence: true } },
    );
    expectFields(g.lastNight, { died: ["Громила"], maniacVictims: [], silenced: ["Мирный1"] });
  });

  it("N1a: a heal of the girl herself cancels her collateral death", () => {
    const g = game(STANDARD).night({
      Девочка: visit("Мирный1"),
      Доктор: heal("Девочка"),
      Маньяк: bloodyKill("Мирный1"),
    });
    expectFields(g.lastNight, { died: ["Мирный1"], maniacVictims: ["Мирный1"] });
  });

  it("N1a: a heal of the thug himself cancels his collateral death", () => {
    const g = game(STANDARD).night({
      Громила: block("Мирный1"),
      Доктор: heal("Громила"),
      Маньяк: bloodyKill("Мирный1"),
    });
    expectFields(g.lastNight, { died: ["Мирный1"], maniacVictims: ["Мирный1"] });
  });

  it("N1a: heal-from-maniac cancels the kill and both collateral deaths", () => {
    const g = game(STANDARD).night(
      {
        Девочка: visit("Мирный1"),
        Громила: block("Мирный1"),
        Доктор: healFrom("maniac"),
        Маньяк: bloodyKill("Мирный1"),
      },
      { rolls: { girlSilence: false, thugSilence: false } },
    );
    expectFields(g.lastNight, { died: [], maniacVictims: [], revealed: {} });
  });

  it("N1a: heal-from-mafia does not cancel the maniac's collateral", () => {
    const g = game(STANDARD).night({
      Девочка: visit("Мирный1"),
      Доктор: healFrom("mafia"),
      Маньяк: bloodyKill("Мирный1"),
    });
    expectFields(g.lastNight, { died: ["Девочка", "Мирный1"], maniacVictims: ["Мирный1"] });
  });

  it("N1a: a girl blocked by the thug (M7) does not visit, so she does not die", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Мирный1"), Громила: block("Девочка"), Маньяк: bloodyKill("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expectFields(g.lastNight, { died: ["Мирный1"], maniacVictims: ["Мирный1"] });
  });

  it("N1a: a thug blocked by the girl does not block, so he does not die", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Громила"), Громила: block("Мирный1"), Маньяк: bloodyKill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expectFields(g.lastNight, { died: ["Мирный1"], maniacVictims: ["Мирный1"] });
  });

  it("N1a: a bloody kill cancelled by heal-from-maniac, the victim killed by the mafia: an ordinary death", () => {
    const g = game(STANDARD).night({
      Доктор: healFrom("maniac"),
      Маньяк: bloodyKill("Мирный1"),
      Босс: kill("Мирный1"),
    });
    expectFields(g.lastNight, {
      died: ["Мирный1"],
      revealed: { Мирный1: "citizen" }, // R1 at 17 alive
      maniacVictims: [],
    });
  });

  it("N1a: a bloody kill that does not happen, the victim killed by the mafia at 10 alive: no reveal", () => {
    const g = game(TEN).night(
      { Девочка: visit("Маньяк"), Маньяк: bloodyKill("Сержант"), Босс: kill("Сержант") },
      { rolls: { girlSilence: false } },
    );
    expectFields(g.lastNight, { died: ["Сержант"], revealed: {}, maniacVictims: [] });
  });

  it("N1a: a healed victim is not listed, and a later mafia kill of that player is ordinary", () => {
    const g = game(TEN).night({ Доктор: heal("Сержант"), Маньяк: bloodyKill("Сержант") });
    expectFields(g.lastNight, { died: [], revealed: {}, maniacVictims: [] });
    const n2 = quietDay(g).night({ Босс: kill("Сержант") });
    expectFields(n2.lastNight, { died: ["Сержант"], revealed: {}, maniacVictims: [] });
  });
});

describe("N1b: quick kill", () => {
  it("N1b: the victim dies; the role is revealed by R1 only, and nobody is listed as the maniac's", () => {
    const g = game(STANDARD).night({ Маньяк: quickKill("Мирный1") });
    expectFields(g.lastNight, {
      died: ["Мирный1"],
      revealed: { Мирный1: "citizen" },
      maniacVictims: [],
    });
  });

  it("N1b: at 10 alive a quick kill reveals nothing", () => {
    const g = game(TEN).night({ Маньяк: quickKill("Сержант") });
    expectFields(g.lastNight, { died: ["Сержант"], revealed: {}, maniacVictims: [] });
  });

  it("N1b: a quick kill has no collateral on the visiting girl or the blocking thug", () => {
    const g = game(STANDARD).night({
      Девочка: visit("Мирный1"),
      Громила: block("Мирный1"),
      Маньяк: quickKill("Мирный1"),
    });
    expectFields(g.lastNight, { died: ["Мирный1"], maniacVictims: [] });
  });

  it("N1b: a healed quick kill victim survives", () => {
    const g = game(STANDARD).night({ Доктор: heal("Мирный1"), Маньяк: quickKill("Мирный1") });
    expectFields(g.lastNight, { died: [], revealed: {}, maniacVictims: [] });
  });
});

describe("N1c: torture", () => {
  it("N1c: the victim loses the vote on the next two days; the evidence roll names the maniac", () => {
    const n1 = game(STANDARD).night({ Маньяк: torture("Мирный1") }, { rolls: { tortureEvidence: true } });
    expectFields(n1.lastNight, {
      died: [],
      silenced: ["Мирный1"],
      maniacVictims: ["Мирный1"],
      exposed: {},
    });
    expect(n1.day("Мирный1>Мирный2").error).toMatch(/^day 1: Мирный1 \(citizen\).*\(V6\)$/);
    const d1 = quietDay(n1);
    expect(d1.lastDay.penalized).toEqual([]);

    const n2 = d1.night();
    expectFields(n2.lastNight, { died: [], silenced: ["Мирный1"], maniacVictims: [] });
    expect(n2.day("Мирный1>Мирный2").error).toMatch(/^day 2: Мирный1 \(citizen\).*\(V6\)$/);
    const d2 = quietDay(n2);
    expect(d2.lastDay.penalized).toEqual([]);

    const n3 = d2.night();
    expectFields(n3.lastNight, { silenced: [], maniacVictims: [] });
    const d3 = n3.day("Мирный1>Мирный2");
    expect(d3.lastDay.penalized).not.toContain("Мирный1");
  });

  it("N1c: without the evidence the torture is announced only as the lost vote", () => {
    const g = game(STANDARD).night({ Маньяк: torture("Мирный1") }, { rolls: { tortureEvidence: false } });
    expectFields(g.lastNight, { died: [], silenced: ["Мирный1"], maniacVictims: [] });
  });

  it("N1c: the evidence roll is needed when the victim survives", () => {
    expect(game(STANDARD).night({ Маньяк: torture("Мирный1") }).error).toMatch(
      /^night 1: .*tortureEvidence.*\(O8\)$/,
    );
  });

  it("N1c: the tortured player's night actions are not affected", () => {
    const g = game(STANDARD).night(
      { Маньяк: torture("Доктор"), Доктор: heal("Мирный1"), Босс: kill("Мирный1") },
      { rolls: { tortureEvidence: false } },
    );
    expectFields(g.lastNight, { died: [], silenced: ["Доктор"] });
    const s = game(STANDARD).night(
      { Маньяк: torture("Шериф"), Шериф: shoot("Мирный2") },
      { rolls: { tortureEvidence: false } },
    );
    expectFields(s.lastNight, { died: ["Мирный2"], silenced: ["Шериф"] });
  });

  it("N1c: a tortured victim killed that night is announced as a death; no roll is needed", () => {
    const g = game(STANDARD).night({ Маньяк: torture("Мирный1"), Босс: kill("Мирный1") });
    expectFields(g.lastNight, { died: ["Мирный1"], silenced: [], maniacVictims: [] });
    const n2 = quietDay(g).night();
    expectFields(n2.lastNight, { silenced: [], maniacVictims: [] });
  });

  it("N1c: a tortured victim modkilled that night is announced as a death; no roll is needed", () => {
    const g = game(STANDARD).night(
      { Маньяк: torture("Мирный1") },
      { gm: [{ modkill: "Мирный1", reason: "оскорбления" }] },
    );
    expectFields(g.lastNight, {
      died: ["Мирный1"],
      modkilled: ["Мирный1"],
      silenced: [],
      maniacVictims: [],
    });
  });

  it("N1c: a blocked maniac tortures nobody", () => {
    const g = game(STANDARD).night(
      { Громила: block("Маньяк"), Маньяк: torture("Мирный1") },
      { rolls: { thugSilence: false, tortureEvidence: true } },
    );
    expectFields(g.lastNight, { died: [], silenced: [], maniacVictims: [] });
  });
});
