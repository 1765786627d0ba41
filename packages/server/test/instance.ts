import { createInterface } from "node:readline";
import type { AddressInfo } from "node:net";
import { TEST_PASSWORD_COST } from "../src/accounts/auth.ts";
import type { Clock } from "../src/clock.ts";
import { PgStore } from "../src/stores/pg-store.ts";
import { createServer, parsePublicUrl, parseTrustProxy, type Server } from "../src/server.ts";

/**
 * Issue 20, tests only: one server process on a shared PostgreSQL, started by instances.ts. Environment:
 * - DATABASE_URL: the database every instance of the test shares (instances.ts sets application_name in it,
 *   so the test can tell whose connection holds the leader's lock in pg_locks);
 * - PORT: 0 for any free port; the chosen one is printed as `listening <port>`;
 * - SEED: the seed of every game (F1). A constant: each instance (and the control server) counts its own
 *   games, so a counter-based seed would differ with the instance a game was created on, while the control
 *   comparison needs the same deal and the same dice for the same game. The game's id is random, so
 *   nothing but a constant is a function of the game that every process agrees on;
 * - CLOCK: `manual:<start ms>` (time stands still until the test sends `advance`: every instance and the
 *   control agree to the millisecond, so timestamps compare exactly), or `speed:<factor>:<base ms>`
 *   (one real second is `factor` game seconds, counted from `base`, which every instance is given);
 * - RATE_LIMIT: 0 by default;
 * - PUBLIC_URL, TRUST_PROXY (as bin/start.ts reads them) and WEB_ROOT (the built web app), for an instance
 *   behind a proxy; none by default.
 *
 * Commands on stdin, one per line, answered on stdout with `done <n>` (or `failed <n> <why>`):
 * - `<n> advance <ms>`: move the manual clock on, firing each due timer in order and waiting for the work
 *   it started (as the tests' FakeClock does);
 * - `<n> idle`: wait for the writes and the demo bots' moves under way.
 * Leadership changes are printed as `leader yes|no` (for the test's log; pg_locks is the evidence).
 */

interface Timer {
  readonly at: number;
  readonly fn: () => void;
  readonly id: number;
}

/** A clock that moves only when told to, shared in value by every process of a test. */
class ManualClock implements Clock {
  private timers: Timer[] = [];
  private nextId = 0;
  private advancing = false;
  private flushing = false;
  /** Waited for after each timer fires (set to the server's idle once it exists). */
  afterFire: () => Promise<void> = async () => {};

  constructor(private t: number) {}

  now(): number {
    return this.t;
  }

  at(at: number, fn: () => void): () => void {
    const id = this.nextId++;
    this.timers.push({ at, fn, id });
    // A deadline that is already due (e.g. one that fell due while no instance led) fires now, as the
    // system clock's setTimeout(…, 0) would, unless an advance is firing timers anyway.
    if (at <= this.t) setImmediate(() => void this.flush());
    return () => {
      this.timers = this.timers.filter((x) => x.id !== id);
    };
  }

  private async flush(): Promise<void> {
    if (this.advancing || this.flushing) return;
    this.flushing = true;
    try {
      await this.fireUntil(this.t);
    } finally {
      this.flushing = false;
    }
  }

  private async fireUntil(end: number): Promise<void> {
    for (;;) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = Math.max(this.t, due.at);
      due.fn();
      await this.afterFire();
    }
  }

  async advance(ms: number): Promise<void> {
    this.advancing = true;
    try {
      const end = this.t + ms;
      await this.fireUntil(end);
      this.t = end;
    } finally {
      this.advancing = false;
    }
    // A timer armed while the last one's work was being awaited, already due: fired now, not at the next advance.
    if (this.timers.some((x) => x.at <= this.t)) setImmediate(() => void this.flush());
  }
}

/** Real time sped up by `speed`, counted from `base` (the same in every instance, so they agree). */
function speedClock(speed: number, base: number): Clock {
  const now = (): number => base + (Date.now() - base) * speed;
  return {
    now,
    at(at, fn) {
      let timer: NodeJS.Timeout;
      // Re-armed while early: setTimeout may fire a little before its time, and it holds at most ~24.8 days.
      const arm = (): void => {
        const wait = (at - now()) / speed;
        if (wait <= 0) {
          timer = setTimeout(fn, 0);
          return;
        }
        timer = setTimeout(arm, Math.min(Math.ceil(wait), 2 ** 31 - 1));
      };
      arm();
      return () => clearTimeout(timer);
    },
  };
}

function parseClock(spec: string | undefined): { clock: Clock; manual: ManualClock | null } {
  const [kind, a, b] = (spec ?? "").split(":");
  if (kind === "manual" && a !== undefined && /^\d+$/.test(a)) {
    const manual = new ManualClock(Number(a));
    return { clock: manual, manual };
  }
  if (kind === "speed" && a !== undefined && b !== undefined && Number(a) > 0 && /^\d+$/.test(b))
    return { clock: speedClock(Number(a), Number(b)), manual: null };
  throw new Error(
    `CLOCK: expected manual:<start ms> or speed:<factor>:<base ms>, got ${JSON.stringify(spec)}`,
  );
}

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL: required (the shared PostgreSQL database)");
const seed = process.env.SEED;
if (!seed || !/^[0-9a-f]{64}$/.test(seed)) throw new Error("SEED: expected 64 hex digits");
const { clock, manual } = parseClock(process.env.CLOCK);
const publicUrl = parsePublicUrl(process.env.PUBLIC_URL);
if ("error" in publicUrl) throw new Error(publicUrl.error);

// Issue 28: STORE_TIMEOUT_MS, the store's time limit (the fault tests shorten it).
const timeoutMs = Number(process.env.STORE_TIMEOUT_MS) || undefined;
const store = await PgStore.connect({ connectionString: url }, timeoutMs ? { timeoutMs } : {});
const server: Server = await createServer({
  store,
  clock,
  seed: () => seed,
  rateLimit: Number(process.env.RATE_LIMIT ?? 0),
  publicUrl: publicUrl.url,
  trustProxy: parseTrustProxy(process.env.TRUST_PROXY),
  webRoot: process.env.WEB_ROOT || null,
  // A test server: its users' passwords at the tests' cheap argon2 cost (bin/start.ts hashes at production's).
  passwordCost: TEST_PASSWORD_COST,
});
if (manual)
  manual.afterFire = async () => {
    await server.games.idle();
    await server.demo.idle();
    await server.games.idle();
  };
server.cluster.onLeader((leader) => console.log(`leader ${leader ? "yes" : "no"}`));
await server.app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
console.log(`listening ${(server.app.server.address() as AddressInfo).port}`);

async function command(line: string): Promise<void> {
  const [n, verb, arg] = line.trim().split(" ");
  try {
    if (verb === "advance" && manual) await manual.advance(Number(arg));
    else if (verb === "idle") {
      await server.games.idle();
      await server.demo.idle();
    } else throw new Error(`unknown command ${JSON.stringify(line)}`);
    console.log(`done ${n}`);
  } catch (error) {
    console.log(`failed ${n} ${String(error).replaceAll("\n", " ")}`);
  }
}

createInterface({ input: process.stdin }).on("line", (line) => void command(line));
const stop = (): void => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
