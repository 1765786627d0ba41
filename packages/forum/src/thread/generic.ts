import { bodyBBCode, isQuoteBox, NEVER_BODY } from "./body.ts";
import { classes, type El, isEl, shortText } from "./dom.ts";
import type { FoundPost } from "./read.ts";

/**
 * Issue 30: the generic reader says how sure it is. "high": several posts by several authors, each with
 * a date or a number, the texts much longer than the names, and no other layout of the page reading
 * otherwise. "low": posts were found but one of these is missing, or nothing was found (`why` says what).
 */
export type GenericConfidence = "high" | "low";

export interface GenericReading {
  readonly posts: readonly FoundPost[];
  readonly confidence: GenericConfidence;
  /** What was found and why the reader is (not) sure, in one English sentence. */
  readonly why: string;
}

/** Counts the elements the reader visits, so that a test can see the work grow linearly with the page. */
export interface Meter {
  visited: number;
}

/** A class, itemprop or component naming a post's text; one signal among others, never required. */
const BODY_HINT = /(?:^|[\s_-])(?:text|content|body|message|msg|post|entry|cooked|bbcode)(?:$|[\s_-])/iu;
/** A class, itemprop or component naming a post's author; one signal among others. */
const AUTHOR_HINT = /author|user|poster|nick|name|member|login/iu;
/**
 * A link to a member's profile, in the URL shapes forums use (not their class names); Forumotion's
 * (forum2x2) is "/u12" (issue 30).
 */
const PROFILE_HREF =
  /(?:profile|member|memberlist|showuser|viewprofile|userinfo|[?&;]u=\d|[?&;]user(?:id)?=|\/u\/|\/users?\/|\/members?\/|\/index\/8-\d|\/profile\/|^(?:https?:\/\/[^/]+)?\/u\d+(?:$|[-?#]))/iu;
/** A class naming a post's date. */
const TIME_HINT = /date|time|posted/iu;
/** A date as forums print it: 02.03.2024, 2024-03-02, 02 мар 2024, 2 March 2024, 02/03/24. */
const DATE =
  /\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}\s+\p{L}{3,9}\.?,?\s+\d{4}|\p{L}{3,9}\.?\s+\d{1,2},\s+\d{4}|(?:Сегодня|Вчера|Today|Yesterday),?\s+(?:в\s+)?\d{1,2}:\d{2}/iu;
/** A post's number as forums show it: "#21", "# 21". */
const NUMBER = /^#\s?\d+$/u;
/** Elements whose text the reader does not see. */
const HIDDEN = new Set(["script", "style", "noscript", "template", "head", "title", "svg"]);
/** An author's name is at most this long. */
const MAX_AUTHOR = 40;
/** A post's number ("#21") is at most this long. */
const MAX_NUMBER = 12;
/** A date is at most this long. */
const MAX_DATE = 60;
/** Groups read closely, the most likely first; the bound keeps a page of any shape linear. */
const MAX_GROUPS = 16;
/** A topic's title is at least this long; shorter links are buttons ("Ответ", "ЛС"). */
const MIN_TITLE = 3;

/** What the one pass from the leaves up knows of each element, by its index in document order. */
interface Facts {
  readonly elements: readonly El[];
  readonly index: ReadonlyMap<El, number>;
  /** Elements in each subtree, itself included: j is inside i when index i < j < i + size[i]. */
  readonly size: Int32Array;
  /** Visible non-space characters under the element. */
  readonly text: Int32Array;
  /** The same without signatures, edit notes, bars and spoiler labels (NEVER_BODY): what a post says. */
  readonly said: Int32Array;
  /** Of `said`, the characters inside links. */
  readonly saidLinks: Int32Array;
  /** Author-like elements in the subtree, and the characters inside them (each counted once). */
  readonly authors: Int32Array;
  readonly authorChars: Int32Array;
  /** How strongly the element itself looks like an author's name (0: not at all). */
  readonly authorWeight: Int8Array;
  /** The name the element shows, when authorWeight > 0. */
  readonly authorText: ReadonlyMap<number, string>;
  /** 1 when the element is, or holds outside quotes and signatures, a heading (author, date, "#N"). */
  readonly heading: Uint8Array;
  /** What the element itself is: DATED (a date or a time) or NUMBERED (a "#N"), else 0. */
  readonly own: Uint8Array;
  /** 1 for quote boxes and NEVER_BODY: walked around when a post is read. */
  readonly skip: Uint8Array;
}

/**
 * The reader for a forum it does not know (issue 30). The posts are a group of repeated blocks (siblings
 * with one tag, or elements with one tag and classes anywhere, none inside another) each holding an
 * author (a link to a profile, an author-like class or attribute, a short name) and a body (the largest
 * text that holds no author, date or "#N"). Within a group, the author and the body are found at the same
 * place in every block where they can be, so a rank or a menu link does not pass for a name. The group
 * chosen is the one that reads most like a thread: several posts, several authors, dated or numbered,
 * texts much longer than the names, texts that are not links, and no block naming a topic of its own (a
 * topic list, search results). Class names are one signal among others; a page with none still reads.
 * Linear in the page: one pass over it, then at most MAX_GROUPS groups each read in one walk.
 */
export function readGeneric(root: El, meter: Meter = { visited: 0 }): GenericReading {
  const facts = collect(root, meter);
  const groups = candidateGroups(root, facts, meter);
  if (groups.length === 0)
    return none("no repeated blocks each holding an author's name and a text apart from it");
  const readings: GroupReading[] = [];
  const refusals: string[] = [];
  for (const group of groups) {
    const reading = readGroup(group, facts, meter);
    const refusal = refusalOf(reading);
    if (refusal === null) readings.push(reading);
    else refusals.push(`${describe(group)}: ${refusal}`);
  }
  readings.sort(better);
  const best = readings[0];
  if (best === undefined)
    return none(`no group of blocks reads as a thread (${refusals.slice(0, 3).join("; ")})`);
  const boxes = best.blocks.map((b) => messageBox(b.body));
  const boxed = boxes.every((box) => box !== null);
  const posts: FoundPost[] = best.blocks.map((b, i) => ({
    author: b.author,
    label: b.label,
    time: b.time,
    body: bodyBBCode(boxed ? boxes[i]! : b.body),
  }));
  return { posts, ...confidenceOf(best, readings.slice(1)) };
}

/**
 * The quote-like box that is all of a body (XenForo 1's blockquote.messageText, vBulletin 4's
 * blockquote.postcontent, reached through wrappers holding nothing else), or null. When every post's body is
 * one, it is the posts' own box, not a quote: no thread quotes in every post and says nothing else, and
 * read as a quote each post's votes would be no one's (issue 30).
 */
function messageBox(body: El): El | null {
  for (let at = body; ;) {
    if (isQuoteBox(at)) return at;
    const inner = at.children.filter((c) => typeof c !== "string" || c.trim() !== "");
    if (inner.length !== 1 || typeof inner[0] === "string") return null;
    at = inner[0]!;
  }
}

function none(why: string): GenericReading {
  return { posts: [], confidence: "low", why: `0 posts: ${why}` };
}

/** The one pass from the leaves up. */
function collect(root: El, meter: Meter): Facts {
  const elements: El[] = [];
  const stack: El[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    meter.visited++;
    if (el !== root) elements.push(el);
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i]!;
      if (isEl(child)) stack.push(child);
    }
  }
  const n = elements.length;
  const index = new Map<El, number>();
  for (let i = 0; i < n; i++) index.set(elements[i]!, i);
  const size = new Int32Array(n);
  const text = new Int32Array(n);
  const said = new Int32Array(n);
  const saidLinks = new Int32Array(n);
  const authors = new Int32Array(n);
  const authorChars = new Int32Array(n);
  const authorWeight = new Int8Array(n);
  const authorText = new Map<number, string>();
  const heading = new Uint8Array(n);
  const skip = new Uint8Array(n);
  const ownHeading = new Uint8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    const el = elements[i]!;
    meter.visited++;
    size[i]! += 1;
    const hidden = HIDDEN.has(el.name);
    let own = 0;
    if (!hidden) for (const child of el.children) if (typeof child === "string") own += visible(child);
    text[i] = hidden ? 0 : text[i]! + own;
    const never = NEVER_BODY(el);
    skip[i] = never || isQuoteBox(el) ? 1 : 0;
    said[i] = never || hidden ? 0 : said[i]! + own;
    if (el.name === "a") saidLinks[i] = said[i]!;
    const weight = authorWeightOf(el, text[i]!, size[i]!);
    if (weight > 0) {
      const name = shortText(el, MAX_AUTHOR);
      if (name !== null && nameLike(name)) {
        authorWeight[i] = weight;
        authorText.set(i, name);
        authors[i]! += 1;
        // Its text holds its author-like descendants' (vBulletin 4's username_container holds the name's
        // link and its menu): counted once, or a short post would seem no longer than its names.
        authorChars[i] = text[i]!;
      }
    }
    ownHeading[i] = headingOf(el, text[i]!, size[i]!);
    if (authorWeight[i]! > 0 || ownHeading[i]! > 0) heading[i] = 1;
    const parent = el.parent === null ? undefined : index.get(el.parent);
    if (parent === undefined) continue;
    size[parent]! += size[i]!;
    text[parent]! += text[i]!;
    said[parent]! += said[i]!;
    saidLinks[parent]! += never ? 0 : saidLinks[i]!;
    authors[parent]! += authors[i]!;
    authorChars[parent]! += authorChars[i]!;
    if (heading[i] === 1 && skip[i] === 0) heading[parent] = 1;
  }
  return {
    elements,
    index,
    size,
    text,
    said,
    saidLinks,
    authors,
    authorChars,
    authorWeight,
    authorText,
    heading,
    own: ownHeading,
    skip,
  };
}

/** Non-space characters. */
function visible(s: string): number {
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && c !== 160) count++;
  }
  return count;
}

const hintOf = (el: El): string =>
  `${el.attrs["class"] ?? ""} ${el.attrs["itemprop"] ?? ""} ${el.attrs["component"] ?? ""} ${el.attrs["data-role"] ?? ""}`;

/**
 * 3: the page says it is the author (itemprop=author, a data attribute naming the user); 2: a link to a
 * profile; 1: a class saying author, user, nick…; 0: none of these, or too long or too big for a name.
 */
function authorWeightOf(el: El, text: number, size: number): number {
  if (text === 0 || text > MAX_AUTHOR || size > 8) return 0;
  if (
    /\bauthor\b/iu.test(el.attrs["itemprop"] ?? "") ||
    "data-username" in el.attrs ||
    "data-author" in el.attrs ||
    "data-user-card" in el.attrs
  )
    return 3;
  if (el.name === "a" && PROFILE_HREF.test(el.attrs["href"] ?? "")) return 2;
  return AUTHOR_HINT.test(hintOf(el)) ? 1 : 0;
}

const DATED = 1;
const NUMBERED = 2;

/**
 * DATED for a `<time>`, a class saying date, or a short element whose whole text is a date; NUMBERED for
 * a short element reading "#N"; else 0.
 */
function headingOf(el: El, text: number, size: number): number {
  if (el.name === "time") return DATED;
  // A date a script writes in later (NodeBB's empty span.timeago) is in its title.
  if (text === 0 && TIME_HINT.test(el.attrs["class"] ?? "") && DATE.test(el.attrs["title"] ?? ""))
    return DATED;
  if (text === 0 || text > MAX_DATE || size > 6) return 0;
  const shown = shortText(el, MAX_DATE);
  if (shown !== null && text <= MAX_NUMBER && NUMBER.test(shown)) return NUMBERED;
  if (TIME_HINT.test(el.attrs["class"] ?? "")) return DATED;
  return shown !== null && dateLine(shown) ? DATED : 0;
}

/** Letters a date's line may hold besides the date: "Добавлено:", "Отправлено", "« Ответ #20 :". */
const MAX_DATE_WORDS = 16;

/** A date and a few words at most: "02.03.2024 18:12 Мой голос: Борис" is a post, not its date. */
function dateLine(text: string): boolean {
  const date = DATE.exec(text);
  if (date === null) return false;
  const rest = text.slice(0, date.index) + text.slice(date.index + date[0].length);
  return (rest.match(/\p{L}/gu)?.length ?? 0) <= MAX_DATE_WORDS;
}

function nameLike(text: string): boolean {
  const length = Array.from(text).length;
  return length >= 1 && length <= MAX_AUTHOR && /\p{L}|\p{N}/u.test(text);
}

/** An element's tag and classes, digits dropped: bg1 and bg2, row1 and row2 alternate as one shape. */
function shapeOf(el: El): string {
  const cls = classes(el)
    .map((c) => c.replace(/\d+/gu, ""))
    .filter((c) => c !== "");
  return cls.length === 0 ? el.name : `${el.name}.${[...new Set(cls)].sort().join(".")}`;
}

/** Blocks that may be posts, in document order (indices into Facts.elements). */
interface Group {
  readonly blocks: readonly number[];
  readonly how: string;
}

/**
 * The groups worth reading: siblings of one tag under one parent, and elements of one tag and classes
 * (digits dropped, so bg1 and bg2 alternate as one) anywhere, the outermost of each. A block may be a
 * post when it holds an author-like element and some text besides. Most such blocks first, then most
 * text; at most MAX_GROUPS.
 */
function candidateGroups(root: El, f: Facts, meter: Meter): Group[] {
  const plausible = (i: number): boolean =>
    f.skip[i] === 0 && f.authors[i]! > 0 && f.text[i]! > f.authorChars[i]!;
  const found: Group[] = [];
  const parents = [root, ...f.elements];
  for (const parent of parents) {
    const byTag = new Map<string, number[]>();
    for (const child of parent.children) {
      if (typeof child === "string") continue;
      meter.visited++;
      const i = f.index.get(child)!;
      if (!plausible(i)) continue;
      const list = byTag.get(child.name);
      if (list === undefined) byTag.set(child.name, [i]);
      else list.push(i);
    }
    for (const [tag, blocks] of byTag) if (blocks.length >= 2) found.push({ blocks, how: `${tag} siblings` });
  }
  const byClass = new Map<string, number[]>();
  for (let i = 0; i < f.elements.length; i++) {
    if (!plausible(i)) continue;
    const el = f.elements[i]!;
    const key = shapeOf(el);
    if (key === el.name) continue;
    const list = byClass.get(key);
    if (list === undefined) byClass.set(key, [i]);
    else list.push(i);
  }
  for (const [key, members] of byClass) {
    const blocks: number[] = [];
    let end = -1;
    for (const i of members) {
      if (i < end) continue;
      blocks.push(i);
      end = i + f.size[i]!;
    }
    if (blocks.length >= 2) found.push({ blocks, how: key });
  }
  const seen = new Set<string>();
  const text = (g: Group): number => g.blocks.reduce((sum, i) => sum + f.text[i]!, 0);
  return found
    .map((g) => ({ g, text: text(g) }))
    .sort((a, b) => b.g.blocks.length - a.g.blocks.length || b.text - a.text)
    .map(({ g }) => g)
    .filter((g) => {
      const key = g.blocks.join(",");
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_GROUPS);
}

function describe(group: Group): string {
  return `${group.blocks.length} × ${group.how}`;
}

/** One block read as a post, before its body is written as BBCode. */
interface BlockReading {
  readonly block: number;
  readonly author: string;
  readonly authorChars: number;
  readonly body: El;
  readonly said: number;
  readonly links: number;
  readonly label: string | null;
  readonly numbered: boolean;
  readonly time: string;
  /** The texts of links naming another page (a topic?), outside the body and the author. */
  readonly titles: readonly string[];
  /** Other names at the author's place in this block: a list of members or topics, not a post. */
  readonly crowded: boolean;
}

interface GroupReading {
  readonly group: Group;
  readonly blocks: readonly BlockReading[];
}

/** An element met in a block's walk, with the place it was met at (the path of tags from the block). */
interface Seen {
  readonly i: number;
  readonly path: number;
}

/** What one walk of a block collects. */
interface BlockWalk {
  readonly authors: Seen[];
  readonly bodies: Seen[];
  readonly numbers: Seen[];
  readonly times: Seen[];
  readonly links: Seen[];
}

/**
 * Reads every block of a group: one walk per block (around quotes and signatures), then the author's
 * and the body's place chosen for the whole group, then each block read at those places.
 */
function readGroup(group: Group, f: Facts, meter: Meter): GroupReading {
  const paths = new Map<string, number>();
  const walks = group.blocks.map((b) => walkBlock(b, f, paths, meter));
  const authorPath = bestPath(
    walks.map((w) => w.authors),
    (s) => f.authorWeight[s.i]!,
    (s) => f.authorText.get(s.i) ?? "",
    group.blocks.length,
  );
  const authorsOf = walks.map((w) => {
    const at = w.authors.find((s) => s.path === authorPath);
    if (at !== undefined) return at.i;
    let best: Seen | null = null;
    for (const s of w.authors) if (best === null || f.authorWeight[s.i]! > f.authorWeight[best.i]!) best = s;
    return best?.i ?? null;
  });
  const inside = (outer: number, inner: number): boolean => outer <= inner && inner < outer + f.size[outer]!;
  const validBodies = walks.map((w, k) => {
    const author = authorsOf[k];
    if (author === null || author === undefined) return [];
    return w.bodies.filter((s) => !inside(s.i, author) && !inside(author, s.i) && f.said[s.i]! > 0);
  });
  const sums = new Map<number, number>();
  // What a body says is its text outside links: a bar of "Ответить", "Цитировать" is all links.
  const words = (i: number): number => f.said[i]! - f.saidLinks[i]!;
  // A class saying text, content, message… is one signal: it outweighs a wrapper holding a little more.
  const hinted = (i: number): number => (BODY_HINT.test(hintOf(f.elements[i]!)) ? 1.5 : 1);
  for (const list of validBodies)
    for (const s of list) sums.set(s.path, (sums.get(s.path) ?? 0) + words(s.i) * hinted(s.i));
  let bodyPath = -1;
  let bodySum = -1;
  for (const [path, sum] of sums) if (sum > bodySum) [bodyPath, bodySum] = [path, sum];
  const blocks: BlockReading[] = [];
  walks.forEach((w, k) => {
    const author = authorsOf[k];
    const list = validBodies[k]!;
    const names = new Set(
      w.authors.filter((s) => s.path === authorPath).map((s) => f.authorText.get(s.i) ?? ""),
    );
    if (author === null || author === undefined || list.length === 0) return;
    let body: Seen | null = null;
    const onPath = (s: Seen): boolean => s.path === bodyPath;
    for (const s of list)
      if (
        body === null ||
        (onPath(s) && !onPath(body)) ||
        (onPath(s) === onPath(body) && words(s.i) > words(body.i))
      )
        body = s;
    const b = body!.i;
    const outside = (s: Seen): boolean => !inside(b, s.i) && !inside(author, s.i);
    const number = w.numbers.find(outside);
    const time = w.times.find(outside);
    const name = f.authorText.get(author)!;
    const block = f.elements[group.blocks[k]!]!;
    const id = block.attrs["id"];
    blocks.push({
      block: group.blocks[k]!,
      author: name,
      authorChars: f.text[author]!,
      body: f.elements[b]!,
      said: f.said[b]!,
      links: f.saidLinks[b]!,
      // Read within the bound headingOf found the "#N" with: a page's indentation around it counts
      // towards shortText's bound, and a tighter one would lose a "#21" laid out over three lines.
      label:
        number !== undefined
          ? (shortText(f.elements[number.i]!, MAX_DATE) ?? "").replace(/\s/gu, "")
          : id !== undefined && /\d/u.test(id)
            ? id
            : null,
      numbered: number !== undefined,
      time: time === undefined ? "" : timeText(f.elements[time.i]!),
      titles: w.links
        .filter(outside)
        .map((s) => titleText(f.elements[s.i]!, name))
        .filter((t): t is string => t !== null),
      crowded: names.size > 1,
    });
  });
  return { group, blocks };
}

/**
 * Walks a block around quotes and signatures, noting author-like elements, elements that may be the
 * body (text and no heading inside), "#N"s, dates and links to other pages, each with its path.
 */
function walkBlock(block: number, f: Facts, paths: Map<string, number>, meter: Meter): BlockWalk {
  const out: BlockWalk = { authors: [], bodies: [], numbers: [], times: [], links: [] };
  const stack: Seen[] = [];
  const root = f.elements[block]!;
  const push = (el: El, parentPath: number): void => {
    const key = `${parentPath}/${shapeOf(el)}`;
    let path = paths.get(key);
    if (path === undefined) {
      path = paths.size;
      paths.set(key, path);
    }
    stack.push({ i: f.index.get(el)!, path });
  };
  for (let c = root.children.length - 1; c >= 0; c--) {
    const child = root.children[c]!;
    if (isEl(child)) push(child, -1);
  }
  while (stack.length > 0) {
    const seen = stack.pop()!;
    meter.visited++;
    const i = seen.i;
    if (f.skip[i] === 1) continue;
    const el = f.elements[i]!;
    if (f.authorWeight[i]! > 0) out.authors.push(seen);
    if (f.heading[i] === 0 && f.said[i]! > 0) out.bodies.push(seen);
    if (f.own[i] === DATED) out.times.push(seen);
    if (f.own[i] === NUMBERED) out.numbers.push(seen);
    if (el.name === "a" && f.heading[i] === 0) out.links.push(seen);
    for (let c = el.children.length - 1; c >= 0; c--) {
      const child = el.children[c]!;
      if (isEl(child)) push(child, seen.path);
    }
  }
  return out;
}

/**
 * The place (path) of the group's authors: found in most blocks, showing more than one name, and
 * looking most like an author; a rank, a menu's "Profile" link or a group name shows one text in every
 * block, the authors' names several (a thread of one author still reads, by the other signals).
 */
function bestPath(
  lists: readonly (readonly Seen[])[],
  weight: (s: Seen) => number,
  text: (s: Seen) => string,
  blocks: number,
): number {
  const stats = new Map<number, { blocks: number; texts: Set<string>; weight: number; first: number }>();
  let order = 0;
  for (const list of lists) {
    const counted = new Set<number>();
    for (const s of list) {
      let st = stats.get(s.path);
      if (st === undefined) {
        st = { blocks: 0, texts: new Set(), weight: 0, first: order++ };
        stats.set(s.path, st);
      }
      if (!counted.has(s.path)) {
        counted.add(s.path);
        st.blocks++;
        st.texts.add(text(s));
        st.weight = Math.max(st.weight, weight(s));
      }
    }
  }
  let best = -1;
  let bestScore = -Infinity;
  let bestFirst = Infinity;
  for (const [path, st] of stats) {
    // An avatar's initial ("В" for Ведущий) is no name, though it links to the profile.
    const initials = [...st.texts].every((t) => Array.from(t).length === 1);
    const score = (4 * st.blocks) / blocks + (st.texts.size >= 2 ? 3 : 0) + (initials ? -3 : st.weight);
    if (score > bestScore || (score === bestScore && st.first < bestFirst))
      [best, bestScore, bestFirst] = [path, score, st.first];
  }
  return best;
}

function timeText(el: El): string {
  const shown = shortText(el, MAX_DATE) ?? "";
  return (el.attrs["datetime"] ?? (shown === "" ? (el.attrs["title"] ?? "") : shown)).trim();
}

/**
 * A link's text when it may name a topic: not a button (too short), not a name or a date, not the
 * author's ("Сообщения Аня"), without a reply's "Re:"; else null.
 */
function titleText(a: El, author: string): string | null {
  const href = a.attrs["href"] ?? "";
  if (href === "" || href.startsWith("#") || /^javascript:/iu.test(href)) return null;
  if (PROFILE_HREF.test(href)) return null;
  const text = shortText(a, 120);
  if (text === null || Array.from(text).length < MIN_TITLE || !/\p{L}/u.test(text)) return null;
  if (text.includes(author)) return null;
  return text
    .replace(/^(?:(?:re|ответ|на)\s*(?:\[\d+\])?\s*:\s*)+/iu, "")
    .toLowerCase()
    .trim();
}

/** Why a group is not a thread, or null when it may be. */
function refusalOf(g: GroupReading): string | null {
  const n = g.blocks.length;
  if (n < 2) return n === 0 ? "no block holds both an author and a text" : "only one block reads as a post";
  const said = g.blocks.reduce((s, b) => s + b.said, 0);
  const links = g.blocks.reduce((s, b) => s + b.links, 0);
  const names = g.blocks.reduce((s, b) => s + b.authorChars, 0);
  if (links * 2 > said) return "the texts are mostly links (a list of topics or members)";
  if (said < 2 * names) return "the texts are hardly longer than the names";
  // Two undated blocks with short texts are as likely a page's header and panel (a profile) as two posts.
  if (n === 2 && dated(g) < 2 && said < 3 * names)
    return "only two blocks, undated, and their texts hardly longer than the names";
  if (g.blocks.filter((b) => b.crowded).length * 2 >= n)
    return "the blocks hold several names each at the author's place (lists, not posts)";
  if (topicsOfTheirOwn(g)) return "each block names a topic of its own (search results or a topic list)";
  return null;
}

/** Whether at least half of the blocks (two at least) link to a title no other block shows. */
function topicsOfTheirOwn(g: GroupReading): boolean {
  const shown = new Map<string, number>();
  for (const b of g.blocks) for (const t of new Set(b.titles)) shown.set(t, (shown.get(t) ?? 0) + 1);
  const own = g.blocks.filter((b) => b.titles.some((t) => shown.get(t) === 1)).length;
  return own >= 2 && own * 2 >= g.blocks.length;
}

const distinctAuthors = (g: GroupReading): number => new Set(g.blocks.map((b) => b.author)).size;
const dated = (g: GroupReading): number => g.blocks.filter((b) => b.time !== "" || b.numbered).length;
const thread = (g: GroupReading): boolean => distinctAuthors(g) >= 2 && dated(g) * 2 >= g.blocks.length;
const saidOf = (g: GroupReading): number => g.blocks.reduce((s, b) => s + b.said, 0);

const numbered = (g: GroupReading): number => g.blocks.filter((b) => b.numbered).length;

/**
 * Most like a thread first (several authors and dated), then most posts numbered "#N", then most posts,
 * then most text. The numbers come before the count: a page's header box of the posts' own shape (FluxBB's
 * div.box, when its welcome line holds the member's profile link and last visit) makes a group of one
 * block more than the posts, but it is numbered nowhere.
 */
function better(a: GroupReading, b: GroupReading): number {
  return (
    Number(thread(b)) - Number(thread(a)) ||
    numbered(b) - numbered(a) ||
    b.blocks.length - a.blocks.length ||
    saidOf(b) - saidOf(a)
  );
}

function confidenceOf(
  best: GroupReading,
  others: readonly GroupReading[],
): { confidence: GenericConfidence; why: string } {
  const n = best.blocks.length;
  const authors = distinctAuthors(best);
  const found = `${n} posts by ${authors} author${authors === 1 ? "" : "s"} in ${describe(best.group)}`;
  const doubts: string[] = [];
  if (n < 3) doubts.push("fewer than 3 posts");
  if (authors < 2) doubts.push("a single author");
  if (dated(best) * 2 < n) doubts.push("most posts have no date or number");
  const names = best.blocks.reduce((s, b) => s + b.authorChars, 0);
  if (saidOf(best) < 3 * names) doubts.push("the texts are short beside the names");
  const key = (g: GroupReading): string => g.blocks.map((b) => b.author).join("\n");
  // Some of the same blocks are no other reading: NodeBB marks the topic owner's posts with a class of
  // their own, so its other posts make a second, smaller group of the very same posts.
  const mine = new Set(best.blocks.map((b) => b.block));
  const rival = others.find(
    (g) =>
      thread(g) === thread(best) &&
      g.blocks.length * 5 >= n * 4 &&
      key(g) !== key(best) &&
      g.blocks.some((b) => !mine.has(b.block)) &&
      // Posts numbered "#N" outweigh a group that numbers fewer (better's order): no rival then.
      numbered(g) >= numbered(best),
  );
  if (rival !== undefined)
    doubts.push(`${describe(rival.group)} reads as ${rival.blocks.length} other posts`);
  return doubts.length === 0
    ? { confidence: "high", why: `${found}, dated or numbered` }
    : { confidence: "low", why: `${found}; unsure: ${doubts.join(", ")}` };
}
