/**
 * SHA-256 (FIPS 180-4) of a string's UTF-8 bytes, for the generator's seeding (rng.ts, F1). The same
 * digest as any SHA-256 (a test compares it with node:crypto); written here because every game hashes
 * two or three short seeds and a general-purpose library costs several microseconds per short string.
 * Kept while it saves at least 5 % of a random game against @noble/hashes' fastest call
 * (`npm run bench:sha256`; issue 29 measured 0.5 against 2.5 µs a hash, 6.6–9.3 % of a whole game A/B).
 * Pure: the scratch buffers below are reused, never read before they are written.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const W = new Int32Array(64);
const OUT = new Int32Array(8);
let bytes = new Uint8Array(256);

/** The string's UTF-8 bytes into `bytes` (a lone surrogate becomes U+FFFD, as TextEncoder does); the length. */
function encode(text: string): number {
  if (bytes.length < text.length * 3 + 72) bytes = new Uint8Array(text.length * 3 + 72);
  const b = bytes;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      b[n++] = c;
      continue;
    }
    if (c < 0x800) {
      b[n++] = 0xc0 | (c >> 6);
      b[n++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        b[n++] = 0xf0 | (c >> 18);
        b[n++] = 0x80 | ((c >> 12) & 0x3f);
        b[n++] = 0x80 | ((c >> 6) & 0x3f);
        b[n++] = 0x80 | (c & 0x3f);
        continue;
      }
      c = 0xfffd;
    }
    b[n++] = 0xe0 | (c >> 12);
    b[n++] = 0x80 | ((c >> 6) & 0x3f);
    b[n++] = 0x80 | (c & 0x3f);
  }
  return n;
}

/**
 * The digest of the text's UTF-8 bytes as eight big-endian 32-bit words (signed; `>>> 0` for unsigned),
 * in a buffer that the next call overwrites: read it at once.
 */
export function sha256Words(text: string): Int32Array {
  const len = encode(text);
  const b = bytes;
  // Padding: 0x80, zeros, and the length in bits as a 64-bit big-endian number.
  const total = (((len + 8) >> 6) + 1) << 6;
  b[len] = 0x80;
  for (let i = len + 1; i < total - 8; i++) b[i] = 0;
  const bits = len * 8;
  const hi = Math.floor(bits / 0x100000000);
  b[total - 8] = hi >>> 24;
  b[total - 7] = (hi >>> 16) & 0xff;
  b[total - 6] = (hi >>> 8) & 0xff;
  b[total - 5] = hi & 0xff;
  b[total - 4] = bits >>> 24;
  b[total - 3] = (bits >>> 16) & 0xff;
  b[total - 2] = (bits >>> 8) & 0xff;
  b[total - 1] = bits & 0xff;

  let h0 = 0x6a09e667 | 0;
  let h1 = 0xbb67ae85 | 0;
  let h2 = 0x3c6ef372 | 0;
  let h3 = 0xa54ff53a | 0;
  let h4 = 0x510e527f | 0;
  let h5 = 0x9b05688c | 0;
  let h6 = 0x1f83d9ab | 0;
  let h7 = 0x5be0cd19 | 0;
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) {
      const j = off + i * 4;
      W[i] = (b[j]! << 24) | (b[j + 1]! << 16) | (b[j + 2]! << 8) | b[j + 3]!;
    }
    for (let i = 16; i < 64; i++) {
      const w15 = W[i - 15]!;
      const w2 = W[i - 2]!;
      const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
      const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
      W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
    }
    let a = h0;
    let bb = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[i]! + W[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & bb) ^ (a & c) ^ (bb & c);
      const t2 = (S0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = bb;
      bb = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + bb) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  OUT[0] = h0;
  OUT[1] = h1;
  OUT[2] = h2;
  OUT[3] = h3;
  OUT[4] = h4;
  OUT[5] = h5;
  OUT[6] = h6;
  OUT[7] = h7;
  return OUT;
}

/** The digest in lowercase hex. */
export function sha256Hex(text: string): string {
  let out = "";
  for (const w of sha256Words(text)) out += (w >>> 0).toString(16).padStart(8, "0");
  return out;
}
