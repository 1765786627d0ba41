import {
  act,
  endDay,
  endNight,
  isRejection,
  modkill,
  replace,
  startMatch,
  vote,
  type CouncilAnswer,
  type Lang,
  type Match,
  type NightAction,
  type Rejection,
  type RollName,
  type Vote,
} from "@forum-mafia/engine";
import { nickKey } from "@forum-mafia/forum";
import type { ReviewedNight } from "../game/draft.ts";
import { badRequest, conflict, refused } from "../http/errors.ts";
import {
  emptyPhase,
  withCurrent,
  type DocCorrection,
  type DocInput,
  type DocPhase,
  type NotebookDoc,
} from "./notebook-doc.ts";
import { actionText, voteText } from "./notebook-texts.ts";

/**
 * Issue 18: the notebook of an off-site game. The GM's forum keeps the game; the notebook keeps its inputs
 * (the deal, each night's actions as the GM received them, each day's votes read from the pasted thread or
 * entered by hand, the GM's decisions and corrections with their reasons) as one JSON document. Nothing is
 * kept that the engine can work out: every read and every change rebuilds the Match by replaying the
 * document through the engine (startMatch, act/vote/replace/modkill, endNight/endDay at each closed phase),
 * so the notebook can never disagree with the exported REPLAY.md file. A change is checked by the engine
 * on the rebuilt match; a refusal is a 4xx and the document is not written. This file holds the rebuild and
 * the changes; the document is in notebook-doc.ts, the pasted thread in notebook-paste.ts, the texts in
 * notebook-texts.ts.
 */

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

/** The engine's answer, or its refusal thrown as the ApiError the route answers. */
export const engine = (r: Match | Rejection): Match => {
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
  // Issue 30: the substitute's posts would all be read as the GM's.
  if (doc.gm !== null && nickKey(name) === nickKey(doc.gm))
    throw badRequest("name", `name: «${name}» is the GM's nick (gm), whose posts are never votes`);
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
  // Issue 30: the GM's posts are never a player's, so the GM's nick cannot be a spelling of one.
  const gm = doc.gm === null ? null : nickKey(doc.gm);
  const taken = unique.find((a) => nickKey(a) === gm);
  if (taken !== undefined)
    throw badRequest("aliases", `aliases: «${taken}» is the GM's nick (gm), whose posts are never votes`);
  return { ...doc, aliases: doc.aliases.map((list, i) => (i === seat ? unique : list)) };
}

/**
 * Issue 30: the GM's nick on their forum, trimmed (null or blank: none). The vote counter takes every post
 * of that author for the GM's (`gm` in forum's votecount.ts, matched by nickKey), so it may not be the nick
 * or an alias of any seat (`names`, `aliases` by seat): that player's votes would all be dropped.
 */
export function gmNick(
  gm: string | null,
  names: readonly string[],
  aliases: readonly (readonly string[])[],
): string | null {
  const nick = gm?.trim() ?? "";
  if (nick === "") return null;
  const key = nickKey(nick);
  const seat = names.findIndex((n, i) => [n, ...(aliases[i] ?? [])].some((a) => nickKey(a) === key));
  if (seat >= 0)
    throw badRequest(
      "gm",
      `gm: «${nick}» is the nick of seat ${seat + 1} (${names[seat]!}) or one of its spellings: the GM's posts are never votes, so the GM's nick must be another`,
    );
  return nick;
}

/** Issue 30: the GM's nick set or changed; the next paste reads that author's posts as the GM's. */
export function setGm(doc: NotebookDoc, b: Built, gm: string | null): NotebookDoc {
  const names = b.match.state.players.map((p) => p.name);
  return { ...doc, gm: gmNick(gm, names, doc.aliases) };
}

/** Close the phase in play: the night with the GM's decisions (an unanswered council: 409, M2c), or the day. */
export function close(doc: NotebookDoc, b: Built): NotebookDoc {
  inPlay(b.match);
  const next = closePhase(b.match, doc.current);
  if (isRejection(next)) throw conflict(next.code, next.message, next.clause);
  return { ...doc, closed: [...doc.closed, doc.current], current: emptyPhase() };
}
