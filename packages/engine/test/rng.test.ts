import { describe, expect, it } from "vitest";
import { nextU32, rngFromSeed, RandomStream, type RngState } from "../src/rng.ts";
import { referenceDraws } from "./reference-rng.ts";

/** F1: anyone can check a published game's dice from rng.ts's description; the engine's must match it. */
describe("the seeded generator", () => {
  const seeds = ["", "a", "rolls:abc", "deal:Мафия 2026", "rolls:R3: две кости", "x".repeat(300)];

  it.each(seeds)(
    "F1: the draws for %j are those of the published description (SHA-256, xoshiro128**)",
    (seed) => {
      const want = referenceDraws(seed, 64);
      let s: RngState = rngFromSeed(seed);
      const got: bigint[] = [];
      for (let i = 0; i < 64; i++) {
        const next = nextU32(s);
        got.push(BigInt(next.value));
        s = next.state;
      }
      expect(got).toEqual(want);
      // The bots' stream gives the same numbers.
      const stream = new RandomStream(rngFromSeed(seed));
      expect(Array.from({ length: 64 }, () => BigInt(stream.nextU32()))).toEqual(want);
    },
  );
});
