import { channelsFor } from "@forum-mafia/engine";
import type { ChannelId } from "@forum-mafia/protocol";
import type { Room } from "../log/room.ts";

export interface ChannelAccess {
  readonly id: ChannelId;
  readonly canPost: boolean;
}

/** The channels a seat belongs to (S2, G8) and its own channel with the GM. */
export function channelsOf(room: Room, seat: number): ChannelAccess[] {
  const list: ChannelAccess[] = channelsFor(room.match!.state, seat).map((m) => ({
    id: m.channel,
    canPost: m.canPost,
  }));
  list.push({ id: `gm:${seat}`, canPost: true });
  return list;
}
