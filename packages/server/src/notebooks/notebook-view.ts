import {
  announcementBBCode,
  countPost,
  dayAnnouncement,
  eventsSeenBy,
  explainNight,
  foldView,
  gameEventsSince,
  isRejection,
  nightAnnouncement,
  nightMoves,
  privateResults,
  publicVoteCountSections,
  roleName,
  seedCommitment,
  type DayOutcome,
  type Lang,
  type Match,
  type NightOutcome,
  type Player,
} from "@forum-mafia/engine";
import { bbcodeDialect } from "@forum-mafia/forum";
import type {
  Dialect,
  NotebookInput,
  NotebookPosts,
  NotebookSeat,
  NotebookSummary,
  NotebookView,
} from "@forum-mafia/protocol";
import { nightDraft } from "../game/draft.ts";
import { dayTally } from "../views/gm-views.ts";
import { closePhase, reviewed, type Built } from "./notebook.ts";
import type { NotebookDoc } from "./notebook-doc.ts";
import { actionText, voteText } from "./notebook-texts.ts";
import type { Seen } from "../views/seen.ts";
import { actionForm } from "../views/readouts.ts";

/**
 * Issue 18: what the GM reads of a notebook (notebook.ts keeps the document and its changes): the posts of
 * each phase, the night's forms and draft, the day's tally and count, the list's summary. Apart from
 * notebook.ts so the tools' worker, which applies a pasted thread (notebook.ts `notebookThread`), loads
 * the engine and the document alone, not the server's views.
 */

/** "Шериф Вася": a private result's recipient as the GM addresses them. */
const recipient = (p: Player, lang: Lang): string => `${roleName(p.role, lang)} ${p.name}`;

/** A night's posts (A1, A2) from its outcome and the table right after it. */
function nightPosts(
  o: NightOutcome,
  players: readonly Player[],
  dialect: Dialect,
  lang: Lang,
): NotebookPosts {
  const a = nightAnnouncement(o, players, lang);
  return {
    phase: o.phase,
    public: bbcodeDialect(announcementBBCode(a), dialect),
    private: privateResults(o, players, lang).map((p) => ({
      to: [...p.recipients].map((s) => recipient(players[s]!, lang)).sort(),
      text: bbcodeDialect(p.text, dialect),
    })),
    count: null,
    explanation: explainNight(o, players, lang),
  };
}

/** V2, V6, V7: the day's vote count post (the engine's layout, every vote as 1, V4), from the match in play. */
export function countText(m: Match, dialect: Dialect, lang: Lang): string {
  const s = m.state;
  const sections = publicVoteCountSections(
    {
      day: s.phase.number,
      earlyFromDay: s.options.earlyFromDay,
      seats: s.players.map((p, seat) => ({
        name: p.name,
        alive: p.alive,
        cannotVote: s.day.silenced.includes(seat),
      })),
      votes: m.day.order.flatMap((seat) => {
        const v = m.day.votes[seat];
        return v ? [{ seat, color: v.color, target: v.target, early: v.early }] : [];
      }),
    },
    lang,
  );
  const post = countPost(sections, lang);
  return bbcodeDialect(announcementBBCode(post), dialect);
}

function dayPosts(
  o: DayOutcome,
  players: readonly Player[],
  before: Match,
  dialect: Dialect,
  lang: Lang,
): NotebookPosts {
  const a = dayAnnouncement(o, players, lang);
  return {
    phase: o.phase,
    public: bbcodeDialect(announcementBBCode(a), dialect),
    private: [],
    count: countText(before, dialect, lang),
    explanation: [],
  };
}

/** The posts of the match's last finished phase (`before`: the match before it closed). */
function postsOfLast(m: Match, before: Match, dialect: Dialect, lang: Lang): NotebookPosts {
  return postsOf(m.outcomes[m.outcomes.length - 1]!, before, dialect, lang);
}

/** The posts of one finished phase (`before`: the match before it closed, for a day's count). */
function postsOf(
  done: Match["outcomes"][number],
  before: Match,
  dialect: Dialect,
  lang: Lang,
): NotebookPosts {
  return done.outcome.phase.kind === "night"
    ? nightPosts(done.outcome as NightOutcome, done.players, dialect, lang)
    : dayPosts(done.outcome as DayOutcome, done.players, before, dialect, lang);
}

// ————— the views —————

/** O1: each living seat's night form, built as a player's is (actionForm, from the player's own view). */
function nightForms(m: Match): NonNullable<NotebookView["night"]>["forms"] {
  const events = gameEventsSince(m, null).events;
  const roles = m.state.players.map((p) => p.role);
  const roleList = [...roles].sort();
  const publicEvents = eventsSeenBy(events, { kind: "public" }, roles);
  const publicView = foldView(publicEvents, { kind: "public" });
  const moves = nightMoves(m.state, m.night);
  const out: { seat: number; form: NonNullable<ReturnType<typeof actionForm>>; owes: boolean }[] = [];
  m.state.players.forEach((p, seat) => {
    if (!p.alive) return;
    const viewer = { kind: "player", seat } as const;
    const seen = eventsSeenBy(events, viewer, roles);
    const s: Seen = {
      viewer,
      events: seen,
      view: foldView(seen, viewer),
      publicEvents,
      publicView,
      roleList,
    };
    const form = actionForm(s);
    if (form !== null) out.push({ seat, form, owes: moves[seat] === "owes" });
  });
  return out;
}

export function notebookView(
  meta: { readonly id: string; readonly title: string; readonly published: boolean },
  doc: NotebookDoc,
  b: Built,
  lang: Lang,
): NotebookView {
  const m = b.match;
  const players = m.state.players;
  const over = m.state.winner !== null;
  const inputs: NotebookInput[] = [];
  for (const input of doc.current.inputs) {
    if (input.kind === "act")
      inputs.push({
        kind: "action",
        seat: input.seat,
        action: input.action,
        text: actionText(players, input.seat, input.action, lang),
      });
    else if (input.kind === "vote")
      inputs.push({
        kind: "vote",
        seat: input.seat,
        color: input.vote.color,
        target: input.vote.target,
        early: input.vote.early,
        source: input.source,
        text: voteText(players, input.seat, input.vote, lang),
      });
  }
  let nightPart: NotebookView["night"] = null;
  let dayPart: NotebookView["day"] = null;
  if (!over && m.state.phase.kind === "night") {
    const r = reviewed(doc, m);
    const closed = closePhase(m, doc.current);
    nightPart = {
      forms: nightForms(m),
      draft: nightDraft(r, lang),
      posts: isRejection(closed) ? null : postsOfLast(closed, m, doc.dialect, lang),
    };
  } else if (!over) {
    const tally = dayTally(m);
    dayPart =
      tally === null ? null : { tally, count: countText(m, doc.dialect, lang), found: doc.current.found };
  }
  const history = b.beforeClose.map((before, k) => postsOf(m.outcomes[k]!, before, doc.dialect, lang));
  const seats: NotebookSeat[] = players.map((p, seat) => ({
    seat,
    name: p.name,
    role: p.role,
    alive: p.alive,
    aliases: doc.aliases[seat] ?? [],
    voteStrikes: p.voteStrikes,
    nightStrikes: p.nightStrikes,
  }));
  return {
    id: meta.id,
    title: meta.title,
    dialect: doc.dialect,
    gm: doc.gm,
    roles: doc.roles,
    options: doc.options,
    seedHash: doc.seed === null ? null : seedCommitment(doc.seed),
    seed: doc.seed,
    published: meta.published,
    seats,
    phase: m.state.phase,
    winner: m.state.winner,
    inputs,
    night: nightPart,
    day: dayPart,
    history,
    corrections: doc.corrections,
  };
}

export function notebookSummary(
  meta: {
    readonly id: string;
    readonly title: string;
    readonly published: boolean;
    readonly updatedAt: number;
  },
  doc: NotebookDoc,
  b: Built,
): NotebookSummary {
  return {
    id: meta.id,
    title: meta.title,
    players: doc.players.length,
    phase: b.match.state.phase,
    winner: b.match.state.winner,
    published: meta.published,
    updatedAt: meta.updatedAt,
  };
}
