// Stands in for src/sha256.ts in the bench's second build (sha256.bench.ts): the same words from
// @noble/hashes' fastest call for a short string measured there, sha256(utf8ToBytes(text)).
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";

const OUT = new Int32Array(8);

export function sha256Words(text: string): Int32Array {
  const d = sha256(utf8ToBytes(text));
  for (let i = 0; i < 8; i++)
    OUT[i] = (d[4 * i]! << 24) | (d[4 * i + 1]! << 16) | (d[4 * i + 2]! << 8) | d[4 * i + 3]!;
  return OUT;
}
