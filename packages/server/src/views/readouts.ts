import {
  countPost,
  nightFormFor,
  publicDay,
  publicVoteCountSections,
  ROLE_NAMES,
  stallOf,
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
  PostView,
  StallView,
  UnreadView,
  VoteCount,
} from "@forum-mafia/protocol";
import { unreadAfter } from "@forum-mafia/protocol";
import { channelsOf } from "./channels.ts";
import type { Room } from "../log/room.ts";
import { postView } from "../log/posts.ts";
import type { Seen } from "./seen.ts";

/**
 * The small readouts of a game that the detail, the live stream and «Мои игры» share, each built from what
 * its viewer may see (views.ts says how, and the lint rule that holds this file to it): the unread counts,
 * the role names, the private results' lines, a user's place in the signups, the night's form, the public
 * vote count, the channels, a page of the thread, a feed item as it stands now, the stall.
 */

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
    // The channels' own lists, read in place: nothing here is kept, so nothing is copied per request.
    channels: channels(room, viewer, false).map((c) => {
      const messages = room.messages.get(c.id) ?? [];
      const mark = Math.min(read.marks[c.id] ?? 0, messages.length);
      return {
        id: c.id,
        unread: unreadAfter(messages, mark, read.nick, viewer.kind === "gm"),
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
export function privateResultLines(view: GameView, lang: Lang): GameDetail["privateResults"] {
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
export function voteCount(seen: Seen, lang: Lang): VoteCount | null {
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
export function channels(room: Room, viewer: Viewer, withMessages = true): ChannelView[] {
  if (room.phase === null || viewer.kind === "public") return [];
  const view = (id: ChannelId, canPost: boolean): ChannelView => ({
    id,
    canPost,
    // A copy: a read's answer is sent only once durable (Games.settled), and the room may grow meanwhile.
    messages: withMessages ? [...(room.messages.get(id) ?? [])] : [],
  });
  if (viewer.kind === "player")
    return channelsOf(room, viewer.seat).map((c) => view(c.id, room.status === "running" && c.canPost));
  const ids: ChannelId[] = ["mafia", "pair", "spectators"];
  room.seatUsers.forEach((_, seat) => ids.push(`gm:${seat}`));
  return ids.map((id) => view(id, room.status !== "signup"));
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
 * Issue 28: whether the running game has stalled (no death and no hanging for three full cycles), read from
 * the public results alone (the engine's stallOf), so telling everyone reveals nothing. A demo game has no
 * human GM: nobody can step in (logs from before the demo mark read as having one).
 */
export function stallView(room: Room, pub: GameView): StallView | null {
  const stall = stallOf(pub.results);
  return stall === null
    ? null
    : { since: stall.since, nights: stall.nights, days: stall.days, humanGm: !room.demo };
}
