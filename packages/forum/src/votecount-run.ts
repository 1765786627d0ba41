import { parseRoster } from "./names.ts";
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
}

/**
 * The posts of THREAD.json: an array of `{author, time, body}`. A missing time is "" (it only labels a
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
  });
  return voteCountJson(count, voteCountPost(count, run.day));
}
