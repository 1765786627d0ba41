/**
 * RULES.md §9, night resolution order (O0–O9), and R1's reveal threshold as it crosses 11 → 10 alive.
 */
import { describe, expect, it } from "vitest";
import { ACT_KINDS, TARGETED_ACTS } from "../src/night-action.ts";
import { runReplay, type NightOutcome, type RoleId, type RollName } from "../src/index.ts";
import { seatByName } from "../src/match.ts";
import type { DayResultJson } from "../src/replay.ts";
import {
  STANDARD,
  block,
  bloodyKill,
  chance,
  check,
  game,
  heal,
  healFrom,
  intimidate,
  kill,
  killAndIntimidate,
  lynchDay,
  mark,
  pass,
  poison,
  protect,
  question,
  quickKill,
  quietDay,
  referenceRng,
  serum,
  shoot,
  torture,
  unprotect,
  visit,
  without,
  type Scenario,
  expectFields,
} from "./scenario.ts";
import { NIGHT_STEPS } from "../src/night.ts";

// ---------------------------------------------------------------------------------------------------
// Helpers

/** The engine's outcome of the last phase, which must be a night. */
function nightOutcome(g: Scenario): NightOutcome {
  const o = g.match.outcomes.at(-1)!.outcome;
  if (o.phase.kind !== "night") throw new Error("the last phase is not a night");
  return o as NightOutcome;
}

const seat = (g: Scenario, name: string): number => {
  const s = seatByName(g.match.state, name);
  if (s === null) throw new Error(`no player ${name}`);
  return s;
};

/** Each attack of the last night as "target source kind [cancelled]", sorted. */
function attacksOf(g: Scenario): string[] {
  const players = g.match.state.players;
  return nightOutcome(g)
    .attacks.map(
      (a) => `${players[a.target]!.name} ${a.source} ${a.kind}${a.cancelledBy ? ` ×${a.cancelledBy}` : ""}`,
    )
    .sort();
}

const CHANCE: Record<RollName, number> = {
  bossExposed: 0.75,
  doctorExposed: 0.5,
  tortureEvidence: 0.5,
  girlSilence: 0.5,
  thugSilence: 0.5,
};

/** The rolls F1's generator gives for these names, drawn one after another from the `from`th draw on. */
function expectedDraws(seed: string, names: RollName[], from = 0): { name: RollName; value: boolean }[] {
  const next = referenceRng(`rolls:${seed}`);
  for (let i = 0; i < from; i++) next();
  return names.map((name) => ({ name, value: chance(next(), CHANCE[name]) }));
}

// ---------------------------------------------------------------------------------------------------

describe("§9: the night is resolved as a list of its clauses", () => {
  it("O9: NIGHT_STEPS runs O1 to O8 in §9's order, P3's strikes and modkills before the O8 rolls, O9 last", () => {
    // By hand from RULES.md §9: O0 (simultaneity) and O1a, O1b (checked at submission) are no steps;
    // P3's modkills come before O8, whose rolls M3 and N1c decide with the modkills counted.
    const order = ["O1", "O2", "O3", "O4", "O5", "O6", "O7", "P3", "O8", "O9"];
    expect(NIGHT_STEPS.map((s) => s.clause)).toEqual(order);
  });
});

describe("O0: night actions are simultaneous", () => {
  it("O0: a doctor killed in the night still heals", () => {
    const g = game(STANDARD).night({
      Босс: kill("Доктор"),
      Доктор: heal("Мирный1"),
      Маньяк: quickKill("Мирный1"),
    });
    expect(g.lastNight.died).toEqual(["Доктор"]);
    expect(g.lastNight.revealed).toEqual({ Доктор: "doctor" });
  });

  it("O0: a girl killed in the night still blocks (and her silence roll still applies)", () => {
    const g = game(STANDARD).night(
      { Босс: kill("Девочка"), Девочка: visit("Маньяк"), Маньяк: quickKill("Мирный1") },
      { rolls: { girlSilence: true } },
    );
    expect(g.lastNight.died).toEqual(["Девочка"]);
    expect(g.lastNight.silenced).toEqual(["Маньяк"]);
  });

  it("O0: a sergeant killed in the night still checks", () => {
    const g = game(STANDARD).night({ Маньяк: quickKill("Сержант"), Сержант: check("Громила") });
    expect(g.lastNight.died).toEqual(["Сержант"]);
    expect(g.lastNight.checks).toEqual([{ target: "Громила", result: "mafia" }]);
  });

  it("O0: a thug killed in the night still blocks", () => {
    const g = game(STANDARD).night(
      {
        Шериф: shoot("Громила"),
        Громила: block("Доктор"),
        Доктор: heal("Мирный1"),
        Босс: kill("Мирный1"),
      },
      { rolls: { thugSilence: false } },
    );
    expect(g.lastNight.died).toEqual(["Громила", "Мирный1"]);
  });

  it("O0: a sheriff killed in the night still shoots, a maniac killed in the night still kills", () => {
    const g = game(STANDARD).night({
      Босс: kill("Шериф"),
      Шериф: shoot("Маньяк"),
      Маньяк: quickKill("Мирный1"),
    });
    expect(g.lastNight.died).toEqual(["Маньяк", "Мирный1", "Шериф"]);
  });

  it("O0: the boss killed in the night still sends the mafia's action", () => {
    const g = game(STANDARD).night({ Шериф: shoot("Босс"), Босс: kill("Мирный1") });
    expect(g.lastNight.died).toEqual(["Босс", "Мирный1"]);
  });

  it("O0: a lawyer killed in the night still protects for the next day (M5)", () => {
    const g = game(STANDARD).night({ Маньяк: quickKill("Адвокат"), Адвокат: protect("Мирный1") });
    expect(g.lastNight.died).toEqual(["Адвокат"]);
    const d = lynchDay(g, "Мирный1").lastDay;
    expect(d).toMatchObject({ hanged: null, excused: "Мирный1", died: [] });
  });
});

describe("O1: the current boss, the mafia's action, and refusals at submission", () => {
  it("O1: the list of acts holds every act once, the mafia's first and the pass last", () => {
    const all = new Set<string>([...TARGETED_ACTS, "mafia", "council", "healFrom", "pass"]);
    expect([...ACT_KINDS].sort()).toEqual([...all].sort());
    expect(ACT_KINDS.slice(0, 2)).toEqual(["mafia", "council"]);
    expect(ACT_KINDS.at(-1)).toBe("pass");
  });

  it("O1: an illegal action is refused with one line naming the phase, the player and the clause", () => {
    expect(game(STANDARD).night({ Шахид: mark("Шахид") }).error).toBe(
      "night 1: Шахид (shahid) may not mark themselves (O1a)",
    );
    expect(game(STANDARD).night({ Мирный1: shoot("Босс") }).error).toBe(
      "night 1: Мирный1 (citizen) may not shoot: only the sheriff can (T1)",
    );
    expect(game(STANDARD).night({ Шериф: heal("Мирный1") }).error).toBe(
      "night 1: Шериф (sheriff) may not heal: only the doctor can (T3b)",
    );
    expect(game(STANDARD).night({ Доктор: kill("Мирный1") }).error).toMatch(
      /^night 1: Доктор \(doctor\) .*mafia.* \(M2\)$/,
    );
    expect(game(STANDARD).night({ Мирный1: pass() }).error).toBe(
      "night 1: Мирный1 (citizen) has no night action to pass (T7)",
    );
    expect(game(STANDARD).night({ Вася: pass() }).error).toBe('night 1: unknown player "Вася" (O1)');
  });

  it("O1: an illegal action is an error even if a later submission would replace it", () => {
    expect(game(STANDARD).night({ Девочка: [visit("Девочка"), visit("Босс")] }).error).toBe(
      "night 1: Девочка (girl) may not visit themselves (O1a)",
    );
    const n1 = game(STANDARD).night({ Девочка: visit("Мирный1") }, { rolls: { girlSilence: false } });
    expect(quietDay(n1).night({ Девочка: [visit("Мирный1"), visit("Мирный2")] }).error).toBe(
      "night 2: Девочка (girl) may not visit Мирный1 two nights in a row (T4)",
    );
    expect(game(STANDARD).night({ Босс: [kill("Тролль"), kill("Мирный1")] }).error).toBe(
      "night 1: Босс (boss): the mafia may not kill a mafia member (Тролль) (O1a)",
    );
  });

  it("O1: a later legal submission replaces an earlier one in the same slot", () => {
    const g = game(STANDARD).night({ Маньяк: [quickKill("Мирный1"), quickKill("Мирный2")] });
    expect(g.lastNight.died).toEqual(["Мирный2"]);
    const p = game(STANDARD).night([
      ["Шериф", shoot("Мирный1")],
      ["Сержант", check("Босс")],
    ]);
    expect(p.lastNight.died).toEqual([]);
    expect(p.lastNight.checks).toEqual([{ target: "Босс", result: "mafia" }]);
  });

  it("O1: the boss's own mafia action wins over a lower-ranked member's, whatever the order (M4)", () => {
    const early = game(STANDARD).night([
      ["Босс", kill("Мирный2")],
      ["Тролль", kill("Мирный1")],
      ["Эльф", kill("Мирный3")],
    ]);
    expect(early.lastNight.died).toEqual(["Мирный2"]);
    const late = game(STANDARD).night([
      ["Тролль", kill("Мирный1")],
      ["Эльф", kill("Мирный3")],
      ["Босс", kill("Мирный2")],
    ]);
    expect(late.lastNight.died).toEqual(["Мирный2"]);
  });

  it("O1: when the boss sends nothing, the highest-ranked other living mafioso's action counts (M4)", () => {
    const g = game(STANDARD).night([
      ["Громила", { act: "mafia", kill: ["Мирный4"] }],
      ["Адвокат", { act: "mafia", kill: ["Мирный3"] }],
      ["Эльф", kill("Мирный1")],
      ["Тролль", kill("Мирный2")],
      ["Громила", pass()],
      ["Адвокат", protect("Мирный5")],
    ]);
    expect(g.lastNight.died).toEqual(["Мирный2"]);
    const h = game(STANDARD).night([
      ["Громила", { act: "mafia", kill: ["Мирный4"] }],
      ["Адвокат", { act: "mafia", kill: ["Мирный3"] }],
      ["Громила", pass()],
      ["Адвокат", protect("Мирный5")],
    ]);
    expect(h.lastNight.died).toEqual(["Мирный3"]);
  });

  it("O1: the mafia's action is cancelled iff the current boss is blocked, whoever sent it (T4)", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Босс"), Тролль: kill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(g.lastNight.died).toEqual([]);
    const h = game(STANDARD).night(
      { Девочка: visit("Тролль"), Тролль: kill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(h.lastNight.died).toEqual(["Мирный1"]);
  });

  it("O1: after the boss dies, the troll is the current boss from the next night (M1)", () => {
    const n1 = game(STANDARD).night({ Шериф: shoot("Босс") });
    expect(n1.lastNight.died).toEqual(["Босс"]);
    const d1 = quietDay(n1);
    expect(d1.match.state.boss).toBe(seat(d1, "Тролль"));
    const blocked = d1.night(
      { Девочка: visit("Тролль"), Эльф: kill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(blocked.lastNight.died).toEqual([]);
    const free = d1.night(
      { Девочка: visit("Эльф"), Эльф: kill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(free.lastNight.died).toEqual(["Мирный1"]);
  });
});

describe("O1a: targets", () => {
  it("O1a: a target must be a living player", () => {
    const g = quietDay(game(STANDARD).night({ Босс: kill("Мирный1") }));
    expect(g.night({ Шериф: shoot("Мирный1") }).error).toBe(
      "night 2: Шериф (sheriff) may not shoot Мирный1: not alive (O1a)",
    );
    expect(g.night({ Босс: kill("Мирный1") }).error).toBe(
      "night 2: Босс (boss) may not kill Мирный1: not alive (O1a)",
    );
    expect(g.night({ Босс: intimidate("Мирный2", "Мирный1") }).error).toBe(
      "night 2: Босс (boss) may not intimidate Мирный1: not alive (O1a)",
    );
    expect(game(STANDARD).night({ Девочка: visit("Вася") }).error).toBe(
      'night 1: unknown player "Вася" (O1a)',
    );
  });

  it.each([
    ["Громила", "block", block("Громила")],
    ["Маньяк", "kill", bloodyKill("Маньяк")],
    ["Маньяк", "kill", quickKill("Маньяк")],
    ["Маньяк", "torture", torture("Маньяк")],
    ["Шериф", "shoot", shoot("Шериф")],
    ["Сержант", "check", check("Сержант")],
    ["Доктор", "use serum on", serum("Доктор")],
    ["Доктор", "poison", poison("Доктор")],
    ["Девочка", "visit", visit("Девочка")],
    ["Прокурор", "unprotect", unprotect("Прокурор")],
    ["Шахид", "mark", mark("Шахид")],
  ])("O1a: %s may not %s themselves", (name, verb, action) => {
    const role = game(STANDARD).match.state.players.find((p) => p.name === name)!.role;
    expect(game(STANDARD).night({ [name]: action }).error).toBe(
      `night 1: ${name} (${role}) may not ${verb} themselves (O1a)`,
    );
  });

  it("O1a: the doctor's heal may target the doctor", () => {
    const g = game(STANDARD).night({ Доктор: heal("Доктор"), Босс: kill("Доктор") });
    expect(g.lastNight.died).toEqual([]);
  });

  it("O1a: the lawyer's protect may target the lawyer", () => {
    const g = game(STANDARD).night({ Адвокат: protect("Адвокат") });
    expect(g.match.state.day.protect).toBe(seat(g, "Адвокат"));
    expect(lynchDay(g, "Адвокат").lastDay).toMatchObject({ hanged: null, excused: "Адвокат" });
  });

  it("O1a: the mafia's kills and intimidations may not target mafia members, the boss included", () => {
    expect(game(STANDARD).night({ Босс: kill("Мирный1", "Эльф") }).error).toBe(
      "night 1: Босс (boss): the mafia may not kill a mafia member (Эльф) (O1a)",
    );
    expect(game(STANDARD).night({ Босс: intimidate("Громила") }).error).toBe(
      "night 1: Босс (boss): the mafia may not intimidate a mafia member (Громила) (O1a)",
    );
    expect(game(STANDARD).night({ Тролль: kill("Босс") }).error).toBe(
      "night 1: Тролль (troll): the mafia may not kill a mafia member (Босс) (O1a)",
    );
  });

  it("O1a: the thug's block and the maniac's kill may target mafia members", () => {
    const g = game(STANDARD).night(
      { Громила: block("Адвокат"), Маньяк: quickKill("Тролль") },
      { rolls: { thugSilence: false } },
    );
    expect(g.lastNight.died).toEqual(["Тролль"]);
  });

  it("O1a: the targets of one mafia action are distinct players", () => {
    const message = "night 1: Босс (boss): the targets of one mafia action must be distinct (O1a)";
    expect(game(STANDARD).night({ Босс: kill("Мирный1", "Мирный1") }).error).toBe(message);
    expect(game(STANDARD).night({ Босс: killAndIntimidate("Мирный1", "Мирный1") }).error).toBe(message);
    expect(game(STANDARD).night({ Босс: intimidate("Мирный1", "Мирный2", "Мирный1") }).error).toBe(message);
  });
});

describe("O1b: repeat limits compare with last night's submission", () => {
  it("O1b: the girl's visit counts last night even though the thug blocked it (T4)", () => {
    const n1 = game(STANDARD).night(
      { Громила: block("Девочка"), Девочка: visit("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expect(nightOutcome(n1).blocked).toEqual([seat(n1, "Девочка")]);
    expect(quietDay(n1).night({ Девочка: visit("Мирный1") }).error).toBe(
      "night 2: Девочка (girl) may not visit Мирный1 two nights in a row (T4)",
    );
  });

  it("O1b: the thug's block counts last night even though the girl blocked it (M6)", () => {
    const n1 = game(STANDARD).night(
      { Девочка: visit("Громила"), Громила: block("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(quietDay(n1).night({ Громила: block("Мирный1") }).error).toBe(
      "night 2: Громила (thug) may not block Мирный1 two nights in a row (M6)",
    );
  });

  it("O1b: the shahid's mark counts last night even though the girl blocked it (T6)", () => {
    const n1 = game(STANDARD).night(
      { Девочка: visit("Шахид"), Шахид: mark("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(quietDay(n1).night({ Шахид: mark("Мирный1") }).error).toBe(
      "night 2: Шахид (shahid) may not mark Мирный1 two nights in a row (T6)",
    );
  });

  it("O1b: the doctor's heal and heal-from-role count last night even when blocked (T3e, T3c)", () => {
    const n1 = game(STANDARD).night(
      { Громила: block("Доктор"), Доктор: heal("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expect(quietDay(n1).night({ Доктор: heal("Мирный1") }).error).toBe(
      "night 2: Доктор (doctor) may not heal Мирный1 two nights in a row (T3e)",
    );
    const m1 = game(STANDARD).night(
      { Девочка: visit("Доктор"), Доктор: healFrom("mafia") },
      { rolls: { girlSilence: false } },
    );
    expect(quietDay(m1).night({ Доктор: healFrom("mafia") }).error).toBe(
      "night 2: Доктор (doctor) may not heal from mafia two nights in a row (T3c)",
    );
  });

  it("O1b: a blocked serum counts last night when fewer than 15 are alive (T3a)", () => {
    const lineup = without(STANDARD, "Мирный3", "Мирный4", "Мирный5");
    const n1 = game(lineup).night(
      { Девочка: visit("Доктор"), Доктор: serum("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(n1.lastNight.revealed).toEqual({});
    expect(quietDay(n1).night({ Доктор: serum("Мирный2") }).error).toBe(
      "night 2: Доктор (doctor) may not use serum two nights in a row when fewer than 15 are alive (T3a)",
    );
  });

  it("O1b: a different act on the same player last night does not trigger the limit", () => {
    const n1 = game(STANDARD).night({ Доктор: poison("Мирный1") });
    const n2 = quietDay(n1).night({ Доктор: heal("Мирный1"), Босс: kill("Мирный1") });
    expect(n2.lastNight.died).toEqual([]);
    const n3 = quietDay(n2).night({ Доктор: poison("Мирный1") });
    const n4 = quietDay(n3).night({ Доктор: heal("Мирный1"), Маньяк: quickKill("Мирный1") });
    expect(n4.lastNight.died).toEqual([]);
    const s1 = game(STANDARD).night({ Доктор: serum("Мирный2") }, { rolls: { doctorExposed: false } });
    expect(quietDay(s1).night({ Доктор: heal("Мирный2") }).lastNight.died).toEqual([]);
    const h1 = game(STANDARD).night({ Доктор: healFrom("mafia") });
    expect(quietDay(h1).night({ Доктор: healFrom("maniac") }).lastNight.died).toEqual([]);
  });

  it("O1b: the limit compares with last night's final submission, not one it replaced", () => {
    const n1 = game(STANDARD).night(
      { Девочка: [visit("Мирный1"), visit("Мирный2")] },
      { rolls: { girlSilence: false } },
    );
    const n2 = quietDay(n1).night({ Девочка: visit("Мирный1") }, { rolls: { girlSilence: true } });
    expect(n2.lastNight.silenced).toEqual(["Мирный1"]);
  });

  it("O1b: a night's pass in between lifts the limit", () => {
    const n1 = game(STANDARD).night({ Шахид: mark("Мирный1") });
    const n2 = quietDay(n1).night({ Шахид: pass() });
    const n3 = quietDay(n2).night({ Шахид: mark("Мирный1"), Босс: kill("Шахид") });
    expect(n3.lastNight.died).toEqual(["Мирный1", "Шахид"]);
  });
});

describe("O2: blocks", () => {
  it("O2: when the thug and the girl target each other, the girl is blocked and the block stands (M7)", () => {
    const g = game(STANDARD).night(
      { Громила: block("Девочка"), Девочка: visit("Громила") },
      { rolls: { thugSilence: true, girlSilence: true } },
    );
    const o = nightOutcome(g);
    expect(o.blocked).toEqual([seat(g, "Девочка")]);
    expect(o.rolls).toEqual([{ name: "thugSilence", value: true, fixed: true }]);
    expect(g.lastNight.silenced).toEqual(["Девочка"]);
  });

  it("O2: the thug's block on the girl stops her visit on the boss", () => {
    const g = game(STANDARD).night(
      { Громила: block("Девочка"), Девочка: visit("Босс"), Босс: kill("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("O2: the girl's visit on the thug blocks him when he does not target her", () => {
    const g = game(STANDARD).night(
      { Громила: block("Доктор"), Девочка: visit("Громила"), Доктор: heal("Мирный1"), Босс: kill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(nightOutcome(g).blocked).toEqual([seat(g, "Громила")]);
    expect(g.lastNight.died).toEqual([]);
  });

  it("O2: two unrelated blocks both apply", () => {
    const g = game(STANDARD).night(
      {
        Громила: block("Доктор"),
        Девочка: visit("Маньяк"),
        Маньяк: quickKill("Мирный1"),
        Доктор: heal("Мирный2"),
        Босс: kill("Мирный2"),
      },
      { rolls: { girlSilence: true, thugSilence: false } },
    );
    expect(nightOutcome(g).blocked).toEqual([seat(g, "Маньяк"), seat(g, "Доктор")]);
    expect(g.lastNight.died).toEqual(["Мирный2"]);
    expect(g.lastNight.silenced).toEqual(["Маньяк"]);
  });

  it("O2: a blocked thug performs nothing: no block, no collateral death, no silence roll (M8)", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Громила"), Громила: block("Мирный1"), Маньяк: bloodyKill("Мирный1") },
      { rolls: { girlSilence: false, thugSilence: true } },
    );
    expectFields(g.lastNight, {
      died: ["Мирный1"],
      revealed: { Мирный1: "citizen" },
      maniacVictims: ["Мирный1"],
      silenced: [],
    });
    expect(nightOutcome(g).rolls).toEqual([{ name: "girlSilence", value: false, fixed: true }]);
  });

  it("O2: a blocked girl performs nothing: no visit, no collateral death, no silence roll", () => {
    const g = game(STANDARD).night(
      { Громила: block("Девочка"), Девочка: visit("Мирный1"), Маньяк: bloodyKill("Мирный1") },
      { rolls: { girlSilence: true, thugSilence: false } },
    );
    expectFields(g.lastNight, { died: ["Мирный1"], silenced: [] });
    expect(nightOutcome(g).rolls).toEqual([{ name: "thugSilence", value: false, fixed: true }]);
  });

  it("O2: a thug who is boss has one slot: the mafia's action or the block; the girl's visit cancels it (M6)", () => {
    const lineup = without(STANDARD, "Босс", "Тролль", "Эльф", "Адвокат");
    const killed = game(lineup).night({ Громила: kill("Мирный1") });
    expect(killed.match.state.boss).toBe(seat(killed, "Громила"));
    expect(killed.lastNight.died).toEqual(["Мирный1"]);
    const replaced = game(lineup).night(
      { Громила: [kill("Мирный1"), block("Доктор")], Доктор: heal("Мирный2") },
      { rolls: { thugSilence: true } },
    );
    expectFields(replaced.lastNight, { died: [], silenced: ["Доктор"] });
    const visited = game(lineup).night(
      { Девочка: visit("Громила"), Громила: kill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(visited.lastNight.died).toEqual([]);
  });

  it("O2: a block cancels the sheriff's shot and the sergeant's check, not the idle partner (T1, T2)", () => {
    const shot = game(STANDARD).night(
      { Девочка: visit("Шериф"), Шериф: shoot("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(shot.lastNight.died).toEqual([]);
    const checked = game(STANDARD).night(
      { Девочка: visit("Сержант"), Сержант: check("Босс") },
      { rolls: { girlSilence: false } },
    );
    expect(checked.lastNight.checks).toEqual([{ target: "Босс", result: "failed" }]);
    const idle = game(STANDARD).night(
      { Громила: block("Сержант"), Шериф: shoot("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expect(idle.lastNight.died).toEqual(["Мирный1"]);
  });
});

describe("O3: protect and unprotect for the next day", () => {
  it("O3: the lawyer's protect is recorded for the next day and excuses the hanged player (V8)", () => {
    const g = game(STANDARD).night({ Адвокат: protect("Мирный1") });
    expect(g.match.state.day).toMatchObject({ protect: seat(g, "Мирный1"), unprotect: null });
    expect(lynchDay(g, "Мирный1").lastDay).toMatchObject({ hanged: null, excused: "Мирный1", died: [] });
  });

  it("O3: the prosecutor's unprotect on the same player voids the protect (T5)", () => {
    const g = game(STANDARD).night({ Адвокат: protect("Мирный1"), Прокурор: unprotect("Мирный1") });
    expect(g.match.state.day).toMatchObject({ protect: seat(g, "Мирный1"), unprotect: seat(g, "Мирный1") });
    expect(lynchDay(g, "Мирный1").lastDay).toMatchObject({ hanged: "Мирный1", excused: null });
  });

  it("O3: an unprotect on another player leaves the protect in force", () => {
    const g = game(STANDARD).night({ Адвокат: protect("Мирный1"), Прокурор: unprotect("Мирный2") });
    expect(lynchDay(g, "Мирный1").lastDay).toMatchObject({ hanged: null, excused: "Мирный1" });
  });

  it("O3: a blocked lawyer records no protect", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Адвокат"), Адвокат: protect("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(g.match.state.day.protect).toBeNull();
    expect(lynchDay(g, "Мирный1").lastDay).toMatchObject({ hanged: "Мирный1", excused: null });
  });

  it("O3: a blocked prosecutor records no unprotect", () => {
    const g = game(STANDARD).night(
      { Громила: block("Прокурор"), Прокурор: unprotect("Мирный1"), Адвокат: protect("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expect(g.match.state.day.unprotect).toBeNull();
    expect(lynchDay(g, "Мирный1").lastDay).toMatchObject({ hanged: null, excused: "Мирный1" });
  });

  it("O3: the protect holds for the next day only", () => {
    const g = quietDay(game(STANDARD).night({ Адвокат: protect("Мирный1") })).night({ Адвокат: pass() });
    expect(g.match.state.day.protect).toBeNull();
    expect(lynchDay(g, "Мирный1").lastDay).toMatchObject({ hanged: "Мирный1", excused: null });
  });
});

describe("O4: attacks and their sources", () => {
  it("O4: mafia kills, the maniac's kill with both collaterals, and the sheriff's shot", () => {
    const g = game(STANDARD).night({
      Босс: kill("Мирный1"),
      Маньяк: bloodyKill("Мирный2"),
      Девочка: visit("Мирный2"),
      Громила: block("Мирный2"),
      Шериф: shoot("Мирный3"),
    });
    expect(attacksOf(g)).toEqual([
      "Громила maniac collateral",
      "Девочка maniac collateral",
      "Мирный1 mafia kill",
      "Мирный2 maniac bloodyKill",
      "Мирный3 sheriff shot",
    ]);
    expectFields(g.lastNight, {
      died: ["Громила", "Девочка", "Мирный1", "Мирный2", "Мирный3"],
      revealed: {
        Громила: "thug",
        Девочка: "girl",
        Мирный1: "citizen",
        Мирный2: "citizen",
        Мирный3: "citizen",
      },
      maniacVictims: ["Мирный2"],
      silenced: [],
    });
  });

  it("O4: a double kill is two mafia attacks; a quick kill has no collateral", () => {
    const g = game(STANDARD).night(
      { Босс: kill("Мирный1", "Мирный2"), Маньяк: quickKill("Мирный3"), Девочка: visit("Мирный3") },
      { rolls: { bossExposed: false } },
    );
    expect(attacksOf(g)).toEqual(["Мирный1 mafia kill", "Мирный2 mafia kill", "Мирный3 maniac quickKill"]);
    expect(g.lastNight.died).toEqual(["Мирный1", "Мирный2", "Мирный3"]);
    expect(g.lastNight.maniacVictims).toEqual([]);
  });
});

describe("O5: the doctor cancels attacks", () => {
  it("O5: a heal cancels every attack on its target, whatever the source", () => {
    const g = game(STANDARD).night({
      Босс: kill("Мирный1"),
      Маньяк: quickKill("Мирный1"),
      Шериф: shoot("Мирный1"),
      Доктор: heal("Мирный1"),
    });
    expect(attacksOf(g)).toEqual([
      "Мирный1 mafia kill ×heal",
      "Мирный1 maniac quickKill ×heal",
      "Мирный1 sheriff shot ×heal",
    ]);
    expect(g.lastNight.died).toEqual([]);
  });

  it("O5: heal-from-mafia cancels both mafia kills but not the maniac's", () => {
    const g = game(STANDARD).night(
      { Босс: kill("Мирный1", "Мирный2"), Маньяк: quickKill("Мирный1"), Доктор: healFrom("mafia") },
      { rolls: { bossExposed: false } },
    );
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("O5: heal-from-maniac cancels the bloody kill and its collateral", () => {
    const g = game(STANDARD).night(
      { Маньяк: bloodyKill("Мирный1"), Девочка: visit("Мирный1"), Доктор: healFrom("maniac") },
      { rolls: { girlSilence: true } },
    );
    expectFields(g.lastNight, { died: [], maniacVictims: [], revealed: {}, silenced: ["Мирный1"] });
  });

  it("O5: heal-from-sheriff cancels the shot", () => {
    const g = game(STANDARD).night({ Шериф: shoot("Мирный1"), Доктор: healFrom("sheriff") });
    expect(g.lastNight.died).toEqual([]);
  });

  it("O5: a heal on a player whom last night's heal-from-role saved does nothing (T3e)", () => {
    const n1 = game(STANDARD).night({ Босс: kill("Мирный1"), Доктор: healFrom("mafia") });
    expect(n1.lastNight.died).toEqual([]);
    const n2 = quietDay(n1).night({ Босс: kill("Мирный1"), Доктор: heal("Мирный1") });
    expect(n2.lastNight.died).toEqual(["Мирный1"]);
  });

  it("O5: the silent limit concerns only those heal-from-role actually saved (T3e)", () => {
    const n1 = game(STANDARD).night({ Босс: kill("Мирный2"), Доктор: healFrom("mafia") });
    const n2 = quietDay(n1).night({ Босс: kill("Мирный1"), Доктор: heal("Мирный1") });
    expect(n2.lastNight.died).toEqual([]);
  });

  it("O5: heal-from-role does not protect last night's heal target (T3e)", () => {
    const n1 = game(STANDARD).night({ Доктор: heal("Мирный1") });
    const n2 = quietDay(n1).night(
      { Босс: kill("Мирный1", "Мирный2"), Доктор: healFrom("mafia") },
      { rolls: { bossExposed: false } },
    );
    expect(n2.lastNight.died).toEqual(["Мирный1"]);
  });

  it("O5: a blocked doctor cancels nothing", () => {
    const g = game(STANDARD).night(
      { Громила: block("Доктор"), Доктор: heal("Мирный1"), Босс: kill("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });
});

describe("O6: the shahid's mark, after the doctor", () => {
  it("O6: an attacked shahid takes the marked player along, even when a heal saves the shahid (T6)", () => {
    const g = game(STANDARD).night({ Босс: kill("Шахид"), Шахид: mark("Маньяк"), Доктор: heal("Шахид") });
    expect(attacksOf(g)).toEqual(["Маньяк shahid mark", "Шахид mafia kill ×heal"]);
    expectFields(g.lastNight, { died: ["Маньяк"], revealed: { Маньяк: "maniac" } });
  });

  it("O6: heal-from-role saving the shahid does not stop the mark", () => {
    const g = game(STANDARD).night({
      Босс: kill("Шахид"),
      Шахид: mark("Мирный1"),
      Доктор: healFrom("mafia"),
    });
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("O6: a heal on the marked player cancels the mark (the sheriff's shot also sets it off)", () => {
    const g = game(STANDARD).night({
      Шериф: shoot("Шахид"),
      Шахид: mark("Мирный1"),
      Доктор: heal("Мирный1"),
    });
    expect(attacksOf(g)).toEqual(["Мирный1 shahid mark ×heal", "Шахид sheriff shot"]);
    expect(g.lastNight.died).toEqual(["Шахид"]);
  });

  it("O6: a blocked shahid still dies, but the mark does nothing", () => {
    const g = game(STANDARD).night({
      Девочка: visit("Шахид"),
      Маньяк: quickKill("Шахид"),
      Шахид: mark("Мирный1"),
    });
    expect(g.lastNight.died).toEqual(["Шахид"]);
    expect(nightOutcome(g).rolls).toEqual([]);
  });

  it("O6: the mark does nothing when the shahid is not attacked, or only by a blocked attacker", () => {
    expect(game(STANDARD).night({ Шахид: mark("Мирный1") }).lastNight.died).toEqual([]);
    const g = game(STANDARD).night(
      { Громила: block("Маньяк"), Маньяк: quickKill("Шахид"), Шахид: mark("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expect(g.lastNight.died).toEqual([]);
  });

  it("O6: the maniac's bloody kill on the shahid sets off the mark", () => {
    const g = game(STANDARD).night({ Маньяк: bloodyKill("Шахид"), Шахид: mark("Мирный1") });
    expectFields(g.lastNight, {
      died: ["Мирный1", "Шахид"],
      revealed: { Мирный1: "citizen", Шахид: "shahid" },
      maniacVictims: ["Шахид"],
    });
  });
});

describe("O7: non-lethal effects", () => {
  it("O7: intimidation silences the next day; intimidation alone is never exposed (M3)", () => {
    const g = game(STANDARD).night(
      { Босс: intimidate("Мирный1", "Мирный2", "Мирный3") },
      { rolls: { bossExposed: true } },
    );
    expectFields(g.lastNight, { died: [], exposed: {}, silenced: ["Мирный1", "Мирный2", "Мирный3"] });
    expect(nightOutcome(g).rolls).toEqual([]);
  });

  it("O7: an intimidated player who dies that night is announced as dead, not as silenced", () => {
    const g = game(STANDARD).night(
      { Босс: killAndIntimidate("Мирный2", "Мирный1"), Маньяк: quickKill("Мирный1") },
      { rolls: { bossExposed: true } },
    );
    expectFields(g.lastNight, {
      died: ["Мирный1", "Мирный2"],
      silenced: [],
      exposed: { Босс: "boss" },
    });
  });

  it("O7: torture takes the vote for two days; with evidence the town learns it was the maniac (N1c)", () => {
    const n1 = game(STANDARD).night({ Маньяк: torture("Мирный1") }, { rolls: { tortureEvidence: true } });
    expectFields(n1.lastNight, { died: [], silenced: ["Мирный1"], maniacVictims: ["Мирный1"] });
    const n2 = quietDay(n1).night({ Маньяк: pass() });
    expectFields(n2.lastNight, { silenced: ["Мирный1"], maniacVictims: [] });
    const n3 = quietDay(n2).night({ Маньяк: pass() });
    expect(n3.lastNight.silenced).toEqual([]);
  });

  it("O7: a tortured player's own night action is not affected (N1c)", () => {
    const g = game(STANDARD).night(
      { Маньяк: torture("Доктор"), Доктор: heal("Мирный1"), Босс: kill("Мирный1") },
      { rolls: { tortureEvidence: false } },
    );
    expectFields(g.lastNight, { died: [], silenced: ["Доктор"], maniacVictims: [] });
  });

  it("O7: poison takes the vote for two days, reveals nothing and kills nobody (T3d)", () => {
    const n1 = game(STANDARD).night({ Доктор: poison("Босс") });
    expectFields(n1.lastNight, { died: [], revealed: {}, silenced: ["Босс"] });
    const n2 = quietDay(n1).night({ Доктор: pass() });
    expect(n2.lastNight.silenced).toEqual(["Босс"]);
  });

  it("O7: the serum reveals the target's role; the doctor may be exposed (T3a)", () => {
    const g = game(STANDARD).night({ Доктор: serum("Громила") }, { rolls: { doctorExposed: true } });
    expectFields(g.lastNight, { revealed: { Громила: "thug" }, exposed: { Доктор: "doctor" } });
  });

  it("O7: the girl's visit does not stop a serum, an intimidation or a check on the visited player (T4)", () => {
    const g = game(STANDARD).night(
      {
        Девочка: visit("Маньяк"),
        Доктор: serum("Маньяк"),
        Сержант: check("Маньяк"),
        Босс: intimidate("Маньяк"),
      },
      { rolls: { doctorExposed: false, girlSilence: false } },
    );
    expectFields(g.lastNight, {
      revealed: { Маньяк: "maniac" },
      checks: [{ target: "Маньяк", result: "not mafia" }],
      silenced: ["Маньяк"],
    });
  });

  it("O7: a blocked doctor's serum and poison do nothing", () => {
    const g = game(STANDARD).night(
      { Громила: block("Доктор"), Доктор: serum("Босс") },
      { rolls: { thugSilence: false, doctorExposed: true } },
    );
    expectFields(g.lastNight, { revealed: {}, exposed: {} });
    const h = game(STANDARD).night(
      { Громила: block("Доктор"), Доктор: poison("Мирный1") },
      { rolls: { thugSilence: false } },
    );
    expect(h.lastNight.silenced).toEqual([]);
  });

  it("O7: the council's answer reaches the mafia; a blocked boss asks nothing (M2c)", () => {
    const g = game(STANDARD).night({ Босс: question("Есть ли у города шериф?") }, { council: "yes" });
    expect(g.lastNight.council).toBe("yes");
    const h = game(STANDARD).night(
      { Девочка: visit("Босс"), Босс: question("Есть ли у города шериф?") },
      { rolls: { girlSilence: false } },
    );
    expect(h.lastNight.council).toBeNull();
  });
});

describe("O8: random rolls", () => {
  /** A night that needs all five rolls: a double action, a serum, a torture, a visit and a block. */
  const allFive = {
    Босс: killAndIntimidate("Мирный1", "Мирный2"),
    Доктор: serum("Мирный3"),
    Маньяк: torture("Мирный4"),
    Девочка: visit("Мирный5"),
    Громила: block("Шериф"),
  };

  it.each([
    ["bossExposed", "Босс (boss)", { Босс: kill("Мирный1", "Мирный2") }],
    ["doctorExposed", "Доктор (doctor)", { Доктор: serum("Мирный1") }],
    ["tortureEvidence", "Маньяк (maniac)", { Маньяк: torture("Мирный1") }],
    ["girlSilence", "Девочка (girl)", { Девочка: visit("Мирный1") }],
    ["thugSilence", "Громила (thug)", { Громила: block("Мирный1") }],
  ] as const)("O8: the roll %s, needed but neither fixed nor seeded, is an error", (name, owner, actions) => {
    expect(game(STANDARD).night(actions).error).toBe(
      `night 1: the roll ${name} for ${owner} is needed, but it is not fixed and there is no seed (O8)`,
    );
  });

  it("O8: the night's rolls are listed in O8's order, whatever the order they were fixed in", () => {
    const g = game(STANDARD).night(allFive, {
      rolls: {
        thugSilence: true,
        girlSilence: false,
        tortureEvidence: true,
        doctorExposed: false,
        bossExposed: true,
      },
    });
    expect(nightOutcome(g).rolls).toEqual([
      { name: "bossExposed", value: true, fixed: true },
      { name: "doctorExposed", value: false, fixed: true },
      { name: "tortureEvidence", value: true, fixed: true },
      { name: "girlSilence", value: false, fixed: true },
      { name: "thugSilence", value: true, fixed: true },
    ]);
    expectFields(g.lastNight, {
      died: ["Мирный1"],
      revealed: { Мирный1: "citizen", Мирный3: "citizen" },
      exposed: { Босс: "boss" },
      maniacVictims: ["Мирный4"],
      silenced: ["Мирный2", "Мирный4", "Шериф"],
    });
  });

  it.each(["alpha", "forum-mafia", "семь"])("O8: with seed %s, the rolls are drawn in O8's order", (seed) => {
    const g = game(STANDARD, { seed }).night(allFive);
    const order: RollName[] = [
      "bossExposed",
      "doctorExposed",
      "tortureEvidence",
      "girlSilence",
      "thugSilence",
    ];
    expect(nightOutcome(g).rolls).toEqual(expectedDraws(seed, order).map((r) => ({ ...r, fixed: false })));
  });

  it("O8: a fixed roll is not drawn: the next needed roll takes the next value of the stream", () => {
    const seed = "alpha";
    const g = game(STANDARD, { seed }).night(allFive, { rolls: { doctorExposed: true, girlSilence: true } });
    const drawn = expectedDraws(seed, ["bossExposed", "tortureEvidence", "thugSilence"]);
    expect(nightOutcome(g).rolls).toEqual([
      { ...drawn[0]!, fixed: false },
      { name: "doctorExposed", value: true, fixed: true },
      { ...drawn[1]!, fixed: false },
      { name: "girlSilence", value: true, fixed: true },
      { ...drawn[2]!, fixed: false },
    ]);
  });

  it("O8: a roll that is not needed is not drawn, and the stream goes on into the next night", () => {
    const seed = "forum-mafia";
    // The girl's target dies, so her silence roll is not needed; only the thug's is.
    const n1 = game(STANDARD, { seed }).night({
      Маньяк: quickKill("Мирный5"),
      Девочка: visit("Мирный5"),
      Громила: block("Шериф"),
    });
    expect(nightOutcome(n1).rolls).toEqual([{ ...expectedDraws(seed, ["thugSilence"])[0]!, fixed: false }]);
    const n2 = quietDay(n1).night({ Девочка: visit("Мирный4"), Громила: block("Доктор") });
    expect(nightOutcome(n2).rolls).toEqual(
      expectedDraws(seed, ["girlSilence", "thugSilence"], 1).map((r) => ({ ...r, fixed: false })),
    );
  });

  it("O8: no exposure or torture roll is needed for a boss, doctor or victim who dies that night", () => {
    const g = game(STANDARD).night(
      {
        Босс: killAndIntimidate("Доктор", "Мирный1"),
        Доктор: serum("Мирный2"),
        Маньяк: torture("Мирный3"),
        Шериф: shoot("Мирный3"),
      },
      { gm: [{ modkill: "Босс", reason: "мат" }] },
    );
    expect(nightOutcome(g).rolls).toEqual([]);
    expectFields(g.lastNight, {
      died: ["Босс", "Доктор", "Мирный3"],
      modkilled: ["Босс"],
      revealed: { Босс: "boss", Доктор: "doctor", Мирный2: "citizen", Мирный3: "citizen" },
      exposed: {},
      maniacVictims: [],
      silenced: ["Мирный1"],
    });
  });

  it("O8: a fixed roll the night does not need is ignored", () => {
    const g = game(STANDARD).night(
      { Босс: kill("Мирный1") },
      { rolls: { bossExposed: true, doctorExposed: true, girlSilence: true } },
    );
    expect(nightOutcome(g).rolls).toEqual([]);
    expectFields(g.lastNight, { exposed: {}, silenced: [] });
  });

  it("O8: the same seed gives the same results", () => {
    const a = quietDay(game(STANDARD, { seed: "семь" }).night(allFive)).night({
      Босс: kill("Мирный3", "Шахид"),
      Девочка: visit("Маньяк"),
      Громила: block("Доктор"),
    });
    const b = quietDay(game(STANDARD, { seed: "семь" }).night(allFive)).night({
      Босс: kill("Мирный3", "Шахид"),
      Девочка: visit("Маньяк"),
      Громила: block("Доктор"),
    });
    expect(runReplay(a.file)).toEqual(runReplay(b.file));
    expect(nightOutcome(a).rolls).toEqual(nightOutcome(b).rolls);
    expect(nightOutcome(a).rolls.map((r) => r.name)).toEqual(["bossExposed", "girlSilence", "thugSilence"]);
  });
});

describe("O8: a silence roll is needed only when the vote is at stake", () => {
  // No seed and no fixed rolls: a roll the night needed would make the file an error.
  it("O8: no girlSilence roll for a player the mafia intimidated that night (T4, M2b)", () => {
    const g = game(STANDARD).night({ Девочка: visit("Мирный1"), Босс: intimidate("Мирный1") });
    expect(g.lastNight.silenced).toEqual(["Мирный1"]);
    expect(nightOutcome(g).rolls).toEqual([]);
  });

  it("O8: no thugSilence roll when the girl's roll on the same player came true (M6)", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Мирный1"), Громила: block("Мирный1") },
      { rolls: { girlSilence: true } },
    );
    expect(g.lastNight.silenced).toEqual(["Мирный1"]);
    expect(nightOutcome(g).rolls).toEqual([{ name: "girlSilence", value: true, fixed: true }]);
    const h = game(STANDARD).night(
      { Девочка: visit("Мирный1"), Громила: block("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(h.error).toBe(
      "night 1: the roll thugSilence for Громила (thug) is needed, but it is not fixed and there is no seed (O8)",
    );
  });

  it("O8: no silence roll for a player tortured the night before, who cannot vote tomorrow anyway (N1c)", () => {
    const n1 = game(STANDARD).night({ Маньяк: torture("Мирный2") }, { rolls: { tortureEvidence: false } });
    const g = quietDay(n1).night({ Девочка: visit("Мирный2") });
    expect(g.lastNight.silenced).toEqual(["Мирный2"]);
    expect(nightOutcome(g).rolls).toEqual([]);
  });

  it("O8: no silence roll for a player who dies that night (T4)", () => {
    const g = game(STANDARD).night({ Девочка: visit("Мирный1"), Босс: kill("Мирный1") });
    expect(g.lastNight.died).toEqual(["Мирный1"]);
    expect(nightOutcome(g).rolls).toEqual([]);
  });
});

describe("O9: deaths, reveals, succession and the win check", () => {
  it("O9: the night's deaths include modkills, announced with roles at 17 alive (R1)", () => {
    const g = game(STANDARD).night(
      { Босс: kill("Мирный1") },
      { gm: [{ modkill: "Мирный2", reason: "оскорбления" }] },
    );
    expectFields(g.lastNight, {
      died: ["Мирный1", "Мирный2"],
      modkilled: ["Мирный2"],
      revealed: { Мирный1: "citizen", Мирный2: "citizen" },
    });
  });

  it("O9: a player killed in the night and modkilled is listed as died, not as modkilled", () => {
    const g = game(STANDARD).night({ Босс: kill("Мирный1") }, { gm: [{ modkill: "Мирный1" }] });
    expectFields(g.lastNight, { died: ["Мирный1"], modkilled: [] });
  });

  it("O9: succession skips a dead troll: the elf is boss from the next night (M1)", () => {
    const n1 = game(STANDARD).night({ Шериф: shoot("Босс"), Маньяк: quickKill("Тролль") });
    expect(n1.lastNight.died).toEqual(["Босс", "Тролль"]);
    const d1 = quietDay(n1);
    expect(d1.match.state.boss).toBe(seat(d1, "Эльф"));
    const n2 = d1.night(
      { Девочка: visit("Эльф"), Адвокат: kill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(n2.lastNight.died).toEqual([]);
  });

  it("O9: the win check follows the night's deaths (W1)", () => {
    const town = game("Босс=boss Шериф=sheriff Мирный1=citizen Мирный2=citizen").night({
      Шериф: shoot("Босс"),
      Босс: kill("Мирный1"),
    });
    expectFields(town.lastNight, { died: ["Босс", "Мирный1"], winner: "town" });
    expect(town.result.winner).toBe("town");
    expect(town.day("Шериф>Мирный2").error).toBe("day 1: the game is already over, town won (W1)");

    const mafia = game("Босс=boss Тролль=troll Мирный1=citizen Мирный2=citizen Мирный3=citizen").night({
      Босс: kill("Мирный1"),
    });
    expectFields(mafia.lastNight, { winner: "mafia" });

    const maniac = game("Босс=boss Маньяк=maniac Мирный1=citizen Мирный2=citizen").night({
      Босс: kill("Мирный1"),
      Маньяк: quickKill("Мирный2"),
    });
    expectFields(maniac.lastNight, { died: ["Мирный1", "Мирный2"], winner: "maniac" });

    const draw = game("Босс=boss Маньяк=maniac Шериф=sheriff Шахид=shahid").night({
      Босс: kill("Шериф", "Шахид"),
      Маньяк: quickKill("Босс"),
      Шериф: shoot("Маньяк"),
      Шахид: mark("Маньяк"),
    });
    expectFields(draw.lastNight, { died: ["Босс", "Маньяк", "Шахид", "Шериф"], winner: "draw" });
  });
});

describe("R1: the reveal threshold from 11 to 10 alive", () => {
  /** 12, 11 and 10 players, every role kept but the citizens Мирный2–5 and (then) the elf and the troll. */
  const TWELVE = without(STANDARD, "Мирный2", "Мирный3", "Мирный4", "Мирный5", "Эльф");
  const ELEVEN = without(TWELVE, "Прокурор");
  const TEN = without(ELEVEN, "Тролль");

  it.each([
    [11, ELEVEN, { Мирный1: "citizen" } as Record<string, RoleId>],
    [10, TEN, {}],
  ])("R1: a night kill with %i alive at night start", (alive, lineup, revealed) => {
    expect(game(lineup).match.state.aliveAtStart).toBe(alive);
    const g = game(lineup).night({ Босс: kill("Мирный1") });
    expectFields(g.lastNight, { died: ["Мирный1"], revealed });
  });

  it.each([
    [11, ELEVEN, { Шахид: "shahid" } as Record<string, RoleId>],
    [10, TEN, {}],
  ])("R1: a GM modkill in a night with %i alive at night start", (_alive, lineup, revealed) => {
    const g = game(lineup).night({}, { gm: [{ modkill: "Шахид" }] });
    expectFields(g.lastNight, { died: ["Шахид"], modkilled: ["Шахид"], revealed });
  });

  it("R1: a night that starts with 11 alive reveals its deaths, though only 10 remain after it", () => {
    const g = game(ELEVEN).night({ Босс: kill("Мирный1") });
    expect(g.lastNight.revealed).toEqual({ Мирный1: "citizen" });
    expect(g.match.state.aliveAtStart).toBe(10);
  });

  it.each([
    [11, TWELVE, { Шахид: "shahid" } as Record<string, RoleId>],
    [10, ELEVEN, {}],
  ])("R1: a hanging on a day that starts with %i alive", (alive, lineup, revealed) => {
    const n1 = game(lineup).night({ Босс: kill("Мирный1") });
    expect(n1.match.state.aliveAtStart).toBe(alive);
    const d: DayResultJson = lynchDay(n1, "Шахид").lastDay;
    expectFields(d, { hanged: "Шахид", died: ["Шахид"], revealed });
  });

  it.each([
    [11, TWELVE, { Шахид: "shahid" } as Record<string, RoleId>],
    [10, ELEVEN, {}],
  ])("R1: a GM modkill on a day that starts with %i alive", (_alive, lineup, revealed) => {
    const n1 = game(lineup).night({ Босс: kill("Мирный1") });
    const g = quietDay(n1, { gm: [{ modkill: "Шахид", reason: "мат" }] });
    expectFields(g.lastDay, { hanged: null, modkilled: ["Шахид"], died: ["Шахид"], revealed });
  });

  it("R2: at 10 alive a bloody kill and a serum still reveal", () => {
    const g = game(TEN).night(
      { Маньяк: bloodyKill("Мирный1"), Доктор: serum("Громила") },
      { rolls: { doctorExposed: false } },
    );
    expectFields(g.lastNight, {
      died: ["Мирный1"],
      revealed: { Громила: "thug", Мирный1: "citizen" },
      maniacVictims: ["Мирный1"],
    });
  });

  it("R1: at 10 alive the deaths are announced without roles", () => {
    const g = game(TEN).night({ Босс: kill("Мирный1"), Маньяк: quickKill("Шахид") });
    expectFields(g.lastNight, { died: ["Мирный1", "Шахид"], revealed: {} });
  });
});
