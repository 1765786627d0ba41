import type { GameOptions } from "./options.ts";
import type { Player } from "./player.ts";

/** P3: does this player's latest strike make a second one (shared or separate counting)? */
export function struckOut(player: Player, options: GameOptions): boolean {
  return options.strikes === "shared"
    ? player.voteStrikes + player.nightStrikes >= 2
    : player.voteStrikes >= 2 || player.nightStrikes >= 2;
}
