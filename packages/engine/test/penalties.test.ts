import { describe, expect, it } from "vitest";
import { channelMembers, channelsFor, type GameOptions, type NightOutcome } from "../src/index.ts";
import { seatByName } from "../src/match.ts";
import {
  NAMES,
  STANDARD,
  block,
  check,
  except,
  game,
  heal,
  intimidate,
  kill,
  killAndIntimidate,
  mark,
  pass,
  poison,
  protect,
  ring,
  torture,
  visit,
  type Act,
  type Scenario,
  expectFields,
  ACTING,
} from "./scenario.ts";

interface CalmDay {
  /** Players who do not vote (P1). */
  readonly absent?: readonly string[];
  /** Players who cannot vote (dead or silenced). */
  readonly gone?: readonly string[];
  /** Players who vote but carry a P2 penalty. */
  readonly guard?: readonly string[];
  /** The table's names, if some were replaced (P4). */
  readonly names?: readonly string[];
}

/**
 * A day that hangs nobody: five voters vote blue for each absent or guarded player, so that even +4 of
 * penalties stays below zero; the other voters vote blue in a ring.
 */
function calmDay({ absent = [], gone = [], guard = [], names = NAMES }: CalmDay = {}): string {
  const guarded = [...absent, ...guard];
  const voters = except(names, ...absent, ...gone);
  const helpers = except(voters, ...guarded).slice(0, 5 * guarded.length);
  const rest = except(voters, ...helpers);
  return [...helpers.map((n, i) => `${n}+${guarded[Math.floor(i / 5)]!}`), ring(rest)].join(" ");
}

/** Players with a night action of their own (or the mafia's), by the names of the standard table. */
const ACTORS = ["Босс", "Адвокат", "Громила", "Маньяк", "Шериф", "Доктор", "Девочка", "Прокурор", "Шахид"];
/** Explicit passes from every actor but `missing` (the sheriff's pass fills the pair's slot). */
const passesBut = (...missing: string[]): [string, Act][] =>
  ACTORS.filter((n) => !missing.includes(n)).map((n) => [n, pass()]);

/** The players struck (P2) in the scenario's last night. */
function struck(g: Scenario): string[] {
  const m = g.match;
  const nights = m.outcomes.filter((o) => o.outcome.phase.kind === "night");
  const last = nights[nights.length - 1]!;
  return (last.outcome as NightOutcome).struck.map((s) => last.players[s]!.name).sort();
}

function strikesOf(g: Scenario, name: string): { vote: number; night: number } {
  const state = g.match.state;
  const p = state.players[seatByName(state, name)!]!;
  return { vote: p.voteStrikes, night: p.nightStrikes };
}

describe("P1: not voting", () => {
  it("P1: a player who casts no vote gets 2 red penalty votes and one strike", () => {
    const g = game(STANDARD)
      .night()
      .day(ring(except(NAMES, "Мирный1", "Мирный2")));
    expectFields(g.lastDay, { penalized: ["Мирный1", "Мирный2"], hanged: null });
    expect(g.lastDay.score.Мирный1).toBe(2);
    expect(g.lastDay.score.Мирный2).toBe(2);
    expect(strikesOf(g, "Мирный1")).toEqual({ vote: 1, night: 0 });
    expect(strikesOf(g, "Мирный2")).toEqual({ vote: 1, night: 0 });
    expect(strikesOf(g, "Мирный3")).toEqual({ vote: 0, night: 0 });
  });

  it("P1: the penalty adds to the red votes and can hang the player", () => {
    const g = game(STANDARD)
      .night()
      .day(["Босс>Мирный1", ring(except(NAMES, "Мирный1", "Босс"))].join(" "));
    expectFields(g.lastDay, { penalized: ["Мирный1"], hanged: "Мирный1" });
    expect(g.lastDay.score.Мирный1).toBe(3);
  });

  it("P1: a player who voted, even blue, is not penalised", () => {
    const g = game(STANDARD).night().day(ring(NAMES));
    expect(g.lastDay.penalized).toEqual([]);
    for (const n of NAMES) expect(strikesOf(g, n)).toEqual({ vote: 0, night: 0 });
  });

  const silencers: [string, Record<string, Act>, Record<string, boolean>][] = [
    ["intimidation (M2b)", { Босс: intimidate("Мирный1") }, {}],
    ["the girl's visit (T4)", { Девочка: visit("Мирный1") }, { girlSilence: true }],
    ["the thug's block (M6)", { Громила: block("Мирный1") }, { thugSilence: true }],
    ["torture (N1c)", { Маньяк: torture("Мирный1") }, { tortureEvidence: false }],
    ["poison (T3d)", { Доктор: poison("Мирный1") }, {}],
  ];
  for (const [cause, actions, rolls] of silencers)
    it(`P1: a player who lost the vote by ${cause} is not penalised for not voting`, () => {
      const n = game(STANDARD).night(actions, { rolls });
      expect(n.lastNight.silenced).toEqual(["Мирный1"]);
      const g = n.day(ring(except(NAMES, "Мирный1")));
      expect(g.lastDay.penalized).toEqual([]);
      expect(g.lastDay.score.Мирный1).toBeUndefined();
      expect(strikesOf(g, "Мирный1")).toEqual({ vote: 0, night: 0 });
    });

  it("P1: the boss whose vote is silently not counted (M3) has voted and is not penalised", () => {
    const n = game(STANDARD).night(
      { Босс: killAndIntimidate("Мирный1", "Мирный2") },
      { rolls: { bossExposed: false } },
    );
    const g = n.day(ring(except(NAMES, "Мирный1", "Мирный2")));
    expectFields(g.lastDay, { uncounted: ["Босс"], penalized: [] });
    expect(strikesOf(g, "Босс")).toEqual({ vote: 0, night: 0 });
  });

  it("P1: the M3 boss keeps the right to vote in public, so not voting is penalised", () => {
    const n = game(STANDARD).night({ Босс: kill("Мирный1", "Мирный2") }, { rolls: { bossExposed: false } });
    const g = n.day(calmDay({ absent: ["Босс"], gone: ["Мирный1", "Мирный2"] }));
    expectFields(g.lastDay, { uncounted: [], penalized: ["Босс"] });
    expect(strikesOf(g, "Босс")).toEqual({ vote: 1, night: 0 });
  });

  it("P1: on an early close (V7), those who have not voted yet are penalised and struck", () => {
    const calm = ring(NAMES);
    const base = game(STANDARD).night().day(calm).night().day(calm).night();
    // Nine early votes close day 3 at once; Шахид and the citizens after them never vote.
    const early = NAMES.slice(0, 9).map((n) => `${n}>Прокурор!`);
    const g = base.day(early.join(" "));
    const late = NAMES.slice(9);
    expectFields(g.lastDay, { closedEarly: true, penalized: [...late].sort() });
    for (const n of late) expect(strikesOf(g, n)).toEqual({ vote: 1, night: 0 });
    expect(strikesOf(g, "Босс")).toEqual({ vote: 0, night: 0 });
  });
});

describe("P2: a missing night action", () => {
  it("P2: every role with a night action that sends nothing is struck; troll, elf and citizens are not", () => {
    const g = game(STANDARD).night({}, { autoPass: false });
    expect(struck(g)).toEqual([...ACTING].sort());
    for (const n of ["Тролль", "Эльф", "Мирный1", "Мирный5"])
      expect(strikesOf(g, n)).toEqual({ vote: 0, night: 0 });
    expect(strikesOf(g, "Доктор")).toEqual({ vote: 0, night: 1 });
  });

  it("P2: an explicit pass is no strike", () => {
    const g = game(STANDARD).night(passesBut(), { autoPass: false });
    expect(struck(g)).toEqual([]);
  });

  it("P2: the struck get 2 red penalty votes in the next day's score", () => {
    const g = game(STANDARD)
      .night(passesBut("Доктор"), { autoPass: false })
      .day(["Доктор+Босс", ring(except(NAMES, "Доктор"))].join(" "));
    expectFields(g.lastDay, { penalized: ["Доктор"], hanged: "Доктор" });
    expect(g.lastDay.score.Доктор).toBe(2);
    expect(strikesOf(g, "Доктор")).toEqual({ vote: 0, night: 1 });
  });

  it("P2: a struck player who dies that night gets no penalty the next day", () => {
    const g = game(STANDARD)
      .night([...passesBut("Доктор", "Босс"), ["Босс", kill("Доктор")]], { autoPass: false })
      .day(ring(except(NAMES, "Доктор")));
    expect(g.lastDay.penalized).toEqual([]);
  });

  it("P2: the mafia's missing action strikes the current boss", () => {
    expect(struck(game(STANDARD).night(passesBut("Босс"), { autoPass: false }))).toEqual(["Босс"]);
  });

  it("P2: no strike for the boss when another mafia member sent the mafia's action (M4)", () => {
    const troll = game(STANDARD).night([...passesBut("Босс"), ["Тролль", kill("Мирный1")]], {
      autoPass: false,
    });
    expect(struck(troll)).toEqual([]);
    expect(troll.lastNight.died).toEqual(["Мирный1"]);
    const elf = game(STANDARD).night([...passesBut("Босс"), ["Эльф", kill("Мирный2")]], { autoPass: false });
    expect(struck(elf)).toEqual([]);
  });

  it("P2: a pass by the troll fills the mafia's slot (engine reading)", () => {
    const g = game(STANDARD).night([...passesBut("Босс"), ["Тролль", pass()]], { autoPass: false });
    expect(struck(g)).toEqual([]);
  });

  it("P2: the lawyer who sends the mafia's action still owes the protect", () => {
    const g = game(STANDARD).night([...passesBut("Босс", "Адвокат"), ["Адвокат", kill("Мирный1")]], {
      autoPass: false,
    });
    expect(struck(g)).toEqual(["Адвокат"]);
    const both = game(STANDARD).night(
      [...passesBut("Босс", "Адвокат"), ["Адвокат", kill("Мирный1")], ["Адвокат", protect("Мирный3")]],
      { autoPass: false },
    );
    expect(struck(both)).toEqual([]);
  });

  it("P2: when the pair submits nothing, both the sheriff and the sergeant are struck", () => {
    expect(struck(game(STANDARD).night(passesBut("Шериф"), { autoPass: false }))).toEqual([
      "Сержант",
      "Шериф",
    ]);
  });

  it("P2: one submission fulfils the pair: the sergeant's check or the sergeant's pass", () => {
    const checked = game(STANDARD).night([...passesBut("Шериф"), ["Сержант", check("Босс")]], {
      autoPass: false,
    });
    expect(struck(checked)).toEqual([]);
    const passed = game(STANDARD).night([...passesBut("Шериф"), ["Сержант", pass()]], { autoPass: false });
    expect(struck(passed)).toEqual([]);
  });

  it("P2: the troll and the elf are never struck for the mafia's action while the boss lives", () => {
    const g = game(STANDARD).night({}, { autoPass: false });
    expect(struck(g)).not.toContain("Тролль");
    expect(struck(g)).not.toContain("Эльф");
    expect(strikesOf(g, "Тролль")).toEqual({ vote: 0, night: 0 });
    expect(strikesOf(g, "Эльф")).toEqual({ vote: 0, night: 0 });
  });

  const THUG_BOSS =
    "Громила=thug Маньяк=maniac Доктор=doctor Мирный1=citizen Мирный2=citizen Мирный3=citizen Мирный4=citizen";
  const others: [string, Act][] = [
    ["Маньяк", pass()],
    ["Доктор", pass()],
  ];

  it("P2: a thug who is boss fulfils his one action with the block", () => {
    const g = game(THUG_BOSS).night([...others, ["Громила", block("Мирный1")]], {
      autoPass: false,
      rolls: { thugSilence: false },
    });
    expect(struck(g)).toEqual([]);
  });

  it("P2: a thug who is boss fulfils his one action with the mafia's action", () => {
    const g = game(THUG_BOSS).night([...others, ["Громила", kill("Мирный1")]], { autoPass: false });
    expect(struck(g)).toEqual([]);
    expect(g.lastNight.died).toEqual(["Мирный1"]);
  });

  it("P2: a thug who is boss and sends nothing gets one strike, not two", () => {
    const g = game(THUG_BOSS).night(others, { autoPass: false });
    expect(struck(g)).toEqual(["Громила"]);
    expect(strikesOf(g, "Громила")).toEqual({ vote: 0, night: 1 });
  });
});

describe("P3: the second strike", () => {
  /** N: the doctor misses the night; n: everyone acts; D: the doctor does not vote; d: everyone votes. */
  function play(strikes: GameOptions["strikes"], plan: string): Scenario {
    let g = game(STANDARD, { options: { strikes } });
    let penalty = false;
    for (const step of plan.split(" ")) {
      if (step === "N") g = g.night(passesBut("Доктор"), { autoPass: false });
      else if (step === "n") g = g.night();
      else if (step === "D") g = g.day(calmDay({ absent: ["Доктор"] }));
      else g = g.day(calmDay({ guard: penalty ? ["Доктор"] : [] }));
      penalty = step === "N";
    }
    return g;
  }
  /** The phase at whose end the doctor was modkilled, or "none". */
  function modkilledAt(g: Scenario): string {
    const p = g.result.phases.find((ph) => ph.modkilled.includes("Доктор"));
    return p ? `${p.phase} ${p.number}` : "none";
  }

  const table: [GameOptions["strikes"], string, string][] = [
    ["shared", "N D", "day 1"],
    ["shared", "n D n D", "day 2"],
    ["shared", "N d N", "night 2"],
    ["shared", "n D N", "night 2"],
    ["shared", "N d n D", "day 2"],
    ["separate", "N D n d", "none"],
    ["separate", "N d n D n d", "none"],
    ["separate", "n D n D", "day 2"],
    ["separate", "N d N", "night 2"],
    ["separate", "N D N", "night 2"],
    ["separate", "N D n D", "day 2"],
  ];
  for (const [strikes, plan, at] of table)
    it(`P3: strikes "${strikes}", plan ${plan}: modkilled at ${at}`, () => {
      expect(modkilledAt(play(strikes, plan))).toBe(at);
    });

  it("P3: the default is shared", () => {
    const g = game(STANDARD)
      .night(passesBut("Доктор"), { autoPass: false })
      .day(calmDay({ absent: ["Доктор"] }));
    expectFields(g.lastDay, {
      modkilled: ["Доктор"],
      died: ["Доктор"],
      revealed: { Доктор: "doctor" },
    });
  });

  it("P3: the modkill happens at the end of the phase: the night's second strike still lets others act", () => {
    const g = play("shared", "N d").night([...passesBut("Доктор", "Босс"), ["Босс", kill("Мирный1")]], {
      autoPass: false,
    });
    expectFields(g.lastNight, {
      died: ["Доктор", "Мирный1"],
      modkilled: ["Доктор"],
      revealed: { Доктор: "doctor", Мирный1: "citizen" },
    });
  });

  it("P3: a player killed on the night of the second strike is a death, not a modkill", () => {
    const g = play("shared", "N d").night([...passesBut("Доктор", "Босс"), ["Босс", kill("Доктор")]], {
      autoPass: false,
    });
    expectFields(g.lastNight, { died: ["Доктор"], modkilled: [] });
  });

  it("P3: a strike modkill is settled before the O8 rolls: no silence roll for a visited player modkilled that night (T4)", () => {
    const g = play("shared", "N d").night([...passesBut("Доктор", "Девочка"), ["Девочка", visit("Доктор")]], {
      autoPass: false,
    });
    expectFields(g.lastNight, { died: ["Доктор"], modkilled: ["Доктор"], silenced: [] });
    expect((g.match.outcomes.at(-1)!.outcome as NightOutcome).rolls).toEqual([]);
  });

  it("P3: the hanged player is not also listed as modkilled", () => {
    const g = game(STANDARD)
      .night(passesBut("Доктор"), { autoPass: false })
      .day(["Доктор>Босс", ring(except(NAMES, "Доктор"))].join(" "));
    expectFields(g.lastDay, { hanged: "Доктор", modkilled: [], died: ["Доктор"] });
    const h = game(STANDARD)
      .night(passesBut("Доктор"), { autoPass: false })
      .day(["Босс>Доктор", ring(except(NAMES, "Доктор", "Босс"))].join(" "));
    expectFields(h.lastDay, { hanged: "Доктор", modkilled: [], died: ["Доктор"] });
  });

  it("P3: separate counts keep vote and night strikes apart in the state", () => {
    const g = play("separate", "N D");
    expect(strikesOf(g, "Доктор")).toEqual({ vote: 1, night: 1 });
    expect(g.match.state.players[seatByName(g.match.state, "Доктор")!]!.alive).toBe(true);
  });
});

describe("P4: replacement", () => {
  it("P4: the substitute inherits the role and the strikes: a second strike modkills the substitute", () => {
    const g = game(STANDARD)
      .night()
      .day(calmDay({ absent: ["Доктор"] }))
      .night({ Врач: heal("Мирный1") }, { gm: [{ replace: "Доктор", with: "Врач" }] });
    expect(strikesOf(g, "Врач")).toEqual({ vote: 1, night: 0 });
    expect(g.match.state.players[seatByName(g.match.state, "Врач")!]!.role).toBe("doctor");
    const d2 = g.day(calmDay({ absent: ["Врач"], names: NAMES.map((n) => (n === "Доктор" ? "Врач" : n)) }));
    expectFields(d2.lastDay, { modkilled: ["Врач"], died: ["Врач"], revealed: { Врач: "doctor" } });
  });

  it("P4: the substitute inherits a pending P2 penalty", () => {
    const g = game(STANDARD)
      .night(passesBut("Доктор"), { autoPass: false })
      .day(["Врач+Босс", ring(except(NAMES, "Доктор"))].join(" "), {
        gm: [{ replace: "Доктор", with: "Врач" }],
      });
    expectFields(g.lastDay, { penalized: ["Врач"], hanged: "Врач" });
    expect(g.lastDay.score.Врач).toBe(2);
    expect(strikesOf(g, "Врач")).toEqual({ vote: 0, night: 1 });
  });

  it("P4: the substitute inherits pending silences (torture: two days)", () => {
    const n1 = game(STANDARD).night({ Маньяк: torture("Мирный1") }, { rolls: { tortureEvidence: false } });
    const refused = n1.day("Петя>Босс", { gm: [{ replace: "Мирный1", with: "Петя" }] });
    expect(refused.error).toBe("day 1: Петя (citizen) cannot vote today (V6)");
    const d1 = n1.day(ring(except(NAMES, "Мирный1")), {
      gm: [{ replace: "Мирный1", with: "Петя" }],
    });
    expect(d1.lastDay.penalized).toEqual([]);
    const n2 = d1.night();
    expect(n2.lastNight.silenced).toEqual(["Петя"]);
    expect(n2.day("Петя>Босс").error).toBe("day 2: Петя (citizen) cannot vote today (V6)");
  });

  it("P4: the substitute inherits last night's targets for the repeat limits", () => {
    const d1 = game(STANDARD)
      .night({ Девочка: visit("Мирный1"), Шахид: mark("Мирный2") }, { rolls: { girlSilence: false } })
      .day(ring(NAMES));
    const gm = [
      { replace: "Девочка", with: "Маша" },
      { replace: "Шахид", with: "Саша" },
    ];
    expect(d1.night({ Маша: visit("Мирный1") }, { gm }).error).toBe(
      "night 2: Маша (girl) may not visit Мирный1 two nights in a row (T4)",
    );
    expect(d1.night({ Саша: mark("Мирный2") }, { gm }).error).toBe(
      "night 2: Саша (shahid) may not mark Мирный2 two nights in a row (T6)",
    );
    const fine = d1.night(
      { Маша: visit("Мирный3"), Саша: mark("Мирный4") },
      { gm, rolls: { girlSilence: false } },
    );
    expect(fine.lastNight.died).toEqual([]);
  });

  it("P4: after the replacement the old name is unknown", () => {
    const n1 = game(STANDARD).night();
    const gm = [{ replace: "Доктор", with: "Врач" }];
    expect(n1.day("Доктор>Босс", { gm }).error).toBe('day 1: unknown player "Доктор" (V1)');
    expect(n1.day("Босс>Доктор", { gm }).error).toBe('day 1: unknown player "Доктор" (V1)');
    const d1 = n1.day(ring(NAMES).replaceAll("Доктор", "Врач"), { gm });
    expect(d1.night({ Доктор: heal("Мирный1") }).error).toBe('night 2: unknown player "Доктор" (O1)');
    expect(d1.lastDay.score.Врач).toBe(-1);
  });

  it("P4: the substitute takes the seat's chat", () => {
    const g = game(STANDARD).night({}, { gm: [{ replace: "Шериф", with: "Коля" }] });
    const state = g.match.state;
    const seat = seatByName(state, "Коля")!;
    expect(channelsFor(state, seat)).toEqual([{ channel: "pair", canPost: true }]);
    expect(channelMembers(state, "pair").map((s) => state.players[s]!.name)).toEqual(["Коля", "Сержант"]);
  });

  it("P4: only a living player can be replaced, and only by a free name (ё = е, any case)", () => {
    const n1 = game(STANDARD).night({ Босс: kill("Мирный1") });
    expect(n1.day("", { gm: [{ replace: "Мирный1", with: "Петя" }] }).error).toBe(
      "day 1: Мирный1 (citizen) is dead and cannot be replaced (P4)",
    );
    expect(n1.day("", { gm: [{ replace: "Мирный2", with: "мирный3" }] }).error).toBe(
      "day 1: Мирный2 (citizen) cannot be replaced: the name мирный3 is taken (P4)",
    );
  });
});
