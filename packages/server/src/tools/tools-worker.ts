import { ReplayError, replayMatch, resultsPost } from "@forum-mafia/engine";
import {
  checkMessage,
  countVotes,
  decodePage,
  looksLikeHtml,
  NameResolver,
  parseRoster,
  readThread,
  runVoteCount,
  voteCountJson,
  voteCountPost,
  type ThreadReading,
} from "@forum-mafia/forum";
import {
  notebookThreadSchema,
  type PasteFound,
  type PastedVote,
  type VoteCountResult,
} from "@forum-mafia/protocol";
import type { MessagePort } from "node:worker_threads";
import {
  notebookThread,
  type NotebookThreadAnswer,
  type NotebookThreadBody,
} from "../notebooks/notebook-paste.ts";
import {
  readBody,
  resultsToolSchema,
  threadToolSchema,
  tooDeep,
  voteCountToolSchema,
  type Paste,
  type ResultsToolBody,
  type VoteCountToolBody,
} from "./tools-body.ts";

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
 * The notebook a pasted thread is for: its stored document and the language of its texts. Issue 28, item 1:
 * the worker rebuilds the document, counts the paste for its day and applies the votes to it (notebook.ts
 * `notebookThread`), so the event loop gets back a small document, never the paste's thousands of votes.
 */
export type PasteDay = Omit<NotebookThreadBody, "paste">;

/**
 * The GM tools' work (issue 11): counting a thread's votes and replaying a game take seconds on a large
 * input, so tools.ts runs them here, in a worker thread of its pool, and the event loop keeps answering.
 * Issue 28: the body arrives as the bytes the client sent (`body`, null for none), and is decoded, parsed
 * and checked here too (tools-body.ts); a tool's answer goes back as its JSON text, ready to send. The
 * notebook's pasted thread (`notebookThread`) is checked, then applied to the document (notebook.ts
 * notebookThread), which comes back as a NotebookThreadAnswer; or only checked, when the notebook is not in
 * a day (the route's refusal then comes after the body's own, as before). Errors cannot cross
 * threads as class instances, so a refusal comes back as a value. Anything else thrown is a broken
 * invariant and reaches the server as an internal error.
 */
export type ToolTask =
  | {
      readonly tool: "votecount" | "thread" | "results";
      readonly body: Uint8Array | null;
      readonly started: MessagePort;
    }
  | {
      readonly tool: "notebookThread";
      readonly body: Uint8Array | null;
      /** The notebook the paste is for; null: it is not in a day, so the body is only checked. */
      readonly day: PasteDay | null;
      readonly started: MessagePort;
    };

/**
 * The answer (a tool's as JSON text; the notebook's paste as its NotebookThreadAnswer, or null when only
 * checked), or why the input was refused: the code (`invalid` by default) and a message that names the line,
 * post, player or field.
 */
export type ToolOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code?: string; readonly message: string; readonly clause?: string };

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
    flags: flagsIn(reading),
  };
}

/**
 * G5 (issue 31): each post read checked by forum's checkMessage, here in the worker (a 5 MiB paste takes
 * seconds to check): the posts it flags, each word once, in the order written.
 */
function flagsIn(reading: ThreadReading): PasteFound["flags"] {
  return reading.posts.flatMap((p, post) => {
    const check = checkMessage(p.body);
    if (check.flag === null) return [];
    const words = [...new Set(check.spans.map((s) => s.word))];
    return [{ post, label: p.label, author: p.author, kind: check.flag, words }];
  });
}

/** The refusals of the reader and the counter are their input's faults, each message naming what. */
function refusing(work: () => unknown): ToolOutcome {
  try {
    return { ok: true, value: work() };
  } catch (e) {
    if (e instanceof RangeError && /call stack/.test(e.message)) return tooDeep;
    if (e instanceof Error) return { ok: false, message: e.message };
    throw e;
  }
}

/**
 * What the reader reads of a paste. Issue 30: a file (`file`, base64) is decoded from its bytes by their BOM,
 * meta or a detector (decodePage, as `npm run votecount` reads a file), then read as HTML when it looks like
 * HTML and as text (BBCode) otherwise, as the command does; `html` and `text` are already text.
 */
export function pasteText(paste: Paste): { readonly html?: string; readonly text?: string } {
  if (paste.file === undefined) return paste;
  const { text } = decodePage(Buffer.from(paste.file, "base64"));
  return looksLikeHtml(text) ? { html: text } : { text };
}

/** Count a pasted thread: the roster first (an empty one is refused before the thread is read). */
export function countPaste(b: CountPasteBody): CountPasteAnswer {
  const players = parseRoster(b.roster);
  if (players.length === 0) throw new Error("the player list (players) is empty");
  const reading = readThread(pasteText(b.paste));
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
  return foundIn(readThread(pasteText(b.paste)), players.length > 0 ? new NameResolver(players) : null);
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

/** A tool's answer as the JSON text the route sends: serialised here, not on the event loop. */
function asJson(outcome: ToolOutcome): ToolOutcome {
  return outcome.ok ? { ok: true, value: JSON.stringify(outcome.value) } : outcome;
}

function votecountTool(bytes: Uint8Array | null): ToolOutcome {
  const read = readBody(bytes, voteCountToolSchema);
  if (!read.ok) return read;
  const body = read.value;
  // A pasted thread (issue 18) is read and counted by the notebook's task; its answer adds what was found.
  if (!body.paste) return voteCount(body);
  const paste = body.paste;
  return refusing(() =>
    countPaste({
      paste,
      roster: body.players,
      gm: body.gm ?? null,
      day: body.day ?? null,
      silenced: body.silenced,
      lang: "ru",
    }),
  );
}

function threadTool(bytes: Uint8Array | null): ToolOutcome {
  const read = readBody(bytes, threadToolSchema);
  if (!read.ok) return read;
  const body = read.value;
  return refusing(() => readPaste({ paste: body.paste, roster: body.players ?? null }));
}

function resultsTool(bytes: Uint8Array | null): ToolOutcome {
  const read = readBody(bytes, resultsToolSchema);
  return read.ok ? results(read.value) : read;
}

/** A paste that holds nothing: refused by the notebook once it is known to be in a day. */
const EMPTY_PASTE = "html: paste the thread (its HTML, or its BBCode or text as `text`)";
const FILE_AND_PASTE =
  "file: give the thread either as a file (file) or as copied from the forum (html, text), not both";
const EMPTY_FILE = "file: empty: choose the saved page of the thread";

/**
 * The notebook's day pasted (POST /api/notebooks/:id/thread): the body checked, then applied to the
 * document. The refusals come in the order the route gave them when it checked the body on the event loop:
 * the body's, then the phase's (tools.ts notebookPaste: `day` null), then an empty paste's.
 */
function notebookPaste(bytes: Uint8Array | null, day: PasteDay | null): NotebookThreadAnswer | null {
  const read = readBody(bytes, notebookThreadSchema);
  if (!read.ok) return { ok: false, status: 400, code: read.code, message: read.message };
  const { file } = read.value;
  // Issue 30: a file comes alone, as the tools' paste (tools-body.ts pasteSchema), and holds something: faults
  // of the body, refused before the phase's. Its bytes are decoded when the paste is read (pasteText).
  if (file !== undefined && (read.value.html !== undefined || read.value.text !== undefined))
    return { ok: false, status: 400, code: "invalid", message: FILE_AND_PASTE };
  if (file === "") return { ok: false, status: 400, code: "invalid", message: EMPTY_FILE };
  if (day === null) return null;
  if (file !== undefined) return notebookThread({ ...day, paste: { file } }, countPaste);
  const html = read.value.html?.trim() ? read.value.html : undefined;
  const text = read.value.text?.trim() ? read.value.text : undefined;
  if (html === undefined && text === undefined)
    return { ok: false, status: 400, code: "html", message: EMPTY_PASTE };
  const paste = { ...(html !== undefined ? { html } : {}), ...(text !== undefined ? { text } : {}) };
  return notebookThread({ ...day, paste }, countPaste);
}

function work(task: ToolTask): ToolOutcome {
  switch (task.tool) {
    case "votecount":
      return asJson(votecountTool(task.body));
    case "thread":
      return asJson(threadTool(task.body));
    case "results":
      return asJson(resultsTool(task.body));
    case "notebookThread":
      return { ok: true, value: notebookPaste(task.body, task.day) };
    default: {
      const never: never = task;
      throw new Error(`unknown tool ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The pool's entry point: says it has started (the time budget counts from here), then does the work. A
 * body nested deeper than the work can follow (a thread of arrays within arrays, a replay likewise) runs
 * out of stack somewhere in it: that is the input's fault, refused as such.
 */
export default function runTool(task: ToolTask): ToolOutcome {
  task.started.postMessage(null);
  task.started.close();
  try {
    return work(task);
  } catch (e) {
    if (e instanceof RangeError && /call stack/.test(e.message)) return tooDeep;
    throw e;
  }
}
