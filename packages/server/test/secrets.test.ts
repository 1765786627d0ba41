// Secrets through the server's views (views.ts): who receives each feed entry, what each viewer's stream
// holds, the channels a viewer reads and whose engine view they get. A room is built in memory from log
// entries, as Games rebuilds one; the expected receivers are written out here from RULES.md (S1, S2, G6,
// G8, R3, F2), never computed with the code under test. These tests are also the ones
// `npm run mutate:secrets` runs against views.ts and the files split from it (stream-items.ts, readouts.ts;
// docs/testing.md, "Mutation testing of the secrets").
import type { Audience, RoleId } from "@forum-mafia/engine";
import type { ChannelId, FeedItem, MessageView } from "@forum-mafia/protocol";
import type { StreamItem } from "@forum-mafia/protocol/stream";
import { describe, expect, it } from "vitest";
import { Room, type FeedEntry } from "../src/log/room.ts";
import type { Viewer } from "../src/views/viewer.ts";
import { mayReceive, seenBy } from "../src/views/seen.ts";
import { streamLength } from "../src/streams/positions.ts";
import { gameView } from "../src/views/views.ts";
import { channels, current } from "../src/views/readouts.ts";
import { backlog } from "../src/views/stream-items.ts";
import {
  HAND,
  NAMES,
  BOSS,
  THUG,
  SHERIFF,
  SERGEANT,
  DOCTOR,
  CITIZEN,
  GM,
  PUBLIC,
  player,
  entry,
  signupRoom,
  runningRoom,
} from "./rooms.ts";

/** Every receiver, in this order: the GM, the public, then seats 0…5. */
const RECEIVERS: readonly Viewer[] = [GM, PUBLIC, ...HAND.map((_, seat) => player(seat))];

/** Who of RECEIVERS receives a feed entry, by name. */
const NAMES_OF_RECEIVERS = ["GM", "public", ...NAMES];
const receivers = (room: Room, e: FeedEntry): string[] =>
  RECEIVERS.flatMap((v, i) => (mayReceive(room, e, v) ? [NAMES_OF_RECEIVERS[i]!] : []));

const clock: FeedItem = {
  type: "clock",
  clock: { phase: null, deadline: null, paused: false, resultsPending: false, mafiaReopened: false },
};
const to = (audience: Audience): FeedEntry => ({ audience, item: clock });

const message = (room: Room, channel: ChannelId, seat: number | null, text: string): void =>
  room.apply(entry({ kind: "message", id: `m-${text}`, channel, seat, text }));
const texts = (messages: readonly MessageView[]): string[] => messages.map((m) => m.html);
/**
 * A viewer's stream after its item `after`, as a stream opened now is sent it (Streams.open's backlog): each
 * item's id, the feed item it is built from, and the data sent. An id is the item's place in the viewer's
 * own stream, so item n is built from the n-th feed entry the viewer may receive (the expected values the
 * tests compare with are still written out by hand).
 */
const stream = (room: Room, v: Viewer, after = 0) => {
  const received = room.feed.filter((entry) => mayReceive(room, entry, v));
  return backlog(room, v, "ru", after)!.map(({ id, data }) => ({ id, item: received[id - 1]!.item, data }));
};
/** Everything a viewer's stream sends, to look for a text in. */
const streamText = (room: Room, v: Viewer): string =>
  stream(room, v)
    .map((x) => x.data)
    .join("\n");

// Rooms are built inside the tests, never in a describe's body: Stryker counts what runs outside a test as
// covered by every test, and runs them all for each such mutant.
describe("who receives a feed entry (mayReceive)", () => {
  it("G1, S1, S2: each audience reaches exactly its receivers, and the GM always", () => {
    const room = runningRoom();
    expect(receivers(room, to({ to: "everyone" }))).toEqual(NAMES_OF_RECEIVERS);
    expect(receivers(room, to({ to: "gm" }))).toEqual(["GM"]);
    expect(receivers(room, to({ to: "seats", seats: [DOCTOR] }))).toEqual(["GM", "Доктор"]);
    expect(receivers(room, to({ to: "seats", seats: [THUG, CITIZEN] }))).toEqual(["GM", "Громила", "Мирный"]);
    expect(receivers(room, to({ to: "seats", seats: [] }))).toEqual(["GM"]);
    // S2: the mafia's channel is the boss's and the thug's, the pair's the sheriff's and the sergeant's.
    expect(receivers(room, to({ to: "team", team: "mafia" }))).toEqual(["GM", "Босс", "Громила"]);
    expect(receivers(room, to({ to: "team", team: "pair" }))).toEqual(["GM", "Шериф", "Сержант"]);
  });

  it("G6: an audience of no known kind throws instead of reaching anyone", () => {
    const room = runningRoom();
    const odd = { audience: { to: "nobody" }, item: clock } as unknown as FeedEntry;
    expect(() => mayReceive(room, odd, PUBLIC)).toThrow(/unknown audience/);
    expect(() => mayReceive(room, odd, player(CITIZEN))).toThrow(/unknown audience/);
  });
});

describe("a viewer's stream (backlog)", () => {
  it("S1: each player's stream holds their own role message and no one else's role", () => {
    const room = runningRoom();
    const roleDealt = (v: Viewer): number[] =>
      stream(room, v).flatMap(({ item }) =>
        item.type === "game" && item.event.type === "roleDealt" ? [item.event.seat] : [],
      );
    expect(roleDealt(player(DOCTOR))).toEqual([DOCTOR]);
    expect(roleDealt(player(BOSS))).toEqual([BOSS]);
    expect(roleDealt(PUBLIC)).toEqual([]);
    expect(roleDealt(GM)).toEqual([BOSS, THUG, SHERIFF, SERGEANT, DOCTOR, CITIZEN]);
    // The role message in the GM's channel with the player (room.ts) goes to that player only.
    const roleMessages = (v: Viewer): string[] =>
      stream(room, v).flatMap(({ item }) => (item.type === "message" ? [item.message.channel] : []));
    expect(roleMessages(player(DOCTOR))).toEqual(["gm:4"]);
    expect(roleMessages(PUBLIC)).toEqual([]);
    expect(roleMessages(GM)).toEqual(["gm:0", "gm:1", "gm:2", "gm:3", "gm:4", "gm:5"]);
  });

  it("S2, G6: a faction's messages reach its members and the GM, nobody else", () => {
    const room = runningRoom();
    message(room, "mafia", BOSS, "МАРКЕР-МАФИЯ");
    message(room, "pair", SHERIFF, "МАРКЕР-ПАРА");
    message(room, `gm:${CITIZEN}`, CITIZEN, "МАРКЕР-ЛИЧНОЕ");
    const holds = (v: Viewer): string[] =>
      ["МАРКЕР-МАФИЯ", "МАРКЕР-ПАРА", "МАРКЕР-ЛИЧНОЕ"].filter((m) => streamText(room, v).includes(m));
    expect(holds(GM)).toEqual(["МАРКЕР-МАФИЯ", "МАРКЕР-ПАРА", "МАРКЕР-ЛИЧНОЕ"]);
    expect(holds(PUBLIC)).toEqual([]);
    expect(holds(player(BOSS))).toEqual(["МАРКЕР-МАФИЯ"]);
    expect(holds(player(THUG))).toEqual(["МАРКЕР-МАФИЯ"]);
    expect(holds(player(SHERIFF))).toEqual(["МАРКЕР-ПАРА"]);
    expect(holds(player(SERGEANT))).toEqual(["МАРКЕР-ПАРА"]);
    expect(holds(player(DOCTOR))).toEqual([]);
    expect(holds(player(CITIZEN))).toEqual(["МАРКЕР-ЛИЧНОЕ"]);
  });

  it("G6: a stream is numbered 1…n in the viewer's own order, with no gap where another's item was", () => {
    const room = runningRoom();
    const before = streamLength(room, player(CITIZEN));
    message(room, "mafia", BOSS, "первое");
    message(room, `gm:${CITIZEN}`, CITIZEN, "второе");
    message(room, "pair", SHERIFF, "третье");
    message(room, `gm:${CITIZEN}`, null, "четвёртое");
    expect(streamLength(room, player(CITIZEN))).toBe(before + 2);
    const all = stream(room, player(CITIZEN));
    expect(all.map((i) => i.id)).toEqual(Array.from({ length: before + 2 }, (_, i) => i + 1));
    const tail = stream(room, player(CITIZEN), before);
    expect(tail.map((i) => i.id)).toEqual([before + 1, before + 2]);
    expect(tail.map((i) => (i.item.type === "message" ? i.item.message.html : i.item.type))).toEqual([
      "второе",
      "четвёртое",
    ]);
    expect(tail.map((i) => i.data)).toEqual(all.slice(before).map((i) => i.data));
    expect(stream(room, player(CITIZEN), before + 2)).toEqual([]);
    expect(stream(room, player(CITIZEN), before + 1).map((i) => i.id)).toEqual([before + 2]);
    // A client that holds more than the stream has (a game rebuilt after a failed write) starts again.
    expect(backlog(room, player(CITIZEN), "ru", before + 3)).toBeNull();
  });

  it("R3: a stream resumed from before the end starts again; one resumed at the end, or from the start, does not", () => {
    const room = endedRoom();
    const all = stream(room, player(CITIZEN));
    const end = all.findIndex(({ item }) => item.type === "game" && item.event.type === "gameEnded");
    expect(end).toBeGreaterThan(0);
    expect(backlog(room, player(CITIZEN), "ru", all[end - 1]!.id)).toBeNull();
    const atEnd = stream(room, player(CITIZEN), all[end]!.id);
    expect(atEnd.map(({ id, data }) => [id, data])).toEqual(
      all.slice(end + 1).map(({ id, data }) => [id, data]),
    );
    expect(all[end]!.id).toBe(end + 1);
  });

  it("F2: a post hidden after it was sent is sent hidden to everyone who reads the stream again", () => {
    const room = runningRoom();
    room.apply(entry({ kind: "post", id: "p1", seat: CITIZEN, text: "ТАЙНЫЙ-ТЕКСТ", vote: null }));
    room.apply(entry({ kind: "post", id: "p2", seat: DOCTOR, text: "ОТКРЫТЫЙ-ТЕКСТ", vote: null }));
    room.apply(entry({ kind: "hide", postId: "p1", reason: "оскорбление" }));
    for (const v of RECEIVERS) {
      const text = streamText(room, v);
      expect(text).not.toContain("ТАЙНЫЙ-ТЕКСТ");
      expect(text).toContain("ОТКРЫТЫЙ-ТЕКСТ");
    }
    const sent = stream(room, PUBLIC).map(({ data }) => JSON.parse(data) as StreamItem);
    const posts = sent.flatMap((item) => (item.type === "post" ? [item.post] : []));
    expect(posts.map((p) => [p.id, p.author, p.hidden])).toEqual([
      ["p1", "Мирный", { reason: "оскорбление" }],
      ["p2", "Доктор", null],
    ]);
  });
});

const postOf = (item: FeedItem) => {
  if (item.type !== "post") throw new Error(`not a post: ${item.type}`);
  return item.post;
};

describe("a feed item as it stands now (current)", () => {
  it("F2: a hidden post loses its text, a visible one and every other item pass unchanged", () => {
    const room = runningRoom();
    room.apply(entry({ kind: "post", id: "p1", seat: CITIZEN, text: "скрыть меня", vote: null }));
    room.apply(entry({ kind: "post", id: "p2", seat: DOCTOR, text: "оставить", vote: null }));
    const [first, second] = room.feed.slice(-2).map((e) => e.item);
    room.apply(entry({ kind: "hide", postId: "p1", reason: "флуд" }));
    expect(current(room, second!)).toBe(second);
    expect(current(room, clock)).toBe(clock);
    const hidden = current(room, first!);
    expect(hidden).toMatchObject({
      type: "post",
      post: { id: "p1", author: "Мирный", hidden: { reason: "флуд" } },
    });
    expect(JSON.stringify(hidden)).not.toContain("скрыть меня");
    // A post the room does not know is passed as it is.
    const stranger: FeedItem = { type: "post", post: { ...postOf(second!), id: "p9" } };
    expect(current(room, stranger)).toBe(stranger);
    // Shown again (F2), it is sent with its text.
    room.apply(entry({ kind: "unhide", postId: "p1", reason: "ошибка" }));
    expect(current(room, first!)).toBe(first);
  });
});

describe("the channels a viewer reads (channels)", () => {
  const ids = (list: readonly { id: string }[]): string[] => list.map((c) => c.id);

  it("S2, G6: a player reads their faction's channel and their own with the GM; the public none", () => {
    const room = runningRoom();
    message(room, "mafia", THUG, "мафия");
    message(room, "pair", SERGEANT, "пара");
    expect(channels(room, PUBLIC)).toEqual([]);
    expect(ids(channels(room, player(BOSS)))).toEqual(["mafia", "gm:0"]);
    expect(ids(channels(room, player(SHERIFF)))).toEqual(["pair", "gm:2"]);
    expect(ids(channels(room, player(CITIZEN)))).toEqual(["gm:5"]);
    const mafia = channels(room, player(THUG))[0]!;
    expect(mafia).toMatchObject({ id: "mafia", canPost: true });
    expect(texts(mafia.messages)).toEqual(["мафия"]);
    const own = channels(room, player(DOCTOR))[0]!;
    expect(own.id).toBe("gm:4");
    expect(own.canPost).toBe(true);
    expect(texts(own.messages)[0]).toContain("Доктор");
  });

  it("G1: the GM reads every channel, each seat's included, and may write in them", () => {
    const room = runningRoom();
    message(room, "pair", SHERIFF, "пара");
    const list = channels(room, GM);
    expect(ids(list)).toEqual([
      "mafia",
      "pair",
      "spectators",
      "gm:0",
      "gm:1",
      "gm:2",
      "gm:3",
      "gm:4",
      "gm:5",
    ]);
    expect(list.map((c) => c.canPost)).toEqual(list.map(() => true));
    expect(texts(list[0]!.messages)).toEqual([]);
    expect(texts(list[1]!.messages)).toEqual(["пара"]);
    expect(texts(list[2]!.messages)).toEqual([]);
  });

  it("G6: before the start there are no channels, for the GM either", () => {
    const room = signupRoom();
    expect(channels(room, GM)).toEqual([]);
    expect(channels(room, PUBLIC)).toEqual([]);
  });

  it("G6: a channel's messages are a copy: what is appended later is not in an answer already built", () => {
    const room = runningRoom();
    message(room, "mafia", BOSS, "раз");
    const answer = channels(room, player(BOSS))[0]!;
    message(room, "mafia", BOSS, "два");
    expect(texts(answer.messages)).toEqual(["раз"]);
    expect(texts(channels(room, player(BOSS))[0]!.messages)).toEqual(["раз", "два"]);
  });

  it("G7, R3: nobody writes in a channel once the game has ended, though everyone reads their own", () => {
    const room = endedRoom();
    const boss = channels(room, player(BOSS));
    expect(ids(boss)).toEqual(["mafia", "gm:0"]);
    expect(boss.map((c) => c.canPost)).toEqual([false, false]);
    expect(channels(room, player(CITIZEN)).map((c) => c.canPost)).toEqual([false]);
    // The GM may still write: the status is no longer "signup".
    expect(channels(room, GM).every((c) => c.canPost)).toBe(true);
  });
});

/**
 * An ended room: the sergeant checks the boss, and the GM modkills the whole mafia (the boss and the
 * thug) in night 1 (F2); at the night's end no mafia and no maniac is alive, and the town wins (W1).
 */
function endedRoom(): Room {
  const room = runningRoom();
  // T2: the sergeant checks the boss (A2: the pair's until the end)
  room.apply(entry({ kind: "act", seat: SERGEANT, action: { act: "check", target: BOSS } }));
  room.apply(entry({ kind: "modkill", seat: BOSS, reason: "ругань" }));
  room.apply(entry({ kind: "modkill", seat: THUG, reason: "ругань" }));
  room.apply(entry({ kind: "publishNight" }));
  return room;
}

describe("what a viewer may see of a room (seenBy)", () => {
  const types = (events: readonly { type: string }[]): string[] => events.map((e) => e.type);

  it("S1, S2: a player's events and view are theirs; the public ones hold no role and no team", () => {
    const room = runningRoom();
    const seen = seenBy(room, player(THUG))!;
    expect(seen.viewer).toEqual(player(THUG));
    // The start, the thug's own role, the mafia's team (S1, S2).
    expect(types(seen.events)).toEqual(["gameStarted", "roleDealt", "teamRevealed"]);
    expect(seen.events[1]).toEqual({ type: "roleDealt", seat: THUG, role: "thug" });
    expect(seen.view.me).toMatchObject({ seat: THUG, role: "thug", team: "mafia" });
    expect(types(seen.publicEvents)).toEqual(["gameStarted"]);
    expect(seen.publicView.viewer).toEqual(PUBLIC);
    expect(seen.publicView.me).toBeNull();
    expect(seen.publicView.seats.map((x) => x.role)).toEqual([null, null, null, null, null, null]);
    // The role list with no seats, sorted: what a forum game announces.
    expect(seen.roleList).toEqual(["boss", "citizen", "doctor", "sergeant", "sheriff", "thug"]);
  });

  it("S2: the public's own events are the public events", () => {
    const seen = seenBy(runningRoom(), PUBLIC)!;
    expect(types(seen.events)).toEqual(["gameStarted"]);
    expect(seen.publicEvents).toEqual(seen.events);
    expect(seen.publicView).toEqual(seen.view);
  });

  it("R3: once the game is over everyone sees as the GM; before the start there is nothing to see", () => {
    expect(seenBy(endedRoom(), player(CITIZEN))?.viewer).toEqual(GM);
    expect(seenBy(signupRoom(), GM)).toBeNull();
  });
});

describe("whose engine view a viewer gets (gameView)", () => {
  const known = (room: Room, v: Viewer): Record<string, RoleId> =>
    Object.fromEntries(
      (gameView(room, v)?.seats ?? []).flatMap((s) => (s.role === null ? [] : [[s.name, s.role]])),
    );

  it("S2: while the game runs, a player knows their own role and their faction's, the public none", () => {
    const room = runningRoom();
    expect(known(room, player(CITIZEN))).toEqual({ Мирный: "citizen" });
    expect(known(room, player(THUG))).toEqual({ Босс: "boss", Громила: "thug" });
    expect(known(room, player(SERGEANT))).toEqual({ Шериф: "sheriff", Сержант: "sergeant" });
    expect(known(room, PUBLIC)).toEqual({});
    expect(Object.keys(known(room, GM))).toHaveLength(6);
    expect(gameView(room, player(CITIZEN))?.viewer).toEqual(player(CITIZEN));
    room.apply(entry({ kind: "act", seat: SERGEANT, action: { act: "check", target: BOSS } }));
    room.apply(entry({ kind: "publishNight" }));
    expect(room.status).toBe("running");
    // A2: the check's result is the pair's while the game runs
    expect(gameView(room, player(CITIZEN))?.privateResults).toEqual([]);
    expect(gameView(room, PUBLIC)?.privateResults).toEqual([]);
    expect(gameView(room, player(SHERIFF))?.privateResults).toHaveLength(1);
  });

  it("R3: when the game has ended every role is published to everyone", () => {
    const room = endedRoom();
    expect(room.status).toBe("ended");
    const all = Object.fromEntries(NAMES.map((n, i) => [n, HAND[i]!]));
    expect(known(room, PUBLIC)).toEqual(all);
    expect(known(room, player(CITIZEN))).toEqual(all);
    // R3: every night action is published too: the pair's check, which A2 kept from the others while the
    // game ran, is now in the citizen's and the public's view, read as the GM reads it.
    const check = [
      { phase: { kind: "night", number: 1 }, check: { target: BOSS, result: "mafia" }, council: null },
    ];
    for (const v of [PUBLIC, player(CITIZEN), player(BOSS)]) {
      expect(gameView(room, v)?.privateResults).toEqual(check);
      expect(gameView(room, v)?.viewer).toEqual(GM);
    }
  });

  it("S1: before the start there is no view", () => {
    expect(gameView(signupRoom(), GM)).toBeNull();
  });
});
