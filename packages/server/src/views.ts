import {
  nightFormFor,
  publicDay,
  countPost,
  publicVoteCountSections,
  publishedResults,
  roleCard,
  ROLE_NAMES,
  TEXTS,
  type GameView,
  type Lang,
  type RoleId,
  type Viewer,
} from "@forum-mafia/engine";
import type {
  ActionForm,
  ChannelId,
  ChannelView,
  FeedItem,
  GameDetail,
  GameSummary,
  PostView,
  UnreadView,
  VoteCount,
} from "@forum-mafia/protocol";
import { unreadAfter } from "@forum-mafia/protocol";
import { channelsOf } from "./games.ts";
import { gmTable } from "./gm-views.ts";
import { notices } from "./notices.ts";
import { postView, type Room } from "./room.ts";
import { mayReceive, seenBy, type Seen } from "./seen.ts";

/**
 * The responses a player, a spectator or the public is sent, each built from what its viewer may see: a
 * Seen (seen.ts: the viewer's events and the view folded from them, the public events and view, the public
 * role list), the public thread, and the channels the viewer belongs to. Nothing here reads the match: a
 * lint rule (eslint.config.js) refuses the engine's state types, its state-reading builders and any
 * `.match` in this file. The GM's table, who may see everything, is built in gm-views.ts.
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
    winner: room.winner,
    deadline: room.status === "running" ? room.clock().deadline : null,
    mine:
      userId !== null && room.gmId === userId
        ? "gm"
        : userId !== null && room.seatOf(userId) !== null
          ? "player"
          : signupStatus(room, userId),
  };
}

export function gameView(room: Room, viewer: Viewer): GameView | null {
  return seenBy(room, viewer)?.view ?? null;
}

/**
 * The game as one viewer may see it. `read` is the signed-in user's nick and read marks in this game
 * (Store.readMarks, fetched by the route): the detail's `unread`, null without it.
 */
export function gameDetail(
  room: Room,
  viewer: Viewer,
  userId: string | null,
  lang: Lang,
  read: ReadState | null = null,
): GameDetail {
  const seen = seenBy(room, viewer);
  const view = seen?.view ?? null;
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
    roleCard: view?.me ? { role: view.me.role, lines: roleCard(view.me.role, lang, view.options) } : null,
    form: viewer.kind === "player" && seen && room.status === "running" ? actionForm(seen) : null,
    voteCount: seen && room.status === "running" ? voteCount(seen, lang) : null,
    channels: channels(room, viewer),
    notices: notices(room, lang),
    // A1, A3: the published results, as the GM would post them, from the public result events.
    announcements: seen ? publishedResults(seen.publicEvents, lang) : [],
    privateResults: view ? privateResultLines(view, lang) : [],
    roleNames: roleNames(lang),
    streamAt: streamSince(room, viewer, Number.MAX_SAFE_INTEGER).total,
    // The GM may see the whole table, so the GM's panel reads the state itself (gm-views.ts).
    gm: viewer.kind === "gm" ? gmTable(room) : null,
    unread: userId !== null && read !== null ? unreadView(room, viewer, read) : null,
  };
}

/** A user's nick and read marks in one game ("thread" or a channel id → items read). */
export interface ReadState {
  readonly nick: string;
  readonly marks: Readonly<Record<string, number>>;
}

/**
 * Issue 15: what the user has not read in this game: the thread's posts after the mark, and the messages
 * after the mark in each channel the viewer belongs to (the same list as `channels`, never another). One's
 * own posts and messages never count.
 */
export function unreadView(room: Room, viewer: Viewer, read: ReadState): UnreadView {
  const threadMark = Math.min(read.marks["thread"] ?? 0, room.posts.length);
  return {
    thread: {
      unread: unreadAfter(room.posts, threadMark, read.nick, viewer.kind === "gm"),
      readUpTo: threadMark,
    },
    channels: channels(room, viewer).map((c) => {
      const mark = Math.min(read.marks[c.id] ?? 0, c.messages.length);
      return {
        id: c.id,
        unread: unreadAfter(c.messages, mark, read.nick, viewer.kind === "gm"),
        readUpTo: mark,
      };
    }),
  };
}

/** Every role's name in a language, as the engine words it (GameDetail, «Мои игры», profiles). */
export function roleNames(lang: Lang): Record<RoleId, string> {
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

/** The signup state of a user who holds no seat. */
export function signupStatus(room: Room, userId: string | null): GameDetail["me"]["kind"] {
  const i = userId === null ? -1 : room.signups.findIndex((s) => s.userId === userId);
  if (i < 0) return "none";
  return room.status === "signup" && i < room.settings.seats ? "signedUp" : "reserve";
}

/**
 * O1, O1a: the acts and targets open to a player tonight, from the player's own view (nightFormFor: the
 * same checks as a submission's, on what the player knows), and the player's own submissions so far.
 */
export function actionForm(seen: Seen): ActionForm | null {
  const me = seen.view.me;
  if (me === null) return null;
  const form = nightFormFor(seen.view, seen.roleList);
  if (!form) return null;
  return {
    acts: form.acts.map((a) =>
      a.act === "healFrom"
        ? { act: a.act, targets: a.targets, roles: a.roles }
        : {
            act: a.act,
            targets: a.targets,
            unavailable: a.unavailable.map((u) => ({ seat: u.seat, reason: u.reason, clause: u.clause })),
            // M2c: the council's listed questions, which automatic games answer by the rules.
            ...(a.act === "council" ? { questions: a.questions } : {}),
          },
    ),
    mafiaLimits: form.mafiaLimits,
    submitted: seen.view.submissions
      .filter((s) => s.slot !== "own" || s.seat === me.seat)
      .map((s) => ({ slot: s.slot, action: s.action })),
  };
}

/** V2, V4, V6, V7: the public count of the day in play, from the public view: the same for every viewer. */
function voteCount(seen: Seen, lang: Lang): VoteCount | null {
  const pub = seen.publicView;
  if (pub.phase.kind !== "day") return null;
  const day = publicDay(pub);
  const sections = publicVoteCountSections(day, lang);
  const post = countPost(sections, lang);
  const voted = new Set(pub.votes.map((v) => v.seat));
  const cannotVote: number[] = [];
  const notVoted: number[] = [];
  for (const s of pub.seats) {
    if (!s.alive) continue;
    if (s.cannotVote) cannotVote.push(s.seat);
    else if (!voted.has(s.seat)) notVoted.push(s.seat);
  }
  return {
    text: [post.title, ...post.lines].join("\n"),
    title: sections.title,
    red: sections.red,
    blue: sections.blue,
    cannotVote,
    notVoted,
  };
}

/** The channels the viewer belongs to, with their messages; the GM reads every channel. */
export function channels(room: Room, viewer: Viewer): ChannelView[] {
  if (room.phase === null || viewer.kind === "public") return [];
  if (viewer.kind === "player")
    return channelsOf(room, viewer.seat).map((c) =>
      channelView(room, c.id, room.status === "running" && c.canPost),
    );
  const ids: ChannelId[] = ["mafia", "pair", "spectators"];
  room.seatUsers.forEach((_, seat) => ids.push(`gm:${seat}`));
  return ids.map((id) => channelView(room, id, room.status !== "signup"));
}

function channelView(room: Room, id: ChannelId, canPost: boolean): ChannelView {
  // A copy: a read's answer is sent only once durable (Games.settled), and the room may grow meanwhile.
  return { id, canPost, messages: [...(room.messages.get(id) ?? [])] };
}

/**
 * A page of the thread. With `seat` («Посты игрока»), only that seat's posts: `total` counts them and
 * `after` pages through them. A hidden post stays hidden either way.
 */
export function posts(
  room: Room,
  after: number,
  limit: number,
  seat: number | null = null,
): { posts: PostView[]; total: number } {
  const list = seat === null ? room.posts : room.posts.filter((p) => p.seat === seat);
  return { posts: list.slice(after, after + limit).map(postView), total: list.length };
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
