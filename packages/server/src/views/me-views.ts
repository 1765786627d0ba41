import {
  factionOf,
  type DueReminder,
  type Faction,
  type MyGame,
  type MyGames,
  type Owed,
  type RoleId,
  type Winner,
} from "@forum-mafia/protocol";
import { owedBy } from "../game/owes.ts";
import { reminderTimes } from "../mail/reminder-times.ts";
import type { Room } from "../log/room.ts";
import { seenBy } from "./seen.ts";
import { viewerOf } from "./viewer.ts";
import { stallView, unreadView } from "./readouts.ts";

/**
 * Issue 15: «Мои игры» (GET /api/me/games), built for one user from what that user may see: the user's own
 * seat, signup place and moves (owes.ts), the unread counts of the thread and of the user's own channels,
 * and, once a game is over (R3: everything is public then), the user's role and result. Nothing here names
 * another player's role or move, or anything the user's own view does not hold.
 */

/** The user: the id finds the seat, the nick tells the user's own posts from a predecessor's (P4). */
export interface Me {
  readonly id: string;
  readonly nick: string;
}

/** What the reminders read: the user's offsets ("2h", "15m") and the server clock's now. */
export interface ReminderInput {
  readonly offsets: readonly string[];
  readonly now: number;
}

/** Which list of «Мои игры» a game goes in. */
export type MyList = "active" | "signups" | "hosting" | "finished";

/** One game's part of «Мои игры»: its list, its line, and the reminders due in it now. */
export interface MyPart {
  readonly list: MyList;
  readonly game: MyGame;
  readonly reminders: readonly DueReminder[];
}

/** W1: a side's result once the game is over; a draw is everyone's. */
export function resultOf(faction: Faction, winner: Winner | null): "won" | "lost" | "draw" | null {
  if (winner === null) return null;
  if (winner === "draw") return "draw";
  return winner === faction ? "won" : "lost";
}

/** R3: every seat's role, from the public end of the game (gameEnded); null before the end. */
export function endRoles(room: Room): readonly RoleId[] | null {
  if (room.status !== "ended") return null;
  for (let i = room.events.length - 1; i >= 0; i--) {
    const e = room.events[i]!;
    if (e.type === "gameEnded") {
      const roles: RoleId[] = [];
      for (const m of e.roles) roles[m.seat] = m.role;
      return roles;
    }
  }
  return null;
}

/**
 * The seats a user held in a game and gave up to a substitute (P4), read from the public table: the names
 * at the start and each replacement. The seat the user holds now is not among them.
 */
export function replacedSeats(room: Room, nick: string): number[] {
  const out: number[] = [];
  for (const e of room.events) {
    if (e.type === "gameStarted")
      e.names.forEach((name, seat) => {
        if (name === nick) out.push(seat);
      });
    else if (e.type === "replaced" && e.newName === nick) out.push(e.seat);
  }
  return [...new Set(out)].filter((seat) => room.nameOf(seat) !== nick);
}

/** Where the user stands in a game, or null when nowhere that «Мои игры» lists. */
function placeOf(
  room: Room,
  me: Me,
): { mine: MyGame["mine"]; list: MyList; seat: number | null; place: number | null } | null {
  const ended = room.status === "ended";
  if (room.gmId === me.id)
    return { mine: "gm", list: ended ? "finished" : "hosting", seat: null, place: null };
  const seat = room.seatOf(me.id);
  if (seat !== null) return { mine: "player", list: ended ? "finished" : "active", seat, place: null };
  if (ended) {
    const gone = replacedSeats(room, me.nick)[0];
    return gone === undefined ? null : { mine: "replaced", list: "finished", seat: gone, place: null };
  }
  const i = room.signups.findIndex((s) => s.userId === me.id);
  if (i < 0) return null;
  if (room.status === "signup")
    return {
      mine: i < room.settings.seats ? "signedUp" : "reserve",
      list: "signups",
      seat: null,
      place: i + 1,
    };
  // Running: the reserve counts after the seats.
  return { mine: "reserve", list: "signups", seat: null, place: room.seatUsers.length + i + 1 };
}

/** Unread posts in the thread and messages in the user's own channels, from the user's read marks. */
function unreadTotals(room: Room, me: Me, marks: Readonly<Record<string, number>>): MyGame["unread"] {
  const u = unreadView(room, viewerOf(room, me.id), { nick: me.nick, marks });
  return { thread: u.thread.unread, channels: u.channels.reduce((n, c) => n + c.unread, 0) };
}

/**
 * The reminders in one game for what is owed, from the phase's reminder times (reminderTimes, with the
 * user's offsets), while its deadline has not passed: `due`, those due now (once now has reached the first
 * time; the key names the latest time reached, so a client shows each reminder once and the next one
 * again), and `next`, when the next one falls (issue 32: the app asks again then), null when none is left.
 */
function remindersOf(
  room: Room,
  owes: readonly Owed[],
  input: ReminderInput,
): { due: DueReminder[]; next: number | null } {
  const phase = room.phase;
  const deadline = room.clock().deadline;
  if (room.status !== "running" || phase === null || deadline === null || input.now >= deadline)
    return { due: [], next: null };
  const times = reminderTimes(room.phaseStart, deadline, input.offsets);
  const next = owes.length === 0 ? null : (times.find((t) => t > input.now) ?? null);
  const reached = times.filter((t) => t <= input.now);
  const at = reached[reached.length - 1];
  if (at === undefined) return { due: [], next };
  const due = owes.map((owed) => ({
    key: `${room.id}:${phase.kind}-${phase.number}:${owed}:${at}`,
    gameId: room.id,
    title: room.title,
    owes: owed,
    phase,
    deadline,
  }));
  return { due, next };
}

/** Issue 28: whether the game has stalled, from the public view (the same as the game page's). */
function stallOf(room: Room): MyGame["stall"] {
  const pub = seenBy(room, { kind: "public" });
  return pub === null ? null : stallView(room, pub.publicView);
}

/** One game's part of «Мои игры» for this user, or null when the user has no place in it. */
export function myPart(
  room: Room,
  me: Me,
  marks: Readonly<Record<string, number>>,
  input: ReminderInput,
): MyPart | null {
  const at = placeOf(room, me);
  if (at === null) return null;
  const running = room.status === "running";
  const owes = running && (at.mine === "player" || at.mine === "gm") ? owedBy(room, me.id) : [];
  // The GM owes nothing by day, but is reminded that the day is about to close.
  const remind: Owed[] =
    at.mine === "gm" && running && room.phase?.kind === "day" ? [...owes, "dayClosing"] : owes;
  const reminders = remindersOf(room, remind, input);
  const roles = endRoles(room);
  const role = at.seat !== null && roles !== null ? (roles[at.seat] ?? null) : null;
  const winner = room.status === "ended" ? room.winner : null;
  const game: MyGame = {
    id: room.id,
    title: room.title,
    gm: room.gmNick,
    status: room.status,
    phase: running ? room.phase : null,
    deadline: running ? room.clock().deadline : null,
    paused: running && room.paused,
    mine: at.mine,
    seat: at.seat,
    place: at.place,
    signedUp: room.status === "signup" ? room.signups.length : room.seatUsers.length,
    seats: room.settings.seats,
    owes,
    nextReminder: reminders.next,
    // Issue 28: from the public results, as the game page shows it.
    stall: running ? stallOf(room) : null,
    unread: unreadTotals(room, me, marks),
    role,
    winner,
    result: role === null ? null : resultOf(factionOf(role), winner),
  };
  return { list: at.list, game, reminders: reminders.due };
}

/** «Мои игры» from the parts of the games, given newest first; the reminders soonest deadline first. */
export function myGames(
  parts: readonly MyPart[],
  quiet: boolean,
  roleNames: MyGames["roleNames"],
  now: number,
): MyGames {
  const of = (list: MyList): MyGame[] => parts.filter((p) => p.list === list).map((p) => p.game);
  return {
    active: of("active"),
    signups: of("signups"),
    hosting: of("hosting"),
    finished: of("finished"),
    reminders: parts.flatMap((p) => p.reminders).sort((a, b) => (a.deadline ?? 0) - (b.deadline ?? 0)),
    now,
    quiet,
    roleNames,
  };
}
