// Where each seat's night move stands (nightMoves, the GM's table): written by hand for a few submissions,
// and checked against the strikes P2 hands out at the end of every night of random games.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  act,
  endNight,
  isRejection,
  nightMoves,
  startMatch,
  type Match,
  type NightAction,
  type NightOutcome,
  type RoleId,
  type SeatTonight,
} from "../src/index.ts";
import { MATCH_CALLS, playRandomGame, type MatchCalls } from "../src/random-play.ts";
import { withState } from "../src/state.ts";
import { missedMoves } from "../src/strikes.ts";

const ROLES: readonly RoleId[] = [
  "boss", // 0
  "troll", // 1
  "elf", // 2
  "lawyer", // 3
  "thug", // 4
  "maniac", // 5
  "sheriff", // 6
  "sergeant", // 7
  "doctor", // 8
  "girl", // 9
  "prosecutor", // 10
  "shahid", // 11
  "citizen", // 12
  "citizen", // 13
];

function table(roles: readonly RoleId[] = ROLES): Match {
  const m = startMatch({ players: roles.map((role, i) => ({ name: `P${i}`, role })), seed: "moves" });
  if (isRejection(m)) throw new Error(m.message);
  return m;
}

function send(m: Match, ...moves: [number, NightAction][]): Match {
  for (const [seat, action] of moves) {
    const next = act(m, seat, action);
    if (isRejection(next)) throw new Error(next.message);
    m = next;
  }
  return m;
}

const moves = (m: Match): SeatTonight[] => nightMoves(m.state, m.night);

describe("each seat's night move", () => {
  it("O1, P2, T7: at the night's start everyone with a move owes it; the troll, the elf and the citizens owe nothing", () => {
    // boss troll elf lawyer thug maniac sheriff sergeant doctor girl prosecutor shahid citizen citizen
    expect(moves(table())).toEqual([
      "owes",
      "none",
      "none",
      "owes",
      "owes",
      "owes",
      "owes",
      "owes",
      "owes",
      "owes",
      "owes",
      "owes",
      "none",
      "none",
    ]);
  });

  it("M4, T1, P2: the troll's mafia action covers the boss and the elf; the sergeant's check covers the sheriff; a lawyer's mafia action is not his protect", () => {
    const m = send(
      table(),
      [1, { act: "mafia", kill: [12], intimidate: [] }],
      [7, { act: "check", target: 0 }],
      [3, { act: "mafia", kill: [13], intimidate: [] }],
      [9, { act: "visit", target: 5 }],
      [8, { act: "pass" }],
    );
    expect(moves(m)).toEqual([
      "mafia", // boss: the troll sent the mafia's action (M4)
      "sent", // troll
      "mafia", // elf
      "owes", // lawyer: his mafia action leaves his own protect owed
      "owes", // thug
      "owes", // maniac
      "pair", // sheriff: the sergeant sent the pair's one action (T1)
      "sent", // sergeant
      "sent", // doctor: a pass is a move (P2)
      "sent", // girl
      "owes", // prosecutor
      "owes", // shahid
      "none",
      "none",
    ]);
    expect(missedMoves(m.state, m.night)).toEqual([3, 4, 5, 10, 11]);
  });

  it("M6, G7: a thug who is boss has one slot, filled by the block alone; the dead have no move", () => {
    // thug (the only mafioso, so the boss) maniac sheriff sergeant girl citizen
    let m = table(["thug", "maniac", "sheriff", "sergeant", "girl", "citizen"]);
    expect(m.state.boss).toBe(0);
    expect(moves(m)).toEqual(["owes", "owes", "owes", "owes", "owes", "none"]);
    m = send(m, [0, { act: "block", target: 4 }], [2, { act: "pass" }]);
    expect(moves(m)).toEqual(["sent", "owes", "sent", "pair", "owes", "none"]);
    expect(missedMoves(m.state, m.night)).toEqual([1, 4]);
    const girlDead = withState(m.state, {
      players: m.state.players.map((p, seat) => (seat === 4 ? { ...p, alive: false } : p)),
    });
    expect(nightMoves(girlDead, m.night)).toEqual(["sent", "owes", "sent", "pair", "none", "none"]);
  });

  it("P2, M4, M6, T1: at the end of every night of random games, the seats found owing are the seats struck", () => {
    let nights = 0;
    let struck = 0;
    const calls: MatchCalls = {
      ...MATCH_CALLS,
      endNight: (m, decisions) => {
        const owing = missedMoves(m.state, m.night);
        const next = endNight(m, decisions);
        if (isRejection(next)) return next;
        const outcome = next.outcomes[next.outcomes.length - 1]!.outcome as NightOutcome;
        expect(owing).toEqual([...outcome.struck].sort((a, b) => a - b));
        nights++;
        struck += owing.length;
        return next;
      },
    };
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (seed) => {
        playRandomGame(seed, { calls });
      }),
      { numRuns: 60, seed: 14 },
    );
    expect(nights).toBeGreaterThan(100);
    expect(struck).toBeGreaterThan(20);
  });
});
