/**
 * Issue 28: a setup whose bot games can stall is a fact the balance estimate shows, not an error. A game
 * still running at the phase cap is counted as stalled, its own figure with its 95% interval; the win
 * rates are shares of all games, so the four sides and the stalled share add up to 1; and no legal setup
 * (S3) makes an estimate throw.
 */
import fc from "fast-check";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { roleListFault } from "../src/roles.ts";
import { gameEvents } from "../src/events.ts";
import { DEFAULT_OPTIONS, ROLE_IDS, type GameOptions, type RoleId } from "../src/index.ts";
import {
  ESTIMATE_PHASE_CAP,
  balanceOf,
  canonicalSetup,
  estimateChunk,
  mergeChunks,
  playBotGameToCap,
  summaryOf,
  tallyOf,
  type EstimateSetup,
  type GameRecord,
  type StalledRecord,
} from "../src/bots-entry.ts";

/** The classic 17 with `lapseAt: 7`: the setup the outside tester found answering 500. */
const LAPSE7: EstimateSetup = {
  roles: ROLE_IDS.flatMap((r) => (r === "citizen" ? [r, r, r, r, r] : [r])),
  options: { ...DEFAULT_OPTIONS, lapseAt: 7 },
};

describe("the balance estimate of a setup whose games can stall (issue 28)", () => {
  it("S3: stalled games are counted apart; rates are over all games: 19 ended and 1 stalled read as by hand", () => {
    const ended: GameRecord = {
      winner: "town",
      condition: "noMafiaNoManiac",
      phases: 6,
      days: 3,
      players: [
        { role: "boss", survived: false },
        { role: "citizen", survived: true },
      ],
    };
    const records: (GameRecord | StalledRecord)[] = [
      ...Array.from({ length: 19 }, () => ended),
      { stalled: true },
    ];
    const t = tallyOf(records);
    expect(t.games).toBe(20);
    expect(t.stalled).toBe(1);
    expect(t.wins.town).toBe(19);
    // A stalled game deals no seats and has no length.
    expect(t.roles.boss.dealt).toBe(19);
    expect(t.phases).toBe(19 * 6);
    const b = balanceOf(t);
    // 19 of 20, and 1 of 20 with the Wilson 95% interval as published tables give it: 0.0089 – 0.2361.
    expect(b.winRates.town.rate).toBe(0.95);
    expect(b.stalled.rate).toBe(0.05);
    expect(b.stalled.low).toBeCloseTo(0.0089, 4);
    expect(b.stalled.high).toBeCloseTo(0.2361, 4);
    expect(
      b.winRates.town.rate +
        b.winRates.mafia.rate +
        b.winRates.maniac.rate +
        b.winRates.draw.rate +
        b.stalled.rate,
    ).toBe(1);
    // The mean length is that of the 19 games that ended.
    expect(b.meanPhases).toBe(6);
    expect(b.meanDays).toBe(3);
    expect(b.phaseCap).toBe(ESTIMATE_PHASE_CAP);
    expect(summaryOf(t).stalled.count).toBe(1);
  });

  it("M5, T4, V8: in the classic 17 with lapseAt 7, game estimate:391 never ends: the girl blocks the boss, whom the lawyer excuses", () => {
    const { roles, options } = canonicalSetup(LAPSE7);
    // Checked apart from the estimate: three times the cap, and still running.
    const long = playBotGameToCap("estimate:391", {
      votes: "informed",
      roles,
      gameOptions: options,
      maxPhases: 3 * ESTIMATE_PHASE_CAP,
    });
    expect(long.ended).toBe(false);
    const results = gameEvents(long.match).filter(
      (e) => e.type === "nightResults" || e.type === "dayResults",
    );
    expect(results).toHaveLength(3 * ESTIMATE_PHASE_CAP);
    // From day 5 on, nobody dies and nobody is hanged: counted by hand from the public results.
    const quiet = results.slice(9);
    expect(quiet[0]!.phase).toEqual({ kind: "day", number: 5 });
    for (const r of quiet) {
      expect(r.died).toEqual([]);
      expect(r.modkilled).toEqual([]);
      if (r.type === "dayResults") expect(r.hanged).toBeNull();
    }
    expect(long.match.state.players.filter((p) => p.alive)).toHaveLength(7);
    // The estimate counts it as one stalled game of one.
    const one = balanceOf(estimateChunk(LAPSE7, 391, 1));
    expect(one.games).toBe(1);
    expect(one.stalled.rate).toBe(1);
    expect(Object.values(one.winRates).map((r) => r.rate)).toEqual([0, 0, 0, 0]);
  });

  it("S3: the classic 17 with lapseAt 7 gives a balance over 2,000 games: no throw, the stalled share above 0", () => {
    const tallies = [];
    for (let from = 0; from < 2_000; from += 250) tallies.push(estimateChunk(LAPSE7, from, 250));
    const t = mergeChunks(tallies);
    const b = balanceOf(t);
    expect(b.games).toBe(2_000);
    expect(t.stalled).toBeGreaterThan(0);
    expect(b.stalled.rate).toBe(t.stalled / 2_000);
    expect(b.stalled.low).toBeLessThanOrEqual(b.stalled.rate);
    expect(b.stalled.high).toBeGreaterThanOrEqual(b.stalled.rate);
    const sum = Object.values(b.winRates).reduce((s, r) => s + r.rate, 0) + b.stalled.rate;
    expect(sum).toBeCloseTo(1, 12);
  });

  it("S3: an estimate of any legal setup (roleListFault says none) never throws", () => {
    const unique = ROLE_IDS.filter((r) => r !== "citizen");
    const threshold = fc.integer({ min: 0, max: 42 });
    const setup = fc
      .record({
        picked: fc.subarray(unique),
        citizens: fc.integer({ min: 0, max: 40 }),
        options: fc.record({
          earlyClose: fc.constantFrom("majority", "all"),
          strikes: fc.constantFrom("shared", "separate"),
          revealAbove: threshold,
          threeIntimidationsFrom: threshold,
          serumRepeatBelow: threshold,
          lapseAt: threshold,
          earlyFromDay: threshold,
        }) satisfies fc.Arbitrary<GameOptions>,
      })
      .map(({ picked, citizens, options }) => {
        const roles: RoleId[] = [...picked, ...Array.from({ length: citizens }, (): RoleId => "citizen")];
        return { roles: roles.slice(0, 40), options };
      })
      .filter((s) => roleListFault(s.roles) === null);
    fc.assert(
      fc.property(setup, fc.nat({ max: 1_000_000 }), (s, from) => {
        const t = estimateChunk(s, from, 3);
        expect(t.games).toBe(3);
        const b = balanceOf(t);
        const sum = Object.values(b.winRates).reduce((x, r) => x + r.rate, 0) + b.stalled.rate;
        expect(sum).toBeCloseTo(1, 12);
      }),
      { seed: 2801, numRuns: 200 },
    );
  });
});

describe("npm run simulate -- --setup with a setup whose games can stall (issue 28)", () => {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const tmp = mkdtempSync(join(tmpdir(), "forum-mafia-stall-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("S3: the classic 17 with lapseAt 7 over 400 games prints the stalled share with its interval and a warning, exit 0", () => {
    const file = join(tmp, "lapse7.json");
    writeFileSync(file, JSON.stringify({ roles: LAPSE7.roles, options: { lapseAt: 7 } }));
    const out = join(tmp, "out");
    const r = spawnSync(
      "npm",
      [
        "run",
        "--silent",
        "simulate",
        "--",
        "--setup",
        file,
        "--games",
        "400",
        "--workers",
        "2",
        "--out",
        out,
      ],
      {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false" },
      },
    );
    if (r.error) throw r.error;
    expect(r.stderr).not.toMatch(/error|did not end/i);
    expect(r.status).toBe(0);
    // Game estimate:391 is among the 400, and it alone stalls in them: 1 of 400.
    const expected = balanceOf(estimateChunk(LAPSE7, 0, 400));
    expect(expected.stalled.rate).toBe(1 / 400);
    const written = JSON.parse(readFileSync(join(out, "estimate.json"), "utf8")) as { estimate: unknown };
    expect(written.estimate).toEqual(expected);
    const st = expected.stalled;
    expect(r.stdout).toContain(
      `Не кончились / Stalled  ${st.rate.toFixed(4)}   ${st.low.toFixed(4)} – ${st.high.toFixed(4)}`,
    );
    expect(r.stdout).toContain("warning: 0.3% of the games stalled");
  });
});
