// What a night move hidden from a viewer does to that viewer's Seen (seen.ts: seenBy): nothing. The
// expected values are written from RULES.md (S2: nobody knows any role but their own and their faction's;
// A2: nobody is told anything of another's action), and issue 19's promise that a room folds each viewer's
// view once, only from the events that viewer may see: an event hidden from a seat leaves the very view
// that seat was handed, not a copy folded again. Rooms are built in memory from log entries (rooms.ts).
// Among the tests `npm run mutate:secrets` runs (docs/testing.md, "Mutation testing of the secrets").
import { describe, expect, it } from "vitest";
import { seenBy } from "../src/views/seen.ts";
import { act, BOSS, CITIZEN, DOCTOR, player, PUBLIC, runningRoom, SERGEANT, SHERIFF, THUG } from "./rooms.ts";

describe("a night move hidden from a viewer leaves that viewer's Seen as it was", () => {
  it("S2, A2: the pair's check leaves the citizen's and the mafia's views untouched, the same objects", () => {
    const room = runningRoom();
    const citizen = seenBy(room, player(CITIZEN))!.view;
    const thug = seenBy(room, player(THUG))!.view;
    const pub = seenBy(room, PUBLIC)!.view;
    act(room, SERGEANT, { act: "check", target: BOSS });
    // A2: the check is the pair's (S2: sheriff and sergeant); nobody else is told of it.
    expect(seenBy(room, player(SHERIFF))!.view.submissions).toMatchObject([
      { seat: SERGEANT, slot: "pair", action: { act: "check", target: BOSS } },
    ]);
    for (const [seat, before] of [
      [CITIZEN, citizen],
      [THUG, thug],
    ] as const) {
      const now = seenBy(room, player(seat))!;
      expect(now.view.submissions).toEqual([]);
      // Issue 19: the view was not folded again from the start for an event it may not see.
      expect(now.view).toBe(before);
    }
    expect(seenBy(room, PUBLIC)!.view).toBe(pub);
  });

  it("S2, A2: a seat's own move leaves every other seat's view the same object, asked again and again", () => {
    const room = runningRoom();
    const views = [BOSS, THUG, SHERIFF, SERGEANT, CITIZEN].map((s) => seenBy(room, player(s))!.view);
    act(room, DOCTOR, { act: "heal", target: CITIZEN });
    // The doctor's own slot: the doctor alone sees it (A2).
    expect(seenBy(room, player(DOCTOR))!.view.submissions).toMatchObject([
      { seat: DOCTOR, slot: "own", action: { act: "heal", target: CITIZEN } },
    ]);
    for (let round = 0; round < 2; round++)
      [BOSS, THUG, SHERIFF, SERGEANT, CITIZEN].forEach((s, i) => {
        const view = seenBy(room, player(s))!.view;
        expect(view.submissions).toEqual([]);
        expect(view).toBe(views[i]);
      });
  });
});
