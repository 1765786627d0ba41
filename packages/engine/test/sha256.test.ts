import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex, sha256Words } from "../src/sha256.ts";
import { rngFromSeed, seedCommitment } from "../src/rng.ts";

/**
 * Issue 29, item 6: the engine keeps its own SHA-256 (sha256.ts) for the seeds' streams (F1), since it saves
 * more than 5 % of a random game against @noble/hashes (`npm run bench:sha256`). A player checks a published
 * seed with any SHA-256 (the web's seed check uses the browser's crypto.subtle, the commitment noble's), so
 * ours must give the standard's digests: FIPS 180-4's examples, and node:crypto's at every padding edge.
 */

const node = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

describe("issue 29: sha256.ts is SHA-256", () => {
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
    [
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    ],
    ["a".repeat(1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"],
  ])("F1: FIPS 180-4's example of %# gives its digest", (text, digest) => {
    expect(sha256Hex(text)).toBe(digest);
    expect(node(text)).toBe(digest);
  });

  it("F1: every length across the padding's edges (55, 56, 63, 64 bytes…) gives node:crypto's digest", () => {
    for (let n = 0; n <= 200; n++) {
      const text = "deal:" + "x".repeat(n);
      expect(sha256Hex(text), `${text.length} bytes`).toBe(node(text));
    }
  });

  it("F1: UTF-8 of every width, and a lone surrogate read as U+FFFD (as TextEncoder and node:crypto read it)", () => {
    for (const text of [
      "rolls:Мафия на форуме «Зелёный дом»",
      "deal:é€😀",
      "😀".repeat(40),
      "ё".repeat(31) + "x",
      "a\ud800b",
      "\udc00",
      "x\ud83d",
    ]) {
      expect(sha256Hex(text), JSON.stringify(text)).toBe(node(text));
      // The browser's seed check hashes TextEncoder's bytes.
      expect(sha256Hex(text)).toBe(createHash("sha256").update(new TextEncoder().encode(text)).digest("hex"));
    }
  });

  it("F1: the words are the digest's, big-endian; the seed's generator and commitment read the same digest", () => {
    const seed = "c0ffee".repeat(10);
    const words = [...sha256Words(`deal:${seed}`)].map((w) => (w >>> 0).toString(16).padStart(8, "0"));
    const digest = createHash("sha256").update(`deal:${seed}`, "utf8").digest();
    expect(words.join("")).toBe(digest.toString("hex"));
    // rng.ts step 2: the first 16 bytes as four little-endian words.
    expect(rngFromSeed(`deal:${seed}`)).toEqual([0, 1, 2, 3].map((k) => digest.readUInt32LE(4 * k)));
    expect(seedCommitment(seed)).toBe(node(seed));
  });
});
