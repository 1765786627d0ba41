import {
  nightFormFor,
  publicDay,
  countPost,
  publicVoteCountSections,
  publishedResults,
  roleCard,
  ROLE_NAMES,
  stallOf,
  TEXTS,
  type GameEvent,
  type GameView,
  type Lang,
  type RoleId,
  type Viewer,
} from "@forum-mafia/engine";
import type {
  PublicState,
  PublicSummary,
  StreamItem,
  StreamItemType,
  YourState,
} from "@forum-mafia/protocol/stream";
import type {
  ActionForm,
  ChannelId,
  ChannelView,
  FeedItem,
  GameDetail,
  GameSummary,
  PostView,
  StallView,
  UnreadView,
  VoteCount,
} from "@forum-mafia/protocol";
import { unreadAfter } from "@forum-mafia/protocol";
import { channelsOf } from "./channels.ts";
import { gmTable } from "./gm-views.ts";
import { notices } from "./notices.ts";
import { postView, type Room } from "../log/room.ts";
import { mayReceive, seenBy, type Seen } from "./seen.ts";
import { feedIndexAfter, streamLength } from "../streams/positions.ts";
import { publicSummary } from "./summary.ts";
import { viewerKey, viewerOf } from "./viewer.ts";

/**
 * The responses a player, a spectator or the public is sent, each built from what its viewer may see: a
 * Seen (seen.ts: the viewer's events and the view folded from them, the public events and view, the public
 * role list), the public thread, and the channels the viewer belongs to. Nothing here reads the match: a
 * lint rule (eslint.config.js) refuses the engine's state types, its state-reading builders and any
 * `.match` in this file. The GM's table, who may see everything, is built in gm-views.ts.
 */

export function summaryOf(room: Room, userId: string | null): GameSummary {
  const viewer = viewerOf(room, userId);
  return { ...publicSummary(room), mine: mineOf(room, viewer, userId) };
}

export function gameView(room: Room, viewer: Viewer): GameView | null {
  return seenBy(room, viewer)?.view ?? null;
}

/**
 * The game as one viewer may see it. `read` is the signed-in user's nick and read marks in this game
 * (Store.readMarks, fetched by the route): the detail's `unread`, null without it. Built from the same two
 * halves the live stream sends (issue 19): the public half (`publicState`) and the viewer's own
 * (`yourState`), so a client that applies the stream's items holds what a fresh detail would show.
 */
export function gameDetail(
  room: Room,
  viewer: Viewer,
  userId: string | null,
  lang: Lang,
  read: ReadState | null = null,
): GameDetail {
  const shared = sharedDetail(room, viewer, lang);
  const own = ownPart(room, viewer, userId, read);
  return { ...shared, summary: { ...shared.summary, mine: own.me.kind }, me: own.me, unread: own.unread };
}

/** The asking user's own part of the detail: their place in the game and what they have not read. */
function ownPart(
  room: Room,
  viewer: Viewer,
  userId: string | null,
  read: ReadState | null,
): Pick<GameDetail, "me" | "unread"> {
  return {
    me: { kind: mineOf(room, viewer, userId), seat: viewer.kind === "player" ? viewer.seat : null },
    unread: userId !== null && read !== null ? unreadView(room, viewer, read) : null,
  };
}

/**
 * The same detail as JSON, for the route: the part every user with this viewer and language shares is
 * serialised once per change of the room (a reconnect storm after a vote costs one build, not one per
 * reader), and only the user's own place and unread counts are added per request.
 */
export function gameDetailJson(
  room: Room,
  viewer: Viewer,
  userId: string | null,
  lang: Lang,
  read: ReadState | null = null,
): string {
  const key = `${viewerKey(viewer)}|${lang}`;
  let byKey = DETAILS.get(room);
  if (!byKey) DETAILS.set(room, (byKey = new Map()));
  let kept = byKey.get(key);
  if (!kept || kept.seq !== room.seq || kept.feed !== room.feed.length) {
    const { summary, ...rest } = sharedDetail(room, viewer, lang);
    const json = JSON.stringify(rest);
    kept = { seq: room.seq, feed: room.feed.length, summary, rest: json.slice(1, -1) };
    byKey.set(key, kept);
  }
  const { me, unread } = ownPart(room, viewer, userId, read);
  return `{"summary":${JSON.stringify({ ...kept.summary, mine: me.kind })},"me":${JSON.stringify(me)},"unread":${JSON.stringify(unread)},${kept.rest}}`;
}

type SharedDetail = Omit<GameDetail, "me" | "unread" | "summary"> & { readonly summary: PublicSummary };

const DETAILS = new WeakMap<
  Room,
  Map<string, { seq: number; feed: number; summary: PublicSummary; rest: string }>
>();

/** The detail without the asking user's own place and unread counts: the same for every user with this viewer. */
function sharedDetail(room: Room, viewer: Viewer, lang: Lang): SharedDetail {
  const pub = publicState(room, lang);
  const you = viewer.kind === "public" ? null : yourState(room, viewer, lang);
  const seen = seenBy(room, viewer);
  const view = seen?.view ?? null;
  return {
    summary: pub.summary,
    settings: room.settings,
    signups: pub.signups,
    clock: pub.clock,
    commitment: pub.commitment,
    view,
    roleCard: view?.me ? { role: view.me.role, lines: roleCard(view.me.role, lang, view.options) } : null,
    form: you?.form ?? null,
    voteCount: pub.voteCount,
    channels: channels(room, viewer),
    notices: pub.notices,
    stall: pub.stall,
    announcements: pub.announcements,
    // R3: once the game is over a public viewer reads every private result too (its view is the GM's).
    privateResults: you?.privateResults ?? (view ? privateResultLines(view, lang) : []),
    roleNames: roleNames(lang),
    streamAt: streamLength(room, viewer),
    gm: you?.gm ?? null,
  };
}

/** Where the asking user stands: the GM, a player, or their place in the signups. */
function mineOf(room: Room, viewer: Viewer, userId: string | null): GameDetail["me"]["kind"] {
  return viewer.kind === "gm" ? "gm" : viewer.kind === "player" ? "player" : signupStatus(room, userId);
}

/** Issue 19: the public half of the game, the same for every viewer in one language (stream.ts, the detail). */
export function publicState(room: Room, lang: Lang): PublicState {
  const seen = seenBy(room, { kind: "public" });
  const started = room.events[0];
  return {
    summary: publicSummary(room),
    signups: room.signupList(),
    clock: room.clock(),
    notices: notices(room, lang),
    commitment: started?.type === "gameStarted" ? started.commitment : null,
    view: seen?.view ?? null,
    voteCount: seen && room.status === "running" ? voteCount(seen, lang) : null,
    // A1, A3: the published results, as the GM would post them, from the public result events.
    announcements: seen ? publishedResults(seen.publicEvents, lang) : [],
    stall: seen && room.status === "running" ? stallView(room, seen.publicView) : null,
  };
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

/**
 * Issue 19: the viewer's own half (a player or the GM): what only this viewer may see of the view, the form,
 * the private results, the channels (without their messages) and, for the GM, the GM's table.
 */
export function yourState(room: Room, viewer: Viewer, lang: Lang): YourState | null {
  const seen = seenBy(room, viewer);
  if (seen === null) return null;
  const view = seen.view;
  return {
    viewer: view.viewer,
    me: view.me,
    submissions: view.submissions,
    privateResultsView: view.privateResults,
    roles: view.seats.map((s) => s.role),
    form: viewer.kind === "player" && room.status === "running" ? actionForm(seen) : null,
    privateResults: privateResultLines(view, lang),
    channels: channels(room, viewer, false).map((c) => ({ id: c.id, canPost: c.canPost })),
    // The GM may see the whole table, so the GM's panel reads the state itself (gm-views.ts).
    gm: viewer.kind === "gm" ? gmTable(room) : null,
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

/** What kind of stream item each engine event makes (issue 19); a new event fails to compile without one. */
const EVENT_ITEM: { readonly [T in GameEvent["type"]]: "vote" | "phase" | "you" } = {
  voteCast: "vote",
  gameStarted: "phase",
  nightResults: "phase",
  dayResults: "phase",
  replaced: "phase",
  gameEnded: "phase",
  roleDealt: "you",
  teamRevealed: "you",
  actionSubmitted: "you",
  checkResult: "you",
  councilAnswer: "you",
  strike: "you",
  modkillOrdered: "you",
  nightDetail: "you",
  dayDetail: "you",
};

/** The stream item type a feed entry makes. */
export function itemTypeOf(item: FeedItem): StreamItemType {
  switch (item.type) {
    case "post":
    case "postHidden":
    case "message":
    case "lobby":
    case "clock":
      return item.type;
    case "review":
      return "you";
    case "game":
      return EVENT_ITEM[item.event.type];
    default: {
      const never: never = item;
      throw new Error(`unknown feed item ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Whether a viewer's item of this type carries the viewer's own half: a player's after a phase change or a
 * change only they see (the form, the private results), the GM's after anything that moves the GM's table
 * (a vote moves the day's tally, the clock the night's intake). A public viewer has no own half.
 */
function carriesYou(type: StreamItemType, viewer: Viewer): boolean {
  if (viewer.kind === "public") return false;
  if (type === "phase" || type === "you") return true;
  return viewer.kind === "gm" && (type === "vote" || type === "clock");
}

/**
 * Issue 19: the stream items of one sending (a flush of new feed items, or a stream's backlog), as JSON.
 * Each value is built once and as it stands now (stream items carry values whole, never differences): the
 * public parts once per language for every viewer, the viewer's own half once per viewer and language. The
 * caller sends them only once everything applied to the room so far is durable (Games.settled).
 */
export class StreamItems {
  private readonly shared = new Map<string, string>();
  private readonly yours = new Map<string, { readonly state: YourState; readonly json: string }>();

  constructor(private readonly room: Room) {}

  /** The viewer's own half now (null for a public viewer, or before the deal). */
  you(viewer: Viewer, lang: Lang): YourState | null {
    return this.yourPart(viewer, lang)?.state ?? null;
  }

  /** The viewer's own half if an item built so far carried it, else null (nothing is built for asking). */
  built(viewer: Viewer, lang: Lang): YourState | null {
    return this.yours.get(`${viewerKey(viewer)}|${lang}`)?.state ?? null;
  }

  /** The item the feed entry at `index` makes for this viewer, as the `data` of an SSE event. */
  json(index: number, viewer: Viewer, lang: Lang): string {
    const item = this.room.feed[index]!.item;
    let type = itemTypeOf(item);
    // Nothing only a player or the GM may see reaches a public viewer (its audience); were it to, the viewer
    // gets the public half, never another's own.
    if (type === "you" && viewer.kind === "public") type = "phase";
    const yours = carriesYou(type, viewer) ? this.yourPart(viewer, lang) : null;
    if (type === "you")
      return yours ? `{"type":"you","you":${yours.json}}` : this.publicJson("phase", index, lang);
    const base = this.publicJson(type, index, lang);
    return yours ? `${base.slice(0, -1)},"you":${yours.json}}` : base;
  }

  private yourPart(viewer: Viewer, lang: Lang): { state: YourState; json: string } | null {
    const key = `${viewerKey(viewer)}|${lang}`;
    let kept = this.yours.get(key);
    if (!kept) {
      const state = yourState(this.room, viewer, lang);
      if (state === null) return null;
      this.yours.set(key, (kept = { state, json: JSON.stringify(state) }));
    }
    return kept;
  }

  /** The item without the viewer's own half: the same bytes for every viewer in one language. */
  private publicJson(type: Exclude<StreamItemType, "you">, index: number, lang: Lang): string {
    const room = this.room;
    const entry = room.feed[index]!.item;
    // Posts and messages are their own values (a hidden post is sent hidden); the rest are the room's now.
    const key =
      type === "post" || type === "postHidden" || type === "message" ? `#${index}` : `${type}|${lang}`;
    let json = this.shared.get(key);
    if (json !== undefined) return json;
    let item: StreamItem;
    switch (type) {
      case "post":
      case "postHidden":
      case "message":
        json = JSON.stringify(current(room, entry));
        this.shared.set(key, json);
        return json;
      case "lobby":
        item = { type, signups: room.signupList(), summary: publicSummary(room) };
        break;
      case "clock":
        item = { type, clock: room.clock(), notices: notices(room, lang), summary: publicSummary(room) };
        break;
      case "vote": {
        const seen = seenBy(room, { kind: "public" });
        item = {
          type,
          votes: seen?.view.votes ?? [],
          voteCount: seen && room.status === "running" ? voteCount(seen, lang) : null,
        };
        break;
      }
      case "phase":
        item = { type, state: publicState(room, lang) };
        break;
    }
    json = JSON.stringify(item);
    this.shared.set(key, json);
    return json;
  }
}

/** One item of a viewer's stream as it is sent: its id, the feed entry it comes from, and its data. */
export interface SentItem {
  /** Its place in the viewer's own stream, from 1: the SSE id. */
  readonly id: number;
  /** The feed entry it is built from (room.feed). */
  readonly index: number;
  /** The stream item as JSON: the SSE data. */
  readonly data: string;
}

/**
 * The backlog of a stream opened after the viewer's item `after` (Last-Event-ID; 0 for everything), as
 * Streams.open sends it: the feed items the viewer may receive, numbered on from `after` in the viewer's own
 * order, built as they stand now. Null when the client must start again: it holds more than the stream has
 * (a game rebuilt after a failed write), or something from before the end (R3), which it missed, as a live
 * stream would have been told. The caller sends it only once everything it was built from is durable.
 */
export function backlog(
  room: Room,
  viewer: Viewer,
  lang: Lang,
  after: number,
  items: StreamItems = new StreamItems(room),
): SentItem[] | null {
  if (after > streamLength(room, viewer)) return null;
  const out: SentItem[] = [];
  let id = after;
  for (let i = feedIndexAfter(room, viewer, after); i < room.feed.length; i++) {
    const entry = room.feed[i]!;
    if (!mayReceive(room, entry, viewer)) continue;
    if (after > 0 && entry.item.type === "game" && entry.item.event.type === "gameEnded") return null;
    out.push({ id: ++id, index: i, data: items.json(i, viewer, lang) });
  }
  return out;
}
