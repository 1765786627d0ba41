import { botVote, RandomStream, rngFromSeed, type GameView, type Vote } from "@forum-mafia/engine";
import type { GameDetail } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { gameView } from "../src/views.ts";
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
      // Nor are their look-alikes ("6" for "Б", Latin "o").
      expect(
        (await bot.post("/api/register", { nick: "6oт Аркадий", password: "anything long" })).status,
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

  it("a bot's vote cannot be replayed from public data: its choices are seeded by the game's secret seed (F1)", async () => {
    const t = await testServer();
    try {
      const me = new Client(() => t.server.app, "Сыщик");
      expectOk(await me.register());
      const myId = (await me.get<{ user: { id: string } }>("/api/me")).body.user.id;
      // Before each bot votes, the attacker is given even more than the public data: the bot's own view.
      // With the game's id, the seat and the phase (all public) it replays botVote, as the probe did. A
      // control replays it with a seed that has nothing to do with the game: what the view alone predicts
      // (bots follow a bandwagon, as people do). The public seed must predict no better than that.
      const before = new Map<number, GameView>();
      const counted = new Set<string>();
      const guessed = { public: 0, control: 0 };
      let total = 0;
      const same = (a: Vote | null, b: { color: string; target: number }): boolean =>
        a !== null && a.color === b.color && a.target === b.target;
      const replay = (view: GameView, seed: string): Vote | null =>
        botVote({ view, form: null }, new RandomStream(rngFromSeed(seed)));
      t.server.games.listen((room) => {
        const m = room.match;
        if (!m || room.status !== "running") return;
        const phase = m.state.phase;
        if (phase.kind === "day")
          m.day.votes.forEach((vote, seat) => {
            const key = `${room.id}:${phase.number}:${seat}`;
            if (!vote || counted.has(key) || room.seatUsers[seat] === myId) return;
            counted.add(key);
            const view = before.get(seat);
            if (!view || view.phase.kind !== "day" || view.phase.number !== phase.number) return;
            total++;
            if (same(replay(view, `demo:${room.id}:${seat}:day${phase.number}`), vote)) guessed.public++;
            if (same(replay(view, `control:${room.id}:${seat}:day${phase.number}`), vote)) guessed.control++;
          });
        m.state.players.forEach((_, seat) => before.set(seat, gameView(room, { kind: "player", seat })!));
      });
      for (let game = 0; game < 3; game++) {
        const id = (await me.post<{ id: string }>("/api/demo", {})).body.id;
        for (let phase = 0; phase < 30 && (await detail(me, id)).summary.status === "running"; phase++)
          await t.clock.advance(2 * MINUTE);
      }
      expect(total).toBeGreaterThanOrEqual(100);
      // Seeded from public data, the replay guessed every vote; seeded by the secret, the public seed
      // knows no more than the control.
      expect(guessed.public).toBeLessThan(total);
      expect((guessed.public - guessed.control) / total).toBeLessThan(0.15);
    } finally {
      await t.close();
    }
  });
});
