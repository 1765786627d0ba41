import { randomBytes } from "node:crypto";
import {
  castVote,
  checkListedQuestion,
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
import type { Clock } from "../clock.ts";
import type { Entry, EntryBody } from "./entries.ts";
import { ApiError, badRequest, conflict, forbidden, notFound, refused } from "../http/errors.ts";
import { Room } from "./room.ts";
import { channelsOf } from "../views/channels.ts";
import { SeqConflict, StoreUnavailable, type Store, type UserRecord } from "../stores/store.ts";
import { keyMismatch, type IdempotencyMark, type KeyedAnswer } from "./idempotency.ts";
import type { Cluster } from "./cluster.ts";
import { archiveOf, involves, parseArchived, type Archived } from "./archive.ts";
import { viewerOf, type Viewer } from "../views/viewer.ts";
import { checkDraft, councilSuggestion } from "../game/draft.ts";

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

/** How often a command is decided again after other instances wrote first, before it gives up (503). */
const MAX_ATTEMPTS = 20;

/** A command's entries as stored: its time, and on the first one its Idempotency-Key's mark (issue 28). */
const stamp = (at: number, bodies: readonly EntryBody[], idem: IdempotencyMark | null): Entry[] =>
  bodies.map((b, i): Entry => (i === 0 && idem ? { at, idem, ...b } : { at, ...b }));

/**
 * One run of a read at a time, shared by everyone who asks while it runs, except that a caller who arrives
 * during a run waits for the next one: the run under way may have started before what the caller knows of
 * (a write acknowledged by another instance) was committed.
 */
class Coalesced {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  get idle(): boolean {
    return this.running === null && this.queued === null;
  }

  run(work: () => Promise<void>): Promise<void> {
    if (!this.running) {
      const current = work().finally(() => {
        if (this.running === current) this.running = null;
      });
      this.running = current;
      return current;
    }
    this.queued ??= this.running
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return this.run(work);
      });
    return this.queued;
  }
}

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
  /** Issue 20: the last command queued for each game (shared stores: one at a time per game). */
  private readonly turns = new Map<string, Promise<void>>();
  /** Issue 20: each game's read of its log under way (shared stores only). */
  private readonly catching = new Map<string, Coalesced>();
  /** Issue 20: the read of which games changed (the lists), and where the last one stopped. */
  private readonly listing = new Coalesced();
  private cursor = 0;
  /** Issue 20: every game id in creation order, built or not. */
  private readonly order: string[] = [];
  /** Issue 20: the finished games known by their archived summary; built when first needed. */
  private readonly archive = new Map<string, Archived>();
  /** The games whose archived summary is in the store (or being written). */
  private readonly archived = new Set<string>();
  /** Whether a game is a demo (issue 12): the Demo's test, set once it exists (server.ts). */
  isDemo: (room: Room) => boolean = (room) => room.demo;
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

  /**
   * Issue 20: what a start reads. The running games and those in signup are built from their logs; a
   * finished game is known by its archived summary (archive.ts) and built the first time a request needs
   * it (`fresh`). A game that ended before its summary was kept is read once, and its summary kept then.
   */
  async load(): Promise<void> {
    const live: string[] = [];
    for (const row of await this.store.gameIndex()) {
      this.order.push(row.id);
      const archived = row.meta === null ? null : parseArchived(row.meta);
      if (archived) this.archive.set(row.id, archived);
      else live.push(row.id);
    }
    const logs = await Promise.all(live.map((id) => this.store.entriesFrom(id, 0)));
    live.forEach((id, i) => this.rebuild(id, logs[i]!));
    for (const id of live) {
      const room = this.rooms.get(id);
      if (room) this.keepArchived(room);
    }
  }

  /**
   * Every game, newest first: its room when built, else its archived summary (a finished game no request
   * has needed since the start). The lists read this.
   */
  list(): { readonly id: string; readonly room: Room | null; readonly archived: Archived | null }[] {
    const out: { id: string; room: Room | null; archived: Archived | null }[] = [];
    for (let i = this.order.length - 1; i >= 0; i--) {
      const id = this.order[i]!;
      const room = this.rooms.get(id) ?? null;
      const archived = room ? null : (this.archive.get(id) ?? null);
      if (room || archived) out.push({ id, room, archived });
    }
    return out;
  }

  /**
   * The built rooms, newest first, with the finished games the user was in built now (a user's own games:
   * «Мои игры» and a profile need more of them than a summary). A game that cannot be read is left out.
   */
  async roomsOf(user: { readonly id: string; readonly nick: string }): Promise<Room[]> {
    const entries = this.list();
    const rooms = await Promise.all(
      entries.map(
        ({ id, room, archived }) =>
          room ?? (archived && involves(archived, user) ? this.fresh(id).catch(() => null) : null),
      ),
    );
    return rooms.filter((r): r is Room => r !== null);
  }

  /** A finished game's summary is kept in the store once (the next start then skips its log). */
  private keepArchived(room: Room): void {
    if (room.status !== "ended" || this.archived.has(room.id)) return;
    this.archived.add(room.id);
    this.store.saveGameMeta(room.id, JSON.stringify(archiveOf(room, this.isDemo(room)))).catch((error) => {
      this.archived.delete(room.id);
      console.error(`game ${room.id}: its summary could not be kept: ${String(error)}`);
    });
  }

  private async reload(id: string): Promise<void> {
    this.rebuild(id, await this.store.entries(id));
  }

  /**
   * Issue 20: follow the other instances on the same database. Each `game` notification names a game and
   * its log's length; a room that is behind is caught up from the log (its streams then send the new items,
   * with the ids a single instance gives: they are feed positions, and the feed is a function of the log).
   * A game this instance has not seen yet is built. After notifications may have been lost, every game
   * that changed meanwhile is read again.
   */
  follow(cluster: Cluster): void {
    if (!cluster.shared) return;
    cluster.subscribe("game", (payload) => {
      const at = payload.lastIndexOf(":");
      const id = payload.slice(0, at);
      const length = Number(payload.slice(at + 1));
      const room = this.rooms.get(id);
      if (room && room.seq >= length) return;
      this.catchUp(id).catch((error: unknown) => {
        console.error(`game ${id}: could not be read after a notification: ${String(error)}`);
      });
    });
    cluster.onResync(() => {
      this.freshAll().catch((error: unknown) => {
        console.error(`the games could not be read again after a lost notification: ${String(error)}`);
      });
    });
  }

  /**
   * The room as the log has it now. On a shared store (issue 20) the log is read first (only what is past
   * the room), so nothing another instance acknowledged is missing from the answer: what a single instance
   * would give. Alone with its store, the room is the log.
   */
  async fresh(id: string): Promise<Room> {
    if (this.store.shared || (this.archive.has(id) && !this.rooms.has(id))) await this.catchUp(id);
    return this.room(id);
  }

  /** Issue 20: every game made fresh (the lists of games), with one query for the games that changed. */
  freshAll(): Promise<void> {
    if (!this.store.shared) return Promise.resolve();
    return this.listing.run(async () => {
      const { cursor, games } = await this.store.changedSince(this.cursor);
      this.cursor = cursor;
      const behind: string[] = [];
      for (const g of games) {
        const room = this.rooms.get(g.id);
        if (room) {
          if (room.seq < g.seq) behind.push(g.id);
          continue;
        }
        if (this.archive.has(g.id)) continue;
        const archived = g.meta === null ? null : parseArchived(g.meta);
        if (!archived) behind.push(g.id);
        else {
          this.archive.set(g.id, archived);
          this.archived.add(g.id);
          if (!this.order.includes(g.id)) this.order.push(g.id);
        }
      }
      await Promise.all(behind.map((id) => this.catchUp(id)));
    });
  }

  /** Read the game's log past its room, once for everyone who asks meanwhile (see Coalesced). */
  private catchUp(id: string): Promise<void> {
    let c = this.catching.get(id);
    if (!c) {
      c = new Coalesced();
      this.catching.set(id, c);
    }
    const mine = c;
    return mine
      .run(() => this.readLog(id))
      .finally(() => {
        if (this.catching.get(id) === mine && mine.idle) this.catching.delete(id);
      });
  }

  private async readLog(id: string): Promise<void> {
    // This instance's own write under way first: the room takes it once durable (on SQLite it already has).
    await this.writes.get(id)?.catch(() => {});
    await this.rebuilt.get(id);
    const room = this.rooms.get(id);
    const from = room?.seq ?? 0;
    const entries = await this.store.entriesFrom(id, from);
    if (entries.length === 0) return;
    // Issue 28: what was read is applied even if a write of this instance started meanwhile: on a shared
    // store a room holds only durable entries, and a write decided without these entries conflicts with
    // them in the log. Giving up here let a read answer without another instance's acknowledged write
    // (read-your-writes broken about once in 2,000 reads). A room rebuilt meanwhile is read again.
    if (this.rooms.get(id) !== room || this.reloading.has(id)) return this.readLog(id);
    if (!room) {
      // A finished game built on demand is only read; a game new to this instance is told like a commit.
      const archived = this.archive.has(id);
      this.rebuild(id, entries);
      const built = this.rooms.get(id);
      if (!built) return;
      if (!this.order.includes(id)) this.order.push(id);
      if (archived) this.archived.add(id);
      else this.advanced(built, 0);
      return;
    }
    // This instance's own write may have been applied meanwhile: it is the log's next entries (an append
    // succeeds only where the log ends), so only what lies past it is new.
    const known = room.seq - from;
    if (known < entries.length) this.applyDurable(room, entries.slice(known));
  }

  /**
   * Issue 28: after an append of unknown outcome, the room is caught up from the log (where the entries
   * are, if they were stored) once the store answers again, retried with a growing pause until it does.
   * Reads catch up anyway; this is for the streams, the deadlines and the next command.
   */
  private recover(id: string): void {
    const attempt = (delay: number): void => {
      if (this.closing) return;
      this.catchUp(id).catch(() => {
        setTimeout(() => attempt(Math.min(delay * 2, 30_000)), delay).unref();
      });
    };
    attempt(250);
  }

  /** The room's feed grew from `before` with entries already durable: the scheduler and listeners hear. */
  private advanced(room: Room, before: number): void {
    this.keepArchived(room);
    this.onDeadlineChange(room);
    for (const l of this.listeners) l(room, before, room.feed.length);
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
    if (room.seq > 0) this.rooms.set(id, room);
    else this.rooms.delete(id);
  }

  /** Resolves when every write under way has been answered (tests, and a clean shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.writes.values(), ...this.turns.values()].map((w) => w.catch(() => {})));
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

  /**
   * One command: `decide` checks it against the room and says what to append (or throws the refusal).
   * Alone with its store, the check and the apply are one step of the event loop, so the game's commands
   * take effect in one order, and the store commits them in that order (pipelined: a command need not wait
   * for the previous one's disk write).
   */
  private async run(id: string, decide: (room: Room) => readonly EntryBody[]): Promise<void> {
    await this.runKeyed(id, null, decide);
  }

  /** `run` with the request's Idempotency-Key (issue 28): the first request's answer when the log has it. */
  private async runKeyed(
    id: string,
    idem: IdempotencyMark | null,
    decide: (room: Room) => readonly EntryBody[],
  ): Promise<KeyedAnswer | null> {
    // Issue 28: a key the log already holds is the first request's answer again, and nothing is appended
    // (on a shared store, "nothing to do" stands only once the room has caught up: runShared).
    let replay = null as KeyedAnswer | null;
    const keyed =
      idem === null
        ? decide
        : (room: Room): readonly EntryBody[] => {
            replay = room.keys.get(idem.key) ?? null;
            if (replay === null) return decide(room);
            if (replay.request !== idem.request) throw keyMismatch();
            return [];
          };
    if (this.store.shared) {
      await this.runShared(id, keyed, idem);
      return replay;
    }
    const room = this.room(id);
    await this.commit(room, keyed(room), idem);
    // The first request's write may still be on its way to the disk: the retry is answered once it is.
    if (replay) await this.settled(room);
    return replay;
  }

  /**
   * Issue 20: one command on a store other instances write too. This instance runs one command of a game
   * at a time. The command is decided against the room as this instance holds it, without reading the log
   * first, and its entries appended with the expected sequence number; only once they are durable are they
   * applied to the room, so the room is never ahead of the log and a lost race costs no rebuild. The room
   * may be behind (another instance wrote, and its notification is on the way):
   * - an append decided on it conflicts (SeqConflict): the room is caught up from the log and the command
   *   decided again, never applied as checked against a stale state;
   * - a refusal (or "nothing to do") decided on it stands only once the room is known to be current: the
   *   room is caught up and, if the log had moved, the command decided again.
   * A command that keeps losing races gives up with a 503.
   */
  private async runShared(
    id: string,
    decide: (room: Room) => readonly EntryBody[],
    idem: IdempotencyMark | null = null,
  ): Promise<void> {
    const previous = this.turns.get(id) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const turn = previous.then(() => mine);
    this.turns.set(id, turn);
    try {
      // Issue 28: the turn is waited for within the store's time limit: behind a command stuck on the store,
      // a queue of commands is answered 503 (nothing of them written) instead of one limit after another.
      await this.turnOf(previous);
      let current = !this.rooms.has(id);
      let room = current ? await this.fresh(id) : this.room(id);
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        let bodies: readonly EntryBody[];
        try {
          bodies = decide(room);
        } catch (refusal) {
          if (current) throw refusal;
          const seq = room.seq;
          room = await this.fresh(id);
          current = true;
          if (room.seq === seq) throw refusal;
          continue;
        }
        if (bodies.length === 0) {
          if (current) return;
          room = await this.fresh(id);
          current = true;
          continue;
        }
        const entries = stamp(this.clock.now(), bodies, idem);
        const seq = room.seq;
        const write = this.store.append(id, seq, entries);
        this.writes.set(id, write);
        let lost = false;
        try {
          await write;
        } catch (error) {
          if (!(error instanceof SeqConflict)) {
            console.error(`game ${id}: the store refused entries ${seq}+: ${String(error)}`);
            // Issue 28: no answer in time. The room was not touched (it takes entries only once durable);
            // if they may have been stored all the same, the caller is told so (503 store/unknown), and the
            // room is caught up from the log as soon as the store answers again.
            if (error instanceof StoreUnavailable) {
              if (error.unknown) this.recover(id);
              throw error;
            }
            throw new ApiError(503, "store/unavailable", "the game could not be saved: retry");
          }
          lost = true;
        } finally {
          if (this.writes.get(id) === write) this.writes.delete(id);
        }
        if (lost) {
          // Another instance wrote first. A short random pause, growing with each loss, lets a burst of
          // commands to one game from several instances (17 signups at once) settle instead of colliding.
          await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 ** attempt)));
          room = await this.fresh(id);
          current = true;
          continue;
        }
        // Durable: applied now, before anything else of this game runs (a read of the log meanwhile saw
        // this write under way and left the room alone).
        if (this.rooms.get(id) === room && room.seq === seq) this.applyDurable(room, entries);
        else await this.catchUp(id);
        return;
      }
      throw new ApiError(503, "game/busy", "the game is changing too fast right now: retry");
    } finally {
      done();
      if (this.turns.get(id) === turn) this.turns.delete(id);
    }
  }

  /** Issue 28: `previous` (the game's last command here), or 503 once the store's time limit has passed. */
  private turnOf(previous: Promise<void>): Promise<void> {
    const limit = this.store.timeoutMs;
    if (limit === undefined) return previous;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new StoreUnavailable(`the game's previous command did not end within ${limit} ms`, false)),
        limit,
      );
      void previous.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Entries already durable, applied to the room; its streams, the scheduler and the listeners hear. */
  private applyDurable(room: Room, entries: readonly Entry[]): void {
    const before = room.feed.length;
    try {
      for (const e of entries) room.apply(e);
    } catch (error) {
      // The log holds entries this room cannot apply: a bug. It is rebuilt from the log (and says so).
      void this.setAside(room.id);
      throw error;
    }
    this.advanced(room, before);
  }

  /** Apply entries in memory at once (so the next command sees them), answer once they are on disk. */
  private async commit(
    room: Room,
    bodies: readonly EntryBody[],
    idem: IdempotencyMark | null = null,
  ): Promise<void> {
    if (bodies.length === 0) return;
    const entries = stamp(this.clock.now(), bodies, idem);
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
      // Only the room that failed is set aside: a later write's failure may arrive after the rebuild.
      console.error(`game ${room.id}: the store refused entries ${seq}+: ${String(error)}`);
      if (this.rooms.get(room.id) === room) void this.setAside(room.id);
      throw new ApiError(503, "store/unavailable", "the game could not be saved: reload it, then retry");
    } finally {
      if (this.writes.get(room.id) === write) this.writes.delete(room.id);
    }
    this.keepArchived(room);
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
    this.order.push(id);
    if (this.store.shared) {
      // Issue 20: durable first, then built (a new id: no other instance writes it).
      const at = this.clock.now();
      const entries = bodies.map((b): Entry => ({ at, ...b }));
      await this.store.append(id, 0, entries);
      const room = new Room(id);
      this.rooms.set(id, room);
      this.applyDurable(room, entries);
      return id;
    }
    const room = new Room(id);
    this.rooms.set(id, room);
    await this.commit(room, bodies);
    return id;
  }

  async signup(user: UserRecord, id: string, idem: IdempotencyMark | null = null): Promise<void> {
    await this.runKeyed(id, idem, (room) => {
      // A demo game refuses signups before this (Demo.refuseSignup, which also knows the older demos).
      if (room.status !== "signup")
        throw conflict("game/started", "signups are closed: the game has started");
      if (room.gmId === user.id) throw conflict("signup/gm", "the GM cannot play in their own game");
      if (room.signups.some((s) => s.userId === user.id))
        throw conflict("signup/twice", "you have already signed up");
      return [{ kind: "signup", userId: user.id, nick: user.nick }];
    });
  }

  async withdraw(user: UserRecord, id: string, idem: IdempotencyMark | null = null): Promise<void> {
    await this.runKeyed(id, idem, (room) => {
      if (room.seatOf(user.id) !== null)
        throw conflict("game/started", "the game has started: ask the GM for a replacement (P4)", "P4");
      // Before the start anyone may withdraw; after it, the reserve list may still shrink.
      if (!room.signups.some((s) => s.userId === user.id))
        throw conflict("signup/none", "you are not signed up");
      return [{ kind: "withdraw", userId: user.id }];
    });
  }

  async start(user: UserRecord, id: string, deal: "random" | { hand: readonly RoleId[] }): Promise<void> {
    // F1: a fresh secret seed; its SHA-256 is published at once, the seed itself at the end. Drawn once,
    // so a retry after another instance's write deals the same.
    const seed = this.newSeed();
    await this.run(id, (room) => {
      this.mustBeGm(user, room);
      return [{ kind: "started", seed, hand: this.checkStart(room, deal) }];
    });
  }

  private checkStart(room: Room, deal: "random" | { hand: readonly RoleId[] }): RoleId[] | null {
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

  private playerSeat(user: UserRecord, room: Room): number {
    if (room.status === "signup") throw conflict("game/not-started", "the game has not started");
    if (room.status === "ended") throw conflict("game/over", "the game is over", "W1");
    const seat = room.seatOf(user.id);
    if (seat === null) throw forbidden("not-a-player", "you hold no seat in this game");
    return seat;
  }

  async act(
    user: UserRecord,
    id: string,
    action: NightAction,
    idem: IdempotencyMark | null = null,
  ): Promise<void> {
    await this.runKeyed(id, idem, (room) => {
      const seat = this.playerSeat(user, room);
      const m = room.match!;
      const r = submitNightAction(m.state, m.night, seat, action);
      if (isRejection(r)) throw refused(r);
      // M2c: without a GM the council answers only the questions of the rules' list (council.ts).
      if (action.act === "council" && room.settings.mode === "automatic") {
        const unlisted = checkListedQuestion(action.question);
        if (unlisted) throw refused(unlisted);
      }
      return [{ kind: "act", seat, action }];
    });
  }

  async vote(user: UserRecord, id: string, v: Vote, idem: IdempotencyMark | null = null): Promise<void> {
    await this.runKeyed(id, idem, (room) => {
      const seat = this.playerSeat(user, room);
      this.checkVote(room, seat, v);
      return this.withEarlyClose(room, [{ kind: "vote", seat, vote: v }], seat, v);
    });
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

  async post(
    user: UserRecord,
    id: string,
    text: string,
    idem: IdempotencyMark | null = null,
  ): Promise<string> {
    const postId = nanoid(12);
    const replay = await this.runKeyed(id, idem, (room) => {
      const { seat, isGm, vote } = this.readPost(room, user, text);
      if (vote && "refused" in vote) throw refused(vote.refused);
      const v = vote?.vote ?? null;
      const bodies: EntryBody[] = [{ kind: "post", id: postId, seat: isGm ? null : seat, text, vote: v }];
      return v && seat !== null ? this.withEarlyClose(room, bodies, seat, v) : bodies;
    });
    return replay?.created ?? postId;
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

  async message(
    user: UserRecord,
    id: string,
    channel: ChannelId,
    text: string,
    idem: IdempotencyMark | null = null,
  ): Promise<void> {
    const messageId = nanoid(12);
    await this.runKeyed(id, idem, (room) => {
      if (room.status === "signup")
        throw conflict("game/not-started", "the channels open when the game starts");
      const isGm = room.gmId === user.id;
      const seat = room.seatOf(user.id);
      if (!isGm) {
        if (seat === null) throw forbidden("not-a-player", "you hold no seat in this game");
        const may = channelsOf(room, seat).find((c) => c.id === channel);
        if (!may)
          throw forbidden("channel/not-member", `you are not a member of the channel ${channel}`, "G6");
        if (!may.canPost)
          throw forbidden("channel/dead", `the dead cannot write in a channel of the living`, "G7");
      } else if (channel.startsWith("gm:") && !room.match!.state.players[Number(channel.slice(3))]) {
        throw notFound(`no seat ${channel.slice(3)}`);
      }
      return [{ kind: "message", id: messageId, channel, seat: isGm ? null : seat, text }];
    });
  }

  // ——— the GM ———

  gmRoom(user: UserRecord, id: string): Room {
    return this.mustBeGm(user, this.room(id));
  }

  private mustBeGm(user: UserRecord, room: Room): Room {
    if (room.gmId !== user.id) throw forbidden("not-the-gm", "only the game's GM may do this");
    return room;
  }

  private mustRun(user: UserRecord, room: Room): Room {
    this.mustBeGm(user, room);
    if (room.status !== "running") throw conflict("game/not-running", "the game is not running");
    return room;
  }

  async extend(user: UserRecord, id: string, minutes: number): Promise<void> {
    await this.run(id, (room) => {
      this.mustRun(user, room);
      if (room.deadline === null && room.remaining === null)
        throw conflict(
          "clock/no-deadline",
          "the phase has no deadline to extend: the night is awaiting your review",
        );
      return [{ kind: "extend", ms: minutes * 60_000 }];
    });
  }

  async pause(user: UserRecord, id: string): Promise<void> {
    await this.run(id, (room) => {
      this.mustRun(user, room);
      if (room.paused) throw conflict("clock/paused", "the game is already paused");
      return [{ kind: "pause" }];
    });
  }

  async resume(user: UserRecord, id: string): Promise<void> {
    await this.run(id, (room) => {
      this.mustRun(user, room);
      if (!room.paused) throw conflict("clock/not-paused", "the game is not paused");
      return [{ kind: "resume" }];
    });
  }

  /** Close the phase now (the GM), or at its deadline (the scheduler). */
  async closePhase(user: UserRecord, id: string): Promise<void> {
    await this.run(id, (room) => {
      this.mustRun(user, room);
      if (room.resultsPending)
        throw conflict("night/pending", "the night is closed and awaits your review: publish it");
      return [this.phaseEnd(room)];
    });
  }

  private phaseEnd(room: Room): EntryBody {
    if (room.phase!.kind === "day") return { kind: "endDay" };
    return room.settings.mode === "review" ? { kind: "intakeClosed" } : { kind: "publishNight" };
  }

  /**
   * The scheduler: the deadline has come. Checked again against the log as it stands (issue 20: another
   * instance may have closed the phase, or a GM extended it), so a deadline fires once.
   */
  async deadlinePassed(id: string): Promise<void> {
    if (!this.rooms.has(id) && !this.store.shared) return;
    await this.run(id, (room) => {
      if (room.status !== "running" || room.paused || room.deadline === null) return [];
      if (room.deadline > this.clock.now()) return [];
      return [this.phaseEnd(room)];
    });
  }

  private mustReview(user: UserRecord, room: Room): Room {
    this.mustRun(user, room);
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
    await this.run(id, (room) => {
      this.mustReview(user, room);
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
    await this.run(id, (room) => {
      this.mustReview(user, room);
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
    await this.run(id, (room) => {
      this.mustReview(user, room);
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
    await this.run(id, (room) => {
      this.mustReview(user, room);
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
    await this.run(id, (room) => {
      this.mustRun(user, room);
      const bad = checkModkill(room.match!.state, seat);
      if (bad) throw refused(bad);
      return [{ kind: "modkill", seat, reason }];
    });
  }

  async replace(
    user: UserRecord,
    id: string,
    seat: number,
    substitute: UserRecord,
    reason: string,
  ): Promise<void> {
    await this.run(id, (room) => {
      this.mustRun(user, room);
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

  async hide(user: UserRecord, id: string, postId: string, reason: string): Promise<void> {
    await this.run(id, (room) => {
      this.mustBeGm(user, room);
      const post = room.postById.get(postId);
      if (!post) throw notFound(`no post ${postId}`);
      if (post.hidden) throw conflict("post/hidden", "the post is already hidden");
      return [{ kind: "hide", postId, reason }];
    });
  }

  /** F2: the GM restores a hidden post, with a reason (published with the log, R3). */
  async restore(user: UserRecord, id: string, postId: string, reason: string): Promise<void> {
    await this.run(id, (room) => {
      this.mustBeGm(user, room);
      const post = room.postById.get(postId);
      if (!post) throw notFound(`no post ${postId}`);
      if (!post.hidden) throw conflict("post/not-hidden", "the post is not hidden");
      return [{ kind: "unhide", postId, reason }];
    });
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
