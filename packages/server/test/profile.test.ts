import { factionOf, type GameLog, type ProfileView, type RoleId } from "@forum-mafia/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { HAND, myGames, seat, storeServer, type StoreServer } from "./me-helpers.ts";
import { DAY_MS, detail, expectOk, NICKS, NIGHT_MS, playToEnd, setUpGame } from "./play.ts";

/** Issue 15: a player's profile (GET /api/users/:nick), from ended games only (R3). */

let t: StoreServer | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const profile = async (c: Client, nick: string): Promise<ProfileView> => {
  const r = await c.get<ProfileView>(`/api/users/${encodeURIComponent(nick)}`);
  if (r.status !== 200) throw new Error(`profile ${nick}: ${r.status} ${r.raw}`);
  return r.body;
};

/** Every living player with a night form passes (P2: no strike for a move passed). */
async function passAll(players: readonly Client[], id: string): Promise<void> {
  for (const p of players) {
    const d = await detail(p, id);
    if (d.form) expectOk(await p.post(`/api/games/${id}/actions`, { act: "pass" }));
  }
}

describe("profiles", () => {
  it("404 JSON for an unknown nick; the nick is matched by its key (case, ё)", async () => {
    t = await storeServer();
    const c = new Client(() => t!.server.app, "Алёна");
    expectOk(await c.register());
    const missing = await c.get("/api/users/%D0%9D%D0%B8%D0%BA%D1%82%D0%BE");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: "not-found" } });
    const p = await profile(new Client(() => t!.server.app), "АЛЕНА");
    expect(p).toEqual({
      nick: "Алёна",
      since: t.clock.now(),
      games: [],
      byFaction: [],
      strikes: 0,
      modkills: 0,
      hosted: 0,
      // The role names' table (worded exactly in the R3 test below).
      roleNames: expect.objectContaining({ boss: "Босс мафии" }),
    });
  });

  it("R3: nothing from a running game, not even that the user plays in it; after the end the roles and results", async () => {
    t = await storeServer();
    const g = await setUpGame(t, "automatic", HAND);
    const anyone = new Client(() => t!.server.app);
    for (const nick of ["Аня", "Егор", "Маша"]) {
      const p = await profile(anyone, nick);
      expect(JSON.stringify(p)).not.toContain(g.id);
      expect([p.games, p.byFaction, p.strikes, p.modkills]).toEqual([[], [], 0, 0]);
    }
    expect((await profile(anyone, "Ведущий")).hosted).toBe(0);
    await playToEnd(t, g, 7, "automatic");
    const end = await detail(g.gm, g.id);
    const winner = end.summary.winner!;
    const log = (await anyone.get<GameLog>(`/api/games/${g.id}/log`)).body;
    const modkilled = new Set(
      log.events.flatMap((e) => (e.type === "nightResults" || e.type === "dayResults" ? e.modkilled : [])),
    );
    for (const nick of NICKS) {
      const s = seat(nick);
      const role = HAND.hand[s] as RoleId;
      const faction = factionOf(role);
      const p = await profile(anyone, nick);
      expect(p.games).toEqual([
        {
          id: g.id,
          title: "Тестовая партия",
          role,
          faction,
          winner,
          result: winner === "draw" ? "draw" : winner === faction ? "won" : "lost",
          survived: end.view!.seats[s]!.alive,
          modkilled: modkilled.has(s),
          strikes: end.gm!.strikes[s]!.vote + end.gm!.strikes[s]!.night,
          replaced: false,
        },
      ]);
      expect(p.byFaction).toEqual([{ faction, played: 1, won: p.games[0]!.result === "won" ? 1 : 0 }]);
      expect([p.strikes, p.modkills]).toEqual([p.games[0]!.strikes, modkilled.has(s) ? 1 : 0]);
    }
    // Some seats were struck in this game, so the strikes above were not all zero.
    expect(end.gm!.strikes.some((x) => x.vote + x.night > 0)).toBe(true);
    const host = await profile(anyone, "Ведущий");
    expect([host.hosted, host.games]).toEqual([1, []]);
    // The role names come with the profile, in the asker's language, as TEXTS.ru.md and the English word them.
    expect([host.roleNames.boss, host.roleNames.citizen]).toEqual(["Босс мафии", "Мирный житель"]);
    const en = (await anyone.get<ProfileView>("/api/users/Ведущий?lang=en")).body;
    expect([en.roleNames.boss, en.roleNames.citizen]).toEqual(["Mafia boss", "Citizen"]);
  });

  it("P4: the replaced player's game says so, with his own strikes; the substitute's is the seat's to the end", async () => {
    t = await storeServer();
    const g = await setUpGame(t, "automatic", HAND);
    const sub = new Client(() => t!.server.app, "Запасной");
    expectOk(await sub.register());
    const s = seat("Рома");
    const players = () => g.players.map((p) => (p.nick === "Рома" ? sub : p));
    // Every night move passed (no P2 strikes), and a day in which nobody votes: P1's strike for everyone.
    await passAll(g.players, g.id);
    await t.clock.advance(NIGHT_MS + DAY_MS);
    expect((await detail(g.gm, g.id)).gm!.strikes[s]).toEqual({ vote: 1, night: 0, conduct: 0 });
    expectOk(
      await g.gm.post(`/api/games/${g.id}/gm/replace`, { seat: s, nick: "Запасной", reason: "пропал" }),
    );
    expect((await profile(sub, "Запасной")).games).toEqual([]);
    await passAll(players(), g.id);
    await t.clock.advance(NIGHT_MS);
    // Day 2: all but the substitute vote: his second strike is a modkill (P3).
    for (const p of players()) {
      if (p === sub) continue;
      const d = await detail(p, g.id);
      if (d.view!.seats[d.me.seat!]!.alive && !d.view!.seats[d.me.seat!]!.cannotVote)
        await p.post(`/api/games/${g.id}/votes`, {
          color: "red",
          target: seat(p.nick === "Маша" ? "Ника" : "Маша"),
        });
    }
    await t.clock.advance(DAY_MS);
    await playToEnd(t, { ...g, players: players() }, 7, "automatic");
    const end = await detail(g.gm, g.id);
    expect(end.gm!.strikes[s]).toEqual({ vote: 2, night: 0, conduct: 0 });
    const gone = (await profile(sub, "Рома")).games[0]!;
    expect([gone.role, gone.faction, gone.replaced, gone.survived, gone.modkilled, gone.strikes]).toEqual([
      "citizen",
      "town",
      true,
      false,
      false,
      1,
    ]);
    const taken = (await profile(sub, "Запасной")).games[0]!;
    expect([taken.role, taken.replaced, taken.survived, taken.modkilled, taken.strikes]).toEqual([
      "citizen",
      false,
      false,
      true,
      2,
    ]);
    expect((await profile(sub, "Запасной")).modkills).toBe(1);
  });

  it("a demo game (issue 12) is practice with bots: no record in the profile, though «Мои игры» lists it", async () => {
    t = await storeServer();
    const me = new Client(() => t!.server.app, "Играющий");
    expectOk(await me.register());
    const demo = await me.post<{ id: string }>("/api/demo", { minutes: 2 });
    expectOk(demo);
    for (let i = 0; i < 200 && (await detail(me, demo.body.id)).summary.status !== "ended"; i++)
      await t.clock.advance(2 * 60_000);
    expect((await detail(me, demo.body.id)).summary.status).toBe("ended");
    expect((await myGames(me)).finished.map((x) => [x.id, x.mine])).toEqual([[demo.body.id, "player"]]);
    const p = await profile(me, "Играющий");
    expect([p.games, p.hosted]).toEqual([[], 0]);
    expect((await profile(me, "Ведущий демо")).hosted).toBe(0);
  });
});
