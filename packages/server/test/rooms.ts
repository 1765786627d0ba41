// A game room built in memory from log entries, as Games rebuilds one, for the tests of the response
// builders (views-builders.test.ts) and of who receives what (secrets.test.ts).
import type { RoleId } from "@forum-mafia/engine";
import { DEFAULT_OPTIONS, type GameSettings } from "@forum-mafia/protocol";
import type { Entry, EntryBody } from "../src/log/entries.ts";
import { Room } from "../src/log/room.ts";
import type { Viewer } from "../src/views/viewer.ts";

export const SETTINGS: GameSettings = {
  night: { amount: 24, unit: "hours" },
  day: { amount: 24, unit: "hours" },
  dayDeadline: null,
  timeZone: "Europe/Moscow",
  options: DEFAULT_OPTIONS,
  mode: "automatic",
  roles: ["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"],
  seats: 6,
  g5: { policy: "off", strikes: true },
};

/** The table, seat by seat: two mafia, the sheriff and the sergeant, the doctor and a citizen. */
export const HAND: readonly RoleId[] = ["boss", "thug", "sheriff", "sergeant", "doctor", "citizen"];
export const NAMES = ["Босс", "Громила", "Шериф", "Сержант", "Доктор", "Мирный"];
export const BOSS = 0;
export const THUG = 1;
export const SHERIFF = 2;
export const SERGEANT = 3;
export const DOCTOR = 4;
export const CITIZEN = 5;

export const GM: Viewer = { kind: "gm" };
export const PUBLIC: Viewer = { kind: "public" };
export const player = (seat: number): Viewer => ({ kind: "player", seat });

export const HOUR = 3_600_000;
let at = Date.UTC(2026, 11, 1, 9, 0);
/** The time the next entry will carry (each entry takes the next millisecond). */
export const nextAt = (): number => at;
export const entry = (body: EntryBody): Entry => ({ at: at++, ...body }) as Entry;
/** A seat's night move, applied to the room as its log entry. */
export const act = (room: Room, seat: number, action: Extract<EntryBody, { kind: "act" }>["action"]): void =>
  room.apply(entry({ kind: "act", seat, action }));

/** A room in signup: created, with `n` players signed up (u0, u1, …), the first six by the names above. */
export function signupRoom(n = 6, settings: GameSettings = SETTINGS): Room {
  const room = new Room("builders");
  room.apply(entry({ kind: "created", gmId: "gm", gmNick: "Ведущий", title: "Сборка", settings }));
  for (let i = 0; i < n; i++)
    room.apply(entry({ kind: "signup", userId: `u${i}`, nick: NAMES[i] ?? `Запасной${i}` }));
  return room;
}

/** A running room, night 1: the hand above dealt to u0…u5; a seventh signup (u6) is left in the reserve. */
export function runningRoom(reserve = 0): Room {
  const room = signupRoom(6 + reserve);
  room.apply(entry({ kind: "started", seed: "seed-of-builders", hand: HAND }));
  return room;
}
