// «Мои игры» (me-views.ts: myPart, myGames, endRoles, resultOf, replacedSeats) for one user, built from
// what that user may see: the user's own seat and place, the user's own moves owed and the reminders for
// them, the unread counts of the thread and of the user's own channels, and a role and result only once
// the game is over (R3). A room is built in memory from log entries (rooms.ts); every expected value is
// written out here by hand from RULES.md (S1, S2, P4, R3, W1, G4, G6, V1, O1) and docs/readings.md, never
// computed with the code under test. Among the tests `npm run mutate:secrets` runs (docs/testing.md).
import type { MyGame } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { endRoles, myGames, myPart, replacedSeats, resultOf, type MyPart } from "../src/views/me-views.ts";
import type { Room } from "../src/log/room.ts";
import {
  BOSS,
  CITIZEN,
  DOCTOR,
  entry,
  HAND,
  HOUR,
  nextAt,
  SERGEANT,
  SHERIFF,
  signupRoom,
  THUG,
} from "./rooms.ts";

const ME = (i: number, nick: string) => ({ id: `u${i}`, nick });
const BOSS_USER = ME(0, "Босс");
const THUG_USER = ME(1, "Громила");
const SHERIFF_USER = ME(2, "Шериф");
const CITIZEN_USER = ME(5, "Мирный");
const THE_GM = { id: "gm", nick: "Ведущий" };
const QUIET = { offsets: [] as string[], now: 0 };

/** A running room (night 1) and the time it started, so its deadline is known by hand: 24 hours on. */
function started(reserve = 0): { room: Room; start: number } {
  const room = signupRoom(6 + reserve);
  const start = nextAt();
  room.apply(entry({ kind: "started", seed: "seed-of-builders", hand: HAND }));
  return { room, start };
}

/** W1: the GM modkills the boss and the thug in night 1; at the night's end no mafia is alive: the town wins. */
function townWins(room: Room): Room {
  room.apply(entry({ kind: "modkill", seat: BOSS, reason: "ругань" }));
  room.apply(entry({ kind: "modkill", seat: THUG, reason: "ругань" }));
  room.apply(entry({ kind: "publishNight" }));
  return room;
}

const part = (room: Room, me: { id: string; nick: string }, marks: Record<string, number> = {}) =>
  myPart(room, me, marks, QUIET);
const game = (room: Room, me: { id: string; nick: string }): MyGame => part(room, me)!.game;

describe("«Мои игры»: a user's place in a game", () => {
  it("S1, P4: in signup the first six are signed up, the seventh in the reserve, each with their place", () => {
    const room = signupRoom(7);
    expect(part(room, BOSS_USER)).toMatchObject({
      list: "signups",
      game: { mine: "signedUp", place: 1, seat: null, status: "signup", signedUp: 7, seats: 6, phase: null },
    });
    expect(game(room, ME(5, "Мирный"))).toMatchObject({ mine: "signedUp", place: 6 });
    expect(game(room, ME(6, "Запасной6"))).toMatchObject({ mine: "reserve", place: 7 });
    expect(part(room, { id: "stranger", nick: "Чужой" })).toBeNull();
    expect(part(room, THE_GM)).toMatchObject({
      list: "hosting",
      game: { mine: "gm", seat: null, place: null },
    });
  });

  it("G4, P4: once started a player holds a seat in the active list; the reserve comes after the seats", () => {
    const { room, start } = started(1);
    expect(part(room, SHERIFF_USER)).toMatchObject({
      list: "active",
      game: {
        id: "builders",
        title: "Сборка",
        gm: "Ведущий",
        status: "running",
        mine: "player",
        seat: SHERIFF,
        place: null,
        phase: { kind: "night", number: 1 },
        deadline: start + 24 * HOUR,
        paused: false,
        signedUp: 6,
        seats: 6,
        stall: null,
      },
    });
    expect(part(room, ME(6, "Запасной6"))).toMatchObject({
      list: "signups",
      game: { mine: "reserve", seat: null, place: 7 },
    });
    expect(part(room, THE_GM)).toMatchObject({ list: "hosting", game: { mine: "gm" } });
  });

  it("S1, S2, R3: no role and no result while the game runs, not even one's own; at the end each seat's, W1", () => {
    const { room } = started();
    for (const me of [BOSS_USER, THUG_USER, SHERIFF_USER, CITIZEN_USER, THE_GM])
      expect(game(room, me)).toMatchObject({ role: null, winner: null, result: null });
    expect(endRoles(room)).toBeNull();
    townWins(room);
    expect(part(room, BOSS_USER)).toMatchObject({
      list: "finished",
      game: {
        status: "ended",
        role: "boss",
        winner: "town",
        result: "lost",
        phase: null,
        deadline: null,
        paused: false,
      },
    });
    expect(game(room, SHERIFF_USER)).toMatchObject({ role: "sheriff", winner: "town", result: "won" });
    expect(game(room, CITIZEN_USER)).toMatchObject({ role: "citizen", result: "won" });
    expect(part(room, THE_GM)).toMatchObject({
      list: "finished",
      game: { mine: "gm", role: null, result: null, winner: "town" },
    });
    expect(endRoles(room)).toEqual(["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"]);
  });

  it("P4, R3: a player who gave up a seat to a substitute finds the game finished, with that seat's role", () => {
    const { room } = started(1);
    room.apply(entry({ kind: "replace", seat: DOCTOR, userId: "u6", nick: "Запасной6", reason: "уехал" }));
    expect(replacedSeats(room, "Доктор")).toEqual([DOCTOR]);
    expect(replacedSeats(room, "Запасной6")).toEqual([]);
    expect(replacedSeats(room, "Шериф")).toEqual([]);
    // While the game runs the one replaced has no place that «Мои игры» lists; the substitute plays.
    expect(part(room, ME(4, "Доктор"))).toBeNull();
    expect(game(room, ME(6, "Запасной6"))).toMatchObject({ mine: "player", seat: DOCTOR, role: null });
    townWins(room);
    expect(part(room, ME(4, "Доктор"))).toMatchObject({
      list: "finished",
      game: { mine: "replaced", seat: DOCTOR, role: "doctor", result: "won" },
    });
    expect(part(room, { id: "stranger", nick: "Чужой" })).toBeNull();
  });

  it("W1: a side's result: won, lost, or a draw for everyone; none before the end", () => {
    expect(resultOf("town", "town")).toBe("won");
    expect(resultOf("mafia", "town")).toBe("lost");
    expect(resultOf("maniac", "maniac")).toBe("won");
    expect(resultOf("town", "draw")).toBe("draw");
    expect(resultOf("mafia", "draw")).toBe("draw");
    expect(resultOf("town", null)).toBeNull();
  });
});

describe("«Мои игры»: unread and what is owed", () => {
  it("G6: unread counts the thread and the user's own channels only, never the user's own posts", () => {
    const { room } = started();
    room.apply(entry({ kind: "post", id: "p1", seat: SHERIFF, text: "раз", vote: null }));
    room.apply(entry({ kind: "post", id: "p2", seat: CITIZEN, text: "два", vote: null }));
    room.apply(entry({ kind: "message", id: "m1", channel: "mafia", seat: BOSS, text: "м1" }));
    room.apply(entry({ kind: "message", id: "m2", channel: "pair", seat: SERGEANT, text: "п1" }));
    // The boss: both posts; the role message in gm:0 (S1); the boss's own mafia message does not count.
    expect(game(room, BOSS_USER).unread).toEqual({ thread: 2, channels: 1 });
    expect(game(room, THUG_USER).unread).toEqual({ thread: 2, channels: 2 });
    expect(game(room, SHERIFF_USER).unread).toEqual({ thread: 1, channels: 2 });
    expect(part(room, SHERIFF_USER, { thread: 2, pair: 1, "gm:2": 1 })!.game.unread).toEqual({
      thread: 0,
      channels: 0,
    });
    expect(game(room, CITIZEN_USER).unread).toEqual({ thread: 1, channels: 1 });
    // The GM reads every channel; the role messages are the GM's own.
    expect(game(room, THE_GM).unread).toEqual({ thread: 2, channels: 2 });
  });

  it("O1, V1: a player owes only their own move: the night's action, then the day's vote", () => {
    const { room } = started();
    expect(game(room, SHERIFF_USER).owes).toEqual(["action"]);
    expect(game(room, CITIZEN_USER).owes).toEqual([]);
    expect(game(room, THE_GM).owes).toEqual([]);
    room.apply(entry({ kind: "publishNight" }));
    expect(game(room, CITIZEN_USER).owes).toEqual(["vote"]);
    expect(part(room, ME(6, "Запасной6"))).toBeNull();
  });

  it("reminders: due once the phase's reminder time has passed and before the deadline, for what is owed", () => {
    const { room, start } = started();
    const deadline = start + 24 * HOUR;
    const at = deadline - 2 * HOUR;
    const reminders = (me: { id: string; nick: string }, now: number) =>
      myPart(room, me, {}, { offsets: ["2h"], now })!.reminders;
    expect(reminders(SHERIFF_USER, at - 1)).toEqual([]);
    expect(reminders(SHERIFF_USER, at)).toEqual([
      {
        key: `builders:night-1:action:${at}`,
        gameId: "builders",
        title: "Сборка",
        owes: "action",
        phase: { kind: "night", number: 1 },
        deadline,
      },
    ]);
    expect(reminders(SHERIFF_USER, deadline - 1)).toHaveLength(1);
    expect(reminders(SHERIFF_USER, deadline)).toEqual([]);
    expect(reminders(CITIZEN_USER, at)).toEqual([]);
    // By night the GM owes nothing here.
    expect(reminders(THE_GM, at)).toEqual([]);
  });

  it("issue 32: the next reminder's time, while something is owed; none once owed nothing or past the last", () => {
    const { room, start } = started();
    const deadline = start + 24 * HOUR;
    const next = (me: { id: string; nick: string }, now: number) =>
      myPart(room, me, {}, { offsets: ["2h", "15m"], now })!.game.nextReminder;
    // By hand: the reminders fall 2 h and 15 min before the night's deadline.
    expect(next(SHERIFF_USER, start)).toBe(deadline - 2 * HOUR);
    expect(next(SHERIFF_USER, deadline - 2 * HOUR - 1)).toBe(deadline - 2 * HOUR);
    expect(next(SHERIFF_USER, deadline - 2 * HOUR)).toBe(deadline - 15 * 60_000);
    expect(next(SHERIFF_USER, deadline - 15 * 60_000)).toBeNull();
    expect(next(SHERIFF_USER, deadline)).toBeNull();
    // A citizen owes nothing at night; nor the GM; the sheriff once the pair's move is in.
    expect(next(CITIZEN_USER, start)).toBeNull();
    expect(next(THE_GM, start)).toBeNull();
    room.apply(entry({ kind: "act", seat: SHERIFF, action: { act: "shoot", target: BOSS } }));
    expect(next(SHERIFF_USER, start)).toBeNull();
    // By day the GM's «the day is about to close» has its time too.
    room.apply(entry({ kind: "publishNight" }));
    const day = room.clock().deadline!;
    expect(next(THE_GM, day - 3 * HOUR)).toBe(day - 2 * HOUR);
  });

  it("reminders: by day the GM is reminded that the day is about to close; nothing once the game is over", () => {
    const { room } = started();
    const night = nextAt();
    room.apply(entry({ kind: "publishNight" }));
    const deadline = room.clock().deadline!;
    // The day is 24 hours from the night's publication.
    expect(deadline).toBe(night + 24 * HOUR);
    const gm = myPart(room, THE_GM, {}, { offsets: ["1h"], now: deadline - HOUR })!;
    expect(gm.reminders).toEqual([
      {
        key: `builders:day-1:dayClosing:${deadline - HOUR}`,
        gameId: "builders",
        title: "Сборка",
        owes: "dayClosing",
        phase: { kind: "day", number: 1 },
        deadline,
      },
    ]);
    expect(gm.game.owes).toEqual([]);
    townWins2(room);
    expect(myPart(room, THE_GM, {}, { offsets: ["1h"], now: deadline - HOUR })!.reminders).toEqual([]);
    expect(myPart(room, SHERIFF_USER, {}, { offsets: ["1h"], now: deadline - HOUR })!.game.owes).toEqual([]);
  });

  it("a paused game has no deadline: no reminder is due", () => {
    const { room } = started();
    room.apply(entry({ kind: "pause" }));
    expect(game(room, SHERIFF_USER)).toMatchObject({ paused: true, deadline: null });
    expect(myPart(room, SHERIFF_USER, {}, { offsets: ["2h"], now: nextAt() + 23 * HOUR })!.reminders).toEqual(
      [],
    );
  });
});

/** By day: the town hangs the boss and the thug is modkilled; no mafia is left (W1). */
function townWins2(room: Room): void {
  room.apply(entry({ kind: "modkill", seat: THUG, reason: "ругань" }));
  for (const seat of [SHERIFF, SERGEANT, CITIZEN])
    room.apply(entry({ kind: "vote", seat, vote: { color: "red", target: BOSS, early: false } }));
  room.apply(entry({ kind: "endDay" }));
}

describe("«Мои игры» as a whole (myGames)", () => {
  it("each game in its list, in the order given; the reminders soonest deadline first", () => {
    const line = (id: string): MyGame => ({ id }) as MyGame;
    const reminder = (deadline: number | null) => ({ deadline }) as MyPart["reminders"][number];
    const parts: MyPart[] = [
      { list: "active", game: line("a1"), reminders: [reminder(30)] },
      { list: "finished", game: line("f1"), reminders: [] },
      { list: "active", game: line("a2"), reminders: [reminder(10), reminder(20)] },
      { list: "hosting", game: line("h1"), reminders: [] },
      { list: "signups", game: line("s1"), reminders: [] },
    ];
    const names = { boss: "Босс" } as Parameters<typeof myGames>[2];
    const out = myGames(parts, true, names, 12_345);
    expect(out.active.map((g) => g.id)).toEqual(["a1", "a2"]);
    expect(out.signups.map((g) => g.id)).toEqual(["s1"]);
    expect(out.hosting.map((g) => g.id)).toEqual(["h1"]);
    expect(out.finished.map((g) => g.id)).toEqual(["f1"]);
    expect(out.reminders.map((r) => r.deadline)).toEqual([10, 20, 30]);
    expect(out.quiet).toBe(true);
    expect(out.roleNames).toBe(names);
    expect(out.now).toBe(12_345);
    expect(myGames([], false, names, 0).quiet).toBe(false);
  });
});

describe("«Мои игры»: substitutes and the day's reminders", () => {
  it("P4: a substitute replaced in turn finds the seat they gave up; the reserve's places follow the seats", () => {
    const { room } = started(2);
    expect(game(room, ME(7, "Запасной7"))).toMatchObject({ mine: "reserve", place: 8 });
    room.apply(entry({ kind: "replace", seat: DOCTOR, userId: "u6", nick: "Запасной6", reason: "уехал" }));
    room.apply(entry({ kind: "replace", seat: DOCTOR, userId: "u7", nick: "Запасной7", reason: "уехал" }));
    expect(replacedSeats(room, "Запасной6")).toEqual([DOCTOR]);
    expect(replacedSeats(room, "Доктор")).toEqual([DOCTOR]);
    expect(replacedSeats(room, "Запасной7")).toEqual([]);
    townWins(room);
    expect(part(room, ME(6, "Запасной6"))).toMatchObject({
      list: "finished",
      game: { mine: "replaced", seat: DOCTOR, role: "doctor" },
    });
    expect(game(room, ME(7, "Запасной7"))).toMatchObject({ mine: "player", seat: DOCTOR, role: "doctor" });
  });

  it("V1: by day a player is reminded of the vote they owe, never of the day's close, which is the GM's", () => {
    const { room } = started();
    room.apply(entry({ kind: "publishNight" }));
    const deadline = room.clock().deadline!;
    const due = myPart(room, CITIZEN_USER, {}, { offsets: ["1h"], now: deadline - HOUR })!.reminders;
    expect(due.map((r) => r.owes)).toEqual(["vote"]);
    room.apply(entry({ kind: "vote", seat: CITIZEN, vote: { color: "red", target: BOSS, early: false } }));
    expect(myPart(room, CITIZEN_USER, {}, { offsets: ["1h"], now: deadline - HOUR })!.reminders).toEqual([]);
  });
});
