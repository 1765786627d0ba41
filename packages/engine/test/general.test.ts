import { describe, expect, it } from "vitest";
import {
  act,
  closeNightIntake,
  endDay,
  endNight,
  exportReplay,
  isRejection,
  modkill,
  reopenMafia,
  replace,
  replayMatch,
  runReplay,
  startMatch,
  type Match,
  type NightAction,
  type NightDecisions,
  type NightOutcome,
  type Rejection,
  type RoleId,
  type Seat,
} from "../src/index.ts";
import { matchResult } from "../src/replay.ts";
import { mayVote } from "../src/vote.ts";
import { seatByName, vote } from "../src/match.ts";
import {
  NAMES,
  STANDARD,
  except,
  game,
  kill,
  namesOf,
  ok,
  playersOf,
  quickKill,
  ring,
  shoot,
  without,
  expectFields,
} from "./scenario.ts";

function refused<T extends object>(x: T | Rejection): Rejection {
  if (!isRejection(x)) throw new Error("expected a refusal");
  return x;
}

/** A match of the standard table dealt by hand, without a seed. */
function standardMatch(lineup = STANDARD): Match {
  return ok(startMatch({ players: playersOf(lineup), seed: null }));
}
const at = (m: Match, name: string): Seat => {
  const s = seatByName(m.state, name);
  if (s === null) throw new Error(`no player ${name}`);
  return s;
};
const byRole = (m: Match, role: RoleId, nth = 0): Seat => {
  const seats = m.state.players.flatMap((p, i) => (p.role === role ? [i] : []));
  const s = seats[nth];
  if (s === undefined) throw new Error(`no ${role}`);
  return s;
};
const none: NightDecisions = { rolls: {}, council: null };

/** Every living player of a match casts a blue vote for the next living one. */
function calmDay(m: Match): Match {
  const alive = m.state.players.flatMap((p, i) => (p.alive ? [i] : []));
  let out = m;
  alive.forEach((s, i) => {
    out = ok(vote(out, s, { color: "blue", target: alive[(i + 1) % alive.length]!, early: false }));
  });
  return out;
}

describe("G1: the log replays", () => {
  it("G1: a match played through the Match API, exported, replays to the same results and state", () => {
    const seed = "G1: журнал партии";
    const players = Array.from({ length: 17 }, (_, i) => ({ name: `Игрок${i + 1}` }));
    let m = ok(startMatch({ players, seed }));
    const boss = byRole(m, "boss");
    const girl = byRole(m, "girl");
    const thug = byRole(m, "thug");
    const maniac = byRole(m, "maniac");
    const doctor = byRole(m, "doctor");
    const sergeant = byRole(m, "sergeant");
    const sheriff = byRole(m, "sheriff");
    const lawyer = byRole(m, "lawyer");
    const prosecutor = byRole(m, "prosecutor");
    const shahid = byRole(m, "shahid");
    const c = [0, 1, 2, 3, 4].map((i) => byRole(m, "citizen", i));

    // Night 1: a double action (M3 roll), a girl's visit and a thug's block (silence rolls), a torture
    // (evidence roll), a check, a heal, a GM modkill; all rolls but one drawn from the seed.
    m = ok(act(m, boss, { act: "mafia", kill: [c[0]!], intimidate: [c[1]!] }));
    m = ok(act(m, girl, { act: "visit", target: c[2]! }));
    m = ok(act(m, thug, { act: "block", target: doctor }));
    m = ok(act(m, maniac, { act: "torture", target: c[3]! }));
    m = ok(act(m, doctor, { act: "heal", target: c[0]! }));
    m = ok(act(m, sergeant, { act: "check", target: boss }));
    m = ok(act(m, lawyer, { act: "protect", target: boss }));
    m = ok(act(m, prosecutor, { act: "unprotect", target: thug }));
    m = ok(act(m, shahid, { act: "mark", target: maniac }));
    m = ok(modkill(m, c[4]!, "оскорбления"));
    m = ok(endNight(m, { rolls: { thugSilence: true }, council: null }));
    expect(m.state.phase).toEqual({ kind: "day", number: 1 });
    // Three rolls were drawn from the seed and one fixed: the replay must reproduce the drawn ones.
    expect((m.outcomes[0]!.outcome as NightOutcome).rolls.map((r) => [r.name, r.fixed])).toEqual([
      ["bossExposed", false],
      ["tortureEvidence", false],
      ["girlSilence", false],
      ["thugSilence", true],
    ]);

    // Day 1: a substitute takes a seat at the start of the day; some vote, some do not.
    m = ok(replace(m, shahid, "Запасной"));
    const voters = m.state.players.flatMap((_, s) => (mayVote(m.state, s) ? [s] : []));
    expect(voters.length).toBeGreaterThan(8);
    // All but the last two vote (P1 penalises those two); the early word has no effect on day 1.
    for (const s of voters.slice(0, -2))
      m = ok(vote(m, s, { color: "red", target: s === maniac ? girl : maniac, early: s % 2 === 0 }));
    m = ok(endDay(m));

    // Night 2: the sheriff shoots, the boss asks the council.
    m = ok(act(m, sheriff, { act: "shoot", target: thug }));
    if (m.state.players[boss]!.alive) m = ok(act(m, boss, { act: "council", question: "Есть ли маньяк?" }));
    m = ok(endNight(m, { rolls: {}, council: "no" }));

    const log = exportReplay(m);
    const again = replayMatch(JSON.parse(JSON.stringify(log)));
    expect(runReplay(JSON.parse(JSON.stringify(log)))).toEqual(matchResult(m));
    expect(again.outcomes).toEqual(m.outcomes);
    expect(again.state).toEqual(m.state);
    // The drawn rolls came from the seed: the log holds only the one fixed by hand.
    expect(log.seed).toBe(seed);
    expect(log.phases[0]).toMatchObject({ night: 1, rolls: { thugSilence: true } });
    expect(m.outcomes[0]!.outcome.phase).toEqual({ kind: "night", number: 1 });
  });

  it("G1: the log holds every accepted input, in order, under the names of the time", () => {
    let m = standardMatch(without(STANDARD, "Мирный4", "Мирный5"));
    m = ok(act(m, at(m, "Босс"), { act: "mafia", kill: [at(m, "Мирный1")], intimidate: [] }));
    m = ok(act(m, at(m, "Босс"), { act: "mafia", kill: [at(m, "Мирный2")], intimidate: [] }));
    refused(act(m, at(m, "Маньяк"), { act: "quickKill", target: at(m, "Маньяк") }));
    m = ok(act(m, at(m, "Маньяк"), { act: "pass" }));
    m = ok(endNight(m, none));
    const log = exportReplay(m);
    expect(log.players.map((p) => p.name)).toEqual(namesOf(without(STANDARD, "Мирный4", "Мирный5")));
    expect(log.phases).toEqual([
      {
        night: 1,
        actions: [
          { by: "Босс", act: "mafia", kill: ["Мирный1"] },
          { by: "Босс", act: "mafia", kill: ["Мирный2"] },
          { by: "Маньяк", act: "pass" },
        ],
      },
    ]);
  });

  it("G1: a replacement made mid-day, after the old player voted, replays to the same results", () => {
    let m = standardMatch();
    m = ok(endNight(m, none)); // nobody acted: P2 strikes, but no deaths
    m = ok(vote(m, at(m, "Мирный1"), { color: "red", target: at(m, "Босс"), early: false }));
    m = ok(replace(m, at(m, "Мирный1"), "Новичок"));
    m = ok(vote(m, at(m, "Новичок"), { color: "red", target: at(m, "Тролль"), early: false }));
    m = ok(endDay(m));
    expect(runReplay(JSON.parse(JSON.stringify(exportReplay(m))))).toEqual(matchResult(m));
  });
});

describe("G2, G3: voting", () => {
  it("G2: every living player must vote: one who does not is penalised", () => {
    const g = game(STANDARD)
      .night()
      .day(ring(except(NAMES, "Мирный3")));
    expect(g.lastDay.penalized).toEqual(["Мирный3"]);
    const all = game(STANDARD).night().day(ring(NAMES));
    expect(all.lastDay.penalized).toEqual([]);
  });

  it("G2: voting for oneself is forbidden, red or blue", () => {
    expect(game(STANDARD).night().day("Мирный1>Мирный1").error).toBe(
      "day 1: Мирный1 (citizen) may not vote for themselves (V3)",
    );
    expect(game(STANDARD).night().day("Доктор+Доктор").error).toBe(
      "day 1: Доктор (doctor) may not vote for themselves (V3)",
    );
  });

  it("G3: a tie on the top score hangs nobody", () => {
    // Мирный1 and Мирный2 get 9 each: 1 + 2 (the prosecutor) + 6, and 1 + 1 (the doctor) + 7.
    const rest = except(NAMES, "Мирный1", "Мирный2", "Прокурор", "Доктор");
    const votes = [
      "Мирный1>Мирный2",
      "Мирный2>Мирный1",
      "Прокурор>Мирный1",
      "Доктор>Мирный2",
      ...rest.slice(0, 6).map((n) => `${n}>Мирный1`),
      ...rest.slice(6).map((n) => `${n}>Мирный2`),
    ].join(" ");
    const g = game(STANDARD).night().day(votes);
    expectFields(g.lastDay, {
      score: { Мирный1: 9, Мирный2: 9 },
      hanged: null,
      died: [],
      excused: null,
      winner: null,
    });
  });

  it("G3: without the tie the top score is hanged", () => {
    const rest = except(NAMES, "Мирный1", "Мирный2", "Прокурор", "Доктор");
    const votes = [
      "Мирный1>Мирный2",
      "Мирный2>Мирный1",
      "Прокурор>Мирный1",
      "Доктор>Мирный2",
      ...rest.slice(0, 7).map((n) => `${n}>Мирный1`),
      ...rest.slice(7).map((n) => `${n}>Мирный2`),
    ].join(" ");
    const g = game(STANDARD).night().day(votes);
    expectFields(g.lastDay, { score: { Мирный1: 10, Мирный2: 8 }, hanged: "Мирный1" });
  });
});

describe("G4: the order of phases", () => {
  it("G4: a new game is at night 1", () => {
    expect(standardMatch().state.phase).toEqual({ kind: "night", number: 1 });
  });

  it("G4: a file that starts with a day is refused", () => {
    const g = game(STANDARD).day(ring(NAMES));
    expect(g.error).toBe("day 1: expected night 1: nights and days alternate from night 1 (G4)");
  });

  it("G4: two nights in a row are refused", () => {
    const g = game(STANDARD).night().night();
    expect(g.error).toBe("night 2: expected day 1: nights and days alternate from night 1 (G4)");
  });

  it("G4: two days in a row are refused", () => {
    const g = game(STANDARD).night().day(ring(NAMES)).day(ring(NAMES));
    expect(g.error).toBe("day 2: expected night 2: nights and days alternate from night 1 (G4)");
  });

  it("G4: a phase with a wrong number is refused", () => {
    const g = game(STANDARD);
    const file = { ...g.file, phases: [{ night: 2, actions: [] }] };
    expect(() => replayMatch(file)).toThrow(
      "night 2: expected night 1: nights and days alternate from night 1 (G4)",
    );
  });

  it("G4: phases alternate night, day, night… with their numbers", () => {
    let m = standardMatch();
    const seen = [m.state.phase];
    m = ok(endNight(m, none));
    seen.push(m.state.phase);
    m = ok(endDay(calmDay(m)));
    seen.push(m.state.phase);
    m = ok(endNight(m, none));
    seen.push(m.state.phase);
    expect(seen).toEqual([
      { kind: "night", number: 1 },
      { kind: "day", number: 1 },
      { kind: "night", number: 2 },
      { kind: "day", number: 2 },
    ]);
  });

  it("G4: no vote at night and no night action by day", () => {
    let m = standardMatch();
    expect(
      refused(vote(m, at(m, "Мирный1"), { color: "red", target: at(m, "Босс"), early: false })),
    ).toMatchObject({ code: "vote/out-of-phase" });
    m = ok(endNight(m, none));
    expect(refused(act(m, at(m, "Шериф"), { act: "shoot", target: at(m, "Босс") }))).toMatchObject({
      code: "night/out-of-phase",
    });
    expect(refused(endNight(m, none))).toMatchObject({ rejected: true });
  });
});

describe("G5, G9: the GM's modkill", () => {
  it("G5: a modkill at night takes effect at the end of the night: the player's action still counts", () => {
    const g = game(STANDARD).night(
      { Шериф: shoot("Маньяк") },
      { gm: [{ modkill: "Шериф", reason: "оскорбления в теме" }] },
    );
    expectFields(g.lastNight, {
      died: ["Маньяк", "Шериф"],
      modkilled: ["Шериф"],
      revealed: { Маньяк: "maniac", Шериф: "sheriff" },
      winner: null,
    });
    const log = exportReplay(g.match);
    expect(log.phases[0]).toMatchObject({ gm: [{ modkill: "Шериф", reason: "оскорбления в теме" }] });
  });

  it("G5: a modkill by day takes effect at the end of the day: the player's vote still counts", () => {
    // The others vote blue in a ring (Босс for Мирный1); Мирный1's red vote alone hangs Босс.
    const g = game(STANDARD)
      .night()
      .day(`Мирный1>Босс Босс+Мирный1 ${ring(except(NAMES, "Мирный1", "Босс"))}`, {
        gm: [{ modkill: "Мирный1", reason: "мат" }],
      });
    expectFields(g.lastDay, {
      hanged: "Босс",
      modkilled: ["Мирный1"],
      died: ["Босс", "Мирный1"],
      revealed: { Босс: "boss", Мирный1: "citizen" },
      penalized: [],
    });
  });

  it("G9: the GM's modkill through the Match API: alive until the phase ends, dead after", () => {
    let m = standardMatch();
    const cheat = at(m, "Девочка");
    m = ok(modkill(m, cheat, "скриншоты из личной переписки"));
    expect(m.state.players[cheat]!.alive).toBe(true);
    m = ok(act(m, cheat, { act: "visit", target: at(m, "Мирный1") }));
    m = ok(endNight(m, { rolls: { girlSilence: false }, council: null }));
    expect(m.state.players[cheat]!.alive).toBe(false);
    expect(m.outcomes[0]!.outcome.modkilled).toEqual([cheat]);
    expect(refused(modkill(m, cheat, "ещё раз"))).toMatchObject({ code: "gm/modkill-dead", clause: "F2" });
  });

  it("G9: a modkill of a player killed the same night is one death, not a modkill", () => {
    const g = game(STANDARD).night(
      { Босс: kill("Мирный1") },
      { gm: [{ modkill: "Мирный1", reason: "читерство" }] },
    );
    expectFields(g.lastNight, { died: ["Мирный1"], modkilled: [] });
  });
});

describe("G7: the dead are silent", () => {
  it("G7: a dead player's vote is refused", () => {
    const g = game(STANDARD)
      .night({ Босс: kill("Мирный1") })
      .day("Мирный1>Босс");
    expect(g.error).toBe("day 1: Мирный1 (citizen) is dead and cannot vote (G7)");
  });

  it("G7: a dead player's night action is refused", () => {
    const g = game(STANDARD)
      .night({ Босс: kill("Шериф") })
      .day(ring(except(NAMES, "Шериф")))
      .night({ Шериф: shoot("Босс") });
    expect(g.error).toBe("night 2: Шериф (sheriff) is dead and cannot act (G7)");
  });

  it("G7: a dead player's pass is refused too, and the dead are not penalised for silence", () => {
    const g = game(STANDARD).night({ Маньяк: quickKill("Доктор") });
    expect(g.day(ring(except(NAMES, "Доктор"))).lastDay.penalized).toEqual([]);
    const passed = g.day(ring(except(NAMES, "Доктор"))).night([["Доктор", { act: "pass" }]]);
    expect(passed.error).toBe("night 2: Доктор (doctor) is dead and cannot act (G7)");
  });

  it("G7: through the Match API the refusals carry clause G7", () => {
    let m = standardMatch();
    m = ok(act(m, at(m, "Босс"), { act: "mafia", kill: [at(m, "Сержант")], intimidate: [] }));
    m = ok(endNight(m, none));
    expect(
      refused(vote(m, at(m, "Сержант"), { color: "red", target: at(m, "Босс"), early: false })),
    ).toMatchObject({ code: "vote/dead-voter", clause: "G7" });
    m = ok(endDay(m));
    expect(refused(act(m, at(m, "Сержант"), { act: "check", target: at(m, "Босс") }))).toMatchObject({
      code: "night/dead-actor",
      clause: "G7",
    });
  });
});

describe("G10: the night's intake closes", () => {
  function nightWithActions(): Match {
    let m = standardMatch();
    m = ok(act(m, at(m, "Босс"), { act: "mafia", kill: [at(m, "Мирный1")], intimidate: [] }));
    m = ok(act(m, at(m, "Адвокат"), { act: "protect", target: at(m, "Босс") }));
    m = ok(act(m, at(m, "Громила"), { act: "block", target: at(m, "Мирный5") }));
    m = ok(act(m, at(m, "Доктор"), { act: "heal", target: at(m, "Мирный3") }));
    return m;
  }
  const attempts: [string, NightAction | ((m: Match) => NightAction)][] = [
    ["Босс", (m) => ({ act: "mafia", kill: [at(m, "Мирный2")], intimidate: [] })],
    ["Тролль", (m) => ({ act: "mafia", kill: [at(m, "Мирный2")], intimidate: [] })],
    ["Босс", { act: "pass" }],
    ["Адвокат", (m) => ({ act: "protect", target: at(m, "Тролль") })],
    ["Громила", (m) => ({ act: "block", target: at(m, "Доктор") })],
    ["Маньяк", (m) => ({ act: "quickKill", target: at(m, "Мирный4") })],
    ["Доктор", (m) => ({ act: "heal", target: at(m, "Мирный1") })],
    ["Шериф", (m) => ({ act: "shoot", target: at(m, "Босс") })],
    ["Девочка", { act: "pass" }],
  ];
  const build = (m: Match, a: NightAction | ((m: Match) => NightAction)): NightAction =>
    typeof a === "function" ? a(m) : a;

  it("G10: after the intake closes, every submission is refused, the mafia's included", () => {
    const m = closeNightIntake(nightWithActions());
    for (const [name, a] of attempts)
      expect(refused(act(m, at(m, name), build(m, a)))).toMatchObject({
        code: "night/intake-closed",
        clause: "G10",
      });
  });

  it("G10: after the GM reopens the mafia's action, only the mafia's action may change", () => {
    const m = reopenMafia(closeNightIntake(nightWithActions()), "Шахид вскрылся до итогов ночи (G10)");
    const accepted = attempts.filter(([name, a]) => !isRejection(act(m, at(m, name), build(m, a))));
    expect(accepted.map(([name, a]) => `${name}:${build(m, a).act}`)).toEqual([
      "Босс:mafia",
      "Тролль:mafia",
      "Босс:pass",
    ]);
    expect(refused(act(m, at(m, "Адвокат"), { act: "protect", target: at(m, "Тролль") }))).toMatchObject({
      clause: "G10",
    });
  });

  it("G10: the changed mafia action is the one resolved, and the log replays to the same result", () => {
    let m = reopenMafia(closeNightIntake(nightWithActions()), "Шахид вскрылся до итогов ночи (G10)");
    m = ok(act(m, at(m, "Босс"), { act: "mafia", kill: [at(m, "Мирный2")], intimidate: [] }));
    m = ok(endNight(m, { rolls: { thugSilence: false }, council: null }));
    const died = m.outcomes[0]!.outcome.died.map((s) => m.state.players[s]!.name);
    expect(died).toEqual(["Мирный2"]);
    expect(runReplay(JSON.parse(JSON.stringify(exportReplay(m))))).toEqual(matchResult(m));
  });

  it("G10: a thug who is boss may change the mafia's action but not switch to the block", () => {
    let m = standardMatch(
      "Громила=thug Маньяк=maniac Доктор=doctor Мирный1=citizen Мирный2=citizen Мирный3=citizen",
    );
    m = ok(act(m, at(m, "Громила"), { act: "block", target: at(m, "Доктор") }));
    m = reopenMafia(closeNightIntake(m), "вскрытие до итогов ночи (G10)");
    expect(refused(act(m, at(m, "Громила"), { act: "block", target: at(m, "Маньяк") }))).toMatchObject({
      clause: "G10",
    });
    expect(refused(act(m, at(m, "Маньяк"), { act: "quickKill", target: at(m, "Мирный1") }))).toMatchObject({
      clause: "G10",
    });
    m = ok(act(m, at(m, "Громила"), { act: "mafia", kill: [at(m, "Мирный3")], intimidate: [] }));
    m = ok(endNight(m, none));
    expect(m.outcomes[0]!.outcome.died).toEqual([at(m, "Мирный3")]);
  });

  it("G10: the next night's intake is open again", () => {
    let m = closeNightIntake(nightWithActions());
    m = ok(endNight(m, { rolls: { thugSilence: false }, council: null }));
    m = ok(endDay(calmDay(m)));
    m = ok(act(m, at(m, "Шериф"), { act: "shoot", target: at(m, "Маньяк") }));
    expect(m.night.pair).toEqual({ act: "shoot", target: at(m, "Маньяк") });
  });
});

describe("G11: early votes (V7)", () => {
  it("G11: before day 3 the word досрочно has no effect: the day does not close and votes may change", () => {
    const early = NAMES.map((n, i) => `${n}+${NAMES[(i + 1) % NAMES.length]!}!`).join(" ");
    const g = game(STANDARD).night().day(`${early} Мирный1>Босс`);
    expectFields(g.lastDay, { closedEarly: false, penalized: [] });
    // Мирный1's last vote (red for Босс) replaced the early blue vote for Мирный2: both end at 0.
    const score: Record<string, number> = {};
    for (const n of except(NAMES, "Босс", "Мирный2")) score[n] = n === "Девочка" ? -3 : -1;
    expect(g.lastDay.score).toEqual(score);
  });

  it("G11: from day 3 on, an early vote cannot be changed", () => {
    const g = game(STANDARD)
      .night()
      .day(ring(NAMES))
      .night()
      .day(ring(NAMES))
      .night()
      .day("Мирный1>Босс! Мирный1>Тролль");
    expect(g.error).toBe("day 3: Мирный1 (citizen) has voted early and may not change the vote (V7)");
  });

  it("G11: from day 3 on, early votes by more than half of the voters close the day at once", () => {
    const redFor5 = (n: string): string => (n === "Мирный5" ? "Мирный5>Босс" : `${n}>Мирный5`);
    const base = game(STANDARD).night().day(ring(NAMES)).night().day(ring(NAMES)).night();
    // 9 of 17 vote early: the day closes on the ninth, and the later votes are ignored (P1 penalises them).
    const first = NAMES.slice(0, 9);
    const late = NAMES.slice(9);
    const g = base.day([...first.map((n) => `${redFor5(n)}!`), ...late.map(redFor5)].join(" "));
    expectFields(g.lastDay, { closedEarly: true, hanged: "Мирный5", penalized: [...late].sort() });
    // 8 of 17 is not more than half: the day runs to the deadline.
    const eight = base.day(
      [...NAMES.slice(0, 8).map((n) => `${redFor5(n)}!`), ...NAMES.slice(8).map(redFor5)].join(" "),
    );
    expectFields(eight.lastDay, { closedEarly: false, hanged: "Мирный5", penalized: [] });
  });
});
