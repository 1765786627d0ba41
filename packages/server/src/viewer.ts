import type { Room } from "./room.ts";

/** Who is looking at a game: its GM, the player in a seat, or anyone else (spectators, the public). */
export type Viewer =
  { readonly kind: "gm" } | { readonly kind: "player"; readonly seat: number } | { readonly kind: "public" };

export function viewerOf(room: Room, userId: string | null): Viewer {
  if (userId !== null && userId === room.gmId) return { kind: "gm" };
  const seat = userId === null ? null : room.seatOf(userId);
  return seat === null ? { kind: "public" } : { kind: "player", seat };
}
