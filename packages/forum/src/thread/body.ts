import { BBCodeWriter, colorOf, innerQuoteBox, quoteish } from "../html.ts";
import { anyOf, classes, closest, type El, hasClass, sel, shortText, type Test, walk } from "./dom.ts";

/**
 * Whether an element is a quote box: a `<blockquote>` or a quote class (html.ts's QUOTE_CLASSES, the one
 * list htmlToBBCode reads too), not the inner box of one.
 */
export function isQuoteBox(el: El): boolean {
  if (vbulletin3Quote(el)) return true;
  if (!quoteish(el.name, el.attrs) || spoilerContent(el)) return false;
  const parent =
    el.parent === null ? null : { name: el.parent.name, quoteish: quoteish(el.parent.name, el.parent.attrs) };
  return !innerQuoteBox(el.name, parent);
}

/**
 * A spoiler's content written as a `<blockquote>` in the spoiler's box (mybb.ru and rusff:
 * `<div class="quote-box spoiler-box"><div onclick>Скрытый текст</div><blockquote>…</blockquote></div>`):
 * the poster's own words, hidden until clicked, not a quote (issue 30: a vote in a spoiler counts). Only
 * the spoiler's own box: a real quote placed inside a spoiler's body (phpBB's div.spoiler-body) stays one.
 */
function spoilerContent(el: El): boolean {
  return (
    el.name === "blockquote" &&
    el.parent !== null &&
    classes(el.parent).some((c) => /^spoiler[-_]?box$/iu.test(c))
  );
}

/**
 * vBulletin 3's quote: `<div style="margin:20px; margin-top:5px;"><div class="smallfont">Цитата:</div>
 * <table>…</table></div>`, with no class of its own; its label names it.
 */
function vbulletin3Quote(el: El): boolean {
  if (el.name !== "div") return false;
  const [label, box] = el.children.filter((c): c is El => typeof c !== "string");
  if (label === undefined || box === undefined || !hasClass(label, "smallfont") || box.name !== "table")
    return false;
  const words = label.children
    .filter((c): c is string => typeof c === "string")
    .join("")
    .trim();
  return /^(?:Цитата|Quote)\s*:?$/iu.test(words);
}

/**
 * phpBB 2's quote heading: the row above the row whose cell is td.quote ("Аня писал(а):"), outside the
 * quote box; the quote is the cell, so the heading would read as the quoter's own words (issue 30).
 */
export function phpbb2QuoteHeading(el: El): boolean {
  if (el.name !== "tr" || el.parent === null) return false;
  const rows = el.parent.children.filter((c): c is El => typeof c !== "string" && c.name === "tr");
  const next = rows[rows.indexOf(el) + 1];
  return next !== undefined && next.children.some((c) => typeof c !== "string" && hasClass(c, "quote"));
}

/**
 * A body with its signature cut where phpBB 2 writes it, in the message's own span after a line of
 * underscores (issue 30); a line of underscores inside a quote is the quoted post's, and stays.
 */
export function withoutUnderscoreSignature(body: string): string {
  const lines = body.split("\n");
  let depth = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (depth === 0 && /^_{10,}$/u.test(line.trim())) return tidy(lines.slice(0, i).join("\n"));
    depth += (line.match(/\[quote\]/gu)?.length ?? 0) - (line.match(/\[\/quote\]/gu)?.length ?? 0);
  }
  return body;
}

/** A quote's caption by its words: "Цитата: Аня", "Аня пишет:", "Аня написал(а):", "Anna wrote:". */
const CAPTION_WORDS =
  /^(?:Цитата|Quote)(?=[\s:]|$)|(?:писал|пишет|написал|написала|wrote|said)[^:]{0,6}:?$/iu;

/**
 * A quote's caption written outside its box, right before the `<blockquote>` (punBB/FluxBB and mybb.ru's
 * `<cite>Аня пишет:</cite><blockquote>`, a custom template's title div): the quoted one's name, not the
 * quoter's words (issue 30). A `<cite>` there is always one, and so is IP.Board 3's `p.citation` ("Аня,
 * 02 Марта 2024 - 18:04, сказал:", before `div.blockquote > div.quote`); another element only by its words.
 */
function quoteCaption(el: El): boolean {
  if (el.parent === null || el.name === "blockquote") return false;
  if (el.name !== "cite" && !hasClass(el, "citation")) {
    const words = shortText(el, MAX_LABEL);
    if (words === null || !CAPTION_WORDS.test(words)) return false;
  }
  const next = nextElement(el);
  if (next === null) return false;
  if (next.name === "blockquote") return true;
  // IP.Board 3 wraps its quote box in a div of its own (and nothing else: a quote's contents that start
  // with a nested quote are no such wrapper, and their caption stays in the quote).
  const inner = next.children.filter((c) => typeof c !== "string" || c.trim() !== "");
  return inner.length === 1 && typeof inner[0] !== "string" && isQuoteBox(inner[0]!);
}

/** Each element's next element sibling, worked out once per parent: a page of 75,000 siblings stays linear. */
const NEXT = new WeakMap<El, El | null>();

function nextElement(el: El): El | null {
  const known = NEXT.get(el);
  if (known !== undefined) return known;
  let after: El | null = null;
  const siblings = el.parent!.children;
  for (let i = siblings.length - 1; i >= 0; i--) {
    const child = siblings[i]!;
    if (typeof child === "string") continue;
    NEXT.set(child, after);
    after = child;
  }
  return NEXT.get(el) ?? null;
}

/** vBulletin 3's signature: a div whose text starts with its line of underscores. */
function underscoreSignature(el: El): boolean {
  const first = el.children.find((c) => typeof c !== "string" || c.trim() !== "");
  return typeof first === "string" && /^\s*_{10,}/u.test(first);
}

/**
 * What is never part of what a post says, on any engine: signatures, edit notes, report and like bars,
 * spoiler toggle labels (the spoiler's content stays), buttons and form controls.
 */
export const NEVER_BODY: Test = anyOf(
  (el) =>
    classes(el).some((c) =>
      /^(?:signature|signaturecontainer|user-signature|message-signature|b-post__signature|post-signature|sig|lastedited|message-lastEdit|b-post__edit|modified|editedby|edited|notice|spoiler-header|spoiler-head|spoiler_head|spoiler-title|spoiler_title|spoiler-toggle|spoiler_toggle|ipsSpoiler_header|bbCodeSpoiler-button|sp-head|reportlinks|quickbuttons|post-buttons|post-controls|post-menu-area|message-footer|message-actionBar|actionBar|reactionsBar|ipsItemControls|ipsReact|likes|post-likes|bbCodeBlock-expandLink|js-selectToQuoteEnd|quote-controls|back2top|quoteheader|quotefooter)$/iu.test(
        c,
      ),
    ),
  (el) =>
    classes(el).some((c) =>
      /(?:^|[-_])(?:sig|sign|signature|editnote|edit-note|edited|editedby|lastedit|last-edit)(?:$|[-_])/iu.test(
        c,
      ),
    ),
  sel("[data-excludequote]"),
  sel("[data-role=memberSignature]"),
  (el) => ["summary", "button", "input", "select", "textarea", "form", "nav", "noscript"].includes(el.name),
  (el) => /^(?:sig\d+|msg_\d+_signature|modified_\d+)$/u.test(el.attrs["id"] ?? ""),
  editNote,
  underscoreSignature,
  spoilerLabel,
  quoteCaption,
);

/**
 * A spoiler's toggle label, by its words: "Спойлер:", "Скрытый текст", "Spoiler: Show"…, and the button
 * before the word as SMF's spoiler mod writes it (issue 30: `<input value="Показать"> Спойлер`).
 */
const SPOILER_WORDS =
  /^(?:(?:Показать|Скрыть|Show|Hide)\s+)?(?:Спойлер|Скрытый текст|Скрытое содержимое|Spoiler|Hidden text|Hidden content)?\s*:?\s*(?:Показать|Скрыть|Развернуть|Свернуть|Show|Hide)?\s*$/iu;

/** A label is short; longer text is never tested against the words. */
const MAX_LABEL = 60;

function spoilerLabel(el: El): boolean {
  if (el.children.length === 0 || el.children.length > 6) return false;
  // Only a label of plain words (two levels at most, no colour), so finding it costs nothing.
  const words: string[] = [];
  for (const child of el.children) {
    if (typeof child === "string") words.push(child);
    // A button's value is its label, whatever its style (vBulletin 3's spoiler button sets a width).
    else if (child.name === "input") words.push(child.attrs["value"] ?? "");
    else if ("style" in child.attrs || "color" in child.attrs) return false;
    else
      for (const inner of child.children) {
        if (typeof inner !== "string") return false;
        words.push(inner);
      }
  }
  const text = words.join(" ").replace(/\s+/gu, " ").trim();
  return text.length <= MAX_LABEL && /\p{L}/u.test(text) && SPOILER_WORDS.test(text);
}

/** An edit note by its words, where no class names it: the element's first text starts with them. */
const EDIT_WORDS =
  /^[«\s]*(?:Последний раз редактировал|Последнее редактирование|Последняя правка|Сообщение отредактировал|Отредактировано|Изменено пользователем|Last edited by|Edited by|Edited \d|Edited:)/iu;

function editNote(el: El): boolean {
  const firstText = el.children.find(
    (child): child is string => typeof child === "string" && child.trim() !== "",
  );
  if (firstText === undefined) return false;
  if (!EDIT_WORDS.test(firstText.slice(0, MAX_LABEL)) || el.children.length > 8 || el.name === "blockquote")
    return false;
  // A note is words, a name, a time; a player's own "Edited: [color=red]Вася[/color]" keeps its vote.
  return el.children.every(
    (child) =>
      typeof child === "string" ||
      (NOTE_PARTS.has(child.name) && !("style" in child.attrs) && !("color" in child.attrs)),
  );
}
const NOTE_PARTS = new Set(["a", "time", "span", "em", "strong", "b", "i", "img", "br", "bdi"]);

/** A post body as BBCode: colours, quotes (nested stay nested), `[b] [i] [u]`, line breaks; `drop` removed. */
export function bodyBBCode(body: El, drop: Test = NEVER_BODY): string {
  const writer = new BBCodeWriter({ emojiAlt: true });
  const text = textColour(body);
  walk(body, {
    skip: drop,
    open: (el) => {
      // A link's own colour is the page's link colour (a copy from Chrome writes it inline), not a vote;
      // nor is the colour of the post's own text, which Chrome writes on the elements it copies.
      const plain = el.name === "a" || (text !== null && colorOf(el.name, el.attrs) === text);
      writer.open(el.name, plain ? withoutColour(el.attrs) : el.attrs, isQuoteBox(el));
    },
    close: () => writer.close(),
    text: (text) => writer.text(text),
  });
  return tidy(writer.result());
}

/** The colour the body's text has from the body or its nearest coloured ancestor, or null. */
function textColour(body: El): string | null {
  for (let at: El | null = body; at !== null; at = at.parent) {
    const colour = colorOf(at.name, at.attrs);
    if (colour !== null) return colour;
  }
  return null;
}

function withoutColour(attrs: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(attrs).filter(([name]) => name !== "style" && name !== "color"));
}

/** Trims each line and collapses runs of blank lines. */
export function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/gu, " ").trim())
    .join("\n")
    .replace(/\[quote\]\n+/gu, "[quote]")
    .replace(/\n+\[\/quote\]/gu, "\n[/quote]")
    .replace(/\n{3,}/gu, "\n\n")
    .trim();
}

/** Whether `el` is inside something `test` passes, up to (not including) `stop`. */
export function within(el: El, test: Test, stop: El): boolean {
  const found = closest(el, (e) => e === stop || test(e));
  return found !== null && found !== stop;
}
