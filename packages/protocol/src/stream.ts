import type { GameView } from "@forum-mafia/engine";
import type {
  ActionForm,
  ChannelId,
  Clock,
  GameDetail,
  GameSummary,
  GmTable,
  MessageView,
  PostView,
  Signup,
  StallView,
  VoteCount,
} from "./views.ts";

/**
 * Issue 19: the live stream of a game (GET /api/games/:id/stream, server-sent events) carries what changed,
 * and a client applies it to the GameDetail it holds (`applyStreamItem`) instead of fetching the game again.
 *
 * - Each event's `id` is its place in the viewer's own stream (1, 2, 3…): a client that sees an id other
 *   than the next one has missed something and fetches the detail again (a gap); an id it has already
 *   applied is a repeat and is ignored. `GameDetail.streamAt` is the id of the last item the detail holds.
 * - An item's fields carry values whole, as they stand when the item is sent (never a difference from
 *   the previous value), so applying an item twice, or a later one's value early, leaves the same state.
 * - An item is built from its audience's view: the public parts once per language for everyone, the
 *   viewer's own part (`you`) once per seat, team member or GM. A public viewer never receives `you`.
 * - `event: reset` (no id) means the stream's numbering no longer applies (the viewer's seat changed, the
 *   game ended and everyone now sees every role (R3), a channel was opened to the viewer, the client fell
 *   too far behind): fetch the detail again and open a new stream from its `streamAt`.
 * - A comment line (`: keep-alive`) every 25 s keeps proxies from closing an idle stream.
 * - A stream ended by its server's shutdown (issue 28) ends with `retry: 500` and no reset: the ids hold on
 *   every instance, so EventSource reconnects after that delay with Last-Event-ID (through the proxy, to
 *   another instance) and gets exactly what it missed; a client that reads the stream itself does the same.
 *
 * Plain data and functions only (no zod): the web app imports this as `@forum-mafia/protocol/stream`.
 */

/** What everyone sees of a game's summary (GameSummary without the asking user's own place). */
export type PublicSummary = Omit<GameSummary, "mine">;

/**
 * The public half of a game, the same for every viewer in one language: a phase change (the night's or the
 * day's results, the start, a substitute's name) carries it whole.
 */
export interface PublicState {
  readonly summary: PublicSummary;
  /** Who has signed up and not taken a seat (the reserve, once the game has started). */
  readonly signups: readonly Signup[];
  readonly clock: Clock;
  readonly notices: readonly string[];
  readonly commitment: string | null;
  /** The public viewer's view (its `me` null, its `submissions` and `privateResults` empty). */
  readonly view: GameView | null;
  readonly voteCount: VoteCount | null;
  readonly announcements: GameDetail["announcements"];
  /** Issue 28: the game has stalled (public results only); it changes only with the results, at a phase change. */
  readonly stall: StallView | null;
}

/**
 * The viewer's own half, sent to a player or the GM with each change to it: the parts of the view only
 * this viewer may see, the form, the private results, the channels the viewer may read and post in, and
 * the GM's table.
 */
export interface YourState {
  readonly viewer: GameView["viewer"];
  readonly me: GameView["me"];
  readonly submissions: GameView["submissions"];
  readonly privateResultsView: GameView["privateResults"];
  /** Each seat's role as this viewer knows it (null where unknown): the viewer's own view's seats. */
  readonly roles: readonly (GameView["seats"][number]["role"] | null)[];
  readonly form: ActionForm | null;
  readonly privateResults: GameDetail["privateResults"];
  /** The channels the viewer belongs to, without their messages (each message comes as its own item). */
  readonly channels: readonly { readonly id: ChannelId; readonly canPost: boolean }[];
  readonly gm: GmTable | null;
}

/** One item of a viewer's live stream (the `data` of an SSE event). */
export type StreamItem =
  /** A post in the game thread, or a post shown again (F2); a client keeps posts by id. */
  | { readonly type: "post"; readonly post: PostView }
  /** A post hidden by the GM: its text is gone. */
  | { readonly type: "postHidden"; readonly id: string; readonly reason: string }
  /** A message in a channel the viewer reads; kept by id. */
  | { readonly type: "message"; readonly message: MessageView }
  /** Before the start: who has signed up. */
  | { readonly type: "lobby"; readonly signups: readonly Signup[]; readonly summary: PublicSummary }
  /** The phase clock and what it shows: a deadline moved, a pause, the night's intake closed (G10). */
  | {
      readonly type: "clock";
      readonly clock: Clock;
      readonly notices: readonly string[];
      readonly summary: PublicSummary;
      readonly you?: YourState;
    }
  /** A vote (V1, V2): today's votes and the public count (V4: each shown as 1). */
  | {
      readonly type: "vote";
      readonly votes: GameView["votes"];
      readonly voteCount: VoteCount | null;
      readonly you?: YourState;
    }
  /** A phase change or another public change of the table: the public half whole. */
  | { readonly type: "phase"; readonly state: PublicState; readonly you?: YourState }
  /** A change only the viewer may see: a submission, a check's result, a strike, the GM's table. */
  | { readonly type: "you"; readonly you: YourState };

export type StreamItemType = StreamItem["type"];

/** The asking user's place from the signups (GameDetail.me.kind and summary.mine) for one who holds no seat. */
function placeOf(signups: readonly Signup[], nick: string | null): "signedUp" | "reserve" | "none" {
  const s = nick === null ? undefined : signups.find((x) => x.nick === nick);
  return s === undefined ? "none" : s.reserve ? "reserve" : "signedUp";
}

const withSummary = (summary: PublicSummary, mine: GameSummary["mine"]): GameSummary => ({
  ...summary,
  mine,
});

/** The view with the viewer's own half put over the public half. */
function viewOf(pub: GameView | null, you: YourState | null, held: GameView | null): GameView | null {
  if (pub === null) return null;
  if (you === null) {
    // A public viewer: the public view is the whole view. A player or the GM whose item carries no `you`
    // keeps its own half from what it holds.
    if (held === null || held.viewer.kind === "public") return pub;
    return {
      ...pub,
      viewer: held.viewer,
      seats: pub.seats.map((s) => ({ ...s, role: s.role ?? held.seats[s.seat]?.role ?? null })),
      me: held.me,
      submissions: held.submissions,
      privateResults: held.privateResults,
    };
  }
  return {
    ...pub,
    viewer: you.viewer,
    seats: pub.seats.map((s) => ({ ...s, role: you.roles[s.seat] ?? s.role })),
    me: you.me,
    submissions: you.submissions,
    privateResults: you.privateResultsView,
  };
}

/**
 * Apply one stream item to the detail a client holds, with `id` the item's place in the viewer's stream.
 * Returns the new detail (the same object when nothing changed), or null when the item cannot be applied
 * to it: the channels the viewer belongs to changed (a channel's history is not in the stream), or the
 * item is of a type this client does not know (a newer server); a client treats either as a reset. `nick`
 * is the signed-in user's (null for a guest): a user without a seat finds their own place in the signups.
 */
export function applyStreamItem(
  detail: GameDetail,
  id: number,
  item: StreamItem,
  nick: string | null,
): GameDetail | null {
  const at = { streamAt: id };
  switch (item.type) {
    case "post":
    case "postHidden":
      return { ...detail, ...at };
    case "message": {
      const m = item.message;
      let found = false;
      const channels = detail.channels.map((c) => {
        if (c.id !== m.channel) return c;
        found = true;
        if (c.messages.some((x) => x.id === m.id)) return c;
        return { ...c, messages: [...c.messages, m] };
      });
      if (!found) return null;
      return { ...detail, channels, ...at };
    }
    case "lobby":
      return { ...withSignups(detail, item.signups, item.summary, nick), ...at };
    case "clock": {
      const next: GameDetail = {
        ...detail,
        clock: item.clock,
        notices: item.notices,
        summary: withSummary(item.summary, detail.summary.mine),
        ...at,
      };
      return item.you ? withYou(next, item.you) : next;
    }
    case "vote": {
      const view = detail.view === null ? null : { ...detail.view, votes: item.votes };
      const next: GameDetail = { ...detail, view, voteCount: item.voteCount, ...at };
      return item.you ? withYou(next, item.you) : next;
    }
    case "phase": {
      const s = item.state;
      const you = item.you ?? null;
      const next: GameDetail = {
        ...withSignups(detail, s.signups, s.summary, nick),
        clock: s.clock,
        notices: s.notices,
        commitment: s.commitment,
        view: viewOf(s.view, you, detail.view),
        voteCount: s.voteCount,
        announcements: s.announcements,
        stall: s.stall,
        ...at,
      };
      return you ? withYou(next, you) : next;
    }
    case "you":
      return withYou({ ...detail, ...at }, item.you);
    default: {
      // A type this client does not know (a newer server): it starts again from a fresh detail, as after
      // a reset. The compiler still lists every known type above.
      const unknown: never = item;
      void unknown;
      return null;
    }
  }
}

/** The detail with the signups and the summary replaced, and the user's own place found in the signups. */
function withSignups(
  detail: GameDetail,
  signups: readonly Signup[],
  summary: PublicSummary,
  nick: string | null,
): GameDetail {
  const kind =
    detail.me.kind === "gm" || detail.me.kind === "player" ? detail.me.kind : placeOf(signups, nick);
  return { ...detail, signups, summary: withSummary(summary, kind), me: { ...detail.me, kind } };
}

/** The detail with the viewer's own half replaced; null when the channels the viewer belongs to changed. */
function withYou(detail: GameDetail, you: YourState): GameDetail | null {
  const held = detail.channels;
  if (held.length !== you.channels.length || held.some((c, i) => c.id !== you.channels[i]!.id)) return null;
  const view = detail.view === null ? null : viewOf(detail.view, you, null);
  return {
    ...detail,
    view,
    form: you.form,
    privateResults: you.privateResults,
    channels: held.map((c, i) =>
      c.canPost === you.channels[i]!.canPost ? c : { ...c, canPost: you.channels[i]!.canPost },
    ),
    gm: you.gm,
  };
}
