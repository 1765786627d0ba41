import { nickKey } from "./nick.ts";
import { plainTextOutsideQuotes, type PlainText } from "./plain-text.ts";
import { parsePost, type PostNode, type SourceSpan } from "./post-tree.ts";
import { voteColorOf, type VoteColor } from "./vote-color.ts";

/** A vote written in a post (V2). */
export interface PostVote {
  readonly color: VoteColor;
  /** The entry of `names` that was voted for, as the caller gave it. */
  readonly name: string;
  /** V7: the post says "досрочно" outside quotes. */
  readonly early: boolean;
  /** Source offset of the vote: the `[color=…]` tag, or the first letter of the name before the word. */
  readonly index: number;
}

/** V2: the words that give a name a colour, in any case. */
const VOTE_WORD = /(?<![\p{L}\p{N}_])(красным|синим)(?![\p{L}\p{N}_])/giu;
/** V7: the word that asks for an early close. */
const EARLY_WORD = /(?<![\p{L}\p{N}_])досрочно(?![\p{L}\p{N}_])/iu;
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;
const NAME_START = /[\p{L}\p{N}]/u;
const WHITESPACE = /\s/u;

/**
 * Every vote in a post, in order of appearance; the caller takes the last (V1). V2: a vote is
 * `[color=red]Nick[/color]` or `Nick КРАСНЫМ`, blue likewise with `СИНИМ` (colours: see voteColorOf).
 * Names are matched by nickKey. Quotes, at any depth, hold no votes.
 */
export function votesInPost(source: string, names: readonly string[]): PostVote[] {
  const byKey = new Map<string, string>();
  for (const name of names) if (!byKey.has(nickKey(name))) byKey.set(nickKey(name), name);
  const tree = parsePost(source);
  const plain = plainTextOutsideQuotes(tree);
  const early = EARLY_WORD.test(plain.text);
  const coloured = colourVotes(tree, byKey);
  // A name in a vote colour followed by the word of that colour is one vote, not two.
  const worded = wordVotes(plain, byKey).filter(
    (w) => !coloured.some((c) => c.color === w.color && c.span.from <= w.index && w.index < c.span.to),
  );
  return [...coloured.map((c) => ({ color: c.color, name: c.name, index: c.span.from })), ...worded]
    .sort((a, b) => a.index - b.index)
    .map((v) => ({ ...v, early }));
}

interface ColourVote {
  readonly color: VoteColor;
  readonly name: string;
  readonly span: SourceSpan;
}

/**
 * V2: colour tags, outside quotes, of a vote colour whose whole text (trimmed, `[b] [i] [u]` inside
 * ignored) is a name. A colour tag of any other content is no vote, but a vote may be nested in it.
 */
function colourVotes(nodes: readonly PostNode[], byKey: ReadonlyMap<string, string>): ColourVote[] {
  return nodes.flatMap((node): ColourVote[] => {
    switch (node.kind) {
      case "text":
      case "markup":
      case "quote":
        return [];
      case "style":
      case "spoiler":
        return colourVotes(node.children, byKey);
      case "color": {
        const color = voteColorOf(node.color);
        const text = nameText(node.children);
        const name = color && text !== null ? byKey.get(nickKey(text)) : undefined;
        return color && name !== undefined
          ? [{ color, name, span: node.span }]
          : colourVotes(node.children, byKey);
      }
      default: {
        const never: never = node;
        throw new Error(`unknown post node ${JSON.stringify(never)}`);
      }
    }
  });
}

/** The text of a colour tag's content when it is only text and `[b] [i] [u]`, else null. */
export function nameText(nodes: readonly PostNode[]): string | null {
  let text = "";
  for (const node of nodes) {
    if (node.kind === "text") text += node.text;
    else if (node.kind === "style" && node.style !== "s") {
      const inner = nameText(node.children);
      if (inner === null) return null;
      text += inner;
    } else return null;
  }
  return text;
}

/**
 * V2: `Nick КРАСНЫМ` / `Nick СИНИМ` in the plain text outside quotes. The name ends right before the
 * word with whitespace between, starts at a word boundary with a letter or digit, stays on one line,
 * and the longest name that fits wins ("Оля К" over "К").
 */
function wordVotes(plain: PlainText, byKey: ReadonlyMap<string, string>): Omit<PostVote, "early">[] {
  const longest = Math.max(0, ...[...byKey.keys()].map((k) => k.length));
  // Room for repeated spaces inside a name, which its key collapses.
  const reach = 2 * longest + 8;
  const text = plain.text;
  return [...text.matchAll(VOTE_WORD)].flatMap((match): Omit<PostVote, "early">[] => {
    const color: VoteColor = match[1]!.toLowerCase() === "красным" ? "red" : "blue";
    let end = match.index;
    while (end > 0 && WHITESPACE.test(text[end - 1]!)) end--;
    if (end === match.index) return [];
    let found: { name: string; start: number } | null = null;
    for (let start = end - 1; start >= 0 && end - start <= reach; start--) {
      const c = text[start]!;
      if (c === "\n" || c === "\r") break;
      if (!NAME_START.test(c) || (start > 0 && WORD_CHARACTER.test(text[start - 1]!))) continue;
      const name = byKey.get(nickKey(text.slice(start, end)));
      if (name !== undefined) found = { name, start };
    }
    return found ? [{ color, name: found.name, index: plain.sourceOffset(found.start) }] : [];
  });
}
