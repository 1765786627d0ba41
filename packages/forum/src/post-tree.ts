import { safeColor, type SafeColor } from "./color.ts";
import { tokenize, type TagValue } from "./bbcode-tokens.ts";
import { sizePercent } from "./font-size.ts";
import { safeUrl, type SafeUrl } from "./safe-url.ts";

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

/** `[url]`, `[url=…]` or `[img]` with an http(s) URL: a link, whose children are the text to click. */
export interface LinkNode extends Element<"link"> {
  readonly href: SafeUrl;
}

/** `[size=…]`: the size in percent of the normal text (see sizePercent), or null when it is no size. */
export interface SizeNode extends Element<"size"> {
  readonly percent: number | null;
}

/** How an ordered list numbers its items: the values of HTML's `<ol type>`. */
export type ListNumbering = "1" | "a" | "A" | "i" | "I";

/**
 * `[list]` (numbering null) or `[list=1|a|A|i|I]`. Its children are items and, before the first item
 * (or after an item closed by `[/*]`), whatever else was written there.
 */
export interface ListNode extends Element<"list"> {
  readonly numbering: ListNumbering | null;
}

/** `[*]` in a list: it ends at the next `[*]`, at `[/*]` or at the end of its list. */
export type ListItemNode = Element<"item">;

/**
 * A post as a tree of only what we allow: every other tag, and every allowed tag that is unclosed,
 * closed by another tag's name or given attributes it may not have, is left as markup text.
 */
export type PostNode =
  | TextNode
  | MarkupNode
  | StyleNode
  | QuoteNode
  | SpoilerNode
  | ColorNode
  | LinkNode
  | SizeNode
  | ListNode
  | ListItemNode;

type ElementNode = Exclude<PostNode, TextNode | MarkupNode>;

/** Tags that close themselves where they would otherwise be shown as written: lists and their items. */
const CLOSED_IMPLICITLY = new Set(["list", "*"]);

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
 * closing tags and tags never closed are shown as written. Lists are the exception, as forums write
 * them: `[*]` has no closing tag (it ends the item before it, tags left open in that item shown as
 * written), and a list or an item left open is closed where it would have been shown as written. A
 * `[*]` outside a list is written text. Every node keeps its source offset.
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
  /** Shows the innermost open tag as written, or closes it at `to` if it closes implicitly. */
  const unwind = (to: number): void => {
    const tag = open.pop()!;
    if (tag.flat) return;
    const span = { from: tag.opening.at, to };
    const element = CLOSED_IMPLICITLY.has(tag.name)
      ? elementOf(tag.name, tag.value, span, tag.children)
      : null;
    output(element !== null ? [element] : [tag.opening, ...tag.children]);
  };
  const lastOpen = (name: string): number => open.map((tag) => tag.name).lastIndexOf(name);

  for (const token of tokenize(source)) {
    switch (token.kind) {
      case "text": {
        output([{ kind: "text", text: token.text, at: cursor }]);
        cursor += token.text.length;
        break;
      }
      case "open": {
        const name = token.name.toLowerCase();
        const opening = markupAt(token.span);
        if (name === "*") {
          const list = lastOpen("list");
          if (list < 0) {
            output([opening]);
            break;
          }
          // The item before this one ends here, and whatever was left open inside it.
          const last = lastOpen("*");
          const item = last > list ? last : null;
          while (open.length > (item ?? list) + 1) unwind(opening.at);
          if (item !== null) unwind(opening.at);
        }
        const flat = open.length >= MAX_DEPTH;
        if (flat) output([opening]);
        const children = flat ? (open.at(-1)?.children ?? root) : [];
        open.push({ name, value: token.value, opening, flat, children });
        break;
      }
      case "close": {
        const closing = markupAt(token.span);
        const name = token.name.toLowerCase();
        const index = lastOpen(name);
        if (index < 0) {
          output([closing]);
          break;
        }
        while (open.length > index + 1) unwind(closing.at);
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
  while (open.length > 0) unwind(cursor);
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
    case "url": {
      const href = value.kind === "value" ? safeUrl(unquoted(value.value)) : linkedText(value, children);
      return href === null ? null : { kind: "link", href, span, children };
    }
    case "img": {
      // phpBB's `[img=width,height]` / `[img=WxH]` give a size, which a link does not need.
      const sized = value.kind === "value" && IMAGE_SIZE.test(value.value.trim());
      const href = sized ? linkedText({ kind: "none" }, children) : linkedText(value, children);
      return href === null ? null : { kind: "link", href, span, children };
    }
    case "size": {
      const percent = value.kind === "value" ? sizePercent(value.value) : null;
      return { kind: "size", percent, span, children };
    }
    case "list":
      return { kind: "list", numbering: numbering(value), span, children };
    case "*":
      return { kind: "item", span, children };
    default:
      return null;
  }
}

/** The value of `[img=…]` that gives the image's size. */
const IMAGE_SIZE = /^\d{1,5}(?:[x,]\d{1,5})?$/i;

/** The URL written as the content of `[url]` or `[img]`: only text, and no value. */
function linkedText(value: TagValue, children: readonly PostNode[]): SafeUrl | null {
  const isText = (child: PostNode): child is TextNode => child.kind === "text";
  if (value.kind !== "none" || !children.every(isText)) return null;
  return safeUrl(children.map((child) => child.text).join(""));
}

/** A value without the single quotes around it (the lexer takes off double quotes itself). */
function unquoted(value: string): string {
  return value.trim().replace(/^'(.*)'$/s, "$1");
}

const NUMBERINGS: readonly ListNumbering[] = ["1", "a", "A", "i", "I"];

/** The numbering of `[list=…]`; any other value (phpBB's `disc`, `circle`, `square`) is a bulleted list. */
function numbering(value: TagValue): ListNumbering | null {
  const written = value.kind === "value" ? unquoted(value.value) : "";
  return NUMBERINGS.find((n) => n === written) ?? null;
}

/** The trimmed value of `[tag=value]`, or null when there is none or it is blank. */
function valueText(value: TagValue): string | null {
  const trimmed = value.kind === "value" ? value.value.trim() : "";
  return trimmed === "" ? null : trimmed;
}
