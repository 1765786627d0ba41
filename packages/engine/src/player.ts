import type { RoleId } from "./roles.ts";

/** A seat at the table: the index into GameState.players. A replacement (P4) keeps the seat. */
export type Seat = number;

export interface Player {
  readonly name: string;
  readonly role: RoleId;
  readonly alive: boolean;
  /** P1 strikes (votes) and P2 strikes (night actions); P3 adds them up or not, per GameOptions.strikes. */
  readonly voteStrikes: number;
  readonly nightStrikes: number;
  /**
   * G5, F2 (issue 31): strikes the GM (or the game's G5 policy) gave for swearing or insults. P3 counts them
   * with the others when strikes are shared, and on their own when separate (docs/readings.md).
   */
  readonly conductStrikes: number;
}

/** `Маша (girl)`: how refusals name a player, with the role the player knows as their own. */
export const playerLabel = (p: Player): string => `${p.name} (${p.role})`;

/**
 * A player with some fields changed. Written out field by field rather than with `{ ...p }`: object
 * spread costs about 20 times as much on Node 20, and this runs for every death and strike.
 */
export function withPlayer(p: Player, change: Partial<Player>): Player {
  return {
    name: change.name ?? p.name,
    role: change.role ?? p.role,
    alive: change.alive ?? p.alive,
    voteStrikes: change.voteStrikes ?? p.voteStrikes,
    nightStrikes: change.nightStrikes ?? p.nightStrikes,
    conductStrikes: change.conductStrikes ?? p.conductStrikes,
  };
}

/** The names last keyed, and their keys: the same names come back game after game (a cache, bounded). */
const KEYS = new Map<string, string>();

/** Names are compared case-insensitively with ё = е (REPLAY.md, "players"). */
export function nameKey(name: string): string {
  let key = KEYS.get(name);
  if (key === undefined) {
    key = keyOf(name);
    if (KEYS.size >= 1024) KEYS.clear();
    KEYS.set(name, key);
  }
  return key;
}

function keyOf(name: string): string {
  // Latin and Cyrillic letters without combining marks are already in NFC: skip the costly normalize.
  const lower = (ALREADY_NFC.test(name) ? name : name.normalize("NFC")).toLowerCase();
  return lower.includes("ё") ? lower.replace(/ё/g, "е") : lower;
}

// eslint-disable-next-line no-control-regex -- the whole range from U+0000 is meant
const ALREADY_NFC = /^[\u0000-\u02ff\u0400-\u0482\u048a-\u04ff]*$/;

/** Sort by Unicode code point (REPLAY.md, "Output"), not by UTF-16 unit. */
export function compareCodePoints(a: string, b: string): number {
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}
