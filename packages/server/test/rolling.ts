import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { sseBlocks } from "./play.ts";
import { startChild, tsx, type Child } from "./processes.ts";

/**
 * Issue 28: what a rolling restart test needs: server processes started as in production (bin/start.ts,
 * which drains on SIGTERM) on fixed ports (the proxy's config names them), and clients through the proxy
 * that write with an Idempotency-Key and retry as the web app does (web/src/api.ts), and read the live
 * stream as EventSource does.
 */

const START = fileURLToPath(new URL("../bin/start.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** One `npm start` process (bin/start.ts) on a fixed port, restarted in place. */
export class StartedServer {
  private child: Child | null = null;
  /** The output of its earlier runs (a restart keeps what the last run said). */
  private earlier = "";
  /** The exit code of each SIGTERM stop, in order (0: drained and closed cleanly). */
  readonly stops: (number | null)[] = [];

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Readonly<Record<string, string>>,
  ) {}

  /** Its stderr and stdout, last 32 KB (for a failure's message). */
  get log(): string {
    return (this.earlier + (this.child?.log() ?? "")).slice(-32_768);
  }

  /** Start it and wait until it listens (its `forum-mafia: …` line), or fail with its output. */
  async start(): Promise<void> {
    this.earlier = this.log;
    const child = startChild({
      name: this.name,
      ...tsx(START),
      cwd: ROOT,
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: "127.0.0.1" },
      keep: 32_768,
    });
    this.child = child;
    await child.readyLine(
      (line) => (line.startsWith("forum-mafia: ") ? line : null),
      ({ code }) => `${this.name} exited (${code}) before listening:\n${this.log.slice(-4000)}`,
    );
  }

  /** SIGTERM, as a rolling restart sends it; resolves with the exit code (SIGKILL after a generous guard). */
  async stop(): Promise<number | null> {
    const child = this.child;
    if (!child || !child.alive) return null;
    const { code } = await child.terminate({ guardMs: 60_000 });
    this.stops.push(code);
    return code;
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !child.alive) return;
    await child.kill();
  }
}

/** A fresh database on the tests' PostgreSQL, dropped by `drop`. */
export async function scratchDatabase(pgUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `fm_rolling_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(pgUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly raw: string;
}

/** What a client sees when an instance stops under it: no answer (0), or the proxy's own 502/503/504. */
export const retryable = (status: number): boolean => status === 0 || status === 502 || status === 503;

/**
 * A user through the proxy, with its session cookie and the site's Origin, as a browser sends them. A
 * write carries a new Idempotency-Key (when `keys` is on) and, per the web app's policy, is sent once more
 * with the same key after a network error, a 502 or a 503; every answer and every retry is recorded.
 */
export class ProxyUser {
  cookie: string | null = null;
  retries = 0;

  constructor(
    readonly base: string,
    readonly nick: string,
    private readonly keys = true,
  ) {}

  private async once(method: string, url: string, body: unknown, key: string | null): Promise<Answer> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${url}`, {
        method,
        headers: {
          origin: this.base,
          ...(this.cookie ? { cookie: this.cookie } : {}),
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...(key ? { "idempotency-key": key } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      return { status: 0, body: null, raw: String(error) };
    }
    const set = res.headers.getSetCookie()[0];
    if (set) {
      const pair = set.split(";")[0]!;
      this.cookie = pair.endsWith("=") ? null : pair;
    }
    let raw: string;
    try {
      raw = await res.text();
    } catch (error) {
      return { status: 0, body: null, raw: String(error) };
    }
    let parsed: unknown = raw;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      // not JSON: a proxy's page
    }
    return { status: res.status, body: parsed, raw };
  }

  /** A request, sent once more (the same key) if the first gets no answer, a 502 or a 503. */
  async req(method: "GET" | "POST" | "DELETE", url: string, body?: unknown): Promise<Answer> {
    const key = method !== "GET" && this.keys ? randomUUID() : null;
    const first = await this.once(method, url, body, key);
    if (!retryable(first.status)) return first;
    this.retries++;
    await new Promise((r) => setTimeout(r, 250 + Math.random() * 250));
    return this.once(method, url, body, key);
  }

  get = (url: string): Promise<Answer> => this.req("GET", url);
  post = (url: string, body?: unknown): Promise<Answer> => this.req("POST", url, body);
}

/**
 * A live stream through the proxy read as EventSource reads it: when the connection ends it waits the
 * server's `retry:` delay and reconnects with Last-Event-ID. Gaps (an id past the next), repeats and
 * `event: reset` are recorded, never smoothed over; the posts received are kept by id.
 */
export class StreamReader {
  lastId = 0;
  retryMs = 2000;
  connections = 0;
  resets = 0;
  readonly gaps: string[] = [];
  repeats = 0;
  readonly posts = new Set<string>();
  private stopped = false;
  private readonly abort = new AbortController();
  private running: Promise<void> = Promise.resolve();

  constructor(
    readonly label: string,
    private readonly user: ProxyUser,
    private readonly gameId: string,
  ) {}

  start(): void {
    this.running = this.loop();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        const res = await fetch(`${this.user.base}/api/games/${this.gameId}/stream`, {
          headers: {
            ...(this.user.cookie ? { cookie: this.user.cookie } : {}),
            ...(this.lastId > 0 ? { "last-event-id": String(this.lastId) } : {}),
          },
          signal: this.abort.signal,
        });
        if (res.status === 200 && res.body) {
          this.connections++;
          await sseBlocks(res.body, (block) => this.block(block));
        } else await res.text().catch(() => "");
      } catch {
        // the connection dropped: as EventSource, try again after the delay
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, this.retryMs));
    }
  }

  private block(text: string): void {
    let id: number | null = null;
    let data: string | null = null;
    for (const line of text.split("\n")) {
      if (line === "event: reset") this.resets++;
      else if (line.startsWith("retry: ")) this.retryMs = Number(line.slice(7));
      else if (line.startsWith("id: ")) id = Number(line.slice(4));
      else if (line.startsWith("data: ")) data = line.slice(6);
    }
    if (id === null || data === null) return;
    if (id <= this.lastId) {
      this.repeats++;
      return;
    }
    if (id !== this.lastId + 1) this.gaps.push(`${this.label}: ${this.lastId} → ${id}`);
    this.lastId = id;
    const item = JSON.parse(data) as { type: string; post?: { id: string } };
    if (item.type === "post" && item.post) this.posts.add(item.post.id);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.running;
  }
}

/**
 * A write sent straight to one instance, its body in two halves: the first now, the second after
 * `whileSending` has run (e.g. the instance's SIGTERM), so the request is in flight, accepted and half
 * read, when the instance begins to shut down. No retry: its answer (status 0 if the connection was cut)
 * and its Connection header.
 */
export function halfSentPost(opts: {
  port: number;
  host: string;
  path: string;
  cookie: string | null;
  key: string;
  body: unknown;
  whileSending: () => Promise<void>;
}): Promise<{ status: number; connection: string | undefined; raw: string }> {
  const bytes = Buffer.from(JSON.stringify(opts.body));
  const half = Math.floor(bytes.length / 2);
  return new Promise((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: opts.port,
        method: "POST",
        path: opts.path,
        headers: {
          host: opts.host,
          "content-type": "application/json",
          "content-length": String(bytes.length),
          "idempotency-key": opts.key,
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
        },
      },
      (res) => {
        let raw = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (raw += d));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, raw }),
        );
        res.on("error", (e) => resolve({ status: 0, connection: undefined, raw: String(e) }));
      },
    );
    req.on("error", (e) => resolve({ status: 0, connection: undefined, raw: String(e) }));
    req.flushHeaders();
    req.write(bytes.subarray(0, half));
    // The server has the headers and half the body before the shutdown starts.
    setTimeout(() => {
      void opts.whileSending().then(() => req.end(bytes.subarray(half)));
    }, 300);
  });
}
