import { factionOf, type Faction, type ProfileView } from "@forum-mafia/protocol";
import { endRoles, replacedSeats, resultOf } from "./me-views.ts";
import type { Room } from "../log/room.ts";
import { seenBy } from "./seen.ts";

/**
 * Issue 15: a player's record (GET /api/users/:nick), from ended games only: R3 makes everything in them
 * public. A running game adds nothing, not even that the user plays in it.
 */

type ProfileGame = ProfileView["games"][number];

/** One ended game's part of a profile: the user's line in it (a player's), and whether the user was its GM. */
export interface ProfilePart {
  readonly game: ProfileGame | null;
  readonly hosted: boolean;
}

const FACTIONS: readonly Faction[] = ["town", "mafia", "maniac"];

/** P1, P2: the strikes of a seat in the events from `from` up to (not including) `to`. */
function strikesIn(room: Room, seat: number, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const e = room.events[i]!;
    if (e.type === "strike" && e.seat === seat) n++;
  }
  return n;
}

/** P3, F2: whether a seat was modkilled, as the results announced it. */
function modkilledSeat(room: Room, seat: number): boolean {
  return room.events.some(
    (e) => (e.type === "nightResults" || e.type === "dayResults") && e.modkilled.includes(seat),
  );
}

/**
 * A substitute's predecessor (P4): the events of the user's time in the seat, from the start (or the
 * user's own arrival as a substitute) to the replacement that took it over.
 */
function tenure(room: Room, seat: number, nick: string): { from: number; to: number } {
  let from = 0;
  let to = room.events.length;
  room.events.forEach((e, i) => {
    if (e.type !== "replaced" || e.seat !== seat) return;
    if (e.newName === nick) from = i;
    else if (e.oldName === nick && i >= from) to = i;
  });
  return { from, to };
}

/** The user's line in one ended game, or null when the user held no seat in it. */
function gameLine(room: Room, userId: string, nick: string): ProfileGame | null {
  const roles = endRoles(room);
  if (roles === null) return null;
  const held = room.seatOf(userId);
  const gone = replacedSeats(room, nick);
  const seat = held ?? gone[gone.length - 1];
  if (seat === undefined) return null;
  const role = roles[seat];
  if (role === undefined) return null;
  const faction = factionOf(role);
  const winner = room.winner;
  const replaced = held === null;
  const span = replaced ? tenure(room, seat, nick) : { from: 0, to: room.events.length };
  // R3: after the end the view is the GM's, every seat's fate in it.
  const alive = seenBy(room, { kind: "public" })?.view.seats[seat]?.alive ?? false;
  return {
    id: room.id,
    title: room.title,
    role,
    faction,
    winner,
    result: resultOf(faction, winner) ?? "draw",
    // A player who left the seat to a substitute was not at the table at the end, alive or dead.
    survived: !replaced && alive,
    modkilled: !replaced && modkilledSeat(room, seat),
    strikes: strikesIn(room, seat, span.from, span.to),
    replaced,
  };
}

/** One game's part of the profile; null unless the game has ended and the user played or hosted it. */
export function profilePart(
  room: Room,
  user: { readonly id: string; readonly nick: string },
): ProfilePart | null {
  if (room.status !== "ended") return null;
  if (room.gmId === user.id) return { game: null, hosted: true };
  const game = gameLine(room, user.id, user.nick);
  return game === null ? null : { game, hosted: false };
}

/** The profile from the parts of the ended games, given newest first. */
export function profileView(
  user: { readonly nick: string; readonly createdAt: number },
  parts: readonly ProfilePart[],
  roleNames: ProfileView["roleNames"],
): ProfileView {
  const games = parts.flatMap((p) => (p.game ? [p.game] : []));
  return {
    nick: user.nick,
    since: user.createdAt,
    games,
    byFaction: FACTIONS.flatMap((faction) => {
      const mine = games.filter((g) => g.faction === faction);
      return mine.length === 0
        ? []
        : [{ faction, played: mine.length, won: mine.filter((g) => g.result === "won").length }];
    }),
    strikes: games.reduce((n, g) => n + g.strikes, 0),
    modkills: games.filter((g) => g.modkilled).length,
    hosted: parts.filter((p) => p.hosted).length,
    roleNames,
  };
}
