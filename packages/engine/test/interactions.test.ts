/**
 * Cross-role interaction tables: the girl's, the thug's and the thug-boss's blocks (T4, M6, M7, O2), the
 * bloody kill's collateral on the girl and the thug (N1a, M8) against heal and heal-from-role (T3b, T3c),
 * and the shahid (T6) against heal, blocks and each kind of attacker.
 */
import { describe, expect, it } from "vitest";
import type { RoleId, RollName } from "../src/index.ts";
import {
  NO_ROLLS,
  STANDARD,
  THUG_BOSS,
  block,
  bloodyKill,
  check,
  game,
  heal,
  healFrom,
  intimidate,
  kill,
  lynchDay,
  mark,
  protect,
  question,
  quickKill,
  quietDay,
  shoot,
  torture,
  visit,
  type Act,
  type Actions,
} from "./scenario.ts";

/** Table rows carry their clause; each clause gets its own it.each so that its title names it. */
interface Row {
  clause: string;
  title: string;
}

function rowsOf<R extends Row>(rows: readonly R[], clause: string): [string, R][] {
  const out = rows.filter((r) => r.clause === clause).map((r): [string, R] => [r.title, r]);
  if (out.length === 0) throw new Error(`no rows for ${clause}`);
  return out;
}

interface BlockRow extends Row {
  actions: Actions;
  rolls: Partial<Record<RollName, boolean>>;
  died: string[];
  silenced: string[];
}

describe("blocks: the girl, the thug and the boss", () => {
  const rows: BlockRow[] = [
    {
      clause: "T4",
      title: "the girl visits the thug: his block on the doctor does nothing",
      actions: {
        Громила: block("Доктор"),
        Девочка: visit("Громила"),
        Доктор: heal("Мирный1"),
        Босс: kill("Мирный1"),
      },
      rolls: NO_ROLLS,
      died: [],
      silenced: [],
    },
    {
      clause: "M7",
      title: "the thug blocks the girl: her visit on the boss does nothing",
      actions: { Громила: block("Девочка"), Девочка: visit("Босс"), Босс: kill("Мирный1") },
      rolls: NO_ROLLS,
      died: ["Мирный1"],
      silenced: [],
    },
    {
      clause: "M7",
      title: "the girl and the thug target each other: the girl is blocked, the thug is not",
      actions: { Громила: block("Девочка"), Девочка: visit("Громила") },
      rolls: { girlSilence: true, thugSilence: true },
      died: [],
      silenced: ["Девочка"],
    },
    {
      clause: "M7",
      title: "mutual blocks: the girl's visit on the thug does not free the doctor he blocks",
      actions: {
        Громила: block("Девочка"),
        Девочка: visit("Громила"),
        Доктор: heal("Мирный1"),
        Босс: kill("Мирный1"),
      },
      rolls: NO_ROLLS,
      died: [],
      silenced: [],
    },
    {
      clause: "M6",
      title: "the thug blocks the boss: the mafia's kill is cancelled",
      actions: { Громила: block("Босс"), Босс: kill("Мирный1") },
      rolls: NO_ROLLS,
      died: [],
      silenced: [],
    },
    {
      clause: "M6",
      title: "the thug blocks the troll who sent the kill: the mafia's kill stands",
      actions: { Тролль: kill("Мирный1"), Громила: block("Тролль") },
      rolls: NO_ROLLS,
      died: ["Мирный1"],
      silenced: [],
    },
    {
      clause: "T4",
      title: "the girl visits the boss, the troll sent the kill: the kill is cancelled",
      actions: { Тролль: kill("Мирный1"), Девочка: visit("Босс") },
      rolls: NO_ROLLS,
      died: [],
      silenced: [],
    },
    {
      clause: "T4",
      title: "the girl visits the boss: his intimidation is cancelled too",
      actions: { Девочка: visit("Босс"), Босс: intimidate("Мирный1", "Мирный2") },
      rolls: NO_ROLLS,
      died: [],
      silenced: [],
    },
    {
      clause: "T4",
      title: "the girl and the thug both on the maniac: his kill is cancelled, both rolls drawn",
      actions: { Девочка: visit("Маньяк"), Громила: block("Маньяк"), Маньяк: quickKill("Мирный1") },
      rolls: { girlSilence: false, thugSilence: true },
      died: [],
      silenced: ["Маньяк"],
    },
    {
      clause: "O2",
      title: "a blocked girl draws no silence roll",
      actions: { Громила: block("Девочка"), Девочка: visit("Мирный1") },
      rolls: { thugSilence: false },
      died: [],
      silenced: [],
    },
    {
      clause: "O2",
      title: "a thug the girl visits draws no silence roll",
      actions: { Девочка: visit("Громила"), Громила: block("Мирный1") },
      rolls: { girlSilence: false },
      died: [],
      silenced: [],
    },
    {
      clause: "M6",
      title: "the thug's block cancels the sheriff's shot; the thugSilence roll silences him",
      actions: { Громила: block("Шериф"), Шериф: shoot("Мирный1") },
      rolls: { thugSilence: true },
      died: [],
      silenced: ["Шериф"],
    },
    {
      clause: "M6",
      title: "the thug's block on the sergeant fails the check while the girl visits the doctor",
      actions: {
        Громила: block("Сержант"),
        Сержант: check("Босс"),
        Девочка: visit("Доктор"),
        Доктор: heal("Мирный1"),
        Босс: kill("Мирный1"),
      },
      rolls: NO_ROLLS,
      died: ["Мирный1"],
      silenced: [],
    },
    {
      clause: "O0",
      title: "a girl killed that night still blocks the maniac",
      actions: { Девочка: visit("Маньяк"), Босс: kill("Девочка"), Маньяк: quickKill("Мирный1") },
      rolls: NO_ROLLS,
      died: ["Девочка"],
      silenced: [],
    },
    {
      clause: "O0",
      title: "a thug killed that night still blocks the sheriff",
      actions: { Громила: block("Шериф"), Маньяк: quickKill("Громила"), Шериф: shoot("Мирный1") },
      rolls: NO_ROLLS,
      died: ["Громила"],
      silenced: [],
    },
  ];
  const verify = (_: string, { actions, rolls, died, silenced }: BlockRow): void => {
    const g = game(STANDARD).night(actions, { rolls });
    expect(g.lastNight.died).toEqual(died);
    expect(g.lastNight.silenced).toEqual(silenced);
  };
  const t4 = rowsOf(rows, "T4");
  const m6 = rowsOf(rows, "M6");
  const m7 = rowsOf(rows, "M7");
  const o2 = rowsOf(rows, "O2");
  const o0 = rowsOf(rows, "O0");
  it.each(t4)("T4: %s", verify);
  it.each(m6)("M6: %s", verify);
  it.each(m7)("M7: %s", verify);
  it.each(o2)("O2: %s", verify);
  it.each(o0)("O0: %s", verify);

  it("T4: the girl's visit on the boss cancels the council question: no answer is needed", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Босс"), Босс: question("Is the sheriff alive?") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.council).toBe(null);
  });

  it("M6: the check is blocked by the thug: the sergeant is told it failed", () => {
    const g = game(STANDARD).night(
      { Громила: block("Сержант"), Сержант: check("Босс") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.checks).toEqual([{ target: "Босс", result: "failed" }]);
  });

  it("T4: the girl's visit on the lawyer leaves no protect for the day (V8)", () => {
    const g = lynchDay(
      game(STANDARD).night({ Девочка: visit("Адвокат"), Адвокат: protect("Мирный1") }, { rolls: NO_ROLLS }),
      "Мирный1",
    );
    expect(g.lastDay.hanged).toBe("Мирный1");
    expect(g.lastDay.excused).toBe(null);
  });

  it("M7: the thug blocks the girl who visits the lawyer: the protect holds (V8)", () => {
    const g = lynchDay(
      game(STANDARD).night(
        { Громила: block("Девочка"), Девочка: visit("Адвокат"), Адвокат: protect("Мирный1") },
        { rolls: NO_ROLLS },
      ),
      "Мирный1",
    );
    expect(g.lastDay.hanged).toBe(null);
    expect(g.lastDay.excused).toBe("Мирный1");
  });
});

describe("blocks: the thug who is boss", () => {
  const rows: BlockRow[] = [
    {
      clause: "M6",
      title: "the thug-boss's kill is the mafia's action",
      actions: { Громила: kill("Мирный1") },
      rolls: NO_ROLLS,
      died: ["Мирный1"],
      silenced: [],
    },
    {
      clause: "T4",
      title: "the girl visits the thug-boss: his mafia kill is cancelled",
      actions: { Громила: kill("Мирный1"), Девочка: visit("Громила") },
      rolls: NO_ROLLS,
      died: [],
      silenced: [],
    },
    {
      clause: "T4",
      title: "the girl visits the thug-boss: his block on the doctor is cancelled",
      actions: {
        Громила: block("Доктор"),
        Девочка: visit("Громила"),
        Доктор: heal("Мирный1"),
        Маньяк: quickKill("Мирный1"),
      },
      rolls: NO_ROLLS,
      died: [],
      silenced: [],
    },
    {
      clause: "M6",
      title: "the thug-boss's block on the doctor stands when nobody visits him",
      actions: { Громила: block("Доктор"), Доктор: heal("Мирный1"), Маньяк: quickKill("Мирный1") },
      rolls: { thugSilence: true },
      died: ["Мирный1"],
      silenced: ["Доктор"],
    },
    {
      clause: "M7",
      title: "the thug-boss blocks the girl: the girl is blocked",
      actions: { Громила: block("Девочка"), Девочка: visit("Маньяк"), Маньяк: quickKill("Мирный1") },
      rolls: NO_ROLLS,
      died: ["Мирный1"],
      silenced: [],
    },
    {
      clause: "M7",
      title: "the thug-boss and the girl target each other: the girl is blocked, the thug-boss is not",
      actions: { Громила: block("Девочка"), Девочка: visit("Громила") },
      rolls: { girlSilence: true, thugSilence: true },
      died: [],
      silenced: ["Девочка"],
    },
    {
      clause: "M6",
      title: "the thug-boss has one slot: a later kill replaces the earlier block",
      actions: [
        ["Громила", block("Доктор")],
        ["Громила", kill("Мирный1")],
        ["Доктор", heal("Мирный1")],
      ],
      rolls: NO_ROLLS,
      died: [],
      silenced: [],
    },
    {
      clause: "M6",
      title: "the thug-boss has one slot: a later block replaces the earlier kill",
      actions: [
        ["Громила", kill("Мирный1")],
        ["Громила", block("Доктор")],
      ],
      rolls: { thugSilence: true },
      died: [],
      silenced: ["Доктор"],
    },
  ];
  const verify = (_: string, { actions, rolls, died, silenced }: BlockRow): void => {
    const g = game(THUG_BOSS).night(actions, { rolls });
    expect(g.lastNight.died).toEqual(died);
    expect(g.lastNight.silenced).toEqual(silenced);
  };
  const m6 = rowsOf(rows, "M6");
  const t4 = rowsOf(rows, "T4");
  const m7 = rowsOf(rows, "M7");
  it.each(m6)("M6: %s", verify);
  it.each(t4)("T4: %s", verify);
  it.each(m7)("M7: %s", verify);

  it("P2: a thug-boss who only blocks has fulfilled his one action: no strike", () => {
    const g = game(THUG_BOSS).night({ Громила: block("Доктор") }, { rolls: NO_ROLLS });
    const s = g.match.state;
    expect(s.day.penalty).toEqual([]);
    expect(s.players.find((p) => p.name === "Громила")!.nightStrikes).toBe(0);
  });
});

interface CollateralRow extends Row {
  actions: Actions;
  died: string[];
  maniacVictims: string[];
  revealed: Partial<Record<string, RoleId>>;
}

describe("bloody-kill collateral on the girl and the thug", () => {
  const girl = { Маньяк: bloodyKill("Мирный1"), Девочка: visit("Мирный1") };
  const thug = { Маньяк: bloodyKill("Мирный1"), Громила: block("Мирный1") };
  const rows: CollateralRow[] = [
    {
      clause: "N1a",
      title: "the girl who visited the bloody-kill victim dies with the victim",
      actions: girl,
      died: ["Девочка", "Мирный1"],
      maniacVictims: ["Мирный1"],
      revealed: { Девочка: "girl", Мирный1: "citizen" },
    },
    {
      clause: "N1a",
      title: "a heal on the victim does not save the visiting girl (T3b)",
      actions: { ...girl, Доктор: heal("Мирный1") },
      died: ["Девочка"],
      maniacVictims: [],
      revealed: { Девочка: "girl" },
    },
    {
      clause: "N1a",
      title: "a heal on the girl saves her; the victim dies (T3b)",
      actions: { ...girl, Доктор: heal("Девочка") },
      died: ["Мирный1"],
      maniacVictims: ["Мирный1"],
      revealed: { Мирный1: "citizen" },
    },
    {
      clause: "T3c",
      title: "heal from the maniac saves both the victim and the visiting girl",
      actions: { ...girl, Доктор: healFrom("maniac") },
      died: [],
      maniacVictims: [],
      revealed: {},
    },
    {
      clause: "T3c",
      title: "heal from the mafia saves neither the victim nor the girl",
      actions: { ...girl, Доктор: healFrom("mafia") },
      died: ["Девочка", "Мирный1"],
      maniacVictims: ["Мирный1"],
      revealed: { Девочка: "girl", Мирный1: "citizen" },
    },
    {
      clause: "T3c",
      title: "heal from the sheriff saves neither the victim nor the girl",
      actions: { ...girl, Доктор: healFrom("sheriff") },
      died: ["Девочка", "Мирный1"],
      maniacVictims: ["Мирный1"],
      revealed: { Девочка: "girl", Мирный1: "citizen" },
    },
    {
      clause: "M8",
      title: "the thug who blocked the bloody-kill victim dies with the victim",
      actions: thug,
      died: ["Громила", "Мирный1"],
      maniacVictims: ["Мирный1"],
      revealed: { Громила: "thug", Мирный1: "citizen" },
    },
    {
      clause: "M8",
      title: "a heal on the victim does not save the blocking thug (T3b)",
      actions: { ...thug, Доктор: heal("Мирный1") },
      died: ["Громила"],
      maniacVictims: [],
      revealed: { Громила: "thug" },
    },
    {
      clause: "M8",
      title: "a heal on the thug saves him; the victim dies (T3b)",
      actions: { ...thug, Доктор: heal("Громила") },
      died: ["Мирный1"],
      maniacVictims: ["Мирный1"],
      revealed: { Мирный1: "citizen" },
    },
    {
      clause: "T3c",
      title: "heal from the maniac saves both the victim and the blocking thug",
      actions: { ...thug, Доктор: healFrom("maniac") },
      died: [],
      maniacVictims: [],
      revealed: {},
    },
    {
      clause: "T3c",
      title: "heal from the mafia does not save the thug from the maniac's collateral",
      actions: { ...thug, Доктор: healFrom("mafia") },
      died: ["Громила", "Мирный1"],
      maniacVictims: ["Мирный1"],
      revealed: { Громила: "thug", Мирный1: "citizen" },
    },
    {
      clause: "N1a",
      title: "the girl and the thug both on the victim: all three die",
      actions: { ...girl, ...thug },
      died: ["Громила", "Девочка", "Мирный1"],
      maniacVictims: ["Мирный1"],
      revealed: { Громила: "thug", Девочка: "girl", Мирный1: "citizen" },
    },
    {
      clause: "N1a",
      title: "the girl and the thug both on the victim, the victim healed: both collaterals die",
      actions: { ...girl, ...thug, Доктор: heal("Мирный1") },
      died: ["Громила", "Девочка"],
      maniacVictims: [],
      revealed: { Громила: "thug", Девочка: "girl" },
    },
    {
      clause: "M7",
      title: "a girl the thug blocked did not visit: no collateral on her",
      actions: { ...girl, Громила: block("Девочка") },
      died: ["Мирный1"],
      maniacVictims: ["Мирный1"],
      revealed: { Мирный1: "citizen" },
    },
    {
      clause: "T4",
      title: "a thug the girl visited did not block: no collateral on him",
      actions: { ...thug, Девочка: visit("Громила") },
      died: ["Мирный1"],
      maniacVictims: ["Мирный1"],
      revealed: { Мирный1: "citizen" },
    },
    {
      clause: "N1b",
      title: "a quick kill has no collateral on the visiting girl",
      actions: { Маньяк: quickKill("Мирный1"), Девочка: visit("Мирный1") },
      died: ["Мирный1"],
      maniacVictims: [],
      revealed: { Мирный1: "citizen" },
    },
    {
      clause: "T4",
      title: "the girl visits the maniac: no bloody kill, no collateral",
      actions: { Маньяк: bloodyKill("Мирный1"), Девочка: visit("Маньяк"), Громила: block("Мирный1") },
      died: [],
      maniacVictims: [],
      revealed: {},
    },
    {
      clause: "N1a",
      title: "the mafia kills the bloody-kill victim under heal from the maniac: an ordinary death",
      actions: { ...girl, Босс: kill("Мирный1"), Доктор: healFrom("maniac") },
      died: ["Мирный1"],
      maniacVictims: [],
      revealed: { Мирный1: "citizen" },
    },
    {
      clause: "T3c",
      title: "heal from the maniac does not save the girl from the sheriff's shot",
      actions: { ...girl, Шериф: shoot("Девочка"), Доктор: healFrom("maniac") },
      died: ["Девочка"],
      maniacVictims: [],
      revealed: { Девочка: "girl" },
    },
  ];
  const verify = (_: string, { actions, died, maniacVictims, revealed }: CollateralRow): void => {
    const g = game(STANDARD).night(actions, { rolls: NO_ROLLS });
    expect(g.lastNight.died).toEqual(died);
    expect(g.lastNight.maniacVictims).toEqual(maniacVictims);
    expect(g.lastNight.revealed).toEqual(revealed);
  };
  const n1a = rowsOf(rows, "N1a");
  const n1b = rowsOf(rows, "N1b");
  const m8 = rowsOf(rows, "M8");
  const t3c = rowsOf(rows, "T3c");
  const m7 = rowsOf(rows, "M7");
  const t4 = rowsOf(rows, "T4");
  it.each(n1a)("N1a: %s", verify);
  it.each(n1b)("N1b: %s", verify);
  it.each(m8)("M8: %s", verify);
  it.each(t3c)("T3c: %s", verify);
  it.each(m7)("M7: %s", verify);
  it.each(t4)("T4: %s", verify);

  it("M8: the thug-boss who blocked the bloody-kill victim dies with the victim", () => {
    const g = game(THUG_BOSS).night(
      { Громила: block("Мирный1"), Маньяк: bloodyKill("Мирный1") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.died).toEqual(["Громила", "Мирный1"]);
    expect(g.lastNight.revealed).toEqual({ Громила: "thug", Мирный1: "citizen" });
  });

  it("T3e: heal from the maniac does not save the girl who was last night's heal target", () => {
    const first = game(STANDARD).night({ Доктор: heal("Девочка") }, { rolls: NO_ROLLS });
    const g = quietDay(first).night({ ...girl, Доктор: healFrom("maniac") }, { rolls: NO_ROLLS });
    expect(g.lastNight.died).toEqual(["Девочка"]);
    expect(g.lastNight.maniacVictims).toEqual([]);
  });
});

type ShahidRow = [attacker: string, cover: string, actions: Actions, died: string[]];

describe("the shahid against heal, blocks and each attacker", () => {
  const attackers: Record<string, Record<string, Act>> = {
    "the mafia": { Босс: kill("Шахид") },
    "the maniac's bloody kill": { Маньяк: bloodyKill("Шахид") },
    "the maniac's quick kill": { Маньяк: quickKill("Шахид") },
    "the sheriff": { Шериф: shoot("Шахид") },
  };
  const source: Record<string, "mafia" | "maniac" | "sheriff"> = {
    "the mafia": "mafia",
    "the maniac's bloody kill": "maniac",
    "the maniac's quick kill": "maniac",
    "the sheriff": "sheriff",
  };
  const other: Record<string, "mafia" | "maniac" | "sheriff"> = {
    "the mafia": "sheriff",
    "the maniac's bloody kill": "mafia",
    "the maniac's quick kill": "mafia",
    "the sheriff": "maniac",
  };
  const bloody = (attacker: string): boolean => attacker === "the maniac's bloody kill";
  // Expected deaths for each cover; the girl and the thug who block a bloody-kill victim die with it.
  const covers: {
    cover: string;
    actions: (a: string) => Record<string, Act>;
    died: (a: string) => string[];
  }[] = [
    { cover: "no cover", actions: () => ({}), died: () => ["Мирный1", "Шахид"] },
    { cover: "the shahid healed", actions: () => ({ Доктор: heal("Шахид") }), died: () => ["Мирный1"] },
    {
      cover: "the marked player healed",
      actions: () => ({ Доктор: heal("Мирный1") }),
      died: () => ["Шахид"],
    },
    {
      cover: "heal from the attacker's role",
      actions: (a) => ({ Доктор: healFrom(source[a]!) }),
      died: () => ["Мирный1"],
    },
    {
      cover: "heal from another role",
      actions: (a) => ({ Доктор: healFrom(other[a]!) }),
      died: () => ["Мирный1", "Шахид"],
    },
    {
      cover: "the shahid visited by the girl",
      actions: () => ({ Девочка: visit("Шахид") }),
      died: (a) => (bloody(a) ? ["Девочка", "Шахид"] : ["Шахид"]),
    },
    {
      cover: "the shahid blocked by the thug",
      actions: () => ({ Громила: block("Шахид") }),
      died: (a) => (bloody(a) ? ["Громила", "Шахид"] : ["Шахид"]),
    },
    {
      cover: "the shahid visited by the girl and healed",
      actions: () => ({ Девочка: visit("Шахид"), Доктор: heal("Шахид") }),
      died: (a) => (bloody(a) ? ["Девочка"] : []),
    },
  ];
  const rows: ShahidRow[] = Object.keys(attackers).flatMap((attacker) =>
    covers.map((c): ShahidRow => [
      attacker,
      c.cover,
      { ...attackers[attacker]!, ...c.actions(attacker), Шахид: mark("Мирный1") },
      c.died(attacker),
    ]),
  );
  it.each(rows)("T6: the shahid attacked by %s, %s", (_a, _c, actions, died) => {
    const g = game(STANDARD).night(actions, { rolls: NO_ROLLS });
    expect(g.lastNight.died).toEqual(died);
  });

  const extra: { clause: string; title: string; actions: Actions; died: string[] }[] = [
    {
      clause: "T6",
      title: "two attackers on the shahid, the shahid healed: only the marked player dies",
      actions: {
        Босс: kill("Шахид"),
        Шериф: shoot("Шахид"),
        Доктор: heal("Шахид"),
        Шахид: mark("Мирный1"),
      },
      died: ["Мирный1"],
    },
    {
      clause: "T6",
      title: "the marked player is also the mafia's victim and healed: only the shahid dies",
      actions: {
        Босс: kill("Шахид", "Мирный1"),
        Доктор: heal("Мирный1"),
        Шахид: mark("Мирный1"),
      },
      died: ["Шахид"],
    },
    {
      clause: "T6",
      title: "heal from mafia does not cancel the mark (its source is the shahid)",
      actions: { Босс: kill("Шахид"), Доктор: healFrom("mafia"), Шахид: mark("Мирный1") },
      died: ["Мирный1"],
    },
    {
      clause: "T6",
      title: "the shahid marks the sheriff who shoots him: both die",
      actions: { Шериф: shoot("Шахид"), Шахид: mark("Шериф") },
      died: ["Шахид", "Шериф"],
    },
    {
      clause: "T6",
      title: "the shahid marks the maniac who tortures him: no attack, nobody dies",
      actions: { Маньяк: torture("Шахид"), Шахид: mark("Маньяк") },
      died: [],
    },
    {
      clause: "T6",
      title: "the shahid marks the thug who blocks him: the block wins, only the shahid dies",
      actions: { Громила: block("Шахид"), Шериф: shoot("Шахид"), Шахид: mark("Громила") },
      died: ["Шахид"],
    },
    {
      clause: "T6",
      title: "the girl visits the shahid's attacker (the boss): no attack, the mark does nothing",
      actions: { Девочка: visit("Босс"), Босс: kill("Шахид"), Шахид: mark("Мирный1") },
      died: [],
    },
    {
      clause: "T6",
      title: "the shahid visited by the girl is the boss's second victim: only the two victims die",
      actions: { Девочка: visit("Шахид"), Босс: kill("Шахид", "Мирный2"), Шахид: mark("Мирный1") },
      died: ["Мирный2", "Шахид"],
    },
  ];
  const t6 = rowsOf(extra, "T6");
  it.each(t6)("T6: %s", (_, { actions, died }) => {
    const g = game(STANDARD).night(actions, { rolls: NO_ROLLS });
    expect(g.lastNight.died).toEqual(died);
  });

  it("T6: the thug-boss blocks the shahid and the sheriff shoots him: the mark does nothing", () => {
    const g = game(THUG_BOSS).night(
      { Громила: block("Шахид"), Шериф: shoot("Шахид"), Шахид: mark("Мирный1") },
      { rolls: NO_ROLLS },
    );
    expect(g.lastNight.died).toEqual(["Шахид"]);
  });
});
