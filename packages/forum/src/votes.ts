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
  const byKey = keysOf(names);
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

/** Text in a vote colour that names no player: no vote (V2), though its author may have meant one. */
export interface UnmatchedColour {
  readonly color: VoteColor;
  /** The tag's text, trimmed, inner whitespace collapsed. */
  readonly text: string;
  /** The players it may have meant, closest first (see nearestNames); may be empty. */
  readonly nearest: readonly string[];
  /** Source offset of the `[color=…]` tag. */
  readonly index: number;
}

/**
 * The colour tags votesInPost rejects (V2): outside quotes, of a vote colour, holding only text and
 * `[b] [i] [u]`, whose text is not a player's name. Each comes with the names it may have meant, so a
 * composer can warn before the post is sent (a red "Кролик" for «Белый Кролик» is no vote).
 */
export function unmatchedColours(source: string, names: readonly string[]): UnmatchedColour[] {
  const byKey = keysOf(names);
  const out: UnmatchedColour[] = [];
  colourVotes(parsePost(source), byKey, (color, text, span) => {
    const shown = text.trim().replace(/\s+/gu, " ");
    if (shown !== "") out.push({ color, text: shown, nearest: nearestNames(shown, names), index: span.from });
  });
  return out;
}

/** How many names nearestNames offers at most. */
const NEAREST_COUNT = 3;

/**
 * The names a text may have meant, closest first, at most three: names that contain it or that it
 * contains as a whole word or more ("Кролик" → «Белый Кролик»), then names within an edit distance of a
 * third of their length (at least 1, at most 3), compared by nickKey. Texts under 2 characters mean nobody.
 */
export function nearestNames(text: string, names: readonly string[]): string[] {
  const key = nickKey(text);
  if (Array.from(key).length < 2) return [];
  const scored: { name: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const k = nickKey(name);
    if (seen.has(k) || k === key) continue;
    seen.add(k);
    const length = Array.from(k).length;
    if (k.includes(key) || (length >= 2 && key.includes(k))) {
      scored.push({ name, score: 0 });
      continue;
    }
    const limit = Math.min(3, Math.max(1, Math.floor(length / 3)));
    const d = editDistance(key, k, limit);
    if (d <= limit) scored.push({ name, score: d });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, NEAREST_COUNT)
    .map((s) => s.name);
}

/** Levenshtein distance by code point, or `limit + 1` once it is surely above `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  const x = Array.from(a);
  const y = Array.from(b);
  if (Math.abs(x.length - y.length) > limit) return limit + 1;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      const v = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(v);
      best = Math.min(best, v);
    }
    if (best > limit) return limit + 1;
    previous = row;
  }
  return previous[y.length]!;
}

const keysOf = (names: readonly string[]): Map<string, string> => {
  const byKey = new Map<string, string>();
  for (const name of names) {
    const key = nickKey(name);
    if (!byKey.has(key)) byKey.set(key, name);
  }
  return byKey;
};

/** Told of a colour tag in a vote colour whose text is no name. */
type Rejected = (color: VoteColor, text: string, span: SourceSpan) => void;

/**
 * V2: colour tags, outside quotes, of a vote colour whose whole text (trimmed, `[b] [i] [u]` inside
 * ignored) is a name. A colour tag of any other content is no vote, but a vote may be nested in it.
 */
function colourVotes(
  nodes: readonly PostNode[],
  byKey: ReadonlyMap<string, string>,
  rejected?: Rejected,
): ColourVote[] {
  return nodes.flatMap((node): ColourVote[] => {
    switch (node.kind) {
      case "text":
      case "markup":
      case "quote":
        return [];
      case "style":
      case "spoiler":
      case "link":
      case "size":
      case "list":
      case "item":
        return colourVotes(node.children, byKey, rejected);
      case "color": {
        const color = voteColorOf(node.color);
        const text = nameText(node.children);
        const name = color && text !== null ? byKey.get(nickKey(text)) : undefined;
        if (color && name !== undefined) return [{ color, name, span: node.span }];
        if (color && text !== null) rejected?.(color, text, node.span);
        return colourVotes(node.children, byKey, rejected);
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
