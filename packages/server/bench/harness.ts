/**
 * What the server benchmark's sections share (server.bench.ts, scale.ts): the child processes and their
 * clean-up, the server started as a child process, users over real HTTP, the games set up over HTTP, the
 * load generator, and the server's CPU time and memory read from /proc.
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ActionRequest, GameDetail } from "@forum-mafia/protocol";
import { TARGETED_ACTS } from "@forum-mafia/protocol/roles";
import { NICKS } from "../test/play.ts";
import { startChild, tsx } from "../test/processes.ts";
import type { Actor, LoadResult, Poster, Scenario, Voter } from "./plan.ts";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const START = join(ROOT, "packages/server/bin/start.ts");
const LOAD = join(ROOT, "packages/server/bench/load.ts");

const PASSWORD = "bench password 1";

// ——— processes and clean-up ———

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

export function track(child: ChildProcess): void {
  children.add(child);
}
export function untrack(child: ChildProcess): void {
  children.delete(child);
}
export function removeOnExit(dir: string): void {
  tempDirs.add(dir);
}

export function cleanUp(): void {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** A free TCP port: listen on an ephemeral one, note it, let it go. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      const port = typeof address === "object" && address ? address.port : 0;
      s.close(() => (port ? resolve(port) : reject(new Error("no port"))));
    });
  });
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

/**
 * A client script run as a child process (tsx): resolves once its first line of output is `ready` (the line
 * it prints when set up); `finish` then waits for its exit and reads the JSON it printed after that line.
 * `what` names it in errors.
 */
export async function childClient(
  script: string,
  args: readonly string[],
  ready: string,
  what: string,
): Promise<{ child: ChildProcess; finish: () => Promise<unknown> }> {
  // Its stdout is data (the report after the ready line), so only stderr is kept for the failure.
  const client = startChild({
    name: what,
    ...tsx(script, ...args),
    cwd: ROOT,
    stdin: true,
    logStdout: false,
    onSpawn: track,
  });
  const report: string[] = [];
  let first = true;
  let isReady = false;
  client.onLine((line) => {
    if (first) isReady = line === ready;
    else if (isReady) report.push(line);
    first = false;
    return true;
  });
  await client.readyLine(
    () => (isReady ? true : null),
    () => `${what} exited before it was ${ready}:\n${client.log()}`,
  );
  return {
    child: client.proc,
    finish: async () => {
      // Closed, not only exited: the report is read to its end.
      const { code, signal } = await client.closed;
      untrack(client.proc);
      if (code !== 0) throw new Error(`${what} failed: ${code ?? signal}\n${client.log()}`);
      return JSON.parse(report.join("\n")) as unknown;
    },
  };
}

export interface RunningServer {
  readonly child: ChildProcess;
  readonly url: string;
  /** The last of its output, to explain a failure. */
  readonly output: () => string;
}

/** The servers, once started (the last in `server`): their output explains a failure. */
export const started: { server: RunningServer | null; all: RunningServer[] } = { server: null, all: [] };

/** Throws, with the server's last output, when the server has died. */
export function assertAlive(server: RunningServer, during: string): void {
  if (server.child.exitCode !== null || server.child.signalCode !== null)
    throw new Error(`the server died during ${during}:\n${server.output()}`);
}

/**
 * The real server (bin/start.ts) as a child process on a free port, with no rate limits, on the SQLite
 * file in `dataDir` or, with `databaseUrl`, on PostgreSQL (bin/start.ts picks the store from DATABASE_URL).
 */
export async function startServer(
  dataDir: string,
  profile: string | null,
  databaseUrl: string | null,
): Promise<RunningServer> {
  const port = await freePort();
  const profiling = profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    RATE_LIMIT: "0",
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const server = startChild({
    name: "the server",
    command: process.execPath,
    args: [...profiling, "--import", "tsx", START],
    cwd: ROOT,
    env,
    keep: 4000,
    onSpawn: track,
  });
  const child = server.proc;
  const log = (): string => server.log();
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited while starting:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer /api/health in 60 s:\n${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  started.server = { child, url, output: log };
  started.all.push(started.server);
  return started.server;
}

// ——— setting up the games over HTTP ———

/** At most this many set-up requests at once: the set-up is not what is measured. */
const SETUP_CONCURRENCY = 32;
let inFlight = 0;
const waiting: (() => void)[] = [];
async function limited<T>(run: () => Promise<T>): Promise<T> {
  if (inFlight >= SETUP_CONCURRENCY) await new Promise<void>((r) => waiting.push(r));
  inFlight++;
  try {
    return await run();
  } finally {
    inFlight--;
    waiting.shift()?.();
  }
}

/** A refused request: its status and body. */
export class Refused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A user of the API over real HTTP, keeping its session cookie. */
export class User {
  cookie = "";
  constructor(
    private readonly url: string,
    readonly nick: string,
  ) {}

  call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    return limited(() => this.send<T>(method, path, body));
  }

  private async send<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const res = await fetch(this.url + path, {
      method,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }).catch((error: unknown) => {
      throw new Error(`${this.nick}: ${method} ${path}: ${String(error)}`, {
        cause: error instanceof Error ? error.cause : undefined,
      });
    });
    const session = res.headers.getSetCookie().find((c) => c.startsWith("fm_session="));
    if (session) this.cookie = session.split(";")[0]!;
    const text = await res.text();
    if (!res.ok) throw new Refused(`${this.nick}: ${method} ${path}: ${res.status} ${text}`, res.status);
    return (text ? JSON.parse(text) : null) as T;
  }

  async register(): Promise<void> {
    await this.call("POST", "/api/register", { nick: this.nick, password: PASSWORD });
  }
}

export interface Table {
  readonly id: string;
  readonly phase: "day" | "night";
  /** Every player's session cookie (alive or not: each has the game's page open). */
  readonly cookies: string[];
  readonly voters: Voter[];
  readonly posters: Poster[];
  readonly actors: Actor[];
}

/** At most this many of an actor's candidate actions are tried at set-up (each is sent once). */
const CANDIDATES_TRIED = 6;
/** An actor keeps this many of the actions the server accepted, and changes between them. */
const ACTIONS_KEPT = 2;

/** Every action the player's form offers, in its order: each legal target of each act. */
function candidates(form: NonNullable<GameDetail["form"]>): ActionRequest[] {
  const out: ActionRequest[] = [];
  const targeted: readonly string[] = TARGETED_ACTS;
  for (const a of form.acts) {
    if (a.act === "mafia") for (const t of a.targets) out.push({ act: "mafia", kill: [t], intimidate: [] });
    else if (a.act === "council")
      for (const q of a.questions ?? []) out.push({ act: "council", question: q.text });
    else if (a.act === "healFrom") for (const role of a.roles ?? []) out.push({ act: "healFrom", role });
    else if (a.act === "pass") out.push({ act: "pass" });
    else if (targeted.includes(a.act))
      for (const t of a.targets) out.push({ act: a.act as (typeof TARGETED_ACTS)[number], target: t });
  }
  return out;
}

/**
 * One game of 17 players: a GM and the players registered (nicks numbered `g + 1`), signed up and dealt;
 * left in night 1 (`phase: "night"`), or with night 1 closed by the GM so it is in day 1. In day 1 each
 * living player posts, and votes if they may; in night 1 each player with a form acts: at set-up each
 * tries the actions its form offers (GameDetail.form: legal acts and targets) until the server has
 * accepted `ACTIONS_KEPT` of them, which it then changes between.
 */
export async function setUpGame(url: string, g: number, phase: "day" | "night" = "day"): Promise<Table> {
  const gm = new User(url, `Ведущий ${g + 1}`);
  await gm.register();
  const { id } = await gm.call<{ id: string }>("POST", "/api/games", {
    title: `Нагрузка ${g + 1}`,
    night: { amount: 12, unit: "hours" },
    day: { amount: 24, unit: "hours" },
    mode: "automatic",
  });
  const players = NICKS.map((name) => new User(url, `${name}${g + 1}`));
  await Promise.all(players.map((p) => p.register()));
  for (const p of players) await p.call("POST", `/api/games/${id}/signup`);
  await gm.call("POST", `/api/games/${id}/start`, { deal: "random" });
  if (phase === "day") await gm.call("POST", `/api/games/${id}/gm/close`);

  const voters: Voter[] = [];
  const posters: Poster[] = [];
  const actors: Actor[] = [];
  for (const p of players) {
    const d = await p.call<GameDetail>("GET", `/api/games/${id}`);
    if (!d.view || d.me.seat === null || d.view.phase.kind !== phase)
      throw new Error(
        `${p.nick}: expected a seat in ${phase} 1, got ${JSON.stringify(d.view?.phase ?? null)}`,
      );
    const seats = d.view.seats;
    const me = seats[d.me.seat]!;
    if (!me.alive) continue;
    if (phase === "night") {
      if (!d.form) continue;
      const accepted: ActionRequest[] = [];
      for (const action of candidates(d.form).slice(0, CANDIDATES_TRIED)) {
        try {
          await p.call("POST", `/api/games/${id}/actions`, action);
          accepted.push(action);
        } catch (error) {
          // Refused by the rules (e.g. T4, M2): not one to send under load.
          if (!(error instanceof Refused) || error.status >= 500) throw error;
        }
        if (accepted.length === ACTIONS_KEPT) break;
      }
      if (accepted.length > 0) actors.push({ game: id, cookie: p.cookie, seat: me.seat, actions: accepted });
      continue;
    }
    const others = seats.filter((s) => s.alive && s.seat !== me.seat);
    posters.push({ game: id, cookie: p.cookie, suspects: others.map((s) => s.name) });
    if (!me.cannotVote)
      voters.push({ game: id, cookie: p.cookie, seat: me.seat, targets: others.map((s) => s.seat) });
  }
  return { id, phase, cookies: players.map((p) => p.cookie), voters, posters, actors };
}

/** Round robin across games: the first player of every game, then the second of every game, and so on. */
export function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}

// ——— the load ———

export async function runLoad(planFile: string, scenario: Scenario, seconds?: number): Promise<LoadResult> {
  const extra = seconds === undefined ? [] : [String(seconds)];
  // Its stdout is the JSON result, so only stderr is kept for the failure.
  const load = startChild({
    name: `the load generator (${scenario})`,
    ...tsx(LOAD, planFile, scenario, ...extra),
    cwd: ROOT,
    logStdout: false,
    onSpawn: track,
  });
  const out: string[] = [];
  load.onLine((line) => out.push(line) > 0);
  const { code, signal } = await load.closed;
  untrack(load.proc);
  if (code !== 0)
    throw new Error(`the load generator (${scenario}) failed: ${code ?? signal}\n${load.log()}`);
  return JSON.parse(out.join("\n")) as LoadResult;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

// ——— /proc ———

/** Ticks per second of /proc's CPU times (USER_HZ). */
const CLOCK_TICKS = ((): number => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The CPU time (user + system) a process has used so far, in ms; null where /proc is not available. */
export function cpuMs(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat(5), i.e. 12 and 13 after the state field.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** The machine's CPU time so far, busy and in all (jiffies of /proc/stat's first line); null without /proc. */
export function machineCpu(): { busy: number; total: number } | null {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
    const t = line.trim().split(/\s+/).slice(1).map(Number);
    const total = t.reduce((a, b) => a + b, 0);
    // idle and iowait are the 4th and 5th fields.
    return { busy: total - (t[3] ?? 0) - (t[4] ?? 0), total };
  } catch {
    return null;
  }
}

/**
 * How busy the machine is with other work before a run: its busy % over `ms`, and the load averages. A
 * noisy neighbour (tests of other work on the same two cores) shows here, and in every figure after it.
 */
export async function idleCheck(ms = 2000): Promise<string> {
  const a = machineCpu();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineCpu();
  const busy =
    a === null || b === null || b.total === a.total ? null : ((b.busy - a.busy) / (b.total - a.total)) * 100;
  return (
    `machine before the run: ${busy === null ? "?" : busy.toFixed(0)}% busy over ${ms / 1000} s ` +
    `(other processes), load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}, ${availableParallelism()} cores`
  );
}

/** The CPU time of every instance together, in ms; null when one cannot be read. */
export function cpuOf(servers: readonly RunningServer[]): number | null {
  let total = 0;
  for (const s of servers) {
    const ms = cpuMs(s.child.pid);
    if (ms === null) return null;
    total += ms;
  }
  return total;
}

/** A process's resident set size (VmRSS of /proc/<pid>/status) in MB; null where it cannot be read. */
export function rssMb(pid: number | undefined): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

// ——— tables ———

/**
 * One measured run, with the server's CPU time (all its threads) per response: steadier than requests/s
 * when other work shares the machine.
 */
export interface Measured {
  readonly load: LoadResult;
  /** Microseconds of server CPU per response; null where it cannot be read. */
  readonly cpuUs: number | null;
  /** How busy the whole machine was meanwhile (every process, all cores), in %; absent where not read. */
  readonly machinePercent?: number | null;
}

/**
 * One load run on the plan's instances: its result, the instances' CPU time per response and how busy the
 * machine was. Throws when an instance died during it.
 */
export async function measureLoad(
  servers: readonly RunningServer[],
  planFile: string,
  scenario: Scenario,
  seconds?: number,
): Promise<Measured> {
  const before = cpuOf(servers);
  const machine0 = machineCpu();
  const r = await runLoad(planFile, scenario, seconds);
  const after = cpuOf(servers);
  const machine1 = machineCpu();
  for (const s of servers) assertAlive(s, `the ${scenario} run`);
  return {
    load: r,
    cpuUs: before === null || after === null ? null : ((after - before) * 1000) / Math.max(1, r.responses),
    machinePercent:
      machine0 === null || machine1 === null || machine1.total === machine0.total
        ? null
        : ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100,
  };
}

export interface Row {
  readonly name: string;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuUs: number | null;
  /** Absent: the column is left out of the table. */
  readonly machinePercent?: number | null;
  readonly non2xx: number;
  readonly errors: number;
}

export const rowOf = (name: string, m: Measured): Row => ({
  name,
  rps: m.load.requestsPerSecond,
  p50: m.load.p50,
  p99: m.load.p99,
  cpuUs: m.cpuUs,
  ...(m.machinePercent !== undefined ? { machinePercent: m.machinePercent } : {}),
  non2xx: m.load.non2xx,
  errors: m.load.errors,
});

/** A table of columns, the first left-aligned and the rest right-aligned. */
export function printColumns(head: readonly string[], cells: readonly (readonly string[])[]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]): string =>
    c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join("  ");
  console.log(line(head));
  for (const c of cells) console.log(line(c));
}

export function printTable(rows: readonly Row[]): void {
  const machine = rows.some((r) => r.machinePercent !== undefined);
  printColumns(
    [
      "scenario",
      "requests/s",
      "p50 ms",
      "p99 ms",
      "server CPU µs/req",
      ...(machine ? ["machine busy %"] : []),
      "non-2xx",
      "errors",
    ],
    rows.map((r) => [
      r.name,
      r.rps.toFixed(0),
      r.p50.toFixed(2),
      r.p99.toFixed(2),
      r.cpuUs === null ? "?" : r.cpuUs.toFixed(0),
      ...(machine
        ? [r.machinePercent === undefined || r.machinePercent === null ? "?" : r.machinePercent.toFixed(0)]
        : []),
      String(r.non2xx),
      String(r.errors),
    ]),
  );
}

/** The medians of one set-up's runs of one scenario, as a table row. */
export function medianRow(name: string, ms: readonly Measured[]): Row {
  const cpus = ms.map((m) => m.cpuUs);
  const machine = ms.map((m) => m.machinePercent ?? null);
  return {
    name,
    rps: median(ms.map((m) => m.load.requestsPerSecond)),
    p50: median(ms.map((m) => m.load.p50)),
    p99: median(ms.map((m) => m.load.p99)),
    cpuUs: cpus.every((c) => c !== null) ? median(cpus as number[]) : null,
    machinePercent: machine.every((c) => c !== null) ? median(machine as number[]) : null,
    non2xx: ms.reduce((n, m) => n + m.load.non2xx, 0),
    errors: ms.reduce((n, m) => n + m.load.errors, 0),
  };
}
