import { describe, expect, it } from "vitest";
import {
  DEFAULT_OPTIONS,
  DEFAULT_ROLES,
  channelMembers,
  channelsFor,
  isRejection,
  type Channel,
  type GameSetup,
  type GameState,
  type Rejection,
  type RoleId,
} from "../src/index.ts";
import { ROLES } from "../src/roles.ts";
import { createGame } from "../src/game.ts";
import {
  NAMES,
  STANDARD,
  except,
  game,
  kill,
  playersOf,
  quickKill,
  replayError,
  ring,
  shoot,
  expectFields,
} from "./scenario.ts";

const seated = (names: readonly string[]): GameSetup["players"] => names.map((name) => ({ name }));

function created(setup: GameSetup): GameState {
  const s = createGame(setup);
  if (isRejection(s)) throw new Error(`unexpected refusal: ${s.message}`);
  return s;
}

function refused(setup: GameSetup): Rejection {
  const s = createGame(setup);
  if (!isRejection(s)) throw new Error("expected the setup to be refused");
  return s;
}

const rolesOf = (s: GameState): RoleId[] => s.players.map((p) => p.role);
const sorted = (roles: readonly RoleId[]): RoleId[] => [...roles].sort();

const file = (players: { name: string; role: string }[]): unknown => ({
  format: "forum-mafia/replay@1",
  players,
  phases: [],
});

describe("S1: the deal", () => {
  it("S1: a deal from the seed is the same every time for the same seed", () => {
    const a = created({ players: seated(NAMES), seed: "партия-42" });
    const b = created({ players: seated(NAMES), seed: "партия-42" });
    expect(rolesOf(a)).toEqual(rolesOf(b));
  });

  it("S1: different seeds give different deals", () => {
    const deals = ["a", "b", "c", "d"].map((seed) => rolesOf(created({ players: seated(NAMES), seed })));
    const distinct = new Set(deals.map((d) => d.join(",")));
    expect(distinct.size).toBe(4);
  });

  it("S1: the seed actually shuffles (no deal keeps the table's order for every seed)", () => {
    const deal = rolesOf(created({ players: seated(NAMES), seed: "a" }));
    expect(deal).not.toEqual([...DEFAULT_ROLES]);
  });

  it("S1: the dealt roles are exactly the default table (DEFAULT_ROLES), as a multiset", () => {
    for (const seed of ["a", "b", "seed with spaces", "ёжик"]) {
      const deal = rolesOf(created({ players: seated(NAMES), seed }));
      expect(sorted(deal)).toEqual(sorted(DEFAULT_ROLES));
    }
  });

  it("S1: a deal by hand is kept as given, seat by seat", () => {
    const hand: { name: string; role: RoleId }[] = [
      { name: "Аня", role: "citizen" },
      { name: "Боря", role: "doctor" },
      { name: "Вова", role: "boss" },
      { name: "Галя", role: "citizen" },
      { name: "Дима", role: "sheriff" },
    ];
    const withSeed = created({ players: hand, seed: "ignored for the deal" });
    const noSeed = created({ players: hand, seed: null });
    expect(rolesOf(withSeed)).toEqual(["citizen", "doctor", "boss", "citizen", "sheriff"]);
    expect(rolesOf(noSeed)).toEqual(["citizen", "doctor", "boss", "citizen", "sheriff"]);
    expect(withSeed.players.map((p) => p.name)).toEqual(["Аня", "Боря", "Вова", "Галя", "Дима"]);
  });

  it("S1: a deal from the seed needs a seed", () => {
    expect(refused({ players: seated(NAMES), seed: null })).toMatchObject({
      code: "setup/no-seed",
      clause: "S1",
    });
  });

  it("S1: a deal is either wholly by hand or wholly from the seed", () => {
    const r = refused({
      players: [{ name: "Аня", role: "boss" }, { name: "Боря" }, { name: "Вова", role: "citizen" }],
      seed: "x",
    });
    expect(r).toMatchObject({ code: "setup/partial-deal", clause: "S1" });
  });

  it("S1: a new game starts with every player alive and without strikes", () => {
    const s = created({ players: seated(NAMES), seed: "a" });
    expect(s.players.map((p) => [p.alive, p.voteStrikes, p.nightStrikes])).toEqual(
      NAMES.map(() => [true, 0, 0]),
    );
    expect(s.aliveAtStart).toBe(17);
  });
});

describe("S2, G6, G8: channels", () => {
  const hand = created({ players: playersOf(STANDARD), seed: null });
  const seat = (s: GameState, name: string): number => s.players.findIndex((p) => p.name === name);
  const members = (s: GameState, c: Channel): string[] => channelMembers(s, c).map((i) => s.players[i]!.name);

  it("S2: the mafia share one chat: boss, troll, elf, lawyer and thug, and nobody else", () => {
    expect(members(hand, "mafia")).toEqual(["Босс", "Тролль", "Эльф", "Адвокат", "Громила"]);
    expect(channelsFor(hand, seat(hand, "Громила"))).toEqual([{ channel: "mafia", canPost: true }]);
  });

  it("S2: the sheriff and the sergeant share one chat, and nobody else is in it", () => {
    expect(members(hand, "pair")).toEqual(["Шериф", "Сержант"]);
    expect(channelsFor(hand, seat(hand, "Шериф"))).toEqual([{ channel: "pair", canPost: true }]);
    expect(channelsFor(hand, seat(hand, "Сержант"))).toEqual([{ channel: "pair", canPost: true }]);
  });

  it("G6: every other living player has no private channel at all", () => {
    for (const name of ["Маньяк", "Доктор", "Девочка", "Прокурор", "Шахид", "Мирный1", "Мирный5"])
      expect(channelsFor(hand, seat(hand, name))).toEqual([]);
    expect(members(hand, "spectators")).toEqual([]);
  });

  it("G6: nobody is in two channels, so no channel joins players of different factions", () => {
    for (let i = 0; i < hand.players.length; i++) expect(channelsFor(hand, i).length).toBeLessThanOrEqual(1);
    for (const c of ["mafia", "pair"] as const) {
      const factions = new Set(channelMembers(hand, c).map((i) => ROLES[hand.players[i]!.role].faction));
      expect(factions.size).toBe(1);
    }
  });

  // Night 1: the mafia kill Мирный1, the maniac kills Громила, the sheriff shoots the maniac.
  // Night 2: the mafia kill Сержант.
  const later = game(STANDARD)
    .night({ Босс: kill("Мирный1"), Маньяк: quickKill("Громила"), Шериф: shoot("Маньяк") })
    .day(ring(except(NAMES, "Мирный1", "Громила", "Маньяк")))
    .night({ Босс: kill("Сержант") }).match.state;

  it("G8: the dead outside a faction chat (a citizen, the maniac) are in the spectators' room", () => {
    expect(later.players.filter((p) => !p.alive).map((p) => p.name)).toEqual([
      "Громила",
      "Маньяк",
      "Сержант",
      "Мирный1",
    ]);
    expect(members(later, "spectators")).toEqual(["Маньяк", "Мирный1"]);
    expect(channelsFor(later, seat(later, "Маньяк"))).toEqual([{ channel: "spectators", canPost: true }]);
    expect(channelsFor(later, seat(later, "Мирный1"))).toEqual([{ channel: "spectators", canPost: true }]);
  });

  it("G8: a dead mafioso stays in the mafia chat (read only) and never enters the spectators' room", () => {
    expect(channelsFor(later, seat(later, "Громила"))).toEqual([{ channel: "mafia", canPost: false }]);
    expect(members(later, "mafia")).toEqual(["Босс", "Тролль", "Эльф", "Адвокат", "Громила"]);
  });

  it("G8: a dead sergeant stays in the pair's chat (read only) and never enters the spectators' room", () => {
    expect(channelsFor(later, seat(later, "Сержант"))).toEqual([{ channel: "pair", canPost: false }]);
    expect(channelsFor(later, seat(later, "Шериф"))).toEqual([{ channel: "pair", canPost: true }]);
    expect(members(later, "pair")).toEqual(["Шериф", "Сержант"]);
  });

  it("G8: every channel holds one faction only, the dead included", () => {
    const factionsIn = (c: Channel): string[] => [
      ...new Set(
        channelMembers(later, c).map((i) => {
          const role = later.players[i]!.role;
          return role === "sheriff" || role === "sergeant" ? "pair" : ROLES[role].faction;
        }),
      ),
    ];
    expect(factionsIn("mafia")).toEqual(["mafia"]);
    expect(factionsIn("pair")).toEqual(["pair"]);
    // The maniac and town roles other than the pair are admitted together (G8).
    expect(factionsIn("spectators").sort()).toEqual(["maniac", "town"]);
  });
});

describe("S3: configuration", () => {
  it("S3: the default table is exactly RULES.md §1: 17 roles, five citizens, each other role once", () => {
    expect(DEFAULT_ROLES).toEqual([
      "boss",
      "troll",
      "elf",
      "lawyer",
      "thug",
      "maniac",
      "sheriff",
      "sergeant",
      "doctor",
      "girl",
      "prosecutor",
      "shahid",
      "citizen",
      "citizen",
      "citizen",
      "citizen",
      "citizen",
    ]);
    const factions = Object.fromEntries(DEFAULT_ROLES.map((r) => [r, ROLES[r].faction]));
    expect(factions).toEqual({
      boss: "mafia",
      troll: "mafia",
      elf: "mafia",
      lawyer: "mafia",
      thug: "mafia",
      maniac: "maniac",
      sheriff: "town",
      sergeant: "town",
      doctor: "town",
      girl: "town",
      prosecutor: "town",
      shahid: "town",
      citizen: "town",
    });
  });

  it("S3: the default options are the documented [reading] defaults; a game may set them", () => {
    // RULES.md S3: the [reading] defaults, and each threshold's number as the clauses name it.
    const defaults = {
      earlyClose: "majority",
      strikes: "shared",
      revealAbove: 10,
      threeIntimidationsFrom: 10,
      serumRepeatBelow: 15,
      lapseAt: 3,
      earlyFromDay: 3,
    };
    expect(DEFAULT_OPTIONS).toEqual(defaults);
    expect(created({ players: seated(NAMES), seed: "a" }).options).toEqual(defaults);
    const custom = created({
      players: seated(NAMES),
      seed: "a",
      options: { strikes: "separate", lapseAt: 4, earlyFromDay: 1 },
    });
    expect(custom.options).toEqual({ ...defaults, strikes: "separate", lapseAt: 4, earlyFromDay: 1 });
  });

  it("S3: a custom role list is dealt from the seed to a custom number of players", () => {
    const roles: RoleId[] = ["boss", "maniac", "doctor", "sheriff", "citizen", "citizen", "citizen"];
    const names = ["Аня", "Боря", "Вова", "Галя", "Дима", "Женя", "Зоя"];
    const s = created({ players: seated(names), seed: "семь", roles });
    expect(s.players.length).toBe(7);
    expect(sorted(rolesOf(s))).toEqual(sorted(roles));
    expect(s.aliveAtStart).toBe(7);
  });

  it("S3: a custom lineup dealt by hand plays (six players, no girl, no maniac)", () => {
    const g = game("Вася=boss Петя=doctor Коля=sheriff Оля=citizen Маша=citizen Лена=citizen").night(
      { Вася: kill("Оля") },
      {},
    );
    expectFields(g.lastNight, { died: ["Оля"], revealed: {}, winner: null });
  });

  it("S3: the role list must match the number of players", () => {
    expect(refused({ players: seated(["Аня", "Боря", "Вова"]), seed: "x" })).toMatchObject({
      code: "setup/role-count",
      clause: "S3",
    });
    expect(
      refused({ players: seated(["Аня", "Боря"]), seed: "x", roles: ["boss", "doctor", "citizen"] }),
    ).toMatchObject({ code: "setup/role-count", clause: "S3" });
  });

  it("S3: a role other than citizen may appear only once (hand deal and seeded deal)", () => {
    const hand = refused({
      players: [
        { name: "Аня", role: "doctor" },
        { name: "Боря", role: "boss" },
        { name: "Вова", role: "doctor" },
      ],
      seed: null,
    });
    expect(hand).toMatchObject({ code: "setup/duplicate-role", clause: "S3" });
    const seeded = refused({
      players: seated(["Аня", "Боря", "Вова"]),
      seed: "x",
      roles: ["boss", "boss", "citizen"],
    });
    expect(seeded).toMatchObject({ code: "setup/duplicate-role", clause: "S3" });
  });

  it("S3: many citizens are allowed", () => {
    const s = created({
      players: [
        { name: "Аня", role: "boss" },
        { name: "Боря", role: "citizen" },
        { name: "Вова", role: "citizen" },
        { name: "Галя", role: "citizen" },
      ],
      seed: null,
    });
    expect(rolesOf(s)).toEqual(["boss", "citizen", "citizen", "citizen"]);
  });

  it("S3: a duplicate name is refused, compared case-insensitively with ё = е", () => {
    for (const [a, b] of [
      ["Петя", "петя"],
      ["Алёна", "Алена"],
      ["ЁЖИК", "ежик"],
      ["Same", "SAME"],
      ["Йорик", "И\u0306орик"], // a decomposed й (и + combining breve) is the same name
      ["Zoë", "ZOE\u0308"],
    ] as const) {
      const r = refused({
        players: [
          { name: a, role: "boss" },
          { name: b, role: "citizen" },
        ],
        seed: null,
      });
      expect(r).toMatchObject({ code: "setup/duplicate-name", clause: "S3" });
    }
  });

  it("S3: an empty name and an empty table are refused", () => {
    expect(refused({ players: [{ name: " ", role: "boss" }], seed: null })).toMatchObject({
      code: "setup/empty-name",
      clause: "S3",
    });
    expect(refused({ players: [], seed: "x" })).toMatchObject({ code: "setup/no-players", clause: "S3" });
  });

  it("S3: a replay file's names' faults start with file:, its role list's with setup: (REPLAY.md), each naming the clause", () => {
    expect(
      replayError(
        file([
          { name: "Алёна", role: "boss" },
          { name: "алена", role: "citizen" },
        ]),
      ),
    ).toBe("file: the name алена is taken (S3)");
    expect(
      replayError(
        file([
          { name: "Аня", role: "doctor" },
          { name: "Боря", role: "doctor" },
        ]),
      ),
    ).toBe("setup: the role doctor appears more than once (S3)");
    expect(replayError(file([{ name: "Аня", role: "werewolf" }]))).toBe(
      'file: Аня has an unknown role "werewolf" (S3)',
    );
  });

  it("S3: a malformed replay file or a wrong format is a file: error", () => {
    expect(replayError([])).toMatch(/^file: /);
    expect(replayError({ format: "forum-mafia/replay@2", players: [], phases: [] })).toMatch(
      /^file: unknown format "forum-mafia\/replay@2"/,
    );
    expect(replayError({ format: "forum-mafia/replay@1", players: [{ name: "Аня", role: "boss" }] })).toMatch(
      /^file: /,
    );
    expect(
      replayError({
        format: "forum-mafia/replay@1",
        options: { earlyClose: "never" },
        players: [{ name: "Аня", role: "boss" }],
        phases: [],
      }),
    ).toMatch(/^file: /);
  });
});
