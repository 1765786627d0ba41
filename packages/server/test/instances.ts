import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { PG_LOCKS } from "../src/stores/pg-locks.ts";
import { PG_URL } from "./pg.ts";
import { startChild, tsx, type Child } from "./processes.ts";

/**
 * Issue 20: N server processes (instance.ts) on one fresh PostgreSQL database, started by a test. Each
 * database is its own namespace for NOTIFY and the leader's advisory lock, so test files do not hear each
 * other. Each instance's connections carry `application_name` = its name (`fm-inst-<i>`), so the holder of
 * the leader's lock can be found in pg_locks.
 */

const ENTRY = fileURLToPath(new URL("./instance.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** A fresh database on the tests' PostgreSQL: `url` to connect to it, `drop` to remove it. */
export async function freshDatabase(): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `fm_cluster_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      // FORCE: a killed instance's backends may linger for a moment.
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface InstanceOptions {
  /** instance.ts's CLOCK: `manual:<start ms>` or `speed:<factor>:<base ms>`. */
  readonly clock: string;
  /** 64 hex digits: every game's seed (F1). */
  readonly seed: string;
  readonly rateLimit?: number;
  /** More environment for instance.ts (PUBLIC_URL, TRUST_PROXY, WEB_ROOT for an instance behind a proxy). */
  readonly env?: Readonly<Record<string, string>>;
}

/** One server process. */
export class Instance {
  private child: Child | null = null;
  base = "";
  /** The output of its earlier runs (a restart keeps what the last run said). */
  private earlier = "";
  private nextCommand = 0;
  private readonly pending = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();

  /** instance.ts's CLOCK; a restart may give a later start (the game's time has moved on meanwhile). */
  private clock: string;

  constructor(
    readonly index: number,
    readonly name: string,
    private readonly url: string,
    private readonly opts: InstanceOptions,
  ) {
    this.clock = opts.clock;
  }

  /** The running (or last) process, for signals of a test's own (SIGSTOP). */
  get proc(): ChildProcess | null {
    return this.child?.proc ?? null;
  }

  /** The last 64 KB of its stderr (and stdout lines that are not answers), for failure messages. */
  get log(): string {
    return (this.earlier + (this.child?.log() ?? "")).slice(-65_536);
  }

  /** How it ended, once it has: `code 70`, `signal SIGKILL`. */
  get exit(): string | null {
    return this.child?.exit ?? null;
  }

  get alive(): boolean {
    return this.child !== null && this.child.alive;
  }

  /** Start the process and wait for `listening <port>` (or its exit, which is an error with its stderr). */
  async start(clock?: string): Promise<void> {
    if (clock !== undefined) this.clock = clock;
    const u = new URL(this.url);
    u.searchParams.set("application_name", this.name);
    this.earlier = this.log;
    this.base = "";
    const child = startChild({
      name: this.name,
      ...tsx(ENTRY),
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: u.toString(),
        PORT: "0",
        SEED: this.opts.seed,
        CLOCK: this.clock,
        RATE_LIMIT: String(this.opts.rateLimit ?? 0),
        ...this.opts.env,
      },
      stdin: true,
      keep: 65_536,
    });
    this.child = child;
    void child.exited.then(() => {
      child.note(`\n[${this.name} exited: ${child.exit}]\n`);
      for (const [, p] of this.pending)
        p.reject(new Error(`${this.name} exited (${child.exit}):\n${this.tail()}`));
      this.pending.clear();
    });
    // The answers to commands (`done <n>`, `failed <n> <why>`) are taken; every other line is kept.
    child.onLine((line) => {
      const answer = /^(done|failed) (\d+)(?: (.*))?$/.exec(line);
      const p = answer ? this.pending.get(answer[2]!) : undefined;
      if (!answer || !p) return false;
      this.pending.delete(answer[2]!);
      if (answer[1] === "done") p.resolve();
      else p.reject(new Error(`${this.name}: ${answer[3] ?? "failed"}`));
      return true;
    });
    const port = await child.readyLine(
      (line) => /^listening (\d+)$/.exec(line)?.[1] ?? null,
      () => `${this.name} exited (${child.exit}) before listening:\n${this.tail()}`,
    );
    this.base = `http://127.0.0.1:${port}`;
  }

  /** The end of its log, for an error message. */
  tail(chars = 4000): string {
    return this.log.slice(-chars);
  }

  private command(text: string): Promise<void> {
    if (!this.alive) return Promise.reject(new Error(`${this.name} is not running (${this.exit})`));
    const n = String(this.nextCommand++);
    return new Promise((resolve, reject) => {
      this.pending.set(n, { resolve, reject });
      this.child!.write(`${n} ${text}`);
    });
  }

  /** Move its manual clock on by `ms`, firing what falls due; resolves once that work is done. */
  advance(ms: number): Promise<void> {
    return this.command(`advance ${ms}`);
  }

  idle(): Promise<void> {
    return this.command("idle");
  }

  /** kill -9: no shutdown, its connections are cut by the kernel. */
  async kill(): Promise<void> {
    if (!this.alive) return;
    await this.child!.kill();
  }

  /** SIGTERM (a clean close), then SIGKILL if it has not ended in 10 s. */
  async stop(): Promise<void> {
    if (!this.alive) return;
    await this.child!.terminate({ guardMs: 10_000 });
  }
}

/** N instances on one fresh database. */
export class Instances {
  private constructor(
    readonly list: Instance[],
    readonly db: { name: string; url: string; drop: () => Promise<void> },
    /** A connection of the test's own to the shared database (pg_locks, the log). */
    readonly sql: pg.Client,
  ) {}

  /** Create the database and start `n` instances at once (they migrate the empty database together). */
  static async start(n: number, opts: InstanceOptions): Promise<Instances> {
    const db = await freshDatabase();
    const list = Array.from({ length: n }, (_, i) => new Instance(i, `fm-inst-${i}`, db.url, opts));
    const sql = new pg.Client({ connectionString: db.url, application_name: "fm-test" });
    await sql.connect();
    const all = new Instances(list, db, sql);
    // Every start is waited for (settled): a second failure must not be left unhandled while the first is.
    const started = await Promise.allSettled(list.map((i) => i.start()));
    const failed = started.find((r) => r.status === "rejected");
    if (failed) {
      await all.close();
      throw failed.reason;
    }
    return all;
  }

  get(i: number): Instance {
    return this.list[i]!;
  }

  get running(): Instance[] {
    return this.list.filter((i) => i.alive);
  }

  async kill(i: number): Promise<void> {
    await this.get(i).kill();
  }

  /** Start instance `i` again (stopped first if it runs); `clock` is its new CLOCK, e.g. `manual:<now>`. */
  async restart(i: number, clock?: string): Promise<void> {
    const inst = this.get(i);
    await inst.stop();
    await inst.start(clock);
  }

  /** Advance every running instance's manual clock by `ms`, together. */
  async advance(ms: number): Promise<void> {
    await Promise.all(this.running.map((i) => i.advance(ms)));
  }

  /** The index of the instance holding the leader's lock, or null when none does. */
  async leader(): Promise<number | null> {
    const r = await this.sql.query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.database = (
         SELECT oid FROM pg_database WHERE datname = current_database())`,
      [PG_LOCKS.leader],
    );
    if (r.rows.length > 1) throw new Error(`two holders of the leader's lock: ${JSON.stringify(r.rows)}`);
    const name = r.rows[0]?.name;
    if (name === undefined) return null;
    const i = this.list.findIndex((x) => x.name === name);
    if (i < 0)
      throw new Error(`the leader's lock is held by ${JSON.stringify(name)}, no instance of the test`);
    return i;
  }

  /** A game's log as stored: each entry's seq and body, in order. */
  async log(gameId: string): Promise<{ seq: number; body: { kind: string } & Record<string, unknown> }[]> {
    const r = await this.sql.query<{ seq: number; body: { kind: string } & Record<string, unknown> }>(
      "SELECT seq, body FROM game_entries WHERE game_id = $1 ORDER BY seq",
      [gameId],
    );
    return r.rows;
  }

  /** Every instance's log tail, for a failure message. */
  tails(): string {
    return this.list.map((i) => `--- ${i.name} (${i.exit ?? "running"}) ---\n${i.tail()}`).join("\n");
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.list.map((i) => i.stop()));
    await this.sql.end().catch(() => {});
    await this.db.drop();
  }
}

/** One user's requests over real HTTP to any instance: keeps the session cookie like a browser. */
export interface HttpReply {
  readonly status: number;
  readonly body: unknown;
  readonly raw: string;
}

export class HttpUser {
  cookie: string | null = null;

  async req(
    base: string,
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    body?: unknown,
  ): Promise<HttpReply> {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const set = res.headers.getSetCookie()[0];
    if (set) {
      const pair = set.split(";")[0]!;
      this.cookie = pair.endsWith("=") ? null : pair;
    }
    const raw = await res.text();
    let parsed: unknown = null;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      parsed = raw;
    }
    return { status: res.status, body: parsed, raw };
  }
}
