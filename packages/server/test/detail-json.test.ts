// The detail a viewer is sent as the route sends it (views.ts: gameDetailJson), whose shared part is kept
// per viewer and language between changes of the room: each user must get their own viewer's detail, in
// their own language, as it stands now. Rooms are built in memory from log entries (rooms.ts); the roles
// and texts expected are written by hand from RULES.md (S1, S2, M2c, R3) and TEXTS.ru.md, and the whole
// detail is the same as gameDetail's, the one the live stream mirrors. Among the tests
// `npm run mutate:secrets` runs (docs/testing.md, "Mutation testing of the secrets").
import type { GameDetail } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import type { Room } from "../src/log/room.ts";
import type { Viewer } from "../src/views/viewer.ts";
import { gameDetail, gameDetailJson } from "../src/views/views.ts";
import { posts, type ReadState } from "../src/views/readouts.ts";
import { BOSS, CITIZEN, entry, GM, player, PUBLIC, runningRoom, SHERIFF, THUG } from "./rooms.ts";

const json = (room: Room, v: Viewer, user: string | null, lang: "ru" | "en", read: ReadState | null = null) =>
  JSON.parse(gameDetailJson(room, v, user, lang, read)) as GameDetail;
const plain = (
  room: Room,
  v: Viewer,
  user: string | null,
  lang: "ru" | "en",
  read: ReadState | null = null,
) => JSON.parse(JSON.stringify(gameDetail(room, v, user, lang, read))) as GameDetail;

describe("the detail as JSON (gameDetailJson)", () => {
  it("S1, S2: asked by one viewer after another, each gets their own role card and channels, in their language", () => {
    const room = runningRoom();
    const asked: [Viewer, string | null, "ru" | "en"][] = [
      [player(BOSS), "u0", "ru"],
      [player(SHERIFF), "u2", "ru"],
      [player(SHERIFF), "u2", "en"],
      [player(CITIZEN), "u5", "ru"],
      [PUBLIC, null, "ru"],
      [PUBLIC, "u9", "ru"],
      [GM, "gm", "ru"],
      [player(BOSS), "u0", "ru"],
    ];
    for (const [v, user, lang] of asked)
      expect(json(room, v, user, lang)).toEqual(plain(room, v, user, lang));
    expect(json(room, player(BOSS), "u0", "ru").roleCard?.role).toBe("boss");
    expect(json(room, player(SHERIFF), "u2", "ru").roleCard?.role).toBe("sheriff");
    expect(json(room, player(THUG), "u1", "ru").roleCard?.role).toBe("thug");
    expect(json(room, PUBLIC, null, "ru").roleCard).toBeNull();
    expect(json(room, player(SHERIFF), "u2", "en").roleNames.sheriff).toBe("Sheriff");
    expect(json(room, player(SHERIFF), "u2", "ru").roleNames.sheriff).toBe("Шериф");
    expect(json(room, player(CITIZEN), "u5", "ru").channels.map((c) => c.id)).toEqual(["gm:5"]);
    expect(json(room, player(THUG), "u1", "ru").channels.map((c) => c.id)).toEqual(["mafia", "gm:1"]);
    // The user's own place: a player, the GM, someone signed in with no seat, a guest.
    expect(json(room, player(BOSS), "u0", "ru").me).toEqual({ kind: "player", seat: BOSS });
    expect(json(room, GM, "gm", "ru").me).toEqual({ kind: "gm", seat: null });
    expect(json(room, PUBLIC, "u9", "ru").me).toEqual({ kind: "none", seat: null });
    expect(json(room, PUBLIC, "u9", "ru").summary.mine).toBe("none");
    expect(json(room, player(BOSS), "u0", "ru").summary.mine).toBe("player");
  });

  it("the unread counts are the asking user's own, and none without read marks or a user", () => {
    const room = runningRoom();
    room.apply(entry({ kind: "post", id: "p1", seat: SHERIFF, text: "раз", vote: null }));
    const read = (nick: string): ReadState => ({ nick, marks: {} });
    expect(json(room, player(BOSS), "u0", "ru").unread).toBeNull();
    expect(json(room, player(BOSS), "u0", "ru", read("Босс")).unread?.thread).toEqual({
      unread: 1,
      readUpTo: 0,
    });
    expect(json(room, player(SHERIFF), "u2", "ru", read("Шериф")).unread?.thread).toEqual({
      unread: 0,
      readUpTo: 0,
    });
    expect(json(room, PUBLIC, null, "ru", read("Гость")).unread).toBeNull();
  });

  it("M2c, O1, R3: after each change of the room every viewer's detail is the one as it stands now", () => {
    const room = runningRoom();
    const viewers: [Viewer, string | null][] = [
      [GM, "gm"],
      [player(BOSS), "u0"],
      [player(CITIZEN), "u5"],
      [PUBLIC, null],
    ];
    const same = () => {
      for (const [v, user] of viewers) expect(json(room, v, user, "ru")).toEqual(plain(room, v, user, "ru"));
    };
    same();
    room.apply(
      entry({ kind: "act", seat: BOSS, action: { act: "council", question: "Есть ли в игре маньяк?" } }),
    );
    same();
    expect(json(room, GM, "gm", "ru").gm?.council).toMatchObject({
      question: "Есть ли в игре маньяк?",
      answer: null,
    });
    // The GM's answer (M2c) changes the GM's table.
    room.apply(entry({ kind: "council", answer: "no" }));
    expect(json(room, GM, "gm", "ru").gm?.council).toMatchObject({ answer: "no" });
    same();
    room.apply(entry({ kind: "modkill", seat: BOSS, reason: "ругань" }));
    room.apply(entry({ kind: "modkill", seat: THUG, reason: "ругань" }));
    room.apply(entry({ kind: "publishNight" }));
    same();
    // R3: over, the public reads every role.
    expect(json(room, PUBLIC, null, "ru").view?.seats.map((s) => s.role)).toEqual([
      "boss",
      "thug",
      "sheriff",
      "sergeant",
      "doctor",
      "citizen",
    ]);
  });
});

describe("the thread's pages (posts)", () => {
  it("«Посты игрока»: with a seat, only that seat's posts, counted and paged among themselves", () => {
    const room = runningRoom();
    for (const [id, seat] of [
      ["a", SHERIFF],
      ["b", CITIZEN],
      ["c", SHERIFF],
      ["d", null],
      ["e", SHERIFF],
    ] as const)
      room.apply(entry({ kind: "post", id, seat, text: id, vote: null }));
    const ids = (r: { posts: { id: string }[] }) => r.posts.map((p) => p.id);
    expect(ids(posts(room, 0, 10, SHERIFF))).toEqual(["a", "c", "e"]);
    expect(posts(room, 0, 10, SHERIFF).total).toBe(3);
    expect(ids(posts(room, 1, 1, SHERIFF))).toEqual(["c"]);
    expect(ids(posts(room, 0, 10, CITIZEN))).toEqual(["b"]);
    expect(ids(posts(room, 0, 10))).toEqual(["a", "b", "c", "d", "e"]);
    expect(posts(room, 0, 2).total).toBe(5);
  });
});
