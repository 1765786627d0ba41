/**
 * Issue 28: a stalled game, from the public results only (stall.ts): three full cycles, three nights and
 * three days, closed in a row with no death (a modkill included) and no hanging. Worked out by hand on
 * short sequences of results, and on a bot game that loops (estimate:391 of the classic 17, lapseAt 7).
 */
import { describe, expect, it } from "vitest";
import type { DayResults, NightResults } from "../src/events.ts";
import { gameEvents } from "../src/events.ts";
import { DEFAULT_OPTIONS, DEFAULT_ROLES, STALL_CYCLES, stallOf } from "../src/index.ts";
import { canonicalRoles, playBotGameToCap } from "../src/bots-entry.ts";

/** Night n's public results: who died, who was modkilled; nobody wins. */
const night = (n: number, died: number[] = [], modkilled: number[] = []): NightResults => ({
  type: "nightResults",
  phase: { kind: "night", number: n },
  died,
  revealed: [],
  exposed: [],
  bloodyVictims: [],
  tortureEvidence: [],
  serum: null,
  silenced: [],
  modkilled,
  winner: null,
});

/** Day n's public results: who was hanged, who died or was modkilled, who was excused. */
const day = (
  n: number,
  hanged: number | null = null,
  more: { died?: number[]; modkilled?: number[]; excused?: number | null } = {},
): DayResults => ({
  type: "dayResults",
  phase: { kind: "day", number: n },
  hanged,
  excused: more.excused ?? null,
  closedEarly: false,
  notVoted: [],
  modkilled: more.modkilled ?? [],
  died: more.died ?? [],
  revealed: [],
  winner: null,
});

/** Nights and days from..to, each quiet. */
function quietCycles(from: number, to: number): (NightResults | DayResults)[] {
  const out: (NightResults | DayResults)[] = [];
  for (let n = from; n <= to; n++) out.push(night(n), day(n));
  return out;
}

describe("a stalled game (issue 28)", () => {
  it("F2, P3: three nights and three days with no death and no hanging is a stall, from the first quiet phase", () => {
    expect(STALL_CYCLES).toBe(3);
    // Night 1 killed seat 4 and day 1 hanged seat 7; nights 2–4 and days 2–4 are quiet.
    const results = [night(1, [4]), day(1, 7), ...quietCycles(2, 4)];
    expect(stallOf(results)).toEqual({ since: { kind: "night", number: 2 }, nights: 3, days: 3 });
    // One phase less (day 4 not yet closed): two full cycles and a night, no stall yet.
    expect(stallOf(results.slice(0, -1))).toBeNull();
    // A game quiet from its very first night.
    expect(stallOf(quietCycles(1, 3))).toEqual({ since: { kind: "night", number: 1 }, nights: 3, days: 3 });
    expect(stallOf([])).toBeNull();
  });

  it("F2, P3: a streak may start on a day; it keeps counting past three cycles", () => {
    const results = [night(1, [2]), day(1), night(2), day(2), night(3), day(3), night(4)];
    // Day 1 to night 4: days 1, 2, 3 and nights 2, 3, 4.
    expect(stallOf(results)).toEqual({ since: { kind: "day", number: 1 }, nights: 3, days: 3 });
    const longer = [...results, day(4), night(5), day(5)];
    expect(stallOf(longer)).toEqual({ since: { kind: "day", number: 1 }, nights: 4, days: 5 });
  });

  it("P3, G3, V8: a modkill or any death ends the streak; a tie or an excuse does not", () => {
    // A modkill is a death (P3): the day it happens is not quiet.
    const modkill = [...quietCycles(1, 2), night(3), day(3, null, { modkilled: [5] })];
    expect(stallOf(modkill)).toBeNull();
    expect(stallOf([...quietCycles(1, 2), night(3, [], [5]), day(3)])).toBeNull();
    // A death by day (not a hanging) too.
    expect(stallOf([...quietCycles(1, 2), night(3), day(3, null, { died: [6] })])).toBeNull();
    // A hanging at day 2 breaks it: only night 3 and day 3 after it.
    expect(stallOf([night(1), day(1), night(2), day(2, 8), ...quietCycles(3, 3)])).toBeNull();
    // Excused (V8) and tied (G3) days hang nobody: they are quiet.
    const excused = [
      night(1),
      day(1, null, { excused: 3 }),
      night(2),
      day(2),
      night(3),
      day(3, null, { excused: 3 }),
    ];
    expect(stallOf(excused)).toEqual({ since: { kind: "night", number: 1 }, nights: 3, days: 3 });
  });

  it("W1: an ended game never stalls", () => {
    const results = quietCycles(1, 3);
    const last = results[results.length - 1] as DayResults;
    results[results.length - 1] = { ...last, winner: "town" };
    expect(stallOf(results)).toBeNull();
  });

  it("M5, T4, V8: a bot game that loops (classic 17, lapseAt 7, estimate:391) stalls after night 8, quiet since day 5", () => {
    const roles = canonicalRoles(DEFAULT_ROLES);
    const options = { ...DEFAULT_OPTIONS, lapseAt: 7 };
    const resultsAfter = (phases: number) => {
      const g = playBotGameToCap("estimate:391", {
        roles,
        gameOptions: options,
        maxPhases: phases,
        votes: "informed",
      });
      return gameEvents(g.match).filter(
        (e): e is NightResults | DayResults => e.type === "nightResults" || e.type === "dayResults",
      );
    };
    // Night 5 (the 9th phase) had the last deaths. Through day 7 (14 phases): days 5, 6, 7 and nights 6, 7
    // are quiet, two nights: not yet. Through night 8 (15 phases): three of each, since day 5.
    const through15 = resultsAfter(15);
    expect(through15).toHaveLength(15);
    expect(through15[14]!.phase).toEqual({ kind: "night", number: 8 });
    expect(through15[8]!.died.length).toBeGreaterThan(0);
    expect(stallOf(through15.slice(0, 14))).toBeNull();
    expect(stallOf(through15)).toEqual({ since: { kind: "day", number: 5 }, nights: 3, days: 3 });
  });
});
