/**
 * RULES.md §8 Town: the sheriff/sergeant pair (T1, T2), the doctor (T3, T3a–T3e), the girl (T4), the
 * prosecutor (T5), the shahid (T6) and the citizens (T7).
 */
import { describe, expect, it } from "vitest";
import type { ReplayVote } from "../src/replay-format.ts";
import {
  CITIZENS,
  NAMES,
  NO_ROLLS,
  STANDARD,
  TEN,
  block,
  bloodyKill,
  check,
  except,
  game,
  heal,
  healFrom,
  intimidate,
  kill,
  lynchDay,
  mark,
  pass,
  poison,
  protect,
  quickKill,
  quietDay,
  serum,
  shoot,
  torture,
  unprotect,
  visit,
  without,
  type Actions,
  type Scenario,
  ACTING,
} from "./scenario.ts";

/** Night 1, a quiet day, then night 2. */
function twoNights(lineup: string, first: Actions, second: Actions): Scenario {
  return quietDay(game(lineup).night(first, { rolls: NO_ROLLS })).night(second, { rolls: NO_ROLLS });
}

describe("T1: the sheriff and the sergeant", () => {
  it("T1: the pair has one action: the sergeant's later check replaces the sheriff's shot", () => {
    const g = game(STANDARD).night([
      ["Шериф", shoot("Мирный1")],
      ["Сержант", check("Босс")],
    ]);
    expect(g.lastNight.died).toEqual([]);
    expect(g.lastNight.checks).toEqual([{ target: "Босс", result: "mafia" }]);
  });

  it("T1: the pair has one action: the sheriff's later shot replaces the sergeant's check", () => {
    const g = game(STANDARD).night([
      ["Сержант", check("Босс")],
      ["Шериф", shoot("Мирный1")],
    ]);
    expect(g.lastNight.died).toEqual(["Мирный1"]);
    expect(g.lastNight.checks).toEqual([]);
  });

  it("T1: the sheriff's later shot replaces his earlier one", () => {
    const g = game(STANDARD).night([
      ["Шериф", shoot("Мирный1")],
      ["Шериф", shoot("Мирный2")],
    ]);
    expect(g.lastNight.died).toEqual(["Мирный2"]);
  });

  it("T1: the sheriff shoots at night; the victim dies", () => {
    const g = game(STANDARD).night({ Шериф: shoot("Маньяк") });
    expect(g.lastNight.died).toEqual(["Маньяк"]);
    expect(g.lastNight.revealed).toEqual({ Маньяк: "maniac" });
  });

  it("T1: a dead sheriff's sergeant can only check", () => {
    const g = quietDay(game(STANDARD).night({ Босс: kill("Шериф") }));
    const checked = g.night({ Сержант: check("Маньяк") });
    expect(checked.lastNight.checks).toEqual([{ target: "Маньяк", result: "not mafia" }]);
    expect(g.night({ Сержант: shoot("Маньяк") }).error).toBe(
      "night 2: Сержант (sergeant) may not shoot: only the sheriff can (T1)",
    );
    expect(g.night({ Шериф: shoot("Маньяк") }).error).toBe(
      "night 2: Шериф (sheriff) is dead and cannot act (G7)",
    );
  });

  it("T1: a dead sergeant's sheriff can only shoot", () => {
    const g = quietDay(game(STANDARD).night({ Босс: kill("Сержант") }));
    expect(g.night({ Шериф: shoot("Маньяк") }).lastNight.died).toEqual(["Маньяк"]);
    expect(g.night({ Шериф: check("Маньяк") }).error).toBe(
      "night 2: Шериф (sheriff) may not check: only the sergeant can (T2)",
    );
    expect(g.night({ Сержант: check("Маньяк") }).error).toBe(
      "night 2: Сержант (sergeant) is dead and cannot act (G7)",
    );
  });

  const blockers: [string, Actions][] = [
    ["the girl's visit", { Девочка: visit("Шериф") }],
    ["the thug's block", { Громила: block("Шериф") }],
  ];
  it.each(blockers)("T1: %s on the sheriff cancels his shot", (_, blocking) => {
    const g = game(STANDARD).night({ ...blocking, Шериф: shoot("Мирный1") }, { rolls: NO_ROLLS });
    expect(g.lastNight.died).toEqual([]);
  });

  it("T1: a block on the sergeant does not stop the sheriff's shot", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Сержант"), Шериф: shoot("Мирный1") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("T1: a block on the sheriff does not stop the sergeant's check", () => {
    const g = game(STANDARD).night(
      { Громила: block("Шериф"), Сержант: check("Громила") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.checks).toEqual([{ target: "Громила", result: "mafia" }]);
  });
});

describe("T2: the sergeant's check", () => {
  const reads: [string, "mafia" | "not mafia"][] = [
    ["Босс", "mafia"],
    ["Тролль", "mafia"],
    ["Эльф", "mafia"],
    ["Адвокат", "mafia"],
    ["Громила", "mafia"],
    ["Маньяк", "not mafia"],
    ["Шериф", "not mafia"],
    ["Доктор", "not mafia"],
    ["Девочка", "not mafia"],
    ["Прокурор", "not mafia"],
    ["Шахид", "not mafia"],
    ["Мирный1", "not mafia"],
  ];
  it.each(reads)("T2: a check on %s reads %s", (target, result) => {
    const g = game(STANDARD).night({ Сержант: check(target) });
    expect(g.lastNight.checks).toEqual([{ target, result }]);
  });

  const blockers: [string, Actions][] = [
    ["the girl's visit", { Девочка: visit("Сержант") }],
    ["the thug's block", { Громила: block("Сержант") }],
  ];
  it.each(blockers)("T2: a check blocked by %s returns failed", (_, blocking) => {
    const g = game(STANDARD).night({ ...blocking, Сержант: check("Босс") }, { rolls: NO_ROLLS });
    expect(g.lastNight.checks).toEqual([{ target: "Босс", result: "failed" }]);
  });

  it("T2: the check is private: it reveals nothing publicly", () => {
    const g = game(STANDARD).night({ Сержант: check("Босс") });
    expect(g.lastNight.revealed).toEqual({});
    expect(g.lastNight.died).toEqual([]);
  });
});

describe("T3: the doctor", () => {
  it("T3: the doctor has one action a night; a later submission replaces the earlier", () => {
    const g = game(STANDARD).night({
      Доктор: [heal("Мирный1"), heal("Мирный2")],
      Босс: kill("Мирный1"),
    });
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("T3a: the serum announces the target's role publicly", () => {
    const g = game(STANDARD).night({ Доктор: serum("Маньяк") }, { rolls: { doctorExposed: false } });
    expect(g.lastNight.revealed).toEqual({ Маньяк: "maniac" });
    expect(g.lastNight.exposed).toEqual({});
    expect(g.lastNight.died).toEqual([]);
  });

  it("T3a: the doctorExposed roll exposes the doctor's nickname", () => {
    const g = game(STANDARD).night({ Доктор: serum("Тролль") }, { rolls: { doctorExposed: true } });
    expect(g.lastNight.revealed).toEqual({ Тролль: "troll" });
    expect(g.lastNight.exposed).toEqual({ Доктор: "doctor" });
  });

  it("T3a: the serum reveals even when deaths are announced without roles (10 alive)", () => {
    const g = game(TEN).night(
      { Доктор: serum("Босс"), Шериф: shoot("Девочка") },
      { rolls: { doctorExposed: false } },
    );
    expect(g.lastNight.died).toEqual(["Девочка"]);
    expect(g.lastNight.revealed).toEqual({ Босс: "boss" });
  });

  it("T3a: a doctor who dies that night is not exposed, and no roll is needed", () => {
    const g = game(STANDARD).night({ Доктор: serum("Маньяк"), Босс: kill("Доктор") });
    expect(g.lastNight.died).toEqual(["Доктор"]);
    expect(g.lastNight.revealed).toEqual({ Доктор: "doctor", Маньяк: "maniac" });
    expect(g.lastNight.exposed).toEqual({});
  });

  it("T3a: a blocked serum reveals nothing", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Доктор"), Доктор: serum("Маньяк") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.revealed).toEqual({});
    expect(g.lastNight.exposed).toEqual({});
  });

  it("T3a: no serum two nights in a row when alive at night start < 15", () => {
    const fourteen = without(STANDARD, "Мирный1", "Мирный2", "Мирный3");
    const g = twoNights(fourteen, { Доктор: serum("Маньяк") }, { Доктор: serum("Тролль") });
    expect(g.error).toBe(
      "night 2: Доктор (doctor) may not use serum two nights in a row when fewer than 15 are alive (T3a)",
    );
  });

  it("T3a: serum two nights in a row is allowed at 15 alive", () => {
    const fifteen = without(STANDARD, "Мирный1", "Мирный2");
    const g = twoNights(fifteen, { Доктор: serum("Маньяк") }, { Доктор: serum("Тролль") });
    expect(g.lastNight.revealed).toEqual({ Тролль: "troll" });
  });

  it("T3a: serum after a night without serum is allowed below 15", () => {
    const fourteen = without(STANDARD, "Мирный1", "Мирный2", "Мирный3");
    const g = quietDay(twoNights(fourteen, { Доктор: serum("Маньяк") }, { Доктор: heal("Мирный4") })).night(
      { Доктор: serum("Тролль") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.revealed).toEqual({ Тролль: "troll" });
  });

  it("T3b: a heal saves one player from the mafia, the maniac and the sheriff together", () => {
    const g = game(STANDARD).night({
      Босс: kill("Мирный1"),
      Маньяк: quickKill("Мирный1"),
      Шериф: shoot("Мирный1"),
      Доктор: heal("Мирный1"),
    });
    expect(g.lastNight.died).toEqual([]);
    expect(g.lastNight.revealed).toEqual({});
  });

  it("T3b: the doctor may heal himself", () => {
    const g = game(STANDARD).night({ Босс: kill("Доктор"), Доктор: heal("Доктор") });
    expect(g.lastNight.died).toEqual([]);
  });

  it("T3b: a heal saves only its target, not the mafia's second victim", () => {
    const g = game(STANDARD).night(
      { Босс: kill("Мирный1", "Мирный2"), Доктор: heal("Мирный1") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.died).toEqual(["Мирный2"]);
  });

  it("T3b: a healed bloody-kill victim survives, unrevealed and not the maniac's victim", () => {
    const g = game(STANDARD).night({ Маньяк: bloodyKill("Мирный1"), Доктор: heal("Мирный1") });
    expect(g.lastNight.died).toEqual([]);
    expect(g.lastNight.revealed).toEqual({});
    expect(g.lastNight.maniacVictims).toEqual([]);
  });

  it("T3b: a blocked doctor's heal saves nobody", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Доктор"), Доктор: heal("Мирный1"), Босс: kill("Мирный1") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("T3c: heal from mafia cancels both mafia kills, not the maniac's", () => {
    const g = game(STANDARD).night(
      { Босс: kill("Мирный1", "Мирный2"), Маньяк: quickKill("Мирный3"), Доктор: healFrom("mafia") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.died).toEqual(["Мирный3"]);
  });

  it("T3c: heal from the maniac cancels his bloody kill and its collateral on the girl", () => {
    const g = game(STANDARD).night(
      { Маньяк: bloodyKill("Мирный1"), Девочка: visit("Мирный1"), Доктор: healFrom("maniac") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.died).toEqual([]);
    expect(g.lastNight.maniacVictims).toEqual([]);
  });

  it("T3c: heal from the maniac does not save his victim from the mafia", () => {
    const g = game(STANDARD).night({
      Маньяк: quickKill("Мирный1"),
      Босс: kill("Мирный1"),
      Доктор: healFrom("maniac"),
    });
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("T3c: heal from the sheriff cancels his shot", () => {
    const g = game(STANDARD).night({ Шериф: shoot("Мирный1"), Доктор: healFrom("sheriff") });
    expect(g.lastNight.died).toEqual([]);
  });

  it("T3c: heal from a role is not available when the maniac is dead", () => {
    const g = twoNights(STANDARD, { Шериф: shoot("Маньяк") }, { Доктор: healFrom("mafia") });
    expect(g.error).toBe(
      "night 2: Доктор (doctor) may not heal from a role: it needs both mafia and maniac alive and more than 10 players (T3c)",
    );
  });

  it("T3c: heal from a role is not available when no mafia is alive", () => {
    const lone = without(STANDARD, "Тролль", "Эльф", "Адвокат", "Громила");
    const g = twoNights(lone, { Шериф: shoot("Босс") }, { Доктор: healFrom("maniac") });
    expect(g.error).toBe(
      "night 2: Доктор (doctor) may not heal from a role: it needs both mafia and maniac alive and more than 10 players (T3c)",
    );
  });

  it("T3c: heal from a role is not available at 10 alive, available at 11", () => {
    const eleven = without(STANDARD, ...CITIZENS, "Прокурор");
    const ok = game(eleven).night({ Босс: kill("Шахид"), Доктор: healFrom("mafia") });
    expect(ok.lastNight.died).toEqual([]);
    const ten = without(eleven, "Шахид");
    expect(game(ten).night({ Доктор: healFrom("mafia") }).error).toBe(
      "night 1: Доктор (doctor) may not heal from a role: it needs both mafia and maniac alive and more than 10 players (T3c)",
    );
  });

  it("T3c: not the same role two nights in a row", () => {
    const g = twoNights(STANDARD, { Доктор: healFrom("mafia") }, { Доктор: healFrom("mafia") });
    expect(g.error).toBe("night 2: Доктор (doctor) may not heal from mafia two nights in a row (T3c)");
  });

  it("T3c: another role on the next night is allowed", () => {
    const g = twoNights(
      STANDARD,
      { Доктор: healFrom("mafia") },
      { Доктор: healFrom("sheriff"), Шериф: shoot("Мирный1") },
    );
    expect(g.lastNight.died).toEqual([]);
  });

  it("T3d: poison silences the target on the next two days, reveals nothing and kills nobody", () => {
    const n1 = game(STANDARD).night({ Доктор: poison("Мирный1") });
    expect(n1.lastNight.died).toEqual([]);
    expect(n1.lastNight.revealed).toEqual({});
    expect(n1.lastNight.silenced).toEqual(["Мирный1"]);
    expect(n1.day("Мирный1>Босс").error).toBe("day 1: Мирный1 (citizen) cannot vote today (V6)");
    const n2 = quietDay(n1).night();
    expect(n2.lastNight.silenced).toEqual(["Мирный1"]);
    expect(n2.day("Мирный1>Босс").error).toBe("day 2: Мирный1 (citizen) cannot vote today (V6)");
    const n3 = quietDay(n2).night();
    expect(n3.lastNight.silenced).toEqual([]);
  });

  it("T3d: a blocked poison silences nobody", () => {
    const g = game(STANDARD).night(
      { Громила: block("Доктор"), Доктор: poison("Мирный1") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.silenced).toEqual([]);
  });
});

describe("T3e: the doctor's repeat limits", () => {
  it("T3e: a heal on the same player two nights in a row is refused at submission", () => {
    const g = twoNights(STANDARD, { Доктор: heal("Мирный1") }, { Доктор: heal("Мирный1") });
    expect(g.error).toBe("night 2: Доктор (doctor) may not heal Мирный1 two nights in a row (T3e)");
  });

  it("T3e: the first limit compares with last night's submitted heal, even a blocked one (O1b)", () => {
    const g = twoNights(
      STANDARD,
      { Девочка: visit("Доктор"), Доктор: heal("Мирный1") },
      { Доктор: heal("Мирный1") },
    );
    expect(g.error).toBe("night 2: Доктор (doctor) may not heal Мирный1 two nights in a row (T3e)");
  });

  it("T3e: healing another player on the next night is allowed", () => {
    const g = twoNights(
      STANDARD,
      { Доктор: heal("Мирный1") },
      { Доктор: heal("Мирный2"), Босс: kill("Мирный2") },
    );
    expect(g.lastNight.died).toEqual([]);
  });

  it("T3e: the first limit lapses when alive at night start is 3", () => {
    const three = "Босс=boss Доктор=doctor Мирный1=citizen";
    const g = twoNights(
      three,
      { Доктор: heal("Мирный1") },
      { Доктор: heal("Мирный1"), Босс: kill("Мирный1") },
    );
    expect(g.lastNight.died).toEqual([]);
    const four = `${three} Мирный2=citizen`;
    expect(twoNights(four, { Доктор: heal("Мирный1") }, { Доктор: heal("Мирный1") }).error).toBe(
      "night 2: Доктор (doctor) may not heal Мирный1 two nights in a row (T3e)",
    );
  });

  it("T3e: a heal on a player whom last night's heal-from-role saved is accepted and does nothing", () => {
    const g = twoNights(
      STANDARD,
      { Босс: kill("Мирный1"), Доктор: healFrom("mafia") },
      { Доктор: heal("Мирный1"), Маньяк: quickKill("Мирный1") },
    );
    expect(g.result.phases[0]).toMatchObject({ died: [] });
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("T3e: a heal works on a player whom last night's heal-from-role covered but nobody attacked", () => {
    const g = twoNights(
      STANDARD,
      { Босс: kill("Мирный2"), Доктор: healFrom("mafia") },
      { Доктор: heal("Мирный1"), Маньяк: quickKill("Мирный1") },
    );
    expect(g.lastNight.died).toEqual([]);
  });

  it("T3e: the second limit lapses when alive at night start is 3", () => {
    const keep = ["Босс", "Доктор", "Мирный1"];
    const run = (left: string[]): Scenario =>
      quietDay(
        game(STANDARD).night(
          { Босс: kill("Мирный1"), Доктор: healFrom("mafia") },
          { gm: except(NAMES, ...left).map((modkill) => ({ modkill, reason: "test" })) },
        ),
      ).night({ Доктор: heal("Мирный1"), Босс: kill("Мирный1") });
    const three = run(keep);
    expect(three.result.phases[0]!.died).not.toContain("Мирный1");
    expect(three.lastNight.died).toEqual([]);
    const four = run([...keep, "Мирный2"]);
    expect(four.lastNight.died).toEqual(["Мирный1"]);
  });

  it("T3e: heal-from-role does not protect last night's heal target (silently)", () => {
    const g = twoNights(
      STANDARD,
      { Доктор: heal("Мирный1") },
      { Доктор: healFrom("mafia"), Босс: kill("Мирный1", "Мирный2") },
    );
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("T3e: heal-from-role protects everyone when last night's heal was on someone else", () => {
    const g = twoNights(
      STANDARD,
      { Доктор: heal("Мирный3") },
      { Доктор: healFrom("mafia"), Босс: kill("Мирный1", "Мирный2") },
    );
    expect(g.lastNight.died).toEqual([]);
  });

  it("T3e: the third limit uses last night's submitted heal, even a blocked one", () => {
    const g = twoNights(
      STANDARD,
      { Девочка: visit("Доктор"), Доктор: heal("Мирный1") },
      { Доктор: healFrom("mafia"), Босс: kill("Мирный1") },
    );
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });
  // The third limit's exemption at 3 alive cannot show: heal-from-role needs more than 10 alive (T3c).
});

describe("T4: the girl", () => {
  const cancelled: { role: string; actions: Actions; died: string[]; checks: unknown[] }[] = [
    {
      role: "the doctor's heal",
      actions: { Девочка: visit("Доктор"), Доктор: heal("Мирный1"), Босс: kill("Мирный1") },
      died: ["Мирный1"],
      checks: [],
    },
    {
      role: "the sergeant's check",
      actions: { Девочка: visit("Сержант"), Сержант: check("Босс") },
      died: [],
      checks: [{ target: "Босс", result: "failed" }],
    },
    {
      role: "the maniac's kill",
      actions: { Девочка: visit("Маньяк"), Маньяк: quickKill("Мирный1") },
      died: [],
      checks: [],
    },
    {
      role: "the sheriff's shot",
      actions: { Девочка: visit("Шериф"), Шериф: shoot("Мирный1") },
      died: [],
      checks: [],
    },
    {
      role: "the shahid's mark",
      actions: { Девочка: visit("Шахид"), Шахид: mark("Мирный1"), Босс: kill("Шахид") },
      died: ["Шахид"],
      checks: [],
    },
  ];
  const cancelledRows = cancelled.map((r): [string, (typeof cancelled)[number]] => [r.role, r]);
  it.each(cancelledRows)("T4: the girl's visit cancels %s", (_, { actions, died, checks }) => {
    const g = game(STANDARD).night(actions, { rolls: NO_ROLLS });
    expect(g.lastNight.died).toEqual(died);
    expect(g.lastNight.checks).toEqual(checks);
  });

  it("T4: the girl's visit cancels the doctor's serum and poison alike", () => {
    const s = game(STANDARD).night(
      { Девочка: visit("Доктор"), Доктор: serum("Маньяк") },
      { rolls: NO_ROLLS },
    );
    expect(s.lastNight.revealed).toEqual({});
    const p = game(STANDARD).night(
      { Девочка: visit("Доктор"), Доктор: poison("Маньяк") },
      { rolls: NO_ROLLS },
    );
    expect(p.lastNight.silenced).toEqual([]);
  });

  it("T4: visiting a lower-ranked mafioso who sent the kill does not stop it", () => {
    const g = game(STANDARD).night(
      { Тролль: kill("Мирный1"), Девочка: visit("Тролль") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("T4: visiting a lower-ranked mafioso does not stop the boss's kill", () => {
    const g = game(STANDARD).night({ Босс: kill("Мирный1"), Девочка: visit("Эльф") }, { rolls: NO_ROLLS });
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("T4: visiting the current boss cancels the mafia's action, even one the troll sent", () => {
    const g = game(STANDARD).night({ Тролль: kill("Мирный1"), Девочка: visit("Босс") }, { rolls: NO_ROLLS });
    expect(g.lastNight.died).toEqual([]);
  });

  it("T4: after the boss dies, visiting the troll (now boss) cancels the mafia's action", () => {
    const g = twoNights(
      STANDARD,
      { Шериф: shoot("Босс") },
      { Тролль: kill("Мирный1"), Девочка: visit("Тролль") },
    );
    expect(g.lastNight.died).toEqual([]);
  });

  it("T4: the visit does not protect: the visited player still dies", () => {
    const g = game(STANDARD).night({ Девочка: visit("Мирный1"), Босс: kill("Мирный1") });
    expect(g.lastNight.died).toEqual(["Мирный1"]);
    expect(g.lastNight.silenced).toEqual([]);
  });

  const stillWork: {
    what: string;
    actions: Actions;
    revealed: object;
    silenced: string[];
    checks: unknown[];
  }[] = [
    {
      what: "the serum",
      actions: { Девочка: visit("Маньяк"), Доктор: serum("Маньяк") },
      revealed: { Маньяк: "maniac" },
      silenced: [],
      checks: [],
    },
    {
      what: "intimidation",
      actions: { Девочка: visit("Маньяк"), Босс: intimidate("Маньяк") },
      revealed: {},
      silenced: ["Маньяк"],
      checks: [],
    },
    {
      what: "the check",
      actions: { Девочка: visit("Громила"), Сержант: check("Громила") },
      revealed: {},
      silenced: [],
      checks: [{ target: "Громила", result: "mafia" }],
    },
  ];
  const stillWorkRows = stillWork.map((r): [string, (typeof stillWork)[number]] => [r.what, r]);
  it.each(stillWorkRows)("T4: the visit does not stop %s on the visited player", (_, row) => {
    const g = game(STANDARD).night(row.actions, { rolls: NO_ROLLS });
    expect(g.lastNight.revealed).toEqual(row.revealed);
    expect(g.lastNight.silenced).toEqual(row.silenced);
    expect(g.lastNight.checks).toEqual(row.checks);
  });

  it("T4: with the girlSilence roll the visited player loses the next day's vote", () => {
    const g = game(STANDARD).night({ Девочка: visit("Мирный1") }, { rolls: { girlSilence: true } });
    expect(g.lastNight.silenced).toEqual(["Мирный1"]);
    expect(g.day("Мирный1>Босс").error).toBe("day 1: Мирный1 (citizen) cannot vote today (V6)");
  });

  it("T4: without the girlSilence roll the visited player keeps the vote", () => {
    const g = game(STANDARD).night({ Девочка: visit("Мирный1") }, { rolls: { girlSilence: false } });
    expect(g.lastNight.silenced).toEqual([]);
    // Мирный1's red vote counts: 1 on top of the Босс's own +2 for not voting (P1).
    expect(g.day("Мирный1>Босс").lastDay.score["Босс"]).toBe(3);
  });

  it("T4: the girlSilence roll is needed when the visited player survives", () => {
    expect(game(STANDARD).night({ Девочка: visit("Мирный1") }).error).toBe(
      "night 1: the roll girlSilence for Девочка (girl) is needed, but it is not fixed and there is no seed (O8)",
    );
  });

  it("T4: no visit to the same player two nights in a row", () => {
    const g = twoNights(STANDARD, { Девочка: visit("Мирный1") }, { Девочка: visit("Мирный1") });
    expect(g.error).toBe("night 2: Девочка (girl) may not visit Мирный1 two nights in a row (T4)");
  });

  it("T4: the repeat limit counts last night's visit even when the thug blocked it (O1b)", () => {
    const g = twoNights(
      STANDARD,
      { Громила: block("Девочка"), Девочка: visit("Мирный1") },
      { Девочка: visit("Мирный1") },
    );
    expect(g.error).toBe("night 2: Девочка (girl) may not visit Мирный1 two nights in a row (T4)");
  });

  it("T4: a different player on the next night is allowed", () => {
    const g = twoNights(
      STANDARD,
      { Девочка: visit("Мирный1") },
      { Девочка: visit("Маньяк"), Маньяк: quickKill("Мирный2") },
    );
    expect(g.lastNight.died).toEqual([]);
  });

  it("T4: the same player two nights in a row is allowed when alive at night start is 3", () => {
    const three = "Босс=boss Девочка=girl Мирный1=citizen";
    const g = twoNights(
      three,
      { Девочка: visit("Босс"), Босс: kill("Мирный1") },
      {
        Девочка: visit("Босс"),
        Босс: kill("Мирный1"),
      },
    );
    expect(g.result.phases[0]).toMatchObject({ died: [] });
    expect(g.lastNight.died).toEqual([]);
    const four = `${three} Мирный2=citizen`;
    expect(twoNights(four, { Девочка: visit("Босс") }, { Девочка: visit("Босс") }).error).toBe(
      "night 2: Девочка (girl) may not visit Босс two nights in a row (T4)",
    );
  });
});

describe("T5: the prosecutor", () => {
  it("T5: the prosecutor's unprotect voids the lawyer's protect (V8)", () => {
    const g = lynchDay(
      game(STANDARD).night({ Адвокат: protect("Мирный1"), Прокурор: unprotect("Мирный1") }),
      "Мирный1",
    );
    expect(g.lastDay.hanged).toBe("Мирный1");
    expect(g.lastDay.excused).toBe(null);
  });

  it("T5: without the unprotect the lawyer excuses the player (V8)", () => {
    const g = lynchDay(game(STANDARD).night({ Адвокат: protect("Мирный1") }), "Мирный1");
    expect(g.lastDay.hanged).toBe(null);
    expect(g.lastDay.excused).toBe("Мирный1");
  });

  it("T5: an unprotect on another player leaves the protect standing", () => {
    const g = lynchDay(
      game(STANDARD).night({ Адвокат: protect("Мирный1"), Прокурор: unprotect("Мирный2") }),
      "Мирный1",
    );
    expect(g.lastDay.hanged).toBe(null);
    expect(g.lastDay.excused).toBe("Мирный1");
  });

  it("T5: a blocked prosecutor's unprotect does nothing", () => {
    const g = lynchDay(
      game(STANDARD).night(
        { Адвокат: protect("Мирный1"), Прокурор: unprotect("Мирный1"), Громила: block("Прокурор") },
        { rolls: NO_ROLLS },
      ),
      "Мирный1",
    );
    expect(g.lastDay.hanged).toBe(null);
    expect(g.lastDay.excused).toBe("Мирный1");
  });

  it("T5: the prosecutor's red vote counts 2", () => {
    const n = game(STANDARD).night();
    const s = n.match.state;
    const votes: ReplayVote[] = s.players.map((p) =>
      p.name === "Прокурор"
        ? { by: p.name, red: "Мирный1" }
        : { by: p.name, blue: p.name === "Мирный5" ? "Мирный4" : "Мирный5" },
    );
    const g = n.day(votes);
    expect(g.lastDay.score["Мирный1"]).toBe(2);
    expect(g.lastDay.hanged).toBe("Мирный1");
  });
});

describe("T6: the shahid", () => {
  const attackers: [string, Actions][] = [
    ["the mafia", { Босс: kill("Шахид") }],
    ["the maniac's bloody kill", { Маньяк: bloodyKill("Шахид") }],
    ["the maniac's quick kill", { Маньяк: quickKill("Шахид") }],
    ["the sheriff", { Шериф: shoot("Шахид") }],
  ];
  it.each(attackers)("T6: the shahid attacked by %s takes the marked player along", (_, attack) => {
    const g = game(STANDARD).night({ ...attack, Шахид: mark("Мирный1") });
    expect(g.lastNight.died).toEqual(["Мирный1", "Шахид"]);
    expect(g.lastNight.revealed).toEqual({ Мирный1: "citizen", Шахид: "shahid" });
  });

  it("T6: the mark fires even if the doctor saved the shahid", () => {
    const g = game(STANDARD).night({ Босс: kill("Шахид"), Доктор: heal("Шахид"), Шахид: mark("Мирный1") });
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("T6: a blocked shahid can still die, but the mark does nothing", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Шахид"), Босс: kill("Шахид"), Шахид: mark("Мирный1") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.died).toEqual(["Шахид"]);
  });

  it("T6: a heal on the marked player saves them", () => {
    const g = game(STANDARD).night({
      Шериф: shoot("Шахид"),
      Доктор: heal("Мирный1"),
      Шахид: mark("Мирный1"),
    });
    expect(g.lastNight.died).toEqual(["Шахид"]);
  });

  it("T6: a shahid nobody attacks takes nobody along", () => {
    const g = game(STANDARD).night({ Шахид: mark("Мирный1"), Босс: kill("Мирный2") });
    expect(g.lastNight.died).toEqual(["Мирный2"]);
  });

  it("T6: torture and intimidation are not attacks: the mark does nothing", () => {
    const g = game(STANDARD).night(
      { Маньяк: torture("Шахид"), Босс: intimidate("Шахид"), Шахид: mark("Мирный1") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.died).toEqual([]);
  });

  it("T6: the shahid may mark a mafioso, the boss included", () => {
    const g = game(STANDARD).night({ Шериф: shoot("Шахид"), Шахид: mark("Босс") });
    expect(g.lastNight.died).toEqual(["Босс", "Шахид"]);
  });

  it("T6: the mark lasts that night only", () => {
    const g = twoNights(STANDARD, { Шахид: mark("Мирный1") }, { Шахид: pass(), Босс: kill("Шахид") });
    expect(g.lastNight.died).toEqual(["Шахид"]);
  });

  it("T6: no mark on the same player two nights in a row", () => {
    const g = twoNights(STANDARD, { Шахид: mark("Мирный1") }, { Шахид: mark("Мирный1") });
    expect(g.error).toBe("night 2: Шахид (shahid) may not mark Мирный1 two nights in a row (T6)");
  });

  it("T6: the same mark two nights in a row is allowed when alive at night start is 3", () => {
    const three = "Босс=boss Шахид=shahid Мирный1=citizen";
    const g = twoNights(three, { Шахид: mark("Мирный1") }, { Шахид: mark("Мирный1"), Босс: kill("Шахид") });
    expect(g.lastNight.died).toEqual(["Мирный1", "Шахид"]);
    const four = `${three} Мирный2=citizen`;
    expect(twoNights(four, { Шахид: mark("Мирный1") }, { Шахид: mark("Мирный1") }).error).toBe(
      "night 2: Шахид (shahid) may not mark Мирный1 two nights in a row (T6)",
    );
  });
});

describe("T7: citizens", () => {
  it("T7: a citizen's pass is refused: there is no night action", () => {
    expect(game(STANDARD).night({ Мирный1: pass() }).error).toBe(
      "night 1: Мирный1 (citizen) has no night action to pass (T7)",
    );
  });

  it("T7: a citizen's action is refused with the act's clause", () => {
    expect(game(STANDARD).night({ Мирный1: visit("Босс") }).error).toBe(
      "night 1: Мирный1 (citizen) may not visit: only the girl can (T4)",
    );
    expect(game(STANDARD).night({ Мирный1: shoot("Босс") }).error).toBe(
      "night 1: Мирный1 (citizen) may not shoot: only the sheriff can (T1)",
    );
  });

  it("T7: a silent citizen gets no strike (P2 applies to roles with a night action only)", () => {
    const g = game(STANDARD).night({}, { autoPass: false });
    const s = g.match.state;
    expect(s.day.penalty.map((seat) => s.players[seat]!.name).sort()).toEqual([...ACTING].sort());
  });
});
