import { nickKey } from "@forum-mafia/forum";
import type { GameSummary } from "@forum-mafia/protocol";
import type { PublicSummary } from "@forum-mafia/protocol/stream";
import type { Room } from "./room.ts";
import { publicSummary } from "../views/summary.ts";

/**
 * Issue 20: what the lists need of a finished game, kept with it in the store (`Store.saveGameMeta`) when it
 * ends. A start reads these instead of the finished games' logs: such a game's room is built from its log
 * the first time a request needs it (its page, or the lists of a user who was in it).
 */
export interface Archived {
  readonly v: 1;
  readonly summary: PublicSummary;
  readonly gmId: string;
  /** The seats' holders at the end, by id. */
  readonly seatUsers: readonly string[];
  /** Everyone signed up (the reserve included), by id. */
  readonly signups: readonly string[];
  /** The nick key of everyone who ever held a seat (a replaced player's place is found by nick: P4). */
  readonly nicks: readonly string[];
  /** A demo game (issue 12): listed only for those in it, and on nobody's record. */
  readonly demo: boolean;
}

export function archiveOf(room: Room, demo: boolean): Archived {
  const nicks = new Set<string>();
  for (const e of room.events) {
    if (e.type === "gameStarted") for (const name of e.names) nicks.add(nickKey(name));
    else if (e.type === "replaced") nicks.add(nickKey(e.newName));
  }
  return {
    v: 1,
    summary: publicSummary(room),
    gmId: room.gmId,
    seatUsers: [...room.seatUsers],
    signups: room.signups.map((s) => s.userId),
    nicks: [...nicks],
    demo,
  };
}

/** The stored text read back; null when it is not this version's (the game is then read from its log). */
export function parseArchived(meta: string): Archived | null {
  try {
    const a = JSON.parse(meta) as Partial<Archived> | null;
    return a?.v === 1 && a.summary?.status === "ended" ? (a as Archived) : null;
  } catch {
    return null;
  }
}

/** Whether the user has a place in the game: its GM, a player (now or replaced), a signup. */
export function involves(a: Archived, user: { readonly id: string; readonly nick: string }): boolean {
  return (
    a.gmId === user.id ||
    a.seatUsers.includes(user.id) ||
    a.signups.includes(user.id) ||
    a.nicks.includes(nickKey(user.nick))
  );
}

/** The lobby's line (`summaryOf` for a room): the asking user's place as `mineOf` reads it after the end. */
export function archivedSummary(a: Archived, userId: string | null): GameSummary {
  const mine: GameSummary["mine"] =
    userId === null
      ? "none"
      : a.gmId === userId
        ? "gm"
        : a.seatUsers.includes(userId)
          ? "player"
          : a.signups.includes(userId)
            ? "reserve"
            : "none";
  return { ...a.summary, mine };
}

/** Whether the lobby lists it for the user: a demo only for those in it (Demo.listed). */
export function archivedListed(a: Archived, userId: string | null): boolean {
  return !a.demo || (userId !== null && (a.seatUsers.includes(userId) || a.signups.includes(userId)));
}
