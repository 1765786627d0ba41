// What one viewer may see of a room as the game goes on (seen.ts: seenBy over the folds each room keeps,
// viewer.ts: viewerOf, viewerKey): each viewer's Seen is folded from their own events only, asked in any
// order and at any time, and a Seen handed out keeps to the events of its time. Rooms are built in memory
// from log entries (rooms.ts); expected values are written by hand from RULES.md (S1, S2, A2, O1, R3, P4).
// Among the tests `npm run mutate:secrets` runs (docs/testing.md, "Mutation testing of the secrets").
import { describe, expect, it } from "vitest";
import type { Room } from "../src/log/room.ts";
import { seenBy } from "../src/views/seen.ts";
import { viewerKey, viewerOf, type Viewer } from "../src/views/viewer.ts";
import {
  act,
  BOSS,
  CITIZEN,
  DOCTOR,
  entry,
  GM,
  player,
  PUBLIC,
  runningRoom,
  SERGEANT,
  SHERIFF,
  signupRoom,
  THUG,
} from "./rooms.ts";

const types = (events: readonly { type: string }[]): string[] => events.map((e) => e.type);
const roles = (room: Room, v: Viewer) => seenBy(room, v)!.view.seats.map((s) => s.role);

describe("who a user is in a game (viewerOf, viewerKey)", () => {
  it("S1, P4: the GM by id, a player by the seat they hold now, anyone else (the reserve too) the public", () => {
    const room = signupRoom(7);
    room.apply(
      entry({
        kind: "started",
        seed: "seed-of-builders",
        hand: ["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"],
      }),
    );
    expect(viewerOf(room, "gm")).toEqual({ kind: "gm" });
    expect(viewerOf(room, "u0")).toEqual({ kind: "player", seat: 0 });
    expect(viewerOf(room, "u4")).toEqual({ kind: "player", seat: 4 });
    expect(viewerOf(room, "u6")).toEqual({ kind: "public" });
    expect(viewerOf(room, "stranger")).toEqual({ kind: "public" });
    expect(viewerOf(room, null)).toEqual({ kind: "public" });
    room.apply(entry({ kind: "replace", seat: DOCTOR, userId: "u6", nick: "Запасной6", reason: "уехал" }));
    expect(viewerOf(room, "u6")).toEqual({ kind: "player", seat: DOCTOR });
    expect(viewerOf(room, "u4")).toEqual({ kind: "public" });
  });

  it("S2: every viewer has a key of their own", () => {
    const keys = [GM, PUBLIC, player(0), player(1), player(10)].map(viewerKey);
    expect(keys).toEqual(["gm", "public", "seat:0", "seat:1", "seat:10"]);
  });
});

describe("each viewer's Seen as the game goes on (seenBy)", () => {
  it("S1, S2: asked in any order, each seat's view names only the roles that seat knows", () => {
    const room = runningRoom();
    expect(roles(room, player(CITIZEN))).toEqual([null, null, null, null, null, "citizen"]);
    expect(roles(room, PUBLIC)).toEqual([null, null, null, null, null, null]);
    expect(roles(room, player(THUG))).toEqual(["boss", "thug", null, null, null, null]);
    expect(roles(room, GM)).toEqual(["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"]);
    expect(roles(room, player(SHERIFF))).toEqual([null, null, "sheriff", "sergeant", null, null]);
    expect(roles(room, player(CITIZEN))).toEqual([null, null, null, null, null, "citizen"]);
    expect(roles(room, player(DOCTOR))).toEqual([null, null, null, null, "doctor", null]);
  });

  it("O1, S2: a later event reaches the views that may see it, whoever was asked before", () => {
    const room = runningRoom();
    const sergeant = seenBy(room, player(SERGEANT))!;
    const citizen = seenBy(room, player(CITIZEN))!;
    // Nothing new: the same Seen.
    expect(seenBy(room, player(SERGEANT))).toBe(sergeant);
    act(room, SERGEANT, { act: "check", target: BOSS });
    const check = [{ seat: SERGEANT, slot: "pair", action: { act: "check", target: BOSS } }];
    expect(seenBy(room, player(SERGEANT))!.view.submissions).toMatchObject(check);
    expect(seenBy(room, player(SHERIFF))!.view.submissions).toMatchObject(check);
    expect(seenBy(room, player(CITIZEN))!.view.submissions).toEqual([]);
    expect(seenBy(room, GM)!.view.submissions).toMatchObject(check);
    // The Seen handed out before keeps to the events of its time, read now or later.
    expect(sergeant.view.submissions).toEqual([]);
    expect(types(sergeant.events)).toEqual(["gameStarted", "roleDealt", "teamRevealed"]);
    expect(types(sergeant.publicEvents)).toEqual(["gameStarted"]);
    expect(types(citizen.events)).toEqual(["gameStarted", "roleDealt"]);
    expect(types(seenBy(room, player(SERGEANT))!.events)).toEqual([
      "gameStarted",
      "roleDealt",
      "teamRevealed",
      "actionSubmitted",
    ]);
  });

  it("A2: the night's results reach the public and every seat; the check's result only the pair", () => {
    const room = runningRoom();
    const before = [GM, PUBLIC, player(BOSS), player(SHERIFF), player(CITIZEN)].map((v) => seenBy(room, v)!);
    act(room, SERGEANT, { act: "check", target: BOSS });
    room.apply(entry({ kind: "modkill", seat: DOCTOR, reason: "ругань" }));
    room.apply(entry({ kind: "publishNight" }));
    const day = { kind: "day", number: 1 };
    for (const v of [GM, PUBLIC, player(BOSS), player(SHERIFF), player(CITIZEN)]) {
      const seen = seenBy(room, v)!;
      expect(seen.view.phase).toEqual(day);
      expect(seen.publicView.phase).toEqual(day);
      expect(seen.view.seats[DOCTOR]!.alive).toBe(false);
      expect(types(seen.publicEvents)).toEqual(["gameStarted", "nightResults"]);
    }
    expect(seenBy(room, player(SHERIFF))!.view.privateResults).toHaveLength(1);
    expect(seenBy(room, player(BOSS))!.view.privateResults).toEqual([]);
    expect(seenBy(room, PUBLIC)!.view.privateResults).toEqual([]);
    for (const seen of before) expect(seen.view.phase).toEqual({ kind: "night", number: 1 });
  });

  it("R3: once over, every viewer's Seen is the GM's, and the public events are still the public ones", () => {
    const room = runningRoom();
    const early = seenBy(room, player(CITIZEN))!;
    room.apply(entry({ kind: "modkill", seat: BOSS, reason: "ругань" }));
    room.apply(entry({ kind: "modkill", seat: THUG, reason: "ругань" }));
    room.apply(entry({ kind: "publishNight" }));
    const seen = seenBy(room, player(CITIZEN))!;
    expect(seen.viewer).toEqual(GM);
    expect(seen.view.viewer).toEqual(GM);
    expect(seen.publicView.viewer).toEqual(PUBLIC);
    expect(types(seen.publicEvents)).toEqual(["gameStarted", "nightResults", "gameEnded"]);
    expect(types(seen.events)).toContain("roleDealt");
    expect(seenBy(room, PUBLIC)!.view.seats.map((s) => s.role)).toEqual([
      "boss",
      "thug",
      "sheriff",
      "sergeant",
      "doctor",
      "citizen",
    ]);
    expect(early.viewer).toEqual(player(CITIZEN));
  });
});
