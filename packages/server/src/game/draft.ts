import {
  councilAnswerFor,
  endNight,
  explainNight,
  isRejection,
  nightAnnouncement,
  privateResults,
  type CouncilAnswer,
  type Lang,
  type Match,
  type Phrase,
  type PrivateResult,
  type NightOutcome,
  type Rejection,
  type RollName,
} from "@forum-mafia/engine";
import type { NightDraft } from "@forum-mafia/protocol";

/**
 * A night under the GM's review: a server game's Room, or an off-site game's notebook (notebook.ts). Its
 * match is in a night; the GM's fixed rolls and council answer so far, and the answer the results give.
 */
export interface ReviewedNight {
  readonly match: Match | null;
  readonly fixedRolls: Partial<Record<RollName, boolean>>;
  readonly council: CouncilAnswer | null;
  councilDecision(): CouncilAnswer | null;
}
type Room = ReviewedNight;

type Resolved = { outcome: NightOutcome; players: Parameters<typeof explainNight>[1] };

/** The night as it would resolve now, with the GM's answers and fixed rolls; or why it cannot yet. */
function resolveDraft(room: Room, council = room.councilDecision()): Resolved | Rejection {
  const m = room.match!;
  const r = endNight(m, { rolls: room.fixedRolls, council });
  if (isRejection(r)) return r;
  const last = r.outcomes[r.outcomes.length - 1]!;
  return { outcome: last.outcome as NightOutcome, players: last.players };
}

/** M2c: the mafia's line while the council's answer is awaited (nothing else in the results depends on it). */
const AWAITING: Phrase<(question: string) => string> = {
  ru: (q) => `вопрос совету «${q}» — ждёт ответа совета`,
  en: (q) => `the council question "${q}" awaits the council's answer`,
};

/** M2c: why the night cannot be published yet (an unanswered council question), or null. */
export function checkDraft(room: Room): string | null {
  const d = resolveDraft(room);
  return isRejection(d) ? d.message : null;
}

/** The council questions sent tonight (the mafia's slots and a thug boss's own slot). */
function councilQuestions(room: Room): string[] {
  const n = room.match!.night;
  const out: string[] = [];
  for (const a of [...n.mafia, ...n.own])
    if (a?.act === "council" && !out.includes(a.question)) out.push(a.question);
  return out;
}

/** M2c: the council question of tonight the GM is asked to answer (the last one sent), or null. */
export function councilQuestion(room: Room): string | null {
  const questions = councilQuestions(room);
  return questions[questions.length - 1] ?? null;
}

/**
 * M2c: the rules' answer to the council question the GM is asked (councilQuestion), read from the night as
 * it stands (before its deaths); null for a question of the mafia's own, or when none was asked.
 */
export function councilSuggestion(room: Room): "yes" | "no" | null {
  const question = councilQuestion(room);
  return question === null ? null : councilAnswerFor(room.match!.state, question);
}

/**
 * The GM's draft of the night (review mode): the public results, the private ones and the reason for each
 * outcome, exactly as publishing now would give them. Unseeded rolls are drawn from the game's seed, so the
 * draft and the published results agree.
 */
export function nightDraft(room: Room, lang: Lang): NightDraft {
  const d = resolveDraft(room);
  const base = {
    phase: room.match!.state.phase,
    councilQuestion: councilQuestion(room),
    councilAnswer: room.council,
    councilSuggested: councilSuggestion(room),
    fixedRolls: room.fixedRolls,
  };
  // M2c: only the mafia's private line depends on the council's answer, so while it is awaited the rest of
  // the draft is shown as it will be (resolved with a provisional answer), and that line says it waits.
  const awaiting = isRejection(d) && d.code === "night/council-unanswered";
  const shown = awaiting ? resolveDraft(room, "rejected") : d;
  if (isRejection(shown))
    return {
      ...base,
      publicLines: [],
      privateLines: [],
      explanation: [],
      blocked: shown.message,
      blockedCode: shown.code,
    };
  const names = shown.players;
  const pub = nightAnnouncement(shown.outcome, names, lang);
  const line = (p: PrivateResult) => `${p.recipients.map((s) => names[s]!.name).join(", ")}: ${p.text}`;
  const council = shown.outcome.council;
  const privateLines =
    awaiting && council
      ? [
          ...privateResults({ ...shown.outcome, council: null }, names, lang).map(line),
          ...privateResults({ ...shown.outcome, check: null }, names, lang).map((p) =>
            line({ recipients: p.recipients, text: AWAITING[lang](council.question) }),
          ),
        ]
      : privateResults(shown.outcome, names, lang).map(line);
  return {
    ...base,
    publicLines: [pub.title, ...pub.lines],
    privateLines,
    explanation: explainNight(shown.outcome, names, lang),
    blocked: isRejection(d) ? d.message : null,
    blockedCode: isRejection(d) ? d.code : null,
  };
}
