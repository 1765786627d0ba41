import { bodyBBCode, isQuoteBox, NEVER_BODY } from "./body.ts";
import { classes, type El, findFirst, isEl, type Node, textOf } from "./dom.ts";
import type { FoundPost } from "./read.ts";

/** A class or itemprop naming a post's text. */
const BODY_HINT = /(?:^|[\s_-])(?:text|content|body|message|msg|post|entry|cooked|bbcode)(?:$|[\s_-])/iu;
/** A class or itemprop naming a post's author. */
const AUTHOR_HINT = /author|user|poster|nick|name|member|login/iu;
/** A class naming a post's date. */
const TIME_HINT = /date|time|posted/iu;
/** An author's name is at most this long. */
const MAX_AUTHOR = 40;
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
  // Which elements hold a body hint and an author hint somewhere inside (one pass from the leaves up).
  const inside = new Map<El, number>();
  for (let i = elements.length - 1; i >= 0; i--) {
    const el = elements[i]!;
    const hint = hintOf(el);
    const own = (BODY_HINT.test(hint) ? 1 : 0) | (AUTHOR_HINT.test(hint) ? 2 : 0);
    const flags = (inside.get(el) ?? 0) | own;
    inside.set(el, flags);
    if (el.parent !== null) inside.set(el.parent, (inside.get(el.parent) ?? 0) | flags);
  }
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
      const post = readBlock(block);
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

function readBlock(block: El): FoundPost | null {
  const body = bodyOf(block);
  if (body === null) return null;
  const outside = (el: El): boolean => el === body || NEVER_BODY(el) || el.name === "blockquote";
  const authorEl = findFirst(
    block,
    (el) => AUTHOR_HINT.test(hintOf(el)) && !contains(el, body) && nameLike(textOf(el)),
    outside,
  );
  if (authorEl === null) return null;
  const shown = findFirst(block, (el) => /^#\s?\d+$/u.test(textOf(el)) && !contains(el, body), outside);
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
function bodyOf(block: El): El | null {
  const hinted = (el: El): boolean =>
    BODY_HINT.test(el.attrs["class"] ?? "") || el.attrs["itemprop"] === "text";
  let best: { readonly el: El; readonly length: number } | null = null;
  for (const el of allElements(block)) {
    if (!hinted(el) || NEVER_BODY(el) || isQuoteBox(el)) continue;
    if (
      TIME_HINT.test(el.attrs["class"] ?? "") ||
      findFirst(el, heading, (e) => isQuoteBox(e) || NEVER_BODY(e)) !== null
    )
      continue;
    let skipped = false;
    for (let at = el.parent; at !== null && at !== block; at = at.parent)
      if (NEVER_BODY(at) || isQuoteBox(at)) skipped = true;
    if (skipped) continue;
    const length = textOf(el).length;
    if (best === null || length > best.length) best = { el, length };
  }
  return best?.el ?? null;
}

/** An element of a post's heading: its author, its date or its number. */
function heading(el: El): boolean {
  return (
    AUTHOR_HINT.test(hintOf(el)) ||
    TIME_HINT.test(el.attrs["class"] ?? "") ||
    el.name === "time" ||
    /^#\s?\d+$/u.test(textOf(el))
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
