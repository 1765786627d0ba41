import { ReplayError, replayMatch, resultsPost } from "@forum-mafia/engine";
import {
  countVotes,
  NameResolver,
  parseRoster,
  readThread,
  runVoteCount,
  voteCountJson,
  voteCountPost,
  type ThreadReading,
} from "@forum-mafia/forum";
import type { PasteFound, PastedVote, VoteCountResult } from "@forum-mafia/protocol";
import type { MessagePort } from "node:worker_threads";
import type { Paste, ResultsToolBody, VoteCountToolBody } from "./tools.ts";

/**
 * A day's thread as the GM copied it, counted (issue 18): for the tools page's pasted thread and the
 * notebook's day. `roster` is PLAYERS.txt (`Ник` or `Ник | alias | alias` a line); `earlyFromDay` is the
 * game's S3 threshold for `досрочно` (V7), the standard table's when not given.
 */
export interface CountPasteBody {
  readonly paste: Paste;
  readonly roster: string;
  readonly gm: string | null;
  readonly day: number | null;
  readonly silenced: readonly string[];
  readonly earlyFromDay?: number;
  /** The language of the ignored votes' reasons. */
  readonly lang: "ru" | "en";
}

/** What a pasted thread holds and its count: the counter's fields, what was found, and every vote cast. */
export interface CountPasteAnswer extends VoteCountResult {
  readonly found: PasteFound;
  readonly cast: readonly PastedVote[];
}

/** POST /api/tools/thread: a pasted thread read, and its authors marked against the players (if any). */
export interface ReadPasteBody {
  readonly paste: Paste;
  readonly roster: string | null;
}

/**
 * The GM tools' work (issue 11): counting a thread's votes and replaying a game take seconds on a large
 * input, so tools.ts runs them here, in a worker thread of its pool, and the event loop keeps answering.
 * The bodies arrive validated; errors cannot cross threads as class instances, so a refusal comes back
 * as a value. Anything else thrown is a broken invariant and reaches the server as an internal error.
 */
export type ToolTask =
  | { readonly tool: "votecount"; readonly body: VoteCountToolBody; readonly started: MessagePort }
  | { readonly tool: "results"; readonly body: ResultsToolBody; readonly started: MessagePort }
  | { readonly tool: "countPaste"; readonly body: CountPasteBody; readonly started: MessagePort }
  | { readonly tool: "readPaste"; readonly body: ReadPasteBody; readonly started: MessagePort };

/** The answer, or why the input was refused: the message names the line, post, player or field. */
export type ToolOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly clause?: string };

/** A clause id at the end of a replay message, e.g. "… two nights in a row (T4)". */
const CLAUSE_AT_END = /\(([A-Z]\d+[a-z]?)\)$/;

function voteCount(b: VoteCountToolBody): ToolOutcome {
  return refusing(() =>
    runVoteCount({
      roster: b.players,
      rosterName: "(players)",
      gm: b.gm ?? null,
      day: b.day ?? null,
      silenced: b.silenced,
      thread: b.thread,
      threadName: "thread",
      // The app's GMs read why a vote does not count: in Russian, as the count post is.
      lang: "ru",
    }),
  );
}

/** What the reader found, each author marked with the player they are (or null). */
function foundIn(reading: ThreadReading, resolver: NameResolver | null): PasteFound {
  const authors = new Map<string, number>();
  for (const post of reading.posts) authors.set(post.author, (authors.get(post.author) ?? 0) + 1);
  return {
    kind: reading.kind,
    engine: reading.engine,
    posts: reading.posts.length,
    authors: [...authors].map(([name, posts]) => ({ name, posts, player: resolver?.author(name) ?? null })),
    first: reading.posts[0]?.label ?? null,
    last: reading.posts.at(-1)?.label ?? null,
    labels: reading.posts.map((p) => p.label),
  };
}

/** The refusals of the reader and the counter are their input's faults, each message naming what. */
function refusing(work: () => unknown): ToolOutcome {
  try {
    return { ok: true, value: work() };
  } catch (e) {
    if (e instanceof Error) return { ok: false, message: e.message };
    throw e;
  }
}

/** Count a pasted thread: the roster first (an empty one is refused before the thread is read). */
export function countPaste(b: CountPasteBody): CountPasteAnswer {
  const players = parseRoster(b.roster);
  if (players.length === 0) throw new Error("the player list (players) is empty");
  const reading = readThread(b.paste);
  const count = countVotes(reading.posts, {
    players,
    gm: b.gm,
    day: b.day,
    silenced: b.silenced,
    lang: b.lang,
    ...(b.earlyFromDay !== undefined ? { earlyFromDay: b.earlyFromDay } : {}),
  });
  const json = voteCountJson(count, voteCountPost(count, b.day)) as VoteCountResult;
  return {
    votes: json.votes,
    notVoted: json.notVoted,
    ignored: json.ignored,
    count: json.count,
    found: foundIn(reading, new NameResolver(players)),
    cast: count.cast.map((v) => ({
      by: v.by,
      color: v.color,
      target: v.target,
      early: v.early,
      post: v.post,
      label: reading.posts[v.post]?.label ?? null,
    })),
  };
}

/** Read a pasted thread without counting it. */
export function readPaste(b: ReadPasteBody): PasteFound {
  const players = b.roster === null ? [] : parseRoster(b.roster);
  return foundIn(readThread(b.paste), players.length > 0 ? new NameResolver(players) : null);
}

function results(b: ResultsToolBody): ToolOutcome {
  let post: string | null;
  try {
    post = resultsPost(replayMatch(b.replay), b.lang);
  } catch (e) {
    if (!(e instanceof ReplayError)) throw e;
    const message = e.message.replace(/\s+/g, " ");
    const clause = CLAUSE_AT_END.exec(message)?.[1];
    return { ok: false, message: `replay: ${message}`, ...(clause ? { clause } : {}) };
  }
  if (post === null) return { ok: false, message: "replay: no finished phase to report (REPLAY.md)" };
  return { ok: true, value: { post } };
}

/** The pool's entry point: says it has started (the time budget counts from here), then does the work. */
export default function runTool(task: ToolTask): ToolOutcome {
  task.started.postMessage(null);
  task.started.close();
  switch (task.tool) {
    case "votecount":
      return voteCount(task.body);
    case "results":
      return results(task.body);
    case "countPaste": {
      const body = task.body;
      return refusing(() => countPaste(body));
    }
    case "readPaste": {
      const body = task.body;
      return refusing(() => readPaste(body));
    }
    default: {
      const never: never = task;
      throw new Error(`unknown tool ${JSON.stringify(never)}`);
    }
  }
}
