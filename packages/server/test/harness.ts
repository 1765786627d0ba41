import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_PASSWORD_COST, type PasswordCost } from "../src/accounts/auth.ts";
import type { Clock } from "../src/clock.ts";
import { createServer, type Server, type ServerOptions } from "../src/server.ts";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import type { Store } from "../src/stores/store.ts";

/** A clock the test moves by hand: timers fire when `advance` passes them. */
export class FakeClock implements Clock {
  private t: number;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 0;
  /** Waited for after each timer fires: the test server sets it to "every write answered". */
  afterFire: () => Promise<void> = async () => {};
  constructor(start = Date.UTC(2026, 10, 30, 9, 0)) {
    this.t = start;
  }
  now(): number {
    return this.t;
  }
  at(at: number, fn: () => void): () => void {
    const id = this.nextId++;
    this.timers.push({ at, fn, id });
    return () => {
      this.timers = this.timers.filter((x) => x.id !== id);
    };
  }
  /** Move time on, firing each due timer in order; waits for the work each one starts. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = Math.max(this.t, due.at);
      due.fn();
      await settle();
      await this.afterFire();
    }
    this.t = end;
  }
}

/** Let pending I/O and group commits finish. */
export const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

export interface TestServer {
  server: Server;
  clock: FakeClock;
  dir: string;
  file: string;
  restart(): Promise<TestServer>;
  close(): Promise<void>;
}

/**
 * A server on the given store with the test's fake clock, which waits after each deadline for the work it
 * set off: the deadline's own write, then the demo bots' moves, then theirs. Its users' passwords are
 * hashed at the tests' cheap argon2 cost (TEST_PASSWORD_COST) unless `passwordCost` says otherwise.
 */
export async function serverOn(
  store: Store,
  clock: FakeClock,
  opts: Omit<ServerOptions, "store" | "clock">,
): Promise<Server> {
  // The tools' 10 s budget per request (tools.ts) is the product's guard against a slow input; on a busy
  // machine a 5 MB paste in the tests ran past it (notebook-load, large-body at load 9–13), so the tests'
  // servers give the work two minutes, a hang guard. tools.test.ts tests the budget itself, with its own.
  const server = await createServer({
    store,
    clock,
    passwordCost: TEST_PASSWORD_COST,
    ...opts,
    tools: { budgetMs: 120_000, ...opts.tools },
  });
  clock.afterFire = async () => {
    await server.games.idle();
    await server.demo.idle();
    await server.games.idle();
  };
  return server;
}

/** A server on a temporary SQLite file, with a fake clock and no rate limits. */
export async function testServer(
  opts: {
    dir?: string;
    clock?: FakeClock;
    rateLimit?: number;
    seed?: () => string;
    webRoot?: string;
    publicUrl?: string;
    trustProxy?: boolean | string;
    /** TEST_PASSWORD_COST by default (serverOn). */
    passwordCost?: PasswordCost;
  } = {},
): Promise<TestServer> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), "fm-server-"));
  const file = join(dir, "forum-mafia.sqlite");
  const clock = opts.clock ?? new FakeClock();
  const server = await serverOn(new SqliteStore(file), clock, {
    rateLimit: opts.rateLimit ?? 0,
    ...(opts.seed ? { seed: opts.seed } : {}),
    ...(opts.webRoot ? { webRoot: opts.webRoot } : {}),
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    ...(opts.trustProxy !== undefined ? { trustProxy: opts.trustProxy } : {}),
    ...(opts.passwordCost ? { passwordCost: opts.passwordCost } : {}),
  });
  const t: TestServer = {
    server,
    clock,
    dir,
    file,
    async restart() {
      await server.close();
      return testServer({ ...opts, dir, clock });
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

/**
 * A TestServer that stays the same object across restarts, so clients made by setUpGame (which read
 * `t.server.app` on every request) keep talking to the running server with their cookies.
 */
export class LiveServer implements TestServer {
  constructor(protected cur: TestServer) {}
  get server(): TestServer["server"] {
    return this.cur.server;
  }
  get clock(): FakeClock {
    return this.cur.clock;
  }
  get dir(): string {
    return this.cur.dir;
  }
  get file(): string {
    return this.cur.file;
  }
  async restart(): Promise<TestServer> {
    this.cur = await this.cur.restart();
    return this;
  }
  close(): Promise<void> {
    return this.cur.close();
  }
}
