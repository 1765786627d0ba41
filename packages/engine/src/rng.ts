import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { sha256Words } from "./sha256.ts";

/**
 * The game's seeded generator (F1, O8). Anyone can reimplement it to verify a published game:
 *
 * 1. Take a label and the seed, encode `label + seed` as UTF-8 and hash it with SHA-256. The deal (S1)
 *    uses the label `"deal:"`, the night rolls the label `"rolls:"`. Two streams, so that a game dealt by
 *    hand and a game dealt from the seed roll the same dice; and neither is the plain SHA-256 of the seed,
 *    which is the commitment published before the deal (F1) and must not give the dice away.
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

/** F1: the stream of the deal, and the stream of the night rolls (step 1 above). */
export const dealStream = (seed: string): RngState => rngFromSeed(`deal:${seed}`);
export const rollStream = (seed: string): RngState => rngFromSeed(`rolls:${seed}`);

/** xoshiro128** seeded from SHA-256 of a string (steps 1–2 above). */
export function rngFromSeed(seed: string): RngState {
  const h = sha256Words(seed);
  // The digest's bytes 4k … 4k+3 read little-endian: the big-endian word k with its bytes swapped.
  const s: [number, number, number, number] = [swap(h[0]!), swap(h[1]!), swap(h[2]!), swap(h[3]!)];
  if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1;
  return s;
}

const swap = (w: number): number =>
  ((w >>> 24) | ((w >>> 8) & 0xff00) | ((w & 0xff00) << 8) | ((w & 0xff) << 24)) >>> 0;

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
  if (out.length < 2) return { value: out, state: s };
  // nextIndex's draws, with the generator's words held here rather than in a new state per draw.
  const stream = new RandomStream(s);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor((stream.nextU32() * (i + 1)) / TWO_32);
    const tmp = out[i]!;
    out[i] = out[j]!;
    out[j] = tmp;
  }
  return { value: out, state: stream.state };
}

/**
 * The same generator with its state held inside, for players and bots that draw often: each call gives
 * exactly what nextU32 would, without allocating. The game's own rolls stay in GameState (nextU32).
 */
export class RandomStream {
  /** s0..s3 as signed 32-bit words: a typed array keeps them unboxed (numbers ≥ 2^30 are no small integers). */
  private readonly s = new Int32Array(4);

  constructor(state: RngState) {
    const s = this.s;
    s[0] = state[0];
    s[1] = state[1];
    s[2] = state[2];
    s[3] = state[3];
  }

  nextU32(): number {
    const s = this.s;
    const s0 = s[0]!;
    const s1 = s[1]!;
    const r = Math.imul(s1, 5);
    const value = Math.imul((r << 7) | (r >>> 25), 9) >>> 0;
    const s2 = s[2]! ^ s0;
    const s3 = s[3]! ^ s1;
    s[1] = s1 ^ s2;
    s[0] = s0 ^ s3;
    s[2] = s2 ^ (s1 << 9);
    s[3] = (s3 << 11) | (s3 >>> 21);
    return value;
  }

  get state(): RngState {
    const s = this.s;
    return [s[0]! >>> 0, s[1]! >>> 0, s[2]! >>> 0, s[3]! >>> 0];
  }
}
