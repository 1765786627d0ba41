import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer as listenOn, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { PG_LOCKS } from "../src/stores/pg-locks.ts";
import { startChild } from "./processes.ts";

/**
 * Issue 20: Debian's haproxy (.ci/run installs it) in front of several server instances, round-robin, as a
 * community would deploy them. Plain HTTP on 127.0.0.1: the TLS side is proxy.test.ts's.
 */

export const HAPROXY = "/usr/sbin/haproxy";

/** Why haproxy cannot run here, or null. Under CI a missing haproxy is a failure, never a quiet skip. */
export function haproxyMissing(): string | null {
  if (existsSync(HAPROXY)) return null;
  const why = `no haproxy at ${HAPROXY}: install Debian's haproxy (apt-get install -y haproxy) to run the proxy tests`;
  if (process.env.CI) throw new Error(why);
  return why;
}

/**
 * A port free on 127.0.0.1 now. haproxy's config cannot bind port 0, so the port is chosen first; another
 * process could take it in between, which a test would see as haproxy failing to start.
 */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = listenOn();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

export interface Backend {
  /** The server's name in haproxy's config, sent back in the `x-served-by` response header. */
  readonly name: string;
  readonly port: number;
}

/** What haproxy's health checks say of a backend server now. */
export type BackendState = "UP" | "DOWN" | "DRAIN" | "MAINT" | "other";

export interface Haproxy {
  readonly port: number;
  /** The proxy's origin, `http://127.0.0.1:<port>`: the instances' PUBLIC_URL. */
  readonly url: string;
  /** Each backend server's state, by name, from haproxy's runtime API (`show stat`). */
  states(): Promise<Record<string, BackendState>>;
  /**
   * Steer the traffic (haproxy's runtime API): `drain` sends a server no new request while its checks go
   * on, `ready` takes it back into the rotation.
   */
  setState(name: string, state: "ready" | "drain"): Promise<void>;
  /** Wait until haproxy's checks see the named backends in the given states. */
  waitFor(want: Record<string, BackendState>, guardMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** The header haproxy adds to every answer: which backend server gave it (the tests count the spread). */
export const SERVED_BY = "x-served-by";

/**
 * The config: round-robin over the backends, each checked on /api/health every 500 ms and taken out after
 * one failed check (a killed instance stops taking requests within about half a second), back after one
 * good one. A request whose connection is refused (the instance is gone) is sent to another server
 * (`option redispatch`, `retries`): it never reached the dead one, so even a write may go again. Live
 * streams stay open for hours (`timeout server`, `timeout tunnel`); the instances trust the proxy's
 * X-Forwarded-For for the rate limits (TRUST_PROXY=loopback).
 */
export function haproxyConfig(opts: {
  port: number;
  backends: readonly Backend[];
  /** The Host the health checks send: the site's (PUBLIC_URL's), or the app refuses them (421). */
  host: string;
  socket: string;
  /**
   * Issue 28 (docs/server.md, "Deployment"): a request whose connection closed before any answer (an
   * instance that stops, and closes a kept-alive connection as the request goes out) is sent again to
   * another server (`retry-on`), but a write without an Idempotency-Key is not: it may have been done.
   */
  retryKeyed?: boolean;
}): string {
  return [
    "global",
    "  maxconn 4000",
    `  stats socket ${opts.socket} mode 600 level admin`,
    "defaults",
    "  mode http",
    "  option forwardfor",
    "  option redispatch",
    "  retries 3",
    "  timeout connect 1s",
    "  timeout client 1h",
    "  timeout server 1h",
    "  timeout tunnel 1h",
    "  timeout http-request 10s",
    "  timeout http-keep-alive 10s",
    "  timeout queue 5s",
    "frontend site",
    `  bind 127.0.0.1:${opts.port}`,
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    "  option httpchk",
    `  http-check send meth GET uri /api/health ver HTTP/1.1 hdr Host ${opts.host}`,
    "  http-check expect status 200",
    `  http-response set-header ${SERVED_BY} %s`,
    ...(opts.retryKeyed
      ? [
          "  retry-on conn-failure empty-response response-timeout",
          "  http-request disable-l7-retry if !METH_GET !METH_HEAD !{ req.hdr(idempotency-key) -m found }",
        ]
      : []),
    "  default-server inter 500ms fastinter 500ms downinter 500ms fall 1 rise 1",
    ...opts.backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`),
    "",
  ].join("\n");
}

/** Ask haproxy's runtime API one command; its whole answer. */
function ask(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = connect(socket);
    let out = "";
    c.setEncoding("utf8");
    c.on("data", (d: string) => (out += d));
    c.on("end", () => resolve(out));
    c.on("error", reject);
    c.end(`${command}\n`);
  });
}

/** `show stat`'s CSV: each server of the backend with its status column. */
function parseStates(csv: string, backend: string): Record<string, BackendState> {
  const lines = csv.split("\n").filter((l) => l.trim() !== "");
  const header = (lines[0] ?? "").replace(/^# /, "").split(",");
  const px = header.indexOf("pxname");
  const sv = header.indexOf("svname");
  const status = header.indexOf("status");
  const out: Record<string, BackendState> = {};
  for (const line of lines.slice(1)) {
    const f = line.split(",");
    const name = f[sv] ?? "";
    if (f[px] !== backend || name === "BACKEND" || name === "FRONTEND") continue;
    const s = (f[status] ?? "").split(" ")[0]!;
    out[name] = s === "UP" || s === "DOWN" || s === "DRAIN" || s === "MAINT" ? s : "other";
  }
  return out;
}

/**
 * Start haproxy in front of `backends` (each listening on 127.0.0.1) on `port` (a free one by default),
 * checking them with `host` as the Host header. Resolves once haproxy answers on its runtime socket.
 */
export async function startHaproxy(opts: {
  backends: readonly Backend[];
  host: (port: number) => string;
  port?: number;
  /** See haproxyConfig. */
  retryKeyed?: boolean;
}): Promise<Haproxy> {
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "fm-haproxy-"));
  const socket = join(dir, "admin.sock");
  const cfg = join(dir, "haproxy.cfg");
  writeFileSync(
    cfg,
    haproxyConfig({
      port,
      backends: opts.backends,
      host: opts.host(port),
      socket,
      ...(opts.retryKeyed ? { retryKeyed: true } : {}),
    }),
  );
  // -db: stay in the foreground (the test owns the process); -W would fork a master.
  const child = startChild({ name: "haproxy", command: HAPROXY, args: ["-db", "-f", cfg], stdout: "ignore" });
  const stderr = (): string => child.log();

  const states = async () => parseStates(await ask(socket, "show stat"), "instances");
  const proxy: Haproxy = {
    port,
    url: `http://127.0.0.1:${port}`,
    states,
    async setState(name, state) {
      const answer = await ask(socket, `set server instances/${name} state ${state}`);
      if (answer.trim() !== "")
        throw new Error(`haproxy: set server ${name} state ${state}: ${answer.trim()}`);
    },
    async waitFor(want, guardMs = 10_000) {
      const until = Date.now() + guardMs;
      let now: Record<string, BackendState> = {};
      while (Date.now() < until) {
        now = await states();
        if (Object.entries(want).every(([name, s]) => now[name] === s)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`haproxy: backends ${JSON.stringify(now)}, waited for ${JSON.stringify(want)}`);
    },
    async stop() {
      await child.terminate();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  for (let i = 0; ; i++) {
    if (!child.alive) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`haproxy exited at start: ${stderr().trim()}`);
    }
    try {
      await states();
      return proxy;
    } catch (error) {
      if (i > 100) {
        await proxy.stop();
        throw new Error(`haproxy did not open its runtime socket: ${String(error)} ${stderr().trim()}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** The repository's root, where `tsx` resolves. */
const ROOT = join(import.meta.dirname, "../../..");

/**
 * One server process as started here: the server's own modules on a PostgreSQL database, listening on a port
 * of its own, serving the proxy's origin (PUBLIC_URL), trusting it on loopback and serving the built web
 * app. Inline (`node -e`) because test/instance.ts, the multi-instance tests' entry, takes none of those
 * three yet: once it does, startInstances is test/instances.ts's Instances.start.
 */
const ENTRY = `
import { createServer } from ${JSON.stringify(join(ROOT, "packages/server/src/server.ts"))};
import { PgStore } from ${JSON.stringify(join(ROOT, "packages/server/src/stores/pg-store.ts"))};
import { TEST_PASSWORD_COST } from ${JSON.stringify(join(ROOT, "packages/server/src/accounts/auth.ts"))};
const speed = Number(process.env.CLOCK_SPEED ?? "1");
const base = Number(process.env.CLOCK_BASE ?? String(Date.now()));
const MAX = 2 ** 31 - 1;
// Game time runs \`speed\` times faster than real time, from a start every instance shares.
const clock = {
  now: () => base + (Date.now() - base) * speed,
  at(at, fn) {
    let timer;
    // Re-armed while early: setTimeout may fire a little before its time, and it holds at most ~24.8 days.
    const arm = () => {
      const wait = (at - clock.now()) / speed;
      timer = wait <= 0 ? setTimeout(fn, 0) : setTimeout(arm, Math.min(Math.ceil(wait), MAX));
      timer.unref();
    };
    arm();
    return () => clearTimeout(timer);
  },
};
const store = await PgStore.connect({ connectionString: process.env.DATABASE_URL, application_name: process.env.INSTANCE_NAME });
const server = await createServer({
  store,
  clock,
  webRoot: process.env.WEB_ROOT || null,
  publicUrl: process.env.PUBLIC_URL,
  trustProxy: "loopback",
  rateLimit: 0,
  ...(process.env.SEED ? { seed: () => process.env.SEED } : {}),
  passwordCost: TEST_PASSWORD_COST,
});
await server.app.listen({ port: 0, host: "127.0.0.1" });
console.log("listening " + server.app.server.address().port);
`;

export interface Instance {
  readonly name: string;
  readonly port: number;
  /** Still running (not killed, not exited). */
  alive(): boolean;
  /** What it wrote on stderr so far (shown when a test fails). */
  stderr(): string;
  /** kill -9: no shutdown of any kind; the kernel closes its sockets, PostgreSQL its sessions. */
  kill(): Promise<void>;
}

export interface Instances {
  readonly list: readonly Instance[];
  /** The shared database's URL. */
  readonly databaseUrl: string;
  /**
   * The instance that holds the leader's advisory lock now (cluster.ts: PgCluster), or null: read from
   * pg_locks, the holder's connection named by its application_name (the instance's name).
   */
  leader(): Promise<string | null>;
  /** Kill every instance still running and drop the database. */
  stop(): Promise<void>;
}

/** A PostgreSQL URL with another database in it. */
function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * `count` server processes on one fresh PostgreSQL database (created here, dropped by `stop`), named
 * `i0`, `i1`…, each serving `publicUrl` (the proxy's origin) and trusting the proxy on loopback.
 */
export async function startInstances(
  count: number,
  opts: {
    pgUrl: string;
    publicUrl: string;
    /** The built web app to serve at `/`. */
    webRoot?: string;
    /** Game time runs this many times faster than real time (deadlines, the demo's phases). */
    clockSpeed?: number;
    /** Every game's secret seed (F1): the same deal and dice each run. */
    seed?: string;
  },
): Promise<Instances> {
  const database = `fm_proxy_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: opts.pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const databaseUrl = withDatabase(opts.pgUrl, database);
  const base = Date.now();
  const list: Instance[] = [];
  // Every process spawned, started or not: a failed start still kills the others.
  const kills: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(kills.map((kill) => kill()));
    const c = new pg.Client({ connectionString: opts.pgUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await c.end();
  };
  const start = async (name: string): Promise<Instance> => {
    const child = startChild({
      name,
      command: process.execPath,
      args: ["--import", "tsx", "--input-type=module", "-e", ENTRY],
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: databaseUrl,
        INSTANCE_NAME: name,
        PUBLIC_URL: opts.publicUrl,
        WEB_ROOT: opts.webRoot ?? "",
        CLOCK_SPEED: String(opts.clockSpeed ?? 1),
        CLOCK_BASE: String(base),
        SEED: opts.seed ?? "",
      },
      // Only stderr explains a failure: stdout carries the `listening <port>` line and nothing else.
      logStdout: false,
    });
    const kill = async (): Promise<void> => {
      await child.kill();
    };
    kills.push(kill);
    const port = await child.readyLine(
      (line) => /^listening (\d+)$/.exec(line)?.[1] ?? null,
      () => `instance ${name} exited at start: ${child.log().trim()}`,
    );
    return { name, port: Number(port), alive: () => child.alive, stderr: () => child.log(), kill };
  };
  try {
    list.push(...(await Promise.all(Array.from({ length: count }, (_, i) => start(`i${i}`)))));
  } catch (error) {
    await stop();
    throw error;
  }
  const leader = async (): Promise<string | null> => {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      // A two-key advisory lock shows its keys as classid and objid, with objsubid 2; the leader's first
      // key is PG_LOCKS.leader (pg-locks.ts). One namespace per database here, so one such lock.
      const r = await c.query<{ name: string }>(
        `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objsubid = 2
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [PG_LOCKS.leader],
      );
      return r.rows[0]?.name ?? null;
    } finally {
      await c.end();
    }
  };
  return { list, databaseUrl, leader, stop };
}
