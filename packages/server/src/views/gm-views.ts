import {
  closeDay,
  explainNight,
  isRejection,
  nightMoves,
  type Lang,
  type Match,
  type NightOutcome,
} from "@forum-mafia/engine";
import type { GameLog, GmDayTally, GmTable } from "@forum-mafia/protocol";
import { councilQuestion, councilSuggestion } from "../game/draft.ts";
import type { Room } from "../log/room.ts";
import { seenBy } from "./seen.ts";

/**
 * The GM's builders: the GM may see the whole table (S2 names nobody the GM may not know), so these read
 * the state. They are called only for the GM (gameDetail's `gm`, the GM's routes) or, for the log, once the
 * game is over and everything is public (R3).
 */

/** The GM's own table (GameDetail.gm). */
export function gmTable(room: Room): GmTable | null {
  const m = room.match;
  if (!m) return null;
  const night = room.status === "running" && m.state.phase.kind === "night";
  const question = night ? councilQuestion(room) : null;
  return {
    strikes: m.state.players.map((p) => ({
      vote: p.voteStrikes,
      night: p.nightStrikes,
      conduct: p.conductStrikes,
    })),
    flags: room.flags.map((f) => ({
      id: f.id,
      where: f.where,
      seat: f.seat,
      author: f.author,
      at: f.at,
      phase: f.phase,
      kind: f.kind,
      text: f.text,
      spans: f.spans,
      earlier: f.earlier,
      measures: f.measures.map((x) => ({ kind: x.kind, reason: x.reason, auto: x.auto, at: x.at })),
    })),
    council:
      question === null ? null : { question, answer: room.council, suggested: councilSuggestion(room) },
    day: room.status === "running" && m.state.phase.kind === "day" ? dayTally(m) : null,
    // O1, M4, M6, T1, P2: the engine's reading, the same that strikes a missing move at the deadline.
    tonight: night ? nightMoves(m.state, m.night) : null,
  };
}

/**
 * V4, V5, P1, P2: the day as the engine would close it now (closeDay is pure: nothing changes), so the GM
 * reads the weighted scores and penalty votes the public count never shows.
 */
export function dayTally(m: Match): GmDayTally | null {
  const r = closeDay(m.state, m.day, m.modkills);
  if (isRejection(r)) return null;
  const { score, notVoted, hanged, excused } = r.outcome;
  const scores: GmDayTally["scores"][number][] = [];
  m.state.players.forEach((p, seat) => {
    if (!p.alive) return;
    // P2: the night's +2 (the engine's day state); P1: +2 for not having voted when the day closes.
    const penalty = (m.state.day.penalty.includes(seat) ? 2 : 0) + (notVoted.includes(seat) ? 2 : 0);
    scores.push({ seat, score: score.get(seat) ?? 0, penalty });
  });
  return { scores, hanged, excused };
}

/** R3: the published log of a finished game: everything, as the GM saw it. */
export function gameLog(room: Room, lang: Lang): GameLog {
  const m = room.match!;
  return {
    seed: room.seed,
    overrides: [...m.overrides],
    moderation: [...room.moderation],
    hiddenPosts: room.posts
      .filter((p) => p.hidden)
      .map((p) => ({ id: p.id, author: p.author, text: p.text, reason: p.hidden!.reason })),
    view: seenBy(room, { kind: "gm" })?.view ?? null,
    events: [...room.events],
    explanations: m.outcomes.flatMap(({ outcome, players }) =>
      outcome.phase.kind === "night"
        ? [{ phase: outcome.phase, lines: explainNight(outcome as NightOutcome, players, lang) }]
        : [],
    ),
  };
}
