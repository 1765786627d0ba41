import { randomBytes } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Entry, EntryBody } from "./entries.ts";
import { ApiError, notFound } from "../http/errors.ts";
import { Room } from "./room.ts";
import { SeqConflict, StoreUnavailable, type Store } from "../stores/store.ts";
import { keyMismatch, type IdempotencyMark, type KeyedAnswer } from "./idempotency.ts";
import type { Cluster } from "./cluster.ts";
import { archiveOf, involves, parseArchived, type Archived } from "./archive.ts";
import { Coalesced } from "./coalesced.ts";
import { Turns } from "./turns.ts";

/** How often a command is decided again after other instances wrote first, before it gives up (503). */
const MAX_ATTEMPTS = 20;

/** A command's entries as stored: its time, and on the first one its Idempotency-Key's mark (issue 28). */
const stamp = (at: number, bodies: readonly EntryBody[], idem: IdempotencyMark | null): Entry[] =>
  bodies.map((b, i): Entry => (i === 0 && idem ? { at, idem, ...b } : { at, ...b }));

/** Told of the feed items [from, to) of a room once the entries that made them are durable. */
type Listener = (room: Room, from: number, to: number) => void;

/**
 * The games' log keeper (issue 29): one in-memory room per game, rebuilt from its log on start and kept in
 * step with it. Every command (the game commands are in game/: signups.ts, play.ts, gm.ts) is checked
 * against the room, turned into entries and appended through the one commit path, `commit`, and answered
 * only once the entries are durable (STYLE.md: "read, decide, append with the expected sequence number,
 * publish views"). JavaScript runs one command at a time, so each game's commands are applied in a single
 * order; the store commits them in that order.
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
  private readonly turns = new Turns();
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
    readonly store: Store,
    readonly clock: Clock,
    onDeadlineChange: (room: Room) => void = () => {},
    /** F1: each game's secret seed; 32 random bytes unless a test fixes it. */
    readonly newSeed: () => string = () => randomBytes(32).toString("hex"),
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

  /**
   * The room's feed grew from `before` to `after` with entries already durable: the scheduler and listeners
   * hear. Only these items: on SQLite later commits may already have grown the feed, and they tell their own.
   */
  private advanced(room: Room, before: number, after = room.feed.length): void {
    this.keepArchived(room);
    this.onDeadlineChange(room);
    for (const l of this.listeners) l(room, before, after);
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
          this.rebuild(id, await this.store.entries(id));
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
    await Promise.all([...this.writes.values(), ...this.turns.pending()].map((w) => w.catch(() => {})));
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
   * One command, the one commit path for every store (issue 29): `decide` checks it against the room and
   * says what to append (or throws the refusal); the entries are stamped and appended at the room's
   * sequence number; the command is answered once they are durable. With the request's Idempotency-Key
   * (issue 28), a key the log already holds is the first request's answer again (returned), and nothing is
   * appended. `opening` is a new game (`Signups.create`): its first entries make its room.
   *
   * The one decision is when the entries are applied to the room, and it follows from the store:
   * - A store that orders its own writes (SQLite: one writer, so an append cannot conflict) takes them at
   *   once: the check, the apply and the append are one step of the event loop (no `await` before the
   *   append), so the game's commands take effect in one order and the store commits them in that order,
   *   pipelined: the next command of the game is decided on these entries without waiting for the disk.
   *   That one step is the game's turn. If the write then fails, memory is ahead of the disk: the room is
   *   set aside and rebuilt from its log, and the writes chained after this one fail too.
   * - A store other instances write too (issue 20: shared) takes them only once durable, so the room is
   *   never ahead of the log and a lost race costs no rebuild. This instance runs one command of a game at a
   *   time (turns.ts). The command is decided against the room as this instance holds it, without reading the
   *   log first. The room may be behind (another instance wrote, and its notification is on the way):
   *   - an append decided on it conflicts (SeqConflict): the room is caught up from the log and the command
   *     decided again, never applied as checked against a stale state;
   *   - a refusal (or "nothing to do", a replay included) decided on it stands only once the room is known
   *     to be current: the room is caught up and, if the log had moved, the command decided again.
   *   A command that keeps losing races gives up with a 503.
   */
  async commit(
    id: string,
    decide: (room: Room) => readonly EntryBody[],
    idem: IdempotencyMark | null = null,
    opening = false,
  ): Promise<KeyedAnswer | null> {
    const ordered = !this.store.shared;
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
    if (opening) this.order.push(id);
    const turn = ordered ? null : this.turns.enter(id, this.store.timeoutMs);
    try {
      if (turn) await turn.ready;
      let current = ordered || opening || !this.rooms.has(id);
      let room = opening ? new Room(id) : ordered || !current ? this.room(id) : await this.fresh(id);
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        let bodies: readonly EntryBody[];
        try {
          bodies = keyed(room);
        } catch (refusal) {
          if (current) throw refusal;
          const seq = room.seq;
          room = await this.fresh(id);
          current = true;
          if (room.seq === seq) throw refusal;
          continue;
        }
        if (bodies.length === 0) {
          if (!current) {
            room = await this.fresh(id);
            current = true;
            continue;
          }
          // The first request's write may still be on its way to the disk: the retry is answered once it is.
          if (replay && ordered) await this.settled(room);
          return replay;
        }
        const entries = stamp(this.clock.now(), bodies, idem);
        const seq = room.seq;
        const before = room.feed.length;
        if (ordered) {
          try {
            if (opening) this.rooms.set(id, room);
            for (const e of entries) room.apply(e);
          } catch (error) {
            // A checked command the room cannot apply is a bug: the room is set aside and rebuilt from its
            // log; this command gets a 500.
            await this.setAside(id);
            throw error;
          }
        }
        const after = room.feed.length;
        const write = this.store.append(id, seq, entries);
        this.writes.set(id, write);
        let lost = false;
        try {
          await write;
        } catch (error) {
          if (ordered || opening || !(error instanceof SeqConflict)) throw this.failed(room, seq, error);
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
        if (ordered) this.advanced(room, before, after);
        // Durable: applied now, before anything else of this game runs (a read of the log meanwhile saw
        // this write under way and left the room alone). A new game is built now (a new id: no other
        // instance writes it).
        else if (opening && !this.rooms.has(id)) {
          this.rooms.set(id, room);
          this.applyDurable(room, entries);
        } else if (this.rooms.get(id) === room && room.seq === seq) this.applyDurable(room, entries);
        else await this.catchUp(id);
        return replay;
      }
      throw new ApiError(503, "game/busy", "the game is changing too fast right now: retry");
    } finally {
      turn?.leave();
    }
  }

  /** What a command whose append failed (other than a lost race on a shared store) is answered. */
  private failed(room: Room, seq: number, error: unknown): unknown {
    const id = room.id;
    console.error(`game ${id}: the store refused entries ${seq}+: ${String(error)}`);
    if (!this.store.shared) {
      // Memory is ahead of the disk: the room is set aside and rebuilt from its log, which holds exactly
      // what was acknowledged. The writes chained after this one fail too, and their callers hear so.
      // Only the room that failed is set aside: a later write's failure may arrive after the rebuild.
      if (this.rooms.get(id) === room) void this.setAside(id);
      return new ApiError(503, "store/unavailable", "the game could not be saved: reload it, then retry");
    }
    // Issue 28: no answer in time. The room was not touched (it takes entries only once durable); if they
    // may have been stored all the same, the caller is told so (503 store/unknown), and the room is caught
    // up from the log as soon as the store answers again.
    if (error instanceof StoreUnavailable) {
      if (error.unknown) this.recover(id);
      return error;
    }
    return new ApiError(503, "store/unavailable", "the game could not be saved: retry");
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
}
