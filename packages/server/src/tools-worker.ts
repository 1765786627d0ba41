import { ReplayError, replayMatch, resultsPost } from "@forum-mafia/engine";
import { runVoteCount } from "@forum-mafia/forum";
import type { MessagePort } from "node:worker_threads";
import type { ResultsToolBody, VoteCountToolBody } from "./tools.ts";

/**
 * The GM tools' work (issue 11): counting a thread's votes and replaying a game take seconds on a large
 * input, so tools.ts runs them here, in a worker thread of its pool, and the event loop keeps answering.
 * The bodies arrive validated; errors cannot cross threads as class instances, so a refusal comes back
 * as a value. Anything else thrown is a broken invariant and reaches the server as an internal error.
 */
export type ToolTask =
  | { readonly tool: "votecount"; readonly body: VoteCountToolBody; readonly started: MessagePort }
  | { readonly tool: "results"; readonly body: ResultsToolBody; readonly started: MessagePort };

/** The answer, or why the input was refused: the message names the line, post, player or field. */
export type ToolOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly clause?: string };

/** A clause id at the end of a replay message, e.g. "… two nights in a row (T4)". */
const CLAUSE_AT_END = /\(([A-Z]\d+[a-z]?)\)$/;

function voteCount(b: VoteCountToolBody): ToolOutcome {
  try {
    const value = runVoteCount({
      roster: b.players,
      rosterName: "(players)",
      gm: b.gm ?? null,
      day: b.day ?? null,
      silenced: b.silenced,
      thread: b.thread,
      threadName: "thread",
      // The app's GMs read why a vote does not count: in Russian, as the count post is.
      lang: "ru",
    });
    return { ok: true, value };
  } catch (e) {
    // The counter's refusals are its input's faults; each message names the line, post or player.
    if (e instanceof Error) return { ok: false, message: e.message };
    throw e;
  }
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
    default: {
      const never: never = task;
      throw new Error(`unknown tool ${JSON.stringify(never)}`);
    }
  }
}
