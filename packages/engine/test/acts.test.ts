// The act table (O1) written out by hand from RULES.md, role by role, as the boss and not: the engine's
// acts for a seat (actsFor, from the state) and for an actor (actorActs, from what the player knows) must
// both equal it, in the order forms list the acts.
import { describe, expect, it } from "vitest";
import { actorActs, actorOf, actsFor } from "../src/night-action.ts";
import { createGame } from "../src/game.ts";
import { isRejection, type ActKind, type GameState, type RoleId } from "../src/index.ts";
import { withState } from "../src/state.ts";

interface Acts {
  readonly acts: readonly ActKind[];
  /** For the mafia only: the acts of the same role as the current boss (M1). */
  readonly boss?: readonly ActKind[];
}

const MAFIA: readonly ActKind[] = ["mafia", "council", "pass"];

/** RULES.md §1, M2–M6, N1, T1–T7: what each role may send at night. */
const BY_HAND: { readonly [R in RoleId]: Acts } = {
  boss: { acts: MAFIA, boss: MAFIA },
  troll: { acts: MAFIA, boss: MAFIA },
  elf: { acts: MAFIA, boss: MAFIA },
  // M5: a lawyer who becomes boss loses the protect.
  lawyer: { acts: ["mafia", "council", "protect", "pass"], boss: MAFIA },
  // M6: a thug who becomes boss keeps the block.
  thug: { acts: ["mafia", "council", "block", "pass"], boss: ["mafia", "council", "block", "pass"] },
  maniac: { acts: ["bloodyKill", "quickKill", "torture", "pass"] },
  sheriff: { acts: ["shoot", "pass"] },
  sergeant: { acts: ["check", "pass"] },
  doctor: { acts: ["serum", "heal", "healFrom", "poison", "pass"] },
  girl: { acts: ["visit", "pass"] },
  prosecutor: { acts: ["unprotect", "pass"] },
  shahid: { acts: ["mark", "pass"] },
  // T7: a citizen has no night action, not even a pass.
  citizen: { acts: [] },
};

/** A night-1 table of 17 with `role` at seat 0 (the standard deal otherwise), and `boss` as the boss. */
function table(role: RoleId, boss: boolean): GameState {
  const others: RoleId[] = ["boss", "troll", "elf", "lawyer", "thug", "maniac", "sheriff", "sergeant"];
  const rest: RoleId[] = ["doctor", "girl", "prosecutor", "shahid"];
  const roles: RoleId[] = [role, ...[...others, ...rest].filter((r) => r !== role)];
  while (roles.length < 17) roles.push("citizen");
  const created = createGame({ players: roles.map((r, i) => ({ name: `P${i}`, role: r })), seed: "acts" });
  if (isRejection(created)) throw new Error(created.message);
  if (boss) return withState(created, { boss: 0 });
  return created.boss === 0 ? withState(created, { boss: roles.indexOf("troll") }) : created;
}

describe("the act table", () => {
  it("O1, M5, M6: each role's acts, as the boss and not, are those RULES.md gives it", () => {
    for (const [role, want] of Object.entries(BY_HAND) as [RoleId, Acts][]) {
      const plain = table(role, false);
      expect(plain.boss, role).not.toBe(0);
      expect(actsFor(plain, 0), role).toEqual(want.acts);
      expect(actorActs(actorOf(plain, 0)), role).toEqual(want.acts);
      if (want.boss === undefined) continue;
      const led = table(role, true);
      expect(actorOf(led, 0).boss, role).toBe(true);
      expect(actsFor(led, 0), `${role} as boss`).toEqual(want.boss);
      expect(actorActs(actorOf(led, 0)), `${role} as boss`).toEqual(want.boss);
    }
  });

  it("O1, G7: a dead player and a player by day have no acts", () => {
    const night = table("girl", false);
    const dead = withState(night, {
      players: night.players.map((p, i) => (i === 0 ? { ...p, alive: false } : p)),
    });
    expect(actsFor(dead, 0)).toEqual([]);
    expect(actorActs(actorOf(dead, 0))).toEqual([]);
    const day = withState(night, { phase: { kind: "day", number: 1 } });
    expect(actsFor(day, 0)).toEqual([]);
    expect(actorActs(actorOf(day, 0))).toEqual([]);
  });
});
