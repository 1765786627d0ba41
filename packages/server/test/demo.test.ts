import { botVote, RandomStream, rngFromSeed } from "@forum-mafia/engine/bots";
import type { GameView, Vote } from "@forum-mafia/engine";
import type { ApiError, GameDetail, GameSummary } from "@forum-mafia/protocol";
import { nickKey } from "@forum-mafia/forum";
import { describe, expect, it } from "vitest";
import type { Entry } from "../src/log/entries.ts";
import type { Store } from "../src/stores/store.ts";
import { gameView } from "../src/views/views.ts";
import { Client } from "./client.ts";
import { settle, testServer } from "./harness.ts";
import { detail, expectOk } from "./play.ts";

const MINUTE = 60_000;
const SECOND = 1_000;

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
        // Issue 16: the bots post, and so vote, at moments spread over the day; look just before it ends.
        await t.clock.advance(2 * MINUTE - SECOND);
        d = await detail(me, id);
        if (d.view!.phase.kind === "day" && d.summary.status === "running") {
          days++;
          // By the end of the day, the living bots that may vote have voted (V1).
          const voters = d.view!.seats.filter((s) => s.alive && !s.cannotVote && s.seat !== d.me.seat);
          expect(d.view!.votes.map((v) => v.seat).sort()).toEqual(voters.map((s) => s.seat).sort());
        }
        await t.clock.advance(SECOND);
        d = await detail(me, id);
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

describe("demo games across restarts, and kept to their player (issue 12)", () => {
  it("after a restart with a demo running, a new demo starts, and the old one's bots carry on", async () => {
    const t = await testServer();
    try {
      const me = new Client(() => t.server.app, "Упрямец");
      expectOk(await me.register());
      const first = await me.post<{ id: string }>("/api/demo", {});
      expectOk(first);
      const old = first.body.id;
      // Someone else's demo runs too: the restarted server has more than one demo to resume.
      const neighbour = new Client(() => t.server.app, "Сосед");
      expectOk(await neighbour.register());
      expectOk(await neighbour.post("/api/demo", {}));
      Object.assign(t, await t.restart()); // the clients follow t.server
      // The server has restarted with a demo under way: a new one starts, as often as asked.
      for (let i = 0; i < 3; i++) {
        const again = await me.post<{ id: string }>("/api/demo", {});
        expectOk(again);
        const d = await detail(me, again.body.id);
        expect(d.summary.status).toBe("running");
        expect(d.view!.seats).toHaveLength(17);
        expect(new Set(d.view!.seats.map((s) => s.name)).size).toBe(17);
      }
      // Nothing half-made is left in signup.
      const listed = (await me.get<{ games: GameSummary[] }>("/api/games")).body.games;
      expect(listed.filter((g) => g.status === "signup")).toEqual([]);
      // The demo from before the restart goes on: its night closes and its bots vote on day 1 (issue 16:
      // by posts spread over the day, so look just before it ends).
      await t.clock.advance(2 * MINUTE);
      await t.clock.advance(2 * MINUTE - SECOND);
      const d = await detail(me, old);
      expect(d.view!.phase).toEqual({ kind: "day", number: 1 });
      const voters = d.view!.seats.filter((s) => s.alive && !s.cannotVote && s.seat !== d.me.seat);
      expect(voters.length).toBeGreaterThan(0);
      expect(d.view!.votes.map((v) => v.seat).sort()).toEqual(voters.map((s) => s.seat).sort());
    } finally {
      await t.close();
    }
  });

  it("a demo restarted in the middle of a day: its bots vote in the next phase", async () => {
    const t = await testServer();
    try {
      const me = new Client(() => t.server.app, "Терпеливый");
      expectOk(await me.register());
      const id = (await me.post<{ id: string }>("/api/demo", {})).body.id;
      await t.clock.advance(2 * MINUTE); // day 1
      Object.assign(t, await t.restart());
      await t.clock.advance(2 * MINUTE); // night 2
      let d = await detail(me, id);
      if (d.summary.status === "running") {
        expect(d.view!.phase).toEqual({ kind: "night", number: 2 });
        await t.clock.advance(2 * MINUTE); // day 2
        await t.clock.advance(2 * MINUTE - SECOND); // its end, when every bot has posted its vote
        d = await detail(me, id);
      }
      if (d.summary.status === "running") {
        expect(d.view!.phase).toEqual({ kind: "day", number: 2 });
        const voters = d.view!.seats.filter((s) => s.alive && !s.cannotVote && s.seat !== d.me.seat);
        expect(d.view!.votes.map((v) => v.seat).sort()).toEqual(voters.map((s) => s.seat).sort());
      }
    } finally {
      await t.close();
    }
  });

  it("a demo is in nobody else's lobby list and nobody else can sign up to it", async () => {
    const t = await testServer();
    try {
      const me = new Client(() => t.server.app, "Хозяйка");
      const other = new Client(() => t.server.app, "Прохожий");
      const guest = new Client(() => t.server.app);
      expectOk(await me.register());
      expectOk(await other.register());
      const id = (await me.post<{ id: string }>("/api/demo", {})).body.id;
      const ids = async (c: Client): Promise<string[]> =>
        (await c.get<{ games: GameSummary[] }>("/api/games")).body.games.map((g) => g.id);
      for (let round = 0; round < 2; round++) {
        expect(await ids(other)).not.toContain(id);
        expect(await ids(guest)).not.toContain(id);
        // The player's own demo is in their own list, as theirs, so they can get back to it.
        const mine = (await me.get<{ games: GameSummary[] }>("/api/games")).body.games.find(
          (g) => g.id === id,
        );
        expect(mine?.mine).toBe("player");
        const signup = await other.post<ApiError>(`/api/games/${id}/signup`);
        expect(signup.status).toBe(403);
        expect(signup.body.error.code).toBe("demo/private");
        Object.assign(t, await t.restart());
      }
    } finally {
      await t.close();
    }
  });

  it("a log from before the mark still loads: its stuck demo is kept to its player and closed to signups", async () => {
    const t = await testServer();
    try {
      const me = new Client(() => t.server.app, "Старожил");
      const other = new Client(() => t.server.app, "Новенькая");
      expectOk(await me.register());
      expectOk(await other.register());
      expectOk(await me.post("/api/demo", {})); // the demo accounts exist from here on
      const store = (t.server.games as unknown as { store: Store }).store;
      const user = async (nick: string) => (await store.accounts.userByNickKey(nickKey(nick)))!;
      const [gm, mine, bot1, bot2] = await Promise.all(
        ["Ведущий демо", "Старожил", "Бот Аркадий", "Бот Белла"].map(user),
      );
      // What the old code left when a demo failed half-way: created (no mark), the user and two bots.
      const at = t.clock.now();
      const log: Entry[] = [
        {
          at,
          kind: "created",
          gmId: gm!.id,
          gmNick: gm!.nick,
          title: "Демо-игра: Старожил",
          settings: {
            night: { amount: 2, unit: "minutes" },
            day: { amount: 2, unit: "minutes" },
            dayDeadline: null,
            timeZone: "Europe/Moscow",
            options: { earlyClose: "majority", strikes: "shared" },
            mode: "automatic",
            seats: 17,
          },
        },
        ...[mine!, bot1!, bot2!].map((u): Entry => ({ at, kind: "signup", userId: u.id, nick: u.nick })),
      ];
      await store.append("stuck-demo", 0, log);
      Object.assign(t, await t.restart());
      await t.server.demo.idle();
      const list = async (c: Client) => (await c.get<{ games: GameSummary[] }>("/api/games")).body.games;
      expect((await list(other)).map((g) => g.id)).not.toContain("stuck-demo");
      expect((await list(other)).filter((g) => g.status === "signup")).toEqual([]);
      expect((await list(me)).find((g) => g.id === "stuck-demo")?.mine).toBe("signedUp");
      const signup = await other.post<ApiError>("/api/games/stuck-demo/signup");
      expect(signup.status).toBe(403);
      expect(signup.body.error.code).toBe("demo/private");
      // And a new demo starts.
      expectOk(await me.post("/api/demo", {}));
    } finally {
      await t.close();
    }
  });

  it("a demo that fails half-way through its creation leaves no game behind", async () => {
    const t = await testServer();
    try {
      const me = new Client(() => t.server.app, "Невезучий");
      const other = new Client(() => t.server.app, "Зевака");
      expectOk(await me.register());
      expectOk(await other.register());
      // The store refuses the demo's entries once: the demo is not made, and nothing of it is left.
      const store = (t.server.games as unknown as { store: Store }).store;
      const append = store.append.bind(store);
      let failures = 1;
      store.append = (gameId, seq, entries) => {
        if (failures > 0 && entries.some((e) => e.kind === "signup")) {
          failures--;
          return Promise.reject(new Error("a planted disk failure"));
        }
        return append(gameId, seq, entries);
      };
      const failed = await me.post("/api/demo", {});
      expect(failed.status).toBeGreaterThanOrEqual(500);
      await t.server.games.idle();
      await settle();
      expect((await other.get<{ games: GameSummary[] }>("/api/games")).body.games).toEqual([]);
      expect((await me.get<{ games: GameSummary[] }>("/api/games")).body.games).toEqual([]);
      // The next try makes a whole demo.
      const again = await me.post<{ id: string }>("/api/demo", {});
      expectOk(again);
      expect((await detail(me, again.body.id)).summary.status).toBe("running");
      Object.assign(t, await t.restart());
      const after = (await me.get<{ games: GameSummary[] }>("/api/games")).body.games;
      expect(after.map((g) => g.id)).toEqual([again.body.id]);
    } finally {
      await t.close();
    }
  });
});
