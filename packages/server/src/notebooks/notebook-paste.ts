import {
  isRejection,
  mayVote,
  vote,
  type Lang,
  type Match,
  type Phrase,
  type Rejection,
  type Vote,
} from "@forum-mafia/engine";
import { countVotes, nickKey } from "@forum-mafia/forum";
import { FOUND_LISTED } from "@forum-mafia/protocol";
import type { PastedVote, PasteFound, ThreadFound } from "@forum-mafia/protocol";
import { ApiError, badRequest, conflict } from "../http/errors.ts";
import type { CountPasteAnswer, CountPasteBody } from "../tools/tools-worker.ts";
import { readDoc, withCurrent, writeDoc, type DocInput, type NotebookDoc } from "./notebook-doc.ts";
import { applyInput, day, engine, rebuild, type Built } from "./notebook.ts";

/**
 * Issue 18, issue 28: the day's pasted thread. Its votes are checked by the engine from the rebuilt match
 * (notebook.ts) and written into the document, in the tools' worker (`notebookThread`).
 */

/** The roster the vote counter reads: each living player, `Ник | alias | alias`. */
export function roster(doc: NotebookDoc, m: Match): string {
  return m.state.players
    .flatMap((p, seat) => (p.alive ? [[p.name, ...(doc.aliases[seat] ?? [])].join(" | ")] : []))
    .join("\n");
}

/** V6: the living players who cannot vote today. */
export const silenced = (m: Match): string[] =>
  m.state.players.flatMap((p, seat) => (p.alive && !mayVote(m.state, seat) ? [p.name] : []));

export interface PasteCount {
  readonly found: PasteFound;
  readonly cast: readonly PastedVote[];
  readonly ignored: readonly { readonly post: number; readonly text: string; readonly reason: string }[];
}

/** The tools worker's countPaste answer (tools-worker.ts), as the notebook reads it. */
export function pasteCount(value: unknown): PasteCount {
  const answer = value as CountPasteAnswer;
  return { found: answer.found, cast: answer.cast, ignored: answer.ignored };
}

/** What the engine made of each vote given to `lastVotes`, in the same order. */
export type VoteVerdict = "kept" | "replaced" | Rejection;

/**
 * V1, V7: votes checked by the engine in order from `start` (each accepted or refused as if entered one by
 * one), and of the accepted ones only each seat's last kept: V1 counts only the last vote of the day, so an
 * earlier one can change nothing. Replaying the kept votes alone, in their order, from `start` gives the
 * same day (the same ballots, order of voters and early close; notebook-votes.test.ts checks it against
 * the whole list): every kept vote is accepted again, as each check reads only the state, which does not
 * change by day, the voter's own earlier vote (none, in the kept list) and the early votes cast so far,
 * which are the same in both lists at every point, since an early vote that has effect cannot be changed
 * (V7) and so is always its voter's last. `match` is the match after them.
 */
export function lastVotes(
  start: Match,
  votes: readonly { readonly seat: number; readonly vote: Vote }[],
): { readonly match: Match; readonly verdicts: readonly VoteVerdict[]; readonly replaced: number } {
  const verdicts: VoteVerdict[] = [];
  const lastOf = new Map<number, number>();
  let m = start;
  votes.forEach((v, i) => {
    const next = vote(m, v.seat, v.vote);
    if (isRejection(next)) {
      verdicts.push(next);
      return;
    }
    m = next;
    const before = lastOf.get(v.seat);
    if (before !== undefined) verdicts[before] = "replaced";
    lastOf.set(v.seat, i);
    verdicts.push("kept");
  });
  const replaced = verdicts.filter((v) => v === "replaced").length;
  return { match: m, verdicts, replaced };
}

/**
 * Why the engine refuses a vote read from the thread, in the GM's words (the counter already leaves out
 * the GM's posts, the dead, the silenced, self-votes and votes after an early one); another refusal keeps
 * the engine's message and clause.
 */
const VOTE_REFUSED: Record<Lang, Partial<Record<string, string>>> = {
  ru: {
    "vote/day-closed": "день уже закрыт досрочно: голоса после этого не считаются",
    "vote/silenced": "игрок сегодня лишён возможности голосовать",
    "vote/dead-voter": "игрок уже вне игры",
    "vote/self": "голос за себя не считается",
  },
  en: {
    "vote/day-closed": "the day has already closed early: later votes do not count",
    "vote/silenced": "the player cannot vote today",
    "vote/dead-voter": "the player is out of the game",
    "vote/self": "a vote for oneself does not count",
  },
};

const REMOVED: Phrase<() => string> = {
  ru: () => "голос убран ведущим",
  en: () => "the GM removed this vote",
};
const NOT_A_PLAYER: Phrase<(name: string) => string> = {
  ru: (name) => `«${name}» нет среди живых игроков (V1)`,
  en: (name) => `"${name}" is not a living player (V1)`,
};

/** A text from the thread, cut to a length the view can list (a post may hold a whole paste). */
const clip = (text: string, max = 200): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** G5: the flagged words a post's flag lists at most (the first ones, each once). */
const FLAG_WORDS = 20;

type Ignored = ThreadFound["ignored"][number];

/** A coloured mark as the counter reports it: `[color=…]Name[/color]` (forum's vote-marks.ts). */
const COLOUR_TAG = /\[color=/i;

/**
 * The counter's reason for a post by the GM (forum's votecount.ts), asked of the counter itself with a
 * one-post thread, so the two can never drift apart: the notebook tells the GM's posts by it.
 */
function gmPostReason(gm: string, lang: Lang): string | null {
  const post = { author: gm, time: "", body: "[color=red]x[/color]" };
  const options = { players: [{ name: "x", aliases: [] }], gm, day: null, silenced: [], lang };
  return countVotes([post], options).ignored[0]?.reason ?? null;
}

/**
 * Issue 18: the votes read from the day's pasted thread, each checked by the engine's vote (V1–V7); one it
 * refuses is listed as ignored with the refusal. They replace the votes of an earlier paste of this day;
 * the GM's hand votes, removals and other inputs stay, after them. Issue 28: of the accepted votes only
 * each seat's last is kept (`lastVotes`, V1), at its place, so a paste adds at most one vote a seat to the
 * document whatever its size; `found` lists a bounded part of what the thread holds, with the counts.
 * Issue 30: the counter reads the posts of the GM's nick (`doc.gm`) as the GM's. Of those, only the ones
 * with a coloured nick are listed as not counted (a coloured nick there could look like a vote); a GM post
 * with none (the day's rules, "голосуем красным") is no vote that failed, and is not listed.
 */
export function applyThread(doc: NotebookDoc, b: Built, count: PasteCount, lang: Lang): NotebookDoc {
  day(b.match);
  const players = b.match.state.players;
  const byName = new Map(players.map((p, seat) => [p.name, seat]));
  const labelOf = (post: number): string | null => count.found.labels[post] ?? null;
  const kept = doc.current.inputs.filter((i) => !(i.kind === "vote" && i.source.kind === "thread"));
  const gmReason = doc.gm === null ? null : gmPostReason(doc.gm, lang);
  const ignored: Ignored[] = count.ignored
    .filter((x) => !(x.reason === gmReason && !COLOUR_TAG.test(x.text)))
    .map((x) => ({ post: x.post, label: labelOf(x.post), text: clip(x.text), reason: x.reason }));
  let m = b.phaseStart;
  // Replacements come first in the phase (as the file writes them, P4), so the names read are today's.
  for (const input of kept) if (input.kind === "replace") m = engine(applyInput(m, input));
  const inputs: DocInput[] = kept.filter((i) => i.kind === "replace");
  const text = (c: PastedVote): string => clip(`${c.by}: ${c.color} ${c.target}${c.early ? " (early)" : ""}`);
  const candidates: { seat: number; vote: Vote; cast: PastedVote }[] = [];
  for (const c of count.cast) {
    const seat = byName.get(c.by);
    const target = byName.get(c.target);
    if (seat === undefined || target === undefined) {
      const reason = NOT_A_PLAYER[lang](seat === undefined ? c.by : c.target);
      ignored.push({ post: c.post, label: c.label, text: text(c), reason });
      continue;
    }
    if (doc.current.removed.some((r) => r.seat === seat && r.post === c.post)) {
      ignored.push({ post: c.post, label: c.label, text: text(c), reason: REMOVED[lang]() });
      continue;
    }
    candidates.push({ seat, vote: { color: c.color, target, early: c.early }, cast: c });
  }
  const checked = lastVotes(m, candidates);
  checked.verdicts.forEach((verdict, i) => {
    const { seat, vote: v, cast: c } = candidates[i]!;
    if (verdict === "kept")
      inputs.push({ kind: "vote", seat, vote: v, source: { kind: "thread", post: c.post, label: c.label } });
    else if (verdict !== "replaced")
      ignored.push({
        post: c.post,
        label: c.label,
        text: text(c),
        reason: VOTE_REFUSED[lang][verdict.code] ?? `${verdict.message} (${verdict.clause})`,
      });
  });
  m = checked.match;
  for (const input of kept) {
    if (input.kind === "replace") continue;
    const next = applyInput(m, input);
    if (isRejection(next))
      throw conflict(
        next.code,
        `an input entered by hand is refused after this paste: ${next.message}`,
        next.clause,
      );
    m = next;
    inputs.push(input);
  }
  ignored.sort((x, y) => x.post - y.post);
  let unknown = 0;
  const gmKey = doc.gm === null ? null : nickKey(doc.gm);
  const authors = count.found.authors.flatMap((a) => {
    const seat = a.player === null ? null : (byName.get(a.player) ?? null);
    // Issue 30: the GM's posts are the GM's, as the counter read them: no seat, not an unknown player.
    const gm = seat === null && nickKey(a.name) === gmKey;
    if (seat === null && !gm && unknown++ >= FOUND_LISTED) return [];
    return [{ name: clip(a.name, 100), posts: a.posts, seat, gm }];
  });
  const found: ThreadFound = {
    kind: count.found.kind,
    engine: count.found.engine,
    posts: count.found.posts,
    authors,
    authorCount: count.found.authors.length,
    first: count.found.first === null ? null : clip(count.found.first, 100),
    last: count.found.last === null ? null : clip(count.found.last, 100),
    ignored: ignored.slice(-FOUND_LISTED),
    ignoredCount: ignored.length,
    // G5 (issue 31): the posts the worker's checker flagged (tools-worker.ts flagsIn), bounded as `ignored` is.
    flags: count.found.flags.slice(-FOUND_LISTED).map((f) => ({
      post: f.post,
      label: f.label === null ? null : clip(f.label, 100),
      author: clip(f.author, 100),
      kind: f.kind,
      words: f.words.slice(0, FLAG_WORDS).map((w) => clip(w, 100)),
    })),
    flagCount: count.found.flags.length,
    replaced: checked.replaced,
  };
  return withCurrent(doc, { ...doc.current, inputs, found });
}

/** POST /api/notebooks/:id/thread in the tools' worker: the stored document and the paste. */
export interface NotebookThreadBody {
  /** The document as stored (writeDoc): what the route read, at the version it will write over. */
  readonly doc: string;
  readonly paste: CountPasteBody["paste"];
  readonly lang: Lang;
}

/** The changed document as stored, or the refusal the route answers (an ApiError as a value). */
export type NotebookThreadAnswer =
  | { readonly ok: true; readonly doc: string }
  | {
      readonly ok: false;
      readonly status: number;
      readonly code: string;
      readonly message: string;
      readonly clause?: string;
    };

/** The reader's and the counter's refusals are the paste's faults, each message naming what (400 `invalid`). */
function countOr400(work: () => CountPasteAnswer): CountPasteAnswer {
  try {
    return work();
  } catch (e) {
    if (e instanceof Error && !(e instanceof ApiError)) throw badRequest("invalid", e.message);
    throw e;
  }
}

/**
 * Issue 28: a day's thread applied to the document off the event loop, in the tools' worker: the document
 * rebuilt, the paste read and counted (`count`: tools-worker.ts countPaste, given so this file does not
 * import the worker), each vote checked by the engine, and the document with at most one thread vote a
 * seat written back. The event loop then handles a document of a few kilobytes, whatever the paste.
 */
export function notebookThread(
  body: NotebookThreadBody,
  count: (b: CountPasteBody) => CountPasteAnswer,
): NotebookThreadAnswer {
  const doc = readDoc(body.doc);
  const b = rebuild(doc);
  const m = b.match;
  try {
    day(m);
    const answer = countOr400(() =>
      count({
        paste: body.paste,
        roster: roster(doc, m),
        gm: doc.gm,
        day: m.state.phase.number,
        silenced: silenced(m),
        earlyFromDay: m.state.options.earlyFromDay,
        lang: body.lang,
      }),
    );
    return { ok: true, doc: writeDoc(applyThread(doc, b, pasteCount(answer), body.lang)) };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return {
      ok: false,
      status: e.status,
      code: e.code,
      message: e.message,
      ...(e.clause !== undefined ? { clause: e.clause } : {}),
    };
  }
}
