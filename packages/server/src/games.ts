import { randomBytes } from "node:crypto";
import {
  castVote,
  checkListedQuestion,
  channelsFor,
  earlyCounts,
  checkModkill,
  checkNewName,
  checkVote,
  isRejection,
  type HealFromRole,
  type RoleId as EngineRoleId,
  type TargetedAct as EngineTargetedAct,
  submitNightAction,
  type NightAction,
  type Rejection,
  type Vote,
} from "@forum-mafia/engine";
import { nickKey, unmatchedColours, votesInPost } from "@forum-mafia/forum";
import type {
  ActionRequest,
  ChannelId,
  PostPreview,
  CreateGame,
  HEAL_FROM_ROLES,
  RoleId,
  TargetedAct,
} from "@forum-mafia/protocol";
import { nanoid } from "nanoid";
import type { Clock } from "./clock.ts";
import type { Entry, EntryBody } from "./entries.ts";
import { ApiError, badRequest, conflict, forbidden, notFound, refused } from "./errors.ts";
import { Room } from "./room.ts";
import type { Store, UserRecord } from "./store.ts";
import { viewerOf, type Viewer } from "./viewer.ts";
import { checkDraft, councilSuggestion } from "./draft.ts";

/**
 * protocol writes out the engine's role and act lists (the web app must not load the engine); the
 * compiler checks here, where both are seen, that they are the same sets.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const WIRE_MATCHES_ENGINE: [
  Same<RoleId, EngineRoleId>,
  Same<TargetedAct, EngineTargetedAct>,
  Same<(typeof HEAL_FROM_ROLES)[number], HealFromRole>,
] = [true, true, true];

/** The vote a post holds (V2), or why the engine would refuse it. */
type PostVoteCheck = { readonly vote: Vote } | { readonly refused: Rejection };

/** Told of the feed items [from, to) of a room once the entries that made them are durable. */
type Listener = (room: Room, from: number, to: number) => void;

/**
 * The games: one in-memory room per game, rebuilt from its log on start. Every command is checked against
 * the room, turned into entries, applied, and answered only once the entries are durable (STYLE.md: "read,
 * decide, append with the expected sequence number, publish views"). JavaScript runs one command at a time,
 * so each game's commands are applied in a single order; the store commits them in that order.
 */
export class Games {
  readonly rooms = new Map<string, Room>();
  /** The last write under way for each game. */
  private readonly writes = new Map<string, Promise<void>>();
  private readonly reloading = new Set<string>();
  /** The rebuild of each room set aside, while it runs. */
  private readonly rebuilt = new Map<string, Promise<void>>();
  private closing = false;
  private readonly listeners = new Set<Listener>();
  private readonly onDeadlineChange: (room: Room) => void;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    onDeadlineChange: (room: Room) => void = () => {},
    /** F1: each game's secret seed; 32 random bytes unless a test fixes it. */
    private readonly newSeed: () => string = () => randomBytes(32).toString("hex"),
  ) {
    this.onDeadlineChange = onDeadlineChange;
  }

  async load(): Promise<void> {
    for (const { id, entries } of await this.store.loadAll()) this.rebuild(id, entries);
  }

  private async reload(id: string): Promise<void> {
    this.rebuild(id, await this.store.entries(id));
  }

  /**
   * The room's memory may be ahead of its log (a bug in apply, or a write the store refused): it is set
   * aside at once, so no command or read sees it (they get 503 "reloading"), and rebuilt from its log once
   * the writes already under way are settled. While the store cannot be read, the rebuild is retried.
   */
  private setAside(id: string): Promise<void> {
    const old = this.rooms.get(id);
    if (old) old.retired = true;
    this.rooms.delete(id);
    if (this.reloading.has(id)) return this.rebuilt.get(id) ?? Promise.resolve();
    this.reloading.add(id);
    const attempt = async (delay: number): Promise<void> => {
      for (;;) {
        await this.writes.get(id)?.catch(() => {});
        try {
          await this.reload(id);
          return;
        } catch (error) {
          console.error(`game ${id}: could not be read back from the store (retrying): ${String(error)}`);
          if (this.closing) return;
          await new Promise((r) => setTimeout(r, delay).unref());
          delay = Math.min(delay * 2, 30_000);
        }
      }
    };
    const done = attempt(250).finally(() => {
      this.reloading.delete(id);
      this.rebuilt.delete(id);
      const room = this.rooms.get(id);
      if (room) this.onDeadlineChange(room);
    });
    this.rebuilt.set(id, done);
    return done;
  }

  private rebuild(id: string, entries: readonly Entry[]): void {
    const room = new Room(id);
    for (const entry of entries) room.apply(entry);
    room.durable = room.feed.length;
    if (room.seq > 0) this.rooms.set(id, room);
    else this.rooms.delete(id);
  }

  /** Resolves when every write under way has been answered (tests, and a clean shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.writes.values()].map((w) => w.catch(() => {})));
  }

  /**
   * Resolves once everything applied to the room so far is durable. A read builds its answer from the room
   * first and sends it after this, so nobody is shown what a crash could take back (G1: the game is its
   * log). The writes of a game settle in order, so the last one under way covers all the others. If one
   * of them failed, the room was set aside and the read is refused (503) rather than shown.
   */
  async settled(room: Room): Promise<void> {
    const write = this.writes.get(room.id);
    if (write) await write.catch(() => {});
    if (this.rooms.get(room.id) !== room)
      throw new ApiError(503, "reloading", "the game is being reloaded: retry");
  }

  /** No more rebuild retries: the server is stopping. */
  stop(): void {
    this.closing = true;
  }

  /** Called with each room whose feed grew, after its entries are durable. */
  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  room(id: string): Room {
    const room = this.rooms.get(id);
    if (!room && this.reloading.has(id))
      throw new ApiError(503, "reloading", "the game is being reloaded: retry");
    if (!room) throw notFound(`no game with id ${id}`);
    return room;
  }

  /** Apply entries in memory at once (so the next command sees them), answer once they are on disk. */
  private async commit(room: Room, bodies: readonly EntryBody[]): Promise<void> {
    const at = this.clock.now();
    const entries = bodies.map((b): Entry => ({ at, ...b }));
    const seq = room.seq;
    const feedBefore = room.feed.length;
    let feedAfter = feedBefore;
    try {
      for (const e of entries) room.apply(e);
      feedAfter = room.feed.length;
    } catch (error) {
      // A checked command the room cannot apply is a bug: the room is set aside and rebuilt from its
      // log; this command gets a 500.
      await this.setAside(room.id);
      throw error;
    }
    const write = this.store.append(room.id, seq, entries);
    this.writes.set(room.id, write);
    try {
      await write;
    } catch (error) {
      // Memory is ahead of the disk: the room is set aside and rebuilt from its log, which holds exactly
      // what was acknowledged. The writes chained after this one fail too, and their callers hear so.
      console.error(`game ${room.id}: the store refused entries ${seq}+: ${String(error)}`);
      void this.setAside(room.id);
      throw new ApiError(503, "store/unavailable", "the game could not be saved: reload it, then retry");
    } finally {
      if (this.writes.get(room.id) === write) this.writes.delete(room.id);
    }
    room.durable = Math.max(room.durable, feedAfter);
    this.onDeadlineChange(room);
    // Only this commit's items: later commits may already have grown the feed, and they tell their own.
    for (const l of this.listeners) l(room, feedBefore, feedAfter);
  }

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
      bodies.push({ kind: "started", seed: this.newSeed(), hand: null });
    }
    const room = new Room(id);
    this.rooms.set(id, room);
    await this.commit(room, bodies);
    return id;
  }

  async signup(user: UserRecord, id: string): Promise<void> {
    const room = this.room(id);
    // A demo game refuses signups before this (Demo.refuseSignup, which also knows the older demos).
    if (room.status !== "signup") throw conflict("game/started", "signups are closed: the game has started");
    if (room.gmId === user.id) throw conflict("signup/gm", "the GM cannot play in their own game");
    if (room.signups.some((s) => s.userId === user.id))
      throw conflict("signup/twice", "you have already signed up");
    await this.commit(room, [{ kind: "signup", userId: user.id, nick: user.nick }]);
  }

  async withdraw(user: UserRecord, id: string): Promise<void> {
    const room = this.room(id);
    if (room.seatOf(user.id) !== null)
      throw conflict("game/started", "the game has started: ask the GM for a replacement (P4)", "P4");
    // Before the start anyone may withdraw; after it, the reserve list may still shrink.
    if (!room.signups.some((s) => s.userId === user.id))
      throw conflict("signup/none", "you are not signed up");
    await this.commit(room, [{ kind: "withdraw", userId: user.id }]);
  }

  async start(user: UserRecord, id: string, deal: "random" | { hand: readonly RoleId[] }): Promise<void> {
    const room = this.gmRoom(user, id);
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
    // F1: a fresh secret seed; its SHA-256 is published at once, the seed itself at the end.
    const seed = this.newSeed();
    await this.commit(room, [{ kind: "started", seed, hand }]);
  }

  private playerSeat(user: UserRecord, room: Room): number {
    if (room.status === "signup") throw conflict("game/not-started", "the game has not started");
    if (room.status === "ended") throw conflict("game/over", "the game is over", "W1");
    const seat = room.seatOf(user.id);
    if (seat === null) throw forbidden("not-a-player", "you hold no seat in this game");
    return seat;
  }

  async act(user: UserRecord, id: string, action: NightAction): Promise<void> {
    const room = this.room(id);
    const seat = this.playerSeat(user, room);
    const m = room.match!;
    const r = submitNightAction(m.state, m.night, seat, action);
    if (isRejection(r)) throw refused(r);
    // M2c: without a GM the council answers only the questions of the rules' list (council.ts).
    if (action.act === "council" && room.settings.mode === "automatic") {
      const unlisted = checkListedQuestion(action.question);
      if (unlisted) throw refused(unlisted);
    }
    await this.commit(room, [{ kind: "act", seat, action }]);
  }

  async vote(user: UserRecord, id: string, v: Vote): Promise<void> {
    const room = this.room(id);
    const seat = this.playerSeat(user, room);
    this.checkVote(room, seat, v);
    await this.commit(room, this.withEarlyClose(room, [{ kind: "vote", seat, vote: v }], seat, v));
  }

  private checkVote(room: Room, seat: number, v: Vote): void {
    const m = room.match!;
    const bad = checkVote(m.state, m.day, seat, v);
    if (bad) throw refused(bad);
  }

  /** V7: when this vote closes the day early, the day's end is stored with it, in the same commit. */
  private withEarlyClose(room: Room, bodies: EntryBody[], seat: number, v: Vote): EntryBody[] {
    if (!v.early) return bodies;
    const m = room.match!;
    const next = castVote(m.state, m.day, seat, v); // pure: the ballots as they would be
    return !isRejection(next) && next.closedEarly ? [...bodies, { kind: "endDay" }] : bodies;
  }

  async post(user: UserRecord, id: string, text: string): Promise<string> {
    const room = this.room(id);
    const { seat, isGm, vote } = this.readPost(room, user, text);
    if (vote && "refused" in vote) throw refused(vote.refused);
    const v = vote?.vote ?? null;
    const postId = nanoid(12);
    const bodies: EntryBody[] = [{ kind: "post", id: postId, seat: isGm ? null : seat, text, vote: v }];
    await this.commit(room, v && seat !== null ? this.withEarlyClose(room, bodies, seat, v) : bodies);
    return postId;
  }

  /**
   * What a draft post would count as (issue 12), read exactly as `post` reads it, with nothing stored:
   * the vote or why it would be refused, the text in a vote colour that names no player, and whether it
   * is night (V2: no votes then). Same access as posting.
   */
  previewPost(user: UserRecord, id: string, text: string): PostPreview {
    const room = this.room(id);
    const { seat, isGm, vote } = this.readPost(room, user, text);
    const state = room.match!.state;
    const names = state.players.map((p) => p.name);
    const running = room.status === "running";
    return {
      vote:
        vote && "vote" in vote
          ? {
              color: vote.vote.color,
              target: vote.vote.target,
              name: names[vote.vote.target]!,
              early: vote.vote.early && earlyCounts(state.phase.number, state.options.earlyFromDay),
            }
          : null,
      refused:
        vote && "refused" in vote
          ? { code: vote.refused.code, message: vote.refused.message, clause: vote.refused.clause }
          : null,
      unmatched: unmatchedColours(text, names).map((u) => ({
        color: u.color,
        text: u.text,
        nearest: u.nearest,
      })),
      night: running && state.phase.kind === "night",
      counts: running && !isGm && seat !== null,
    };
  }

  /**
   * The checks every post passes (the thread is open, the author holds a seat or is the GM, G7) and the
   * vote it holds: the one code path of `post` and `previewPost`.
   */
  private readPost(
    room: Room,
    user: UserRecord,
    text: string,
  ): { seat: number | null; isGm: boolean; vote: PostVoteCheck | null } {
    if (room.status === "signup") throw conflict("game/not-started", "the thread opens when the game starts");
    const isGm = room.gmId === user.id;
    const seat = room.seatOf(user.id);
    if (!isGm && seat === null)
      throw forbidden("not-a-player", "only the players and the GM write in the game thread");
    let vote: PostVoteCheck | null = null;
    if (seat !== null && room.status === "running") {
      const p = room.match!.state.players[seat]!;
      if (!p.alive)
        throw forbidden("post/dead", `${p.name} is dead and cannot post in the game thread`, "G7");
      vote = this.voteInPost(room, seat, text);
    }
    return { seat, isGm, vote };
  }

  /** V2: the post's last coloured vote, outside quotes, checked like a one-tap vote; none at night. */
  private voteInPost(room: Room, seat: number, text: string): PostVoteCheck | null {
    const m = room.match!;
    const state = m.state;
    if (state.phase.kind !== "day") return null;
    const names = state.players.map((p) => p.name);
    const found = votesInPost(text, names);
    const last = found[found.length - 1];
    if (!last) return null;
    const key = nickKey(last.name);
    const target = names.findIndex((n) => nickKey(n) === key);
    const v: Vote = { color: last.color, target, early: last.early };
    const bad = checkVote(state, m.day, seat, v);
    return bad ? { refused: bad } : { vote: v };
  }

  async message(user: UserRecord, id: string, channel: ChannelId, text: string): Promise<void> {
    const room = this.room(id);
    if (room.status === "signup")
      throw conflict("game/not-started", "the channels open when the game starts");
    const isGm = room.gmId === user.id;
    const seat = room.seatOf(user.id);
    if (!isGm) {
      if (seat === null) throw forbidden("not-a-player", "you hold no seat in this game");
      const may = channelsOf(room, seat).find((c) => c.id === channel);
      if (!may) throw forbidden("channel/not-member", `you are not a member of the channel ${channel}`, "G6");
      if (!may.canPost)
        throw forbidden("channel/dead", `the dead cannot write in a channel of the living`, "G7");
    } else if (channel.startsWith("gm:") && !room.match!.state.players[Number(channel.slice(3))]) {
      throw notFound(`no seat ${channel.slice(3)}`);
    }
    await this.commit(room, [{ kind: "message", id: nanoid(12), channel, seat: isGm ? null : seat, text }]);
  }

  // ——— the GM ———

  gmRoom(user: UserRecord, id: string): Room {
    const room = this.room(id);
    if (room.gmId !== user.id) throw forbidden("not-the-gm", "only the game's GM may do this");
    return room;
  }

  private runningRoom(user: UserRecord, id: string): Room {
    const room = this.gmRoom(user, id);
    if (room.status !== "running") throw conflict("game/not-running", "the game is not running");
    return room;
  }

  async extend(user: UserRecord, id: string, minutes: number): Promise<void> {
    const room = this.runningRoom(user, id);
    if (room.deadline === null && room.remaining === null)
      throw conflict(
        "clock/no-deadline",
        "the phase has no deadline to extend: the night is awaiting your review",
      );
    await this.commit(room, [{ kind: "extend", ms: minutes * 60_000 }]);
  }

  async pause(user: UserRecord, id: string): Promise<void> {
    const room = this.runningRoom(user, id);
    if (room.paused) throw conflict("clock/paused", "the game is already paused");
    await this.commit(room, [{ kind: "pause" }]);
  }

  async resume(user: UserRecord, id: string): Promise<void> {
    const room = this.runningRoom(user, id);
    if (!room.paused) throw conflict("clock/not-paused", "the game is not paused");
    await this.commit(room, [{ kind: "resume" }]);
  }

  /** Close the phase now (the GM), or at its deadline (the scheduler). */
  async closePhase(user: UserRecord, id: string): Promise<void> {
    const room = this.runningRoom(user, id);
    if (room.resultsPending)
      throw conflict("night/pending", "the night is closed and awaits your review: publish it");
    await this.commit(room, [this.phaseEnd(room)]);
  }

  private phaseEnd(room: Room): EntryBody {
    if (room.phase!.kind === "day") return { kind: "endDay" };
    return room.settings.mode === "review" ? { kind: "intakeClosed" } : { kind: "publishNight" };
  }

  /** The scheduler: the deadline has come. */
  async deadlinePassed(id: string): Promise<void> {
    const room = this.rooms.get(id);
    if (!room || room.status !== "running" || room.paused || room.deadline === null) return;
    if (room.deadline > this.clock.now()) return;
    await this.commit(room, [this.phaseEnd(room)]);
  }

  private reviewRoom(user: UserRecord, id: string): Room {
    const room = this.runningRoom(user, id);
    if (room.phase!.kind !== "night") throw conflict("night/not-night", "it is not night");
    return room;
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
    const room = this.reviewRoom(user, id);
    const suggested = councilSuggestion(room);
    if (suggested !== null && answer !== suggested && !reason)
      throw badRequest(
        "reason",
        `reason: the rules answer "${suggested}" to this council question; a different answer needs a reason`,
        "F2",
      );
    await this.commit(room, [{ kind: "council", answer, ...(reason ? { reason } : {}) }]);
  }

  async fixRolls(
    user: UserRecord,
    id: string,
    rolls: Record<string, boolean | undefined>,
    reason: string,
  ): Promise<void> {
    const room = this.reviewRoom(user, id);
    const fixed = Object.fromEntries(Object.entries(rolls).filter(([, v]) => v !== undefined)) as Record<
      string,
      boolean
    >;
    if (Object.keys(fixed).length === 0)
      throw badRequest("rolls", "rolls: name at least one roll to fix", "F2");
    await this.commit(room, [{ kind: "fixRolls", rolls: fixed, reason }]);
  }

  async reopenMafia(user: UserRecord, id: string, reason: string): Promise<void> {
    const room = this.reviewRoom(user, id);
    if (!room.resultsPending)
      throw conflict(
        "night/intake-open",
        "the night's intake is still open: the mafia can still change its action",
        "G10",
      );
    await this.commit(room, [{ kind: "reopenMafia", reason }]);
  }

  async publish(user: UserRecord, id: string): Promise<void> {
    const room = this.reviewRoom(user, id);
    if (!room.resultsPending)
      throw conflict(
        "night/intake-open",
        "the night has not closed yet: close it first (or wait for the deadline)",
      );
    const blocked = checkDraft(room);
    if (blocked) throw conflict("night/draft-blocked", blocked, "M2c");
    await this.commit(room, [{ kind: "publishNight" }]);
  }

  async modkill(user: UserRecord, id: string, seat: number, reason: string): Promise<void> {
    const room = this.runningRoom(user, id);
    const bad = checkModkill(room.match!.state, seat);
    if (bad) throw refused(bad);
    await this.commit(room, [{ kind: "modkill", seat, reason }]);
  }

  async replace(
    user: UserRecord,
    id: string,
    seat: number,
    substitute: UserRecord,
    reason: string,
  ): Promise<void> {
    const room = this.runningRoom(user, id);
    const state = room.match!.state;
    const p = state.players[seat];
    if (!p) throw notFound(`no seat ${seat}`);
    if (!p.alive) throw conflict("replace/dead", `${p.name} is dead: only a living player is replaced`, "P4");
    if (substitute.id === room.gmId) throw conflict("replace/gm", "the GM cannot take a seat", "P4");
    if (room.seatOf(substitute.id) !== null)
      throw conflict("replace/playing", `${substitute.nick} already plays in this game`, "P4");
    const bad = checkNewName(
      state.players.filter((_, i) => i !== seat),
      substitute.nick,
    );
    if (bad) throw refused(bad);
    await this.commit(room, [
      { kind: "replace", seat, userId: substitute.id, nick: substitute.nick, reason },
    ]);
  }

  async hide(user: UserRecord, id: string, postId: string, reason: string): Promise<void> {
    const room = this.gmRoom(user, id);
    const post = room.postById.get(postId);
    if (!post) throw notFound(`no post ${postId}`);
    if (post.hidden) throw conflict("post/hidden", "the post is already hidden");
    await this.commit(room, [{ kind: "hide", postId, reason }]);
  }

  /** F2: the GM restores a hidden post, with a reason (published with the log, R3). */
  async restore(user: UserRecord, id: string, postId: string, reason: string): Promise<void> {
    const room = this.gmRoom(user, id);
    const post = room.postById.get(postId);
    if (!post) throw notFound(`no post ${postId}`);
    if (!post.hidden) throw conflict("post/not-hidden", "the post is not hidden");
    await this.commit(room, [{ kind: "unhide", postId, reason }]);
  }

  viewer(user: UserRecord | null, room: Room): Viewer {
    return viewerOf(room, user?.id ?? null);
  }
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

/** A night action as the API receives it, as the engine takes it. */
export function toNightAction(req: ActionRequest): NightAction {
  switch (req.act) {
    case "mafia":
      return { act: "mafia", kill: req.kill, intimidate: req.intimidate };
    case "council":
      return { act: "council", question: req.question };
    case "healFrom":
      return { act: "healFrom", role: req.role };
    case "pass":
      return { act: "pass" };
    default:
      return { act: req.act, target: req.target };
  }
}

export interface ChannelAccess {
  readonly id: ChannelId;
  readonly canPost: boolean;
}

/** The channels a seat belongs to (S2, G8) and its own channel with the GM. */
export function channelsOf(room: Room, seat: number): ChannelAccess[] {
  const list: ChannelAccess[] = channelsFor(room.match!.state, seat).map((m) => ({
    id: m.channel,
    canPost: m.canPost,
  }));
  list.push({ id: `gm:${seat}`, canPost: true });
  return list;
}
