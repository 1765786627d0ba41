import { createHash } from "node:crypto";

/**
 * The dice as rng.ts documents them for anyone who checks a published game (F1, O8), written again from
 * that description alone, with other tools (node:crypto and BigInt instead of @noble/hashes and 32-bit
 * integer tricks), so a test's expected roll does not come from the code under test.
 */
const MASK = (1n << 32n) - 1n;
const rotl = (x: bigint, k: bigint): bigint => ((x << k) | (x >> (32n - k))) & MASK;

/** The first `count` 32-bit outputs of xoshiro128** seeded from SHA-256(label + seed) (steps 1–3). */
export function referenceDraws(labelAndSeed: string, count: number): bigint[] {
  const d = createHash("sha256").update(labelAndSeed, "utf8").digest();
  const s: bigint[] = [0, 4, 8, 12].map((i) => BigInt(d.readUInt32LE(i)));
  if (!s.some((w) => w !== 0n)) s[0] = 1n; // an all-zero state
  const out: bigint[] = [];
  for (let n = 0; n < count; n++) {
    out.push((rotl((s[1]! * 5n) & MASK, 7n) * 9n) & MASK);
    const t = (s[1]! << 9n) & MASK;
    s[2] = s[2]! ^ s[0]!;
    s[3] = s[3]! ^ s[1]!;
    s[1] = s[1]! ^ s[2]!;
    s[0] = s[0]! ^ s[3]!;
    s[2] = s[2]! ^ t;
    s[3] = rotl(s[3]!, 11n);
  }
  return out;
}

/** Rolls with the given probabilities, in order: true iff the draw is below p · 2^32 (step 4). */
export function referenceRolls(labelAndSeed: string, probabilities: readonly number[]): boolean[] {
  const draws = referenceDraws(labelAndSeed, probabilities.length);
  return probabilities.map((p, i) => Number(draws[i]!) < p * 2 ** 32);
}
