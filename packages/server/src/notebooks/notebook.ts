import {
  act,
  endDay,
  endNight,
  isRejection,
  mayVote,
  modkill,
  replace,
  startMatch,
  vote,
  type CouncilAnswer,
  type GameOptions,
  type Lang,
  type Match,
  type NightAction,
  type Phase,
  type Phrase,
  type Player,
  type Rejection,
  type RoleId,
  type RollName,
  type Vote,
} from "@forum-mafia/engine";
import { ACT_NAMES } from "@forum-mafia/protocol/acts";
import { FOUND_LISTED } from "@forum-mafia/protocol";
import type { Dialect, PastedVote, PasteFound, ThreadFound } from "@forum-mafia/protocol";
import type { ReviewedNight } from "../game/draft.ts";
import { ApiError, badRequest, conflict, refused } from "../http/errors.ts";
import type { CountPasteAnswer, CountPasteBody } from "../tools/tools-worker.ts";

/**
 * Issue 18: the notebook of an off-site game. The GM's forum keeps the game; the notebook keeps its inputs
 * (the deal, each night's actions as the GM received them, each day's votes read from the pasted thread or
 * entered by hand, the GM's decisions and corrections with their reasons) as one JSON document. Nothing is
 * kept that the engine can work out: every read and every change rebuilds the Match by replaying the
 * document through the engine (startMatch, act/vote/replace/modkill, endNight/endDay at each closed phase),
 * so the notebook can never disagree with the exported REPLAY.md file. A change is checked by the engine
 * on the rebuilt match; a refusal is a 4xx and the document is not written.
 */

/** One input of a phase, in the order entered. Seats are numbers; names are read from the match. */
export type DocInput =
  | { readonly kind: "act"; readonly seat: number; readonly action: NightAction }
  | {
      readonly kind: "vote";
      readonly seat: number;
      readonly vote: Vote;
      readonly source:
        | { readonly kind: "thread"; readonly post: number; readonly label: string | null }
        | { readonly kind: "gm" };
    }
  | { readonly kind: "modkill"; readonly seat: number; readonly reason: string }
  | { readonly kind: "replace"; readonly seat: number; readonly name: string; readonly reason: string };

/** A phase's inputs and, for a night, the GM's decisions (F2: fixed rolls, the council's answer, M2c). */
export interface DocPhase {
  readonly inputs: readonly DocInput[];
  readonly rolls: Partial<Readonly<Record<RollName, boolean>>>;
  readonly rollsReason: string;
  readonly council: CouncilAnswer | null;
  readonly councilReason: string;
  /** Day: what the last paste found (shown again until the day closes). */
  readonly found: ThreadFound | null;
  /** Day: the thread votes the GM removed, kept out of a later paste of the same day: seat and post. */
  readonly removed: readonly { readonly seat: number; readonly post: number }[];
}

export interface DocCorrection {
  readonly phase: Phase;
  readonly kind: string;
  readonly detail: string;
  readonly reason: string;
}

export interface NotebookDoc {
  readonly format: 1;
  /** The nicks at the deal, in seat order. */
  readonly players: readonly string[];
  /** S3: the role list as the GM gave it. */
  readonly roles: readonly RoleId[];
  /** S1: each seat's role as dealt (from the seed, or by the GM's hand). */
  readonly dealt: readonly RoleId[];
  readonly options: GameOptions;
  /** F1: the seed of a random deal (also the rolls' stream); null for a hand deal. */
  readonly seed: string | null;
  readonly dialect: Dialect;
  readonly aliases: readonly (readonly string[])[];
  readonly closed: readonly DocPhase[];
  readonly current: DocPhase;
  readonly corrections: readonly DocCorrection[];
}

export const emptyPhase = (): DocPhase => ({
  inputs: [],
  rolls: {},
  rollsReason: "",
  council: null,
  councilReason: "",
  found: null,
  removed: [],
});

/** The notebook's document as stored. */
export const writeDoc = (doc: NotebookDoc): string => JSON.stringify(doc);

/** A stored document (written by writeDoc; the store holds nothing else). */
export function readDoc(text: string): NotebookDoc {
  const doc = JSON.parse(text) as NotebookDoc;
  if (doc.format !== 1) throw new Error(`notebook: unknown document format ${String(doc.format)}`);
  const found = doc.current.found as (ThreadFound & { labels?: readonly (string | null)[] }) | null;
  return found === null || found.labels === undefined
    ? doc
    : { ...doc, current: { ...doc.current, found: foundBefore28(found, found.labels) } };
}

/**
 * A paste's findings as documents written before issue 28 keep them (every post's label, every vote that
 * did not count), in today's bounded form. The votes such a paste kept stay as they are: the thread is no
 * longer at hand; pasting it again keeps only each seat's last.
 */
function foundBefore28(
  found: Omit<ThreadFound, "ignored"> & {
    readonly ignored: readonly Omit<ThreadFound["ignored"][number], "label">[];
  },
  labels: readonly (string | null)[],
): ThreadFound {
  let unknown = 0;
  return {
    kind: found.kind,
    engine: found.engine,
    posts: found.posts,
    authors: found.authors.filter((a) => a.seat !== null || unknown++ < FOUND_LISTED),
    authorCount: found.authors.length,
    first: found.first,
    last: found.last,
    ignored: found.ignored
      .slice(-FOUND_LISTED)
      .map((x) => ({ post: x.post, label: labels[x.post] ?? null, text: x.text, reason: x.reason })),
    ignoredCount: found.ignored.length,
    replaced: 0,
  };
}

let rebuilds = 0;

/** How many times a document has been replayed through the engine in this thread (tests: nothing is redone). */
export const rebuildCount = (): number => rebuilds;

/** The match rebuilt from a document: the match now, the match at the start of the phase in play, and the match before each close. */
export interface Built {
  readonly match: Match;
  readonly phaseStart: Match;
  /** For each closed phase, the match right before it closed (its count, its draft). */
  readonly beforeClose: readonly Match[];
}

const engine = (r: Match | Rejection): Match => {
  if (isRejection(r)) throw refused(r);
  return r;
};

/** One input applied to the match by the engine, or the engine's refusal. */
export function applyInput(m: Match, input: DocInput): Match | Rejection {
  switch (input.kind) {
    case "act":
      return act(m, input.seat, input.action);
    case "vote":
      return vote(m, input.seat, input.vote);
    case "modkill":
      return modkill(m, input.seat, input.reason);
    case "replace":
      return replace(m, input.seat, input.name, input.reason);
    default: {
      const never: never = input;
      throw new Error(`notebook: unknown input ${JSON.stringify(never)}`);
    }
  }
}

/** The inputs of a phase played from `start`; the engine's first refusal (with the input's index) if any. */
export function playPhase(
  start: Match,
  inputs: readonly DocInput[],
): Match | { readonly index: number; readonly rejection: Rejection } {
  let m = start;
  for (let i = 0; i < inputs.length; i++) {
    const next = applyInput(m, inputs[i]!);
    if (isRejection(next)) return { index: i, rejection: next };
    m = next;
  }
  return m;
}

const isMatch = (r: Match | { readonly index: number; readonly rejection: Rejection }): r is Match =>
  !("rejection" in r);

/** F2, M2c: a night's decisions as the engine takes them. */
const decisionsOf = (p: DocPhase) => ({
  rolls: p.rolls,
  council: p.council,
  ...(p.rollsReason ? { reason: p.rollsReason } : {}),
  ...(p.councilReason ? { councilReason: p.councilReason } : {}),
});

/** S1: the match at the deal. */
export function dealt(doc: NotebookDoc): Match | Rejection {
  return startMatch({
    players: doc.players.map((name, seat) => ({ name, role: doc.dealt[seat]! })),
    seed: doc.seed,
    options: doc.options,
  });
}

/** Close the phase in play: endNight with the GM's decisions, or endDay. */
export function closePhase(m: Match, p: DocPhase): Match | Rejection {
  return m.state.phase.kind === "night" ? endNight(m, decisionsOf(p)) : endDay(m);
}

/**
 * Replay the whole document through the engine. A stored document always replays (every change was
 * checked before it was written); a refusal here is a broken invariant.
 */
export function rebuild(doc: NotebookDoc): Built {
  rebuilds++;
  let m = dealt(doc);
  if (isRejection(m)) throw new Error(`notebook: the deal does not replay: ${m.message}`);
  const beforeClose: Match[] = [];
  for (const phase of doc.closed) {
    const played = playPhase(m, phase.inputs);
    if (!isMatch(played))
      throw new Error(`notebook: a closed phase does not replay: ${played.rejection.message}`);
    beforeClose.push(played);
    const next = closePhase(played, phase);
    if (isRejection(next)) throw new Error(`notebook: a phase does not close again: ${next.message}`);
    m = next;
  }
  const phaseStart = m;
  const played = playPhase(m, doc.current.inputs);
  if (!isMatch(played))
    throw new Error(`notebook: the phase in play does not replay: ${played.rejection.message}`);
  return { match: played, phaseStart, beforeClose };
}

// ————— changes: each returns the new document, or throws an ApiError and changes nothing —————

/** W1: after the end nothing more is entered. */
function inPlay(m: Match): void {
  if (m.state.winner !== null)
    throw conflict(
      "notebook/ended",
      `the game is over (${m.state.winner} won): nothing more can be entered`,
      "W1",
    );
}

function night(m: Match): void {
  inPlay(m);
  if (m.state.phase.kind !== "night")
    throw conflict("notebook/not-night", "it is day: night actions are entered by night");
}

/** W1, V1: votes and the thread are entered by day, while the game is on (checked before a paste is read). */
export function day(m: Match): void {
  inPlay(m);
  if (m.state.phase.kind !== "day")
    throw conflict("notebook/not-day", "it is night: votes are entered by day");
}

function seatOf(m: Match, seat: number, field = "seat"): void {
  if (seat >= m.state.players.length)
    throw badRequest("invalid", `${field}: the game has seats 0 to ${m.state.players.length - 1}`);
}

const withCurrent = (doc: NotebookDoc, current: DocPhase, corrections = doc.corrections): NotebookDoc => ({
  ...doc,
  current,
  corrections,
});

const correction = (m: Match, kind: string, detail: string, reason: string): DocCorrection => ({
  phase: m.state.phase,
  kind,
  detail,
  reason,
});

/** Whether an act wrote over a slot already filled (the same slot's earlier submission). */
function overwrote(before: Match, after: Match, seat: number): boolean {
  const b = before.night;
  const a = after.night;
  if (b.own[seat] !== null && b.own[seat] !== undefined && a.own[seat] !== b.own[seat]) return true;
  if (b.mafia[seat] !== null && b.mafia[seat] !== undefined && a.mafia[seat] !== b.mafia[seat]) return true;
  return b.pair !== null && a.pair !== b.pair;
}

/**
 * O1, M4: a night action as the GM received it, for the seat that sent it, checked by the engine as a
 * player's is. One that replaces an action already entered in the same slot is a correction (F2): it needs
 * a reason, kept in the log.
 */
export function addAction(
  doc: NotebookDoc,
  b: Built,
  seat: number,
  action: NightAction,
  reason: string | undefined,
  lang: Lang,
): NotebookDoc {
  night(b.match);
  seatOf(b.match, seat);
  const next = engine(act(b.match, seat, action));
  const corrections = [...doc.corrections];
  if (overwrote(b.match, next, seat)) {
    if (!reason)
      throw badRequest(
        "reason",
        "reason: an action is already entered in this slot; replacing it is a correction and needs a reason",
        "F2",
      );
    corrections.push(
      correction(b.match, "action", actionText(b.match.state.players, seat, action, lang), reason),
    );
  }
  const input: DocInput = { kind: "act", seat, action };
  // M2c: a new question to the council waits for a new answer (as in a server game, room.ts).
  const council = action.act === "council" ? { council: null, councilReason: "" } : {};
  return withCurrent(
    doc,
    { ...doc.current, ...council, inputs: [...doc.current.inputs, input] },
    corrections,
  );
}

/** V1–V7: a vote entered by hand (one the parser missed or read wrongly): always a correction. */
export function addVote(
  doc: NotebookDoc,
  b: Built,
  seat: number,
  v: Vote,
  reason: string,
  lang: Lang,
): NotebookDoc {
  day(b.match);
  seatOf(b.match, seat);
  seatOf(b.match, v.target, "vote.target");
  engine(vote(b.match, seat, v));
  const input: DocInput = { kind: "vote", seat, vote: v, source: { kind: "gm" } };
  const detail = voteText(b.match.state.players, seat, v, lang);
  return withCurrent(doc, { ...doc.current, inputs: [...doc.current.inputs, input] }, [
    ...doc.corrections,
    correction(b.match, "vote", detail, reason),
  ]);
}

/** The indices in the document of the inputs the view lists (actions and votes), in order. */
function listed(p: DocPhase): number[] {
  const out: number[] = [];
  p.inputs.forEach((input, i) => {
    if (input.kind === "act" || input.kind === "vote") out.push(i);
  });
  return out;
}

/** F2: remove an entered action or vote of the phase in play (its index in the view's `inputs`), with why. */
export function removeInput(
  doc: NotebookDoc,
  b: Built,
  index: number,
  reason: string,
  lang: Lang,
): NotebookDoc {
  inPlay(b.match);
  const at = listed(doc.current)[index];
  if (at === undefined)
    throw badRequest("invalid", `index: the phase in play has ${listed(doc.current).length} inputs listed`);
  const input = doc.current.inputs[at]!;
  const inputs = doc.current.inputs.filter((_, i) => i !== at);
  const played = playPhase(b.phaseStart, inputs);
  if (!isMatch(played))
    throw conflict(
      played.rejection.code,
      `without it, a later input is refused: ${played.rejection.message}`,
      played.rejection.clause,
    );
  const players = b.match.state.players;
  const detail =
    input.kind === "act"
      ? actionText(players, input.seat, input.action, lang)
      : input.kind === "vote"
        ? voteText(players, input.seat, input.vote, lang)
        : "";
  const removed =
    input.kind === "vote" && input.source.kind === "thread"
      ? [...doc.current.removed, { seat: input.seat, post: input.source.post }]
      : doc.current.removed;
  return withCurrent(doc, { ...doc.current, inputs, removed }, [
    ...doc.corrections,
    correction(b.match, input.kind === "act" ? "removeAction" : "removeVote", detail, reason),
  ]);
}

/**
 * O8, F2: the GM fixes some of tonight's rolls. With a seed the rolls are drawn from it, so fixing one is an
 * override and needs a reason; a hand deal has no seed, and the GM's own dice give every roll (no reason).
 */
export function fixRolls(
  doc: NotebookDoc,
  b: Built,
  rolls: Partial<Record<RollName, boolean | undefined>>,
  reason: string | undefined,
): NotebookDoc {
  night(b.match);
  if (doc.seed !== null && !reason)
    throw badRequest(
      "reason",
      "reason: the rolls are drawn from the seed; fixing one is an override and needs a reason",
      "F2",
    );
  const fixed: Partial<Record<RollName, boolean>> = {};
  for (const [key, value] of Object.entries(rolls) as [RollName, boolean | undefined][])
    if (value !== undefined) fixed[key] = value;
  if (Object.keys(fixed).length === 0)
    throw badRequest("rolls", "rolls: name at least one roll to fix", "F2");
  const detail = Object.entries(fixed)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(", ");
  return withCurrent(
    doc,
    { ...doc.current, rolls: { ...doc.current.rolls, ...fixed }, rollsReason: reason ?? "" },
    [...doc.corrections, correction(b.match, "rolls", detail, reason ?? "")],
  );
}

/** The night under review as draft.ts reads it: the notebook's GM answers the council (no automatic answer). */
export function reviewed(doc: NotebookDoc, m: Match): ReviewedNight {
  return {
    match: m,
    fixedRolls: doc.current.rolls,
    council: doc.current.council,
    councilDecision: () => doc.current.council,
  };
}

/** The council's answer as the corrections log writes it, in the notebook's language. */
const ANSWER: Record<Lang, Record<CouncilAnswer, string>> = {
  ru: { yes: "да", no: "нет", rejected: "вопрос отклонён" },
  en: { yes: "yes", no: "no", rejected: "the question rejected" },
};

/** M2c, F2: the council's answer; one that differs from the rules' answer to a listed question needs a reason. */
export function answerCouncil(
  doc: NotebookDoc,
  b: Built,
  answer: CouncilAnswer,
  reason: string | undefined,
  suggested: "yes" | "no" | null,
  question: string | null,
  lang: Lang,
): NotebookDoc {
  night(b.match);
  if (question === null)
    throw conflict("notebook/no-council", "no council question was entered tonight", "M2c");
  if (suggested !== null && answer !== suggested && !reason)
    throw badRequest(
      "reason",
      `reason: the rules answer "${suggested}" to this council question; a different answer needs a reason`,
      "F2",
    );
  return withCurrent(doc, { ...doc.current, council: answer, councilReason: reason ?? "" }, [
    ...doc.corrections,
    correction(b.match, "council", `${question} — ${ANSWER[lang][answer]}`, reason ?? ""),
  ]);
}

/** F2, G5: a modkill, at the end of the phase in play. */
export function addModkill(doc: NotebookDoc, b: Built, seat: number, reason: string): NotebookDoc {
  inPlay(b.match);
  seatOf(b.match, seat);
  engine(modkill(b.match, seat, reason));
  const input: DocInput = { kind: "modkill", seat, reason };
  return withCurrent(doc, { ...doc.current, inputs: [...doc.current.inputs, input] }, [
    ...doc.corrections,
    correction(b.match, "modkill", b.match.state.players[seat]!.name, reason),
  ]);
}

/** P4: a substitute takes the seat (in the file, from the start of the phase in play). */
export function addReplace(
  doc: NotebookDoc,
  b: Built,
  seat: number,
  name: string,
  reason: string,
): NotebookDoc {
  inPlay(b.match);
  seatOf(b.match, seat);
  const old = b.match.state.players[seat]!.name;
  engine(replace(b.match, seat, name, reason));
  const input: DocInput = { kind: "replace", seat, name, reason };
  // The old nick stays an alias of the seat: its votes earlier in the thread are the seat's (V1, P4).
  const aliases = doc.aliases.map((list, i) => (i === seat ? [old] : list));
  return {
    ...withCurrent(doc, { ...doc.current, inputs: [...doc.current.inputs, input] }, [
      ...doc.corrections,
      correction(b.match, "replace", `${old} → ${name}`, reason),
    ]),
    aliases,
  };
}

/** The vote counter's roster: other spellings of a seat's nick. */
export function setAliases(
  doc: NotebookDoc,
  b: Built,
  seat: number,
  aliases: readonly string[],
): NotebookDoc {
  seatOf(b.match, seat);
  const unique = [...new Set(aliases.map((a) => a.trim()).filter((a) => a !== ""))];
  for (const a of unique)
    if (a.includes("|") || /[\r\n]/.test(a))
      throw badRequest(
        "invalid",
        "aliases: a nick may not hold `|` or a line break (the roster's separators)",
      );
  return { ...doc, aliases: doc.aliases.map((list, i) => (i === seat ? unique : list)) };
}

/** Close the phase in play: the night with the GM's decisions (an unanswered council: 409, M2c), or the day. */
export function close(doc: NotebookDoc, b: Built): NotebookDoc {
  inPlay(b.match);
  const next = closePhase(b.match, doc.current);
  if (isRejection(next)) throw conflict(next.code, next.message, next.clause);
  return { ...doc, closed: [...doc.closed, doc.current], current: emptyPhase() };
}

// ————— the day's thread —————

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

type Ignored = ThreadFound["ignored"][number];

/**
 * Issue 18: the votes read from the day's pasted thread, each checked by the engine's vote (V1–V7); one it
 * refuses is listed as ignored with the refusal. They replace the votes of an earlier paste of this day;
 * the GM's hand votes, removals and other inputs stay, after them. Issue 28: of the accepted votes only
 * each seat's last is kept (`lastVotes`, V1), at its place, so a paste adds at most one vote a seat to the
 * document whatever its size; `found` lists a bounded part of what the thread holds, with the counts.
 */
export function applyThread(doc: NotebookDoc, b: Built, count: PasteCount, lang: Lang): NotebookDoc {
  day(b.match);
  const players = b.match.state.players;
  const byName = new Map(players.map((p, seat) => [p.name, seat]));
  const labelOf = (post: number): string | null => count.found.labels[post] ?? null;
  const kept = doc.current.inputs.filter((i) => !(i.kind === "vote" && i.source.kind === "thread"));
  const ignored: Ignored[] = count.ignored.map((x) => ({
    post: x.post,
    label: labelOf(x.post),
    text: clip(x.text),
    reason: x.reason,
  }));
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
  const authors = count.found.authors.flatMap((a) => {
    const seat = a.player === null ? null : (byName.get(a.player) ?? null);
    if (seat === null && unknown++ >= FOUND_LISTED) return [];
    return [{ name: clip(a.name, 100), posts: a.posts, seat }];
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
        gm: null,
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

// ————— texts and posts —————

/** The act names (ACT_NAMES, shared with the GM console), with the mafia's move and the council's question as the posts word them. */
const ACT_WORDS: Record<Lang, Record<string, string>> = {
  ru: { ...ACT_NAMES.ru, mafia: "ход мафии", council: "вопрос совету" },
  en: { ...ACT_NAMES.en, mafia: "the mafia's action", council: "council question" },
};

const HEAL_FROM: Record<Lang, Record<string, string>> = {
  ru: { mafia: "мафия", maniac: "маньяк", sheriff: "шериф" },
  en: { mafia: "mafia", maniac: "maniac", sheriff: "sheriff" },
};

/** "Вася: проверка — Петя". */
export function actionText(players: readonly Player[], seat: number, a: NightAction, lang: Lang): string {
  const w = ACT_WORDS[lang];
  const name = (s: number): string => players[s]?.name ?? "?";
  const by = name(seat);
  switch (a.act) {
    case "mafia": {
      const parts = [
        ...(a.kill.length ? [`${w.kill} ${a.kill.map(name).join(", ")}`] : []),
        ...(a.intimidate.length ? [`${w.intimidate} ${a.intimidate.map(name).join(", ")}`] : []),
      ];
      return `${by}: ${w.mafia} — ${parts.join("; ")}`;
    }
    case "council":
      return `${by}: ${w.council} «${a.question}»`;
    case "healFrom":
      return `${by}: ${w.healFrom} — ${HEAL_FROM[lang][a.role]}`;
    case "pass":
      return `${by}: ${w.pass}`;
    default:
      return `${by}: ${w[a.act]} — ${name(a.target)}`;
  }
}

const COLOR_WORDS: Record<Lang, { red: string; blue: string; early: string }> = {
  ru: { red: "красным", blue: "синим", early: "досрочно" },
  en: { red: "red", blue: "blue", early: "early" },
};

/** "Вася: красным — Петя". */
export function voteText(players: readonly Player[], seat: number, v: Vote, lang: Lang): string {
  const w = COLOR_WORDS[lang];
  return `${players[seat]?.name ?? "?"}: ${w[v.color]} — ${players[v.target]?.name ?? "?"}${v.early ? ` (${w.early})` : ""}`;
}

/** S1, S3: a hand deal must be the role list as a multiset. */
export function handDealFault(roles: readonly RoleId[], dealtRoles: readonly RoleId[]): ApiError | null {
  const count = (list: readonly RoleId[]): Map<RoleId, number> => {
    const out = new Map<RoleId, number>();
    for (const r of list) out.set(r, (out.get(r) ?? 0) + 1);
    return out;
  };
  const a = count(roles);
  const b = count(dealtRoles);
  const same = dealtRoles.length === roles.length && [...a].every(([r, n]) => b.get(r) === n);
  return same
    ? null
    : badRequest(
        "deal.roles",
        `deal.roles: the hand deal must give out exactly the role list (${roles.length} roles), each role as often as the list has it`,
        "S3",
      );
}
