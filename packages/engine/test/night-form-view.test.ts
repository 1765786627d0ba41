// The server's night form is built from the player's own view (nightFormFor), never from the state. These
// tests check that the view holds everything the form needs: at every point of random nights, the actor a
// player's view yields is the actor the full state yields, and so the forms are the same.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { actorFromView, nightForm } from "../src/night-form.ts";
import { actorOf } from "../src/night-action.ts";
import { gameEvents } from "../src/events.ts";
import { isRejection, nightFormFor, type Match, type RoleId } from "../src/index.ts";
import { viewFor } from "../src/view.ts";
import { MATCH_CALLS, playRandomGame, type MatchCalls } from "../src/random-play.ts";
import { STANDARD, game, heal, visit } from "./scenario.ts";

interface Reach {
  points: number;
  boss: number;
  last: number;
  healFromOpen: number;
  healFromShut: number;
}

/** Compares both actors and both forms for every seat of a match at night. */
function compareAtNight(m: Match, reach: Reach): void {
  if (m.state.phase.kind !== "night" || m.state.winner !== null) return;
  const roles = m.setup.players.map((p) => p.role);
  const roleList: RoleId[] = [...roles].sort();
  const events = gameEvents(m);
  reach.points++;
  for (let seat = 0; seat < roles.length; seat++) {
    const view = viewFor(events, { kind: "player", seat }, roles);
    const fromState = actorOf(m.state, seat);
    expect(actorFromView(view, roleList)).toEqual(fromState);
    expect(nightFormFor(view, roleList)).toEqual(nightForm(m.state, seat));
    if (fromState.boss) reach.boss++;
    if (fromState.last !== null) reach.last++;
    if (fromState.role === "doctor" && fromState.alive)
      if (fromState.healFromOpen) reach.healFromOpen++;
      else reach.healFromShut++;
  }
}

describe("the night form from the player's view", () => {
  it("O1, O1b, S2, M1, R1, T3c: at the start of every night of random games, a player's view yields the same actor and form as the state", () => {
    const reach: Reach = { points: 0, boss: 0, last: 0, healFromOpen: 0, healFromShut: 0 };
    // Nothing an actor reads changes during a night (deaths and modkills take effect at its end, F2), so
    // each night is compared where it starts: after the day before it closes.
    const calls: MatchCalls = {
      ...MATCH_CALLS,
      endDay: (m) => {
        const next = MATCH_CALLS.endDay(m);
        if (!isRejection(next)) compareAtNight(next, reach);
        return next;
      },
    };
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (seed) => {
        playRandomGame(seed, { calls });
      }),
      { seed: 2024, numRuns: 100 },
    );
    // The property reaches what it claims to check: bosses, repeat limits and both sides of T3c.
    expect(reach.points).toBeGreaterThan(200);
    expect(reach.boss).toBeGreaterThan(100);
    expect(reach.last).toBeGreaterThan(1000);
    expect(reach.healFromOpen).toBeGreaterThan(10);
    expect(reach.healFromShut).toBeGreaterThan(10);
  });

  it("O1b: the girl's form from her view refuses last night's target, and names the clause", () => {
    const m = game(STANDARD)
      .night({ Девочка: visit("Мирный1"), Доктор: heal("Мирный2") }, { rolls: { girlSilence: false } })
      .day().match;
    const roles = m.setup.players.map((p) => p.role);
    const girl = m.setup.players.findIndex((p) => p.name === "Девочка");
    const citizen = m.setup.players.findIndex((p) => p.name === "Мирный1");
    const form = nightFormFor(viewFor(gameEvents(m), { kind: "player", seat: girl }, roles), [...roles]);
    const visitAct = form?.acts.find((a) => a.act === "visit");
    expect(visitAct?.targets).not.toContain(citizen);
    expect(visitAct?.unavailable).toContainEqual({
      seat: citizen,
      reason: "night/repeat-target",
      clause: "T4",
    });
  });
});
