import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePost, type PostNode } from "../src/post-tree.ts";

/** The text and markup nodes of a tree, in order. */
function leaves(nodes: readonly PostNode[]): { text: string; at: number }[] {
  return nodes.flatMap((node) =>
    node.kind === "text" || node.kind === "markup" ? [node] : leaves(node.children),
  );
}

describe("parsePost", () => {
  it("keeps the offset of every piece of text, so votes can point into the post", () => {
    const source = "Привет, [b]Вася[/b] [quote=Оля]x[/quote]\r\n[url]y[/url]";
    expect(leaves(parsePost(source)).map((l) => [l.text, l.at])).toEqual([
      ["Привет,", 0],
      [" ", 7],
      ["Вася", 11],
      [" ", 19],
      ["x", 31],
      ["\r", 40],
      ["\n", 41],
      ["[url]", 42],
      ["y", 47],
      ["[/url]", 48],
    ]);
  });

  it("property: every text and markup node is the source at its offset, in order", () => {
    const piece = fc.constantFrom(
      "[b]",
      "[/b]",
      "[quote=",
      "[/quote]",
      "[color=red]",
      "[/color]",
      "[",
      "]",
      "=",
      '"',
      " ",
      "\n",
      "x",
      "Вася",
    );
    const source = fc.oneof(
      fc
        .array(fc.oneof(piece, fc.string({ unit: "binary", maxLength: 2 })), { maxLength: 40 })
        .map((a) => a.join("")),
      fc.string({ unit: "binary" }),
    );
    fc.assert(
      fc.property(source, (text) => {
        let last = -1;
        for (const leaf of leaves(parsePost(text))) {
          expect(text.slice(leaf.at, leaf.at + leaf.text.length)).toBe(leaf.text);
          expect(leaf.at).toBeGreaterThan(last);
          last = leaf.at;
        }
      }),
      { seed: 3303, numRuns: 1000 },
    );
  });
});
