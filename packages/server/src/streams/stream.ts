import type { FastifyReply, FastifyRequest } from "fastify";
import type { Lang } from "@forum-mafia/engine";
import type { Clock } from "../clock.ts";
import type { Games } from "../log/games.ts";
import { streamLength } from "./positions.ts";
import type { Room } from "../log/room.ts";
import { viewerKey, viewerOf, type Viewer } from "../views/viewer.ts";
import { mayReceive } from "../views/seen.ts";
import { backlog, StreamItems } from "../views/stream-items.ts";
import type { YourState } from "@forum-mafia/protocol/stream";
import {
  endStream,
  frame,
  goAway,
  KEEP_ALIVE,
  Outbox,
  startEvents,
  STREAM_LIMITS,
  StreamCaps,
  type Connection,
  type StreamLimits,
} from "./connections.ts";

/** Where a session's streams learn when it expires: null when it no longer exists. */
export interface SessionExpiry {
  sessionExpiry(session: string): Promise<number | null>;
}

/** Who opens a stream: a user with the session the request came with, or nobody (the public). */
export interface StreamUser {
  readonly id: string;
  /** The session's key: its token's SHA-256 (the token itself is never kept). */
  readonly session: string;
}

/**
 * The streams of one room with the same viewer (the GM, one seat, or the public) and language. They hold
 * the same items under the same ids, so each item is serialised once for all of them.
 */
export interface Group {
  readonly feed: RoomFeed;
  readonly key: string;
  readonly viewer: Viewer;
  readonly lang: Lang;
  /** How many items this viewer's stream holds so far: the id of the last one built. */
  count: number;
  /** The channels the viewer reads, when the group was made (a player's, the GM's): a new one means a reset. */
  readonly channels: string | null;
  readonly connections: Set<Connection>;
}

/**
 * One room's live streams: the items of room.feed[0, sent) have been built for each group, and are written
 * to its streams in order (`chain`) once the entries that made them are durable.
 */
export interface RoomFeed {
  room: Room;
  sent: number;
  chain: Promise<void>;
  readonly groups: Map<string, Group>;
}

/** What one flush writes to one group's streams once durable: its items, or a reset. */
interface Sending {
  readonly group: Group;
  /** The streams in the group when the items were built: one that joins later has them in its backlog. */
  readonly connections: readonly Connection[];
  readonly bytes: Buffer | null;
}

const sameViewer = (a: Viewer, b: Viewer): boolean =>
  a.kind === b.kind && (a.kind !== "player" || (b.kind === "player" && a.seat === b.seat));

const groupKey = (v: Viewer, lang: Lang): string => `${viewerKey(v)}|${lang}`;

/** The channels a player or the GM reads, as one string, to see when one is opened to them (its history is not streamed). */
const channelsKey = (you: YourState | null): string => you?.channels.map((c) => c.id).join(",") ?? "";

/**
 * Server-sent events, one stream per viewer. Each item's id is its position in that viewer's own stream
 * (1, 2, 3…), so the ids show nothing of what others received, and a client that reconnects with
 * Last-Event-ID gets exactly the items it missed. Items are sent only once their entries are on disk.
 *
 * Issue 19: each item says what changed (protocol/src/stream.ts), built from its audience's view: the
 * public parts once per language for every stream, the viewer's own half once per viewer (StreamItems).
 * A commit's answer does not wait for the streams: once durable it marks its room, and on the next turn of
 * the event loop (setImmediate) the room's new items, with those of any commit that came meanwhile, are
 * built once per group and written once per connection, after everything built from is durable.
 */
export class Streams {
  private readonly rooms = new Map<string, RoomFeed>();
  /** Rooms with durable items (or a change of seats) not yet sent to their streams. */
  private readonly dirty = new Set<string>();
  private scheduled = false;
  private readonly bySession = new Map<string, Set<Connection>>();
  private readonly limits: StreamLimits;
  /** The streams open per address and per user (connections.ts). */
  private readonly caps: StreamCaps;
  private readonly keepAlive: NodeJS.Timeout;
  private readonly unlisten: () => void;
  /** Socket writes not done yet, done a slice per turn of the event loop (connections.ts). */
  private readonly outbox = new Outbox();
  /** The server is shutting down (endAll): a stream is ended as soon as it opens. */
  private ending = false;

  constructor(
    private readonly games: Games,
    private readonly clock: Clock,
    private readonly sessions: SessionExpiry,
    limits: Partial<StreamLimits> = {},
  ) {
    this.limits = { ...STREAM_LIMITS, ...limits };
    this.caps = new StreamCaps(this.limits);
    this.unlisten = games.listen((room) => this.published(room));
    this.keepAlive = setInterval(() => this.tick(), 25_000);
    this.keepAlive.unref();
  }

  /**
   * Open a stream, or refuse it with 429 stream/too-many (before anything is written) when a cap is
   * reached. `user` is null for a visitor without a session.
   */
  open(
    room: Room,
    user: StreamUser | null,
    after: number,
    lang: Lang,
    req: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const address = req.ip;
    this.caps.admit(user?.id ?? null, address);
    // The client went away while the request was on its way here: a 'close' listener would never fire, so
    // nothing is registered (or counted).
    if (reply.raw.destroyed) {
      reply.hijack();
      return;
    }
    // Issue 28: a stream asked for while the server shuts down goes elsewhere at once.
    if (this.ending) {
      reply.hijack();
      goAway(reply.raw);
      return;
    }
    const feed = this.feedOf(room);
    const viewer = viewerOf(room, user?.id ?? null);
    // Every item of the room's feed has been built for the groups: the stream joins its viewer's group
    // exactly where the group stands, and neither misses nor repeats an item.
    const total = streamLength(room, viewer);
    const key = groupKey(viewer, lang);
    const existing = feed.groups.get(key);
    if (existing && existing.count !== total)
      throw new Error(`stream: viewer ${key} of game ${room.id} holds ${existing.count} items, not ${total}`);
    const items = new StreamItems(room);
    const group: Group = existing ?? {
      feed,
      key,
      viewer,
      lang,
      count: total,
      channels: viewer.kind === "public" ? null : channelsKey(items.you(viewer, lang)),
      connections: new Set(),
    };
    if (!existing) feed.groups.set(key, group);

    reply.hijack();
    const raw = startEvents(reply);
    // What the client has not had yet (stream-items.ts, `backlog`); null when it must start again (a reset).
    const sent = backlog(room, viewer, lang, after, items);
    const text = sent?.map((x) => frame(x.id, x.data)).join("") ?? null;

    const c: Connection = {
      userId: user?.id ?? null,
      session: user?.session ?? null,
      address,
      raw,
      group,
      expiresAt: null,
      cancelExpiry: null,
      counted: true,
      wrote: true,
    };
    group.connections.add(c);
    // The backlog was built from the room now: it is written once all of that is durable, in order with the
    // group's items built before it (which this stream does not get: they are in its backlog).
    const durable = this.durable(room);
    feed.chain = feed.chain
      .then(() => durable)
      .then((ok) => {
        if (!ok || c.group !== group) return;
        if (text === null) this.restart(c);
        else if (text !== "") this.send(c, text);
      });
    this.caps.count(c);
    // Counted until the response is closed: the client went away, or what was written was flushed.
    raw.on("close", () => this.release(c));
    if (c.session !== null) {
      let set = this.bySession.get(c.session);
      if (!set) this.bySession.set(c.session, (set = new Set()));
      set.add(c);
      this.watchSession(c, c.session);
    }
  }

  /** A session has ended (logout, or any other revocation): its streams are closed at once. */
  closeSession(session: string): void {
    for (const c of this.bySession.get(session) ?? []) this.restart(c);
  }

  /** Issue 20: revocations may have been missed (a lost notification): every session here is read again. */
  recheckSessions(): void {
    for (const session of [...this.bySession.keys()])
      this.sessions.sessionExpiry(session).then(
        (expiresAt) => {
          if (expiresAt === null) this.closeSession(session);
        },
        (error: unknown) => {
          // As when a stream opens: without a known session the streams cannot go on.
          console.error(`stream: could not read a session: ${String(error)}`);
          this.closeSession(session);
        },
      );
  }

  /**
   * Issue 28: the server is shutting down. Every stream ends with a short reconnect delay (`retry:`) and no
   * `event: reset`: a stream id is a position in the viewer's own feed, a pure function of the log, so the
   * ids stay valid on every instance, and the client's EventSource reconnects by itself with Last-Event-ID,
   * through the proxy to another instance, and misses nothing (an item not written here yet is in that
   * instance's backlog). A stream asked for from now on is ended the same way as it opens.
   */
  endAll(): void {
    this.ending = true;
    for (const feed of [...this.rooms.values()])
      for (const group of [...feed.groups.values()])
        for (const c of [...group.connections]) {
          this.detach(c);
          endStream(c.raw, "going-away");
        }
  }

  closeAll(): void {
    clearInterval(this.keepAlive);
    this.unlisten();
    for (const feed of [...this.rooms.values()])
      for (const group of feed.groups.values())
        for (const c of group.connections) {
          this.detach(c);
          c.raw.end();
        }
    this.rooms.clear();
    this.dirty.clear();
    this.outbox.clear();
  }

  /** The room's streams, brought up to date: every item of its feed has been built for them. */
  private feedOf(room: Room): RoomFeed {
    let feed = this.rooms.get(room.id);
    if (feed && feed.room !== room) {
      // The room was set aside and rebuilt from its log: what was built from the old one may never have
      // been written, so every stream starts again.
      this.resetFeed(feed);
      feed = undefined;
    }
    if (!feed) {
      feed = { room, sent: room.feed.length, chain: Promise.resolve(), groups: new Map() };
      this.rooms.set(room.id, feed);
      return feed;
    }
    if (this.dirty.has(room.id) || feed.sent !== room.feed.length) this.flush(feed);
    return feed;
  }

  /** A commit is durable: its room's streams are brought up to date soon, after the commit's answer. */
  private published(room: Room): void {
    const feed = this.rooms.get(room.id);
    if (!feed) return; // nobody is watching: a stream opened later starts from its backlog
    if (feed.room !== room) {
      this.resetFeed(feed);
      return;
    }
    this.dirty.add(room.id);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (const id of this.dirty) {
        const f = this.rooms.get(id);
        if (f) this.flush(f);
        else this.dirty.delete(id);
      }
    });
  }

  /** Resolves true once everything applied to the room so far is durable, false if it never will be. */
  private durable(room: Room): Promise<boolean> {
    return this.games.settled(room).then(
      () => true,
      () => false,
    );
  }

  /**
   * Build each group the items of the room's feed it has not had yet, in order, and write them once they
   * are durable. The items are built now, from the room as it stands, and written only after every entry
   * applied so far is on disk (Games.settled), so nobody is shown what a crash could take back.
   */
  private flush(feed: RoomFeed): void {
    const room = feed.room;
    this.dirty.delete(room.id);
    const from = feed.sent;
    const to = room.feed.length;
    feed.sent = to;
    let ends = false;
    for (let i = from; i < to; i++) {
      const item = room.feed[i]!.item;
      if (item.type === "game" && item.event.type === "gameEnded") ends = true;
    }
    const items = new StreamItems(room);
    const sendings: Sending[] = [];
    for (const group of feed.groups.values()) {
      let chunk = "";
      for (let i = from; i < to; i++) {
        if (!mayReceive(room, room.feed[i]!, group.viewer)) continue;
        group.count++;
        // R3: at the end everyone may see every role: the streams start again rather than patch that in.
        if (!ends) chunk += frame(group.count, items.json(i, group.viewer, group.lang));
      }
      if (chunk === "" && !ends) continue;
      // A channel opened to a player (G8: the dead join the spectators' room), or the GM's at the start,
      // comes with its history in a fresh detail, not in the stream. Only an item that carried the viewer's
      // own half can tell (nothing is built to ask).
      const you = items.built(group.viewer, group.lang);
      const reset = ends || (group.channels !== null && you !== null && channelsKey(you) !== group.channels);
      sendings.push({
        group,
        connections: [...group.connections],
        bytes: reset ? null : Buffer.from(chunk, "utf8"),
      });
    }
    const durable = this.durable(room);
    feed.chain = feed.chain
      .then(() => durable)
      .then((ok) => {
        if (!ok) return this.resetFeed(feed);
        for (const { group, connections, bytes } of sendings)
          for (const c of connections)
            this.outbox.later(() => {
              if (c.group !== group) return;
              // A seat that changed hands (P4), or a player who became the public: this stream's numbering
              // no longer applies, so the client is told to start again.
              if (
                bytes === null ||
                (c.userId !== null && !sameViewer(group.viewer, viewerOf(room, c.userId)))
              )
                this.restart(c);
              else this.send(c, bytes);
            });
      });
  }

  /** Every stream of the room starts again (a rebuilt room, a write that failed). */
  private resetFeed(feed: RoomFeed): void {
    for (const group of [...feed.groups.values()]) for (const c of [...group.connections]) this.restart(c);
    if (this.rooms.get(feed.room.id) === feed) {
      this.rooms.delete(feed.room.id);
      this.dirty.delete(feed.room.id);
    }
  }

  /** Write to a stream, unless its client has stopped reading: then it is cut off rather than buffered. */
  private send(c: Connection, chunk: string | Buffer): void {
    // Back-pressure: a client that does not read is told to start again (a reset) and never buffers
    // without bound; it fetches the detail when it reads again.
    if (c.raw.writableLength > this.limits.maxBuffered) return this.restart(c);
    c.raw.write(chunk);
    c.wrote = true;
  }

  /** The stream's numbering no longer applies (a new viewer, no session, too far behind): the client starts again. */
  private restart(c: Connection): void {
    if (c.group === null) return;
    this.detach(c);
    // A client that has stopped reading never takes the reset: it is cut off after a grace period.
    endStream(c.raw, "reset");
  }

  /** Stop sending to a stream (it still counts against the caps until its response is closed). */
  private detach(c: Connection): void {
    const group = c.group;
    if (group === null) return;
    c.group = null;
    c.cancelExpiry?.();
    c.cancelExpiry = null;
    group.connections.delete(c);
    if (group.connections.size === 0 && group.feed.groups.get(group.key) === group) {
      group.feed.groups.delete(group.key);
      if (group.feed.groups.size === 0 && this.rooms.get(group.feed.room.id) === group.feed) {
        this.rooms.delete(group.feed.room.id);
        this.dirty.delete(group.feed.room.id);
      }
    }
    if (c.session !== null) {
      const set = this.bySession.get(c.session);
      set?.delete(c);
      if (set?.size === 0) this.bySession.delete(c.session);
    }
  }

  private release(c: Connection): void {
    this.detach(c);
    this.caps.release(c);
  }

  /**
   * Learn when the stream's session expires and close the stream then. The session is read after the
   * stream is registered, so a logout that came before the registration (and found nothing to close)
   * is seen here, and one after it closes the stream itself.
   */
  private watchSession(c: Connection, session: string): void {
    this.sessions.sessionExpiry(session).then(
      (expiresAt) => {
        if (c.group === null) return;
        if (expiresAt === null || expiresAt <= this.clock.now()) return this.restart(c);
        c.expiresAt = expiresAt;
        c.cancelExpiry = this.clock.at(expiresAt, () => this.restart(c));
      },
      (error: unknown) => {
        // Without a known session the stream cannot go on showing what the session may see.
        console.error(`stream: could not read a session: ${String(error)}`);
        this.restart(c);
      },
    );
  }

  /**
   * Every 25 s: a comment line keeps proxies from closing a stream that had nothing else in the last round
   * (at a busy evening most streams had items, and need none); an expired session's stream ends.
   */
  private tick(): void {
    const now = this.clock.now();
    for (const feed of [...this.rooms.values()])
      for (const group of feed.groups.values())
        for (const c of group.connections) {
          if (c.expiresAt !== null && c.expiresAt <= now) this.outbox.later(() => this.restart(c));
          else if (!c.wrote) this.outbox.later(() => this.send(c, KEEP_ALIVE));
          c.wrote = false;
        }
  }
}
