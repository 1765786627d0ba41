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
}

/** Names are compared case-insensitively with ё = е (REPLAY.md, "players"). */
export function nameKey(name: string): string {
  return name.normalize("NFC").toLowerCase().replace(/ё/g, "е");
}

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
