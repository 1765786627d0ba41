import { checkModkill } from "@forum-mafia/engine";
import type { EntryBody } from "../log/entries.ts";
import type { Games } from "../log/games.ts";
import type { Room } from "../log/room.ts";
import { badRequest, conflict, forbidden, notFound, refused } from "../http/errors.ts";
import type { UserRecord } from "../stores/store.ts";
import { checkDraft, councilSuggestion } from "./draft.ts";

/**
 * Issue 29: the GM's commands (the clock, the night's review, modkills, hidden posts) and the scheduler's
 * deadline, each decided against the room and committed through the log keeper.
 */
export class Gm {
  constructor(private readonly games: Games) {}

  /** The room, for its GM only (403 for anyone else). */
  gmRoom(user: UserRecord, id: string): Room {
    return mustBeGm(user, this.games.room(id));
  }

  async extend(user: UserRecord, id: string, minutes: number): Promise<void> {
    await this.games.commit(id, (room) => {
      mustRun(user, room);
      if (room.deadline === null && room.remaining === null)
        throw conflict(
          "clock/no-deadline",
          "the phase has no deadline to extend: the night is awaiting your review",
        );
      return [{ kind: "extend", ms: minutes * 60_000 }];
    });
  }

  async pause(user: UserRecord, id: string): Promise<void> {
    await this.games.commit(id, (room) => {
      mustRun(user, room);
      if (room.paused) throw conflict("clock/paused", "the game is already paused");
      return [{ kind: "pause" }];
    });
  }

  async resume(user: UserRecord, id: string): Promise<void> {
    await this.games.commit(id, (room) => {
      mustRun(user, room);
      if (!room.paused) throw conflict("clock/not-paused", "the game is not paused");
      return [{ kind: "resume" }];
    });
  }

  /** Close the phase now (the GM), or at its deadline (the scheduler). */
  async closePhase(user: UserRecord, id: string): Promise<void> {
    await this.games.commit(id, (room) => {
      mustRun(user, room);
      if (room.resultsPending)
        throw conflict("night/pending", "the night is closed and awaits your review: publish it");
      return [phaseEnd(room)];
    });
  }

  /**
   * The scheduler: the deadline has come. Checked again against the log as it stands (issue 20: another
   * instance may have closed the phase, or a GM extended it), so a deadline fires once.
   */
  async deadlinePassed(id: string): Promise<void> {
    if (!this.games.rooms.has(id) && !this.games.store.shared) return;
    await this.games.commit(id, (room) => {
      if (room.status !== "running" || room.paused || room.deadline === null) return [];
      if (room.deadline > this.games.clock.now()) return [];
      return [phaseEnd(room)];
    });
  }

  /**
   * M2c, F2: the GM answers the council. For a question of the rules' list the rules' answer is the
   * suggestion: accepting it needs no reason; any other answer needs one, kept in the log with the answer.
   */
  async answerCouncil(
    user: UserRecord,
    id: string,
    answer: "yes" | "no" | "rejected",
    reason?: string,
  ): Promise<void> {
    await this.games.commit(id, (room) => {
      mustReview(user, room);
      const suggested = councilSuggestion(room);
      if (suggested !== null && answer !== suggested && !reason)
        throw badRequest(
          "reason",
          `reason: the rules answer "${suggested}" to this council question; a different answer needs a reason`,
          "F2",
        );
      return [{ kind: "council", answer, ...(reason ? { reason } : {}) }];
    });
  }

  async fixRolls(
    user: UserRecord,
    id: string,
    rolls: Record<string, boolean | undefined>,
    reason: string,
  ): Promise<void> {
    await this.games.commit(id, (room) => {
      mustReview(user, room);
      const fixed = Object.fromEntries(Object.entries(rolls).filter(([, v]) => v !== undefined)) as Record<
        string,
        boolean
      >;
      if (Object.keys(fixed).length === 0)
        throw badRequest("rolls", "rolls: name at least one roll to fix", "F2");
      return [{ kind: "fixRolls", rolls: fixed, reason }];
    });
  }

  async reopenMafia(user: UserRecord, id: string, reason: string): Promise<void> {
    await this.games.commit(id, (room) => {
      mustReview(user, room);
      if (!room.resultsPending)
        throw conflict(
          "night/intake-open",
          "the night's intake is still open: the mafia can still change its action",
          "G10",
        );
      return [{ kind: "reopenMafia", reason }];
    });
  }

  async publish(user: UserRecord, id: string): Promise<void> {
    await this.games.commit(id, (room) => {
      mustReview(user, room);
      if (!room.resultsPending)
        throw conflict(
          "night/intake-open",
          "the night has not closed yet: close it first (or wait for the deadline)",
        );
      const blocked = checkDraft(room);
      if (blocked) throw conflict("night/draft-blocked", blocked, "M2c");
      return [{ kind: "publishNight" }];
    });
  }

  async modkill(user: UserRecord, id: string, seat: number, reason: string): Promise<void> {
    await this.games.commit(id, (room) => {
      mustRun(user, room);
      const bad = checkModkill(room.match!.state, seat);
      if (bad) throw refused(bad);
      return [{ kind: "modkill", seat, reason }];
    });
  }

  async hide(user: UserRecord, id: string, postId: string, reason: string): Promise<void> {
    await this.games.commit(id, (room) => {
      mustBeGm(user, room);
      const post = room.postById.get(postId);
      if (!post) throw notFound(`no post ${postId}`);
      if (post.hidden) throw conflict("post/hidden", "the post is already hidden");
      return [{ kind: "hide", postId, reason }];
    });
  }

  /** F2: the GM restores a hidden post, with a reason (published with the log, R3). */
  async restore(user: UserRecord, id: string, postId: string, reason: string): Promise<void> {
    await this.games.commit(id, (room) => {
      mustBeGm(user, room);
      const post = room.postById.get(postId);
      if (!post) throw notFound(`no post ${postId}`);
      if (!post.hidden) throw conflict("post/not-hidden", "the post is not hidden");
      return [{ kind: "unhide", postId, reason }];
    });
  }
}

/** The room, if `user` is its GM (403 otherwise). */
export function mustBeGm(user: UserRecord, room: Room): Room {
  if (room.gmId !== user.id) throw forbidden("not-the-gm", "only the game's GM may do this");
  return room;
}

/** The room, if `user` is its GM and the game is running. */
export function mustRun(user: UserRecord, room: Room): Room {
  mustBeGm(user, room);
  if (room.status !== "running") throw conflict("game/not-running", "the game is not running");
  return room;
}

/** The room, if `user` is its GM and it is night (the review's commands). */
function mustReview(user: UserRecord, room: Room): Room {
  mustRun(user, room);
  if (room.phase!.kind !== "night") throw conflict("night/not-night", "it is not night");
  return room;
}

/** What closes the phase now: the day's end, or the night's (its intake in review mode, M2c). */
function phaseEnd(room: Room): EntryBody {
  if (room.phase!.kind === "day") return { kind: "endDay" };
  return room.settings.mode === "review" ? { kind: "intakeClosed" } : { kind: "publishNight" };
}
