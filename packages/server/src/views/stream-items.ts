import { publishedResults, type GameEvent, type Lang, type Viewer } from "@forum-mafia/engine";
import type { PublicState, StreamItem, StreamItemType, YourState } from "@forum-mafia/protocol/stream";
import type { FeedItem } from "@forum-mafia/protocol";
import { gmTable } from "./gm-views.ts";
import { notices } from "./notices.ts";
import type { Room } from "../log/room.ts";
import { mayReceive, seenBy } from "./seen.ts";
import { feedIndexAfter, streamLength } from "../streams/positions.ts";
import { publicSummary } from "./summary.ts";
import { viewerKey } from "./viewer.ts";
import { actionForm, channels, current, privateResultLines, stallView, voteCount } from "./readouts.ts";

/**
 * Issue 19: what the live stream sends, built from what its viewer may see (views.ts says how, and the lint
 * rule that holds this file to it): the game's two halves (the public one, `publicState`, and the viewer's
 * own, `yourState`), the item each feed entry makes (`itemTypeOf`, `StreamItems`) and a stream's backlog.
 * The detail (views.ts) is built from the same two halves.
 */

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
    case "flag":
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

/** One item of a viewer's stream as it is sent: its id and its data. */
export interface SentItem {
  /** Its place in the viewer's own stream, from 1: the SSE id. */
  readonly id: number;
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
    out.push({ id: ++id, data: items.json(i, viewer, lang) });
  }
  return out;
}
