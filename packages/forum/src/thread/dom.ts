import { Parser } from "htmlparser2";
import { limitDepth } from "../html.ts";

/** An element of a pasted page: a small tree of our own, walked without recursion (pages may nest deep). */
export interface El {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: Node[];
  readonly parent: El | null;
}
export type Node = El | string;

/** The page as a tree under a root element named "#root" (nesting deeper than MAX_DEPTH flattened). */
export function parseHtml(html: string): El {
  const root: El = { name: "#root", attrs: {}, children: [], parent: null };
  let current = root;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const el: El = { name, attrs, children: [], parent: current };
        current.children.push(el);
        current = el;
      },
      onclosetag() {
        if (current.parent !== null) current = current.parent;
      },
      ontext(text) {
        const last = current.children.at(-1);
        if (typeof last === "string") current.children[current.children.length - 1] = last + text;
        else current.children.push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(limitDepth(html));
  parser.end();
  return root;
}

export const isEl = (node: Node): node is El => typeof node !== "string";

/** The element's class names. */
export function classes(el: El): readonly string[] {
  const value = el.attrs["class"];
  return value === undefined ? [] : value.split(/\s+/u).filter((c) => c !== "");
}

export function hasClass(el: El, name: string): boolean {
  return classes(el).includes(name);
}

export type Test = (el: El) => boolean;

/** A test from a small selector: `tag`, `.class`, `tag.class.class`, `[attr]`, `[attr=value]`, joined. */
export function sel(selector: string): Test {
  const tag = /^[a-z0-9]+/u.exec(selector)?.[0] ?? null;
  const wanted = [...selector.matchAll(/\.([\w-]+)/gu)].map((m) => m[1]!);
  const attrs = [...selector.matchAll(/\[([\w-]+)(?:=([^\]]*))?\]/gu)].map((m) => ({
    name: m[1]!,
    value: m[2] ?? null,
  }));
  return (el) =>
    (tag === null || el.name === tag) &&
    wanted.every((c) => hasClass(el, c)) &&
    attrs.every((a) => (a.value === null ? a.name in el.attrs : el.attrs[a.name] === a.value));
}

/** Any of the tests. */
export function anyOf(...tests: readonly Test[]): Test {
  return (el) => tests.some((t) => t(el));
}

/**
 * The descendants of `root` (not root itself) that pass `test`, in document order. With `inside`
 * false, a match's own descendants are not searched.
 */
export function findAll(root: El, test: Test, inside = false): El[] {
  const found: El[] = [];
  const stack: Node[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isEl(node)) continue;
    const match = test(node);
    if (match) found.push(node);
    if (!match || inside) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return found;
}

/** The first descendant passing `test`, skipping the subtrees `skip` rejects. */
export function findFirst(root: El, test: Test, skip?: Test): El | null {
  const stack: Node[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isEl(node)) continue;
    if (test(node)) return node;
    if (skip?.(node) === true) continue;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return null;
}

/** The nearest ancestor passing `test` (not el itself), or null. */
export function closest(el: El, test: Test): El | null {
  for (let at = el.parent; at !== null; at = at.parent) if (test(at)) return at;
  return null;
}

/** The visible text, whitespace collapsed and trimmed. */
export function textOf(root: El): string {
  const parts: string[] = [];
  const stack: Node[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isEl(node)) parts.push(node);
    else if (!HIDDEN_TEXT.has(node.name)) {
      // Blocks are apart on the page: "#12" in one and a date in the next are not "#1202".
      const apart = !INLINE.has(node.name);
      if (apart) stack.push(" ");
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
      if (apart) parts.push(" ");
    }
  }
  return parts.join("").replace(/\s+/gu, " ").trim();
}
/**
 * The text as textOf gives it when it is at most `max` characters, else null; it stops as soon as the
 * text or the elements visited pass the bound, so testing every element of a deep tree stays cheap.
 */
export function shortText(root: El, max: number): string | null {
  const parts: string[] = [];
  let length = 0;
  let visited = 0;
  const stack: Node[] = [...root.children].reverse();
  while (stack.length > 0) {
    if (++visited > 4 * max + 16) return null;
    const node = stack.pop()!;
    if (!isEl(node)) {
      parts.push(node);
      length += node.length;
      if (length > 4 * max + 16) return null;
    } else if (!HIDDEN_TEXT.has(node.name)) {
      const apart = !INLINE.has(node.name);
      if (apart) stack.push(" ");
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
      if (apart) parts.push(" ");
    }
  }
  const text = parts.join("").replace(/\s+/gu, " ").trim();
  return text.length > max ? null : text;
}

const HIDDEN_TEXT = new Set(["script", "style", "noscript", "template", "head", "title", "svg"]);
/** Elements that run on in a line of text. */
const INLINE = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "em",
  "font",
  "i",
  "img",
  "s",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "time",
  "u",
]);

/** Elements visited by a walk: `open`/`close` for elements (unless `skip`), `text` for text. */
export interface Visitor {
  readonly skip: Test;
  readonly open: (el: El) => void;
  readonly close: (el: El) => void;
  readonly text: (text: string) => void;
}

/** Walks the children of root in document order, without recursion. */
export function walk(root: El, visitor: Visitor): void {
  type Step = { readonly node: Node; readonly closing: boolean };
  const stack: Step[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push({ node: root.children[i]!, closing: false });
  while (stack.length > 0) {
    const { node, closing } = stack.pop()!;
    if (!isEl(node)) {
      visitor.text(node);
      continue;
    }
    if (closing) {
      visitor.close(node);
      continue;
    }
    if (visitor.skip(node)) continue;
    visitor.open(node);
    stack.push({ node, closing: true });
    for (let i = node.children.length - 1; i >= 0; i--)
      stack.push({ node: node.children[i]!, closing: false });
  }
}
