import { describe, expect, it } from "vitest";
import {
  act,
  endDay,
  endNight,
  exportReplay,
  startMatch,
  type Match,
  type RoleId,
  type Seat,
} from "../src/index.ts";
import { matchResult } from "../src/replay.ts";
import { vote } from "../src/match.ts";
import { referenceRolls } from "./reference-rng.ts";
import {
  CITIZENS,
  NAMES,
  STANDARD,
  allRed,
  block,
  bloodyKill,
  except,
  game,
  kill,
  namesOf,
  ok,
  quickKill,
  ring,
  serum,
  shoot,
  visit,
  without,
  expectFields,
} from "./scenario.ts";

/** 11 players: R1 still reveals at the start of this game's first phase. */
const L11 = without(STANDARD, ...CITIZENS, "Тролль");
/** 10 players: R1 reveals nothing. */
const L10 = without(STANDARD, ...CITIZENS, "Тролль", "Эльф");

describe("R1: roles are revealed while more than 10 are alive at the phase start", () => {
  it("R1: a night kill with 17 alive reveals the role", () => {
    const g = game(STANDARD).night({ Босс: kill("Доктор") });
    expectFields(g.lastNight, { died: ["Доктор"], revealed: { Доктор: "doctor" } });
  });

  it("R1: a night kill with 10 alive reveals nothing", () => {
    const g = game(L10).night({ Босс: kill("Прокурор") });
    expectFields(g.lastNight, { died: ["Прокурор"], revealed: {}, maniacVictims: [] });
  });

  it("R1: with 11 alive at the start, a double kill that leaves 9 reveals both roles", () => {
    const g = game(L11).night({ Босс: kill("Прокурор", "Девочка") }, { rolls: { bossExposed: false } });
    expectFields(g.lastNight, {
      died: ["Девочка", "Прокурор"],
      revealed: { Девочка: "girl", Прокурор: "prosecutor" },
    });
  });

  it("R1: every death of a night is revealed at 11 (mafia, maniac's quick kill, sheriff's shot)", () => {
    const g = game(L11).night({
      Босс: kill("Прокурор"),
      Маньяк: quickKill("Шахид"),
      Шериф: shoot("Громила"),
    });
    expectFields(g.lastNight, {
      died: ["Громила", "Прокурор", "Шахид"],
      revealed: { Громила: "thug", Прокурор: "prosecutor", Шахид: "shahid" },
    });
  });

  it("R1: a hanging with 17 alive at the day's start reveals the role", () => {
    const g = game(STANDARD)
      .night()
      .day(allRed(NAMES, "Мирный2", "Босс"));
    expectFields(g.lastDay, {
      hanged: "Мирный2",
      died: ["Мирный2"],
      revealed: { Мирный2: "citizen" },
    });
  });

  it("R1: a hanging with 10 alive at the day's start reveals nothing", () => {
    const g = game(L10)
      .night()
      .day(allRed(namesOf(L10), "Адвокат", "Шериф"));
    expectFields(g.lastDay, { hanged: "Адвокат", died: ["Адвокат"], revealed: {} });
  });

  it("R1: the threshold follows the alive count from 12 down: 12 and 11 reveal, 10 and 9 do not", () => {
    const L12 = without(STANDARD, "Мирный2", "Мирный3", "Мирный4", "Мирный5", "Тролль");
    const n1 = game(L12).night({ Босс: kill("Мирный1") });
    expectFields(n1.lastNight, { died: ["Мирный1"], revealed: { Мирный1: "citizen" } });
    const d1 = n1.day(allRed(except(namesOf(L12), "Мирный1"), "Прокурор", "Босс"));
    expect(d1.match.state.aliveAtStart).toBe(10);
    expectFields(d1.lastDay, { hanged: "Прокурор", revealed: { Прокурор: "prosecutor" } });
    const n2 = d1.night({ Босс: kill("Шахид") });
    expectFields(n2.lastNight, { died: ["Шахид"], revealed: {} });
    const d2 = n2.day(allRed(except(namesOf(L12), "Мирный1", "Прокурор", "Шахид"), "Эльф", "Шериф"));
    expectFields(d2.lastDay, { hanged: "Эльф", died: ["Эльф"], revealed: {} });
  });

  it("R1: a GM's modkill at night reveals the role with 11 alive, not with 10", () => {
    const at11 = game(L11).night({}, { gm: [{ modkill: "Шахид", reason: "мат" }] });
    expectFields(at11.lastNight, {
      died: ["Шахид"],
      modkilled: ["Шахид"],
      revealed: { Шахид: "shahid" },
    });
    const at10 = game(L10).night({}, { gm: [{ modkill: "Шахид", reason: "мат" }] });
    expectFields(at10.lastNight, { died: ["Шахид"], modkilled: ["Шахид"], revealed: {} });
  });

  it("R1: a GM's modkill by day reveals the role only when more than 10 were alive at the day's start", () => {
    const voters = except(namesOf(L11), "Прокурор");
    const at10 = game(L11)
      .night({ Босс: kill("Прокурор") })
      .day(allRed(voters, "Адвокат", "Шериф"), { gm: [{ modkill: "Шахид", reason: "оскорбления" }] });
    expectFields(at10.lastDay, {
      hanged: "Адвокат",
      modkilled: ["Шахид"],
      died: ["Адвокат", "Шахид"],
      revealed: {},
    });
    const at17 = game(STANDARD)
      .night()
      .day(allRed(NAMES, "Адвокат", "Шериф"), { gm: [{ modkill: "Шахид", reason: "оскорбления" }] });
    expectFields(at17.lastDay, {
      died: ["Адвокат", "Шахид"],
      revealed: { Адвокат: "lawyer", Шахид: "shahid" },
    });
  });

  it("R1: a strike modkill (P3) reveals the role with 17 alive", () => {
    // Мирный1 does not vote on days 1 and 2: the second strike is a modkill at the end of day 2. The
    // doctor's blue vote (3) keeps Мирный1's +2 from hanging him; the others vote blue in a ring.
    const calm = `Доктор+Мирный1 ${ring(except(NAMES, "Мирный1", "Доктор"))}`;
    const g = game(STANDARD).night().day(calm).night().day(calm);
    expectFields(g.lastDay, {
      modkilled: ["Мирный1"],
      died: ["Мирный1"],
      revealed: { Мирный1: "citizen" },
    });
  });
});

describe("R2: reveals regardless of the alive count", () => {
  it("R2: a maniac's bloody kill reveals the victim's role with 10 alive", () => {
    const g = game(L10).night({ Маньяк: bloodyKill("Прокурор") });
    expectFields(g.lastNight, {
      died: ["Прокурор"],
      revealed: { Прокурор: "prosecutor" },
      maniacVictims: ["Прокурор"],
    });
  });

  it("R2: a quick kill with 10 alive reveals nothing (only the bloody kill is an exception)", () => {
    const g = game(L10).night({ Маньяк: quickKill("Прокурор") });
    expectFields(g.lastNight, { died: ["Прокурор"], revealed: {}, maniacVictims: [] });
  });

  it("R2: the girl who dies with the bloody kill's victim is not revealed at 10 alive", () => {
    const g = game(L10).night({ Маньяк: bloodyKill("Прокурор"), Девочка: visit("Прокурор") });
    expectFields(g.lastNight, {
      died: ["Девочка", "Прокурор"],
      revealed: { Прокурор: "prosecutor" },
      maniacVictims: ["Прокурор"],
    });
  });

  it("R2: a bloody kill that is blocked reveals nothing even if the victim dies of the mafia", () => {
    const g = game(L10).night(
      { Маньяк: bloodyKill("Прокурор"), Громила: block("Маньяк"), Босс: kill("Прокурор") },
      { rolls: { thugSilence: false } },
    );
    expectFields(g.lastNight, { died: ["Прокурор"], revealed: {}, maniacVictims: [] });
  });

  it("R2: the doctor's serum reveals the target's role with 10 alive, and the target lives", () => {
    const g = game(L10).night({ Доктор: serum("Адвокат") }, { rolls: { doctorExposed: false } });
    expectFields(g.lastNight, { died: [], revealed: { Адвокат: "lawyer" }, exposed: {} });
  });

  it("R2: the serum reveals even a player who dies the same night, at 10 alive", () => {
    const g = game(L10).night(
      { Доктор: serum("Прокурор"), Босс: kill("Прокурор") },
      { rolls: { doctorExposed: false } },
    );
    expectFields(g.lastNight, { died: ["Прокурор"], revealed: { Прокурор: "prosecutor" } });
  });

  it("R2: with 17 alive the serum adds its target to the night's reveals", () => {
    const g = game(STANDARD).night(
      { Доктор: serum("Маньяк"), Босс: kill("Мирный1") },
      { rolls: { doctorExposed: false } },
    );
    expectFields(g.lastNight, {
      died: ["Мирный1"],
      revealed: { Маньяк: "maniac", Мирный1: "citizen" },
    });
  });
});

describe("R3: everything is known when the game ends", () => {
  const seed = "R3: партия до конца";
  const roles: RoleId[] = ["boss", "maniac", "sheriff", "girl", "citizen", "citizen"];
  const players = ["Аня", "Боря", "Вова", "Галя", "Дима", "Женя"].map((name) => ({ name }));

  function playToTheEnd(): { m: Match; seat: (r: RoleId, n?: number) => Seat } {
    let m = ok(startMatch({ players, seed, roles }));
    const start = m;
    const seat = (r: RoleId, n = 0): Seat =>
      start.state.players.flatMap((p, i) => (p.role === r ? [i] : []))[n]!;
    // Night 1: the sheriff shoots the boss, the boss kills a citizen, the girl blocks the maniac.
    m = ok(act(m, seat("sheriff"), { act: "shoot", target: seat("boss") }));
    m = ok(act(m, seat("boss"), { act: "mafia", kill: [seat("citizen", 1)], intimidate: [] }));
    m = ok(act(m, seat("maniac"), { act: "quickKill", target: seat("citizen") }));
    m = ok(act(m, seat("girl"), { act: "visit", target: seat("maniac") }));
    m = ok(endNight(m, { rolls: {}, council: null }));
    // Day 1: the town hangs the maniac.
    for (const r of ["sheriff", "girl", "citizen"] as const)
      m = ok(vote(m, seat(r), { color: "red", target: seat("maniac"), early: false }));
    if (!m.state.day.silenced.includes(seat("maniac")))
      m = ok(vote(m, seat("maniac"), { color: "red", target: seat("girl"), early: false }));
    m = ok(endDay(m));
    return { m, seat };
  }

  it("R3: at the end the log names every player's role, as dealt from the seed", () => {
    const { m } = playToTheEnd();
    expect(m.state.winner).toBe("town");
    expect(matchResult(m).winner).toBe("town");
    const log = exportReplay(m);
    expect(log.players).toEqual(m.state.players.map((p) => ({ name: p.name, role: p.role })));
    expect([...log.players.map((p) => p.role)].sort()).toEqual([...roles].sort());
    expect(log.seed).toBe(seed);
  });

  it("R3: at the end the log holds every night action and every vote", () => {
    const { m, seat } = playToTheEnd();
    const name = (s: Seat): string => m.state.players[s]!.name;
    const log = exportReplay(m);
    expect(log.phases[0]).toMatchObject({
      night: 1,
      actions: [
        { by: name(seat("sheriff")), act: "shoot", target: name(seat("boss")) },
        { by: name(seat("boss")), act: "mafia", kill: [name(seat("citizen", 1))] },
        { by: name(seat("maniac")), act: "quickKill", target: name(seat("citizen")) },
        { by: name(seat("girl")), act: "visit", target: name(seat("maniac")) },
      ],
    });
    const votes = (log.phases[1] as { votes: unknown[] }).votes;
    expect(votes.slice(0, 3)).toEqual([
      { by: name(seat("sheriff")), red: name(seat("maniac")) },
      { by: name(seat("girl")), red: name(seat("maniac")) },
      { by: name(seat("citizen")), red: name(seat("maniac")) },
    ]);
  });

  it("R3: every random roll is recorded in the night's outcome, drawn from the seed", () => {
    const { m } = playToTheEnd();
    // The first draw of the night stream, worked out from rng.ts's published description (reference-rng.ts).
    const [drawn] = referenceRolls(`rolls:${seed}`, [0.5]);
    expect(m.outcomes[0]!.outcome.phase).toEqual({ kind: "night", number: 1 });
    const night = m.outcomes[0]!.outcome as { rolls: unknown };
    expect(night.rolls).toEqual([{ name: "girlSilence", value: drawn, fixed: false }]);
  });

  it("R3: NightOutcome.rolls records fixed rolls as fixed and drawn rolls as drawn, in O8 order", () => {
    let m = ok(
      startMatch({
        players: [
          { name: "Громила", role: "thug" },
          { name: "Девочка", role: "girl" },
          { name: "Доктор", role: "doctor" },
          { name: "Мирный1", role: "citizen" },
          { name: "Мирный2", role: "citizen" },
          { name: "Мирный3", role: "citizen" },
        ],
        seed: "R3: две кости",
      }),
    );
    m = ok(act(m, 1, { act: "visit", target: 3 }));
    m = ok(act(m, 0, { act: "block", target: 2 }));
    m = ok(act(m, 2, { act: "pass" }));
    m = ok(endNight(m, { rolls: { girlSilence: true }, council: null }));
    const [drawn] = referenceRolls("rolls:R3: две кости", [0.5]); // a fixed roll takes no draw
    const night = m.outcomes[0]!.outcome as { rolls: unknown; silenced: unknown };
    expect(night.rolls).toEqual([
      { name: "girlSilence", value: true, fixed: true },
      { name: "thugSilence", value: drawn, fixed: false },
    ]);
    expect(night.silenced).toEqual(drawn ? [2, 3] : [3]);
  });
});
