import { roleCard, type GameView, type Lang, type Viewer } from "@forum-mafia/engine";
import type { PublicSummary } from "@forum-mafia/protocol/stream";
import type { GameDetail, GameSummary } from "@forum-mafia/protocol";
import type { Room } from "../log/room.ts";
import { seenBy } from "./seen.ts";
import { streamLength } from "../streams/positions.ts";
import { publicSummary } from "./summary.ts";
import { viewerKey, viewerOf } from "./viewer.ts";
import {
  channels,
  privateResultLines,
  roleNames,
  signupStatus,
  unreadView,
  type ReadState,
} from "./readouts.ts";
import { publicState, yourState } from "./stream-items.ts";

/**
 * The responses a player, a spectator or the public is sent, each built from what its viewer may see: a
 * Seen (seen.ts: the viewer's events and the view folded from them, the public events and view, the public
 * role list), the public thread, and the channels the viewer belongs to. Nothing here reads the match: a
 * lint rule (eslint.config.js) refuses the engine's state types, its state-reading builders and any
 * `.match` in this file. The GM's table, who may see everything, is built in gm-views.ts.
 *
 * This file builds the game's detail and summary; the live stream's items and the two halves they share
 * with the detail are in stream-items.ts, the small readouts (unread, the form, the count, the channels,
 * the thread's pages…) in readouts.ts, both under the same rule.
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
