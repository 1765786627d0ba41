/**
 * The balance estimate of a setup (issue 17, estimate.ts): its figures depend on the setup and the game
 * count only — not on how the games are cut into chunks, nor on the order the role list is written in —
 * and its counts agree with the role list counted by hand. `npm run simulate -- --setup FILE` prints the
 * same figures as the engine here (and so as the app's endpoint).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, type RoleId } from "../src/index.ts";
import {
  balanceOf,
  canonicalRoles,
  estimateChunk,
  mergeChunks,
  mergeTallies,
  playBotGame,
  recordOf,
  type EstimateSetup,
} from "../src/bots-entry.ts";

/** A 9-seat setup with its thresholds scaled to 9 (the small preset as first drafted). */
const SMALL: EstimateSetup = {
  roles: ["boss", "thug", "maniac", "sheriff", "doctor", "girl", "citizen", "citizen", "citizen"],
  options: {
    ...DEFAULT_OPTIONS,
    revealAbove: 6,
    threeIntimidationsFrom: 9,
    serumRepeatBelow: 8,
    earlyFromDay: 2,
  },
};

/** Chunks of the given sizes, back to back from game 0. */
function chunked(setup: EstimateSetup, sizes: readonly number[]) {
  const tallies = [];
  let from = 0;
  for (const size of sizes) {
    tallies.push(estimateChunk(setup, from, size));
    from += size;
  }
  return mergeChunks(tallies);
}

describe("the balance estimate", () => {
  it("S3: 200 games of a setup give the same tally in one chunk, in chunks of 50, and in uneven chunks", () => {
    const whole = estimateChunk(SMALL, 0, 200);
    expect(whole.games).toBe(200);
    const fifties = [0, 50, 100, 150].map((from) => estimateChunk(SMALL, from, 50));
    expect(mergeChunks(fifties)).toEqual(whole);
    // Merged in another order too: a tally is integer counts.
    expect(fifties.reduceRight(mergeTallies)).toEqual(whole);
    const uneven = chunked(SMALL, [1, 99, 7, 33, 60]);
    expect(uneven).toEqual(whole);
    expect(balanceOf(uneven)).toEqual(balanceOf(whole));
  });

  it("S3: the counts add up: every game has one winner, and each role is dealt as often as the list holds it", () => {
    const games = 120;
    const t = estimateChunk(SMALL, 0, games);
    expect(t.wins.town + t.wins.mafia + t.wins.maniac + t.wins.draw).toBe(games);
    // By hand from the list: one each of six roles, three citizens, and nothing else.
    const listed: Partial<Record<RoleId, number>> = {
      boss: 1,
      thug: 1,
      maniac: 1,
      sheriff: 1,
      doctor: 1,
      girl: 1,
      citizen: 3,
    };
    for (const [role, counts] of Object.entries(t.roles))
      expect([role, counts.dealt]).toEqual([role, games * (listed[role as RoleId] ?? 0)]);
    // Every game lasts at least one night, and a day comes only after a night.
    expect(t.phases).toBeGreaterThanOrEqual(games);
    expect(t.days).toBeLessThanOrEqual(t.phases);
  });

  it("S1, S3: game i is the bot game dealt from estimate:i with the list in the table's order, its votes informed", () => {
    const t = estimateChunk(SMALL, 5, 3);
    const winners = [5, 6, 7].map(
      (i) =>
        recordOf(
          playBotGame(`estimate:${i}`, {
            roles: canonicalRoles(SMALL.roles),
            gameOptions: SMALL.options,
            votes: "informed",
          }),
        ).winner,
    );
    for (const w of ["town", "mafia", "maniac", "draw"] as const)
      expect(t.wins[w]).toBe(winners.filter((x) => x === w).length);
  });

  it("S1: roles are dealt at random, so the same roles written in another order give the same figures", () => {
    const reversed: EstimateSetup = { roles: [...SMALL.roles].reverse(), options: SMALL.options };
    expect(estimateChunk(reversed, 0, 40)).toEqual(estimateChunk(SMALL, 0, 40));
    expect(canonicalRoles(["citizen", "maniac", "boss", "citizen"])).toEqual([
      "boss",
      "maniac",
      "citizen",
      "citizen",
    ]);
  });

  it("S3: the options are part of the setup: another threshold plays other games", () => {
    const other: EstimateSetup = { roles: SMALL.roles, options: { ...SMALL.options, revealAbove: 0 } };
    expect(estimateChunk(other, 0, 40)).not.toEqual(estimateChunk(SMALL, 0, 40));
  });

  it("W1: balanceOf reads each side's rate with its 95% interval and the mean length from the tally", () => {
    const t = estimateChunk(SMALL, 0, 100);
    const b = balanceOf(t);
    expect(b.games).toBe(100);
    const rates = Object.values(b.winRates);
    expect(rates.reduce((s, r) => s + r.rate, 0)).toBeCloseTo(1, 12);
    for (const r of rates) {
      expect(r.low).toBeLessThanOrEqual(r.rate);
      expect(r.high).toBeGreaterThanOrEqual(r.rate);
    }
    expect(b.winRates.town.rate).toBe(t.wins.town / 100);
    expect(b.meanDays).toBe(t.days / 100);
    expect(b.meanPhases).toBe(t.phases / 100);
  });

  it("S3: an empty chunk is an empty tally, and a negative range is a broken invariant", () => {
    expect(estimateChunk(SMALL, 10, 0).games).toBe(0);
    expect(() => estimateChunk(SMALL, -1, 5)).toThrow(/non-negative/);
  });
});

describe("the estimate command (npm run simulate -- --setup FILE)", () => {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const tmp = mkdtempSync(join(tmpdir(), "forum-mafia-estimate-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const env = { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false" };
  const run = (...args: string[]) => {
    const r = spawnSync("npm", ["run", "--silent", "simulate", "--", ...args], {
      cwd: root,
      encoding: "utf8",
      env,
    });
    if (r.error) throw r.error;
    return r;
  };

  it("S3: --setup with --games 200 prints and writes the figures of estimateChunk over the same 200 games", () => {
    const file = join(tmp, "small.json");
    // Options partial: the others take their defaults, as the endpoint's do.
    const { revealAbove, threeIntimidationsFrom, serumRepeatBelow, earlyFromDay } = SMALL.options;
    writeFileSync(
      file,
      JSON.stringify({
        roles: SMALL.roles,
        options: { revealAbove, threeIntimidationsFrom, serumRepeatBelow, earlyFromDay },
      }),
    );
    const out = join(tmp, "out");
    const r = run("--setup", file, "--games", "200", "--workers", "2", "--out", out);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.status).toBe(0);
    const expected = balanceOf(estimateChunk(SMALL, 0, 200));
    const written = JSON.parse(readFileSync(join(out, "estimate.json"), "utf8")) as { estimate: unknown };
    expect(written.estimate).toEqual(expected);
    expect(r.stdout).toContain("200 bot games (seeds estimate:0…estimate:199)");
    for (const w of ["town", "mafia", "maniac", "draw"] as const) {
      const x = expected.winRates[w];
      expect(r.stdout).toContain(`${x.rate.toFixed(4)}   ${x.low.toFixed(4)} – ${x.high.toFixed(4)}`);
    }
    expect(r.stdout).toContain(
      `mean game length (games that ended): ${expected.meanDays.toFixed(2)} days, ${expected.meanPhases.toFixed(2)} phases`,
    );
    // Issue 28: the stalled share, its interval, and in words what the rates are shares of.
    const st = expected.stalled;
    expect(r.stdout).toContain(
      `Не кончились / Stalled  ${st.rate.toFixed(4)}   ${st.low.toFixed(4)} – ${st.high.toFixed(4)}`,
    );
    expect(r.stdout).toContain("the rates are shares of all 200 games");
    expect(r.stdout).toContain("no game stalled");
  });

  it("S3: a setup file with a role list the rules refuse is one line on stderr naming S3, nothing on stdout, and exit 2", () => {
    const file = join(tmp, "no-opponent.json");
    writeFileSync(file, JSON.stringify({ roles: ["sheriff", "doctor", "citizen"] }));
    const r = run("--setup", file, "--games", "200", "--out", join(tmp, "never"));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")).toEqual([
      "simulate: no-opponent.json: roles: the role list has neither a mafia member nor the maniac (S3)",
      "",
    ]);
  });
});
