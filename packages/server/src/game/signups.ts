import { checkNewName } from "@forum-mafia/engine";
import type { CreateGame, RoleId } from "@forum-mafia/protocol";
import { nanoid } from "nanoid";
import type { EntryBody } from "../log/entries.ts";
import type { Games } from "../log/games.ts";
import type { IdempotencyMark } from "../log/idempotency.ts";
import type { Room } from "../log/room.ts";
import { badRequest, conflict, notFound, refused } from "../http/errors.ts";
import type { UserRecord } from "../stores/store.ts";
import { mustBeGm, mustRun } from "./gm.ts";

/**
 * Issue 29: the commands that fill a game's seats: a new game, signups and withdrawals, the start, and the
 * GM's replacement of a player (P4). Each is decided against the room and committed through the log keeper.
 */
export class Signups {
  constructor(private readonly games: Games) {}

  /**
   * A new game. A demo game (issue 12) is created, its players signed up and the game started in one
   * commit: the log holds all of it or none, so a failure part-way never leaves a game in signup.
   */
  async create(
    user: UserRecord,
    body: CreateGame,
    demo?: { readonly players: readonly UserRecord[]; readonly lang?: "ru" | "en" },
  ): Promise<string> {
    const id = nanoid(10);
    const created: EntryBody = {
      kind: "created",
      gmId: user.id,
      gmNick: user.nick,
      title: body.title,
      settings: {
        night: body.night,
        day: body.day,
        dayDeadline: body.dayDeadline,
        timeZone: user.timeZone,
        options: body.options,
        mode: body.mode,
        roles: body.roles,
        seats: body.roles.length,
        ...(body.g5 ? { g5: body.g5 } : {}),
      },
      ...(demo ? { demo: true } : {}),
      ...(demo?.lang === "en" ? { lang: "en" } : {}),
    };
    const bodies: EntryBody[] = [created];
    if (demo) {
      const ids = new Set(demo.players.map((p) => p.id));
      if (ids.size !== body.roles.length || ids.has(user.id))
        throw new Error(`a demo game needs ${body.roles.length} different players besides its GM`);
      for (const p of demo.players) bodies.push({ kind: "signup", userId: p.id, nick: p.nick });
      bodies.push({ kind: "started", seed: this.games.newSeed(), hand: null });
    }
    // The one commit path, as a new game (Games.commit: `opening`).
    await this.games.commit(id, () => bodies, null, true);
    return id;
  }

  async signup(user: UserRecord, id: string, idem: IdempotencyMark | null = null): Promise<void> {
    await this.games.commit(
      id,
      (room) => {
        // A demo game refuses signups before this (Demo.refuseSignup, which also knows the older demos).
        if (room.status !== "signup")
          throw conflict("game/started", "signups are closed: the game has started");
        if (room.gmId === user.id) throw conflict("signup/gm", "the GM cannot play in their own game");
        if (room.signups.some((s) => s.userId === user.id))
          throw conflict("signup/twice", "you have already signed up");
        return [{ kind: "signup", userId: user.id, nick: user.nick }];
      },
      idem,
    );
  }

  async withdraw(user: UserRecord, id: string, idem: IdempotencyMark | null = null): Promise<void> {
    await this.games.commit(
      id,
      (room) => {
        if (room.seatOf(user.id) !== null)
          throw conflict("game/started", "the game has started: ask the GM for a replacement (P4)", "P4");
        // Before the start anyone may withdraw; after it, the reserve list may still shrink.
        if (!room.signups.some((s) => s.userId === user.id))
          throw conflict("signup/none", "you are not signed up");
        return [{ kind: "withdraw", userId: user.id }];
      },
      idem,
    );
  }

  async start(user: UserRecord, id: string, deal: "random" | { hand: readonly RoleId[] }): Promise<void> {
    // F1: a fresh secret seed; its SHA-256 is published at once, the seed itself at the end. Drawn once,
    // so a retry after another instance's write deals the same.
    const seed = this.games.newSeed();
    await this.games.commit(id, (room) => {
      mustBeGm(user, room);
      return [{ kind: "started", seed, hand: checkStart(room, deal) }];
    });
  }

  async replace(
    user: UserRecord,
    id: string,
    seat: number,
    substitute: UserRecord,
    reason: string,
  ): Promise<void> {
    await this.games.commit(id, (room) => {
      mustRun(user, room);
      const state = room.match!.state;
      const p = state.players[seat];
      if (!p) throw notFound(`no seat ${seat}`);
      if (!p.alive)
        throw conflict("replace/dead", `${p.name} is dead: only a living player is replaced`, "P4");
      if (substitute.id === room.gmId) throw conflict("replace/gm", "the GM cannot take a seat", "P4");
      if (room.seatOf(substitute.id) !== null)
        throw conflict("replace/playing", `${substitute.nick} already plays in this game`, "P4");
      const bad = checkNewName(
        state.players.filter((_, i) => i !== seat),
        substitute.nick,
      );
      if (bad) throw refused(bad);
      return [{ kind: "replace", seat, userId: substitute.id, nick: substitute.nick, reason }];
    });
  }
}

/** S1, S3: whether the game can start with this deal; the hand dealt, or null for a random deal. */
function checkStart(room: Room, deal: "random" | { hand: readonly RoleId[] }): RoleId[] | null {
  if (room.status !== "signup") throw conflict("game/started", "the game has already started");
  const seats = room.settings.seats;
  if (room.signups.length < seats)
    throw conflict("start/seats", `the game needs ${seats} players and has ${room.signups.length}`, "S3");
  let hand: RoleId[] | null = null;
  if (deal !== "random") {
    if (deal.hand.length !== seats)
      throw badRequest("deal.hand", `deal.hand: expected ${seats} roles, one per seat`, "S1");
    // S1, S3: a hand deal gives out exactly the game's published role list, in any order.
    if (!sameMultiset(deal.hand, room.settings.roles))
      throw badRequest(
        "deal.hand",
        `deal.hand: the roles must be exactly the game's role list (${roleCounts(room.settings.roles)})`,
        "S3",
      );
    hand = [...deal.hand];
  }
  return hand;
}

/** Whether two role lists hold the same roles, each as many times, in any order. */
function sameMultiset(a: readonly RoleId[], b: readonly RoleId[]): boolean {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

/** A role list as counts, e.g. `boss, citizen ×4, doctor`, for messages. */
function roleCounts(roles: readonly RoleId[]): string {
  const counts = new Map<RoleId, number>();
  for (const r of [...roles].sort()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => (n > 1 ? `${r} ×${n}` : r)).join(", ");
}
