// Secrets (STYLE.md): each viewer's view is folded only from the events that viewer may see. The unit
// tests pin the audiences; the property tests check whole random games.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AUDIENCE, gameEvents, maySee } from "../src/events.ts";
import {
  act,
  exportReplay,
  replayMatch,
  startMatch,
  teamOf,
  type GameEvent,
  type GameView,
  type Match,
  type ReplayFile,
  type RoleId,
  type Seat,
  type Viewer,
} from "../src/index.ts";
import { vote } from "../src/match.ts";
import { viewFor } from "../src/view.ts";
import { playRandomGame } from "../src/random-play.ts";
import { STANDARD, check, game, kill, ok, playersOf, question } from "./scenario.ts";

const player = (seat: Seat): Viewer => ({ kind: "player", seat });
const rolesOf = (m: Match): RoleId[] => m.setup.players.map((p) => p.role);
const seatOf = (m: Match, name: string): Seat => m.setup.players.findIndex((p) => p.name === name);
const view = (m: Match, viewer: Viewer): GameView => viewFor(gameEvents(m), viewer, rolesOf(m));
const viewOf = (m: Match, name: string): GameView => view(m, player(seatOf(m, name)));
/**
 * Who may see a raw event, by name, then "public" and "GM". The folded view cannot tell: it ignores the
 * GM's working and other players' strikes whoever the audience lets through.
 */
const whoSees = (m: Match, e: GameEvent): string[] => [
  ...m.state.players.flatMap((p, seat) => (maySee(e, player(seat), rolesOf(m)) ? [p.name] : [])),
  ...(maySee(e, { kind: "public" }, rolesOf(m)) ? ["public"] : []),
  ...(maySee(e, { kind: "gm" }, rolesOf(m)) ? ["GM"] : []),
];
const knownRoles = (v: GameView): Record<string, RoleId> =>
  Object.fromEntries(v.seats.flatMap((s) => (s.role === null ? [] : [[s.name, s.role]])));

describe("who sees what", () => {
  it("S2: a citizen knows only their own role; the mafia know the mafia; the pair know each other", () => {
    const m = game(STANDARD).match;
    expect(knownRoles(viewOf(m, "Мирный1"))).toEqual({ Мирный1: "citizen" });
    expect(knownRoles(viewOf(m, "Доктор"))).toEqual({ Доктор: "doctor" });
    expect(knownRoles(viewOf(m, "Тролль"))).toEqual({
      Босс: "boss",
      Тролль: "troll",
      Эльф: "elf",
      Адвокат: "lawyer",
      Громила: "thug",
    });
    expect(knownRoles(viewOf(m, "Сержант"))).toEqual({ Шериф: "sheriff", Сержант: "sergeant" });
    expect(knownRoles(view(m, { kind: "public" }))).toEqual({});
    expect(Object.keys(knownRoles(view(m, { kind: "gm" })))).toHaveLength(17);
  });

  it("A2: the check's result reaches the sheriff and the sergeant and nobody else", () => {
    const m = game(STANDARD).night({ Сержант: check("Маньяк") }).match;
    const result = [
      {
        phase: { kind: "night", number: 1 },
        check: { target: seatOf(m, "Маньяк"), result: "not mafia" },
        council: null,
      },
    ];
    expect(viewOf(m, "Шериф").privateResults).toEqual(result);
    expect(viewOf(m, "Сержант").privateResults).toEqual(result);
    for (const name of ["Маньяк", "Босс", "Доктор", "Мирный1"])
      expect(viewOf(m, name).privateResults).toEqual([]);
    expect(view(m, { kind: "public" }).privateResults).toEqual([]);
  });

  it("A2: the council's answer reaches every mafioso, and the question no one else", () => {
    const m = game(STANDARD).night({ Босс: question("МАРКЕР-СОВЕТ: шериф жив?") }, { council: "yes" }).match;
    for (const name of ["Босс", "Тролль", "Громила"])
      expect(viewOf(m, name).privateResults.map((r) => r.council)).toEqual([
        { question: "МАРКЕР-СОВЕТ: шериф жив?", answer: "yes" },
      ]);
    for (const name of ["Шериф", "Маньяк", "Мирный2"])
      expect(JSON.stringify(viewOf(m, name))).not.toContain("МАРКЕР-СОВЕТ");
  });

  it("O1: a submission is seen by its sender, and a shared slot by the sender's team only", () => {
    let m = ok(startMatch({ players: playersOf(STANDARD), seed: null }));
    const at = (name: string): Seat => seatOf(m, name);
    m = ok(act(m, at("Девочка"), { act: "visit", target: at("Мирный1") }));
    m = ok(act(m, at("Тролль"), { act: "mafia", kill: [at("Мирный2")], intimidate: [] }));
    m = ok(act(m, at("Шериф"), { act: "shoot", target: at("Маньяк") }));
    m = ok(act(m, at("Сержант"), { act: "check", target: at("Босс") })); // replaces the shot (T1)
    expect(viewOf(m, "Девочка").submissions).toEqual([
      { seat: at("Девочка"), slot: "own", action: { act: "visit", target: at("Мирный1") } },
    ]);
    const mafia = [
      { seat: at("Тролль"), slot: "mafia", action: { act: "mafia", kill: [at("Мирный2")], intimidate: [] } },
    ];
    expect(viewOf(m, "Босс").submissions).toEqual(mafia);
    expect(viewOf(m, "Громила").submissions).toEqual(mafia);
    const pair = [{ seat: at("Сержант"), slot: "pair", action: { act: "check", target: at("Босс") } }];
    expect(viewOf(m, "Шериф").submissions).toEqual(pair);
    expect(viewOf(m, "Сержант").submissions).toEqual(pair);
    for (const name of ["Мирный1", "Мирный2", "Маньяк", "Доктор"])
      expect(viewOf(m, name).submissions).toEqual([]);
    expect(view(m, { kind: "public" }).submissions).toEqual([]);
  });

  it("V4, M3: the public views hold no weights, scores, penalties or uncounted votes", () => {
    const n1 = game(STANDARD).night({ Босс: kill("Мирный1", "Мирный2") }, { rolls: { bossExposed: false } });
    const m = n1.day("Босс>Мирный3 Доктор+Мирный4 Прокурор>Мирный5").match;
    const events = gameEvents(m);
    const detail = events.find((e) => e.type === "dayDetail");
    expect(detail).toMatchObject({ uncounted: [seatOf(m, "Босс")] }); // M3
    expect(whoSees(m, detail!)).toEqual(["GM"]);
    for (const name of ["Мирный3", "Босс", "Доктор"]) {
      const text = JSON.stringify(viewOf(m, name));
      expect(text).not.toMatch(/score|uncounted|penalized|weight/);
    }
    // M3: the boss's vote is shown in the thread like any other while the day runs
    const during = ok(
      vote(n1.match, seatOf(m, "Босс"), { color: "red", target: seatOf(m, "Мирный3"), early: false }),
    );
    expect(viewOf(during, "Мирный3").votes).toEqual([
      { seat: seatOf(m, "Босс"), color: "red", target: seatOf(m, "Мирный3"), early: false },
    ]);
  });

  it("V4: each closed day's last votes stay in every view, shown as 1, tagged with their day", () => {
    const n1 = game(STANDARD).night({ Босс: kill("Мирный1", "Мирный2") }, { rolls: { bossExposed: false } });
    const m = n1.day("Босс>Мирный3 Доктор+Мирный4 Прокурор>Мирный5").match;
    const seat = (name: string) => seatOf(m, name);
    const expected = [
      { seat: seat("Босс"), color: "red", target: seat("Мирный3"), early: false, day: 1 },
      { seat: seat("Доктор"), color: "blue", target: seat("Мирный4"), early: false, day: 1 },
      { seat: seat("Прокурор"), color: "red", target: seat("Мирный5"), early: false, day: 1 },
    ];
    for (const v of [viewOf(m, "Мирный3"), viewOf(m, "Босс"), view(m, { kind: "public" })]) {
      expect([...v.pastVotes].sort((a, b) => a.seat - b.seat)).toEqual(
        expected.sort((a, b) => a.seat - b.seat),
      );
      expect(v.votes).toEqual([]);
    }
  });

  it("P2: a strike for a missed night action is told to that player only", () => {
    const m = game(STANDARD).night({}, { autoPass: false }).match;
    expect(viewOf(m, "Доктор").me).toMatchObject({ role: "doctor", strikes: 1 });
    expect(viewOf(m, "Мирный1").me).toMatchObject({ role: "citizen", strikes: 0 });
    const strikes = gameEvents(m).filter((e) => e.type === "strike");
    expect(strikes.map((e) => m.state.players[e.seat]!.name).sort()).toEqual(
      [
        "Босс",
        "Шериф",
        "Сержант",
        "Доктор",
        "Девочка",
        "Маньяк",
        "Адвокат",
        "Громила",
        "Прокурор",
        "Шахид",
      ].sort(),
    );
    for (const e of strikes) expect(whoSees(m, e)).toEqual([m.state.players[e.seat]!.name, "GM"]);
  });

  it("R3: when the game ends, every role and the seed are in every view", () => {
    const m = game("Аня=boss Катя=citizen Оля=citizen", { seed: "R3" }).night({ Аня: kill("Катя") }).match;
    expect(m.state.winner).toBe("mafia");
    expect(knownRoles(viewOf(m, "Оля"))).toEqual({ Аня: "boss", Катя: "citizen", Оля: "citizen" });
    expect(viewOf(m, "Оля").seed).toBe("R3");
    expect(viewOf(m, "Оля").winner).toBe("mafia");
  });

  it("G6: every event type has an audience, and only the GM sees the GM's working", () => {
    expect(Object.keys(AUDIENCE).sort()).toEqual(
      [
        "actionSubmitted",
        "checkResult",
        "councilAnswer",
        "dayDetail",
        "dayResults",
        "gameEnded",
        "gameStarted",
        "modkillOrdered",
        "nightDetail",
        "nightResults",
        "replaced",
        "roleDealt",
        "strike",
        "teamRevealed",
        "voteCast",
      ].sort(),
    );
    const m = game(STANDARD)
      .night({ Босс: kill("Мирный1") }, { gm: [{ modkill: "Мирный2", reason: "МАРКЕР-причина" }] })
      .day("Босс>Мирный3").match;
    const gmOnly = gameEvents(m).filter(
      (e) => e.type === "nightDetail" || e.type === "dayDetail" || e.type === "modkillOrdered",
    );
    expect(gmOnly.map((e) => e.type).sort()).toEqual(["dayDetail", "modkillOrdered", "nightDetail"]);
    for (const e of gmOnly) expect(whoSees(m, e)).toEqual(["GM"]);
    // F2: the reason's marker is in no raw stream but the GM's
    const viewers: Viewer[] = [...m.state.players.map((_, s) => player(s)), { kind: "public" }];
    for (const v of viewers)
      expect(JSON.stringify(gameEvents(m).filter((e) => maySee(e, v, rolesOf(m))))).not.toContain("МАРКЕР");
    expect(JSON.stringify(gameEvents(m))).toContain("МАРКЕР-причина");
    expect(viewOf(m, "Босс").results.every((r) => !("attacks" in r))).toBe(true);
  });
});

/** The roles a viewer may know at this point, worked out from the rules rather than from the views. */
function allowed(m: Match, events: readonly GameEvent[], seat: Seat): Set<Seat> {
  const roles = rolesOf(m);
  const out = new Set<Seat>([seat]);
  const team = teamOf(roles[seat]!);
  roles.forEach((r, s) => {
    if (team !== null && teamOf(r) === team) out.add(s); // S2
  });
  let alive = roles.length;
  for (const e of events) {
    if (e.type === "nightResults" || e.type === "dayResults") {
      // R1 from the alive count at the phase's start, and R2's exceptions, never from the event's `revealed`
      const bloody = e.type === "nightResults" ? e.bloodyVictims : [];
      for (const s of e.died) if (alive > 10 || bloody.includes(s)) out.add(s);
      if (e.type === "nightResults" && e.serum !== null) out.add(e.serum); // R2, T3a
      alive -= e.died.length;
    }
    if (e.type === "gameEnded") roles.forEach((_, s) => out.add(s)); // R3
  }
  return out;
}

/** The events of a match cut after each phase, so that views are checked at every point of the game. */
function prefixes(events: readonly GameEvent[]): GameEvent[][] {
  const cuts: GameEvent[][] = [];
  events.forEach((e, i) => {
    if (e.type === "nightResults" || e.type === "dayResults" || i === events.length - 1)
      cuts.push(events.slice(0, i + 1));
  });
  return cuts;
}

describe("no leaks in random games", () => {
  it("R1: at every point of a random game, a player's view holds exactly the roles the rules let them know", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (seed) => {
        const m = playRandomGame(seed);
        const roles = rolesOf(m);
        for (const events of prefixes(gameEvents(m)))
          for (let seat = 0; seat < roles.length; seat++) {
            const v = viewFor(events, player(seat), roles);
            const may = allowed(m, events, seat);
            for (const s of v.seats)
              expect(s.role === null ? null : s.seat).toBe(may.has(s.seat) ? s.seat : null);
          }
      }),
      { seed: 7, numRuns: 100 },
    );
  });

  // The swapped game keeps the first night and day of a random game, with two players' roles and night
  // submissions exchanged; where that leaves the public history as it was, no one else may notice.
  it("S2: swapping the hidden roles of two players with the same public history leaves every other view unchanged", () => {
    const SWAPPABLE: readonly RoleId[] = ["citizen", "doctor", "girl", "prosecutor", "shahid", "maniac"];
    let compared = 0;
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.nat(), fc.nat(), (seed, x, y) => {
        const whole = exportReplay(playRandomGame(seed));
        const file: ReplayFile = { ...whole, phases: whole.phases.slice(0, 2) };
        const m = replayMatch(file);
        const candidates = file.players.flatMap((p, s) => (SWAPPABLE.includes(p.role as RoleId) ? [s] : []));
        const a = candidates[x % candidates.length]!;
        const b = candidates[y % candidates.length]!;
        fc.pre(a !== b && file.players[a]!.role !== file.players[b]!.role);
        const swapped = swap(file, a, b);
        let other: Match;
        try {
          other = replayMatch(swapped);
        } catch {
          return; // the swap made the log illegal (e.g. a repeat limit): not the same public history
        }
        const before = gameEvents(m).filter((e) => e.type !== "gameEnded");
        const after = gameEvents(other).filter((e) => e.type !== "gameEnded");
        const pub = (events: GameEvent[]): string => JSON.stringify(viewFor(events, { kind: "public" }, []));
        fc.pre(pub(before) === pub(after));
        compared++;
        for (let seat = 0; seat < file.players.length; seat++) {
          if (seat === a || seat === b) continue;
          expect(viewFor(after, player(seat), rolesOf(other))).toEqual(
            viewFor(before, player(seat), rolesOf(m)),
          );
        }
      }),
      { seed: 11, numRuns: 100 },
    );
    expect(compared).toBeGreaterThan(5);
  });
});

/** The same log with the roles of seats a and b swapped, and their night submissions with them. */
function swap(file: ReplayFile, a: Seat, b: Seat): ReplayFile {
  const na = file.players[a]!.name;
  const nb = file.players[b]!.name;
  const other = (n: string): string => (n === na ? nb : n === nb ? na : n);
  return {
    ...file,
    players: file.players.map((p, s) =>
      s === a ? { ...p, role: file.players[b]!.role } : s === b ? { ...p, role: file.players[a]!.role } : p,
    ),
    phases: file.phases.map((ph) =>
      "night" in ph
        ? { ...ph, actions: (ph.actions ?? []).map((act) => ({ ...act, by: other(act.by) })) }
        : ph,
    ),
  };
}
