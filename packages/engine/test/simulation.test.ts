/**
 * The balance simulator (issue 5): the statistics on hand-made records, the SVG chart, determinism of
 * `simulate` for a seed however the games are cut into chunks, and the command run for real.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_ROLES, type Player, type RoleId, type Winner } from "../src/index.ts";
import {
  mergeSummaries,
  recordOf,
  simulate,
  summarize,
  playBotGame,
  winRateSvg,
  wilson,
  type GameRecord,
} from "../src/bots-entry.ts";
import { winCondition, type WinCondition } from "../src/state.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "forum-mafia-sim-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CONDITION: { readonly [W in Winner]: WinCondition } = {
  town: "noMafiaNoManiac",
  mafia: "mafiaParity",
  maniac: "maniacLast",
  draw: "allDead",
};

/** A 17-seat record in which the first `alive` seats of the default deal survived. */
function record(winner: Winner, phases: number, alive: number): GameRecord {
  return {
    winner,
    condition: CONDITION[winner],
    phases,
    days: Math.floor(phases / 2),
    players: DEFAULT_ROLES.map((role, i) => ({ role, survived: i < alive })),
  };
}

const player = (role: RoleId, alive: boolean): Player => ({
  name: role,
  role,
  alive,
  voteStrikes: 0,
  nightStrikes: 0,
  conductStrikes: 0,
});

describe("summaries", () => {
  it("W1: summarize counts each faction's wins with a 95% Wilson interval (50 of 100 → [0.4038, 0.5962]), the mean length, survival and conditions", () => {
    const records = [
      ...Array.from({ length: 50 }, () => record("mafia", 8, 5)),
      ...Array.from({ length: 30 }, () => record("town", 10, 0)),
      ...Array.from({ length: 20 }, () => record("maniac", 13, 6)),
    ];
    const s = summarize(records);
    expect(s.tally.games).toBe(100);
    expect(s.winRates.mafia.count).toBe(50);
    expect(s.winRates.mafia.rate).toBe(0.5);
    expect(s.winRates.mafia.low).toBeCloseTo(0.4038, 4);
    expect(s.winRates.mafia.high).toBeCloseTo(0.5962, 4);
    expect(s.winRates.town.low).toBeCloseTo(0.2189, 4);
    expect(s.winRates.town.high).toBeCloseTo(0.3958, 4);
    expect(s.winRates.draw).toEqual({ count: 0, rate: 0, low: 0, high: expect.closeTo(0.037, 4) });
    expect(s.meanPhases).toBeCloseTo((50 * 8 + 30 * 10 + 20 * 13) / 100, 10);
    expect(s.meanDays).toBeCloseTo((50 * 4 + 30 * 5 + 20 * 6) / 100, 10);
    expect(s.conditions).toEqual({ allDead: 0, noMafiaNoManiac: 0.3, maniacLast: 0.2, mafiaParity: 0.5 });
    // Seats 0–4 (the mafia) survive in 70 games; the maniac (seat 5) in 20; the citizens never.
    expect(s.survival.boss).toBe(0.7);
    expect(s.survival.thug).toBe(0.7);
    expect(s.survival.maniac).toBe(0.2);
    expect(s.survival.citizen).toBe(0);
    expect(s.tally.roles.citizen.dealt).toBe(500);
  });

  it("W1: the Wilson interval at the edges: 0 of 10, 10 of 10, and no games at all", () => {
    expect(wilson(0, 10).low).toBe(0);
    expect(wilson(0, 10).high).toBeCloseTo(0.2775, 4);
    expect(wilson(10, 10).low).toBeCloseTo(0.7225, 4);
    expect(wilson(10, 10).high).toBe(1);
    expect(wilson(0, 0)).toEqual({ count: 0, rate: 0, low: 0, high: 0 });
  });

  it("W1: the win condition is read from the final table in winnerOf's order", () => {
    expect(winCondition([player("boss", false), player("citizen", false)])).toBe("allDead");
    expect(winCondition([player("boss", false), player("citizen", true)])).toBe("noMafiaNoManiac");
    expect(winCondition([player("maniac", true), player("boss", true)])).toBe("maniacLast");
    expect(winCondition([player("boss", true), player("citizen", true)])).toBe("mafiaParity");
    expect(winCondition([player("boss", true), player("citizen", true), player("doctor", true)])).toBeNull();
    const m = playBotGame("sim-record");
    const r = recordOf(m);
    expect(r.winner).toBe(m.state.winner);
    expect(r.phases).toBe(m.outcomes.length);
    expect(r.players.map((p) => p.role)).toEqual(m.state.players.map((p) => p.role));
  });

  it("W1: merging partial summaries equals summarizing every game at once", () => {
    const a = [record("mafia", 8, 5), record("town", 9, 2)];
    const b = [record("maniac", 12, 6), record("draw", 14, 0), record("mafia", 7, 3)];
    expect(mergeSummaries(summarize(a), summarize(b))).toEqual(summarize([...a, ...b]));
    expect(mergeSummaries(summarize(b), summarize(a))).toEqual(summarize([...a, ...b]));
  });

  it("W1: winRateSvg draws one bar and one error bar per faction, labels them in Russian and English, and escapes text", () => {
    const s = summarize([record("mafia", 8, 5), record("town", 9, 2)]);
    const svg = winRateSvg(s, `seed <script>&"x'`);
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    expect(svg.match(/class="bar"/g)).toHaveLength(4);
    expect(svg.match(/class="ci"/g)).toHaveLength(4);
    for (const label of ["Город / Town", "Мафия / Mafia", "Маньяк / Maniac", "Ничья / Draw"])
      expect(svg).toContain(label);
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("seed &lt;script&gt;&amp;&quot;x&#39;");
  });
});

describe("determinism", () => {
  it("F1: simulate gives equal summaries for the same seed, another for another seed, and chunks merged equal one run", () => {
    const once = simulate("det", 12);
    expect(simulate("det", 12)).toEqual(once);
    expect(once.tally.games).toBe(12);
    const chunks = [
      simulate("det", 5, { from: 0 }),
      simulate("det", 4, { from: 5 }),
      simulate("det", 3, { from: 9 }),
    ];
    expect(chunks.reduce(mergeSummaries)).toEqual(once);
    expect(simulate("other", 12)).not.toEqual(once);
  });

  it("F1: the simulate command prints the summary, writes the JSON and the SVG, equals simulate in process, and refuses a bad flag with one line and exit 2", () => {
    const env = { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false" };
    const run = spawnSync(
      "npm",
      ["run", "--silent", "simulate", "--", "--games", "40", "--workers", "2", "--seed", "t", "--out", tmp],
      { cwd: root, encoding: "utf8", env },
    );
    if (run.error) throw run.error;
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("40 bot games");
    expect(run.stdout).toContain("Мафия / Mafia");
    expect(run.stdout).toContain("mean game length");
    expect(existsSync(join(tmp, "simulation.svg"))).toBe(true);
    const json = JSON.parse(readFileSync(join(tmp, "simulation.json"), "utf8")) as {
      seed: string;
      games: number;
      summary: unknown;
    };
    expect(json.seed).toBe("t");
    expect(json.games).toBe(40);
    expect(json.summary).toEqual(JSON.parse(JSON.stringify(simulate("t", 40))));

    const bad = spawnSync("npm", ["run", "--silent", "simulate", "--", "--games", "many", "--out", tmp], {
      cwd: root,
      encoding: "utf8",
      env,
    });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr.split("\n")).toEqual([expect.stringContaining("--games"), ""]);
  });
});
