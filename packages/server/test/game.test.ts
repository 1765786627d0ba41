import { describe, expect, it } from "vitest";
import type { GameDetail } from "@forum-mafia/protocol";
import { testServer } from "./harness.ts";
import { detail, playToEnd, setUpGame } from "./play.ts";

describe("a whole game through HTTP", () => {
  it("plays 17 players from registration to a winner in automatic mode", async () => {
    const t = await testServer();
    try {
      const table = await setUpGame(t, "automatic");
      const phases = await playToEnd(t, table, 1, "automatic");
      expect(phases).toBeGreaterThan(1);
      const end: GameDetail = await detail(table.players[0]!, table.id);
      expect(end.summary.status).toBe("ended");
      expect(end.view!.winner).not.toBeNull();
      // R3: every role is revealed to everyone at the end.
      expect(end.view!.seats.every((s) => s.role !== null)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
