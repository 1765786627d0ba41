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
 * not text; a link reads as its text (or its address, when it has none), and each list item starts a
 * line, as in the rendered post.
 */
export function plainTextOutsideQuotes(nodes: readonly PostNode[]): PlainText {
  const pieces: Piece[] = [];
  let length = 0;
  const add = (text: string, at: number): void => {
    pieces.push({ text, at, start: length });
    length += text.length;
  };
  const walk = (node: PostNode): void => {
    switch (node.kind) {
      case "text":
        add(node.text, node.at);
        return;
      case "markup":
      case "quote":
        return;
      case "style":
      case "spoiler":
      case "color":
      case "size":
        node.children.forEach(walk);
        return;
      case "link":
        // A link written without text reads as its address.
        if (node.children.every((child) => child.kind === "text" && child.text.trim() === ""))
          add(node.href, node.span.from);
        else node.children.forEach(walk);
        return;
      case "list":
        node.children.forEach(walk);
        // A list ends its last line.
        if (node.children.some((child) => child.kind === "item")) add("\n", node.span.to);
        return;
      case "item":
        // An item starts a line.
        add("\n", node.span.from);
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
