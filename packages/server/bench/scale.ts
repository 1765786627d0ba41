/**
 * Issue 19's sections of `npm run bench:server`: live updates that scale.
 *
 * - fanout: one game in day 1, `viewers` anonymous streams (viewers.ts, its own process; spread evenly over
 *   the instances when several share one database, issue 20, each vote then sent to the next instance in
 *   turn); one player votes
 *   `votes` times, one vote at a time, moving to the next target each time so each vote changes the votes
 *   list. For each vote: from its 2xx (noted by this process) to the moment the last viewer received its
 *   vote item (noted by the viewer holder), on one clock (the machine's monotonic clock, process.hrtime). The next vote is sent once every viewer has the last one, after a short pause.
 * - storm: the same with `viewers` viewers who each fetch the game's detail when the vote item arrives (as
 *   the web app did for every item before issue 19): from the vote's 2xx to the last fetch's completion.
 * - capacity: `games` games of 17 players, half left in night 1 and half in day 1; writes at a forum's
 *   evening pace (`pace` writes per game per second, 0.5 by default: each game about one write every 2 s,
 *   the games in turn): in day games two posts to one vote, in night games night actions taken from each
 *   player's form. First with no streams open ("writes only"), then with every player's page open: one
 *   logged-in stream per player (64 per loopback address, the server's cap). Meanwhile GET /api/health is
 *   probed at a steady low rate from this process. The server's memory (VmRSS) is read before and after
 *   the set-up (per game) and after each run (per open stream, against the writes-only run).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Agent, get } from "node:http";
import { join } from "node:path";
import type { AckedAct, AckedVote, LoadResult, MixedGame, Plan, ViewerSpec, ViewerStats } from "./plan.ts";
import { percentile } from "./plan.ts";
import {
  ROOT,
  assertAlive,
  cpuMs,
  cpuOf,
  exited,
  machineCpu,
  printColumns,
  rssMb,
  runLoad,
  setUpGame,
  track,
  untrack,
  type RunningServer,
  type Table,
} from "./harness.ts";

const VIEWERS = join(ROOT, "packages/server/bench/viewers.ts");

export const FANOUT_TARGET_P99_MS = 100;
export const STORM_TARGET_P99_MS = 500;
export const CAPACITY_WRITE_P99_MS = 50;
export const CAPACITY_HEALTH_P99_MS = 20;

/** The server's caps on open streams from one address: without a session, and with one. */
const ANONYMOUS_PER_ADDRESS = 8;
const LOGGED_IN_PER_ADDRESS = 64;

/** What a section leaves for the end of the run: its acknowledged writes and whether it failed. */
export interface SectionResult {
  readonly failed: boolean;
  readonly votes: AckedVote[];
  readonly posts: string[];
  readonly acts: AckedAct[];
  /** Writes that may be stored without having been answered (cut off at the end of a load run). */
  readonly slack: number;
  /** One line per target: what it is and whether it was met. */
  readonly targets: string[];
  /** fanout and storm: the votes' latencies (ms) and how many were measured. */
  readonly latency?: { readonly p50: number; readonly p99: number; readonly n: number };
}

/**
 * The machine's monotonic clock (CLOCK_MONOTONIC, one for every process), in ms. Not timeOrigin + now():
 * each process fixes its timeOrigin from the wall clock when it starts, and the wall clock is slewed while
 * the bench runs, so two processes started minutes apart disagree by up to a second.
 */
const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// ——— the viewer holder ———

interface Holder {
  readonly opened: number;
  /** The holder's process id (its CPU time is read from /proc). */
  readonly pid: number | undefined;
  /** The line `<word> <k> <ms>` for the k-th vote, or null after `timeoutMs`. */
  readonly mark: (k: number, timeoutMs: number) => Promise<number | null>;
  /** fanout over several instances: when each instance's viewers all had the k-th vote (by index). */
  readonly marksAt: (k: number) => readonly (number | undefined)[];
  readonly stop: () => Promise<ViewerStats>;
}

async function holdViewers(dir: string, spec: ViewerSpec): Promise<Holder> {
  const file = join(dir, `viewers-${spec.mode}.json`);
  writeFileSync(file, JSON.stringify(spec));
  const child = spawn(process.execPath, ["--import", "tsx", VIEWERS, file], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  track(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err = (err + c.toString("utf8")).slice(-4000)));
  const lines: string[] = [];
  const marks = new Map<number, number>();
  const marksAt = new Map<number, (number | undefined)[]>();
  let wake: (() => void) | null = null;
  child.stdout!.on("data", (c: Buffer) => {
    out += c.toString("utf8");
    for (let i = out.indexOf("\n"); i >= 0; i = out.indexOf("\n")) {
      const line = out.slice(0, i);
      out = out.slice(i + 1);
      const m = /^(?:vote|done) (\d+) ([\d.]+)$/.exec(line);
      const at = /^at (\d+) (\d+) ([\d.]+)$/.exec(line);
      if (m) marks.set(Number(m[1]), Number(m[2]));
      else if (at) {
        const k = Number(at[1]);
        const list = marksAt.get(k) ?? [];
        list[Number(at[2])] = Number(at[3]);
        marksAt.set(k, list);
      } else lines.push(line);
    }
    wake?.();
  });
  const gone = exited(child);
  const next = async (what: string, timeoutMs: number): Promise<string | null> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = lines.shift();
      if (line !== undefined) return line;
      if (Date.now() > deadline) return null;
      const ended = await Promise.race([
        gone.then(() => true),
        new Promise<false>((r) => {
          wake = () => r(false);
          setTimeout(() => r(false), 200);
        }),
      ]);
      if (ended && lines.length === 0) throw new Error(`the viewer holder exited before ${what}:\n${err}`);
    }
  };
  const ready = /^ready (\d+)$/.exec((await next("its streams were open", 15 * 60_000)) ?? "");
  if (!ready) throw new Error(`the viewer holder: unexpected output\n${err}`);
  return {
    opened: Number(ready[1]),
    pid: child.pid,
    mark: async (k, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (!marks.has(k) && Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`the viewer holder exited:\n${err}`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
      return marks.get(k) ?? null;
    },
    marksAt: (k) => marksAt.get(k) ?? [],
    stop: async () => {
      child.stdin!.end();
      const line = await next("its report", 60_000);
      await gone;
      untrack(child);
      if (line === null) throw new Error(`the viewer holder gave no report:\n${err}`);
      return JSON.parse(line) as ViewerStats;
    },
  };
}

/** The holder's figures, printed; the failures among them (refused, closed, gaps, resets) as lines. */
function streamFailures(stats: ViewerStats, wanted: number, label: string): string[] {
  console.log(
    `${label}: ${stats.opened} of ${wanted} streams open, ${stats.endedByServer} closed by the server, ` +
      `${stats.withGaps} with ids out of order, ${stats.resets} resets; items per stream ` +
      `${stats.minItems}–${stats.maxItems} (${Object.entries(stats.types)
        .map(([t, n]) => `${t} ${n}`)
        .join(", ")}); ${stats.megabytes.toFixed(1)} MB received`,
  );
  const out: string[] = [];
  for (const [why, n] of Object.entries(stats.refused)) out.push(`${n} streams refused: ${why}`);
  if (stats.opened !== wanted) out.push(`${wanted - stats.opened} streams not open`);
  if (stats.endedByServer > 0) out.push(`${stats.endedByServer} streams closed by the server`);
  if (stats.withGaps > 0) out.push(`${stats.withGaps} streams with a gap in their ids`);
  if (stats.resets > 0) out.push(`${stats.resets} resets (the stream's numbering no longer applied)`);
  if (stats.typeMismatches > 0) out.push(`${stats.typeMismatches} items whose type was misread`);
  return out;
}

// ——— one vote at a time ———

/** A vote over HTTP with the voter's session: the time its 2xx was read, or the refusal. */
async function vote(
  url: string,
  table: Table,
  k: number,
): Promise<{ at: number; acked: AckedVote } | { error: string }> {
  const voter = table.voters[0]!;
  const target = voter.targets[k % voter.targets.length]!;
  const res = await fetch(`${url}/api/games/${table.id}/votes`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: voter.cookie },
    body: JSON.stringify({ color: "red", target }),
  });
  const body = await res.text();
  const at = now();
  if (res.status < 200 || res.status >= 300) return { error: `${res.status} ${body.slice(0, 300)}` };
  return { at, acked: [table.id, voter.seat, "red", target] };
}

const perVote = (before: number | null, after: number | null, votes: number): string =>
  before === null || after === null ? "?" : ((after - before) / Math.max(1, votes)).toFixed(1);

function summary(xs: readonly number[]): { p50: number; p99: number; max: number } {
  const sorted = Float64Array.from(xs).sort();
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : 0,
  };
}

/**
 * The fan-out (`mode: "fanout"`) or the storm (`mode: "storm"`): one game, `viewers` anonymous viewers,
 * `votes` votes one at a time; each vote's latency to the last viewer's vote item (fanout) or to the last
 * viewer's refetch (storm).
 */
export async function oneGameSection(
  servers: readonly RunningServer[],
  dir: string,
  mode: "fanout" | "storm",
  g: number,
  viewers: number,
  votes: number,
): Promise<SectionResult> {
  console.log("");
  const target = mode === "fanout" ? FANOUT_TARGET_P99_MS : STORM_TARGET_P99_MS;
  const server = servers[0]!;
  const many = servers.length > 1 ? `, over ${servers.length} instances` : "";
  const table = await setUpGame(server.url, g, "day");
  if (table.voters.length === 0 || table.voters[0]!.targets.length < 2)
    throw new Error(`${mode}: the game's first voter has fewer than two targets`);
  console.log(
    mode === "fanout"
      ? `fanout: one game, ${viewers} anonymous viewers (${ANONYMOUS_PER_ADDRESS} per address${many}), ${votes} votes one at a time` +
          `${many ? ", each sent to the next instance in turn" : ""}; from each vote's 2xx to the last viewer's vote item`
      : `storm: one game, ${viewers} anonymous viewers${many} who each fetch GET /api/games/:id when a vote arrives; ` +
          `${votes} votes one at a time; from each vote's 2xx to the last fetch's completion`,
  );
  const holder = await holdViewers(dir, {
    url: server.url,
    urls: servers.map((s) => s.url),
    mode,
    game: table.id,
    count: viewers,
    perAddress: ANONYMOUS_PER_ADDRESS,
    subnet: mode === "fanout" ? 2 : 3,
  });
  const acked: AckedVote[] = [];
  const latencies: number[] = [];
  /** Over several instances: to the last viewer on the instance that took the vote, and on the others. */
  const local: number[] = [];
  const remote: number[] = [];
  const problems: string[] = [];
  const cpuBefore = cpuOf(servers);
  const holderBefore = cpuMs(holder.pid);
  const started = Date.now();
  for (let k = 1; k <= votes; k++) {
    const sent = await vote(servers[k % servers.length]!.url, table, k);
    if ("error" in sent) {
      problems.push(`vote ${k} refused: ${sent.error}`);
      break;
    }
    acked.push(sent.acked);
    const at = await holder.mark(k, 10_000);
    if (at === null) {
      problems.push(`vote ${k}: not every viewer had it 10 s after its 2xx`);
      break;
    }
    latencies.push(at - sent.at);
    if (mode === "fanout" && servers.length > 1) {
      // The viewers on the instance that took the vote, and those on the others (the notification's hop).
      const sender = k % servers.length;
      const each = holder.marksAt(k);
      const own = each[sender];
      const others = each.filter((_, i) => i !== sender);
      if (own !== undefined) local.push(own - sent.at);
      if (others.length === servers.length - 1 && others.every((x) => x !== undefined))
        remote.push(Math.max(...(others as number[])) - sent.at);
    }
    for (const s of servers) assertAlive(s, `the ${mode} section`);
    await pause(mode === "fanout" ? 20 : 100);
  }
  const cpuAfter = cpuOf(servers);
  const holderAfter = cpuMs(holder.pid);
  const elapsed = (Date.now() - started) / 1000;
  const stats = await holder.stop();
  problems.push(...streamFailures(stats, viewers, mode));
  if (stats.minVotes !== acked.length || stats.maxVotes !== acked.length)
    problems.push(
      `vote items per stream ${stats.minVotes}–${stats.maxVotes}, expected ${acked.length} (one per vote)`,
    );
  if (mode === "storm") {
    console.log(
      `storm: ${stats.refetches} detail fetches, ${stats.staleRefetches} behind the vote that caused them, ` +
        `failures ${JSON.stringify(stats.refetchFailures)}`,
    );
    for (const [why, n] of Object.entries(stats.refetchFailures))
      problems.push(`${n} detail fetches failed: ${why}`);
    if (stats.staleRefetches > 0)
      problems.push(`${stats.staleRefetches} fetched details did not hold the vote that caused the fetch`);
  }
  const s = summary(latencies);
  const split = [
    { label: "  to the viewers on the instance that took the vote", xs: local },
    { label: "  to the viewers on the other instances", xs: remote },
  ].filter((x) => x.xs.length > 0);
  console.log("");
  printColumns(
    ["scenario", "votes", "p50 ms", "p99 ms", "max ms", "server CPU ms/vote", "viewers' CPU ms/vote"],
    [
      [
        `${mode}, ${stats.opened} viewers${many}`,
        String(latencies.length),
        s.p50.toFixed(1),
        s.p99.toFixed(1),
        s.max.toFixed(1),
        perVote(cpuBefore, cpuAfter, latencies.length),
        perVote(holderBefore, holderAfter, latencies.length),
      ],
      ...split.map(({ label, xs }) => {
        const x = summary(xs);
        return [label, String(xs.length), x.p50.toFixed(1), x.p99.toFixed(1), x.max.toFixed(1), "", ""];
      }),
    ],
  );
  console.log(`(${latencies.length} votes in ${elapsed.toFixed(1)} s)`);
  for (const p of problems) console.log(`  FAILED: ${p}`);
  const ok = problems.length === 0;
  const what =
    mode === "fanout"
      ? `fanout: every viewer got every vote item, ids in order: ${ok ? "yes" : "NO"}`
      : `storm: every viewer got every vote and fetched the detail: ${ok ? "yes" : "NO"}`;
  console.log(what);
  const met = ok && latencies.length > 0 && s.p99 < target;
  const line = `${mode} (p99 ${s.p99.toFixed(1)} ms < ${target} ms): ${met ? "met" : "NOT met"}`;
  console.log(`target ${line}`);
  return {
    failed: !ok,
    votes: acked,
    posts: [],
    acts: [],
    slack: 0,
    targets: [line],
    latency: { p50: s.p50, p99: s.p99, n: latencies.length },
  };
}

// ——— /api/health probed at a steady rate ———

export interface Probe {
  readonly stop: () => Promise<{ latencies: number[]; failures: number }>;
}

/** GET /api/health `perSecond` times a second over keep-alive connections, each timed to its last byte. */
export function probeHealth(url: string, perSecond: number): Probe {
  const u = new URL(url);
  const agent = new Agent({ keepAlive: true });
  const latencies: number[] = [];
  let failures = 0;
  let pending = 0;
  let done: (() => void) | null = null;
  const once = (): void => {
    pending++;
    const t0 = performance.now();
    const finish = (ok: boolean): void => {
      if (ok) latencies.push(performance.now() - t0);
      else failures++;
      if (--pending === 0) done?.();
    };
    const req = get({ host: u.hostname, port: u.port, path: "/api/health", agent }, (res) => {
      res.resume();
      res.on("end", () => finish(res.statusCode === 200));
    });
    req.on("error", () => finish(false));
  };
  const timer = setInterval(once, 1000 / perSecond);
  return {
    stop: async () => {
      clearInterval(timer);
      if (pending > 0) await new Promise<void>((r) => (done = r));
      agent.destroy();
      return { latencies, failures };
    },
  };
}

// ——— capacity and memory ———

export interface CapacityArgs {
  readonly games: number;
  readonly seconds: number;
  /** Writes per game per second. */
  readonly pace: number;
  /** GET /api/health per second, meanwhile. */
  readonly healthRate: number;
  /** The first game's number (nicks are numbered by it). */
  readonly g: number;
  /** Whether other sections ran on this server before (their heap growth hides part of the games' memory). */
  readonly earlier: boolean;
}

interface CapacityRun {
  readonly label: string;
  readonly load: LoadResult;
  readonly health: { p50: number; p99: number; n: number; failures: number };
  readonly cpuPercent: number | null;
  /** How busy the whole machine was (every process, all cores), in %: the clients share its cores. */
  readonly machinePercent: number | null;
  readonly rss: number | null;
}

async function capacityRun(
  server: RunningServer,
  planFile: string,
  label: string,
  args: CapacityArgs,
): Promise<CapacityRun> {
  const probe = probeHealth(server.url, args.healthRate);
  const cpu0 = cpuMs(server.child.pid);
  const machine0 = machineCpu();
  const t0 = performance.now();
  const load = await runLoad(planFile, "mixed");
  const wall = performance.now() - t0;
  const cpu1 = cpuMs(server.child.pid);
  const machine1 = machineCpu();
  const h = await probe.stop();
  assertAlive(server, `the capacity section (${label})`);
  const sorted = Float64Array.from(h.latencies).sort();
  return {
    label,
    load,
    health: {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      n: h.latencies.length,
      failures: h.failures,
    },
    cpuPercent: cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) / wall) * 100,
    machinePercent:
      machine0 === null || machine1 === null || machine1.total === machine0.total
        ? null
        : ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100,
    rss: rssMb(server.child.pid),
  };
}

const mb = (x: number | null): string => (x === null ? "?" : x.toFixed(1));

export async function capacitySection(
  server: RunningServer,
  dir: string,
  args: CapacityArgs,
): Promise<SectionResult> {
  console.log("");
  const rate = args.games * args.pace;
  console.log(
    `capacity: ${args.games} games of 17 (half in night 1, half in day 1); writes at ${args.pace} per game per second ` +
      `(${rate.toFixed(0)}/s: posts and votes by day, night actions from the form by night), ${args.seconds} s per run; ` +
      `GET /api/health ${args.healthRate}/s meanwhile`,
  );
  const rssBefore = rssMb(server.child.pid);
  const setupStart = Date.now();
  const tables = await Promise.all(
    Array.from({ length: args.games }, (_, i) => setUpGame(server.url, args.g + i, i % 2 ? "night" : "day")),
  );
  const setupSeconds = (Date.now() - setupStart) / 1000;
  const rssGames = rssMb(server.child.pid);
  const users = args.games * 18;
  console.log(
    `capacity: set up ${tables.length} games (${users} users registered, argon2id at the product's settings) in ` +
      `${setupSeconds.toFixed(1)} s (${((setupSeconds * 1000) / users).toFixed(1)} ms per user)`,
  );
  const mixed: MixedGame[] = tables
    .map((t) => ({ id: t.id, voters: t.voters, posters: t.posters, actors: t.actors }))
    .filter((m) => m.actors.length > 0 || m.posters.length > 0);
  const connections = Math.max(10, Math.min(100, Math.ceil(rate / 5)));
  const plan: Plan = {
    url: server.url,
    connections,
    seconds: args.seconds,
    voters: [],
    posters: [],
    rate,
    mixed,
  };
  const planFile = join(dir, "plan-capacity.json");
  writeFileSync(planFile, JSON.stringify(plan));

  const alone = await capacityRun(server, planFile, "writes only", args);
  const players = tables.flatMap((t) => t.cookies.map((cookie) => ({ game: t.id, cookie })));
  const openStart = Date.now();
  const holder = await holdViewers(dir, {
    url: server.url,
    mode: "count",
    players,
    perAddress: LOGGED_IN_PER_ADDRESS,
    subnet: 4,
  });
  const rssOpen = rssMb(server.child.pid);
  console.log(
    `capacity: ${holder.opened} logged-in streams open (${Math.ceil(players.length / LOGGED_IN_PER_ADDRESS)} addresses) ` +
      `in ${((Date.now() - openStart) / 1000).toFixed(1)} s`,
  );
  const withStreams = await capacityRun(server, planFile, `${holder.opened} streams open`, args);
  const stats = await holder.stop();
  const problems = streamFailures(stats, players.length, "capacity");

  console.log("");
  printColumns(
    [
      "capacity",
      "writes/s",
      "write p50 ms",
      "write p99 ms",
      "health p50 ms",
      "health p99 ms",
      "server CPU %",
      "machine busy %",
      "non-2xx",
      "errors",
    ],
    [alone, withStreams].map((r) => [
      r.label,
      r.load.requestsPerSecond.toFixed(0),
      r.load.p50.toFixed(2),
      r.load.p99.toFixed(2),
      r.health.p50.toFixed(2),
      r.health.p99.toFixed(2),
      r.cpuPercent === null ? "?" : r.cpuPercent.toFixed(0),
      r.machinePercent === null ? "?" : r.machinePercent.toFixed(0),
      String(r.load.non2xx),
      String(r.load.errors),
    ]),
  );
  console.log(
    `ratios (streams open / writes only): write p50 ${(withStreams.load.p50 / alone.load.p50).toFixed(1)}×, ` +
      `p99 ${(withStreams.load.p99 / alone.load.p99).toFixed(1)}×; health p99 ${(withStreams.health.p99 / alone.health.p99).toFixed(1)}×`,
  );
  for (const r of [alone, withStreams]) {
    if (r.load.non2xx > 0 || r.load.errors > 0) {
      problems.push(
        `${r.label}: ${r.load.non2xx} non-2xx, ${r.load.errors} errors; status codes ${JSON.stringify(r.load.statusCodes)}`,
      );
      for (const body of r.load.refusals) problems.push(`  ${body}`);
    }
    if (r.health.failures > 0) problems.push(`${r.label}: ${r.health.failures} health probes failed`);
    if (r.load.requestsPerSecond < rate * 0.9)
      console.log(
        `  note: ${r.label} sent ${r.load.requestsPerSecond.toFixed(0)} writes/s of the ${rate.toFixed(0)} asked (the server fell behind)`,
      );
  }

  console.log("");
  const perGame =
    rssBefore === null || rssGames === null ? null : ((rssGames - rssBefore) * 1024) / args.games;
  const perStream =
    alone.rss === null || withStreams.rss === null || stats.opened === 0
      ? null
      : ((withStreams.rss - alone.rss) * 1024) / stats.opened;
  printColumns(
    ["server RSS", "MB"],
    [
      ["before the capacity games", mb(rssBefore)],
      [`after setting up ${args.games} games`, mb(rssGames)],
      ["after the writes-only run", mb(alone.rss)],
      [`with ${stats.opened} streams open, before writing`, mb(rssOpen)],
      [`after the run with ${stats.opened} streams open`, mb(withStreams.rss)],
    ],
  );
  console.log(
    `memory: ${perGame === null ? "?" : perGame.toFixed(0)} KB per active game (ΔRSS over the set-up / games); ` +
      `${perStream === null ? "?" : perStream.toFixed(1)} KB per open stream (ΔRSS against the writes-only run / streams)`,
  );
  if (args.earlier)
    console.log(
      "  (earlier sections ran on this server: the heap they grew absorbs part of the games' memory; " +
        "`--only capacity` measures it on a fresh server)",
    );
  for (const p of problems) console.log(`  FAILED: ${p}`);
  const ok = problems.length === 0;
  console.log(`capacity: every write answered, every stream open and whole: ${ok ? "yes" : "NO"}`);
  const writeMet = withStreams.load.p99 < CAPACITY_WRITE_P99_MS;
  const healthMet = withStreams.health.p99 < CAPACITY_HEALTH_P99_MS;
  const targets = [
    `capacity write p99 with streams open (${withStreams.load.p99.toFixed(1)} ms < ${CAPACITY_WRITE_P99_MS} ms): ${writeMet ? "met" : "NOT met"}`,
    `capacity health p99 with streams open (${withStreams.health.p99.toFixed(1)} ms < ${CAPACITY_HEALTH_P99_MS} ms): ${healthMet ? "met" : "NOT met"}`,
  ];
  for (const t of targets) console.log(`target ${t}`);
  const loads = [alone.load, withStreams.load];
  return {
    failed: !ok,
    votes: loads.flatMap((l) => [...l.votes]),
    posts: loads.flatMap((l) => [...l.posts]),
    acts: loads.flatMap((l) => [...l.acts]),
    slack: 2 * connections,
    targets,
  };
}
