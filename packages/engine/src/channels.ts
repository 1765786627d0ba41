import type { Seat } from "./player.ts";
import { inPair, isMafia } from "./roles.ts";
import type { GameState } from "./state.ts";

/**
 * The private channels between players (S2, G6, G8). Players may talk privately only inside these; the
 * channel between each player and the GM belongs to the server.
 */
export type Channel = "mafia" | "pair" | "spectators";

export interface Membership {
  readonly channel: Channel;
  /** G7: the dead cannot write in any channel of the living. */
  readonly canPost: boolean;
}

export function channelsFor(state: GameState, seat: Seat): Membership[] {
  const p = state.players[seat];
  if (!p) return [];
  const out: Membership[] = [];
  const pair = inPair(p.role);
  if (isMafia(p.role)) out.push({ channel: "mafia", canPost: p.alive }); // S2
  if (pair) out.push({ channel: "pair", canPost: p.alive }); // S2
  // G8: the dead outside a faction chat may join the spectators' room; factions never share a channel.
  if (!p.alive && !isMafia(p.role) && !pair) out.push({ channel: "spectators", canPost: true });
  return out;
}

/** Who belongs to a channel now (readers, the dead included where they stay members). */
export function channelMembers(state: GameState, channel: Channel): Seat[] {
  const out: Seat[] = [];
  for (let i = 0; i < state.players.length; i++)
    if (channelsFor(state, i).some((m) => m.channel === channel)) out.push(i);
  return out;
}
