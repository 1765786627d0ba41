import type { PostNode } from "./post-tree.ts";

/** A post's text outside quotes, with a way back from a position in it to the source. */
export interface PlainText {
  readonly text: string;
  /** The source offset of the character at `index` in `text` (`text.length` maps past the last piece). */
  readonly sourceOffset: (index: number) => number;
}

interface Piece {
  readonly text: string;
  readonly at: number;
  /** Where the piece begins in the joined text. */
  readonly start: number;
}

/**
 * The text a reader sees outside quotes: every quote (nested ones with it) is left out, tag markup is
 * dropped (allowed tags and literal ones alike, so `[size=5]Вася[/size]` reads "Вася"), and the text
 * inside every other tag, hidden spoiler text included, is kept. Quote authors and spoiler titles are
 * not text.
 */
export function plainTextOutsideQuotes(nodes: readonly PostNode[]): PlainText {
  const pieces: Piece[] = [];
  let length = 0;
  const walk = (node: PostNode): void => {
    switch (node.kind) {
      case "text":
        pieces.push({ text: node.text, at: node.at, start: length });
        length += node.text.length;
        return;
      case "markup":
      case "quote":
        return;
      case "style":
      case "spoiler":
      case "color":
        node.children.forEach(walk);
        return;
      default: {
        const never: never = node;
        throw new Error(`unknown post node ${JSON.stringify(never)}`);
      }
    }
  };
  nodes.forEach(walk);
  const sourceOffset = (index: number): number => {
    // The last piece that starts at or before `index`.
    let [low, high] = [0, pieces.length - 1];
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (pieces[middle]!.start <= index) low = middle;
      else high = middle - 1;
    }
    const piece = pieces[low];
    return piece ? piece.at + (index - piece.start) : 0;
  };
  return { text: pieces.map((p) => p.text).join(""), sourceOffset };
}
