// Secrets (STYLE.md), read on small hand-made inputs: each event type's audience, who may see an event,
// the view folded from a hand-written event list, and the events a short hand-played match yields, read at
// once and piece by piece. Every expected value is written out here from RULES.md; none is computed with
// the engine. These tests are also the fast ones `npm run mutate:secrets` runs against events.ts and
// view.ts (docs/testing.md, "Mutation testing of the secrets").
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AUDIENCE, gameEvents, maySee } from "../src/events.ts";
import { DEFAULT_OPTIONS } from "../src/options.ts";
import {
  act,
  audienceOf,
  endDay,
  endNight,
  eventsSeenBy,
  gameEventsSince,
  isRejection,
  modkill,
  replace,
  startMatch,
  teamOf,
  type EventCursor,
  type GameEvent,
  type GameView,
  type Match,
  type Rejection,
  type RoleId,
  type Viewer,
} from "../src/index.ts";
import { viewFor } from "../src/view.ts";
import { vote } from "../src/match.ts";
import { STANDARD, game, kill as killOf, serum } from "./scenario.ts";

const ok = <T extends object>(x: T | Rejection): T => {
  if (isRejection(x)) throw new Error(`rejected: ${x.message}`);
  return x;
};

/** The table of the hand-made events: the mafia's two, the pair, a doctor and a citizen. */
const ROLES: readonly RoleId[] = ["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"];
const NAMES: readonly string[] = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Ефим"];
const [АНЯ, БОРЯ, ВИКА, ГОША, ДАША, ЕФИМ] = [0, 1, 2, 3, 4, 5] as const;

const GM: Viewer = { kind: "gm" };
const PUBLIC: Viewer = { kind: "public" };
const player = (seat: number): Viewer => ({ kind: "player", seat });
const VIEWERS: readonly Viewer[] = [GM, PUBLIC, ...ROLES.map((_, s) => player(s))];
const VIEWER_NAMES = ["GM", "public", ...NAMES];
const N1 = { kind: "night", number: 1 } as const;
const D1 = { kind: "day", number: 1 } as const;
const N2 = { kind: "night", number: 2 } as const;
const D2 = { kind: "day", number: 2 } as const;
const N3 = { kind: "night", number: 3 } as const;

/** Who may see an event, by name. */
const whoSees = (e: GameEvent, roles: readonly RoleId[] = ROLES): string[] =>
  VIEWERS.flatMap((v, i) => (maySee(e, v, roles) ? [VIEWER_NAMES[i]!] : []));

describe("the teams and the audiences", () => {
  it("S2: the mafia's five share a team, the sheriff and the sergeant another, everyone else none", () => {
    const expected: Record<RoleId, "mafia" | "pair" | null> = {
      boss: "mafia",
      troll: "mafia",
      elf: "mafia",
      lawyer: "mafia",
      thug: "mafia",
      maniac: null,
      sheriff: "pair",
      sergeant: "pair",
      doctor: null,
      girl: null,
      prosecutor: null,
      shahid: null,
      citizen: null,
    };
    for (const [role, team] of Object.entries(expected))
      expect([role, teamOf(role as RoleId)]).toEqual([role, team]);
  });

  it("G6, S1, S2, A2, F2: each event type names its audience", () => {
    const rows: [GameEvent, unknown][] = [
      [{ type: "gameStarted", names: [...NAMES], commitment: null, options: OPTIONS }, { to: "everyone" }],
      [
        { type: "roleDealt", seat: ДАША, role: "doctor" },
        { to: "seats", seats: [ДАША] },
      ],
      [
        { type: "teamRevealed", team: "pair", members: [] },
        { to: "team", team: "pair" },
      ],
      [
        { type: "teamRevealed", team: "mafia", members: [] },
        { to: "team", team: "mafia" },
      ],
      [submitted(ДАША, "own", { act: "heal", target: ЕФИМ }), { to: "seats", seats: [ДАША] }],
      [submitted(БОРЯ, "mafia", { act: "pass" }), { to: "team", team: "mafia" }],
      [submitted(ГОША, "pair", { act: "check", target: АНЯ }), { to: "team", team: "pair" }],
      [nightResults({}), { to: "everyone" }],
      [
        { type: "checkResult", phase: N1, check: { target: АНЯ, result: "mafia" } },
        { to: "team", team: "pair" },
      ],
      [
        { type: "councilAnswer", phase: N1, question: "?", answer: "yes" },
        { to: "team", team: "mafia" },
      ],
      [
        { type: "strike", phase: N1, seat: ЕФИМ, cause: "night" },
        { to: "seats", seats: [ЕФИМ] },
      ],
      [voteCast(D1, АНЯ, "red", ЕФИМ), { to: "everyone" }],
      [dayResults({}), { to: "everyone" }],
      [{ type: "replaced", seat: ЕФИМ, oldName: "Ефим", newName: "Женя" }, { to: "everyone" }],
      [{ type: "modkillOrdered", phase: N1, seat: ЕФИМ, reason: "мат" }, { to: "gm" }],
      [{ type: "nightDetail", phase: N1, attacks: [], blocked: [], rolls: [] }, { to: "gm" }],
      [{ type: "dayDetail", phase: D1, score: [], penalized: [], uncounted: [] }, { to: "gm" }],
      [{ type: "gameEnded", winner: "town", roles: [], seed: null }, { to: "everyone" }],
    ];
    for (const [e, audience] of rows) expect([e.type, audienceOf(e)]).toEqual([e.type, audience]);
    expect(new Set(rows.map(([e]) => e.type)).size).toBe(Object.keys(AUDIENCE).length);
  });

  it("G1, G6, S2: each audience reaches exactly its viewers, the GM always, the public only what everyone sees", () => {
    expect(whoSees(voteCast(D1, АНЯ, "red", ЕФИМ))).toEqual(VIEWER_NAMES);
    expect(whoSees({ type: "roleDealt", seat: ВИКА, role: "sheriff" })).toEqual(["GM", "Вика"]);
    expect(whoSees({ type: "strike", phase: D1, seat: ЕФИМ, cause: "vote" })).toEqual(["GM", "Ефим"]);
    expect(whoSees(submitted(БОРЯ, "mafia", { act: "pass" }))).toEqual(["GM", "Аня", "Боря"]);
    expect(whoSees(submitted(ВИКА, "pair", { act: "shoot", target: АНЯ }))).toEqual(["GM", "Вика", "Гоша"]);
    expect(whoSees({ type: "modkillOrdered", phase: N1, seat: ЕФИМ, reason: "мат" })).toEqual(["GM"]);
    // The team comes from the roles given, seat by seat (S2): the same event with another table.
    const other: RoleId[] = ["citizen", "sergeant", "boss", "sheriff", "doctor", "troll"];
    expect(whoSees(submitted(БОРЯ, "mafia", { act: "pass" }), other)).toEqual(["GM", "Вика", "Ефим"]);
    expect(whoSees(submitted(ВИКА, "pair", { act: "pass" }), other)).toEqual(["GM", "Боря", "Гоша"]);
  });

  it("G6: a viewer is refused an event of an audience no one has declared, instead of shown it", () => {
    const table = AUDIENCE as unknown as Record<string, (e: unknown) => unknown>;
    table["unheardOf"] = () => ({ to: "nobody" });
    try {
      const odd = { type: "unheardOf" } as unknown as GameEvent;
      expect(maySee(odd, GM, ROLES)).toBe(true); // the GM sees everything (G1)
      expect(() => maySee(odd, PUBLIC, ROLES)).toThrow(/unknown audience/);
      expect(() => maySee(odd, player(ЕФИМ), ROLES)).toThrow(/unknown audience/);
      // and the GM's view will not fold an event it does not know
      expect(() => viewFor([odd], GM, ROLES)).toThrow(/unknown event/);
    } finally {
      delete table["unheardOf"];
    }
  });
});

describe("the events a viewer may see", () => {
  it("S1, S2, G6: a viewer's events are those of their audiences, in order, and no other", () => {
    // NIGHT1 below: the start, six roles, the two teams, seven submissions, a modkill order.
    expect(eventsSeenBy(NIGHT1, player(ЕФИМ), ROLES)).toEqual([NIGHT1[0], NIGHT1[6]]);
    expect(eventsSeenBy(NIGHT1, PUBLIC, ROLES)).toEqual([NIGHT1[0]]);
    expect(eventsSeenBy(NIGHT1, player(ГОША), ROLES)).toEqual([
      NIGHT1[0], // gameStarted
      NIGHT1[4], // his role
      NIGHT1[8], // the pair
      NIGHT1[12], // the pair's two submissions
      NIGHT1[13],
    ]);
    expect(eventsSeenBy(NIGHT1, GM, ROLES)).toEqual(NIGHT1);
  });
});

// ——— hand-made events and the views folded from them ———

const OPTIONS = DEFAULT_OPTIONS;

function submitted(
  seat: number,
  slot: "own" | "mafia" | "pair",
  action: Extract<GameEvent, { type: "actionSubmitted" }>["action"],
  phase: { kind: "night" | "day"; number: number } = N1,
): GameEvent {
  return { type: "actionSubmitted", phase, seat, slot, action };
}

function voteCast(
  phase: { kind: "night" | "day"; number: number },
  seat: number,
  color: "red" | "blue",
  target: number,
  early = false,
): GameEvent {
  return { type: "voteCast", phase, seat, color, target, early };
}

type NightResults = Extract<GameEvent, { type: "nightResults" }>;
type DayResults = Extract<GameEvent, { type: "dayResults" }>;

function nightResults(x: Partial<Omit<NightResults, "type">>): NightResults {
  return {
    type: "nightResults",
    phase: N1,
    died: [],
    revealed: [],
    exposed: [],
    bloodyVictims: [],
    tortureEvidence: [],
    serum: null,
    silenced: [],
    modkilled: [],
    winner: null,
    ...x,
  };
}

function dayResults(x: Partial<Omit<DayResults, "type">>): DayResults {
  return {
    type: "dayResults",
    phase: D1,
    hanged: null,
    excused: null,
    closedEarly: false,
    notVoted: [],
    modkilled: [],
    died: [],
    revealed: [],
    winner: null,
    ...x,
  };
}

/** Frozen all the way down: a view that wrote into an event it was given would throw. */
function frozen<T>(x: T): T {
  if (typeof x === "object" && x !== null) {
    for (const v of Object.values(x)) frozen(v);
    Object.freeze(x);
  }
  return x;
}

/** Night 1 to night 2 of the table above, by hand; the comments say what each event is. */
const NIGHT1: readonly GameEvent[] = frozen([
  { type: "gameStarted", names: [...NAMES], commitment: "c0ffee", options: OPTIONS },
  ...ROLES.map((role, seat): GameEvent => ({ type: "roleDealt", seat, role })),
  {
    type: "teamRevealed",
    team: "mafia",
    members: [
      { seat: АНЯ, role: "boss" },
      { seat: БОРЯ, role: "thug" },
    ],
  },
  {
    type: "teamRevealed",
    team: "pair",
    members: [
      { seat: ВИКА, role: "sheriff" },
      { seat: ГОША, role: "sergeant" },
    ],
  },
  submitted(АНЯ, "mafia", { act: "mafia", kill: [ЕФИМ], intimidate: [] }),
  submitted(БОРЯ, "own", { act: "block", target: ДАША }),
  submitted(БОРЯ, "mafia", { act: "mafia", kill: [ДАША], intimidate: [] }), // M4: a second mafia slot
  submitted(ВИКА, "pair", { act: "shoot", target: АНЯ }),
  submitted(ГОША, "pair", { act: "check", target: БОРЯ }), // T1: replaces the shot
  submitted(ДАША, "own", { act: "heal", target: ДАША }),
  submitted(ДАША, "own", { act: "heal", target: ЕФИМ }), // replaces her first heal
  { type: "modkillOrdered", phase: N1, seat: ГОША, reason: "мат" },
]);

const DAY1: readonly GameEvent[] = frozen([
  nightResults({ died: [ЕФИМ, ГОША], modkilled: [ГОША], silenced: [ВИКА] }),
  { type: "nightDetail", phase: N1, attacks: [], blocked: [ДАША], rolls: [] },
  { type: "checkResult", phase: N1, check: { target: БОРЯ, result: "mafia" } },
  { type: "strike", phase: N1, seat: ДАША, cause: "night" },
  voteCast(D1, АНЯ, "red", ДАША),
  voteCast(D1, ДАША, "blue", ДАША),
  voteCast(D1, АНЯ, "red", БОРЯ), // V1: the last vote of the day counts
  { type: "replaced", seat: БОРЯ, oldName: "Боря", newName: "Борис" },
]);

const NIGHT2: readonly GameEvent[] = frozen([
  dayResults({ hanged: БОРЯ, died: [БОРЯ], revealed: [], notVoted: [ВИКА] }),
  { type: "dayDetail", phase: D1, score: [{ seat: БОРЯ, score: 1 }], penalized: [], uncounted: [] },
  { type: "strike", phase: D1, seat: ВИКА, cause: "vote" },
  submitted(АНЯ, "mafia", { act: "council", question: "Шериф жив?" }, N2),
]);

const DAY2: readonly GameEvent[] = frozen([
  nightResults({ phase: N2, revealed: [{ seat: ДАША, role: "doctor" }], serum: ДАША }),
  { type: "councilAnswer", phase: N2, question: "Шериф жив?", answer: "no" },
  voteCast(D2, ВИКА, "red", АНЯ, true),
]);

const ENDED: readonly GameEvent[] = frozen([
  dayResults({ phase: D2, hanged: АНЯ, died: [АНЯ], winner: "town" }),
  {
    type: "gameEnded",
    winner: "town",
    roles: ROLES.map((role, seat) => ({ seat, role })),
    seed: "семя",
  },
]);

const seats = (
  names: readonly string[],
  alive: readonly boolean[],
  roles: readonly (RoleId | null)[],
  cannotVote: readonly boolean[] = names.map(() => false),
) =>
  names.map((name, seat) => ({
    seat,
    name,
    alive: alive[seat],
    role: roles[seat],
    cannotVote: cannotVote[seat],
  }));

const ALL_ALIVE = [true, true, true, true, true, true];
const NO_ROLES = [null, null, null, null, null, null];
const NAMES_D1 = ["Аня", "Борис", "Вика", "Гоша", "Даша", "Ефим"];

describe("a view folded from hand-made events", () => {
  it("G4: before any event a view holds no seat and nothing else, in night 1", () => {
    expect(viewFor([], PUBLIC, [])).toEqual({
      viewer: PUBLIC,
      phase: N1,
      seats: [],
      me: null,
      submissions: [],
      votes: [],
      pastVotes: [],
      results: [],
      privateResults: [],
      winner: null,
      seed: null,
      // S3: the options of gameStarted (the documented defaults here), or the defaults before it.
      options: DEFAULT_OPTIONS,
    });
  });

  it("S1, S2, O1, M4, T1: in night 1, each viewer holds their own role, their team's and their slots' submissions", () => {
    const v = (viewer: Viewer): GameView => viewFor(NIGHT1, viewer, ROLES);
    const mafiaSubs = [
      { seat: АНЯ, slot: "mafia", action: { act: "mafia", kill: [ЕФИМ], intimidate: [] } },
      { seat: БОРЯ, slot: "mafia", action: { act: "mafia", kill: [ДАША], intimidate: [] } },
    ];
    expect(v(player(АНЯ))).toEqual({
      viewer: player(АНЯ),
      phase: N1,
      seats: seats(NAMES, ALL_ALIVE, ["boss", "thug", null, null, null, null]),
      me: { seat: АНЯ, role: "boss", team: "mafia", strikes: 0, lastNight: null },
      submissions: mafiaSubs,
      votes: [],
      pastVotes: [],
      results: [],
      privateResults: [],
      winner: null,
      seed: null,
      // S3: the options of gameStarted (the documented defaults here), or the defaults before it.
      options: DEFAULT_OPTIONS,
    });
    // In the order sent, each slot holding its last (O1, M4)
    expect(v(player(БОРЯ)).submissions).toEqual([
      mafiaSubs[0],
      { seat: БОРЯ, slot: "own", action: { act: "block", target: ДАША } },
      mafiaSubs[1],
    ]);
    const pairSubs = [{ seat: ГОША, slot: "pair", action: { act: "check", target: БОРЯ } }];
    expect(v(player(ВИКА)).submissions).toEqual(pairSubs);
    expect(v(player(ВИКА)).me).toEqual({
      seat: ВИКА,
      role: "sheriff",
      team: "pair",
      strikes: 0,
      lastNight: null,
    });
    expect(v(player(ВИКА)).seats.map((s) => s.role)).toEqual([null, null, "sheriff", "sergeant", null, null]);
    expect(v(player(ДАША)).submissions).toEqual([
      { seat: ДАША, slot: "own", action: { act: "heal", target: ЕФИМ } },
    ]);
    expect(v(player(ДАША)).me).toEqual({
      seat: ДАША,
      role: "doctor",
      team: null,
      strikes: 0,
      lastNight: null,
    });
    expect(v(player(ЕФИМ)).submissions).toEqual([]);
    expect(v(PUBLIC)).toEqual({
      viewer: PUBLIC,
      phase: N1,
      seats: seats(NAMES, ALL_ALIVE, NO_ROLES),
      me: null,
      submissions: [],
      votes: [],
      pastVotes: [],
      results: [],
      privateResults: [],
      winner: null,
      seed: null,
      // S3: the options of gameStarted (the documented defaults here), or the defaults before it.
      options: DEFAULT_OPTIONS,
    });
    const gm = v(GM);
    expect(gm.me).toBeNull();
    expect(gm.seats.map((s) => s.role)).toEqual(ROLES);
    expect(gm.submissions).toEqual([
      mafiaSubs[0],
      { seat: БОРЯ, slot: "own", action: { act: "block", target: ДАША } },
      mafiaSubs[1],
      ...pairSubs,
      { seat: ДАША, slot: "own", action: { act: "heal", target: ЕФИМ } },
    ]);
  });

  it("A1, A2, V1, P2, P4: in day 1, the results, the check, the day's votes, a strike and a new name", () => {
    const events = [...NIGHT1, ...DAY1];
    const v = (viewer: Viewer): GameView => viewFor(events, viewer, ROLES);
    const results = [DAY1[0]];
    const alive = [true, true, true, false, true, false];
    const cannotVote = [false, false, true, false, false, false];
    const votes = [
      { seat: ДАША, color: "blue", target: ДАША, early: false },
      { seat: АНЯ, color: "red", target: БОРЯ, early: false },
    ];
    expect(v(PUBLIC)).toEqual({
      viewer: PUBLIC,
      phase: D1,
      seats: seats(NAMES_D1, alive, NO_ROLES, cannotVote),
      me: null,
      submissions: [],
      votes,
      pastVotes: [],
      results,
      privateResults: [],
      winner: null,
      seed: null,
      // S3: the options of gameStarted (the documented defaults here), or the defaults before it.
      options: DEFAULT_OPTIONS,
    });
    const check = [{ phase: N1, check: { target: БОРЯ, result: "mafia" }, council: null }];
    expect(v(player(ВИКА)).privateResults).toEqual(check);
    expect(v(player(ГОША)).privateResults).toEqual(check);
    expect(v(player(АНЯ)).privateResults).toEqual([]);
    // O1b: the player's own slot's last submission of the night, and never a shared slot's
    expect(v(player(ДАША)).me).toEqual({
      seat: ДАША,
      role: "doctor",
      team: null,
      strikes: 1,
      lastNight: { act: "heal", target: ЕФИМ },
    });
    expect(v(player(БОРЯ)).me?.lastNight).toEqual({ act: "block", target: ДАША });
    expect(v(player(АНЯ)).me).toEqual({
      seat: АНЯ,
      role: "boss",
      team: "mafia",
      strikes: 0,
      lastNight: null,
    });
    expect(v(player(ГОША)).me?.lastNight).toBeNull();
    expect(v(player(ВИКА)).submissions).toEqual([]);
    const gm = v(GM);
    expect(gm.privateResults).toEqual(check);
    expect(gm.votes).toEqual(votes);
    expect(gm.seats).toEqual(seats(NAMES_D1, alive, ROLES, cannotVote));
  });

  it("A3, V4, A2, R2: in night 2 and day 2, the day's votes are past, the council answers the mafia, a serum reveals", () => {
    const night2 = [...NIGHT1, ...DAY1, ...NIGHT2];
    const pub = viewFor(night2, PUBLIC, ROLES);
    expect(pub.phase).toEqual(N2);
    expect(pub.votes).toEqual([]);
    expect(pub.pastVotes).toEqual([
      { seat: ДАША, color: "blue", target: ДАША, early: false, day: 1 },
      { seat: АНЯ, color: "red", target: БОРЯ, early: false, day: 1 },
    ]);
    expect(pub.results).toEqual([DAY1[0], NIGHT2[0]]);
    expect(pub.seats.map((s) => [s.alive, s.cannotVote])).toEqual([
      [true, false],
      [false, false],
      [true, false],
      [false, false],
      [true, false],
      [false, false],
    ]);
    expect(viewFor(night2, player(ВИКА), ROLES).me?.strikes).toBe(1);
    expect(viewFor(night2, player(ДАША), ROLES).me?.lastNight).toEqual({ act: "heal", target: ЕФИМ });
    expect(viewFor(night2, player(АНЯ), ROLES).submissions).toEqual([
      { seat: АНЯ, slot: "mafia", action: { act: "council", question: "Шериф жив?" } },
    ]);
    const day2 = [...night2, ...DAY2];
    const council = [{ phase: N2, check: null, council: { question: "Шериф жив?", answer: "no" } }];
    expect(viewFor(day2, player(АНЯ), ROLES).privateResults).toEqual(council);
    expect(viewFor(day2, player(БОРЯ), ROLES).privateResults).toEqual(council);
    expect(viewFor(day2, player(ВИКА), ROLES).privateResults).toEqual([
      { phase: N1, check: { target: БОРЯ, result: "mafia" }, council: null },
    ]);
    const v = viewFor(day2, player(ЕФИМ), ROLES);
    expect(v.phase).toEqual(D2);
    expect(v.submissions).toEqual([]);
    expect(v.seats.map((s) => s.role)).toEqual([null, null, null, null, "doctor", "citizen"]);
    expect(v.votes).toEqual([{ seat: ВИКА, color: "red", target: АНЯ, early: true }]);
    expect(v.winner).toBeNull();
    // O1b: no own submission in night 2, so none remembered
    expect(viewFor(day2, player(ДАША), ROLES).me?.lastNight).toBeNull();
  });

  it("R3, F1, W1: at the end every role, the winner and the seed are in every view", () => {
    const all = [...NIGHT1, ...DAY1, ...NIGHT2, ...DAY2, ...ENDED];
    for (const viewer of VIEWERS) {
      const v = viewFor(all, viewer, ROLES);
      expect(v.seats.map((s) => s.role)).toEqual(ROLES);
      expect(v.winner).toBe("town");
      expect(v.seed).toBe("семя");
      expect(v.phase).toEqual(N3);
      expect(v.votes).toEqual([]);
      expect(v.pastVotes.map((p) => [p.seat, p.day])).toEqual([
        [ДАША, 1],
        [АНЯ, 1],
        [ВИКА, 2],
      ]);
    }
    // W1: the winner is known from the results even before the end's event.
    const withoutEnd = [...NIGHT1, ...DAY1, ...NIGHT2, ...DAY2, ENDED[0]!];
    expect(viewFor(withoutEnd, PUBLIC, ROLES)).toMatchObject({ winner: "town", seed: null });
    const nightWin = [...NIGHT1, nightResults({ died: [АНЯ, БОРЯ], winner: "town" })];
    expect(viewFor(nightWin, PUBLIC, ROLES).winner).toBe("town");
  });
});

// ——— the events of a hand-played match ———

const TABLE = NAMES.map((name, i) => ({ name, role: ROLES[i]! }));
const action = (phase: object, seat: number, slot: string, a: object) => ({
  type: "actionSubmitted",
  phase,
  seat,
  slot,
  action: a,
});
const results = (x: object) => ({
  type: "nightResults",
  phase: N1,
  died: [],
  revealed: [],
  exposed: [],
  bloodyVictims: [],
  tortureEvidence: [],
  serum: null,
  silenced: [],
  modkilled: [],
  winner: null,
  ...x,
});

/** A match after each input, with the events that input adds, written by hand from the rules. */
interface Step {
  readonly m: Match;
  readonly events: readonly unknown[];
}

/**
 * A short game on the table above, played by hand. Night 1: the boss Аня kills Ефим, the thug blocks the
 * doctor, the sergeant checks Аня, and the GM modkills Аня (F2). Day 1: Боря is replaced twice (P4); Вика
 * does not vote and is hanged on P1's penalty. Night 2: the thug is boss (M1) and sends the mafia's kill
 * from his one slot (M6), the pair passes, the doctor sends nothing (P2); the mafia win (W1).
 */
function playedGame(seed: string | null): Step[] {
  let m = ok(startMatch({ players: TABLE, seed, options: OPTIONS }));
  const steps: Step[] = [
    {
      m,
      events: [
        {
          type: "gameStarted",
          names: NAMES,
          // F1: the SHA-256 of the seed, in hex
          commitment: seed === null ? null : createHash("sha256").update(seed, "utf8").digest("hex"),
          options: OPTIONS,
        },
        ...ROLES.map((role, seat) => ({ type: "roleDealt", seat, role })), // S1
        // S2: each team's members, by seat
        {
          type: "teamRevealed",
          team: "mafia",
          members: [
            { seat: АНЯ, role: "boss" },
            { seat: БОРЯ, role: "thug" },
          ],
        },
        {
          type: "teamRevealed",
          team: "pair",
          members: [
            { seat: ВИКА, role: "sheriff" },
            { seat: ГОША, role: "sergeant" },
          ],
        },
      ],
    },
  ];
  const step = (next: Match | Rejection, events: unknown[]): void => {
    m = ok(next);
    steps.push({ m, events });
  };
  // Night 1 (O1, M4, T1: the mafia's slot, the thug's own, the pair's).
  const kill = { act: "mafia", kill: [ЕФИМ], intimidate: [] } as const;
  step(act(m, АНЯ, kill), [action(N1, АНЯ, "mafia", kill)]);
  step(act(m, БОРЯ, { act: "block", target: ДАША }), [
    action(N1, БОРЯ, "own", { act: "block", target: ДАША }),
  ]);
  step(act(m, ГОША, { act: "check", target: АНЯ }), [
    action(N1, ГОША, "pair", { act: "check", target: АНЯ }),
  ]);
  step(act(m, ДАША, { act: "heal", target: ДАША }), [action(N1, ДАША, "own", { act: "heal", target: ДАША })]);
  step(modkill(m, АНЯ, "мат"), [{ type: "modkillOrdered", phase: N1, seat: АНЯ, reason: "мат" }]);
  step(endNight(m, { rolls: { thugSilence: true }, council: null }), [
    // O0: the modkilled boss's kill still happens; R1: 6 alive, no roles; M6: the doctor is silenced
    results({ died: [АНЯ, ЕФИМ], silenced: [ДАША], modkilled: [АНЯ] }),
    expect.objectContaining({ type: "nightDetail", phase: N1, blocked: [ДАША] }),
    { type: "checkResult", phase: N1, check: { target: АНЯ, result: "mafia" } }, // T2, A2
  ]);
  // Day 1.
  step(replace(m, БОРЯ, "Борис", "отсутствует"), [
    { type: "replaced", seat: БОРЯ, oldName: "Боря", newName: "Борис" },
  ]);
  step(replace(m, БОРЯ, "Бронислав", "снова отсутствует"), [
    { type: "replaced", seat: БОРЯ, oldName: "Борис", newName: "Бронислав" },
  ]);
  step(replace(m, ДАША, "Дарья", "отсутствует"), [
    { type: "replaced", seat: ДАША, oldName: "Даша", newName: "Дарья" },
  ]);
  step(vote(m, БОРЯ, { color: "red", target: ГОША, early: false }), [
    { type: "voteCast", phase: D1, seat: БОРЯ, color: "red", target: ГОША, early: false },
  ]);
  step(vote(m, ГОША, { color: "red", target: БОРЯ, early: false }), [
    { type: "voteCast", phase: D1, seat: ГОША, color: "red", target: БОРЯ, early: false },
  ]);
  step(endDay(m), [
    {
      type: "dayResults",
      phase: D1,
      // V5, P1: Боря 1, Гоша 1, Вика 2 (no vote; the silenced doctor is not penalised, V6): Вика is hanged
      hanged: ВИКА,
      excused: null,
      closedEarly: false,
      notVoted: [ВИКА],
      modkilled: [],
      died: [ВИКА],
      revealed: [],
      winner: null,
    },
    expect.objectContaining({
      type: "dayDetail",
      phase: D1,
      score: expect.arrayContaining([
        { seat: БОРЯ, score: 1 },
        { seat: ГОША, score: 1 },
        { seat: ВИКА, score: 2 },
      ]),
    }),
    { type: "strike", phase: D1, seat: ВИКА, cause: "vote" }, // P1
  ]);
  // Night 2: the thug is boss (M1); his mafia action fills his own slot (M6). 3 alive: limits lapse.
  const kill2 = { act: "mafia", kill: [ГОША], intimidate: [] } as const;
  step(act(m, БОРЯ, kill2), [action(N2, БОРЯ, "own", kill2)]);
  step(act(m, ГОША, { act: "pass" }), [action(N2, ГОША, "pair", { act: "pass" })]); // T1: the pair's slot
  step(endNight(m, { rolls: {}, council: null }), [
    // W1: the mafia's one against the doctor alone; no check, so no check's result (A2)
    results({ phase: N2, died: [ГОША], winner: "mafia" }),
    expect.objectContaining({ type: "nightDetail", phase: N2 }),
    // P2: the doctor sent neither an action nor a pass
    { type: "strike", phase: N2, seat: ДАША, cause: "night" },
    // R3, F1
    { type: "gameEnded", winner: "mafia", roles: ROLES.map((role, seat) => ({ seat, role })), seed },
  ]);
  return steps;
}

describe("the events of a match", () => {
  it("S1, S2, F1, F2, A1, A2, A3, M6, P1, P4, R3: a hand-played game yields exactly the events the rules name", () => {
    const steps = playedGame("семя-игры");
    expect(steps.at(-1)!.m.state.winner).toBe("mafia");
    expect(gameEvents(steps.at(-1)!.m)).toEqual(steps.flatMap((s) => s.events));
  });

  it("F1: a game without a seed publishes no commitment", () => {
    const steps = playedGame(null);
    expect(gameEvents(steps.at(-1)!.m)).toEqual(steps.flatMap((s) => s.events));
  });

  it("S2: a mafioso alone is the mafia's team of one, and a table with no pair reveals no pair", () => {
    const m = ok(
      startMatch({
        players: [
          { name: "Аня", role: "boss" },
          { name: "Катя", role: "citizen" },
          { name: "Оля", role: "citizen" },
        ],
        seed: null,
      }),
    );
    const events = gameEvents(m);
    expect(events.slice(1)).toEqual([
      { type: "roleDealt", seat: 0, role: "boss" },
      { type: "roleDealt", seat: 1, role: "citizen" },
      { type: "roleDealt", seat: 2, role: "citizen" },
      { type: "teamRevealed", team: "mafia", members: [{ seat: 0, role: "boss" }] },
    ]);
    expect(viewFor(events, player(0), ["boss", "citizen", "citizen"]).me).toMatchObject({ team: "mafia" });
    expect(viewFor(events, player(1), ["boss", "citizen", "citizen"]).me).toMatchObject({ team: null });
  });

  it("A1, R1, R2, M3, T3a: the night's results name the roles revealed by seat, and who is exposed as what", () => {
    // 17 alive (> 10): the two killed are revealed (R1); the serum reveals the maniac (R2); the boss's
    // double kill and the doctor's serum expose them, both rolls fixed to true (M3, T3a).
    const m = game(STANDARD).night(
      { Босс: killOf("Мирный5", "Мирный1"), Доктор: serum("Маньяк") },
      { rolls: { bossExposed: true, doctorExposed: true } },
    ).match;
    const results = gameEvents(m).find((e): e is NightResults => e.type === "nightResults")!;
    // STANDARD's seats: Босс 0, Маньяк 5, Доктор 8, Мирный1 12, Мирный5 16.
    expect(results).toMatchObject({
      revealed: [
        { seat: 5, role: "maniac" },
        { seat: 12, role: "citizen" },
        { seat: 16, role: "citizen" },
      ],
      serum: 5,
    });
    expect([...results.died].sort((a, b) => a - b)).toEqual([12, 16]);
    expect([...results.exposed].sort((a, b) => a.seat - b.seat)).toEqual([
      { seat: 0, as: "boss" },
      { seat: 8, as: "doctor" },
    ]);
  });

  it("G6: read piece by piece, each reading yields only the new events, the end once", () => {
    const steps = playedGame("семя-игры");
    let cursor: EventCursor | null = null;
    for (const { m, events } of steps) {
      const r = gameEventsSince(m, cursor);
      expect(r.events).toEqual(events);
      cursor = r.cursor;
      // Nothing new: nothing read again.
      expect(gameEventsSince(m, cursor).events).toEqual([]);
    }
  });
});
