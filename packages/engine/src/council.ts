/**
 * M2c: the council questions the engine answers by itself, so an automatic game (no GM) answers the mafia's
 * question instead of rejecting it, and a GM reviewing a night sees the answer the rules give.
 *
 * M2c lets the boss ask one yes/no question, and rejects only a question that names a specific player's
 * role or night action. None of these names a player: each asks about a role (is its holder alive, what
 * did its holder submit last night). The texts are the rules' facts (@forum-mafia/rules); the Russian one
 * is canonical: the mafia's action carries it (`{act: "council", question}`), a replay file holds it, and a
 * question is recognised by it (or by its English text).
 *
 * When the answer is read (M2c, docs/readings.md): the answer goes into the night's private results, so it
 * is worked out when the night is resolved, from the state as the night stands before its own deaths:
 * - "among the living" means alive at the night's start (a player killed or modkilled tonight still
 *   counts as living: the question was asked while they lived, and an answer read after tonight's deaths
 *   would tell the mafia a role the announcement may not tell, R1);
 * - "last night" means the night before this one, whose results are out; a player's move there is what
 *   the player submitted, effective or not, as O1b reads last night (a player is never told of a block,
 *   A2, so neither is the mafia through the council). On night 1 there was no last night: the answer is no.
 */
import {
  COUNCIL_QUESTION_IDS,
  councilQuestionText,
  type CouncilQuestionId,
  type RoleId,
} from "@forum-mafia/rules";
import type { Match } from "./match.ts";
import type { NightAction } from "./night-action.ts";
import { mafiaActionTonight } from "./night.ts";
import { nameKey } from "./player.ts";
import { reject, type Rejection } from "./rejection.ts";
import { isMafia } from "./roles.ts";
import type { GameState } from "./state.ts";

export { COUNCIL_QUESTION_IDS, type CouncilQuestionId } from "@forum-mafia/rules";

export interface CouncilQuestion {
  readonly id: CouncilQuestionId;
  /** The Russian text is the canonical one (the action and the replay file carry it). */
  readonly text: { readonly ru: string; readonly en: string };
  /** The rules' answer, from the state as the night stands before its deaths (see the top of this file). */
  readonly answer: (state: GameState) => boolean;
}

/** Whether the role's holder is alive at the night's start (S3: a role other than citizen is dealt once). */
const alive =
  (role: RoleId) =>
  (state: GameState): boolean =>
    state.players.some((p) => p.alive && p.role === role);

/** O1b: what the role's holder submitted in their own slot last night, or null (no holder, nothing sent). */
function lastOwn(state: GameState, role: RoleId): NightAction | null {
  const seat = state.players.findIndex((p) => p.role === role);
  return seat < 0 ? null : (state.memory.own[seat] ?? null);
}

/** Whether a submission names a member of the mafia (by the target's dealt role). */
const atMafia = (state: GameState, a: NightAction | null): boolean =>
  a !== null && "target" in a && isMafia(state.players[a.target]!.role);

/** One answer per question: the compiler asks for each id of the rules' list. */
const ANSWERS: { readonly [Q in CouncilQuestionId]: (state: GameState) => boolean } = {
  sheriffAlive: alive("sheriff"),
  sergeantAlive: alive("sergeant"),
  doctorAlive: alive("doctor"),
  girlAlive: alive("girl"),
  prosecutorAlive: alive("prosecutor"),
  shahidAlive: alive("shahid"),
  maniacAlive: alive("maniac"),
  // N1: a bloody kill, a quick kill or a torture; a pass, or nothing sent, is no move.
  maniacMoved: (s) => {
    const a = lastOwn(s, "maniac");
    return a !== null && a.act !== "pass";
  },
  // T1: the pair's one action was the sheriff's shot.
  sheriffShot: (s) => s.memory.pair?.act === "shoot",
  // T2: the pair's one action was the sergeant's check, on a mafia member (whatever its result).
  sergeantCheckedMafia: (s) => s.memory.pair?.act === "check" && atMafia(s, s.memory.pair),
  // T3b: a heal (b) of a mafia member.
  doctorHealedMafia: (s) => {
    const a = lastOwn(s, "doctor");
    return a?.act === "heal" && atMafia(s, a);
  },
  // T3c: a heal from the mafia.
  doctorHealedFromMafia: (s) => {
    const a = lastOwn(s, "doctor");
    return a?.act === "healFrom" && a.role === "mafia";
  },
  // T4: a visit to a mafia member.
  girlVisitedMafia: (s) => {
    const a = lastOwn(s, "girl");
    return a?.act === "visit" && atMafia(s, a);
  },
};

/** M2c: the listed questions, in the rules' order. */
export const COUNCIL_QUESTIONS: readonly CouncilQuestion[] = COUNCIL_QUESTION_IDS.map((id) => ({
  id,
  text: { ru: councilQuestionText(id, "ru"), en: councilQuestionText(id, "en") },
  answer: ANSWERS[id],
}));

/** How a question's text is compared: trimmed, spaces collapsed, case and ё folded (as names are, REPLAY.md). */
const questionKey = (text: string): string => nameKey(text.trim().replace(/\s+/g, " "));

const BY_TEXT: ReadonlyMap<string, CouncilQuestion> = new Map(
  COUNCIL_QUESTIONS.flatMap((q) => [
    [questionKey(q.text.ru), q],
    [questionKey(q.text.en), q],
  ]),
);

/** The texts last asked about, as they came, and the question each asks: the same few texts recur all game. */
const RECENT = new Map<string, CouncilQuestion | null>();

/** M2c: the listed question a text asks (its Russian or English text), or null for a question of one's own. */
export function listedQuestion(text: string): CouncilQuestion | null {
  const known = RECENT.get(text);
  if (known !== undefined) return known;
  const q = BY_TEXT.get(questionKey(text)) ?? null;
  if (RECENT.size >= 64) RECENT.clear();
  RECENT.set(text, q);
  return q;
}

/** M2c: the rules' answer to a question, read from the night's state; null for a question not listed. */
export function councilAnswerFor(state: GameState, question: string): "yes" | "no" | null {
  const q = listedQuestion(question);
  if (q === null) return null;
  return q.answer(state) ? "yes" : "no";
}

/**
 * M2c: the rules' answer to the question tonight's resolution will answer (M4 picks the mafia's action),
 * read from the night as it stands; null when the mafia's action is no council question, or asks one that
 * is not listed. Worked out before the resolution, so it reads the night before its deaths.
 */
export function councilAnswerTonight(m: Match): "yes" | "no" | null {
  if (m.state.phase.kind !== "night") return null;
  const a = mafiaActionTonight(m.state, m.night);
  return a !== null && a.act === "council" ? councilAnswerFor(m.state, a.question) : null;
}

/**
 * M2c: in a game without a GM (the server's automatic mode) the council answers only the listed questions,
 * so a question of one's own is refused at submission, rather than rejected when the night is over.
 */
export function checkListedQuestion(question: string): Rejection | null {
  return listedQuestion(question) === null
    ? reject(
        "council/not-listed",
        "M2c",
        "in a game without a GM the council answers only the questions on its list: choose one of them",
      )
    : null;
}
