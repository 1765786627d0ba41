import { describe, expect, it } from "vitest";
import {
  audienceOf,
  endDay,
  exportReplay,
  isRejection,
  modkill,
  runReplay,
  strike,
  vote,
  type Match,
} from "../src/index.ts";
import { gameEvents } from "../src/events.ts";
import { replayMatch } from "../src/replay.ts";
import { viewFor } from "../src/view.ts";

/**
 * Issue 31: G5's strikes (a GM's measure for swearing or an insult, or the game's G5 policy), counted by P3
 * and carried by the replay file as `{"strike": P, "clause": "G5"}` (docs/readings.md). Every expected
 * outcome below is worked out by hand from the rules.
 */

const PLAYERS = [
  { name: "Вася", role: "boss" },
  { name: "Петя", role: "doctor" },
  { name: "Коля", role: "sheriff" },
  { name: "Оля", role: "citizen" },
  { name: "Маша", role: "citizen" },
  { name: "Лена", role: "citizen" },
];

/** Night 1: the mafia kills Оля; everyone with a move sends it, so nobody gets P2's strike. */
const NIGHT_1 = {
  night: 1,
  actions: [
    { by: "Вася", act: "mafia", kill: ["Оля"] },
    { by: "Петя", act: "heal", target: "Коля" },
    { by: "Коля", act: "pass" },
  ],
  rolls: { bossExposed: false },
};

/** Day 1: every living player votes; blue ring, so nobody is hanged and nobody is penalised (P1). */
const CALM_DAY_VOTES = [
  { by: "Вася", blue: "Петя" },
  { by: "Петя", blue: "Коля" },
  { by: "Коля", blue: "Маша" },
  { by: "Маша", blue: "Лена" },
  { by: "Лена", blue: "Вася" },
];

const file = (phases: unknown[], strikes: "shared" | "separate" = "shared") => ({
  format: "forum-mafia/replay@1",
  seed: "g5",
  options: { strikes },
  players: PLAYERS,
  phases,
});

const seatOf = (m: Match, name: string): number => m.state.players.findIndex((p) => p.name === name);

describe("G5: strikes for swearing and insults (issue 31)", () => {
  it("G5: a strike is told to the struck player and the GM only, and counts in that player's view", () => {
    const m0 = replayMatch(file([NIGHT_1]));
    const m = strike(m0, seatOf(m0, "Маша"), "мат в посте");
    if (isRejection(m)) throw new Error(m.message);
    const events = gameEvents(m);
    const last = events[events.length - 1]!;
    expect(last).toEqual({ type: "strike", phase: { kind: "day", number: 1 }, seat: 4, cause: "conduct" });
    expect(audienceOf(last)).toEqual({ to: "seats", seats: [4] });
    const roles = m.setup.players.map((p) => p.role);
    expect(viewFor(events, { kind: "player", seat: 4 }, roles).me?.strikes).toBe(1);
    expect(viewFor(events, { kind: "player", seat: 5 }, roles).me?.strikes).toBe(0);
    expect(m.state.players[4]!.conductStrikes).toBe(1);
  });

  it("G5: a dead player cannot be struck", () => {
    const m = replayMatch(file([NIGHT_1]));
    const r = strike(m, seatOf(m, "Оля"), "мат");
    expect(isRejection(r) && [r.code, r.clause]).toEqual(["gm/strike-dead", "G5"]);
  });

  it("P3: one G5 strike alone is not a modkill", () => {
    const out = runReplay(file([NIGHT_1, { day: 1, votes: CALM_DAY_VOTES, gm: [{ strike: "Маша" }] }]));
    expect(out.phases[1]).toMatchObject({ modkilled: [], died: [], hanged: null });
  });

  it("P3: a second G5 strike in one day is a modkill at the end of that day", () => {
    const out = runReplay(
      file([
        NIGHT_1,
        {
          day: 1,
          votes: CALM_DAY_VOTES,
          gm: [
            { strike: "Маша", clause: "G5", reason: "мат" },
            { strike: "Маша", clause: "G5", reason: "снова мат" },
          ],
        },
      ]),
    );
    expect(out.phases[1]).toMatchObject({ modkilled: ["Маша"], died: ["Маша"] });
  });

  // Маша does not vote (P1: +2, a strike) and gets two blue votes, so her score is 0 and nobody is hanged.
  const WITHOUT_MASHA = [
    { by: "Вася", blue: "Петя" },
    { by: "Петя", blue: "Коля" },
    { by: "Коля", blue: "Маша" },
    { by: "Лена", blue: "Маша" },
  ];

  it("P3: shared strikes: a G5 strike and a missed vote make two, a modkill", () => {
    const out = runReplay(
      file([NIGHT_1, { day: 1, votes: WITHOUT_MASHA, gm: [{ strike: "Маша" }] }], "shared"),
    );
    expect(out.phases[1]).toMatchObject({ modkilled: ["Маша"], penalized: ["Маша"], hanged: null });
  });

  it("P3: separate strikes: a G5 strike and a missed vote are one of each, no modkill", () => {
    const out = runReplay(
      file([NIGHT_1, { day: 1, votes: WITHOUT_MASHA, gm: [{ strike: "Маша" }] }], "separate"),
    );
    expect(out.phases[1]).toMatchObject({ modkilled: [], penalized: ["Маша"], hanged: null });
  });

  it("P3: separate strikes: two G5 strikes are a modkill", () => {
    const out = runReplay(
      file(
        [NIGHT_1, { day: 1, votes: CALM_DAY_VOTES, gm: [{ strike: "Маша" }, { strike: "Маша" }] }],
        "separate",
      ),
    );
    expect(out.phases[1]).toMatchObject({ modkilled: ["Маша"] });
  });

  it("P3: a strike given at night counts at the end of that night; one killed that night is not modkilled", () => {
    // Night 1: Маша gets two strikes (modkilled at the night's end); Оля gets two but the mafia kills her.
    const gm = [{ strike: "Маша" }, { strike: "Маша" }, { strike: "Оля" }, { strike: "Оля" }];
    const out = runReplay(file([{ ...NIGHT_1, gm }]));
    expect(out.phases[0]).toMatchObject({ died: ["Маша", "Оля"], modkilled: ["Маша"] });
  });

  it("G5: the export writes each strike with its clause and no modkill of its own, and replays the same", () => {
    let m = replayMatch(file([NIGHT_1]));
    const ok = (next: Match | ReturnType<typeof strike>): Match => {
      if (isRejection(next)) throw new Error(next.message);
      return next;
    };
    const votes = CALM_DAY_VOTES.filter((v) => v.by !== "Лена" && v.by !== "Петя");
    for (const v of votes)
      m = ok(vote(m, seatOf(m, v.by), { color: "blue", target: seatOf(m, v.blue), early: false }));
    m = ok(strike(m, seatOf(m, "Лена"), "мат"));
    m = ok(strike(m, seatOf(m, "Лена"), "оскорбление"));
    m = ok(modkill(m, seatOf(m, "Петя"), "мат в чате", "G5"));
    m = ok(endDay(m));
    const exported = exportReplay(m);
    expect(exported.phases[1]).toEqual({
      day: 1,
      votes,
      gm: [
        { strike: "Лена", reason: "мат", clause: "G5" },
        { strike: "Лена", reason: "оскорбление", clause: "G5" },
        { modkill: "Петя", reason: "мат в чате", clause: "G5" },
      ],
    });
    // By hand: Лена's two strikes are a modkill (P3), Петя is modkilled by the GM (F2); both missed the vote.
    expect(runReplay(exported).phases[1]).toMatchObject({
      modkilled: ["Лена", "Петя"],
      died: ["Лена", "Петя"],
    });
    expect(runReplay(exported)).toEqual(runReplay(JSON.parse(JSON.stringify(exported))));
  });

  it("G5: a strike entry with another clause, or an unknown key, is a file error", () => {
    expect(() => runReplay(file([{ ...NIGHT_1, gm: [{ strike: "Маша", clause: "P1" }] }]))).toThrow(
      /gm\[0\]/,
    );
    expect(() => runReplay(file([{ ...NIGHT_1, gm: [{ strike: "Маша", why: "x" }] }]))).toThrow(/gm\[0\]/);
    expect(() => runReplay(file([{ ...NIGHT_1, gm: [{ strike: "Никто" }] }]))).toThrow(
      'night 1: unknown player "Никто" (G5)',
    );
  });
});
