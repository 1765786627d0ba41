import type { PublicSummary } from "@forum-mafia/protocol/stream";
import type { Room } from "../log/room.ts";

/**
 * The game's summary as everyone sees it, without the asking user's place: the lobby's line (views.ts,
 * `summaryOf`), the public half of the live stream, and a finished game's kept summary (archive.ts).
 */
export function publicSummary(room: Room): PublicSummary {
  return {
    id: room.id,
    title: room.title,
    gm: room.gmNick,
    status: room.status,
    phase: room.status === "running" ? room.phase : null,
    signedUp: room.status === "signup" ? room.signups.length : room.seatUsers.length,
    seats: room.settings.seats,
    winner: room.winner,
    deadline: room.status === "running" ? room.clock().deadline : null,
  };
}
