import type { FastifyReply, FastifyRequest } from "fastify";
import type { Games } from "./games.ts";
import type { Room } from "./room.ts";
import { viewerOf, type Viewer } from "./viewer.ts";
import { current, mayReceive, streamSince } from "./views.ts";

interface Connection {
  readonly room: Room;
  readonly userId: string | null;
  readonly viewer: Viewer;
  /** How many items this viewer's stream holds so far: the id of the last one sent. */
  count: number;
  readonly write: (chunk: string) => void;
  readonly end: () => void;
}

const sameViewer = (a: Viewer, b: Viewer): boolean =>
  a.kind === b.kind && (a.kind !== "player" || (b.kind === "player" && a.seat === b.seat));

/**
 * Server-sent events, one stream per viewer. Each item's id is its position in that viewer's own stream
 * (1, 2, 3…), so the ids show nothing of what others received, and a client that reconnects with
 * Last-Event-ID gets exactly the items it missed. Items are sent only once their entries are on disk.
 */
export class Streams {
  private readonly byRoom = new Map<string, Set<Connection>>();
  private readonly keepAlive: NodeJS.Timeout;

  constructor(games: Games) {
    games.listen((room, from, to) => this.publish(room, from, to));
    this.keepAlive = setInterval(() => {
      for (const set of this.byRoom.values()) for (const c of set) c.write(": keep-alive\n\n");
    }, 25_000);
    this.keepAlive.unref();
  }

  open(room: Room, userId: string | null, after: number, req: FastifyRequest, reply: FastifyReply): void {
    const viewer = viewerOf(room, userId);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    const { items: backlog, total } = streamSince(room, viewer, after);
    const c: Connection = {
      room,
      userId,
      viewer,
      // Everything up to the last backlog item (or, when the client is up to date, all it has seen).
      count: total,
      write: (chunk) => void raw.write(chunk),
      end: () => raw.end(),
    };
    raw.write("retry: 2000\n\n");
    for (const { id, item } of backlog) c.write(`id: ${id}\ndata: ${JSON.stringify(item)}\n\n`);
    let set = this.byRoom.get(room.id);
    if (!set) this.byRoom.set(room.id, (set = new Set()));
    set.add(c);
    req.raw.on("close", () => {
      set.delete(c);
      if (set.size === 0) this.byRoom.delete(room.id);
    });
  }

  private publish(room: Room, from: number, to: number): void {
    const set = this.byRoom.get(room.id);
    if (!set) return;
    for (const c of set) {
      // A seat that changed hands (P4), or a player who became the public: this stream's numbering no
      // longer applies, so the client is told to start again.
      if (!sameViewer(c.viewer, viewerOf(room, c.userId))) {
        c.write("event: reset\ndata: {}\n\n");
        c.end();
        set.delete(c);
        continue;
      }
      for (let i = from; i < to; i++) {
        const entry = room.feed[i]!;
        if (!mayReceive(room, entry, c.viewer)) continue;
        c.count++;
        c.write(`id: ${c.count}\ndata: ${JSON.stringify(current(room, entry.item))}\n\n`);
      }
    }
  }

  closeAll(): void {
    clearInterval(this.keepAlive);
    for (const set of this.byRoom.values()) for (const c of set) c.end();
    this.byRoom.clear();
  }
}
