import { safeColor, type SafeColor } from "./color.ts";
import { tokenize, type TagValue } from "./bbcode-tokens.ts";

/** The text styles `[b] [i] [u] [s]`, each shown as the HTML element of the same name. */
export type TextStyle = "b" | "i" | "u" | "s";

/** Where a tag's markup lies in the source: from its opening bracket to past its closing tag. */
export interface SourceSpan {
  readonly from: number;
  readonly to: number;
}

/** Text the author wrote; `at` is the source offset of its first character. */
export interface TextNode {
  readonly kind: "text";
  readonly text: string;
  readonly at: number;
}

/** Tag markup that is not an allowed, well-formed tag: shown as it was written, never as HTML. */
export interface MarkupNode {
  readonly kind: "markup";
  readonly text: string;
  readonly at: number;
}

interface Element<Kind extends string> {
  readonly kind: Kind;
  readonly span: SourceSpan;
  readonly children: readonly PostNode[];
}

export interface StyleNode extends Element<"style"> {
  readonly style: TextStyle;
}

export interface QuoteNode extends Element<"quote"> {
  readonly author: string | null;
}

export interface SpoilerNode extends Element<"spoiler"> {
  readonly title: string | null;
}

export interface ColorNode extends Element<"color"> {
  readonly color: SafeColor;
}

/**
 * A post as a tree of only what we allow: every other tag, and every allowed tag that is unclosed,
 * closed by another tag's name or given attributes it may not have, is left as markup text.
 */
export type PostNode = TextNode | MarkupNode | StyleNode | QuoteNode | SpoilerNode | ColorNode;

type ElementNode = StyleNode | QuoteNode | SpoilerNode | ColorNode;

/** Tags nested deeper than this are shown as written, so no reader of the tree recurses far. */
export const MAX_DEPTH = 20;

/** A tag opened and not yet closed. */
interface OpenTag {
  readonly name: string;
  readonly value: TagValue;
  readonly opening: MarkupNode;
  /** Past MAX_DEPTH: shown as written at once, and what it holds goes straight to its parent. */
  readonly flat: boolean;
  readonly children: PostNode[];
}

/**
 * Parses a post into the tree of allowed tags. It is tokenized by @bbob/parser's lexer; tags are paired
 * here, because the library's parse() lets any closing tag close the innermost open one (`[/b]` would
 * end a `[quote]`, and a quoted vote would count) and drops stray closing tags. Here a closing tag
 * closes the nearest open tag of its name, in any case (`[B]…[/b]`); tags left open inside it, stray
 * closing tags and tags never closed are shown as written. Every node keeps its source offset.
 */
export function parsePost(source: string): readonly PostNode[] {
  let cursor = 0;
  const root: PostNode[] = [];
  const open: OpenTag[] = [];
  const output = (nodes: readonly PostNode[]): void => {
    const into = open.at(-1)?.children ?? root;
    for (const node of nodes) into.push(node);
  };
  const markupAt = (span: SourceSpan): MarkupNode => {
    // The lexer does not skip source text; if it ever did, the skipped text is kept as markup too.
    if (span.from > cursor) output([{ kind: "markup", text: source.slice(cursor, span.from), at: cursor }]);
    cursor = Math.max(cursor, span.to);
    return { kind: "markup", text: source.slice(span.from, span.to), at: span.from };
  };
  /** Shows the innermost open tag as written. */
  const unwind = (): void => {
    const tag = open.pop()!;
    if (!tag.flat) output([tag.opening, ...tag.children]);
  };

  for (const token of tokenize(source)) {
    switch (token.kind) {
      case "text": {
        output([{ kind: "text", text: token.text, at: cursor }]);
        cursor += token.text.length;
        break;
      }
      case "open": {
        const opening = markupAt(token.span);
        const flat = open.length >= MAX_DEPTH;
        if (flat) output([opening]);
        const children = flat ? (open.at(-1)?.children ?? root) : [];
        open.push({ name: token.name.toLowerCase(), value: token.value, opening, flat, children });
        break;
      }
      case "close": {
        const closing = markupAt(token.span);
        const name = token.name.toLowerCase();
        const index = open.map((tag) => tag.name).lastIndexOf(name);
        if (index < 0) {
          output([closing]);
          break;
        }
        while (open.length > index + 1) unwind();
        const tag = open.pop()!;
        const span = { from: tag.opening.at, to: closing.at + closing.text.length };
        const element = tag.flat ? null : elementOf(name, tag.value, span, tag.children);
        if (element !== null) output([element]);
        else output(tag.flat ? [closing] : [tag.opening, ...tag.children, closing]);
        break;
      }
      default: {
        const never: never = token;
        throw new Error(`unknown token ${JSON.stringify(never)}`);
      }
    }
  }
  while (open.length > 0) unwind();
  if (cursor < source.length) output([{ kind: "markup", text: source.slice(cursor), at: cursor }]);
  return root;
}

function elementOf(
  name: string,
  value: TagValue,
  span: SourceSpan,
  children: readonly PostNode[],
): ElementNode | null {
  switch (name) {
    case "b":
    case "i":
    case "u":
    case "s":
      return value.kind === "none" ? { kind: "style", style: name, span, children } : null;
    case "quote":
      return value.kind === "attributes" ? null : { kind: "quote", author: valueText(value), span, children };
    case "spoiler":
      return value.kind === "attributes"
        ? null
        : { kind: "spoiler", title: valueText(value), span, children };
    case "color": {
      const color = value.kind === "value" ? safeColor(value.value) : null;
      return color === null ? null : { kind: "color", color, span, children };
    }
    default:
      return null;
  }
}

/** The trimmed value of `[tag=value]`, or null when there is none or it is blank. */
function valueText(value: TagValue): string | null {
  const trimmed = value.kind === "value" ? value.value.trim() : "";
  return trimmed === "" ? null : trimmed;
}
