import { plainTextOutsideQuotes } from "./plain-text.ts";
import { parsePost, type PostNode } from "./post-tree.ts";
import { voteColorOf, type VoteColor } from "./vote-color.ts";

/**
 * How one reader of votes matches the names written in a post to players; `N` is what a name reads
 * as (a player's name, or a match with its doubts). The server's reader matches exact names; the vote
 * counter for other forums matches tolerantly and reports what it cannot match.
 */
export interface NameReader<N> {
  /**
   * What the whole text of a colour tag of a vote colour names, or null when the tag is no mark.
   * `text` is the tag's text, `[b] [i] [u]` dropped, trimmed and never empty.
   */
  readonly coloured: (tag: ColourTag) => N | null;
  /**
   * What the text right before `КРАСНЫМ` / `СИНИМ` names, or null when it is no mark. `candidates`
   * are the texts the name may be, longest first (never empty): each runs from a word start on the
   * name's line to the end of the name. The answer says which candidate was taken (`at`).
   */
  readonly written: (candidates: readonly string[]) => { readonly at: number; readonly name: N } | null;
}

/** A colour tag of a vote colour whose content is only text and `[b] [i] [u]`. */
export interface ColourTag {
  readonly color: VoteColor;
  /** The text, `[b] [i] [u]` dropped, trimmed. */
  readonly text: string;
  /** Source offset of the `[color=…]` tag. */
  readonly index: number;
}

/** A vote-like mark in a post: a name in a vote colour, or a name before `КРАСНЫМ` / `СИНИМ`. */
export interface VoteMark<N> {
  readonly color: VoteColor;
  readonly name: N;
  /** The mark as written: `[color=…]Name[/color]`, or the text from the name to the word (`Вася, КРАСНЫМ`). */
  readonly text: string;
  /** Source offset of the mark: the `[color=…]` tag, or the first letter of the name before the word. */
  readonly index: number;
}

/** The marks of a post, in order of appearance, and whether it asks for an early close. */
export interface PostMarks<N> {
  readonly marks: readonly VoteMark<N>[];
  /** V7: the post says "досрочно" outside quotes (whether that has effect is the caller's question). */
  readonly early: boolean;
}

/** V2: the words that give a name a colour, in any case. */
const VOTE_WORD = /(?<![\p{L}\p{N}_])(красным|синим)(?![\p{L}\p{N}_])/giu;
/** The same, to test one text. */
const HAS_VOTE_WORD = new RegExp(VOTE_WORD.source, "iu");
/** V7: the word that asks for an early close. */
const EARLY_WORD = /(?<![\p{L}\p{N}_])досрочно(?![\p{L}\p{N}_])/iu;
/** V2: what may stand once between a name and its word, besides whitespace. */
const SEPARATORS: ReadonlySet<string> = new Set([",", ":", "—", "-"]);
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;
const NAME_START = /[\p{L}\p{N}]/u;
const WHITESPACE = /\s/u;
const LINE_BREAK = /[\n\r]/u;
/** How far back from the end of a name its start is looked for, in characters… */
const NAME_REACH = 120;
/** …and in whitespace-separated words. */
const NAME_WORDS = 4;

/**
 * Every vote mark outside quotes in a post (BBCode), in order of appearance; the last valid one is the
 * post's vote (V1). Quotes, at any depth, hold no marks. V2:
 * - a colour tag of a vote colour (see voteColorOf) whose whole text, `[b] [i] [u]` inside dropped, the
 *   reader takes for a name; a tag of any other content is no mark, though a mark may be nested in it,
 *   and a tag whose text holds `КРАСНЫМ` / `СИНИМ` is read as words, below;
 * - `Ник КРАСНЫМ` / `Ник СИНИМ` (any case) in the text outside quotes: between the name and the word
 *   stands whitespace (a line break too), or at most one of `,` `:` `—` `-` with any whitespace around
 *   it; the name itself stays on one line and starts at a word boundary with a letter or digit;
 * - a coloured name followed by the word of its colour is one mark, not two.
 */
export function voteMarks<N>(source: string, reader: NameReader<N>): PostMarks<N> {
  const tree = parsePost(source);
  const plain = plainTextOutsideQuotes(tree);
  const coloured = colourMarks(tree, reader);
  const text = plain.text;
  const worded = [...text.matchAll(VOTE_WORD)].flatMap((m): VoteMark<N>[] => {
    const end = nameEnd(text, m.index);
    if (end === null) return [];
    const starts = nameStarts(text, end);
    if (starts.length === 0) return [];
    const found = reader.written(starts.map((start) => text.slice(start, end)));
    const start = found === null ? undefined : starts[found.at];
    if (found === null || start === undefined) return [];
    const color: VoteColor = m[1]!.toLowerCase() === "красным" ? "red" : "blue";
    const written = text.slice(start, m.index + m[0].length);
    return [{ color, name: found.name, text: written, index: plain.sourceOffset(start) }];
  });
  const marks = [
    ...coloured.map((c) => c.mark),
    ...worded.filter(
      (w) => !coloured.some((c) => c.mark.color === w.color && c.mark.index <= w.index && w.index < c.to),
    ),
  ].sort((a, b) => a.index - b.index);
  return { marks, early: EARLY_WORD.test(text) };
}

/**
 * V2: where the name before the vote word at `word` ends: before whitespace (line breaks included) and
 * at most one separator. Null when nothing stands between (`ВасяКРАСНЫМ`), when nothing is before, or
 * when a second separator stands there (`Вася, - КРАСНЫМ`).
 */
function nameEnd(text: string, word: number): number | null {
  let end = word;
  const skipWhitespace = (): void => {
    while (end > 0 && WHITESPACE.test(text[end - 1]!)) end--;
  };
  skipWhitespace();
  if (end > 0 && SEPARATORS.has(text[end - 1]!)) {
    end--;
    skipWhitespace();
  }
  if (end === word || end === 0 || SEPARATORS.has(text[end - 1]!)) return null;
  return end;
}

/**
 * The places a name ending at `end` may start, longest name first: a letter or digit at a word
 * boundary, on the same line, within NAME_REACH characters and NAME_WORDS whitespace-separated words.
 */
function nameStarts(text: string, end: number): number[] {
  const starts: number[] = [];
  let words = 0;
  for (let start = end - 1; start >= 0 && end - start <= NAME_REACH; start--) {
    const c = text[start]!;
    if (LINE_BREAK.test(c)) break;
    if (WHITESPACE.test(c)) continue;
    const before = start > 0 ? text[start - 1]! : "";
    if (NAME_START.test(c) && !WORD_CHARACTER.test(before)) starts.push(start);
    // The start of a whitespace-separated word.
    if (WHITESPACE.test(before) && ++words >= NAME_WORDS) break;
  }
  return starts.reverse();
}

interface ColourMark<N> {
  readonly mark: VoteMark<N>;
  /** Where the tag ends, so a word mark on the same name is not counted twice. */
  readonly to: number;
}

/** V2: colour tags, outside quotes, of a vote colour whose whole text the reader takes for a name. */
function colourMarks<N>(nodes: readonly PostNode[], reader: NameReader<N>): ColourMark<N>[] {
  return nodes.flatMap((node): ColourMark<N>[] => {
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
        return colourMarks(node.children, reader);
      case "color": {
        const color = voteColorOf(node.color);
        const text = nameText(node.children)?.trim() ?? null;
        // Only text: no tag inside could hold a mark.
        if (color === null || text === null) return colourMarks(node.children, reader);
        // "[color=red]Вася КРАСНЫМ[/color]" is a word mark, read from the plain text.
        if (text === "" || HAS_VOTE_WORD.test(text)) return [];
        const name = reader.coloured({ color, text, index: node.span.from });
        if (name === null) return [];
        const mark = { color, name, text: `[color=${node.color}]${text}[/color]`, index: node.span.from };
        return [{ mark, to: node.span.to }];
      }
      default: {
        const never: never = node;
        throw new Error(`unknown post node ${JSON.stringify(never)}`);
      }
    }
  });
}

/** The text of a colour tag's content when it is only text and `[b] [i] [u]`, else null. */
function nameText(nodes: readonly PostNode[]): string | null {
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
