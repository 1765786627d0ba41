import {
  endDay,
  endNight,
  isRejection,
  modkill,
  startMatch,
  vote,
  type Match,
  type RoleId,
  type Vote,
} from "@forum-mafia/engine";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lastVotes } from "../src/notebooks/notebook-paste.ts";

/**
 * Issue 28, item 1: a pasted thread keeps only each seat's last accepted vote (notebook.ts `lastVotes`).
 * V1 counts only the last vote of the day and V7 makes an early vote final, so replaying the kept votes
 * alone must give exactly the day the whole list gives: the same ballots, order of voters, early close
 * and outcome, and the same refusals shown to the GM.
 */

const NAMES = ["Аня", "Борис", "Вика", "Гоша", "Даша", "Егор", "Женя", "Зоя"];
const ROLES: RoleId[] = ["boss", "citizen", "sheriff", "citizen", "doctor", "citizen", "thug", "citizen"];

/** Day 1 of a table whose night passed with the given seats modkilled (dead voters and targets). */
function dayOne(
  dead: readonly number[],
  options: { earlyFromDay: number; earlyClose: "majority" | "all" },
): Match | null {
  let m = startMatch({
    players: NAMES.map((name, seat) => ({ name, role: ROLES[seat]! })),
    seed: "a".repeat(64),
    options,
  });
  if (isRejection(m)) throw new Error(m.message);
  for (const seat of dead) {
    const next = modkill(m, seat, "тест");
    if (!isRejection(next)) m = next;
  }
  const day = endNight(m, { rolls: {}, council: null });
  if (isRejection(day)) throw new Error(day.message);
  return day.state.winner === null && day.state.phase.kind === "day" ? day : null;
}

/** The whole list entered one by one, as before issue 28: the match after it and each vote's refusal code. */
function whole(start: Match, votes: readonly { seat: number; vote: Vote }[]) {
  let m = start;
  const refused: (string | null)[] = [];
  for (const v of votes) {
    const next = vote(m, v.seat, v.vote);
    if (isRejection(next)) refused.push(next.code);
    else {
      refused.push(null);
      m = next;
    }
  }
  return { match: m, refused };
}

/** The kept votes alone replayed from the start: each must be accepted again. */
function replayKept(start: Match, kept: readonly { seat: number; vote: Vote }[]): Match {
  let m = start;
  for (const v of kept) {
    const next = vote(m, v.seat, v.vote);
    if (isRejection(next)) throw new Error(`a kept vote is refused on replay: ${next.code}`);
    m = next;
  }
  return m;
}

describe("issue 28: a paste keeps each seat's last vote, and the day is the same", () => {
  it("V1, V7: by hand: three early votes close the day; earlier votes are replaced, later ones refused", () => {
    // Five alive of eight (three modkilled at night): more than half is three early votes (V7, majority).
    const start = dayOne([5, 6, 7], { earlyFromDay: 1, earlyClose: "majority" })!;
    expect(start).not.toBeNull();
    const [A, B, C, D, E] = [0, 1, 2, 3, 4];
    const red = (target: number, early = false): Vote => ({ color: "red", target, early });
    const votes = [
      { seat: A, vote: red(B) }, //             0: replaced by 2, then 7
      { seat: B, vote: red(A) }, //             1: replaced by 6
      { seat: A, vote: { color: "blue", target: C, early: false } as Vote }, // 2: replaced by 7
      { seat: C, vote: red(B, true) }, //       3: kept (early, final)
      { seat: C, vote: red(A) }, //             4: refused, C's early vote is final (V7)
      { seat: D, vote: red(B, true) }, //       5: kept (early)
      { seat: B, vote: red(C) }, //             6: kept
      { seat: A, vote: red(B, true) }, //       7: kept: the third early vote of five closes the day
      { seat: E, vote: red(A) }, //             8: refused, the day has closed (V7)
    ];
    const r = lastVotes(start, votes);
    expect(r.verdicts.map((v) => (typeof v === "string" ? v : v.code))).toEqual([
      "replaced",
      "replaced",
      "replaced",
      "kept",
      "vote/early-final",
      "kept",
      "kept",
      "kept",
      "vote/day-closed",
    ]);
    expect(r.replaced).toBe(3);
    const kept = votes.filter((_, i) => r.verdicts[i] === "kept");
    const m = replayKept(start, kept);
    expect(m.day.closedEarly).toBe(true);
    expect(m.day.order).toEqual([C, D, B, A]);
    // V5: B has three red votes (C, D, A), C one (B). P2: nobody moved on night 1, so the boss A, the
    // sheriff C and the doctor E have 2 penalty votes each; P1: E did not vote, 2 more. E is hanged, 4 to 3.
    const day = endDay(m);
    if (isRejection(day)) throw new Error(day.message);
    const outcome = day.outcomes.at(-1)!.outcome;
    expect(outcome).toMatchObject({ hanged: E, closedEarly: true, notVoted: [E] });
    expect(outcome.phase.kind === "day" && "score" in outcome && [...outcome.score].sort()).toEqual([
      [A, 2],
      [B, 3],
      [C, 3],
      [E, 4],
    ]);
  });

  it("V1, V7: for any votes, the kept ones replay to the same day as the whole list (property)", () => {
    const seats = NAMES.length;
    const voteArb = fc.record({
      seat: fc.nat(seats), // one past the table: an unknown voter, refused
      vote: fc.record({
        color: fc.constantFrom("red" as const, "blue" as const),
        target: fc.nat(seats - 1),
        early: fc.boolean(),
      }),
    });
    fc.assert(
      fc.property(
        fc.subarray([0, 1, 2, 3, 4, 5, 6, 7], { maxLength: 3 }),
        fc.constantFrom(1, 3),
        fc.constantFrom("majority" as const, "all" as const),
        fc.array(voteArb, { maxLength: 120 }),
        (dead, earlyFromDay, earlyClose, votes) => {
          const start = dayOne(dead, { earlyFromDay, earlyClose });
          fc.pre(start !== null);
          const full = whole(start!, votes);
          const r = lastVotes(start!, votes);
          // The same refusals, for the same votes, as entering them one by one.
          expect(r.verdicts.map((v) => (typeof v === "string" ? null : v.code))).toEqual(full.refused);
          // At most one vote a seat is kept, and every accepted vote is kept or replaced.
          const kept = votes.filter((_, i) => r.verdicts[i] === "kept");
          expect(new Set(kept.map((v) => v.seat)).size).toBe(kept.length);
          expect(kept.length + r.replaced).toBe(full.refused.filter((x) => x === null).length);
          const m = replayKept(start!, kept);
          expect(m.day).toEqual(full.match.day);
          expect(r.match.day).toEqual(full.match.day);
          const a = endDay(m);
          const b = endDay(full.match);
          if (isRejection(a) || isRejection(b)) throw new Error("the day does not close");
          expect(a.outcomes.at(-1)).toEqual(b.outcomes.at(-1));
          expect(a.state).toEqual(b.state);
        },
      ),
      { numRuns: 400 },
    );
  });
});
