import { ROLE_IDS } from "@forum-mafia/engine";
import type { GameDetail, MyGames, Owed } from "@forum-mafia/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { HAND, myGame, myGames, seat, storeServer, type StoreServer } from "./me-helpers.ts";
import { DAY_MS, detail, expectOk, NICKS, NIGHT_MS, playToEnd, setUpGame, type Table } from "./play.ts";

/** Issue 15: «Мои игры» (GET /api/me/games): what each user owes, the reminders due, the lists. */

const HOUR = 3_600_000;
const MIN = 60_000;
let t: StoreServer | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function table(
  mode: "automatic" | "review" = "automatic",
): Promise<Table & { by: (n: string) => Client }> {
  t = await storeServer();
  const g = await setUpGame(t, mode, HAND);
  return { ...g, by: (nick) => g.players[seat(nick)]! };
}

const owes = async (c: Client, id: string): Promise<readonly Owed[]> => (await myGame(c, id))!.owes;
const act = (c: Client, id: string, body: unknown) => c.post(`/api/games/${id}/actions`, body);

/** RULES.md §1's night actions: every role but the troll, the elf (P2) and the citizens (T7). */
const NIGHT_MOVERS = ["Аня", "Гоша", "Даша", "Егор", "Ёлка", "Женя", "Зоя", "Игорь", "Катя", "Лёва"];

describe("«Мои игры»: what a user owes", () => {
  it("answers 401 without a session", async () => {
    t = await storeServer();
    const r = await new Client(() => t!.server.app).get("/api/me/games");
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ error: { code: "unauthenticated" } });
  });

  it("O1, P2: by night each role with a night action owes it; the troll, the elf and citizens owe nothing", async () => {
    const g = await table();
    for (const nick of NICKS) {
      const line = (await myGame(g.by(nick), g.id))!;
      expect([nick, line.mine, line.seat, line.owes]).toEqual([
        nick,
        "player",
        seat(nick),
        NIGHT_MOVERS.includes(nick) ? ["action"] : [],
      ]);
      expect(line.phase).toEqual({ kind: "night", number: 1 });
      expect(line.role).toBeNull();
      expect(line.result).toBeNull();
    }
    const gm = (await myGames(g.gm)).hosting;
    expect(gm.map((x) => [x.id, x.mine, x.owes])).toEqual([[g.id, "gm", []]]);
  });

  it("M4, T1: after a move it is owed no more, and a teammate's move covers the team's slot", async () => {
    const g = await table();
    expectOk(await act(g.by("Аня"), g.id, { act: "mafia", kill: [seat("Рома")] }));
    expectOk(await act(g.by("Женя"), g.id, { act: "check", target: seat("Маша") }));
    expectOk(await act(g.by("Зоя"), g.id, { act: "pass" }));
    for (const nick of ["Аня", "Женя", "Ёлка", "Зоя", "Борис", "Маша"])
      expect([nick, await owes(g.by(nick), g.id)]).toEqual([nick, []]);
    for (const nick of ["Гоша", "Даша", "Егор", "Игорь", "Катя", "Лёва"])
      expect([nick, await owes(g.by(nick), g.id)]).toEqual([nick, ["action"]]);
  });

  it("V1, V6: by day every living player with a vote owes it, and not after voting; the dead owe nothing", async () => {
    const g = await table();
    expectOk(await act(g.by("Аня"), g.id, { act: "mafia", kill: [seat("Рома")] }));
    await t!.clock.advance(NIGHT_MS);
    expect((await myGame(g.by("Маша"), g.id))!.phase).toEqual({ kind: "day", number: 1 });
    expect(await owes(g.by("Рома"), g.id)).toEqual([]);
    for (const nick of NICKS.filter((n) => n !== "Рома"))
      expect([nick, await owes(g.by(nick), g.id)]).toEqual([nick, ["vote"]]);
    expectOk(await g.by("Маша").post(`/api/games/${g.id}/votes`, { color: "red", target: seat("Ника") }));
    expect(await owes(g.by("Маша"), g.id)).toEqual([]);
    expect(await owes(g.by("Ника"), g.id)).toEqual(["vote"]);
    expect((await myGames(g.gm)).hosting[0]!.owes).toEqual([]);
  });

  it("a message from the GM waits for an answer; the role message asks nothing (S1)", async () => {
    const g = await table();
    expect(await owes(g.by("Маша"), g.id)).toEqual([]);
    expectOk(await g.gm.post(`/api/games/${g.id}/channels/gm:${seat("Маша")}`, { text: "Ты здесь?" }));
    expect(await owes(g.by("Маша"), g.id)).toEqual(["gmAnswer"]);
    expect(await owes(g.by("Ника"), g.id)).toEqual([]);
    expectOk(await g.by("Маша").post(`/api/games/${g.id}/channels/gm:${seat("Маша")}`, { text: "Да" }));
    expect(await owes(g.by("Маша"), g.id)).toEqual([]);
  });

  it("G10, M2c: the GM owes the council's answer, then the review; nothing once published", async () => {
    const g = await table("review");
    expectOk(await act(g.by("Аня"), g.id, { act: "council", question: "Жив ли маньяк?" }));
    expect((await myGames(g.gm)).hosting[0]!.owes).toEqual(["council"]);
    await t!.clock.advance(NIGHT_MS);
    expect((await myGames(g.gm)).hosting[0]!.owes).toEqual(["review", "council"]);
    expectOk(await g.gm.post(`/api/games/${g.id}/gm/council`, { answer: "yes" }));
    expect((await myGames(g.gm)).hosting[0]!.owes).toEqual(["review"]);
    expectOk(await g.gm.post(`/api/games/${g.id}/gm/publish`));
    expect((await myGames(g.gm)).hosting[0]!.owes).toEqual([]);
  });
});

describe("«Мои игры»: reminders", () => {
  it("a reminder is due from the first reminder time (2h before the deadline) and gone once the move is made", async () => {
    const g = await table();
    const start = t!.clock.now();
    const deadline = start + NIGHT_MS;
    expect((await myGames(g.by("Зоя"))).reminders).toEqual([]);
    await t!.clock.advance(NIGHT_MS - 2 * HOUR - MIN);
    expect((await myGames(g.by("Зоя"))).reminders).toEqual([]);
    await t!.clock.advance(MIN);
    const due = (await myGames(g.by("Зоя"))).reminders;
    expect(due).toEqual([
      {
        key: `${g.id}:night-1:action:${deadline - 2 * HOUR}`,
        gameId: g.id,
        title: "Тестовая партия",
        owes: "action",
        phase: { kind: "night", number: 1 },
        deadline,
      },
    ]);
    // Nothing owed, nothing due: a citizen, and the GM at night.
    expect((await myGames(g.by("Маша"))).reminders).toEqual([]);
    expect((await myGames(g.gm)).reminders).toEqual([]);
    expectOk(await act(g.by("Зоя"), g.id, { act: "heal", target: seat("Маша") }));
    expect((await myGames(g.by("Зоя"))).reminders).toEqual([]);
    // Issue 32: the next reminder's time (the server's clock), while something is owed, so the app asks
    // again then; and the server's now beside it.
    const egor = await myGames(g.by("Егор"));
    expect(egor.now).toBe(t!.clock.now());
    expect(egor.active.find((x) => x.id === g.id)!.nextReminder).toBe(deadline - 15 * MIN);
    expect((await myGame(g.by("Зоя"), g.id))!.nextReminder).toBeNull(); // nothing owed
    expect((await myGame(g.by("Маша"), g.id))!.nextReminder).toBeNull();
    // The second reminder (15m) has a key of its own, so a client shows it again.
    await t!.clock.advance(2 * HOUR - 15 * MIN);
    expect((await myGames(g.by("Егор"))).reminders.map((r) => r.key)).toEqual([
      `${g.id}:night-1:action:${deadline - 15 * MIN}`,
    ]);
  });

  it("by day the vote's reminder, and the GM's that the day is about to close; gone after the vote", async () => {
    const g = await table();
    await t!.clock.advance(NIGHT_MS);
    const deadline = t!.clock.now() + DAY_MS;
    await t!.clock.advance(DAY_MS - 2 * HOUR);
    const masha = await myGames(g.by("Маша"));
    expect(masha.reminders.map((r) => [r.owes, r.key, r.deadline])).toEqual([
      ["vote", `${g.id}:day-1:vote:${deadline - 2 * HOUR}`, deadline],
    ]);
    expect((await myGames(g.gm)).reminders.map((r) => [r.owes, r.key])).toEqual([
      ["dayClosing", `${g.id}:day-1:dayClosing:${deadline - 2 * HOUR}`],
    ]);
    expect((await myGames(g.gm)).hosting[0]!.owes).toEqual([]);
    expectOk(await g.by("Маша").post(`/api/games/${g.id}/votes`, { color: "red", target: seat("Ника") }));
    expect((await myGames(g.by("Маша"))).reminders).toEqual([]);
    expect((await myGames(g.by("Ника"))).reminders.map((r) => r.owes)).toEqual(["vote"]);
  });

  it("the user's own offsets decide the time; a paused game reminds nobody", async () => {
    const g = await table();
    const zoya = (await g.by("Зоя").get<{ user: { id: string } }>("/api/me")).body.user;
    await t!.store.accounts.saveSettings({
      userId: zoya.id,
      email: null,
      emailConfirmed: false,
      emailReminders: true,
      before: ["1h"],
      quietHours: null,
      browserNotifications: false,
      confirmTokenHash: null,
      confirmExpiresAt: null,
      unsubscribeToken: "zoya-token",
    });
    await t!.clock.advance(NIGHT_MS - 2 * HOUR);
    expect((await myGames(g.by("Зоя"))).reminders).toEqual([]);
    expect((await myGames(g.by("Егор"))).reminders.map((r) => r.owes)).toEqual(["action"]);
    await t!.clock.advance(HOUR);
    expect((await myGames(g.by("Зоя"))).reminders.map((r) => r.key)).toEqual([
      `${g.id}:night-1:action:${t!.clock.now()}`,
    ]);
    expectOk(await g.gm.post(`/api/games/${g.id}/gm/pause`));
    const paused = (await myGames(g.by("Зоя"))).active[0]!;
    expect([paused.paused, paused.deadline]).toEqual([true, null]);
    expect((await myGames(g.by("Зоя"))).reminders).toEqual([]);
  });
});

describe("«Мои игры»: quiet hours", () => {
  it("says when now is within the user's quiet hours, read in the user's time zone", async () => {
    const g = await table();
    const me = (await g.by("Зоя").get<{ user: { id: string; timeZone: string } }>("/api/me")).body.user;
    // The test clock starts at 09:00 UTC, 12:00 in Moscow; by hand, 11:00–13:00 Moscow holds it.
    expect(me.timeZone).toBe("Europe/Moscow");
    const save = (quietHours: { from: string; to: string } | null) =>
      t!.store.accounts.saveSettings({
        userId: me.id,
        email: null,
        emailConfirmed: false,
        emailReminders: true,
        before: ["2h", "15m"],
        quietHours,
        browserNotifications: true,
        confirmTokenHash: null,
        confirmExpiresAt: null,
        unsubscribeToken: "zoya-quiet",
      });
    expect((await myGames(g.by("Зоя"))).quiet).toBe(false);
    await save({ from: "11:00", to: "13:00" });
    expect((await myGames(g.by("Зоя"))).quiet).toBe(true);
    // 09:00–11:00 would hold 12:00 in UTC, not in Moscow.
    await save({ from: "09:00", to: "11:00" });
    expect((await myGames(g.by("Зоя"))).quiet).toBe(false);
    // Across midnight: 23:00–13:00 holds noon.
    await save({ from: "23:00", to: "13:00" });
    expect((await myGames(g.by("Зоя"))).quiet).toBe(true);
    expect((await myGames(g.by("Егор"))).quiet).toBe(false);
  });
});

describe("«Мои игры»: the lists", () => {
  it("signups with the place in the list, then the reserve of a running game", async () => {
    t = await storeServer();
    const app = () => t!.server.app;
    const gm = new Client(app, "Ведущий");
    expectOk(await gm.register());
    const created = await gm.post<{ id: string }>("/api/games", {
      title: "Набор",
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      mode: "automatic",
    });
    const id = created.body.id;
    const users: Client[] = [];
    for (const nick of [...NICKS, "Запасной"]) {
      const c = new Client(app, nick);
      expectOk(await c.register());
      expectOk(await c.post(`/api/games/${id}/signup`));
      users.push(c);
    }
    const first = (await myGames(users[0]!)).signups[0]!;
    expect([first.mine, first.place, first.signedUp, first.seats, first.status]).toEqual([
      "signedUp",
      1,
      18,
      17,
      "signup",
    ]);
    expect((await myGames(users[17]!)).signups.map((g) => [g.mine, g.place])).toEqual([["reserve", 18]]);
    expect((await myGames(gm)).hosting.map((g) => [g.id, g.mine, g.status])).toEqual([[id, "gm", "signup"]]);
    expectOk(await gm.post(`/api/games/${id}/start`, { deal: "random" }));
    const reserve = await myGames(users[17]!);
    expect(reserve.signups.map((g) => [g.mine, g.place, g.status])).toEqual([["reserve", 18, "running"]]);
    expect(reserve.active).toEqual([]);
    expect((await myGames(users[0]!)).active.map((g) => g.id)).toEqual([id]);
  });

  it("R3: a finished game shows the user's role and the side's result; the GM's shows the winner", async () => {
    const g = await table();
    await playToEnd(t!, g, 5, "automatic");
    const end = await detail(g.gm, g.id);
    const winner = end.summary.winner!;
    for (const nick of ["Аня", "Егор", "Маша"]) {
      const mine = await myGames(g.by(nick));
      expect(mine.active).toEqual([]);
      const line = mine.finished[0]!;
      const role = HAND.hand[seat(nick)]!;
      const faction = role === "boss" ? "mafia" : role === "maniac" ? "maniac" : "town";
      expect([line.mine, line.role, line.winner, line.result, line.owes]).toEqual([
        "player",
        role,
        winner,
        winner === "draw" ? "draw" : winner === faction ? "won" : "lost",
        [],
      ]);
    }
    const gm = await myGames(g.gm);
    expect(gm.hosting).toEqual([]);
    // The role names come with «Мои игры», in the asker's language (the user's, or ?lang=).
    expect(gm.roleNames.maniac).toBe("Маньяк");
    expect((await g.gm.get<MyGames>("/api/me/games?lang=en")).body.roleNames.maniac).toBe("Maniac");
    expect(gm.finished.map((x) => [x.mine, x.role, x.winner, x.result])).toEqual([
      ["gm", null, winner, null],
    ]);
  });

  it("P4: a player replaced by a substitute has the finished game as «replaced», the substitute as a player", async () => {
    const g = await table();
    const sub = new Client(() => t!.server.app, "Запасной");
    expectOk(await sub.register());
    expectOk(
      await g.gm.post(`/api/games/${g.id}/gm/replace`, {
        seat: seat("Рома"),
        nick: "Запасной",
        reason: "ушёл",
      }),
    );
    expect((await myGames(g.by("Рома"))).active).toEqual([]);
    expect((await myGames(sub)).active.map((x) => [x.mine, x.seat])).toEqual([["player", seat("Рома")]]);
    await playToEnd(
      t!,
      { ...g, players: g.players.map((p) => (p.nick === "Рома" ? sub : p)) },
      5,
      "automatic",
    );
    const gone = (await myGames(g.by("Рома"))).finished[0]!;
    expect([gone.mine, gone.role]).toEqual(["replaced", "citizen"]);
    expect((await myGames(sub)).finished.map((x) => [x.mine, x.role])).toEqual([["player", "citizen"]]);
  });

  it("a demo game counts for its human like any other", async () => {
    t = await storeServer();
    const me = new Client(() => t!.server.app, "Играющий");
    expectOk(await me.register());
    const demo = await me.post<{ id: string }>("/api/demo", {});
    expectOk(demo);
    await t.server.demo.idle();
    const mine = await myGames(me);
    expect(mine.active.map((x) => [x.id, x.mine])).toEqual([[demo.body.id, "player"]]);
  });
});

describe("«Мои игры» keeps secrets", () => {
  /** Every quoted role id in a body: `"role":"maniac"`, a role card, a name list. */
  const roleIds = (body: string): string[] => ROLE_IDS.filter((r) => body.includes(`"${r}"`));

  it("S2: a running game's line names no role, and the games differing only in hidden roles read the same", async () => {
    t = await storeServer({ seed: () => "0".repeat(63) + "1" });
    const a = await setUpGame(t, "automatic", HAND);
    // The maniac and a citizen change places: Ника (a citizen in both) may not tell the games apart.
    const swapped = [...HAND.hand];
    [swapped[seat("Егор")], swapped[seat("Рома")]] = [swapped[seat("Рома")]!, swapped[seat("Егор")]!];
    const gm = a.gm;
    const created = await gm.post<{ id: string }>("/api/games", {
      title: "Тестовая партия",
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      mode: "automatic",
    });
    const b = created.body.id;
    for (const p of a.players) expectOk(await p.post(`/api/games/${b}/signup`));
    expectOk(await gm.post(`/api/games/${b}/start`, { deal: { hand: swapped } }));
    // The same public history in both: a post, and the maniac's own move.
    for (const id of [a.id, b]) {
      expectOk(await a.players[seat("Маша")]!.post(`/api/games/${id}/posts`, { text: "Привет" }));
    }
    expectOk(await a.players[seat("Егор")]!.post(`/api/games/${a.id}/actions`, { act: "pass" }));
    expectOk(await a.players[seat("Рома")]!.post(`/api/games/${b}/actions`, { act: "pass" }));
    await t.clock.advance(NIGHT_MS - HOUR);
    const nika = a.players[seat("Ника")]!;
    const mine: MyGames = await myGames(nika);
    expect(mine.active).toHaveLength(2);
    // The role names' table is the same public table for everyone (GameDetail.roleNames); nothing else
    // in the answer names a role.
    const { roleNames, ...rest } = mine;
    expect(roleIds(JSON.stringify(rest))).toEqual([]);
    const [lineB, lineA] = mine.active;
    expect(JSON.stringify(lineA).replaceAll(a.id, "ID")).toBe(JSON.stringify(lineB).replaceAll(b, "ID"));
    const da: GameDetail = await detail(nika, a.id);
    const db: GameDetail = await detail(nika, b);
    expect(roleNames).toEqual(da.roleNames);
    expect(JSON.stringify(da).replaceAll(a.id, "ID")).toBe(JSON.stringify(db).replaceAll(b, "ID"));
    // The maniac's own line says what the maniac owes, and still no role.
    const { roleNames: maniacNames, ...maniac } = await myGames(a.players[seat("Егор")]!);
    expect(roleIds(JSON.stringify(maniac))).toEqual([]);
    expect(maniacNames).toEqual(roleNames);
  });
});
