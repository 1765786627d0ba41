import type { Attack, GameEvent, NightAction, RoleId } from "@forum-mafia/engine";
import { describe, expect, it } from "vitest";
import { checkReveals, knowledge, type Result, type Truth } from "./leak-oracle.ts";

/**
 * The leak oracle's own reading of the rules (leak-oracle.ts), on hand-made results and GM records: the
 * server's leak games trust it to say who may know which role, so it must be right without the engine.
 */

// §1's table, one seat each, citizens last: 0 boss, 1 troll, 2 elf, 3 lawyer, 4 thug, 5 maniac, 6 sheriff,
// 7 sergeant, 8 doctor, 9 girl, 10 prosecutor, 11 shahid, 12–16 citizens.
const ROLES: RoleId[] = [
  "boss",
  "troll",
  "elf",
  "lawyer",
  "thug",
  "maniac",
  "sheriff",
  "sergeant",
  "doctor",
  "girl",
  "prosecutor",
  "shahid",
  "citizen",
  "citizen",
  "citizen",
  "citizen",
  "citizen",
];
const NAMES = ROLES.map((_, i) => `Игрок${i}`);

const night = (
  number: number,
  o: { died?: number[]; revealed?: number[]; bloody?: number[]; serum?: number; exposed?: number[] } = {},
): Result => ({
  type: "nightResults",
  phase: { kind: "night", number },
  died: o.died ?? [],
  revealed: (o.revealed ?? []).map((seat) => ({ seat, role: ROLES[seat]! })),
  exposed: (o.exposed ?? []).map((seat) => ({ seat, as: ROLES[seat] === "doctor" ? "doctor" : "boss" })),
  bloodyVictims: o.bloody ?? [],
  tortureEvidence: [],
  serum: o.serum ?? null,
  silenced: [],
  modkilled: [],
  winner: null,
});

const day = (number: number, died: number[], revealed: number[]): Result => ({
  type: "dayResults",
  phase: { kind: "day", number },
  hanged: died[0] ?? null,
  excused: null,
  closedEarly: false,
  notVoted: [],
  modkilled: died.slice(1),
  died,
  revealed: revealed.map((seat) => ({ seat, role: ROLES[seat]! })),
  winner: null,
});

const submitted = (number: number, seat: number, action: NightAction): GameEvent => ({
  type: "actionSubmitted",
  phase: { kind: "night", number },
  seat,
  slot: "own",
  action,
});

const detail = (number: number, attacks: Attack[], blocked: number[] = []): GameEvent => ({
  type: "nightDetail",
  phase: { kind: "night", number },
  attacks,
  blocked,
  rolls: [],
});

/** The truth at a point; every published night not in `record` gets a detail with no attacks and no blocks. */
function truth(results: Result[], record: GameEvent[] = [], ended = false): Truth {
  const has = new Set(record.flatMap((e) => (e.type === "nightDetail" ? [e.phase.number] : [])));
  const quiet = results.flatMap((r) =>
    r.type === "nightResults" && !has.has(r.phase.number) ? [detail(r.phase.number, [])] : [],
  );
  return { roles: ROLES, names: NAMES, results, ended, hidden: new Set(), record: [...record, ...quiet] };
}

/** The roles `who` may see, seat by seat (seats with none left out). */
function seen(t: Truth, who: number | "public"): Record<number, string[]> {
  const k = knowledge(who === "public" ? { kind: "public" } : { kind: "player", seat: who }, t, "test");
  const out: Record<number, string[]> = {};
  for (const [seat, roles] of [...k.roles].sort((a, b) => a[0] - b[0])) out[seat] = [...roles].sort();
  return out;
}

/** Night 1 kills seat 16 (17 alive: R1 reveals); day 1 hangs 15 and modkills 14–10 (16 alive: R1 reveals). */
const firstDays = (): Result[] => [
  night(1, { died: [16], revealed: [16] }),
  day(1, [15, 14, 13, 12, 11, 10], [10, 11, 12, 13, 14, 15]),
];
/** What everyone knows after them; night 2 starts with 10 alive, where R1 reveals no more. */
const PUBLIC_BY_THEN = {
  10: ["prosecutor"],
  11: ["shahid"],
  12: ["citizen"],
  13: ["citizen"],
  14: ["citizen"],
  15: ["citizen"],
  16: ["citizen"],
};

describe("the leak oracle's reading of RULES.md (leak-oracle.ts)", () => {
  it("S2: a player knows their own role, the mafia each other, the sheriff and the sergeant each other", () => {
    const t = truth([]);
    const mafia = { 0: ["boss"], 1: ["troll"], 2: ["elf"], 3: ["lawyer"], 4: ["thug"] };
    expect(seen(t, 0)).toEqual(mafia);
    expect(seen(t, 4)).toEqual(mafia);
    expect(seen(t, 6)).toEqual({ 6: ["sheriff"], 7: ["sergeant"] });
    expect(seen(t, 7)).toEqual({ 6: ["sheriff"], 7: ["sergeant"] });
    for (const [seat, role] of [
      [5, "maniac"],
      [8, "doctor"],
      [9, "girl"],
      [10, "prosecutor"],
      [11, "shahid"],
      [12, "citizen"],
    ] as const)
      expect(seen(t, seat)).toEqual({ [seat]: [role] });
    expect(seen(t, "public")).toEqual({});
  });

  it("R1: a death's role is public iff more than 10 were alive at the start of its phase", () => {
    // Night 2 starts with 11 alive (its death is revealed); day 2 with 10 (its death is not).
    const results = [
      night(1, { died: [16], revealed: [16] }),
      day(1, [15, 14, 13, 12, 11], [11, 12, 13, 14, 15]),
      night(2, { died: [10], revealed: [10] }),
      day(2, [9], []),
    ];
    const t = truth(results);
    expect(seen(t, "public")).toEqual(PUBLIC_BY_THEN);
    expect(checkReveals(t)).toEqual([]);
    // Both ways: a role revealed at 10 alive is a leak; a role R1 makes public and left out is a failure.
    const wrong = truth([results[0]!, results[1]!, night(2, { died: [10] }), day(2, [9], [9])]);
    expect(checkReveals(wrong)).toEqual([
      "nightResults night 2: does not reveal seat 10 (prosecutor), which R1 (11 alive at the start) make public",
      "dayResults day 2: reveals seat 9 (girl) though R1/R2 do not allow it (10 alive at the start)",
    ]);
    const lie = truth([{ ...results[0]!, revealed: [{ seat: 16, role: "boss" }] }]);
    expect(checkReveals(lie)).toEqual([
      "nightResults night 1: reveals seat 16 as boss, a lie (it is citizen)",
    ]);
  });

  it("R1, S3: with the game's revealAbove, a death's role is public iff more than that many were alive at its phase's start", () => {
    // Night 1 starts with 17 alive, day 1 with 16, night 2 with 11, day 2 with 10.
    const deaths = (revealed: (seat: number) => boolean): Result[] => {
      const r = (seats: number[]) => seats.filter(revealed);
      return [
        night(1, { died: [16], revealed: r([16]) }),
        day(1, [15, 14, 13, 12, 11], r([11, 12, 13, 14, 15])),
        night(2, { died: [10], revealed: r([10]) }),
        day(2, [9], r([9])),
      ];
    };
    // revealAbove 9: all four phases started with more than 9 alive.
    const low = { ...truth(deaths(() => true)), revealAbove: 9 };
    expect(checkReveals(low)).toEqual([]);
    expect(seen(low, "public")).toEqual({ ...PUBLIC_BY_THEN, 9: ["girl"] });
    // revealAbove 16: only night 1 (17 alive) reveals.
    const high = { ...truth(deaths((seat) => seat === 16)), revealAbove: 16 };
    expect(checkReveals(high)).toEqual([]);
    expect(seen(high, "public")).toEqual({ 16: ["citizen"] });
    // The default reading (10) of the same game at revealAbove 16 is a leak at day 1.
    expect(checkReveals({ ...truth(deaths(() => true)), revealAbove: 16 })[0]).toBe(
      "dayResults day 1: reveals seat 11 (shahid) though R1/R2 do not allow it (16 alive at the start)",
    );
  });

  it("R2, N1: a bloody kill reveals its victim at any number alive, unless blocked, cancelled or replaced", () => {
    // Night 2 starts with 10 alive: only R2 reveals. The maniac (seat 5) kills the girl (seat 9).
    const bloody: Attack = { target: 9, by: 5, source: "maniac", kind: "bloodyKill", cancelledBy: null };
    const results = [...firstDays(), night(2, { died: [9], revealed: [9], bloody: [9] })];
    const record = [submitted(2, 5, { act: "bloodyKill", target: 9 }), detail(2, [bloody])];
    const t = truth(results, record);
    expect(seen(t, "public")[9]).toEqual(["girl"]);
    expect(checkReveals(t)).toEqual([]);
    // The same death, announced without the role: a failure, with the seat and the phase.
    expect(checkReveals(truth([...firstDays(), night(2, { died: [9], bloody: [9] })], record))).toEqual([
      "nightResults night 2: does not reveal seat 9 (girl), which R2 (a bloody kill) make public",
    ]);
    // Healed, the girl dies of the sheriff's shot: an ordinary death (N1a), not revealed at 10 alive.
    const shot: Attack = { target: 9, by: 6, source: "sheriff", kind: "shot", cancelledBy: null };
    const healed = [
      submitted(2, 5, { act: "bloodyKill", target: 9 }),
      detail(2, [{ ...bloody, cancelledBy: "heal" }, shot]),
    ];
    expect(seen(truth(results, healed), "public")[9]).toBeUndefined();
    expect(checkReveals(truth(results, healed))).toEqual([
      "nightResults night 2: reveals seat 9 (girl) though R1/R2 do not allow it (10 alive at the start)",
      "nightResults night 2: announces bloody kill victims 9, the GM's record none (N1a)",
    ]);
    // The GM's record must add up: an unblocked bloody kill with no attack in the night's detail.
    const lost = [submitted(2, 5, { act: "bloodyKill", target: 9 }), detail(2, [shot])];
    expect(checkReveals(truth(results, lost))).toContain(
      "nightResults night 2: the maniac's bloody kill on seat 9, not blocked, is not among the attacks",
    );
    // A blocked maniac kills nobody; a later quick kill replaces the bloody kill (O1).
    for (const other of [
      [submitted(2, 5, { act: "bloodyKill", target: 9 }), detail(2, [shot], [5])],
      [
        submitted(2, 5, { act: "bloodyKill", target: 9 }),
        submitted(2, 5, { act: "quickKill", target: 9 }),
        detail(2, [{ ...bloody, kind: "quickKill" }]),
      ],
    ])
      expect(seen(truth(results, other), "public")[9]).toBeUndefined();
  });

  it("R2, T3a: the serum reveals its target's role at any number alive; a blocked doctor's does not", () => {
    const results = [...firstDays(), night(2, { revealed: [0], serum: 0, exposed: [8] })];
    const record = [submitted(2, 8, { act: "serum", target: 0 }), detail(2, [])];
    const t = truth(results, record);
    expect(seen(t, "public")).toEqual({ ...PUBLIC_BY_THEN, 0: ["boss"], 8: ["doctor"] });
    expect(checkReveals(t)).toEqual([]);
    const blocked = [submitted(2, 8, { act: "serum", target: 0 }), detail(2, [], [8])];
    expect(seen(truth(results, blocked), "public")[0]).toBeUndefined();
    expect(checkReveals(truth(results, blocked))).toEqual([
      "nightResults night 2: reveals seat 0 (boss) though R1/R2 do not allow it (10 alive at the start)",
      "nightResults night 2: announces the serum on seat 0, the GM's record none (T3a)",
      "nightResults night 2: exposes seat 8 (doctor) as doctor (boss at the start: 0)",
    ]);
  });

  it("M1, M3: a boss exposure names the boss of that night, who survived it", () => {
    expect(checkReveals(truth([night(1, { exposed: [0] })]))).toEqual([]);
    expect(checkReveals(truth([night(1, { exposed: [1] })]))).toEqual([
      "nightResults night 1: exposes seat 1 (troll) as boss (boss at the start: 0)",
    ]);
    // The boss died on day 1: the troll is the boss from night 2 (M1); a boss who dies that night is not exposed.
    const after = [night(1), day(1, [0], [0]), night(2, { exposed: [1] })];
    expect(checkReveals(truth(after))).toEqual([]);
    expect(checkReveals(truth([night(1, { died: [0], revealed: [0], exposed: [0] })]))).toEqual([
      "nightResults night 1: exposes seat 0 (boss) as boss (boss at the start: 0)",
    ]);
  });

  it("R3: at the end every role is public", () => {
    const t = truth([night(1)], [], true);
    const all = Object.fromEntries(ROLES.map((r, seat) => [seat, [r]]));
    expect(seen(t, "public")).toEqual(all);
  });
});
