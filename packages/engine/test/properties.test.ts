// Property tests (STYLE.md, "Tests"): random legal games from the random player (src/random-play.ts),
// with pinned fast-check seeds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ROLES } from "../src/roles.ts";
import {
  exportReplay,
  isRejection,
  runReplay,
  act,
  gameEventsSince,
  type EventCursor,
  type GameEvent,
  type Match,
  type ReplayFile,
  type RoleId,
  type Winner,
} from "../src/index.ts";
import { matchResult } from "../src/replay.ts";
import { nextIndex, rngFromSeed, type RngState } from "../src/rng.ts";
import { vote } from "../src/match.ts";
import { gameEvents } from "../src/events.ts";
import type { ReplayAction, ReplayDay, ReplayNight, ReplayVote } from "../src/replay-format.ts";
import { MATCH_CALLS, playRandomGame, type MatchCalls } from "../src/random-play.ts";

/** The random player's seed. Each property has a pinned fast-check seed of its own (4201…), so each plays other games. */
const seeds = fc.string({ maxLength: 16 });
/** What a published log goes through: JSON text and back. */
const published = (file: ReplayFile): unknown => JSON.parse(JSON.stringify(file));

/** W1, written out again from RULES.md: the result for a set of living roles, or null. */
function w1(alive: readonly RoleId[]): Winner | null {
  const mafia = alive.filter((r) => ROLES[r].faction === "mafia").length;
  const maniac = alive.filter((r) => r === "maniac").length;
  if (alive.length === 0) return "draw";
  if (mafia === 0 && maniac === 0) return "town";
  if (maniac > 0 && alive.length - maniac <= 1) return "maniac";
  if (maniac === 0 && mafia >= alive.length - mafia) return "mafia";
  return null;
}

/** A shuffler for the tests' reorderings, from the game's generator (any source would do). */
class Shuffler {
  private state: RngState;
  constructor(seed: number) {
    this.state = rngFromSeed(`reorder:${seed}`);
  }
  int(n: number): number {
    const r = nextIndex(this.state, n);
    this.state = r.state;
    return r.value;
  }
  /** A random interleaving of the groups: each group keeps its own order. */
  interleave<T>(groups: readonly (readonly T[])[]): T[] {
    const heads = groups.map(() => 0);
    let left = groups.reduce((n, g) => n + g.length, 0);
    const out: T[] = [];
    while (left > 0) {
      // Uniform over the interleavings: the next item comes from a group with the odds of its size left.
      let k = this.int(left);
      let g = 0;
      while (k >= groups[g]!.length - heads[g]!) {
        k -= groups[g]!.length - heads[g]!;
        g++;
      }
      out.push(groups[g]![heads[g]!]!);
      heads[g]!++;
      left--;
    }
    return out;
  }
}

/** Group items by key, in first-seen order of the keys, each group in the items' order. */
function groupBy<T>(items: readonly T[], key: (t: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    const g = groups.get(k);
    if (g) g.push(t);
    else groups.set(k, [t]);
  }
  return [...groups.values()];
}

/** Each group's last item, in the order of those last items. */
const lastOfEach = <T>(items: readonly T[], key: (t: T) => string): T[] =>
  items.filter((t, i) => !items.slice(i + 1).some((u) => key(u) === key(t)));

/**
 * The slot of a night submission, as REPLAY.md defines the slots: each player's own action, each
 * mafioso's mafia action, the sheriff/sergeant pair's one action, a thug-boss's single slot. A pass by
 * the current boss, the troll or the elf fills the mafia slot; by the sheriff or sergeant, the pair's.
 */
function slotOf(a: ReplayAction, role: RoleId, boss: string | null): string {
  const thugBoss = role === "thug" && boss === a.by;
  if (a.act === "mafia") return thugBoss ? `own:${a.by}` : `mafia:${a.by}`;
  if (a.act === "shoot" || a.act === "check") return "pair";
  if (a.act === "pass") {
    if (role === "sheriff" || role === "sergeant") return "pair";
    if (thugBoss) return `own:${a.by}`;
    if (boss === a.by || role === "troll" || role === "elf") return `mafia:${a.by}`;
  }
  return `own:${a.by}`;
}

/** M1, written out again: the boss at the start of each night, from the deaths of the phases before. */
function bossesByNight(m: Match): Map<number, string | null> {
  const players = exportReplay(m).players;
  const dead = new Set<number>();
  const out = new Map<number, string | null>();
  for (const { outcome } of m.outcomes) {
    if (outcome.phase.kind === "night") {
      let boss: string | null = null;
      let rank = Infinity;
      players.forEach((p, seat) => {
        const r = ROLES[p.role as RoleId].succession;
        if (!dead.has(seat) && r !== null && r < rank) [boss, rank] = [p.name, r];
      });
      out.set(outcome.phase.number, boss);
    }
    for (const seat of outcome.died) dead.add(seat);
  }
  return out;
}

/** The file with every night's submissions reordered (or thinned) slot by slot. */
function reorderNights(m: Match, shuffle: Shuffler, lastOnly: boolean): ReplayFile {
  const file = exportReplay(m);
  const roles = new Map(file.players.map((p) => [p.name, p.role as RoleId]));
  const bosses = bossesByNight(m);
  const phases = file.phases.map((phase) => {
    if (!("night" in phase)) return phase;
    const boss = bosses.get(phase.night)!;
    const slot = (a: ReplayAction): string => slotOf(a, roles.get(a.by)!, boss);
    const actions = phase.actions ?? [];
    const kept = lastOnly ? lastOfEach(actions, slot) : actions;
    return { ...phase, actions: shuffle.interleave(groupBy(kept, slot)) } satisfies ReplayNight;
  });
  return { ...file, phases };
}

/**
 * The file with every day's votes reordered voter by voter (or thinned to each voter's last vote). A day
 * that closed early (V7) keeps its closing vote last: the close comes with the last early vote, and any
 * vote after it would be ignored.
 */
function reorderDays(m: Match, shuffle: Shuffler, lastOnly: boolean): ReplayFile {
  const file = exportReplay(m);
  const result = matchResult(m);
  const phases = file.phases.map((phase, i) => {
    if (!("day" in phase)) return phase;
    const votes = phase.votes ?? [];
    const day = result.phases[i]!;
    const closing = day.phase === "day" && day.closedEarly ? votes.slice(-1) : [];
    const rest = votes.slice(0, votes.length - closing.length);
    const voter = (v: ReplayVote): string => v.by;
    const kept = lastOnly ? lastOfEach(rest, voter).filter((v) => closing[0]?.by !== v.by) : rest;
    return { ...phase, votes: [...shuffle.interleave(groupBy(kept, voter)), ...closing] } satisfies ReplayDay;
  });
  return { ...file, phases };
}

describe("random legal games", () => {
  it("W1: random legal games to the end never throw and always end with a winner or a draw", () => {
    const winners = new Set<Winner>();
    fc.assert(
      fc.property(seeds, (seed) => {
        const m = playRandomGame(seed);
        const winner = m.state.winner;
        expect(winner).not.toBeNull();
        winners.add(winner!);
        // W1 is checked after every night and day: replay the deaths and check each phase's verdict.
        const alive = new Set(m.state.players.map((_, seat) => seat));
        m.outcomes.forEach(({ outcome }, i) => {
          for (const seat of outcome.died) alive.delete(seat);
          const verdict = w1([...alive].map((seat) => m.state.players[seat]!.role));
          expect(outcome.winner).toBe(verdict);
          expect(verdict === null).toBe(i < m.outcomes.length - 1);
        });
        expect(m.outcomes.at(-1)!.outcome.winner).toBe(winner);
        // The game is over: nothing more is accepted.
        const anyone = m.state.players.findIndex((p) => p.alive);
        if (anyone >= 0) {
          expect(isRejection(act(m, anyone, { act: "pass" }))).toBe(true);
          expect(isRejection(vote(m, anyone, { color: "red", target: anyone, early: false }))).toBe(true);
        }
      }),
      { seed: 4201, numRuns: 400 },
    );
    // Not vacuous: random play reaches the ordinary endings.
    expect([...winners].sort()).toEqual(expect.arrayContaining(["mafia", "maniac", "town"]));
  });

  it("G1: reading a game's events as it goes gives the same list as reading them at its end", () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const read: GameEvent[] = [];
        let cursor: EventCursor | null = null;
        const follow = (m: Match | ReturnType<MatchCalls["act"]>): typeof m => {
          if (!isRejection(m)) {
            const r = gameEventsSince(m, cursor);
            read.push(...r.events);
            cursor = r.cursor;
          }
          return m;
        };
        const calls: MatchCalls = {
          act: (...a) => follow(MATCH_CALLS.act(...a)),
          vote: (...a) => follow(MATCH_CALLS.vote(...a)),
          modkill: (...a) => follow(MATCH_CALLS.modkill(...a)),
          endNight: (...a) => follow(MATCH_CALLS.endNight(...a)),
          endDay: (...a) => follow(MATCH_CALLS.endDay(...a)),
        };
        const m = playRandomGame(seed, { calls });
        expect(read.length).toBeGreaterThan(0);
        expect(read).toEqual(gameEvents(m));
        expect(read[read.length - 1]!.type).toBe("gameEnded");
      }),
      { seed: 4202, numRuns: 100 },
    );
  });

  it("G1: the same input always gives the same output", () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const a = playRandomGame(seed);
        const b = playRandomGame(seed);
        expect(exportReplay(b)).toEqual(exportReplay(a));
        const file = published(exportReplay(a));
        expect(runReplay(published(exportReplay(a)))).toEqual(runReplay(file));
      }),
      { seed: 4203, numRuns: 100 },
    );
  });

  it("G1: exporting a game and replaying it gives the same results", () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const m = playRandomGame(seed);
        const result = matchResult(m);
        expect(result.winner).not.toBeNull();
        expect(runReplay(published(exportReplay(m)))).toEqual(result);
      }),
      { seed: 4204, numRuns: 100 },
    );
  });

  it("O1: the result does not depend on the order in which different players submitted", () => {
    let reordered = 0;
    fc.assert(
      fc.property(seeds, fc.nat(), fc.boolean(), (seed, order, lastOnly) => {
        const m = playRandomGame(seed);
        const file = reorderNights(m, new Shuffler(order), lastOnly);
        if (JSON.stringify(file) !== JSON.stringify(exportReplay(m))) reordered++;
        expect(runReplay(published(file))).toEqual(matchResult(m));
      }),
      { seed: 4205, numRuns: 100 },
    );
    expect(reordered).toBeGreaterThan(90);
  });

  it("V1: the tally does not depend on vote order", () => {
    let reordered = 0;
    fc.assert(
      fc.property(seeds, fc.nat(), fc.boolean(), (seed, order, lastOnly) => {
        const m = playRandomGame(seed);
        const file = reorderDays(m, new Shuffler(order), lastOnly);
        if (JSON.stringify(file) !== JSON.stringify(exportReplay(m))) reordered++;
        expect(runReplay(published(file))).toEqual(matchResult(m));
      }),
      { seed: 4206, numRuns: 100 },
    );
    expect(reordered).toBeGreaterThan(90);
  });
});
