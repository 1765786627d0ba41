import type { GameDetail } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer } from "./harness.ts";
import { detail, expectOk } from "./play.ts";

const MINUTE = 60_000;

describe("a demo game (issue 5)", () => {
  it("seats the user with 16 bots, whose moves come through the game like anyone's, and plays to the end", async () => {
    const t = await testServer();
    try {
      const me = new Client(() => t.server.app, "Новичок");
      expectOk(await me.register());
      const created = await me.post<{ id: string }>("/api/demo", {});
      expectOk(created);
      const id = created.body.id;
      let d: GameDetail = await detail(me, id);
      expect(d.summary.status).toBe("running");
      expect(d.me.kind).toBe("player");
      expect(d.view!.seats).toHaveLength(17);
      expect(d.view!.seats.filter((s) => s.name.startsWith("Бот "))).toHaveLength(16);
      expect(d.clock.deadline).toBe(t.clock.now() + 2 * MINUTE);
      // The bots can not be logged into, and their nicks are not open to registration.
      const bot = new Client(() => t.server.app);
      expect(
        (await bot.post("/api/register", { nick: "бот аркадий", password: "anything long" })).status,
      ).toBe(409);
      expect((await bot.post("/api/login", { nick: "Бот Аркадий", password: "anything long" })).status).toBe(
        401,
      );
      let days = 0;
      for (let phase = 0; phase < 80 && d.summary.status === "running"; phase++) {
        await t.clock.advance(2 * MINUTE);
        d = await detail(me, id);
        if (d.view!.phase.kind === "day" && d.summary.status === "running") {
          days++;
          // By the time the human looks, the living bots that may vote have voted (V1).
          const voters = d.view!.seats.filter((s) => s.alive && !s.cannotVote && s.seat !== d.me.seat);
          expect(d.view!.votes.map((v) => v.seat).sort()).toEqual(voters.map((s) => s.seat).sort());
        }
      }
      expect(days).toBeGreaterThan(0);
      expect(d.summary.status).toBe("ended");
      expect(d.view!.winner).not.toBeNull();
      // A second demo for the same user reuses the same 16 bot accounts.
      expectOk(await me.post("/api/demo", { minutes: 5 }));
    } finally {
      await t.close();
    }
  });
});
