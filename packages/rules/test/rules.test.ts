import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  ACT_CLAUSE,
  DEFAULT_ROLES,
  MAFIA_ROLES,
  PAIR_ROLES,
  ROLE_IDS,
  ROLES,
  SUCCESSION,
  factionOf,
  inPair,
  type ActKind,
  type RoleId,
} from "../src/index.ts";

/**
 * The rules data against the rules text itself (the copy committed in docs/rules, which tools/check-clauses
 * keeps equal to ../shared/RULES.md): the table of §1, M1's succession, V4's weights. The expected values
 * are read from RULES.md or written here by hand, never from the module under test.
 */
const rules = readFileSync(fileURLToPath(new URL("../../../docs/rules/RULES.md", import.meta.url)), "utf8");

/** §1's table: one row per role, `| \`id\` | name | faction | night action |`. */
const table = [...rules.matchAll(/^\| `(\w+)`( ×(\d+))? \| [^|]+ \| (\w+) \| ([^|]+) \|$/gm)].map((m) => ({
  id: m[1]!,
  count: m[3] === undefined ? 1 : Number(m[3]),
  faction: m[4]!,
  action: m[5]!.trim(),
}));

describe("the rules data (issue 14)", () => {
  it("S3, §1: the role ids and the standard deal are the table's, in its order", () => {
    expect(table.map((r) => r.id)).toEqual([...ROLE_IDS]);
    expect(DEFAULT_ROLES).toEqual(table.flatMap((r) => Array<string>(r.count).fill(r.id)));
    expect(DEFAULT_ROLES).toHaveLength(17);
  });

  it("S1, §1: each role's faction is the table's (the maniac's side is neutral)", () => {
    for (const r of table) {
      const expected = r.faction === "neutral" ? "maniac" : r.faction;
      expect(factionOf(r.id as RoleId), r.id).toBe(expected);
    }
    expect(MAFIA_ROLES).toEqual(table.filter((r) => r.faction === "mafia").map((r) => r.id));
  });

  it("M1: the succession is the order in which the clause names the ranks", () => {
    const m1 = /^- M1\. (.*)$/m.exec(rules)![1]!.split("**[reading]**")[0]!;
    const named = [...m1.matchAll(/`(\w+)`/g)].map((m) => m[1]);
    expect(SUCCESSION).toEqual(named);
    expect(SUCCESSION.map((r) => ROLES[r].succession)).toEqual([1, 2, 3, 4, 5]);
    expect(ROLE_IDS.filter((r) => ROLES[r].succession !== null)).toHaveLength(5);
  });

  it("S2, T1: the sheriff and the sergeant are the pair, and nobody else", () => {
    expect([...PAIR_ROLES].sort()).toEqual(["sergeant", "sheriff"]);
    expect(ROLE_IDS.filter(inPair)).toEqual(["sheriff", "sergeant"]);
  });

  it("V4: the doctor's blue counts 3, the prosecutor's red 2, every other vote 1", () => {
    for (const r of ROLE_IDS) {
      expect(ROLES[r].blueWeight, r).toBe(r === "doctor" ? 3 : 1);
      expect(ROLES[r].redWeight, r).toBe(r === "prosecutor" ? 2 : 1);
    }
  });

  it("T2: the sergeant's check reads the mafia as mafia and everyone else, the maniac too, as not", () => {
    expect(ROLE_IDS.filter((r) => ROLES[r].checksAs === "mafia")).toEqual([
      "boss",
      "troll",
      "elf",
      "lawyer",
      "thug",
    ]);
  });

  it("O1, M2, M4, M5, M6, N1, T1–T6, P2: each role's acts are the clauses its row of the table names", () => {
    // §1's "night action" column names each act's clause; the mafia's shared action (M2, its council M2c)
    // belongs to every mafioso (M4), and a role with any act may pass (P2). By hand from the table:
    const own: Record<RoleId, readonly ActKind[]> = {
      boss: [],
      troll: [],
      elf: [],
      lawyer: ["protect"],
      thug: ["block"],
      maniac: ["bloodyKill", "quickKill", "torture"],
      sheriff: ["shoot"],
      sergeant: ["check"],
      doctor: ["serum", "heal", "healFrom", "poison"],
      girl: ["visit"],
      prosecutor: ["unprotect"],
      shahid: ["mark"],
      citizen: [],
    };
    for (const r of table) {
      const id = r.id as RoleId;
      const clauses = [...r.action.matchAll(/\(([A-Z]\d+)\)/g)].map((m) => m[1]!);
      // Every act's clause is the clause the table names, or one of its sub-clauses (N1 → N1a, T3 → T3b).
      for (const act of own[id])
        expect(
          clauses.some((c) => ACT_CLAUSE[act].startsWith(c)),
          `${id} ${act}`,
        ).toBe(true);
      const mafia = r.faction === "mafia";
      const expected: ActKind[] = [...(mafia ? (["mafia", "council"] as const) : []), ...own[id]];
      if (expected.length > 0) expected.push("pass");
      expect(ROLES[id].acts, id).toEqual(expected);
    }
  });

  it("M5, M6: as boss the lawyer loses the protect, the thug keeps the block; the others' acts are unchanged", () => {
    expect(ROLES.lawyer.bossActs).toEqual(["mafia", "council", "pass"]);
    expect(ROLES.thug.bossActs).toEqual(["mafia", "council", "block", "pass"]);
    for (const r of ["boss", "troll", "elf"] as const) expect(ROLES[r].bossActs).toEqual(ROLES[r].acts);
  });
});
