// The replay command must answer every file with an outcome or one ReplayError line (REPLAY.md): never
// a crash, whatever the input. Random mutations of the golden files check that.
import { readFileSync, readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReplayError, runReplay } from "../src/index.ts";

const dir = new URL("./golden/", import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".json") && !f.endsWith(".out.json"))
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), "utf8")) as unknown);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value inside a JSON document. */
function paths(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])));
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

/** The document with the value at `path` replaced (or, with `undefined`, removed). */
function mutate(value: Json, path: (string | number)[], replacement: Json | undefined): Json {
  if (path.length === 0) return replacement === undefined ? null : replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = value.slice();
    if (rest.length === 0 && replacement === undefined) copy.splice(head as number, 1);
    else copy[head as number] = mutate(copy[head as number]!, rest, replacement);
    return copy;
  }
  const obj = value as { [key: string]: Json };
  if (rest.length === 0 && replacement === undefined)
    return Object.fromEntries(Object.entries(obj).filter(([k]) => k !== head));
  return { ...obj, [head as string]: mutate(obj[head as string]!, rest, replacement) };
}

/** Runs a file: "ok", or the one error line; anything else thrown fails the property. */
function outcome(input: unknown): string {
  try {
    runReplay(input);
    return "ok";
  } catch (e) {
    if (!(e instanceof ReplayError)) throw e;
    expect(e.message).not.toMatch(/\n/);
    expect(e.message).toMatch(/^(file|setup|night \d+|day \d+|phase \d+): .+ \([A-Z][A-Za-z0-9.]*\)$/);
    return e.message;
  }
}

describe("the replay command never crashes", () => {
  it("G1: random changes to valid files give an outcome or one error line naming the phase and clause", () => {
    const names = ["Вася", "вАСЯ", "Неизвестный", "", "Пётр"];
    const replacement = fc.oneof(
      fc.constant(undefined),
      fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
      fc.constantFrom<Json>(
        ...names,
        "pass",
        "mafia",
        "heal",
        "citizen",
        "boss",
        -1,
        0,
        1,
        2,
        99,
        true,
        [],
        {},
      ),
    );
    fc.assert(
      fc.property(fc.nat(files.length - 1), fc.nat(), replacement, (f, p, r) => {
        const doc = files[f] as Json;
        const all = paths(doc);
        const path = all[p % all.length]!;
        outcome(mutate(doc, path, r));
      }),
      { seed: 3, numRuns: 1500 },
    );
  });
});
