import {
  closeDay,
  dayAnnouncement,
  isRejection,
  explainNight,
  ROLE_NAMES,
  TEXTS,
  teamOf,
  nightAnnouncement,
  nightForm,
  ROLE_CARDS,
  viewFor,
  voteCountPost,
  voteCountSections,
  type DayOutcome,
  type GameView,
  type Lang,
  type Match,
  type RoleId,
  type NightOutcome,
  type Viewer as EngineViewer,
} from "@forum-mafia/engine";
import type {
  ActionForm,
  ChannelId,
  ChannelView,
  FeedItem,
  GameDetail,
  GameLog,
  GameSummary,
  GmDayTally,
  GmTable,
  PostView,
  VoteCount,
} from "@forum-mafia/protocol";
import { councilQuestion } from "./draft.ts";
import { channelsOf } from "./games.ts";
import { notices } from "./notices.ts";
import { postView, type FeedEntry, type Room } from "./room.ts";
import type { Viewer } from "./viewer.ts";

/**
 * Everything here is built from what the viewer may see: the engine's view folded from the events the
 * viewer may see (viewFor), the public thread, and the channels the viewer belongs to. Nothing is copied
 * from the full state and then trimmed (STYLE.md, "Secrets").
 */

export function summaryOf(room: Room, userId: string | null): GameSummary {
  return {
    id: room.id,
    title: room.title,
    gm: room.gmNick,
    status: room.status,
    phase: room.status === "running" ? room.phase : null,
    signedUp: room.status === "signup" ? room.signups.length : room.seatUsers.length,
    seats: room.settings.seats,
    winner: room.match?.state.winner ?? null,
    deadline: room.status === "running" ? room.clock().deadline : null,
    mine:
      userId !== null && room.gmId === userId
        ? "gm"
        : userId !== null && room.seatOf(userId) !== null
          ? "player"
          : signupStatus(room, userId),
  };
}

/** R3: when the game is over everyone sees what the GM saw (every role, action and roll). */
function engineViewer(room: Room, viewer: Viewer): EngineViewer {
  return room.status === "ended" ? { kind: "gm" } : viewer;
}

export function gameView(room: Room, viewer: Viewer): GameView | null {
  if (!room.match) return null;
  const roles = room.match.setup.players.map((p) => p.role);
  return viewFor(room.events, engineViewer(room, viewer), roles);
}

export function gameDetail(room: Room, viewer: Viewer, userId: string | null, lang: Lang): GameDetail {
  const view = gameView(room, viewer);
  const started = room.events[0];
  const me: GameDetail["me"] =
    viewer.kind === "gm"
      ? { kind: "gm", seat: null }
      : viewer.kind === "player"
        ? { kind: "player", seat: viewer.seat }
        : { kind: signupStatus(room, userId), seat: null };
  return {
    summary: summaryOf(room, userId),
    settings: room.settings,
    signups: room.signupList(),
    me,
    clock: room.clock(),
    commitment: started?.type === "gameStarted" ? started.commitment : null,
    view,
    roleCard: view?.me ? { role: view.me.role, lines: ROLE_CARDS[view.me.role][lang] } : null,
    form: viewer.kind === "player" && view ? actionForm(room, viewer.seat, view) : null,
    voteCount: voteCount(room, lang),
    channels: channels(room, viewer),
    notices: notices(room, lang),
    announcements: announcements(room, lang),
    privateResults: view ? privateResultLines(view, lang) : [],
    roleNames: roleNames(lang),
    streamAt: streamSince(room, viewer, Number.MAX_SAFE_INTEGER).total,
    // The GM may see the whole table, so the GM's panel reads the state itself.
    gm: viewer.kind === "gm" ? gmTable(room) : null,
  };
}

/** The GM's own table (GameDetail.gm): built only for the GM, from the full state. */
function gmTable(room: Room): GmTable | null {
  const m = room.match;
  if (!m) return null;
  const night = room.status === "running" && m.state.phase.kind === "night";
  const question = night ? councilQuestion(room) : null;
  return {
    strikes: m.state.players.map((p) => ({ vote: p.voteStrikes, night: p.nightStrikes })),
    council: question === null ? null : { question, answer: room.council },
    day: room.status === "running" && m.state.phase.kind === "day" ? dayTally(m) : null,
  };
}

/**
 * V4, V5, P1, P2: the day as the engine would close it now (closeDay is pure: nothing changes), so the GM
 * reads the weighted scores and penalty votes the public count never shows.
 */
function dayTally(m: Match): GmDayTally | null {
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

function roleNames(lang: Lang): Record<RoleId, string> {
  const out = {} as Record<RoleId, string>;
  for (const role of Object.keys(ROLE_NAMES) as RoleId[]) out[role] = ROLE_NAMES[role][lang];
  return out;
}

/** A2: the viewer's private results, from the viewer's own view, worded as the night's PMs are. */
function privateResultLines(view: GameView, lang: Lang): GameDetail["privateResults"] {
  return view.privateResults.map((r) => {
    const lines: string[] = [];
    if (r.check) lines.push(TEXTS.check[lang](view.seats[r.check.target]?.name ?? "?", r.check.result));
    if (r.council) lines.push(`${r.council.question} — ${TEXTS.council[lang](r.council.answer)}`);
    return { phase: r.phase, lines };
  });
}

/** R3: the published log of a finished game. */
export function gameLog(room: Room, lang: Lang): GameLog {
  const m = room.match!;
  return {
    seed: room.seed,
    overrides: [...m.overrides],
    moderation: [...room.moderation],
    hiddenPosts: room.posts
      .filter((p) => p.hidden)
      .map((p) => ({ id: p.id, author: p.author, text: p.text, reason: p.hidden!.reason })),
    view: gameView(room, { kind: "gm" }),
    events: [...room.events],
    explanations: m.outcomes.flatMap(({ outcome, players }) =>
      outcome.phase.kind === "night"
        ? [{ phase: outcome.phase, lines: explainNight(outcome as NightOutcome, players, lang) }]
        : [],
    ),
  };
}

/** The signup state of a user who holds no seat. */
export function signupStatus(room: Room, userId: string | null): GameDetail["me"]["kind"] {
  const i = userId === null ? -1 : room.signups.findIndex((s) => s.userId === userId);
  if (i < 0) return "none";
  return room.status === "signup" && i < room.settings.seats ? "signedUp" : "reserve";
}

/**
 * O1, O1a: the acts and targets open to a player tonight: the engine's nightForm, which works only from
 * what the player knows (see its comment), and the player's own submissions so far.
 */
export function actionForm(room: Room, seat: number, view: GameView): ActionForm | null {
  if (room.status !== "running") return null;
  const form = nightForm(room.match!.state, seat);
  if (!form) return null;
  return {
    acts: form.acts.map((a) =>
      a.act === "healFrom"
        ? { act: a.act, targets: a.targets, roles: a.roles }
        : {
            act: a.act,
            targets: a.targets,
            unavailable: a.unavailable.map((u) => ({ seat: u.seat, reason: u.reason, clause: u.clause })),
          },
    ),
    mafiaLimits: form.mafiaLimits,
    submitted: view.submissions
      .filter((s) => s.slot !== "own" || s.seat === seat)
      .map((s) => ({ slot: s.slot, action: s.action })),
  };
}

function voteCount(room: Room, lang: Lang): VoteCount | null {
  const m = room.match;
  if (!m || room.status !== "running" || m.state.phase.kind !== "day") return null;
  const post = voteCountPost(m.day, m.state, lang);
  const sections = voteCountSections(m.day, m.state, lang);
  const cannotVote: number[] = [];
  const notVoted: number[] = [];
  m.state.players.forEach((p, seat) => {
    if (!p.alive) return;
    if (m.state.day.silenced.includes(seat)) cannotVote.push(seat);
    else if (!m.day.votes[seat]) notVoted.push(seat);
  });
  return {
    text: [post.title, ...post.lines].join("\n"),
    title: sections.title,
    red: sections.red,
    blue: sections.blue,
    cannotVote,
    notVoted,
  };
}

/** A1, A3: the published results, as the GM would post them (the engine writes only public lines here). */
function announcements(room: Room, lang: Lang): GameDetail["announcements"] {
  const m = room.match;
  if (!m) return [];
  return m.outcomes.map(({ outcome, players }) => {
    const a =
      outcome.phase.kind === "night"
        ? nightAnnouncement(outcome as NightOutcome, players, lang)
        : dayAnnouncement(outcome as DayOutcome, players, lang);
    return { phase: outcome.phase, lines: [a.title, ...a.lines] };
  });
}

/** The channels the viewer belongs to, with their messages; the GM reads every channel. */
export function channels(room: Room, viewer: Viewer): ChannelView[] {
  if (!room.match || viewer.kind === "public") return [];
  if (viewer.kind === "player")
    return channelsOf(room, viewer.seat).map((c) =>
      channelView(room, c.id, room.status === "running" && c.canPost),
    );
  const ids: ChannelId[] = ["mafia", "pair", "spectators"];
  room.match.state.players.forEach((_, seat) => ids.push(`gm:${seat}`));
  return ids.map((id) => channelView(room, id, room.status !== "signup"));
}

function channelView(room: Room, id: ChannelId, canPost: boolean): ChannelView {
  // A copy: a read's answer is sent only once durable (Games.settled), and the room may grow meanwhile.
  return { id, canPost, messages: [...(room.messages.get(id) ?? [])] };
}

export function posts(room: Room, after: number, limit: number): { posts: PostView[]; total: number } {
  return { posts: room.posts.slice(after, after + limit).map(postView), total: room.posts.length };
}

/** Whether a feed entry goes to this viewer: its audience was fixed when it was appended. */
export function mayReceive(room: Room, entry: FeedEntry, viewer: Viewer): boolean {
  const a = entry.audience;
  switch (a.to) {
    case "everyone":
      return true;
    case "gm":
      return viewer.kind === "gm";
    case "seats":
      return viewer.kind === "gm" || (viewer.kind === "player" && a.seats.includes(viewer.seat));
    case "team": {
      if (viewer.kind === "gm") return true;
      if (viewer.kind !== "player") return false;
      return teamOf(room.match!.setup.players[viewer.seat]!.role) === a.team;
    }
    default: {
      const never: never = a;
      throw new Error(`unknown audience ${JSON.stringify(never)}`);
    }
  }
}

/**
 * A feed item as it stands now: a post hidden since it was appended is sent hidden, so a client that
 * reconnects (or a new one) never receives the hidden text.
 */
export function current(room: Room, item: FeedItem): FeedItem {
  if (item.type !== "post") return item;
  const post = room.postById.get(item.post.id);
  return post?.hidden ? { type: "post", post: postView(post) } : item;
}

/**
 * The viewer's own stream: the durable feed items they may receive, numbered from 1 in their own order.
 * Items still being written are left to the live publication that follows their commit.
 */
export function streamFor(room: Room, viewer: Viewer, after: number): { id: number; item: FeedItem }[] {
  return streamSince(room, viewer, after).items;
}

/** The items after `after` and how many the viewer's stream holds in all, read in one pass. */
export function streamSince(
  room: Room,
  viewer: Viewer,
  after: number,
): { items: { id: number; item: FeedItem }[]; total: number } {
  const items: { id: number; item: FeedItem }[] = [];
  let n = 0;
  for (let i = 0; i < room.durable; i++) {
    const entry = room.feed[i]!;
    if (!mayReceive(room, entry, viewer)) continue;
    n++;
    if (n > after) items.push({ id: n, item: current(room, entry.item) });
  }
  return { items, total: n };
}
