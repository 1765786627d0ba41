import {
  endNight,
  explainNight,
  isRejection,
  nightAnnouncement,
  privateResults,
  type Lang,
  type NightOutcome,
  type Rejection,
} from "@forum-mafia/engine";
import type { NightDraft } from "@forum-mafia/protocol";
import type { Room } from "./room.ts";

/** The night as it would resolve now, with the GM's answers and fixed rolls; or why it cannot yet. */
function resolveDraft(
  room: Room,
): { outcome: NightOutcome; players: Parameters<typeof explainNight>[1] } | Rejection {
  const m = room.match!;
  const r = endNight(m, {
    rolls: room.fixedRolls,
    council: room.council ?? (room.settings.mode === "automatic" ? "rejected" : null),
  });
  if (isRejection(r)) return r;
  const last = r.outcomes[r.outcomes.length - 1]!;
  return { outcome: last.outcome as NightOutcome, players: last.players };
}

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

/**
 * The GM's draft of the night (review mode): the public results, the private ones and the reason for each
 * outcome, exactly as publishing now would give them. Unseeded rolls are drawn from the game's seed, so the
 * draft and the published results agree.
 */
export function nightDraft(room: Room, lang: Lang): NightDraft {
  const d = resolveDraft(room);
  const questions = councilQuestions(room);
  const base = {
    phase: room.match!.state.phase,
    councilQuestion: questions[questions.length - 1] ?? null,
    councilAnswer: room.council,
    fixedRolls: room.fixedRolls,
  };
  if (isRejection(d))
    return {
      ...base,
      publicLines: [],
      privateLines: [],
      explanation: [],
      blocked: d.message,
      blockedCode: d.code,
    };
  const names = d.players;
  const pub = nightAnnouncement(d.outcome, names, lang);
  return {
    ...base,
    publicLines: [pub.title, ...pub.lines],
    privateLines: privateResults(d.outcome, names, lang).map(
      (p) => `${p.recipients.map((s) => names[s]!.name).join(", ")}: ${p.text}`,
    ),
    explanation: explainNight(d.outcome, names, lang),
    blocked: null,
    blockedCode: null,
  };
}
