import type { Setup } from "@forum-mafia/protocol";
import type { TestServer } from "./harness.ts";
import { DAY_MS, detail, expectOk, NIGHT_MS, S3_DEFAULTS, type Table } from "./play.ts";

/**
 * Issue 28: phases in which nobody dies and nobody is hanged, to drive a game to a stall (server and
 * browser tests). FOUR is a table where that takes no one's absence: the boss passes every night (P2 is
 * met) and the three citizens have no night move; by day everyone votes blue (V5: no score above 0).
 */
export const FOUR: Setup = { roles: ["boss", "citizen", "citizen", "citizen"], options: S3_DEFAULTS };

/** A quiet night: whoever has a move passes; the deadline passes; nobody dies. */
export async function quietNight(t: Pick<TestServer, "clock">, table: Table): Promise<void> {
  for (const p of table.players) {
    const d = await detail(p, table.id);
    if (d.form) expectOk(await p.post(`/api/games/${table.id}/actions`, { act: "pass" }));
  }
  await t.clock.advance(NIGHT_MS);
}

/** A quiet day: every living player votes blue for the next living seat, so nobody is hanged (V5). */
export async function quietDay(t: Pick<TestServer, "clock">, table: Table): Promise<void> {
  for (const p of table.players) {
    const d = await detail(p, table.id);
    const seat = d.me.seat!;
    if (!d.view!.seats[seat]!.alive) continue;
    const alive = d.view!.seats.filter((s) => s.alive);
    const next = alive[(alive.findIndex((s) => s.seat === seat) + 1) % alive.length]!;
    expectOk(await p.post(`/api/games/${table.id}/votes`, { color: "blue", target: next.seat }));
  }
  await t.clock.advance(DAY_MS);
}
