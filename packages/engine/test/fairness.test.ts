import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_ROLES,
  act,
  closeNightIntake,
  endDay,
  endNight,
  exportReplay,
  isRejection,
  modkill,
  reopenMafia,
  replace,
  runReplay,
  seedCommitment,
  startMatch,
  type Match,
  type NightOutcome,
  type RoleId,
} from "../src/index.ts";
import { createGame } from "../src/game.ts";
import { matchResult } from "../src/replay.ts";
import {
  nextU32,
  dealStream,
  rngFromSeed,
  rollChance,
  rollStream,
  shuffle,
  type RngState,
} from "../src/rng.ts";
import { seatByName, vote } from "../src/match.ts";
import type { Roll } from "../src/night.ts";
import {
  NAMES,
  STANDARD,
  block,
  chance,
  game,
  killAndIntimidate,
  ok,
  playersOf,
  referenceRng,
  ring,
  serum,
  torture,
  visit,
  votersOf,
  type Scenario,
} from "./scenario.ts";

/** The reference deal: Fisher–Yates from the last index down on the "deal:" stream. */
function referenceDeal(seed: string, roles: readonly RoleId[]): RoleId[] {
  const next = referenceRng(`deal:${seed}`);
  const out = roles.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Number((BigInt(next()) * BigInt(i + 1)) >> 32n);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function nightRolls(g: Scenario, nth = 0): readonly Roll[] {
  const nights = g.match.outcomes.filter((o) => o.outcome.phase.kind === "night");
  return (nights[nth]!.outcome as NightOutcome).rolls;
}

describe("F1: the seed's commitment and the generator", () => {
  it("F1: the commitment is the SHA-256 of the seed in lowercase hex", () => {
    expect(seedCommitment("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(seedCommitment("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("F1: the commitment hashes the seed's UTF-8 bytes", () => {
    for (const seed of ["партия №7", "ёлка 🎄", " spaces "])
      expect(seedCommitment(seed)).toBe(createHash("sha256").update(seed, "utf8").digest("hex"));
  });

  it("F1: xoshiro128** from the state 1, 2, 3, 4 gives its known first outputs", () => {
    let s: RngState = [1, 2, 3, 4];
    const out: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = nextU32(s);
      out.push(r.value);
      s = r.state;
    }
    expect(out).toEqual([11520, 0, 5927040]);
  });

  it("F1: the generator matches an independent implementation of rng.ts's description", () => {
    for (const seed of ["abc", "партия-1", "deal:x"]) {
      const ref = referenceRng(seed);
      let s = rngFromSeed(seed);
      for (let i = 0; i < 50; i++) {
        const r = nextU32(s);
        expect(r.value).toBe(ref());
        s = r.state;
      }
    }
  });

  it("F1: the generator is reproducible: the same seed gives the same rolls", () => {
    const draw = (seed: string): boolean[] => {
      let s = rngFromSeed(seed);
      const out: boolean[] = [];
      for (let i = 0; i < 40; i++) {
        const r = rollChance(s, i % 2 ? 0.5 : 0.75);
        out.push(r.value);
        s = r.state;
      }
      return out;
    };
    expect(draw("семя")).toEqual(draw("семя"));
    expect(draw("семя")).not.toEqual(draw("семя2"));
    const ref = referenceRng("семя");
    expect(draw("семя")).toEqual(Array.from({ length: 40 }, (_, i) => chance(ref(), i % 2 ? 0.5 : 0.75)));
  });

  it("F1: the deal can be verified from the seed: it is the reference shuffle of the role list", () => {
    for (const seed of ["abc", "партия-1", "ёж"]) {
      const s = createGame({ players: NAMES.map((name) => ({ name })), seed });
      if (isRejection(s)) throw new Error(s.message);
      expect(s.players.map((p) => p.role)).toEqual(referenceDeal(seed, DEFAULT_ROLES));
      expect(shuffle(DEFAULT_ROLES, rngFromSeed(`deal:${seed}`)).value).toEqual(
        referenceDeal(seed, DEFAULT_ROLES),
      );
    }
  });

  it("F1: every night roll can be verified from the seed, in O8 order, across nights", () => {
    const seed = "F1: проверка бросков";
    const night1 = {
      Босс: killAndIntimidate("Мирный1", "Мирный2"),
      Доктор: serum("Мирный3"),
      Маньяк: torture("Мирный4"),
      Девочка: visit("Мирный5"),
      Громила: block("Прокурор"),
    };
    const g1 = game(STANDARD, { seed }).night(night1);
    const ref = referenceRng(`rolls:${seed}`);
    const expected1: Roll[] = [
      { name: "bossExposed", value: chance(ref(), 0.75), fixed: false },
      { name: "doctorExposed", value: chance(ref(), 0.5), fixed: false },
      { name: "tortureEvidence", value: chance(ref(), 0.5), fixed: false },
      { name: "girlSilence", value: chance(ref(), 0.5), fixed: false },
      { name: "thugSilence", value: chance(ref(), 0.5), fixed: false },
    ];
    expect(nightRolls(g1)).toEqual(expected1);
    // Night 2 continues the same stream.
    const g2 = g1.day(ring(votersOf(g1))).night({ Девочка: visit("Мирный3") });
    expect(nightRolls(g2, 1)).toEqual([{ name: "girlSilence", value: chance(ref(), 0.5), fixed: false }]);
  });

  it("F1: a game dealt by hand rolls the same dice as one dealt from the same seed (separate streams)", () => {
    const seed = "F1: две колоды";
    const seeded = ok(startMatch({ players: NAMES.map((name) => ({ name })), seed }));
    const hand = ok(
      startMatch({
        players: seeded.state.players.map((p) => ({ name: p.name, role: p.role })),
        seed: "other",
      }),
    );
    const same = ok(
      startMatch({ players: seeded.state.players.map((p) => ({ name: p.name, role: p.role })), seed }),
    );
    expect(same.state.rng).toEqual(seeded.state.rng);
    expect(same.state.rng).toEqual(rngFromSeed(`rolls:${seed}`));
    expect(hand.state.rng).not.toEqual(seeded.state.rng);
  });

  it("F1: the commitment published before the deal does not give away the dice", () => {
    // Both streams hash a labelled seed; the state of neither is the plain SHA-256 that is published.
    for (const seed of ["abc", "партия-1", ""]) {
      const published = seedCommitment(seed);
      const words = [0, 8, 16, 24].map((i) => Buffer.from(published.slice(i, i + 8), "hex").readUInt32LE(0));
      expect(dealStream(seed)).not.toEqual(words);
      expect(rollStream(seed)).not.toEqual(words);
      expect(rollStream(seed)).toEqual(rngFromSeed(`rolls:${seed}`));
      expect(dealStream(seed)).toEqual(rngFromSeed(`deal:${seed}`));
      const players = [
        { name: "А", role: "citizen" as const },
        { name: "Б", role: "boss" as const },
      ];
      expect(createGame({ players, seed })).toMatchObject({
        rng: rollStream(seed),
      });
    }
  });

  it("F1: the seed published after the game matches the commitment published before the deal", () => {
    const seed = "F1: секрет";
    const before = seedCommitment(seed);
    const m = ok(startMatch({ players: NAMES.map((name) => ({ name })), seed }));
    const log = exportReplay(ok(endNight(m, { rolls: {}, council: null })));
    expect(seedCommitment(log.seed!)).toBe(before);
  });
});

describe("F2: the GM's decisions are in the log", () => {
  const seed = "F2: решения ведущего";

  it("F2: a fixed roll overrides the seed and is recorded as fixed", () => {
    const drawn = chance(referenceRng(`rolls:${seed}`)(), 0.5);
    const g = game(STANDARD, { seed }).night(
      { Девочка: visit("Мирный1") },
      { rolls: { girlSilence: !drawn } },
    );
    expect(nightRolls(g)).toEqual([{ name: "girlSilence", value: !drawn, fixed: true }]);
    expect(g.lastNight.silenced).toEqual(drawn ? [] : ["Мирный1"]);
    const free = game(STANDARD, { seed }).night({ Девочка: visit("Мирный1") });
    expect(nightRolls(free)).toEqual([{ name: "girlSilence", value: drawn, fixed: false }]);
  });

  it("F2: a fixed roll takes no draw: the next drawn roll is the stream's first", () => {
    const ref = referenceRng(`rolls:${seed}`);
    const g = game(STANDARD, { seed }).night(
      { Девочка: visit("Мирный1"), Громила: block("Мирный2") },
      { rolls: { girlSilence: true } },
    );
    expect(nightRolls(g)).toEqual([
      { name: "girlSilence", value: true, fixed: true },
      { name: "thugSilence", value: chance(ref(), 0.5), fixed: false },
    ]);
  });

  it("F2, O8: with no seed, a needed roll that is not fixed is an error", () => {
    expect(game(STANDARD).night({ Девочка: visit("Мирный1") }).error).toBe(
      "night 1: the roll girlSilence for Девочка (girl) is needed, but it is not fixed and there is no seed (O8)",
    );
  });

  /** A match with every kind of GM decision the log can hold. */
  function decided(): Match {
    let m = ok(startMatch({ players: playersOf(STANDARD), seed }));
    const at = (n: string): number => seatByName(m.state, n)!;
    m = ok(act(m, at("Босс"), { act: "council", question: "Жив ли маньяк?" }));
    m = ok(act(m, at("Девочка"), { act: "visit", target: at("Мирный1") }));
    m = ok(modkill(m, at("Мирный5"), "оскорбления"));
    m = ok(endNight(m, { rolls: { girlSilence: false }, council: "yes" }));
    m = ok(replace(m, at("Мирный2"), "Запасной"));
    for (const p of m.state.players.map((_, i) => i).filter((i) => m.state.players[i]!.alive))
      m = ok(
        vote(m, p, { color: "blue", target: p === at("Босс") ? at("Тролль") : at("Босс"), early: false }),
      );
    m = ok(modkill(m, at("Мирный3"), "мультиаккаунт"));
    return ok(endDay(m));
  }

  it("F2: the council's answer is in the outcome and in the log", () => {
    const m = decided();
    expect((m.outcomes[0]!.outcome as NightOutcome).council).toEqual({
      question: "Жив ли маньяк?",
      answer: "yes",
    });
    expect(matchResult(m).phases[0]).toMatchObject({ council: "yes" });
    const night = exportReplay(m).phases[0]!;
    expect(night).toMatchObject({
      night: 1,
      council: "yes",
      rolls: { girlSilence: false },
    });
    expect("actions" in night && night.actions).toContainEqual({
      by: "Босс",
      act: "mafia",
      question: "Жив ли маньяк?",
    });
  });

  it("F2: the council's question needs the GM's answer", () => {
    let m = ok(startMatch({ players: playersOf(STANDARD), seed }));
    m = ok(act(m, seatByName(m.state, "Босс")!, { act: "council", question: "Есть ли шахид?" }));
    expect(endNight(m, { rolls: {}, council: null })).toMatchObject({ rejected: true, clause: "M2c" });
    const rejected = ok(endNight(m, { rolls: {}, council: "rejected" }));
    expect(matchResult(rejected).phases[0]).toMatchObject({ council: "rejected" });
    expect(exportReplay(rejected).phases[0]).toMatchObject({ council: "rejected" });
  });

  it("F2: modkills and their reasons, and replacements, are entries in the log", () => {
    const log = exportReplay(decided());
    expect(log.phases[0]).toMatchObject({ gm: [{ modkill: "Мирный5", reason: "оскорбления" }] });
    expect(log.phases[1]).toMatchObject({
      gm: [
        { replace: "Мирный2", with: "Запасной" },
        { modkill: "Мирный3", reason: "мультиаккаунт" },
      ],
    });
  });

  it("F2: the log with every GM decision replays to the same results", () => {
    const m = decided();
    const result = runReplay(JSON.parse(JSON.stringify(exportReplay(m))));
    expect(result).toEqual(matchResult(m));
    expect(result.phases[0]).toMatchObject({ modkilled: ["Мирный5"], council: "yes", silenced: [] });
    expect(result.phases[1]).toMatchObject({ modkilled: ["Мирный3"] });
  });

  it("F2: reopening the mafia's action (G10) is an entry in the log", () => {
    let m = ok(startMatch({ players: playersOf(STANDARD), seed }));
    m = ok(
      act(m, seatByName(m.state, "Босс")!, {
        act: "mafia",
        kill: [seatByName(m.state, "Мирный1")!],
        intimidate: [],
      }),
    );
    const closed = closeNightIntake(m);
    const reopened = reopenMafia(closed, "Доктор вскрылся до итогов ночи");
    // REPLAY.md has no entry for a reopening (the later submissions are in the file as ordinary ones), so
    // the GM's decision and its reason live in the match's override log, published with the file.
    expect(closed.overrides).toEqual([]);
    expect(reopened.overrides).toEqual([
      {
        phase: { kind: "night", number: 1 },
        kind: "reopenMafia",
        detail: "",
        reason: "Доктор вскрылся до итогов ночи",
      },
    ]);
    const decisions = { rolls: {}, council: null };
    expect(ok(endNight(reopened, decisions)).overrides).toEqual(reopened.overrides);
  });
});
