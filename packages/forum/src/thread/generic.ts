import { bodyBBCode, isQuoteBox, NEVER_BODY } from "./body.ts";
import { classes, type El, findFirst, isEl, type Node, shortText, textOf } from "./dom.ts";
import type { FoundPost } from "./read.ts";

/** A class or itemprop naming a post's text. */
const BODY_HINT = /(?:^|[\s_-])(?:text|content|body|message|msg|post|entry|cooked|bbcode)(?:$|[\s_-])/iu;
/** A class or itemprop naming a post's author. */
const AUTHOR_HINT = /author|user|poster|nick|name|member|login/iu;
/** A class naming a post's date. */
const TIME_HINT = /date|time|posted/iu;
/** An author's name is at most this long. */
const MAX_AUTHOR = 40;
/** A post's number ("#21") is at most this long. */
const MAX_NUMBER = 12;
/** Elements looked at as a block's body, in document order. */
const MAX_CANDIDATES = 24;
/** Groups looked at closely, most posts first. */
const MAX_GROUPS = 12;

const hintOf = (el: El): string => `${el.attrs["class"] ?? ""} ${el.attrs["itemprop"] ?? ""}`;

/**
 * The reader for a forum it does not know: the posts are the largest set of repeated blocks (the same
 * tag and classes, none inside another) each holding a body (an element whose class says text, content,
 * message…) and, outside it, a short author element (a class saying author, user, nick…). The label is a
 * "#N" shown outside the body, else the block's id; the time a `<time>` or a date-like element.
 */
export function readGeneric(root: El): FoundPost[] {
  const elements = allElements(root);
  // One pass from the leaves up: which elements hold a body hint and an author hint somewhere inside,
  // how much text and how many elements each holds, and which hold a heading (an author, a date, a
  // "#N") outside quotes and signatures, so that no test reads a subtree twice.
  const inside = new Map<El, number>();
  const lengths = new Map<El, number>();
  const sizes = new Map<El, number>();
  const headings = new Set<El>();
  for (let i = elements.length - 1; i >= 0; i--) {
    const el = elements[i]!;
    const hint = hintOf(el);
    const own = (BODY_HINT.test(hint) ? 1 : 0) | (AUTHOR_HINT.test(hint) ? 2 : 0);
    const flags = (inside.get(el) ?? 0) | own;
    inside.set(el, flags);
    let length = lengths.get(el) ?? 0;
    for (const child of el.children) if (typeof child === "string") length += child.length;
    lengths.set(el, length);
    const size = (sizes.get(el) ?? 0) + 1;
    sizes.set(el, size);
    const heading = headings.has(el) || ownHeading(el, length, size);
    if (heading) headings.add(el);
    const parent = el.parent;
    if (parent === null) continue;
    inside.set(parent, (inside.get(parent) ?? 0) | flags);
    lengths.set(parent, (lengths.get(parent) ?? 0) + length);
    sizes.set(parent, (sizes.get(parent) ?? 0) + size);
    if (heading && !isQuoteBox(el) && !NEVER_BODY(el)) headings.add(parent);
  }
  const page: Page = { lengths, headings };
  const groups = new Map<string, El[]>();
  for (const el of elements) {
    const cls = classes(el);
    if (cls.length === 0 || (inside.get(el) ?? 0) !== 3) continue;
    const key = `${el.name}.${[...cls].sort().join(".")}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [el]);
    else group.push(el);
  }
  const candidates = [...groups.values()]
    .map(outermost)
    .filter((g) => g.length >= 2)
    .sort((a, b) => b.length - a.length)
    .slice(0, MAX_GROUPS);
  let best: { readonly posts: FoundPost[]; readonly text: number } | null = null;
  for (const group of candidates) {
    const posts: FoundPost[] = [];
    let text = 0;
    for (const block of group) {
      const post = readBlock(block, page);
      if (post === null) continue;
      posts.push(post);
      text += post.body.length;
    }
    if (posts.length < 2) continue;
    if (
      best === null ||
      posts.length > best.posts.length ||
      (posts.length === best.posts.length && text > best.text)
    )
      best = { posts, text };
  }
  return best?.posts ?? [];
}

function allElements(root: El): El[] {
  const out: El[] = [];
  const stack: Node[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isEl(node)) continue;
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

/** The members that are not inside another member. */
function outermost(group: readonly El[]): El[] {
  const members = new Set(group);
  return group.filter((el) => {
    for (let at = el.parent; at !== null; at = at.parent) if (members.has(at)) return false;
    return true;
  });
}

/** What readGeneric knows of the whole page. */
interface Page {
  /** The characters of text under each element, whitespace included. */
  readonly lengths: ReadonlyMap<El, number>;
  /** The elements that are, or hold outside quotes and signatures, a heading (see ownHeading). */
  readonly headings: ReadonlySet<El>;
}

/** A short text (a name, a "#N") holds at most this many characters before whitespace is collapsed. */
const SHORT_RAW = 200;

function readBlock(block: El, page: Page): FoundPost | null {
  const body = bodyOf(block, page);
  const short = (el: El, max: number): string | null =>
    (page.lengths.get(el) ?? 0) > SHORT_RAW ? null : shortText(el, max);
  if (body === null) return null;
  const outside = (el: El): boolean => el === body || NEVER_BODY(el) || el.name === "blockquote";
  const authorEl = findFirst(
    block,
    (el) => AUTHOR_HINT.test(hintOf(el)) && !contains(el, body) && nameLike(short(el, MAX_AUTHOR) ?? ""),
    outside,
  );
  if (authorEl === null) return null;
  const shown = findFirst(
    block,
    (el) => /^#\s?\d+$/u.test(short(el, MAX_NUMBER) ?? "") && !contains(el, body),
    outside,
  );
  const id = block.attrs["id"];
  const timeEl =
    findFirst(block, (el) => el.name === "time", outside) ??
    findFirst(block, (el) => TIME_HINT.test(el.attrs["class"] ?? "") && !contains(el, body), outside);
  return {
    author: textOf(authorEl),
    label:
      shown !== null ? textOf(shown).replace(/\s/gu, "") : id !== undefined && /\d/u.test(id) ? id : null,
    time: timeEl === null ? "" : (timeEl.attrs["datetime"] ?? textOf(timeEl)),
    body: bodyBBCode(body),
  };
}

/**
 * The block's body: of the elements whose class says text and that hold no author, date or "#N" (quotes
 * aside), the one with the most text.
 */
function bodyOf(block: El, page: Page): El | null {
  const holdsHeading = (el: El): boolean =>
    el.children.some(
      (c) => typeof c !== "string" && page.headings.has(c) && !isQuoteBox(c) && !NEVER_BODY(c),
    );
  const hinted = (el: El): boolean =>
    BODY_HINT.test(el.attrs["class"] ?? "") || el.attrs["itemprop"] === "text";
  let best: { readonly el: El; readonly length: number } | null = null;
  const candidates = allElements(block)
    .filter((el) => hinted(el) && !NEVER_BODY(el) && !isQuoteBox(el))
    .slice(0, MAX_CANDIDATES);
  for (const el of candidates) {
    if (TIME_HINT.test(el.attrs["class"] ?? "") || holdsHeading(el)) continue;
    let skipped = false;
    for (let at = el.parent; at !== null && at !== block; at = at.parent)
      if (NEVER_BODY(at) || isQuoteBox(at)) skipped = true;
    if (skipped) continue;
    const length = page.lengths.get(el) ?? 0;
    if (best === null || length > best.length) best = { el, length };
  }
  return best?.el ?? null;
}

/** An element of a post's heading: its author, its date or its number (a small element reading "#N"). */
function ownHeading(el: El, length: number, size: number): boolean {
  return (
    AUTHOR_HINT.test(hintOf(el)) ||
    TIME_HINT.test(el.attrs["class"] ?? "") ||
    el.name === "time" ||
    (length <= SHORT_RAW && size <= 4 && /^#\s?\d+$/u.test(shortText(el, MAX_NUMBER) ?? ""))
  );
}

function contains(outer: El, inner: El): boolean {
  for (let at: El | null = inner; at !== null; at = at.parent) if (at === outer) return true;
  return false;
}

function nameLike(text: string): boolean {
  const length = Array.from(text).length;
  return length >= 1 && length <= MAX_AUTHOR && /\p{L}|\p{N}/u.test(text);
}
