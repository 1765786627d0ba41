/**
 * `npm run bench:server`: the server under load, on a temporary database.
 *
 *   tsx packages/server/bench/server.bench.ts [--only SECTIONS] [--pg] [--games 20] [--seconds 10]
 *     [--connections 50] [--crash] [--profile DIR] [--streams N] [--stream-rate N] [--tools N]
 *     [--fanout-viewers N] [--fanout-votes N] [--storm-viewers N] [--storm-votes N]
 *     [--capacity-games N] [--capacity-seconds N] [--capacity-pace X] [--health-rate N]
 *   tsx packages/server/bench/server.bench.ts --pg --instances N [--rounds 3] [--only load,fanout] [--games 20]
 *     [--seconds 10] [--connections 50] [--fanout-viewers N] [--fanout-votes N] [--crash]
 *
 * With --instances N (issue 20, compare.ts): N instances on one PostgreSQL database against one instance on
 * PostgreSQL and one on SQLite, in the same run: the load section's bare, vote and post `--rounds` times on
 * each (medians), and the fan-out with its viewers spread over the instances; then every store's
 * durability. Without --instances the run is the single server's, as below.
 *
 * Sections (all by default; `--only load,streams,tools,hostile,fanout,storm,capacity` runs those alone; `memory`
 * is a name for `capacity`, which measures it):
 * 1. Starts the real server (bin/start.ts) as a child process on a free port with a temporary DATA_DIR and
 *    no rate limits, and waits for /api/health. With --pg it runs on PostgreSQL instead: a fresh database
 *    on 127.0.0.1:5432 (PG_ADMIN_URL, by default postgres://postgres@127.0.0.1:5432/postgres, else user
 *    root), given to the server as DATABASE_URL, dropped at the end.
 * 2. load: over HTTP, sets up the games: a GM and 17 players each, automatic mode, started, night 1 closed
 *    by the GM, so every game is in day 1. Each player's GameDetail says whether they live and may vote.
 *    Runs the load from a separate process (load.ts, autocannon): after an unmeasured warm-up of the bare
 *    endpoint, bare (GET /api/health), vote, post, and bare again; the bare figure is the median of its two
 *    runs, as the machine is noisy. Prints requests/s and p50/p99 latency per scenario and whether the
 *    target is met: votes at no less than half the bare endpoint's throughput, with p99 under 50 ms.
 * 3. streams (--streams N, 1000 by default, 0 skips it): on a game of its own, 10 KB posts and votes at
 *    --stream-rate requests/s (50 by default; 0 = as fast as possible) with no stream open, then the same
 *    with N anonymous streams open on that game, held by a separate process (streams.ts) that opens 8 from
 *    each of N/8 loopback addresses (127.1.0.x), so the server's stream caps are met, not raised. Every
 *    stream must receive every item, in order, and none may be refused or closed.
 * 4. tools (--tools N rounds, 3 by default, 0 skips it): the bare endpoint alone, then while one client
 *    (tools-client.ts, its own process) sends ~5 MB vote counts to /api/tools/votecount back to back,
 *    alternated N times; the figures are the medians of each kind. The counts run in the server's worker
 *    threads (issue 11, finding 2), so the bare endpoint should barely notice them.
 * 4b. hostile (issue 28, item 3; hostile.ts): GET /api/health 50 times a second alone, then while twelve
 *    bodies of about 5 MB, accepted and refused kinds (hostile-client.ts), arrive from 6 loopback addresses
 *    at once, 3 rounds: health p50, p99 and max of each, p99 under 100 ms.
 * 5. fanout, storm, capacity (issue 19, scale.ts): a vote reaching --fanout-viewers (1000) anonymous viewers
 *    of one game, --fanout-votes (200) times, p99 from the vote's 2xx to the last viewer under 100 ms; the
 *    reconnect storm, --storm-viewers (500) viewers each refetching the game when a vote arrives,
 *    --storm-votes (20) times, p99 from the vote's 2xx to the last refetch under 500 ms; --capacity-games
 *    (500) games of 17 with every player's page open (a logged-in stream each) and writes at
 *    --capacity-pace (0.5) per game per second for --capacity-seconds (30) s, against the same writes with
 *    no stream open: write p99 under 50 ms and GET /api/health p99 (--health-rate 10 per second) under
 *    20 ms; and the server's memory (VmRSS) at the start, per active game and per open stream. The
 *    capacity section runs first, on the fresh server; the others then run beside its 500 games.
 * 6. Stops the server (SIGTERM, or SIGKILL with --crash) and reads the store (the SQLite file, or the
 *    PostgreSQL tables): every acknowledged vote, post and night action must be stored.
 * A missed target is printed as "NOT met"; a lost acknowledged write, a refused stream, a stream with a gap
 * or a refused write makes the run exit 1.
 * --profile DIR writes the server's CPU profile (node --cpu-prof) into DIR when it stops.
 * The temporary directory, the child processes and the PostgreSQL database are removed on exit, even on
 * failure.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { compareRun } from "./compare.ts";
import {
  ROOT,
  childClient,
  cleanUp,
  cpuMs,
  exited,
  idleCheck,
  interleave,
  median,
  printTable,
  removeOnExit,
  rowOf,
  rssMb,
  runLoad,
  setUpGame,
  started,
  startServer,
  track,
  untrack,
  type Measured,
  type Row,
  type RunningServer,
  medianRow,
} from "./harness.ts";
import type { AckedAct, AckedVote, LoadResult, Plan, StreamStats } from "./plan.ts";
import { capacitySection, oneGameSection, type SectionResult } from "./scale.ts";
import { checkDurability, cleanUpOnExit, createDatabase, dropDatabases } from "./stores.ts";
import type { ToolClientStats } from "./tools-client.ts";
import { hostileSection } from "./hostile.ts";

const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 50;

const SECTIONS = ["load", "streams", "tools", "hostile", "fanout", "storm", "capacity"] as const;
type Section = (typeof SECTIONS)[number];

interface Args {
  games: number;
  seconds: number;
  connections: number;
  crash: boolean;
  profile: string | null;
  streams: number;
  streamRate: number;
  tools: number;
  only: Set<Section>;
  /** Whether --only was given (with --instances the default is load and fanout). */
  onlyGiven: boolean;
  pg: boolean;
  /** Issue 20: instances on one PostgreSQL database, measured against one on PostgreSQL and one on SQLite. */
  instances: number;
  /** --instances: rounds of the load runs, whose medians are reported. */
  rounds: number;
  fanoutViewers: number;
  fanoutVotes: number;
  stormViewers: number;
  stormVotes: number;
  capacityGames: number;
  capacitySeconds: number;
  capacityPace: number;
  healthRate: number;
}

/** Flags taking a positive integer, and the field each sets. */
const COUNTS = {
  "--games": "games",
  "--seconds": "seconds",
  "--connections": "connections",
  "--fanout-viewers": "fanoutViewers",
  "--fanout-votes": "fanoutVotes",
  "--storm-viewers": "stormViewers",
  "--storm-votes": "stormVotes",
  "--capacity-games": "capacityGames",
  "--capacity-seconds": "capacitySeconds",
  "--health-rate": "healthRate",
  "--instances": "instances",
  "--rounds": "rounds",
} as const satisfies Record<string, keyof Args>;

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    games: 20,
    seconds: 10,
    connections: 50,
    crash: false,
    profile: null,
    streams: 1000,
    streamRate: 50,
    tools: 3,
    only: new Set(SECTIONS),
    onlyGiven: false,
    pg: false,
    instances: 1,
    rounds: 3,
    fanoutViewers: 1000,
    fanoutVotes: 200,
    stormViewers: 500,
    stormVotes: 20,
    capacityGames: 500,
    capacitySeconds: 30,
    capacityPace: 0.5,
    healthRate: 10,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === "--help" || flag === "-h") {
      // The usage is this file's opening comment.
      const text = readFileSync(new URL(import.meta.url), "utf8");
      console.log(
        text
          .slice(text.indexOf("/**") + 3, text.indexOf("*/"))
          .split("\n")
          .map((line) => line.replace(/^ \* ?/, ""))
          .join("\n")
          .trim(),
      );
      process.exit(0);
    }
    if (flag === "--crash") {
      args.crash = true;
      continue;
    }
    if (flag === "--pg") {
      args.pg = true;
      continue;
    }
    if (flag === "--profile") {
      const dir = argv[++i];
      if (!dir) throw new Error("--profile: expected a directory");
      args.profile = resolve(dir);
      continue;
    }
    if (flag === "--only") {
      const names = (argv[++i] ?? "").split(",").map((s) => (s.trim() === "memory" ? "capacity" : s.trim()));
      const known: readonly string[] = SECTIONS;
      const bad = names.filter((n) => !known.includes(n));
      if (names.length === 0 || bad.length > 0)
        throw new Error(
          `--only: expected sections from ${SECTIONS.join(",")} (or memory), got ${bad.join(",")}`,
        );
      args.only = new Set(SECTIONS.filter((s) => names.includes(s)));
      args.onlyGiven = true;
      continue;
    }
    if (flag === "--capacity-pace") {
      const value = Number(argv[++i]);
      if (!(value > 0)) throw new Error(`${flag}: expected a number > 0 (writes per game per second)`);
      args.capacityPace = value;
      continue;
    }
    if (flag === "--streams" || flag === "--stream-rate" || flag === "--tools") {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 0) throw new Error(`${flag}: expected an integer ≥ 0`);
      if (flag === "--streams") args.streams = value;
      else if (flag === "--stream-rate") args.streamRate = value;
      else args.tools = value;
      continue;
    }
    if (!(flag in COUNTS))
      throw new Error(
        `unknown flag ${flag} (flags: --help, --only ${SECTIONS.join(",")}, --pg, --crash, --profile DIR, --streams N, ` +
          `--stream-rate N, --tools N, --capacity-pace X, ${Object.keys(COUNTS)
            .map((f) => `${f} N`)
            .join(", ")})`,
      );
    const value = Number(argv[++i]);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${flag}: expected a positive integer`);
    args[COUNTS[flag as keyof typeof COUNTS]] = value;
  }
  if (args.streams === 0) args.only.delete("streams");
  if (args.tools === 0) args.only.delete("tools");
  if (args.instances > 1) {
    if (!args.pg)
      throw new Error(
        "--instances: needs --pg (instances share a PostgreSQL database; SQLite is one process)",
      );
    const other = [...args.only].filter((s) => s !== "load" && s !== "fanout");
    if (args.onlyGiven && other.length > 0)
      throw new Error(`--only: with --instances only load and fanout run, not ${other.join(",")}`);
    for (const s of other) args.only.delete(s);
    if (args.profile)
      throw new Error("--profile: not with --instances (one profile per instance would be needed)");
  }
  return args;
}

cleanUpOnExit();

// ——— the streams section (issue 11, finding 3) ———

const STREAMS = join(ROOT, "packages/server/bench/streams.ts");
/** The load generator's connections in the streams section: the rate, not their number, sets the load. */
const STREAM_CONNECTIONS = 10;
/** Streams per loopback address: the server's cap on anonymous streams from one address. */
const STREAMS_PER_ADDRESS = 8;
const STREAM_POST_BYTES = 10_000;

/** The stream holder: a child process keeping `count` streams open on one game until it is told to stop. */
async function holdStreams(
  url: string,
  game: string,
  count: number,
): Promise<{ opened: number; stop: () => Promise<StreamStats> }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", STREAMS, url, game, String(count), String(STREAMS_PER_ADDRESS)],
    { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] },
  );
  track(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const lines: string[] = [];
  let wake: (() => void) | null = null;
  child.stdout!.on("data", (c: Buffer) => {
    out += c.toString("utf8");
    for (let i = out.indexOf("\n"); i >= 0; i = out.indexOf("\n")) {
      lines.push(out.slice(0, i));
      out = out.slice(i + 1);
    }
    wake?.();
  });
  const gone = exited(child);
  const line = async (what: string): Promise<string> => {
    for (;;) {
      const next = lines.shift();
      if (next !== undefined) return next;
      const ended = await Promise.race([
        gone.then(() => true),
        new Promise<false>((r) => (wake = () => r(false))),
      ]);
      if (ended && lines.length === 0) throw new Error(`the stream holder exited before ${what}:\n${err}`);
    }
  };
  const ready = /^ready (\d+)$/.exec(await line("its streams were open"));
  if (!ready) throw new Error(`the stream holder: unexpected output\n${err}`);
  return {
    opened: Number(ready[1]),
    stop: async () => {
      child.stdin!.end();
      const stats = JSON.parse(await line("its report")) as StreamStats;
      await gone;
      untrack(child);
      return stats;
    },
  };
}

/**
 * Post and vote latency on one game with no stream open, then with `args.streams` streams open on it.
 * Returns the runs' results (their writes are checked on disk with the rest) and whether it failed.
 */
async function streamsSection(
  server: RunningServer,
  dir: string,
  args: Args,
): Promise<{ results: LoadResult[]; failed: boolean }> {
  console.log("");
  const table = await setUpGame(server.url, args.games);
  const plan: Plan = {
    url: server.url,
    connections: STREAM_CONNECTIONS,
    seconds: args.seconds,
    voters: table.voters,
    posters: table.posters,
    postBytes: STREAM_POST_BYTES,
    ...(args.streamRate > 0 ? { rate: args.streamRate } : {}),
  };
  const planFile = join(dir, "plan-streams.json");
  writeFileSync(planFile, JSON.stringify(plan));
  const pace = args.streamRate > 0 ? `${args.streamRate} requests/s` : "as fast as possible";
  console.log(
    `streams: one game, ${STREAM_CONNECTIONS} connections at ${pace}, posts of ${STREAM_POST_BYTES / 1000} KB; ` +
      `${args.streams} anonymous streams from ${Math.ceil(args.streams / STREAMS_PER_ADDRESS)} loopback addresses`,
  );
  const rows: Row[] = [];
  const results: LoadResult[] = [];
  const measure = async (scenario: "post" | "vote", label: string): Promise<void> => {
    const before = cpuMs(server.child.pid);
    const r = await runLoad(planFile, scenario);
    const after = cpuMs(server.child.pid);
    const cpuUs =
      before === null || after === null ? null : ((after - before) * 1000) / Math.max(1, r.responses);
    results.push(r);
    rows.push(rowOf(`${scenario}, ${label}`, { load: r, cpuUs }));
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      throw new Error(`the server died during the streams section:\n${server.output()}`);
  };
  await measure("post", "no streams");
  await measure("vote", "no streams");
  const held = await holdStreams(server.url, table.id, args.streams);
  const label = `${held.opened} streams`;
  await measure("post", label);
  await measure("vote", label);
  const stats = await held.stop();
  console.log("");
  printTable(rows);
  console.log("");
  console.log(
    `streams: ${stats.opened} opened, ${stats.endedByServer} closed by the server, ` +
      `${stats.withGaps} with ids out of order; items per stream ${stats.minItems}–${stats.maxItems}; ` +
      `${stats.megabytes.toFixed(0)} MB received`,
  );
  let failed = false;
  for (const [why, n] of Object.entries(stats.refused)) {
    failed = true;
    console.log(`  ${n} streams refused: ${why}`);
  }
  for (const r of results)
    if (r.non2xx > 0 || r.errors > 0) {
      failed = true;
      console.log(
        `${r.scenario} (streams section): ${r.non2xx} non-2xx responses, ${r.errors} errors; ` +
          `status codes ${JSON.stringify(r.statusCodes)}`,
      );
    }
  const same = stats.minItems === stats.maxItems && stats.minItems > 0;
  const whole = stats.opened === args.streams && stats.endedByServer === 0 && stats.withGaps === 0;
  console.log(`every stream received every item, in order: ${same && whole ? "yes" : "NO"}`);
  if (!same || !whole) failed = true;
  return { results, failed };
}

// ——— the tools section (issue 11, finding 2) ———

const TOOLS_CLIENT = join(ROOT, "packages/server/bench/tools-client.ts");

/** The tool client: a child process sending ~5 MB vote counts back to back until it is told to stop. */
async function sendBigCounts(url: string): Promise<{ stop: () => Promise<ToolClientStats> }> {
  const { child, finish } = await childClient(TOOLS_CLIENT, [url], "started", "the tool client");
  return {
    stop: async () => {
      child.stdin!.end();
      return (await finish()) as ToolClientStats;
    },
  };
}

/**
 * The bare endpoint alone, then while one client sends big vote counts back to back, `rounds` times over
 * in this run; the figures to compare are each kind's medians. Fails on a refused or lost health check,
 * and on a count answered with anything but 200 or 413 (over the server's time budget) or not at all.
 */
async function toolsSection(
  server: RunningServer,
  planFile: string,
  rounds: number,
): Promise<{ failed: boolean }> {
  console.log("");
  console.log(
    `tools: GET /api/health alone, then while one client sends ~5 MB vote counts back to back; ${rounds} rounds`,
  );
  const measure = async (label: string, cpu: boolean): Promise<Measured> => {
    const before = cpuMs(server.child.pid);
    const r = await runLoad(planFile, "bare");
    const after = cpuMs(server.child.pid);
    const cpuUs =
      !cpu || before === null || after === null ? null : ((after - before) * 1000) / Math.max(1, r.responses);
    console.log(
      `  ${label}: ${r.requestsPerSecond.toFixed(0)} requests/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`,
    );
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      throw new Error(`the server died during the tools section:\n${server.output()}`);
    return { load: r, cpuUs };
  };
  const alone: Measured[] = [];
  const loaded: Measured[] = [];
  const counts: ToolClientStats[] = [];
  for (let i = 1; i <= rounds; i++) {
    alone.push(await measure(`health alone ${i}`, true));
    const client = await sendBigCounts(server.url);
    // The server's CPU time would include the counting threads': not shown for these runs.
    loaded.push(await measure(`health + counts ${i}`, false));
    counts.push(await client.stop());
  }
  console.log("");
  printTable([
    ...alone.map((m, i) => rowOf(`health alone ${i + 1}`, m)),
    ...loaded.map((m, i) => rowOf(`health + counts ${i + 1}`, m)),
    medianRow("health alone (median)", alone),
    medianRow("health + counts (median)", loaded),
  ]);
  console.log("");
  let failed = false;
  counts.forEach((c, i) => {
    console.log(
      `counts ${i + 1}: ${c.requests} of ${(c.bodyBytes / 1e6).toFixed(1)} MB, answers ${JSON.stringify(c.statusCodes)}, ` +
        `${c.errors} lost; ${(c.p50Ms / 1000).toFixed(2)} s each (median), ${(c.maxMs / 1000).toFixed(2)} s the longest`,
    );
    if (c.errors > 0) console.log(`  first lost: ${c.firstError}`);
    const unexpected = Object.keys(c.statusCodes).filter((code) => code !== "200" && code !== "413");
    if (c.errors > 0 || unexpected.length > 0 || c.requests === 0) failed = true;
  });
  for (const m of [...alone, ...loaded])
    if (m.load.non2xx > 0 || m.load.errors > 0) {
      failed = true;
      console.log(
        `health (tools section): ${m.load.non2xx} non-2xx responses, ${m.load.errors} errors; ` +
          `status codes ${JSON.stringify(m.load.statusCodes)}`,
      );
    }
  const a = medianRow("", alone);
  const l = medianRow("", loaded);
  console.log(
    `health under tool load: p50 ${(l.p50 / a.p50).toFixed(1)}×, p99 ${(l.p99 / a.p99).toFixed(1)}× its figure alone; ` +
      `throughput ${((l.rps / a.rps) * 100).toFixed(0)}%`,
  );
  return { failed };
}

// ——— the load section ———

/** Bare, vote and post on `args.games` games in day 1: throughput and latency against the bare endpoint. */
async function loadSection(
  server: RunningServer,
  dir: string,
  args: Args,
): Promise<{ results: LoadResult[]; failed: boolean; target: string }> {
  const setupStart = Date.now();
  const tables = await Promise.all(Array.from({ length: args.games }, (_, g) => setUpGame(server.url, g)));
  const plan: Plan = {
    url: server.url,
    connections: args.connections,
    seconds: args.seconds,
    voters: interleave(tables.map((t) => t.voters)),
    posters: interleave(tables.map((t) => t.posters)),
  };
  console.log(
    `load: set up ${tables.length} games in day 1 in ${((Date.now() - setupStart) / 1000).toFixed(1)} s: ` +
      `${plan.voters.length} voters, ${plan.posters.length} posters; ${args.connections} connections, ${args.seconds} s per scenario`,
  );
  const planFile = join(dir, "plan-load.json");
  writeFileSync(planFile, JSON.stringify(plan));

  // A short unmeasured run first, so the first measured one does not pay for the JIT's warm-up.
  await runLoad(planFile, "bare", Math.min(2, args.seconds));
  const measured: Measured[] = [];
  for (const scenario of ["bare", "vote", "post", "bare"] as const) {
    const before = cpuMs(server.child.pid);
    const r = await runLoad(planFile, scenario);
    const after = cpuMs(server.child.pid);
    const cpuUs =
      before === null || after === null ? null : ((after - before) * 1000) / Math.max(1, r.responses);
    console.log(
      `  ${scenario}: ${r.requestsPerSecond.toFixed(0)} requests/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms` +
        ` (${r.responses} responses in ${r.seconds} s)`,
    );
    measured.push({ load: r, cpuUs });
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      throw new Error(`the server died during the ${scenario} run:\n${server.output()}`);
  }
  const results = measured.map((m) => m.load);
  const [bare1, vote, post, bare2] = measured as [Measured, Measured, Measured, Measured];
  const bare: Row = {
    name: "bare (median)",
    rps: median([bare1.load.requestsPerSecond, bare2.load.requestsPerSecond]),
    p50: median([bare1.load.p50, bare2.load.p50]),
    p99: median([bare1.load.p99, bare2.load.p99]),
    cpuUs: bare1.cpuUs === null || bare2.cpuUs === null ? null : median([bare1.cpuUs, bare2.cpuUs]),
    non2xx: bare1.load.non2xx + bare2.load.non2xx,
    errors: bare1.load.errors + bare2.load.errors,
  };

  console.log("");
  printTable([
    rowOf("bare 1", bare1),
    rowOf("bare 2", bare2),
    bare,
    rowOf("vote", vote),
    rowOf("post", post),
  ]);
  console.log("");
  const voteRatio = vote.load.requestsPerSecond / bare.rps;
  const postRatio = post.load.requestsPerSecond / bare.rps;
  console.log(`vote/bare throughput ratio: ${(voteRatio * 100).toFixed(1)}%`);
  console.log(`post/bare throughput ratio: ${(postRatio * 100).toFixed(1)}%`);
  if (bare.cpuUs !== null && vote.cpuUs !== null && post.cpuUs !== null)
    console.log(
      `server CPU per request: vote ${(vote.cpuUs / bare.cpuUs).toFixed(1)}× bare, post ${(post.cpuUs / bare.cpuUs).toFixed(1)}× bare` +
        ` (a vote needs ≤ 2× for the target when the server is the bottleneck)`,
    );
  const met = voteRatio >= TARGET_RATIO && vote.load.p99 < TARGET_P99_MS;
  const target = `load (vote ≥ ${TARGET_RATIO * 100}% of bare, vote p99 ${vote.load.p99.toFixed(1)} ms < ${TARGET_P99_MS} ms): ${met ? "met" : "NOT met"}`;
  console.log(`target ${target}`);

  let failed = false;
  for (const r of results) {
    if (r.non2xx > 0 || r.errors > 0) {
      failed = true;
      console.log(
        `${r.scenario}: ${r.non2xx} non-2xx responses, ${r.errors} errors (${r.timeouts} timeouts); ` +
          `status codes ${JSON.stringify(r.statusCodes)}`,
      );
      for (const body of r.refusals) console.log(`  ${body}`);
    }
  }
  return { results, failed, target };
}

// ——— main ———

/** Nicks are numbered by game: each section's games get numbers of their own. */
const FANOUT_GAME = 100_000;
const STORM_GAME = 100_001;
const CAPACITY_FIRST_GAME = 200_000;

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (args.instances > 1)
    return compareRun({
      instances: args.instances,
      games: args.games,
      seconds: args.seconds,
      connections: args.connections,
      rounds: args.rounds,
      load: args.only.has("load"),
      fanout: args.only.has("fanout"),
      fanoutViewers: args.fanoutViewers,
      fanoutVotes: args.fanoutVotes,
      crash: args.crash,
    });
  const tempDir = mkdtempSync(join(tmpdir(), "fm-bench-"));
  removeOnExit(tempDir);
  const dataDir = join(tempDir, "data");
  const database = args.pg ? await createDatabase() : null;
  const databaseUrl = database?.url ?? null;
  console.log(
    `bench:server: ${[...args.only].join(", ")}; store: ${database ? `PostgreSQL, database ${database.name}` : `SQLite in ${dataDir}`}`,
  );

  console.log(await idleCheck());
  const server = await startServer(dataDir, args.profile, databaseUrl);
  console.log(`server RSS at start (0 games): ${rssMb(server.child.pid)?.toFixed(1) ?? "?"} MB`);
  const acked: { votes: AckedVote[]; posts: string[]; acts: AckedAct[] } = { votes: [], posts: [], acts: [] };
  let slack = 0;
  let failed = false;
  const targets: string[] = [];
  // One at a time: a run acknowledges a hundred thousand votes, too many to pass as arguments (push(...)).
  const gather = (r: {
    votes: readonly AckedVote[];
    posts: readonly string[];
    acts: readonly AckedAct[];
  }): void => {
    for (const v of r.votes) acked.votes.push(v);
    for (const p of r.posts) acked.posts.push(p);
    for (const a of r.acts) acked.acts.push(a);
  };
  const add = (r: SectionResult): void => {
    gather(r);
    slack += r.slack;
    targets.push(...r.targets);
    if (r.failed) failed = true;
  };
  const addLoads = (results: readonly LoadResult[], connections: number): void => {
    for (const r of results) {
      gather(r);
      slack += connections;
    }
  };

  // The capacity section first, on a fresh server: the sections before it would leave a heap of a gigabyte
  // (100,000 votes, 10 KB posts), whose collections then stand in its tail latencies and memory figures.
  // The sections after it run beside its 500 games, as on a busy evening.
  if (args.only.has("capacity"))
    add(
      await capacitySection(server, tempDir, {
        games: args.capacityGames,
        seconds: args.capacitySeconds,
        pace: args.capacityPace,
        healthRate: args.healthRate,
        g: CAPACITY_FIRST_GAME,
        earlier: false,
      }),
    );
  if (args.only.has("load")) {
    console.log("");
    const section = await loadSection(server, tempDir, args);
    addLoads(section.results, args.connections);
    targets.push(section.target);
    if (section.failed) failed = true;
  }
  if (args.only.has("streams")) {
    const section = await streamsSection(server, tempDir, args);
    addLoads(section.results, STREAM_CONNECTIONS);
    if (section.failed) failed = true;
  }
  if (args.only.has("tools")) {
    const planFile = join(tempDir, "plan-bare.json");
    const plan: Plan = {
      url: server.url,
      connections: args.connections,
      seconds: args.seconds,
      voters: [],
      posters: [],
    };
    writeFileSync(planFile, JSON.stringify(plan));
    if ((await toolsSection(server, planFile, args.tools)).failed) failed = true;
  }
  if (args.only.has("hostile")) {
    const section = await hostileSection(server, 3);
    targets.push(section.target);
    if (section.failed) failed = true;
  }
  if (args.only.has("fanout"))
    add(await oneGameSection([server], tempDir, "fanout", FANOUT_GAME, args.fanoutViewers, args.fanoutVotes));
  if (args.only.has("storm"))
    add(await oneGameSection([server], tempDir, "storm", STORM_GAME, args.stormViewers, args.stormVotes));

  // Durability: stop the server, then read what it left in the store.
  server.child.kill(args.crash ? "SIGKILL" : "SIGTERM");
  const stop = await Promise.race([
    exited(server.child),
    new Promise<null>((r) => setTimeout(() => r(null), 30_000).unref()),
  ]);
  if (stop === null) throw new Error(`the server did not stop within 30 s of SIGTERM:\n${server.output()}`);
  untrack(server.child);
  console.log("");
  console.log(
    `server stopped by ${args.crash ? "SIGKILL (a crash)" : "SIGTERM"}: ` +
      `${stop.signal ? `signal ${stop.signal}` : `exit code ${stop.code}`}`,
  );
  if (!args.crash && stop.code !== 0) failed = true;
  const durability = await checkDurability(
    databaseUrl ? { pg: databaseUrl } : { sqlite: join(dataDir, "forum-mafia.sqlite") },
    acked,
    slack,
  );
  for (const line of durability.lines) console.log(line);
  if (!durability.ok) failed = true;

  console.log("");
  console.log(`targets (${database ? "PostgreSQL" : "SQLite"}):`);
  for (const t of targets) console.log(`  ${t}`);
  console.log(`bench:server: ${failed ? "FAILED (see above)" : "no failures"}`);
  return failed ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  const cause = error instanceof Error && error.cause !== undefined ? ` (${String(error.cause)})` : "";
  console.error(`bench:server failed: ${error instanceof Error ? error.message : String(error)}${cause}`);
  for (const server of started.all)
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      console.error(
        `the server at ${server.url} exited (${server.child.exitCode ?? server.child.signalCode}); its last output:\n${server.output()}`,
      );
} finally {
  cleanUp();
  try {
    await dropDatabases();
  } catch (error) {
    console.error(`bench:server: could not drop the database: ${String(error)}`);
    code = 1;
  }
}
process.exit(code);
