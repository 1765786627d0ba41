import type { Viewer } from "@forum-mafia/engine";
import type { Room } from "../log/room.ts";

/** The one Viewer type is the engine's: the GM, the player in a seat, or anyone else (spectators, the public). */
export type { Viewer };

export function viewerOf(room: Room, userId: string | null): Viewer {
  if (userId !== null && userId === room.gmId) return { kind: "gm" };
  const seat = userId === null ? null : room.seatOf(userId);
  return seat === null ? { kind: "public" } : { kind: "player", seat };
}

/** One string per viewer: the GM, a seat, or the public (the key of what is kept per viewer). */
export const viewerKey = (v: Viewer): string => (v.kind === "player" ? `seat:${v.seat}` : v.kind);
