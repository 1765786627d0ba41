import {
  eventsSeenBy,
  foldView,
  mayReach,
  type GameView,
  type RoleId,
  type SeenEvents,
  type Viewer,
} from "@forum-mafia/engine";
import type { FeedEntry, Room } from "./room.ts";

/**
 * What one viewer may see of a room's game: the one bridge from a room's match to what is sent (STYLE.md,
 * "Secrets"). The response builders (views.ts) take a Seen and may not read the match (a lint rule in
 * eslint.config.js); only the GM's builders (gm-views.ts) read the state, which the GM may see whole.
 */
export interface Seen {
  /** Who the view is for: the GM's once the game is over (R3). */
  readonly viewer: Viewer;
  /** The events this viewer may see, and the view folded from them. */
  readonly events: SeenEvents;
  readonly view: GameView;
  /** What everyone sees: the results (A1, A3) and the vote count (V2) are built from these. */
  readonly publicEvents: SeenEvents;
  readonly publicView: GameView;
  /** The game's role list, sorted, with no seats: public, as a forum game announces it (readings.md). */
  readonly roleList: readonly RoleId[];
}

/** R3: when the game is over everyone sees what the GM saw (every role, action and roll). */
function effective(room: Room, viewer: Viewer): Viewer {
  return room.status === "ended" ? { kind: "gm" } : viewer;
}

export function seenBy(room: Room, viewer: Viewer): Seen | null {
  if (!room.match) return null;
  const roles = room.roles;
  const who = effective(room, viewer);
  const events = eventsSeenBy(room.events, who, roles);
  const view = foldView(events, who);
  // The public events and view are read only by some builders (the count, the results): worked out on
  // first use, once, and never for a bot's move or a view alone.
  let publicEvents: SeenEvents | null = who.kind === "public" ? events : null;
  let publicView: GameView | null = who.kind === "public" ? view : null;
  const pub = (): SeenEvents => (publicEvents ??= eventsSeenBy(room.events, { kind: "public" }, roles));
  return {
    viewer: who,
    events,
    view,
    get publicEvents() {
      return pub();
    },
    get publicView() {
      return (publicView ??= foldView(pub(), { kind: "public" }));
    },
    roleList: [...roles].sort(),
  };
}

/** Whether a feed entry goes to this viewer: its audience was fixed when it was appended (mayReach). */
export function mayReceive(room: Room, entry: FeedEntry, viewer: Viewer): boolean {
  return mayReach(entry.audience, viewer, room.roles);
}
