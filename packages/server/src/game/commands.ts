import type { Games } from "../log/games.ts";
import { Conduct } from "./conduct.ts";
import { Gm } from "./gm.ts";
import { Play } from "./play.ts";
import { Signups } from "./signups.ts";

/**
 * Issue 29: the game commands, beside the log keeper (log/games.ts) that commits them. They hold no state
 * of their own, so any number of them over one keeper act as one.
 */
export interface Commands {
  readonly signups: Signups;
  readonly play: Play;
  readonly gm: Gm;
  /** G5 (issue 31): the GM's measures on flagged posts and messages. */
  readonly conduct: Conduct;
}

export function commandsOf(games: Games): Commands {
  return {
    signups: new Signups(games),
    play: new Play(games),
    gm: new Gm(games),
    conduct: new Conduct(games),
  };
}
