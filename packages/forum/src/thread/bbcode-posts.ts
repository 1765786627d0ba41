import type { FoundPost } from "./read.ts";

/** A quote tag, opening (with what follows `quote`, up to 500 characters) or closing. No nested quantifiers. */
const QUOTE_TAG = /\[(\/?)quote((?:[=\s])[^\]\n]{0,500})?\]/giu;

/**
 * The posts in a GM's multi-quote: each top-level `[quote…]` that names its author is a post, its inner
 * text the body (nested quotes stay quotes). The quote tag of each engine is read for the author, the
 * post's number or anchor and its time:
 * phpBB `[quote="Name" post_id=123 time=… user_id=…]` (`[quote=Name post_id=…]` for a name without spaces), XenForo `[QUOTE="Name, post: 123, member: 45"]`,
 * vBulletin `[QUOTE=Name;123]`, SMF `[quote author=Name link=msg=123 date=…]`,
 * Invision `[quote name="Name" post="123" timestamp="…"]`, Discourse `[quote="name, post:3, topic:45"]`,
 * and the plain `[quote=Name]` / `[quote="Name"]`.
 */
export function readBBCodePosts(text: string): FoundPost[] {
  const posts: FoundPost[] = [];
  let depth = 0;
  let open: { readonly tag: string; readonly start: number } | null = null;
  for (const match of text.matchAll(QUOTE_TAG)) {
    const closing = match[1] === "/";
    if (!closing) {
      if (depth === 0) open = { tag: match[2] ?? "", start: match.index + match[0].length };
      depth++;
    } else if (depth > 0) {
      depth--;
      if (depth === 0 && open !== null) {
        const post = postOf(open.tag, text.slice(open.start, match.index));
        if (post !== null) posts.push(post);
        open = null;
      }
    }
  }
  if (depth > 0 && open !== null) {
    const post = postOf(open.tag, text.slice(open.start));
    if (post !== null) posts.push(post);
  }
  return posts;
}

interface QuoteHead {
  readonly author: string;
  readonly label: string | null;
  readonly time: string;
}

function postOf(tag: string, body: string): FoundPost | null {
  const head = headOf(tag);
  if (head === null || head.author === "") return null;
  return { author: head.author, label: head.label, time: head.time, body: body.trim() };
}

/** The author, label and time a quote tag's attributes give, or null when it names nobody. */
export function headOf(tag: string): QuoteHead | null {
  const rest = tag.trim();
  if (rest.startsWith("=")) return headOfValue(rest.slice(1).trim());
  const attrs = keyValues(rest);
  // SMF: author=Вася Пупкин link=msg=123 date=1709316000
  const smfAuthor = /^author=(.+?)(?=\s+(?:link|date)=|$)/iu.exec(rest)?.[1];
  if (smfAuthor !== undefined) {
    const msg = /\blink=(?:[^\s]*?msg=?)?(\d+)/iu.exec(rest)?.[1];
    return {
      author: unquote(smfAuthor),
      label: msg === undefined ? null : `msg${msg}`,
      time: unixTime(attrs.get("date")),
    };
  }
  const name = attrs.get("name");
  if (name !== undefined) {
    const post = attrs.get("post");
    return {
      author: name,
      label: post !== undefined && /^\d+$/u.test(post) ? `comment-${post}` : null,
      time: unixTime(attrs.get("timestamp")),
    };
  }
  return null;
}

function headOfValue(rest: string): QuoteHead | null {
  let value: string;
  let after: string;
  const q = rest[0];
  if (q === '"' || q === "'" || q === "&") {
    const quote = rest.startsWith("&quot;") ? "&quot;" : q;
    const end = rest.indexOf(quote, quote.length);
    value = end < 0 ? rest.slice(quote.length) : rest.slice(quote.length, end);
    after = end < 0 ? "" : rest.slice(end + quote.length);
  } else {
    // phpBB 3.2+ leaves a name without spaces unquoted: [quote=Name post_id=123 time=… user_id=…]
    const key = /\s+[a-z_]{1,20}=/iu.exec(rest);
    value = key === null ? rest : rest.slice(0, key.index);
    after = key === null ? "" : rest.slice(key.index);
  }
  const attrs = keyValues(after);
  const phpbbPost = attrs.get("post_id");
  if (phpbbPost !== undefined)
    return {
      author: value.trim(),
      label: /^\d+$/u.test(phpbbPost) ? `p${phpbbPost}` : null,
      time: unixTime(attrs.get("time")),
    };
  const discourse = /^(.*?),\s*post:\s*(\d+)\s*,\s*topic:\s*\d+/u.exec(value);
  if (discourse !== null) return { author: discourse[1]!.trim(), label: `#${discourse[2]!}`, time: "" };
  const xenforo = /^(.*?),\s*post:\s*(\d+)/u.exec(value);
  if (xenforo !== null) return { author: xenforo[1]!.trim(), label: `post-${xenforo[2]!}`, time: "" };
  const vbulletin = /^(.*);\s*(\d+)$/u.exec(value);
  if (vbulletin !== null) return { author: vbulletin[1]!.trim(), label: `post${vbulletin[2]!}`, time: "" };
  return { author: value.trim(), label: null, time: "" };
}

/** `key=value` and `key="value"` pairs (keys lower-cased). */
function keyValues(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of text.matchAll(/([a-z_]+)=(?:"([^"]*)"|'([^']*)'|(\S*))/giu))
    found.set(m[1]!.toLowerCase(), m[2] ?? m[3] ?? m[4] ?? "");
  return found;
}

function unquote(value: string): string {
  const v = value.trim();
  return /^(["']).*\1$/u.test(v) ? v.slice(1, -1) : v;
}

/** A Unix time in seconds as an ISO time, "" when there is none. */
function unixTime(value: string | undefined): string {
  if (value === undefined || !/^\d{1,12}$/u.test(value)) return "";
  return new Date(Number(value) * 1000).toISOString();
}
