/**
 * Golden replays (REPLAY.md): every `golden/NAME.json` is a replay file with either its expected outcome
 * `NAME.out.json` or the exact one-line error `NAME.err.txt`. The expected files were worked out by hand
 * from RULES.md and REPLAY.md, not copied from the engine.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLAUSES, ReplayError, exportReplay, replayMatch, runReplay } from "../src/index.ts";

const dir = new URL("./golden/", import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, dir), "utf8");
const names = readdirSync(dir)
  .filter((f) => f.endsWith(".json") && !f.endsWith(".out.json"))
  .map((f) => f.slice(0, -".json".length))
  .sort();
const games = names.filter((n) => existsSync(new URL(`${n}.out.json`, dir)));
const errors = names.filter((n) => existsSync(new URL(`${n}.err.txt`, dir)));

/** What each golden game shows, led by the clause it mainly exercises. */
const GAMES: Record<string, string> = {
  "full-game-town":
    "W1: a 17-player game over five nights and days (seeded rolls, M7, T3e, N1a, V8, M3) ends in the town's win",
  "replacement-modkill":
    "P4: a substitute inherits the seat (a torture silence, last night's targets); a GM modkill ends the day (F2)",
  "early-close-day3":
    "V7: early votes do nothing before day 3; on day 3 the M3 boss's early vote helps close the day",
  "lawyer-excused":
    "V8: the lawyer excuses the boss twice (a blocked unprotect, a lawyer killed that night), then the boss hangs",
  "maniac-wins": "W1: the maniac wins when at most one other player is alive",
  "mafia-wins": "W1: the mafia wins when it equals the living non-mafia; a tie hangs nobody (G3)",
  draw: "W1: a night in which everyone dies is a draw (T6's mark takes the last one)",
  "small-setup-thresholds":
    "S3: nine players under other thresholds: three intimidations at 9 (M2b from 9), roles revealed above 6 alive (R1), an early close on day 2 (V7 from day 2)",
  "strikes-replacement":
    "P3: a second strike is a modkill; a substitute inherits a strike (P4); the mafia wins after the modkill",
};

describe("G1: golden replays", () => {
  it("G1: the golden folder holds at least 8 games and a set of error files, each with one expectation", () => {
    expect(games.length).toBeGreaterThanOrEqual(8);
    expect(errors.length).toBeGreaterThanOrEqual(8);
    expect([...games, ...errors].sort()).toEqual(names);
    expect(games.filter((g) => errors.includes(g))).toEqual([]);
    expect(games.filter((g) => GAMES[g] === undefined)).toEqual([]);
  });

  it.each(games.map((n) => [GAMES[n] ?? n, n]))("%s (%s)", (_title, name) => {
    const input: unknown = JSON.parse(read(`${name}.json`));
    const expected: unknown = JSON.parse(read(`${name}.out.json`));
    expect(runReplay(input)).toEqual(expected);
  });

  it.each(games)("G1: the engine's own log of %s replays to the same outcome", (name) => {
    const input: unknown = JSON.parse(read(`${name}.json`));
    expect(runReplay(exportReplay(replayMatch(input)))).toEqual(runReplay(input));
  });

  const errorTitle = (name: string): string => {
    const line = read(`${name}.err.txt`).trim();
    const clause = /\(([A-Z]\d{1,2}[a-e]?)\)$/.exec(line)?.[1];
    const id = clause !== undefined && (CLAUSES as readonly string[]).includes(clause) ? clause : "G1";
    return `${id}: ${name} is refused with its one line`;
  };

  it.each(errors.map((n) => [errorTitle(n), n]))("%s", (_title, name) => {
    const input: unknown = JSON.parse(read(`${name}.json`));
    const expected = read(`${name}.err.txt`);
    expect(expected.endsWith("\n") && expected.indexOf("\n") === expected.length - 1).toBe(true);
    let message: string | null = null;
    try {
      runReplay(input);
    } catch (e) {
      if (!(e instanceof ReplayError)) throw e;
      message = e.message;
    }
    expect(message).toBe(expected.trimEnd());
  });
});
