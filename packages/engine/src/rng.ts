import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/**
 * The game's seeded generator (F1, O8). Anyone can reimplement it to verify a published game:
 *
 * 1. Take the seed string, encode it as UTF-8 and hash it with SHA-256. For the deal (S1) the string
 *    hashed is `"deal:" + seed`; for the night rolls it is the seed itself. Two streams, so that a game
 *    dealt by hand and a game dealt from the seed roll the same dice.
 * 2. The first 16 bytes of the digest, read as four little-endian unsigned 32-bit words s0..s3, are the
 *    state of xoshiro128** (Blackman & Vigna, 2018). An all-zero state becomes s0 = 1.
 * 3. Each draw is one xoshiro128** output u, a 32-bit unsigned integer:
 *      result = rotl(s1 * 5, 7) * 9;  t = s1 << 9;
 *      s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11)   (all mod 2^32)
 * 4. A roll with probability p (0.5 or 0.75) comes out true iff u < p * 2^32.
 * 5. The deal shuffles the role list (in the order of the setup) with Fisher–Yates from the last index
 *    down: for i = n-1 … 1, j = floor(u * (i + 1) / 2^32), swap(i, j); seat k gets role k of the result.
 */
export type RngState = readonly [number, number, number, number];

export function seedCommitment(seed: string): string {
  return bytesToHex(sha256(utf8ToBytes(seed)));
}

export function rngFromSeed(seed: string): RngState {
  const d = sha256(utf8ToBytes(seed));
  const word = (i: number): number =>
    (d[i]! | (d[i + 1]! << 8) | (d[i + 2]! << 16) | (d[i + 3]! << 24)) >>> 0;
  const s: [number, number, number, number] = [word(0), word(4), word(8), word(12)];
  if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1;
  return s;
}

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;

export function nextU32(s: RngState): { value: number; state: RngState } {
  let [s0, s1, s2, s3] = s;
  const value = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
  const t = (s1 << 9) >>> 0;
  s2 = (s2 ^ s0) >>> 0;
  s3 = (s3 ^ s1) >>> 0;
  s1 = (s1 ^ s2) >>> 0;
  s0 = (s0 ^ s3) >>> 0;
  s2 = (s2 ^ t) >>> 0;
  s3 = rotl(s3, 11);
  return { value, state: [s0, s1, s2, s3] };
}

const TWO_32 = 4294967296;

export function rollChance(s: RngState, probability: number): { value: boolean; state: RngState } {
  const next = nextU32(s);
  return { value: next.value < probability * TWO_32, state: next.state };
}

/** An integer in [0, n), as in step 5 above. */
export function nextIndex(s: RngState, n: number): { value: number; state: RngState } {
  const next = nextU32(s);
  return { value: Math.floor((next.value * n) / TWO_32), state: next.state };
}

export function shuffle<T>(items: readonly T[], s: RngState): { value: T[]; state: RngState } {
  const out = items.slice();
  let state = s;
  for (let i = out.length - 1; i > 0; i--) {
    const r = nextIndex(state, i + 1);
    state = r.state;
    const tmp = out[i]!;
    out[i] = out[r.value]!;
    out[r.value] = tmp;
  }
  return { value: out, state };
}
