import type { ServerResponse } from "node:http";
import type { FastifyReply } from "fastify";
import { ApiError } from "../http/errors.ts";
import type { Group } from "./stream.ts";

/**
 * The live streams' connections and their writes (stream.ts keeps the rooms and the groups of viewers):
 * the caps on open streams, the server-sent events' framing, the ends of a stream (a reset, a shutdown),
 * and the queue that does the socket writes a slice per turn of the event loop.
 */

/** How many live streams may be open at once, and how far behind one may fall. */
export interface StreamLimits {
  /** Streams without a session from one address, across all games (the thread is public). */
  readonly perAnonymousAddress: number;
  /** Streams of one logged-in user (their tabs and devices), across all games. */
  readonly perUser: number;
  /** Every stream from one address, logged in or not: generous, as players behind one NAT share it. */
  readonly perAddress: number;
  /** Bytes a stream may leave unread in its socket's buffer; a client that falls further behind is cut off. */
  readonly maxBuffered: number;
}

export const STREAM_LIMITS: StreamLimits = {
  perAnonymousAddress: 8,
  perUser: 8,
  perAddress: 64,
  maxBuffered: 4 * 1024 * 1024,
};

/** One open stream. */
export interface Connection {
  readonly userId: string | null;
  readonly session: string | null;
  readonly address: string;
  readonly raw: ServerResponse;
  /** The viewer's group while the stream is live; null once it is closed (nothing more is sent). */
  group: Group | null;
  /** When the session ends (known shortly after the stream opens). */
  expiresAt: number | null;
  cancelExpiry: (() => void) | null;
  /** Whether it still counts against the caps: until its response is closed. */
  counted: boolean;
  /** Whether anything was written since the last keep-alive round: a stream that had items needs none. */
  wrote: boolean;
}

/** How long a stream ended with a reset may take to flush it before it is cut off (a client that stopped reading). */
const END_GRACE_MS = 10_000;

/**
 * How many socket writes one turn of the event loop does at most: about 25 µs each on this machine, most of
 * it in the writev that Node does at the end of the turn (so they are counted, not timed). A write request
 * waits for a few turns (its request, the group commit, the fsync's answer), so long turns add up in every
 * writer's latency (the bench's capacity run, write p99 with 8,500 streams open: 52 ms at 256 a turn, 38 ms
 * at 64, 31 ms at 32; a vote's fan-out to 1,000 viewers stayed at 24–35 ms).
 */
const WRITE_SLICE = 32;

/** The keep-alive comment line, written to a stream that had nothing else in a round. */
export const KEEP_ALIVE = ": keep-alive\n\n";
const RESET = "event: reset\ndata: {}\n\n";
/** Issue 28: how long a client whose stream was ended by a shutdown waits before it reconnects. */
export const SHUTDOWN_RETRY_MS = 500;
/**
 * The end of a stream when its server shuts down: a reconnect delay, and no reset, since the ids stay valid
 * on every instance; the client's EventSource reconnects with Last-Event-ID (issue 28).
 */
const GOING_AWAY = `: shutting down\nretry: ${SHUTDOWN_RETRY_MS}\n\n`;

/** One item as a server-sent event: its id is its position in the viewer's own stream. */
export const frame = (id: number, data: string): string => `id: ${id}\ndata: ${data}\n\n`;

/** Issue 28: a stream asked for while the server shuts down is ended at once, with the reconnect delay. */
export function goAway(raw: ServerResponse): void {
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "close",
  });
  raw.end(GOING_AWAY);
}

/** Open the event stream on a hijacked reply, with the client's reconnect delay. */
export function startEvents(reply: FastifyReply): ServerResponse {
  const raw = reply.raw;
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  raw.write("retry: 2000\n\n");
  return raw;
}

/**
 * End a stream with `last` (a reset, or the shutdown's reconnect delay). A client that has stopped reading
 * never takes it: it is cut off after a grace period.
 */
export function endStream(raw: ServerResponse, last: "reset" | "going-away"): void {
  raw.end(last === "reset" ? RESET : GOING_AWAY);
  if (!raw.writableFinished) setTimeout(() => raw.destroy(), END_GRACE_MS).unref();
}

const bump = (counts: Map<string, number>, key: string, by: 1 | -1): void => {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
};

/** The streams open per address, per address without a session, and per user, against the limits. */
export class StreamCaps {
  private readonly anonymousByAddress = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();
  private readonly byUser = new Map<string, number>();

  constructor(private readonly limits: StreamLimits) {}

  /** Refuse a stream with 429 stream/too-many (before anything is written) when a cap is reached. */
  admit(userId: string | null, address: string): void {
    const l = this.limits;
    const tooMany = (message: string): ApiError =>
      new ApiError(429, "stream/too-many", `too many live streams: ${message}; close one and retry`);
    if ((this.byAddress.get(address) ?? 0) >= l.perAddress)
      throw tooMany(`at most ${l.perAddress} may be open at once from one address`);
    if (userId === null && (this.anonymousByAddress.get(address) ?? 0) >= l.perAnonymousAddress)
      throw tooMany(
        `at most ${l.perAnonymousAddress} may be open at once from one address without logging in`,
      );
    if (userId !== null && (this.byUser.get(userId) ?? 0) >= l.perUser)
      throw tooMany(`at most ${l.perUser} may be open at once per user, across all games`);
  }

  /** Count an open stream, until its response is closed (`release`). */
  count(c: Connection): void {
    bump(this.byAddress, c.address, 1);
    if (c.userId === null) bump(this.anonymousByAddress, c.address, 1);
    else bump(this.byUser, c.userId, 1);
  }

  /** The stream's response is closed: it no longer counts. */
  release(c: Connection): void {
    if (!c.counted) return;
    c.counted = false;
    bump(this.byAddress, c.address, -1);
    if (c.userId === null) bump(this.anonymousByAddress, c.address, -1);
    else bump(this.byUser, c.userId, -1);
  }
}

/**
 * Socket writes done soon: writes wait in one queue, done WRITE_SLICE per turn of the event loop, so a
 * burst (a vote to a thousand viewers, every room of a busy evening at once, the keep-alive round) never
 * holds the loop for long and the requests in between are answered. A stream's writes keep their order.
 */
export class Outbox {
  /** Socket writes not done yet, and where the next slice starts. */
  private readonly writes: (() => void)[] = [];
  private head = 0;
  private draining = false;

  later(write: () => void): void {
    this.writes.push(write);
    if (this.draining) return;
    this.draining = true;
    setImmediate(() => this.drain());
  }

  /** Forget every write not done yet (the streams are all closed). */
  clear(): void {
    this.writes.length = 0;
    this.head = 0;
  }

  private drain(): void {
    const end = Math.min(this.writes.length, this.head + WRITE_SLICE);
    while (this.head < end) this.writes[this.head++]!();
    if (this.head < this.writes.length) {
      setImmediate(() => this.drain());
      return;
    }
    this.writes.length = 0;
    this.head = 0;
    this.draining = false;
  }
}
