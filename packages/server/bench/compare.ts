/**
 * `npm run bench:server -- --pg --instances N` (issue 20): several instances of the server on one
 * PostgreSQL database, against one instance on PostgreSQL and one on SQLite, all measured in the same run
 * on the same machine with the same load.
 *
 * Three set-ups, each on a store of its own: SQLite (a temporary DATA_DIR), PostgreSQL with one instance (a
 * fresh database), PostgreSQL with N instances (another fresh database, N processes of bin/start.ts). Each
 * instance is its own child process started as the single-server bench starts one.
 * - load: each set-up gets `games` games in day 1 (game g set up through instance g mod N, so the games are
 *   created all over the cluster). Then, `rounds` times, each set-up in turn (the order rotated each round,
 *   so a drift of the machine does not favour one) runs bare (GET /api/health), vote and post for `seconds`
 *   each. With N instances the load generator splits its connections evenly over them (load.ts,
 *   Plan.urls), the players' requests taken in turn from one counter, as behind a round-robin proxy: a
 *   player's consecutive requests reach different instances. The figures are medians over the rounds, with
 *   the machine's busy % and every instance's CPU time per response; the ratios printed are votes (and
 *   posts) on PostgreSQL against SQLite (the issue's target: at least half) and against each set-up's bare.
 * - fanout: a vote reaching `viewers` anonymous viewers spread evenly over the set-up's instances, each vote
 *   sent to the next instance in turn (scale.ts): p50 and p99 from the vote's 2xx to the last viewer.
 * At the end every instance is stopped (SIGTERM, or SIGKILL with --crash) and each set-up's store is read:
 * every write it acknowledged, through whichever instance, must be stored.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import {
  cpuMs,
  exited,
  idleCheck,
  interleave,
  measureLoad,
  median,
  printColumns,
  printTable,
  removeOnExit,
  rssMb,
  setUpGame,
  startServer,
  untrack,
  type Measured,
  type Row,
  type RunningServer,
  medianRow,
} from "./harness.ts";
import type { LoadResult, Plan, Scenario } from "./plan.ts";
import { FANOUT_TARGET_P99_MS, oneGameSection } from "./scale.ts";
import { checkDurability, createDatabase, type Acked } from "./stores.ts";

export interface CompareArgs {
  readonly instances: number;
  readonly games: number;
  readonly seconds: number;
  readonly connections: number;
  readonly rounds: number;
  readonly load: boolean;
  readonly fanout: boolean;
  readonly fanoutViewers: number;
  readonly fanoutVotes: number;
  readonly crash: boolean;
}

/** The issue's target: votes on PostgreSQL at no less than half of SQLite's throughput. */
const PG_TO_SQLITE_TARGET = 0.5;
/** The fan-out's game: nicks are numbered by it (each set-up has a store of its own). */
const FANOUT_GAME = 100_000;
const SCENARIOS = ["bare", "vote", "post"] as const;

interface SetUp {
  readonly label: string;
  readonly servers: RunningServer[];
  readonly where: { sqlite: string } | { pg: string };
  readonly acked: Acked;
  slack: number;
  planFile: string | null;
  plan: Plan | null;
  /** Where each scenario's next run starts (votes and posts go on from the last run's). */
  readonly offsets: Map<Scenario, number>;
  readonly runs: Map<Scenario, Measured[]>;
  /** PostgreSQL set-ups: the database's backends' CPU time per response (µs), run by run. */
  readonly pgCpu: Map<Scenario, number[]>;
  fanout: { p50: number; p99: number; n: number } | null;
}

const gather = (into: Acked, r: Pick<LoadResult, "votes" | "posts" | "acts">): void => {
  // One at a time: a run may acknowledge more votes than fit in a call's arguments.
  for (const v of r.votes) into.votes.push(v);
  for (const p of r.posts) into.posts.push(p);
  for (const a of r.acts) into.acts.push(a);
};

async function startSetUps(dir: string, instances: number): Promise<SetUp[]> {
  const sqliteDir = join(dir, "sqlite");
  const one = await createDatabase();
  const many = await createDatabase();
  const make = (label: string, servers: RunningServer[], where: SetUp["where"]): SetUp => ({
    label,
    servers,
    where,
    acked: { votes: [], posts: [], acts: [] },
    slack: 0,
    planFile: null,
    plan: null,
    offsets: new Map(),
    runs: new Map(),
    pgCpu: new Map(),
    fanout: null,
  });
  // Every instance at once, as a deployment would start them: the store's migration takes a lock.
  const [sqlite, pg1, ...pgN] = await Promise.all([
    startServer(sqliteDir, null, null),
    startServer(join(dir, "pg1"), null, one.url),
    ...Array.from({ length: instances }, (_, i) =>
      startServer(join(dir, `pg${instances}-${i}`), null, many.url),
    ),
  ]);
  console.log(
    `stores: SQLite in ${sqliteDir}; PostgreSQL databases ${one.name} (1 instance) and ${many.name} (${instances} instances)`,
  );
  return [
    make("SQLite, 1 instance", [sqlite!], { sqlite: join(sqliteDir, "forum-mafia.sqlite") }),
    make("PostgreSQL, 1 instance", [pg1!], { pg: one.url }),
    make(`PostgreSQL, ${instances} instances`, pgN, { pg: many.url }),
  ];
}

/**
 * The CPU time (ms) each backend of one PostgreSQL database has used so far, by process id (read from
 * /proc: the database runs on this machine); the backend asking is left out.
 */
async function backendsCpu(url: string): Promise<Map<number, number> | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    const out = new Map<number, number>();
    for (const { pid } of r.rows) {
      const ms = cpuMs(pid);
      if (ms !== null) out.set(pid, ms);
    }
    return out.size > 0 ? out : null;
  } finally {
    await c.end();
  }
}

async function loadSection(
  setUps: SetUp[],
  dir: string,
  args: CompareArgs,
): Promise<{ failed: boolean; targets: string[] }> {
  console.log("");
  for (const [i, s] of setUps.entries()) {
    const t0 = Date.now();
    const n = s.servers.length;
    const tables = await Promise.all(
      Array.from({ length: args.games }, (_, g) => setUpGame(s.servers[g % n]!.url, g)),
    );
    s.plan = {
      url: s.servers[0]!.url,
      ...(n > 1 ? { urls: s.servers.map((x) => x.url) } : {}),
      connections: args.connections,
      seconds: args.seconds,
      voters: interleave(tables.map((t) => t.voters)),
      posters: interleave(tables.map((t) => t.posters)),
    };
    s.planFile = join(dir, `plan-compare-${i}.json`);
    console.log(
      `load, ${s.label}: set up ${tables.length} games in day 1 in ${((Date.now() - t0) / 1000).toFixed(1)} s ` +
        `(${s.plan.voters.length} voters, ${s.plan.posters.length} posters)`,
    );
  }
  console.log(
    `load: ${args.connections} connections, ${args.seconds} s per run; ${args.rounds} rounds of bare, vote and post on each set-up`,
  );
  const write = (s: SetUp, scenario: Scenario): string => {
    writeFileSync(s.planFile!, JSON.stringify({ ...s.plan!, offset: s.offsets.get(scenario) ?? 0 }));
    return s.planFile!;
  };
  // A short unmeasured run on each first, so no first measured run pays for the JIT's warm-up.
  for (const s of setUps) await measureLoad(s.servers, write(s, "bare"), "bare", Math.min(2, args.seconds));
  for (let round = 0; round < args.rounds; round++) {
    const order = setUps.map((_, i) => setUps[(i + round) % setUps.length]!);
    for (const s of order)
      for (const scenario of SCENARIOS) {
        const pg0 = "pg" in s.where ? await backendsCpu(s.where.pg) : null;
        const m = await measureLoad(s.servers, write(s, scenario), scenario);
        const pg1 = "pg" in s.where ? await backendsCpu(s.where.pg) : null;
        if (pg0 && pg1) {
          // Only the backends there at both ends: the pools keep theirs for the whole run.
          let ms = 0;
          for (const [pid, before] of pg0) ms += Math.max(0, (pg1.get(pid) ?? before) - before);
          const list = s.pgCpu.get(scenario) ?? [];
          list.push((ms * 1000) / Math.max(1, m.load.responses));
          s.pgCpu.set(scenario, list);
        }
        s.offsets.set(scenario, m.load.sent);
        const runs = s.runs.get(scenario) ?? [];
        runs.push(m);
        s.runs.set(scenario, runs);
        gather(s.acked, m.load);
        // Each connection may leave one write stored but unanswered when the run ends.
        const n = s.servers.length;
        s.slack += Math.max(1, Math.round(args.connections / n)) * n;
        console.log(
          `  round ${round + 1}, ${s.label}, ${scenario}: ${m.load.requestsPerSecond.toFixed(0)} requests/s, ` +
            `p50 ${m.load.p50.toFixed(2)} ms, p99 ${m.load.p99.toFixed(2)} ms, machine ${m.machinePercent?.toFixed(0) ?? "?"}% busy` +
            (m.load.non2xx + m.load.errors > 0
              ? `; ${m.load.non2xx} non-2xx, ${m.load.errors} errors ${JSON.stringify(m.load.statusCodes)}`
              : ""),
        );
      }
  }

  console.log("");
  console.log(`load: medians over ${args.rounds} rounds`);
  const rows = new Map<string, Row>();
  const rowFor = (s: SetUp, scenario: Scenario): Row => {
    const key = `${s.label}|${scenario}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = medianRow(`${s.label}: ${scenario}`, s.runs.get(scenario) ?? [])));
    return row;
  };
  printTable(setUps.flatMap((s) => SCENARIOS.map((sc) => rowFor(s, sc))));
  console.log("");
  const pct = (a: number, b: number): string => `${((a / b) * 100).toFixed(0)}%`;
  console.log("");
  console.log(
    "CPU per response (µs, medians): the instances, and PostgreSQL's backends for the database (same machine)",
  );
  printColumns(
    ["set-up", ...SCENARIOS.flatMap((sc) => [`${sc}: instances`, `${sc}: PostgreSQL`])],
    setUps.map((s) => [
      s.label,
      ...SCENARIOS.flatMap((sc) => {
        const pgList = s.pgCpu.get(sc);
        const cpu = rowFor(s, sc).cpuUs;
        return [
          cpu === null ? "?" : cpu.toFixed(0),
          pgList && pgList.length > 0 ? median(pgList).toFixed(0) : "-",
        ];
      }),
    ]),
  );
  console.log("");
  for (const s of setUps) {
    const bare = rowFor(s, "bare");
    console.log(
      `${s.label}: vote ${pct(rowFor(s, "vote").rps, bare.rps)} of bare, post ${pct(rowFor(s, "post").rps, bare.rps)} of bare`,
    );
  }
  const [sqlite, pg1, pgN] = setUps as [SetUp, SetUp, SetUp];
  const targets: string[] = [];
  for (const pg of [pg1, pgN]) {
    const vote = rowFor(pg, "vote").rps / rowFor(sqlite, "vote").rps;
    const post = rowFor(pg, "post").rps / rowFor(sqlite, "post").rps;
    console.log(
      `${pg.label} / SQLite: votes ${(vote * 100).toFixed(0)}%, posts ${(post * 100).toFixed(0)}%; ` +
        `vote p99 ${rowFor(pg, "vote").p99.toFixed(1)} ms against ${rowFor(sqlite, "vote").p99.toFixed(1)} ms`,
    );
    targets.push(
      `votes on ${pg.label} ≥ ${PG_TO_SQLITE_TARGET * 100}% of SQLite's (${(vote * 100).toFixed(0)}%): ` +
        `${vote >= PG_TO_SQLITE_TARGET ? "met" : "NOT met"}`,
    );
  }
  console.log(
    `${pgN.label} / 1 instance: votes ${pct(rowFor(pgN, "vote").rps, rowFor(pg1, "vote").rps)}, ` +
      `posts ${pct(rowFor(pgN, "post").rps, rowFor(pg1, "post").rps)}, bare ${pct(rowFor(pgN, "bare").rps, rowFor(pg1, "bare").rps)}`,
  );
  for (const t of targets) console.log(`target ${t}`);

  let failed = false;
  for (const s of setUps)
    for (const [scenario, runs] of s.runs)
      for (const m of runs)
        if (m.load.non2xx > 0 || m.load.errors > 0) {
          failed = true;
          console.log(
            `${s.label}, ${scenario}: ${m.load.non2xx} non-2xx responses, ${m.load.errors} errors (${m.load.timeouts} timeouts); ` +
              `status codes ${JSON.stringify(m.load.statusCodes)}`,
          );
          for (const body of m.load.refusals) console.log(`  ${body}`);
        }
  return { failed, targets };
}

/** Stops every instance (SIGTERM, or SIGKILL with `crash`); false when one did not stop cleanly. */
async function stopAll(setUps: readonly SetUp[], crash: boolean): Promise<boolean> {
  let clean = true;
  await Promise.all(
    setUps.flatMap((s) =>
      s.servers.map(async (server, i) => {
        server.child.kill(crash ? "SIGKILL" : "SIGTERM");
        const stop = await Promise.race([
          exited(server.child),
          new Promise<null>((r) => setTimeout(() => r(null), 30_000).unref()),
        ]);
        if (stop === null)
          throw new Error(`${s.label}, instance ${i + 1}: did not stop within 30 s:\n${server.output()}`);
        untrack(server.child);
        const how = stop.signal ? `signal ${stop.signal}` : `exit code ${stop.code}`;
        console.log(
          `${s.label}, instance ${i + 1}: stopped by ${crash ? "SIGKILL (a crash)" : "SIGTERM"}: ${how}`,
        );
        if (!crash && stop.code !== 0) {
          clean = false;
          console.log(server.output());
        }
      }),
    ),
  );
  return clean;
}

/** The whole `--instances` run; resolves to the process's exit code. */
export async function compareRun(args: CompareArgs): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "fm-bench-"));
  removeOnExit(dir);
  console.log(
    `bench:server --instances ${args.instances}: ${[args.load ? "load" : "", args.fanout ? "fanout" : ""].filter(Boolean).join(", ")}; ` +
      `SQLite, PostgreSQL with 1 instance and PostgreSQL with ${args.instances} instances, in one run`,
  );
  console.log(await idleCheck());
  const setUps = await startSetUps(dir, args.instances);
  for (const s of setUps)
    console.log(
      `${s.label}: RSS at start (0 games) ${s.servers.map((x) => `${rssMb(x.child.pid)?.toFixed(1) ?? "?"} MB`).join(", ")}`,
    );
  let failed = false;
  const targets: string[] = [];
  if (args.load) {
    const r = await loadSection(setUps, dir, args);
    if (r.failed) failed = true;
    targets.push(...r.targets);
  }
  if (args.fanout) {
    for (const s of setUps) {
      console.log("");
      console.log(`fanout on ${s.label}:`);
      try {
        const r = await oneGameSection(
          s.servers,
          dir,
          "fanout",
          FANOUT_GAME,
          args.fanoutViewers,
          args.fanoutVotes,
        );
        gather(s.acked, r);
        if (r.failed) failed = true;
        s.fanout = r.latency ?? null;
      } catch (error) {
        // One set-up's failure (e.g. an instance that does not know the game) leaves the others to measure.
        failed = true;
        console.log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    console.log("");
    console.log(`fanout: from a vote's 2xx to the last of ${args.fanoutViewers} viewers' vote items`);
    printColumns(
      ["set-up", "votes", "p50 ms", "p99 ms"],
      setUps.map((s) => [
        s.label,
        String(s.fanout?.n ?? 0),
        s.fanout ? s.fanout.p50.toFixed(1) : "?",
        s.fanout ? s.fanout.p99.toFixed(1) : "?",
      ]),
    );
    for (const s of setUps)
      targets.push(
        `fanout on ${s.label} (p99 ${s.fanout?.p99.toFixed(1) ?? "?"} ms < ${FANOUT_TARGET_P99_MS} ms): ` +
          `${s.fanout && s.fanout.n > 0 && s.fanout.p99 < FANOUT_TARGET_P99_MS ? "met" : "NOT met"}`,
      );
  }

  console.log("");
  if (!(await stopAll(setUps, args.crash))) failed = true;
  for (const s of setUps) {
    const d = await checkDurability(s.where, s.acked, s.slack);
    console.log(`${s.label}:`);
    for (const line of d.lines) console.log(`  ${line}`);
    if (!d.ok) failed = true;
  }
  console.log("");
  console.log("targets:");
  for (const t of targets) console.log(`  ${t}`);
  console.log(`bench:server: ${failed ? "FAILED (see above)" : "no failures"}`);
  return failed ? 1 : 0;
}
