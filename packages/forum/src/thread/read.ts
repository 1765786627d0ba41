import { htmlToBBCode, looksLikeHtml } from "../html.ts";
import type { ThreadPost } from "../votecount.ts";
import { readBBCodePosts } from "./bbcode-posts.ts";
import { parseHtml } from "./dom.ts";
import { ENGINE_READERS, readWith } from "./engines.ts";
import { type GenericConfidence, readGeneric } from "./generic.ts";
import { readPlainText } from "./text.ts";

export type ThreadSourceKind = "html" | "bbcode" | "text";
/** The readers' engines. punBB's covers FluxBB and punBB's hosted descendants (mybb.ru, rusff, forum2x2's punBB skin). */
export type ForumEngine =
  | "phpbb"
  | "invision"
  | "xenforo"
  | "vbulletin"
  | "smf"
  | "discourse"
  | "punbb"
  | "mybb"
  | "ucoz"
  | "generic";

/** A post found in a pasted thread: ThreadPost's author, time and body (BBCode, quotes as [quote]…[/quote]). */
export interface FoundPost extends ThreadPost {
  /** The post's number or anchor as the forum shows it ("#12", "p4512"), or null. */
  readonly label: string | null;
}

export interface ThreadReading {
  readonly kind: ThreadSourceKind;
  /** The engine whose markup was recognised (html only; null for bbcode and text). */
  readonly engine: ForumEngine | null;
  readonly posts: readonly FoundPost[];
  /**
   * Issue 30: when the generic reader read the page (engine "generic"), how sure it is of the posts and
   * why, so that a page it could not read says so instead of a silent "0 posts".
   */
  readonly generic?: { readonly confidence: GenericConfidence; readonly why: string };
}

/**
 * What a GM copied: the clipboard's text/html when there is one (or a saved page), else its plain text.
 * HTML is read by the engine reader its markup matches, else the generic reader (and when neither finds a
 * post, the BBCode posts in the text, or in the HTML's text, are read); plain text that holds BBCode posts
 * is read as BBCode; anything else is kind "text". Throws an Error with a one-line English
 * message naming what is wrong when nothing usable is given (both empty).
 */
export function readThread(source: { readonly html?: string; readonly text?: string }): ThreadReading {
  const html = source.html ?? "";
  const text = source.text ?? "";
  if (html.trim() === "" && text.trim() === "")
    throw new Error("nothing to read: both the HTML and the text of the thread are empty");
  if (html.trim() !== "") {
    const reading = readHtml(html);
    if (reading.posts.length > 0) return reading;
    // No posts in the markup: BBCode copied from a page or an editor comes as HTML too.
    const quoted = readBBCodePosts(text.trim() !== "" ? text : htmlToBBCode(html));
    return quoted.length > 0 ? { kind: "bbcode", engine: null, posts: quoted } : reading;
  }
  if (looksLikeHtml(text) && /<(?:html|body|div|article|li|table|p|span|blockquote)[\s>]/iu.test(text))
    return readHtml(text);
  const bbcode = readBBCodePosts(text);
  if (bbcode.length > 0) return { kind: "bbcode", engine: null, posts: bbcode };
  return { kind: "text", engine: null, posts: readPlainText(text) };
}

/** HTML: the engine reader that finds the most posts, else the generic one. */
function readHtml(html: string): ThreadReading {
  const root = parseHtml(html);
  let best: ThreadReading | null = null;
  for (const reader of ENGINE_READERS) {
    const posts = readWith(reader, root);
    if (posts.length > 0 && (best === null || posts.length > best.posts.length))
      best = { kind: "html", engine: reader.engine, posts };
  }
  if (best !== null) return best;
  const { posts, confidence, why } = readGeneric(root);
  return { kind: "html", engine: "generic", posts, generic: { confidence, why } };
}
