import type { Viewer } from "@forum-mafia/engine";
import type { Room } from "../log/room.ts";
import { mayReceive } from "../views/seen.ts";
import { viewerKey } from "../views/viewer.ts";

/**
 * Issue 19: where each viewer's own stream stands. A viewer's stream holds the room's feed items that
 * viewer may receive, numbered 1, 2, 3… (stream.ts); how many there are is kept per viewer as the feed
 * grows, so a detail's `streamAt` costs the items since the last count, not a walk over the whole feed.
 */
interface Count {
  /** The feed entries counted so far, and how many of them the viewer receives. */
  upTo: number;
  n: number;
}

const COUNTS = new WeakMap<Room, Map<string, Count>>();

/** How many of the room's feed items (all of them, applied so far) this viewer's stream holds. */
export function streamLength(room: Room, viewer: Viewer): number {
  let byViewer = COUNTS.get(room);
  if (!byViewer) COUNTS.set(room, (byViewer = new Map()));
  const key = viewerKey(viewer);
  let c = byViewer.get(key);
  if (!c) byViewer.set(key, (c = { upTo: 0, n: 0 }));
  const to = room.feed.length;
  for (let i = c.upTo; i < to; i++) if (mayReceive(room, room.feed[i]!, viewer)) c.n++;
  c.upTo = to;
  return c.n;
}

/**
 * The feed index where the viewer's stream item number `after` + 1 is (room.feed.length when the viewer
 * has had everything): read back from the end, so a client resuming after a short break costs only what
 * it missed.
 */
export function feedIndexAfter(room: Room, viewer: Viewer, after: number): number {
  let n = streamLength(room, viewer);
  if (after >= n) return room.feed.length;
  let i = room.feed.length;
  while (n > after) {
    i--;
    if (mayReceive(room, room.feed[i]!, viewer)) n--;
  }
  return i;
}
