// The live stream's items (stream-items.ts: StreamItems, yourState, publicState) and the unread counts
// (unreadView), viewer by viewer: the GM, each seat (the mafia, the sheriff and sergeant's pair, a
// player in no faction chat), a dead player in the spectators' room and the public. A room is built in
// memory from log entries (rooms.ts); every expected value is written out here by hand from RULES.md
// (S1, S2, G6, G7, G8, R3, A1, A2, F2, V2) and TEXTS.ru.md, never computed with the code under test.
// These tests are among those `npm run mutate:secrets` runs (docs/testing.md, "Mutation testing of the
// secrets").
import type { ChannelId, FeedItem } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import type { Room } from "../src/log/room.ts";
import type { Viewer } from "../src/views/viewer.ts";
import { itemTypeOf, publicState, StreamItems, yourState } from "../src/views/stream-items.ts";
import { unreadView } from "../src/views/readouts.ts";
import {
  act,
  BOSS,
  CITIZEN,
  DOCTOR,
  entry,
  GM,
  HOUR,
  nextAt,
  player,
  PUBLIC,
  runningRoom,
  SERGEANT,
  SHERIFF,
  signupRoom,
  THUG,
} from "./rooms.ts";

const post = (room: Room, id: string, seat: number | null, text: string): number => {
  const at = nextAt();
  room.apply(entry({ kind: "post", id, seat, text, vote: null }));
  return at;
};
const message = (room: Room, channel: ChannelId, seat: number | null, text: string): number => {
  const at = nextAt();
  room.apply(entry({ kind: "message", id: `m-${text}`, channel, seat, text }));
  return at;
};

/** Where the first feed entry matching `pick` lies (to address it, not to compute an expected value). */
function indexOf(room: Room, pick: (item: Room["feed"][number]["item"]) => boolean, from = 0): number {
  const i = room.feed.findIndex((f, n) => n >= from && pick(f.item));
  if (i < 0) throw new Error("no such feed entry");
  return i;
}
const gameEvent = (type: string) => (item: Room["feed"][number]["item"]) =>
  item.type === "game" && item.event.type === type;

/** An item as a client parses it. */
const parsed = (items: StreamItems, index: number, v: Viewer, lang: "ru" | "en" = "ru") =>
  JSON.parse(items.json(index, v, lang)) as Record<string, unknown> & { you?: Record<string, unknown> };

/** The night-1 room, built with the time the game started at. */
function night1(): { room: Room; start: number } {
  const room = signupRoom();
  const start = nextAt();
  room.apply(
    entry({
      kind: "started",
      seed: "seed-of-builders",
      hand: ["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"],
    }),
  );
  return { room, start };
}

/**
 * Day 1: in night 1 the sergeant checks the boss (T2) and the GM modkills the doctor (G5); the night is
 * published. The boss votes red for the sheriff (V2).
 */
function day1(): Room {
  const room = runningRoom();
  act(room, SERGEANT, { act: "check", target: BOSS });
  room.apply(entry({ kind: "modkill", seat: DOCTOR, reason: "ругань" }));
  room.apply(entry({ kind: "publishNight" }));
  room.apply(entry({ kind: "vote", seat: BOSS, vote: { color: "red", target: SHERIFF, early: false } }));
  return room;
}

describe("S1, S2: a viewer's own half (yourState)", () => {
  it("S1, S2: each seat knows its own role, the mafia each other, the sheriff and sergeant each other; the GM all", () => {
    const room = runningRoom();
    const roles = (v: Viewer) => yourState(room, v, "ru")!.roles;
    expect(roles(player(BOSS))).toEqual(["boss", "thug", null, null, null, null]);
    expect(roles(player(THUG))).toEqual(["boss", "thug", null, null, null, null]);
    expect(roles(player(SHERIFF))).toEqual([null, null, "sheriff", "sergeant", null, null]);
    expect(roles(player(SERGEANT))).toEqual([null, null, "sheriff", "sergeant", null, null]);
    expect(roles(player(DOCTOR))).toEqual([null, null, null, null, "doctor", null]);
    expect(roles(player(CITIZEN))).toEqual([null, null, null, null, null, "citizen"]);
    expect(roles(GM)).toEqual(["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"]);
  });

  it("S2, G6: the channels a viewer reads: the faction chat and one's own with the GM; the GM reads them all", () => {
    const room = runningRoom();
    const ch = (v: Viewer) => yourState(room, v, "ru")!.channels;
    expect(ch(player(BOSS))).toEqual([
      { id: "mafia", canPost: true },
      { id: "gm:0", canPost: true },
    ]);
    expect(ch(player(SERGEANT))).toEqual([
      { id: "pair", canPost: true },
      { id: "gm:3", canPost: true },
    ]);
    expect(ch(player(CITIZEN))).toEqual([{ id: "gm:5", canPost: true }]);
    expect(ch(GM)).toEqual(
      ["mafia", "pair", "spectators", "gm:0", "gm:1", "gm:2", "gm:3", "gm:4", "gm:5"].map((id) => ({
        id,
        canPost: true,
      })),
    );
  });

  it("S1, O1: a player has their own seat and a night form; the GM has no seat and no form but the GM's table", () => {
    const room = runningRoom();
    const boss = yourState(room, player(BOSS), "ru")!;
    expect(boss.viewer).toEqual({ kind: "player", seat: BOSS });
    expect(boss.me).toMatchObject({ seat: BOSS, role: "boss", team: "mafia" });
    expect(boss.form).not.toBeNull();
    expect(boss.gm).toBeNull();
    expect(yourState(room, player(CITIZEN), "ru")!.me).toMatchObject({
      seat: CITIZEN,
      role: "citizen",
      team: null,
    });
    const gm = yourState(room, GM, "ru")!;
    expect(gm.viewer).toEqual({ kind: "gm" });
    expect(gm.me).toBeNull();
    expect(gm.form).toBeNull();
    expect(gm.gm).not.toBeNull();
    expect(gm.channels.map((c) => c.id)).toContain("gm:0");
  });

  it("A2: the private results: the sergeant and sheriff read the check, in the viewer's language; the citizen nothing", () => {
    const room = day1();
    const phase = { kind: "night", number: 1 };
    expect(yourState(room, player(SERGEANT), "ru")!.privateResults).toEqual([
      { phase, lines: ["Проверка: Босс — мафия."] },
    ]);
    expect(yourState(room, player(SHERIFF), "en")!.privateResults).toEqual([
      { phase, lines: ["Check: Босс is mafia."] },
    ]);
    expect(yourState(room, player(SERGEANT), "ru")!.privateResultsView).toHaveLength(1);
    expect(yourState(room, player(CITIZEN), "ru")!.privateResults).toEqual([]);
    expect(yourState(room, player(CITIZEN), "ru")!.privateResultsView).toEqual([]);
  });

  it("O1, S2: an own-slot submission is in its author's half alone; the pair's check is in both the pair's halves", () => {
    const room = runningRoom();
    act(room, DOCTOR, { act: "heal", target: CITIZEN });
    act(room, SERGEANT, { act: "check", target: BOSS });
    expect(yourState(room, player(DOCTOR), "ru")!.submissions).toMatchObject([
      { seat: DOCTOR, slot: "own", action: { act: "heal", target: CITIZEN } },
    ]);
    const check = [{ seat: SERGEANT, slot: "pair", action: { act: "check", target: BOSS } }];
    expect(yourState(room, player(SERGEANT), "ru")!.submissions).toMatchObject(check);
    expect(yourState(room, player(SHERIFF), "ru")!.submissions).toMatchObject(check);
    expect(yourState(room, player(CITIZEN), "ru")!.submissions).toEqual([]);
    expect(yourState(room, player(BOSS), "ru")!.submissions).toEqual([]);
    expect(yourState(room, GM, "ru")!.submissions).toHaveLength(2);
  });

  it("G7, R3: once the game is over nobody has a form or may post, and everyone's half holds every role", () => {
    const room = runningRoom();
    room.apply(entry({ kind: "modkill", seat: BOSS, reason: "ругань" }));
    room.apply(entry({ kind: "modkill", seat: THUG, reason: "ругань" }));
    room.apply(entry({ kind: "publishNight" }));
    expect(room.status).toBe("ended");
    const citizen = yourState(room, player(CITIZEN), "ru")!;
    expect(citizen.form).toBeNull();
    expect(citizen.roles).toEqual(["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"]);
    expect(citizen.channels).toEqual([{ id: "gm:5", canPost: false }]);
    expect(yourState(room, PUBLIC, "ru")).not.toBeNull();
  });

  it("S1: before the deal nobody has an own half", () => {
    const room = signupRoom();
    expect(yourState(room, GM, "ru")).toBeNull();
    expect(yourState(room, player(BOSS), "ru")).toBeNull();
  });
});

describe("the stream's items, viewer by viewer (StreamItems)", () => {
  it("a post reaches everyone as it stands, with no own half; a hidden post is sent without its text (F2)", () => {
    const { room } = night1();
    const at = post(room, "p1", SHERIFF, "Привет");
    post(room, "p2", CITIZEN, "Здравствуйте");
    const i = indexOf(room, (x) => x.type === "post");
    const j = indexOf(room, (x) => x.type === "post", i + 1);
    const items = new StreamItems(room);
    const expected = {
      type: "post",
      post: { id: "p1", seat: SHERIFF, author: "Шериф", at, hidden: null, vote: null, html: "Привет" },
    };
    for (const v of [GM, PUBLIC, player(BOSS), player(SHERIFF), player(CITIZEN)])
      expect(parsed(items, i, v)).toEqual(expected);
    expect(parsed(items, j, PUBLIC)).toMatchObject({
      type: "post",
      post: { id: "p2", html: "Здравствуйте" },
    });

    room.apply(entry({ kind: "hide", postId: "p1", reason: "оскорбление" }));
    const h = indexOf(room, (x) => x.type === "postHidden");
    const later = new StreamItems(room);
    expect(parsed(later, i, player(CITIZEN))).toEqual({
      type: "post",
      post: { ...expected.post, hidden: { reason: "оскорбление" }, html: "" },
    });
    expect(parsed(later, h, PUBLIC)).toEqual({ type: "postHidden", id: "p1", reason: "оскорбление" });
    expect(parsed(later, h, GM)).toEqual({ type: "postHidden", id: "p1", reason: "оскорбление" });
  });

  it("S2, G6: a channel's message is sent as written, with no own half", () => {
    const { room } = night1();
    const at = message(room, "mafia", BOSS, "Стреляем в шерифа");
    const i = indexOf(room, (x) => x.type === "message" && x.message.channel === "mafia");
    const items = new StreamItems(room);
    const expected = {
      type: "message",
      message: {
        id: "m-Стреляем в шерифа",
        channel: "mafia",
        seat: BOSS,
        author: "Босс",
        at,
        html: "Стреляем в шерифа",
      },
    };
    expect(parsed(items, i, player(THUG))).toEqual(expected);
    expect(parsed(items, i, GM)).toEqual(expected);
  });

  it("S1: the lobby before the start: who has signed up, the seventh in the reserve, and the public summary", () => {
    const room = signupRoom(7);
    const items = new StreamItems(room);
    const last = room.feed.length - 1;
    const lobby = {
      type: "lobby",
      signups: [
        { nick: "Босс", reserve: false },
        { nick: "Громила", reserve: false },
        { nick: "Шериф", reserve: false },
        { nick: "Сержант", reserve: false },
        { nick: "Доктор", reserve: false },
        { nick: "Мирный", reserve: false },
        { nick: "Запасной6", reserve: true },
      ],
      summary: {
        id: "builders",
        title: "Сборка",
        gm: "Ведущий",
        status: "signup",
        phase: null,
        signedUp: 7,
        seats: 6,
        winner: null,
        deadline: null,
      },
    };
    for (const v of [GM, PUBLIC]) expect(parsed(items, last, v)).toEqual(lobby);
    expect(items.built(GM, "ru")).toBeNull();
  });

  it("G4: the clock of night 1 goes to everyone; only the GM's carries the GM's own half (the night's intake)", () => {
    const { room, start } = night1();
    const i = indexOf(room, (x) => x.type === "clock");
    const items = new StreamItems(room);
    const deadline = start + 24 * HOUR;
    const clock = {
      type: "clock",
      clock: {
        phase: { kind: "night", number: 1 },
        deadline,
        paused: false,
        resultsPending: false,
        mafiaReopened: false,
      },
      notices: [],
      summary: {
        id: "builders",
        title: "Сборка",
        gm: "Ведущий",
        status: "running",
        phase: { kind: "night", number: 1 },
        signedUp: 6,
        seats: 6,
        winner: null,
        deadline,
      },
    };
    expect(parsed(items, i, PUBLIC)).toEqual(clock);
    expect(parsed(items, i, player(BOSS))).toEqual(clock);
    expect(parsed(items, i, player(CITIZEN))).toEqual(clock);
    const gm = parsed(items, i, GM);
    expect({ ...gm, you: undefined }).toEqual({ ...clock, you: undefined });
    expect(gm.you).toMatchObject({ viewer: { kind: "gm" }, me: null, form: null });
    expect(gm.you!["gm"]).not.toBeNull();
  });

  it("G10: a clock item words the notices in the viewer's language", () => {
    const { room } = night1();
    room.apply(entry({ kind: "pause" }));
    const i = room.feed.length - 1;
    const items = new StreamItems(room);
    expect(parsed(items, i, PUBLIC, "ru")["notices"]).toEqual(["Игра приостановлена ведущим."]);
    expect(parsed(items, i, PUBLIC, "en")["notices"]).toEqual(["The GM has paused the game."]);
    expect(parsed(items, i, PUBLIC, "ru")["notices"]).toEqual(["Игра приостановлена ведущим."]);
  });

  it("V2: a vote goes to everyone with today's votes; only the GM's carries the GM's own half (the tally)", () => {
    const room = day1();
    const i = room.feed.length - 1;
    expect(itemTypeOf(room.feed[i]!.item)).toBe("vote");
    const items = new StreamItems(room);
    const pub = parsed(items, i, PUBLIC);
    expect(pub["type"]).toBe("vote");
    expect(pub["votes"]).toMatchObject([{ seat: BOSS, color: "red", target: SHERIFF }]);
    expect(pub["voteCount"]).toMatchObject({ cannotVote: [], notVoted: [THUG, SHERIFF, SERGEANT, CITIZEN] });
    expect(pub).not.toHaveProperty("you");
    expect(parsed(items, i, player(BOSS))).toEqual(pub);
    expect(parsed(items, i, player(SHERIFF))).toEqual(pub);
    const gm = parsed(items, i, GM);
    expect({ ...gm, you: undefined }).toEqual({ ...pub, you: undefined });
    expect(gm.you).toMatchObject({ viewer: { kind: "gm" } });
  });

  it("G4, S1, S2: the start is a phase item: the public state for all, each player's and the GM's own half besides", () => {
    const { room } = night1();
    const i = indexOf(room, gameEvent("gameStarted"));
    const items = new StreamItems(room);
    const pub = parsed(items, i, PUBLIC);
    expect(Object.keys(pub).sort()).toEqual(["state", "type"]);
    expect(pub["type"]).toBe("phase");
    const state = pub["state"] as Record<string, unknown>;
    expect(state).toMatchObject({
      summary: { status: "running", phase: { kind: "night", number: 1 }, signedUp: 6 },
      notices: [],
      voteCount: null,
      announcements: [],
      stall: null,
      view: { viewer: { kind: "public" }, phase: { kind: "night", number: 1 } },
    });
    expect(state["commitment"]).toMatch(/^[0-9a-f]{64}$/);
    // S1: the public view names no role.
    expect((state["view"] as { seats: { role: unknown }[] }).seats.map((s) => s.role)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    const boss = parsed(items, i, player(BOSS));
    expect({ ...boss, you: undefined }).toEqual({ ...pub, you: undefined });
    expect(boss.you!["roles"]).toEqual(["boss", "thug", null, null, null, null]);
    expect(parsed(items, i, player(SHERIFF)).you!["roles"]).toEqual([
      null,
      null,
      "sheriff",
      "sergeant",
      null,
      null,
    ]);
    expect(parsed(items, i, player(CITIZEN)).you!["roles"]).toEqual([
      null,
      null,
      null,
      null,
      null,
      "citizen",
    ]);
    expect(parsed(items, i, GM).you!["roles"]).toEqual([
      "boss",
      "thug",
      "sheriff",
      "sergeant",
      "doctor",
      "citizen",
    ]);
  });

  it("S1: a seat's role comes as its own half alone; were one to reach the public, it would get the public state", () => {
    const { room } = night1();
    const i = indexOf(
      room,
      (x) => x.type === "game" && x.event.type === "roleDealt" && x.event.seat === DOCTOR,
    );
    expect(itemTypeOf(room.feed[i]!.item)).toBe("you");
    const items = new StreamItems(room);
    const doctor = parsed(items, i, player(DOCTOR));
    expect(Object.keys(doctor).sort()).toEqual(["type", "you"]);
    expect(doctor["type"]).toBe("you");
    expect(doctor.you).toMatchObject({ me: { seat: DOCTOR, role: "doctor" }, gm: null });
    expect(doctor.you!["roles"]).toEqual([null, null, null, null, "doctor", null]);
    const gm = parsed(items, i, GM);
    expect(gm["type"]).toBe("you");
    expect(gm.you!["roles"]).toEqual(["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"]);
    const pub = parsed(items, i, PUBLIC);
    expect(pub["type"]).toBe("phase");
    expect(pub).not.toHaveProperty("you");
    expect(JSON.stringify(pub)).not.toContain("doctor");
    expect(pub).toEqual(parsed(items, indexOf(room, gameEvent("gameStarted")), PUBLIC));
  });

  it("S2: the mafia's team reveal carries each mafia member's own half, each with their own seat", () => {
    const { room } = night1();
    const i = indexOf(
      room,
      (x) => x.type === "game" && x.event.type === "teamRevealed" && x.event.team === "mafia",
    );
    const items = new StreamItems(room);
    expect(parsed(items, i, player(BOSS)).you).toMatchObject({ me: { seat: BOSS, role: "boss" } });
    expect(parsed(items, i, player(THUG)).you).toMatchObject({ me: { seat: THUG, role: "thug" } });
    expect(parsed(items, i, player(BOSS)).you).toMatchObject({ me: { seat: BOSS, role: "boss" } });
  });

  it("A1, A2: the night's results in each language; the sergeant's own half holds the check in that language", () => {
    const room = day1();
    const i = indexOf(room, gameEvent("nightResults"));
    const items = new StreamItems(room);
    const ru = parsed(items, i, player(SERGEANT), "ru");
    const en = parsed(items, i, player(SERGEANT), "en");
    const heading = (x: Record<string, unknown>) =>
      (x["state"] as { announcements: { lines: string[] }[] }).announcements[0]!.lines[0];
    expect(heading(ru)).toBe("Итоги ночи 1");
    expect(heading(en)).toBe("Night 1 results");
    expect(ru.you!["privateResults"]).toEqual([
      { phase: { kind: "night", number: 1 }, lines: ["Проверка: Босс — мафия."] },
    ]);
    expect(en.you!["privateResults"]).toEqual([
      { phase: { kind: "night", number: 1 }, lines: ["Check: Босс is mafia."] },
    ]);
    expect(parsed(items, i, PUBLIC, "en")).toEqual({ type: "phase", state: en["state"] });
    // A2: the citizen's own half holds no result.
    expect(parsed(items, i, player(CITIZEN), "ru").you!["privateResults"]).toEqual([]);
  });

  it("the own half is built only for a viewer an item carried it to, once per viewer and language", () => {
    const { room } = night1();
    const items = new StreamItems(room);
    const post0 = indexOf(room, (x) => x.type === "clock");
    expect(items.built(player(BOSS), "ru")).toBeNull();
    parsed(items, post0, player(BOSS));
    expect(items.built(player(BOSS), "ru")).toBeNull();
    const start = indexOf(room, gameEvent("gameStarted"));
    parsed(items, start, player(BOSS));
    expect(items.built(player(BOSS), "ru")).toMatchObject({ me: { seat: BOSS } });
    expect(items.built(player(BOSS), "en")).toBeNull();
    expect(items.built(player(THUG), "ru")).toBeNull();
    expect(items.you(player(THUG), "ru")).toMatchObject({ me: { seat: THUG } });
    expect(items.built(player(THUG), "ru")).toMatchObject({ me: { seat: THUG } });
    expect(new StreamItems(signupRoom()).you(GM, "ru")).toBeNull();
  });
});

describe("publicState", () => {
  it("S1: before the start there is no view, commitment, count, announcement or stall", () => {
    const state = publicState(signupRoom(), "ru");
    expect(state).toMatchObject({
      commitment: null,
      view: null,
      voteCount: null,
      announcements: [],
      stall: null,
      notices: [],
    });
  });

  it("V2, R3: the count only while running; once over, the view is the whole table", () => {
    expect(publicState(day1(), "ru").voteCount).not.toBeNull();
    const room = runningRoom();
    room.apply(entry({ kind: "modkill", seat: BOSS, reason: "ругань" }));
    room.apply(entry({ kind: "modkill", seat: THUG, reason: "ругань" }));
    room.apply(entry({ kind: "publishNight" }));
    const state = publicState(room, "ru");
    expect(state.voteCount).toBeNull();
    expect(state.stall).toBeNull();
    expect(state.view!.seats.map((s) => s.role)).toEqual([
      "boss",
      "thug",
      "sheriff",
      "sergeant",
      "doctor",
      "citizen",
    ]);
  });
});

describe("unread (unreadView)", () => {
  it("the thread: posts after the mark that are not the viewer's own; the GM's own are the GM's posts", () => {
    const { room } = night1();
    post(room, "p1", SHERIFF, "один");
    post(room, "p2", CITIZEN, "два");
    post(room, "p3", null, "ведущий");
    post(room, "p4", SHERIFF, "три");
    const thread = (v: Viewer, nick: string, marks: Record<string, number>) =>
      unreadView(room, v, { nick, marks }).thread;
    expect(thread(player(SHERIFF), "Шериф", {})).toEqual({ unread: 2, readUpTo: 0 });
    expect(thread(player(SHERIFF), "Шериф", { thread: 2 })).toEqual({ unread: 1, readUpTo: 2 });
    expect(thread(player(CITIZEN), "Мирный", { thread: 1 })).toEqual({ unread: 2, readUpTo: 1 });
    expect(thread(GM, "Ведущий", {})).toEqual({ unread: 3, readUpTo: 0 });
    expect(thread(PUBLIC, "Гость", { thread: 3 })).toEqual({ unread: 1, readUpTo: 3 });
    // A mark past the end reads as the end.
    expect(thread(player(CITIZEN), "Мирный", { thread: 9 })).toEqual({ unread: 0, readUpTo: 4 });
  });

  it("S2, G6: the channels counted are the viewer's own; the role message (S1) counts for its player", () => {
    const { room } = night1();
    message(room, "mafia", BOSS, "м1");
    message(room, "mafia", THUG, "м2");
    message(room, "pair", SHERIFF, "п1");
    message(room, "gm:5", null, "г1");
    message(room, "gm:5", CITIZEN, "г2");
    const ch = (v: Viewer, nick: string, marks: Record<string, number> = {}) =>
      unreadView(room, v, { nick, marks }).channels;
    expect(ch(player(BOSS), "Босс")).toEqual([
      { id: "mafia", unread: 1, readUpTo: 0 },
      { id: "gm:0", unread: 1, readUpTo: 0 },
    ]);
    expect(ch(player(THUG), "Громила", { mafia: 1, "gm:1": 5 })).toEqual([
      { id: "mafia", unread: 0, readUpTo: 1 },
      { id: "gm:1", unread: 0, readUpTo: 1 },
    ]);
    expect(ch(player(SERGEANT), "Сержант")).toEqual([
      { id: "pair", unread: 1, readUpTo: 0 },
      { id: "gm:3", unread: 1, readUpTo: 0 },
    ]);
    expect(ch(player(CITIZEN), "Мирный", { "gm:5": 1 })).toEqual([{ id: "gm:5", unread: 1, readUpTo: 1 }]);
    expect(ch(PUBLIC, "Гость")).toEqual([]);
    // The GM reads every channel; the GM's own messages (the role messages, г1) never count.
    expect(ch(GM, "Ведущий")).toEqual([
      { id: "mafia", unread: 2, readUpTo: 0 },
      { id: "pair", unread: 1, readUpTo: 0 },
      { id: "spectators", unread: 0, readUpTo: 0 },
      { id: "gm:0", unread: 0, readUpTo: 0 },
      { id: "gm:1", unread: 0, readUpTo: 0 },
      { id: "gm:2", unread: 0, readUpTo: 0 },
      { id: "gm:3", unread: 0, readUpTo: 0 },
      { id: "gm:4", unread: 0, readUpTo: 0 },
      { id: "gm:5", unread: 1, readUpTo: 0 },
    ]);
  });

  it("G8: a dead player in no faction chat reads the spectators' room; a dead mafia member does not", () => {
    const room = runningRoom();
    room.apply(entry({ kind: "modkill", seat: CITIZEN, reason: "ругань" }));
    room.apply(entry({ kind: "modkill", seat: THUG, reason: "ругань" }));
    room.apply(entry({ kind: "publishNight" }));
    expect(room.status).toBe("running");
    const ids = (v: Viewer) => unreadView(room, v, { nick: "x", marks: {} }).channels.map((c) => c.id);
    expect(ids(player(CITIZEN))).toEqual(["spectators", "gm:5"]);
    expect(ids(player(THUG))).toEqual(["mafia", "gm:1"]);
    const can = (v: Viewer) => yourState(room, v, "ru")!.channels;
    // G7: the dead write in no channel of the living.
    expect(can(player(THUG))).toEqual([
      { id: "mafia", canPost: false },
      { id: "gm:1", canPost: true },
    ]);
    expect(can(player(CITIZEN))).toEqual([
      { id: "spectators", canPost: true },
      { id: "gm:5", canPost: true },
    ]);
  });
});

describe("what kind of item each feed entry makes (itemTypeOf)", () => {
  const game = (type: string) => ({ type: "game", event: { type } }) as unknown as FeedItem;

  it("V2: a vote is a vote item; A1, A3, P4, R3, G4: what everyone sees change is a phase item", () => {
    expect(itemTypeOf(game("voteCast"))).toBe("vote");
    for (const t of ["gameStarted", "nightResults", "dayResults", "replaced", "gameEnded"])
      expect(itemTypeOf(game(t)), t).toBe("phase");
  });

  it("S1, S2, A2, O1, F2: what only some viewers see is an own-half item, and so is the GM's review", () => {
    for (const t of [
      "roleDealt",
      "teamRevealed",
      "actionSubmitted",
      "checkResult",
      "councilAnswer",
      "strike",
      "modkillOrdered",
      "nightDetail",
      "dayDetail",
    ])
      expect(itemTypeOf(game(t)), t).toBe("you");
    expect(itemTypeOf({ type: "review", phase: { kind: "night", number: 1 } } as FeedItem)).toBe("you");
  });

  it("the thread's, the channels' and the lobby's entries are items of their own kind; an unknown one is refused", () => {
    for (const t of ["post", "postHidden", "message", "lobby", "clock"])
      expect(itemTypeOf({ type: t } as FeedItem)).toBe(t);
    expect(() => itemTypeOf({ type: "secret" } as unknown as FeedItem)).toThrow(/unknown feed item/);
  });

  it("F2: two posts hidden in one sending are each sent as their own", () => {
    const { room } = night1();
    post(room, "p1", SHERIFF, "раз");
    post(room, "p2", CITIZEN, "два");
    room.apply(entry({ kind: "hide", postId: "p1", reason: "первая" }));
    room.apply(entry({ kind: "hide", postId: "p2", reason: "вторая" }));
    const first = indexOf(room, (x) => x.type === "postHidden");
    const second = indexOf(room, (x) => x.type === "postHidden", first + 1);
    const items = new StreamItems(room);
    expect(parsed(items, first, PUBLIC)).toEqual({ type: "postHidden", id: "p1", reason: "первая" });
    expect(parsed(items, second, PUBLIC)).toEqual({ type: "postHidden", id: "p2", reason: "вторая" });
  });
});

describe("a vote item read once the game is over", () => {
  it("V2, R3: a day's vote read after the game ended at a night's results carries no count", () => {
    const room = day1();
    const i = room.feed.length - 1;
    expect(itemTypeOf(room.feed[i]!.item)).toBe("vote");
    room.apply(entry({ kind: "endDay" }));
    room.apply(entry({ kind: "modkill", seat: BOSS, reason: "ругань" }));
    room.apply(entry({ kind: "publishNight" }));
    expect(room.status).toBe("ended");
    const item = parsed(new StreamItems(room), i, PUBLIC);
    expect(item["type"]).toBe("vote");
    expect(item["voteCount"]).toBeNull();
  });
});
