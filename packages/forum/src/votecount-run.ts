import { looksLikeHtml } from "./html.ts";
import { parseRoster } from "./names.ts";
import { readThread, type ThreadReading } from "./thread/read.ts";
import { countVotes, type ReasonLang, voteCountJson, voteCountPost, type ThreadPost } from "./votecount.ts";

/** What one vote count needs, as the CLI's flags or the web tool's form give it. */
export interface VoteCountRun {
  /** PLAYERS.txt: one player a line, `Ник` or `Ник | alias | alias`. */
  readonly roster: string;
  /** What names the roster in messages ("the player list PLAYERS.txt"). */
  readonly rosterName: string;
  readonly gm: string | null;
  readonly day: number | null;
  readonly silenced: readonly string[];
  /** THREAD.json, already parsed from JSON. */
  readonly thread: unknown;
  /** What names the thread in messages (its path, or "thread"). */
  readonly threadName: string;
  /** The language of the ignored votes' reasons (English when not given, as the CLI prints them). */
  readonly lang?: ReasonLang;
  /** S3's threshold for `досрочно` (V7); the standard table's when not given. */
  readonly earlyFromDay?: number;
}

/**
 * The posts of THREAD.json: an array of `{author, time, body}` (the posts readThread finds are such an array). A missing time is "" (it only labels a
 * post); anything else wrong is an Error naming the post.
 */
export function threadPosts(data: unknown, name: string): ThreadPost[] {
  if (!Array.isArray(data)) throw new Error(`${name} must hold an array of posts`);
  return data.map((item: unknown, index): ThreadPost => {
    if (typeof item !== "object" || item === null)
      throw new Error(`post ${index} in ${name} is not an object`);
    const { author, time, body } = item as Record<string, unknown>;
    if (typeof author !== "string" || typeof body !== "string")
      throw new Error(`post ${index} in ${name} needs a string "author" and "body"`);
    return { author, time: typeof time === "string" ? time : "", body };
  });
}

/** A JSON array of posts rather than a thread's BBCode: `[` then `{`, `"`, `]` or a digit, or a `{`. */
const JSON_START = /^\s*(?:\[\s*[{"\]\d-]|\{)/u;

/**
 * A thread file as the CLI reads it (issue 18): THREAD.json (an array of posts) when it starts as JSON,
 * else a page or a copied fragment in HTML, else the BBCode of quoted posts. Bad input (malformed JSON,
 * nothing to read, no posts found) is an Error naming the file.
 */
export function threadFromFile(
  text: string,
  name: string,
): { readonly posts: unknown; readonly reading: ThreadReading | null } {
  if (JSON_START.test(text)) {
    try {
      return { posts: JSON.parse(text) as unknown, reading: null };
    } catch {
      throw new Error(`${name} is not valid JSON`);
    }
  }
  if (text.trim() === "") throw new Error(`${name} is empty`);
  const reading = looksLikeHtml(text) ? readThread({ html: text }) : readThread({ text });
  if (reading.posts.length === 0)
    throw new Error(
      reading.kind === "text"
        ? `${name} holds no posts: give the page saved as HTML, the HTML copied from it, or the posts quoted in BBCode (plain text has no colours)`
        : `${name} holds no posts that could be read`,
    );
  return { posts: reading.posts, reading };
}

/**
 * The vote counter (issue 6) from its inputs to the JSON it prints: `{votes, notVoted, ignored, count}`.
 * Bad input throws an Error whose message names what is wrong.
 */
export function runVoteCount(run: VoteCountRun): unknown {
  const players = parseRoster(run.roster);
  if (players.length === 0) throw new Error(`the player list ${run.rosterName} is empty`);
  const posts = threadPosts(run.thread, run.threadName);
  const count = countVotes(posts, {
    players,
    gm: run.gm,
    day: run.day,
    silenced: run.silenced,
    ...(run.lang ? { lang: run.lang } : {}),
    ...(run.earlyFromDay !== undefined ? { earlyFromDay: run.earlyFromDay } : {}),
  });
  return voteCountJson(count, voteCountPost(count, run.day));
}
