import {
  eventsSeenBy,
  mayReach,
  ViewFold,
  type GameEvent,
  type GameView,
  type RoleId,
  type SeenEvents,
  type Viewer,
} from "@forum-mafia/engine";
import type { FeedEntry, Room } from "../log/room.ts";
import { viewerKey } from "./viewer.ts";

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

/**
 * Issue 19: each room keeps its viewers' views folded as the game goes on (the engine's ViewFold: only the
 * events not read yet are folded), and the Seen built for each viewer until the next event, so a detail
 * or a stream item costs the events since the last one, not the whole game. The players' folds share the
 * public fold's lists (votes, past votes, results), as the bots' do.
 */
interface Folds {
  readonly roles: readonly RoleId[];
  readonly pub: ViewFold;
  readonly gm: ViewFold;
  readonly seats: Map<number, ViewFold>;
  /** The Seen of each (effective) viewer, built when the room had `events` events. */
  readonly seen: Map<string, { readonly events: number; readonly seen: Seen }>;
}

const FOLDS = new WeakMap<Room, Folds>();

function foldsOf(room: Room): Folds {
  let f = FOLDS.get(room);
  // A room's deal is fixed once its match exists (S1), so one set of folds serves it from then on.
  if (!f || f.roles !== room.roles) {
    const roles = room.roles;
    const pub = new ViewFold({ kind: "public" }, roles);
    f = { roles, pub, gm: new ViewFold({ kind: "gm" }, roles), seats: new Map(), seen: new Map() };
    FOLDS.set(room, f);
  }
  return f;
}

/** The viewer's view of the room's events so far, folded only from what was not folded before. */
function viewNow(room: Room, f: Folds, who: Viewer): GameView {
  f.pub.add(room.events);
  if (who.kind === "public") return f.pub.view();
  if (who.kind === "gm") {
    f.gm.add(room.events);
    return f.gm.view();
  }
  let fold = f.seats.get(who.seat);
  if (!fold) f.seats.set(who.seat, (fold = new ViewFold(who, f.roles, f.pub)));
  fold.add(room.events);
  return fold.view();
}

export function seenBy(room: Room, viewer: Viewer): Seen | null {
  if (!room.match) return null;
  const who = effective(room, viewer);
  const f = foldsOf(room);
  const key = viewerKey(who);
  const kept = f.seen.get(key);
  if (kept && kept.events === room.events.length) return kept.seen;
  const roles = f.roles;
  const view = viewNow(room, f, who);
  const publicView = who.kind === "public" ? view : viewNow(room, f, { kind: "public" });
  // The events themselves are read only by some builders (the results): chosen on first use, once.
  const src = room.events;
  const n = src.length;
  const upToNow = (): readonly GameEvent[] => (src.length === n ? src : src.slice(0, n));
  let events: SeenEvents | null = null;
  let publicEvents: SeenEvents | null = null;
  const seen: Seen = {
    viewer: who,
    get events() {
      return (events ??= eventsSeenBy(upToNow(), who, roles));
    },
    view,
    get publicEvents() {
      return (publicEvents ??=
        who.kind === "public" ? this.events : eventsSeenBy(upToNow(), { kind: "public" }, roles));
    },
    publicView,
    roleList: [...roles].sort(),
  };
  f.seen.set(key, { events: room.events.length, seen });
  return seen;
}

/** Whether a feed entry goes to this viewer: its audience was fixed when it was appended (mayReach). */
export function mayReceive(room: Room, entry: FeedEntry, viewer: Viewer): boolean {
  return mayReach(entry.audience, viewer, room.roles);
}
