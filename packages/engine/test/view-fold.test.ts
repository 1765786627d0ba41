// A view folded as the game goes on (view.ts: ViewFold), on a short hand-made event list: what each viewer
// holds at each point is written out here by hand from RULES.md, and ViewFold's promises are checked on
// it: read in pieces of any size, with or without the public fold's shared lists, each view equals the
// view folded from the whole list so far (viewFor), and a view handed out never changes afterwards. These
// tests are among those `npm run mutate:secrets` runs (docs/testing.md, "Mutation testing of the secrets").
import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/options.ts";
import {
  act,
  isRejection,
  startMatch,
  type GameEvent,
  type GameView,
  type RoleId,
  type Viewer,
} from "../src/index.ts";
import { EventReader } from "../src/events.ts";
import { ViewFold, viewFor } from "../src/view.ts";

const ROLES: readonly RoleId[] = ["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"];
const NAMES: readonly string[] = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Ефим"];
const [АНЯ, БОРЯ, ВИКА, ГОША, ДАША, ЕФИМ] = [0, 1, 2, 3, 4, 5] as const;
const GM: Viewer = { kind: "gm" };
const PUBLIC: Viewer = { kind: "public" };
const player = (seat: number): Viewer => ({ kind: "player", seat });
const N1 = { kind: "night", number: 1 } as const;
const D1 = { kind: "day", number: 1 } as const;
const N2 = { kind: "night", number: 2 } as const;
const D2 = { kind: "day", number: 2 } as const;

type Act = Extract<GameEvent, { type: "actionSubmitted" }>["action"];
const submitted = (
  seat: number,
  slot: "own" | "mafia" | "pair",
  action: Act,
  phase: typeof N1 | typeof N2 = N1,
): GameEvent => ({
  type: "actionSubmitted",
  phase,
  seat,
  slot,
  action,
});
const voteCast = (
  phase: typeof D1 | typeof D2,
  seat: number,
  color: "red" | "blue",
  target: number,
): GameEvent => ({
  type: "voteCast",
  phase,
  seat,
  color,
  target,
  early: false,
});
const NIGHT_RESULTS = {
  type: "nightResults",
  phase: N1,
  died: [] as number[],
  revealed: [] as { seat: number; role: RoleId }[],
  exposed: [],
  bloodyVictims: [],
  tortureEvidence: [],
  serum: null,
  silenced: [] as number[],
  modkilled: [] as number[],
  winner: null,
} as const;
const DAY_RESULTS = {
  type: "dayResults",
  phase: D1,
  hanged: null,
  excused: null,
  closedEarly: false,
  notVoted: [],
  modkilled: [],
  died: [] as number[],
  revealed: [] as { seat: number; role: RoleId }[],
  winner: null,
} as const;

/** Frozen all the way down: a fold that wrote into an event it was given would throw. */
function frozen<T>(x: T): T {
  if (typeof x === "object" && x !== null) {
    for (const v of Object.values(x)) frozen(v);
    Object.freeze(x);
  }
  return x;
}

/**
 * Night 1 to the end, by hand. Night 1: the mafia kills Ефим, the doctor heals herself then Ефим (the later
 * one counts), the sergeant checks Боря. Day 1: Ефим is dead (A1) and Вика cannot vote; Аня votes red for
 * Даша, then for Боря (V1: the last vote counts), Даша blue for Аня; Боря is hanged (A3), his role not
 * shown (R1: 6 alive). Гоша is replaced by Георгий (P4). Night 2: the doctor's serum on Аня reveals her
 * role (R2, T3a). Day 2: Аня is hanged; the town wins (W1) and the game ends (R3).
 */
const EVENTS: readonly GameEvent[] = frozen([
  { type: "gameStarted", names: [...NAMES], commitment: "c0ffee", options: DEFAULT_OPTIONS },
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
  submitted(ДАША, "own", { act: "heal", target: ДАША }),
  submitted(ДАША, "own", { act: "heal", target: ЕФИМ }),
  submitted(ГОША, "pair", { act: "check", target: БОРЯ }),
  { ...NIGHT_RESULTS, died: [ЕФИМ], silenced: [ВИКА] },
  { type: "checkResult", phase: N1, check: { target: БОРЯ, result: "mafia" } },
  { type: "strike", phase: N1, seat: ДАША, cause: "night" },
  voteCast(D1, АНЯ, "red", ДАША),
  voteCast(D1, ДАША, "blue", АНЯ),
  voteCast(D1, АНЯ, "red", БОРЯ),
  { ...DAY_RESULTS, hanged: БОРЯ, died: [БОРЯ] },
  { type: "replaced", seat: ГОША, oldName: "Гоша", newName: "Георгий" },
  submitted(ДАША, "own", { act: "serum", target: АНЯ }, N2),
  { ...NIGHT_RESULTS, phase: N2, serum: АНЯ, revealed: [{ seat: АНЯ, role: "boss" }] },
  voteCast(D2, ВИКА, "red", АНЯ),
  { ...DAY_RESULTS, phase: D2, hanged: АНЯ, died: [АНЯ], winner: "town" },
  { type: "gameEnded", winner: "town", roles: ROLES.map((role, seat) => ({ seat, role })), seed: "семя" },
]);
/** Where each phase begins in EVENTS: day 1, night 2, day 2, the end. */
const DAY1 = EVENTS.findIndex((e) => e.type === "nightResults");
const NIGHT2 = EVENTS.findIndex((e) => e.type === "dayResults");

const VIEWERS: readonly Viewer[] = [GM, PUBLIC, ...ROLES.map((_, seat) => player(seat))];

/** Fold EVENTS for a viewer in the pieces given (sizes), keeping each view handed out and a deep copy of it. */
function foldInPieces(viewer: Viewer, sizes: readonly number[], shared: boolean) {
  const pub = shared ? new ViewFold(PUBLIC, ROLES) : null;
  const fold = new ViewFold(viewer, ROLES, pub);
  const out: { upTo: number; view: GameView; copy: GameView }[] = [];
  let upTo = 0;
  let k = 0;
  while (upTo < EVENTS.length) {
    upTo = Math.min(EVENTS.length, upTo + sizes[k++ % sizes.length]!);
    const list = EVENTS.slice(0, upTo);
    pub?.add(list);
    fold.add(list);
    const view = fold.view();
    out.push({ upTo, view, copy: structuredClone(view) });
  }
  return out;
}

describe("a view folded as the game goes on (ViewFold)", () => {
  it("S1, S2, A2, V1, A3, R3: what each viewer holds at day 1, night 2 and the end, by hand", () => {
    const at = (viewer: Viewer, upTo: number): GameView => {
      const pub = new ViewFold(PUBLIC, ROLES);
      const fold = new ViewFold(viewer, ROLES, viewer.kind === "player" ? pub : null);
      for (let i = 1; i <= upTo; i++) {
        pub.add(EVENTS.slice(0, i));
        fold.add(EVENTS.slice(0, i));
      }
      return fold.view();
    };
    // Day 1, after the three votes: A1, V1.
    const day1 = DAY1 + 6;
    const dasha = at(player(ДАША), day1);
    expect(dasha.phase).toEqual(D1);
    expect(dasha.seats.map((s) => s.alive)).toEqual([true, true, true, true, true, false]);
    expect(dasha.seats.map((s) => s.cannotVote)).toEqual([false, false, true, false, false, false]);
    expect(dasha.seats.map((s) => s.role)).toEqual([null, null, null, null, "doctor", null]);
    expect(dasha.me).toEqual({
      seat: ДАША,
      role: "doctor",
      team: null,
      strikes: 1,
      lastNight: { act: "heal", target: ЕФИМ },
    });
    expect(dasha.votes).toEqual([
      { seat: ДАША, color: "blue", target: АНЯ, early: false },
      { seat: АНЯ, color: "red", target: БОРЯ, early: false },
    ]);
    expect(dasha.submissions).toEqual([]);
    expect(dasha.privateResults).toEqual([]);
    expect(dasha.results).toHaveLength(1);
    // A2: the pair read the check; S2: Гоша's team and his submission's slot.
    const gosha = at(player(ГОША), day1);
    expect(gosha.privateResults).toEqual([
      { phase: N1, check: { target: БОРЯ, result: "mafia" }, council: null },
    ]);
    expect(gosha.me).toEqual({ seat: ГОША, role: "sergeant", team: "pair", strikes: 0, lastNight: null });
    expect(at(player(ВИКА), day1).privateResults).toHaveLength(1);
    expect(at(player(АНЯ), day1).me).toMatchObject({ team: "mafia", strikes: 0, lastNight: null });
    // Night 2: the day's votes are past votes, Боря is dead with no role shown (R1), Гоша has a new name (P4).
    const night2 = at(PUBLIC, NIGHT2 + 3);
    expect(night2.phase).toEqual(N2);
    expect(night2.votes).toEqual([]);
    expect(night2.pastVotes).toEqual([
      { seat: ДАША, color: "blue", target: АНЯ, early: false, day: 1 },
      { seat: АНЯ, color: "red", target: БОРЯ, early: false, day: 1 },
    ]);
    expect(night2.seats.map((s) => s.role)).toEqual([null, null, null, null, null, null]);
    expect(night2.seats.map((s) => s.alive)).toEqual([true, false, true, true, true, false]);
    expect(night2.seats.map((s) => s.name)).toEqual(["Аня", "Боря", "Вика", "Георгий", "Даша", "Ефим"]);
    expect(night2.seats.map((s) => s.cannotVote)).toEqual([false, false, false, false, false, false]);
    expect(at(player(ДАША), NIGHT2 + 3).submissions).toEqual([
      { seat: ДАША, slot: "own", action: { act: "serum", target: АНЯ } },
    ]);
    // Day 2: R2, the serum showed Аня's role to everyone.
    expect(at(player(ЕФИМ), NIGHT2 + 5).seats.map((s) => s.role)).toEqual([
      "boss",
      null,
      null,
      null,
      null,
      "citizen",
    ]);
    // R3: at the end every role, the winner and the seed.
    for (const v of [PUBLIC, player(ЕФИМ), GM]) {
      const end = at(v, EVENTS.length);
      expect(end.seats.map((s) => s.role)).toEqual([...ROLES]);
      expect(end.winner).toBe("town");
      expect(end.seed).toBe("семя");
      expect(end.results).toHaveLength(4);
      expect(end.pastVotes).toHaveLength(3);
    }
  });

  it("S2: read one event at a time or in pieces, each view equals the whole fold so far, and never changes after", () => {
    for (const viewer of VIEWERS)
      for (const shared of viewer.kind === "player" ? [false, true] : [false])
        for (const sizes of [[1], [3], [2, 5], [EVENTS.length]]) {
          const views = foldInPieces(viewer, sizes, shared);
          for (const { upTo, view, copy } of views) {
            expect(view, `${JSON.stringify(viewer)} ${sizes} ${upTo}`).toEqual(
              viewFor(EVENTS.slice(0, upTo), viewer, ROLES),
            );
            // Read again after the whole game was folded: as it was handed out.
            expect(view).toEqual(copy);
          }
        }
  });

  it("S2: the shared lists are the public fold's own; a player's fold keeps only its own", () => {
    const pub = new ViewFold(PUBLIC, ROLES);
    const fold = new ViewFold(player(ДАША), ROLES, pub);
    const list = EVENTS.slice(0, DAY1 + 6);
    pub.add(list);
    fold.add(list);
    const p = pub.view();
    const v = fold.view();
    expect(v.votes).toBe(p.votes);
    expect(v.results).toBe(p.results);
    expect(v.pastVotes).toBe(p.pastVotes);
    expect(v.votes).toHaveLength(2);
  });

  it("S2, G6: a view is the same object until an event its viewer may see is folded; unchanged seats keep theirs", () => {
    const pub = new ViewFold(PUBLIC, ROLES);
    const fold = new ViewFold(player(ЕФИМ), ROLES, pub);
    const upTo = EVENTS.findIndex((e) => e.type === "actionSubmitted");
    pub.add(EVENTS.slice(0, upTo));
    fold.add(EVENTS.slice(0, upTo));
    const first = fold.view();
    expect(fold.view()).toBe(first);
    // The night's submissions reach neither Ефим nor the public.
    pub.add(EVENTS.slice(0, DAY1));
    fold.add(EVENTS.slice(0, DAY1));
    expect(fold.view()).toBe(first);
    // The night's results reach both: a new view; Ефим died and Вика cannot vote, the others' seats are kept.
    pub.add(EVENTS.slice(0, DAY1 + 1));
    fold.add(EVENTS.slice(0, DAY1 + 1));
    const day = fold.view();
    expect(day).not.toBe(first);
    expect(first.phase).toEqual(N1);
    expect(day.seats.map((s, i) => s === first.seats[i])).toEqual([true, true, false, true, true, false]);
    expect(first.seats[ЕФИМ]!.alive).toBe(true);
  });

  it("G6: a fold refuses a shorter list, shared lists from a fold that is not the public's, or a public fold behind it", () => {
    const fold = new ViewFold(GM, ROLES);
    fold.add(EVENTS.slice(0, 5));
    expect(() => fold.add(EVENTS.slice(0, 4))).toThrow(/got shorter/);
    fold.add(EVENTS.slice(0, 5));
    expect(fold.view().seats).toHaveLength(6);
    expect(() => new ViewFold(player(0), ROLES, new ViewFold(GM, ROLES))).toThrow(/only from the public/);
    expect(() => new ViewFold(player(0), ROLES, new ViewFold(player(1), ROLES))).toThrow(
      /only from the public/,
    );
    const pub = new ViewFold(PUBLIC, ROLES);
    const mine = new ViewFold(player(ДАША), ROLES, pub);
    mine.add(EVENTS.slice(0, 3));
    expect(() => mine.view()).toThrow(/has not read the same events/);
    pub.add(EVENTS.slice(0, 3));
    expect(mine.view().me).toBeNull();
  });
});

describe("a match's events read as the match goes on (EventReader)", () => {
  it("G4, S1, S2, O1: the start's events, read once; a later match adds only what came after", () => {
    const start = startMatch({
      players: [
        { name: "Аня", role: "boss" },
        { name: "Вика", role: "sheriff" },
        { name: "Ефим", role: "citizen" },
      ],
      seed: null,
      options: DEFAULT_OPTIONS,
    });
    if (isRejection(start)) throw new Error(start.message);
    const reader = new EventReader();
    const first = reader.read(start);
    // The start, each seat's role (S1), the mafia's team of one and the sheriff's pair of one (S2).
    expect(first.map((e) => e.type)).toEqual([
      "gameStarted",
      "roleDealt",
      "roleDealt",
      "roleDealt",
      "teamRevealed",
      "teamRevealed",
    ]);
    expect(reader.read(start)).toHaveLength(6);
    const next = act(start, 1, { act: "shoot", target: 0 });
    if (isRejection(next)) throw new Error(next.message);
    expect(reader.read(next).map((e) => e.type)).toEqual([
      "gameStarted",
      "roleDealt",
      "roleDealt",
      "roleDealt",
      "teamRevealed",
      "teamRevealed",
      "actionSubmitted",
    ]);
    expect(reader.read(next).at(-1)).toMatchObject({
      seat: 1,
      slot: "pair",
      action: { act: "shoot", target: 0 },
    });
  });
});
