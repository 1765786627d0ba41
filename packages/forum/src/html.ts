import { Parser } from "htmlparser2";
import { safeColor } from "./color.ts";

/** Elements whose content is never text a reader sees. */
const HIDDEN = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "object",
  "svg",
  "head",
  "title",
]);
/** Elements that end a line. */
const BLOCK = new Set([
  "p",
  "div",
  "li",
  "tr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "pre",
  "ul",
  "ol",
  "table",
  "cite",
  "dl",
  "dt",
  "dd",
  "hr",
  "details",
  "summary",
  "aside",
  "article",
  "section",
  "header",
  "footer",
]);
const STYLES: ReadonlyMap<string, string> = new Map([
  ["b", "b"],
  ["strong", "b"],
  ["i", "i"],
  ["em", "i"],
  ["u", "u"],
]);
/**
 * Class names of quote boxes, each a whole class name (vBulletin, IPB, XenForo, SMF, Discourse, phpBB, uCoz):
 * the one list for htmlToBBCode and the thread readers (thread/body.ts's isQuoteBox). A whole name, so
 * that `quote-controls`, `quote_button` or `fa-quote-left` are no quote.
 */
export const QUOTE_CLASSES: ReadonlySet<string> = new Set([
  "bbcode_quote",
  "ipsQuote",
  "bbCodeBlock--quote",
  "quotecontent",
  "quote",
  "bbc_standard_quote",
  "bbc_alternate_quote",
  "bbCodeQuote",
  "b-quote",
  // uCoz: div.bbQuoteBlock holds the caption (div.bbQuoteName) and the text (div.quoteMessage).
  "bbQuoteBlock",
]);

/** An element's class names, as its `class` attribute lists them. */
export const classNames = (attributes: Readonly<Record<string, string>>): string[] =>
  (attributes["class"] ?? "").split(/\s+/u).filter((c) => c !== "");

/** Whether an element is quote-like by its own markup: a `<blockquote>` or one of QUOTE_CLASSES. */
export function quoteish(name: string, attributes: Readonly<Record<string, string>>): boolean {
  return name === "blockquote" || classNames(attributes).some((c) => QUOTE_CLASSES.has(c));
}

/**
 * Discourse: `<aside class="quote"><div class="title">…</div><blockquote>…</blockquote></aside>` is one
 * quote; the `<blockquote>` right inside a quote `<aside>` is its inner box, not a second quote.
 */
export function innerQuoteBox(name: string, parent: QuoteParent | null): boolean {
  return name === "blockquote" && parent !== null && parent.name === "aside" && parent.quoteish;
}

/** What innerQuoteBox needs to know of an element's parent. */
export interface QuoteParent {
  readonly name: string;
  readonly quoteish: boolean;
}
/** Looks like HTML: a tag, a comment or an entity-laden page rather than BBCode. */
const HTML_TAG = /<\/?[a-z][a-z0-9]*[\s/>]|<!--/iu;

/** True when a post body is HTML copied from a page (IPB, XenForo, a saved phpBB page) rather than BBCode. */
export function looksLikeHtml(body: string): boolean {
  return HTML_TAG.test(body);
}

/**
 * HTML as BBCode, keeping only what votes are read from: colours (`<span style="color: red">`,
 * `<font color="red">`, `rgb(…)` too), quotes (`<blockquote>` and the forums' quote boxes), `[b] [i] [u]`
 * and line breaks. Scripts, styles and every other tag are dropped; entities are decoded. Brackets in
 * the page's text are kept as text, so `[color]` written in HTML text is read as BBCode too.
 */
export function htmlToBBCode(html: string): string {
  const writer = new BBCodeWriter();
  html = limitDepth(html);
  const parser = new Parser(
    {
      onopentag: (name, attributes) => writer.open(name, attributes),
      onclosetag: () => writer.close(),
      ontext: (text) => writer.text(text),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return writer.result();
}

/** How a BBCodeWriter reads what the default leaves alone (the thread readers' per-engine knowledge). */
export interface BBCodeWriterOptions {
  /** Whether an element is a quote box; by default a `<blockquote>` or a forum's quote class. */
  readonly isQuote?: (name: string, attributes: Readonly<Record<string, string>>) => boolean;
  /**
   * Emoji and smilies become their `alt` text: an image whose class or attributes say it is one
   * (`emoji`, `smilie`, `smiley`, `data-emoticon`, vBulletin's `smilieid`…), or whose `alt` is at most 3 characters. By default
   * images are dropped.
   */
  readonly emojiAlt?: boolean;
}

/**
 * The HTML → BBCode conversion as a stream of elements and texts (htmlToBBCode feeds it from the
 * parser, the thread readers from a post's elements): every `open` has its `close`.
 */
export class BBCodeWriter {
  readonly #out: string[] = [];
  readonly #closers: string[] = [];
  /** The open elements, innermost last (innerQuoteBox's parent). */
  readonly #parents: QuoteParent[] = [];
  #hidden = 0;
  readonly #isQuote: (name: string, attributes: Readonly<Record<string, string>>) => boolean;
  readonly #emojiAlt: boolean;

  constructor(options: BBCodeWriterOptions = {}) {
    this.#isQuote = options.isQuote ?? quoteish;
    this.#emojiAlt = options.emojiAlt ?? false;
  }

  /** An element opens; `quote` says whether it is a quote box when the caller knows better than the default. */
  open(name: string, attributes: Readonly<Record<string, string>>, quote?: boolean): void {
    const parent = this.#parents.at(-1) ?? null;
    this.#parents.push({ name, quoteish: quoteish(name, attributes) });
    if (this.#hidden > 0 || HIDDEN.has(name)) {
      this.#hidden++;
      this.#closers.push("");
      return;
    }
    if (name === "br") this.#out.push("\n");
    else if (BLOCK.has(name) && !(this.#out.at(-1) ?? "\n").endsWith("\n")) this.#out.push("\n");
    if (name === "img" && this.#emojiAlt) {
      const alt = emojiText(attributes);
      if (alt !== null) this.#out.push(alt);
    }
    const color = colorOf(name, attributes);
    const style = STYLES.get(name);
    const isQuote = quote ?? (this.#isQuote(name, attributes) && !innerQuoteBox(name, parent));
    const opening = [
      isQuote ? "\n[quote]" : "",
      color !== null ? `[color=${color}]` : "",
      style !== undefined ? `[${style}]` : "",
    ];
    const closing = [
      style !== undefined ? `[/${style}]` : "",
      color !== null ? "[/color]" : "",
      isQuote ? "[/quote]\n" : "",
      BLOCK.has(name) ? "\n" : "",
    ];
    this.#out.push(opening.join(""));
    this.#closers.push(closing.join(""));
  }

  close(): void {
    this.#parents.pop();
    const closing = this.#closers.pop() ?? "";
    if (this.#hidden > 0) this.#hidden--;
    else this.#out.push(closing);
  }

  text(text: string): void {
    if (this.#hidden === 0) this.#out.push(joinLines(text));
  }

  result(): string {
    return this.#out.join("");
  }
}

/** Longest `alt` text kept from an image marked as an emoji or a smiley. */
const MAX_EMOJI_ALT = 32;
const EMOJI_CLASS = /emoji|smil|emoticon/iu;

/** The text an emoji or smiley image stands for, or null when the image is none. */
function emojiText(attributes: Readonly<Record<string, string>>): string | null {
  const alt = (attributes["alt"] ?? "").trim();
  const length = Array.from(alt).length;
  if (length === 0 || length > MAX_EMOJI_ALT) return null;
  const marked =
    EMOJI_CLASS.test(attributes["class"] ?? "") ||
    "data-emoticon" in attributes ||
    "data-shortname" in attributes ||
    "smilieid" in attributes;
  return marked || length <= 3 ? alt : null;
}

/**
 * A text's source line breaks and the whitespace around them as one space, as a browser shows them
 * (`a \n\n b` is `a b`). Split rather than a regular expression, which backtracks over long blank runs.
 */
function joinLines(text: string): string {
  if (!text.includes("\n")) return text;
  const parts = text.split("\n");
  const middle = parts
    .slice(1, -1)
    .map((part) => part.trim())
    .filter((part) => part !== "");
  return [parts[0]!.trimEnd(), ...middle, parts.at(-1)!.trimStart()].join(" ");
}

/** Deeper than this, elements are dropped (their text stays): a page nests a few dozen deep at most. */
export const MAX_DEPTH = 256;
/** Elements that never have content. */
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
/** Elements closed by the next one of the same name (`<p>…<p>`, `<li>…<li>`). */
const SELF_CLOSING_SIBLINGS = new Set(["p", "li", "dt", "dd", "tr", "td", "th", "option"]);
/** The start of a tag: its slash and its name. */
const TAG_START = /^<(\/?)([a-zA-Z][\w:-]{0,63})(?=[\s/>])/u;

/**
 * The HTML with the tags that would nest deeper than `max` removed (their text kept), so that the
 * parser, whose cost grows with the depth of what is open, stays linear on hostile input. Depth is
 * tracked as a browser would for the common cases: void elements, `<x/>`, `<p>` and `<li>` closed by
 * the next, a closing tag closing what it names. Input that never nests that deep is returned as is.
 */
export function limitDepth(html: string, max: number = MAX_DEPTH): string {
  const stack: string[] = [];
  const cut: [number, number][] = [];
  // A scan for "<" and the next ">" (remembered, so text full of "<" stays linear) rather than a
  // regular expression, which would search to the end of the input from every "<" without a ">".
  let close = -1;
  for (let at = html.indexOf("<"); at >= 0; at = html.indexOf("<", at + 1)) {
    if (close < at) close = html.indexOf(">", at);
    if (close < 0) break;
    const tag = TAG_START.exec(html.slice(at, Math.min(close + 1, at + 80)));
    if (tag === null) continue;
    const name = tag[2]!.toLowerCase();
    if (tag[1] === "/") {
      const open = stack.lastIndexOf(name);
      if (open >= 0 && stack.length - open <= 64) stack.length = open;
      continue;
    }
    const selfClosing = html[close - 1] === "/";
    if (VOID.has(name) || selfClosing) continue;
    if (SELF_CLOSING_SIBLINGS.has(name) && stack.at(-1) === name) stack.pop();
    if (stack.length >= max) cut.push([at, close + 1]);
    else stack.push(name);
  }
  if (cut.length === 0) return html;
  const parts: string[] = [];
  let from = 0;
  for (const [start, end] of cut) {
    parts.push(html.slice(from, start));
    from = end;
  }
  parts.push(html.slice(from));
  return parts.join("");
}

/** The colour an element gives its text, as a value `[color=…]` accepts, or null. */
export function colorOf(name: string, attributes: Readonly<Record<string, string>>): string | null {
  const styleColor = /(?:^|;)\s*color\s*:\s*([^;!]+)/iu.exec(attributes["style"] ?? "")?.[1];
  const value = styleColor ?? (name === "font" ? attributes["color"] : undefined);
  if (value === undefined) return null;
  const rgb = /^\s*rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,[^)]*)?\)\s*$/iu.exec(value);
  const hex = rgb
    ? "#" +
      rgb
        .slice(1, 4)
        .map((c) => Math.min(255, Number(c)).toString(16).padStart(2, "0"))
        .join("")
    : value.trim();
  return safeColor(hex);
}
