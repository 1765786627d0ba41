/**
 * bench:server's hostile-bodies section (issue 28, item 3): twelve bodies of about 5 MB, accepted and refused
 * kinds (hostile-client.ts), from 6 loopback addresses at once, while GET /api/health is probed at a steady
 * rate; against the same probe with no bodies, in the same run, `rounds` times over. The target (the issue's
 * Done-when): health p99 under 100 ms while the bodies arrive.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ROOT,
  assertAlive,
  childClient,
  cpuMs,
  median,
  printColumns,
  type RunningServer,
} from "./harness.ts";
import type { HostileStats } from "./hostile-client.ts";
import { probeHealth } from "./scale.ts";

const CLIENT = join(ROOT, "packages/server/bench/hostile-client.ts");
const ADDRESSES = 6;
/** Health probes a second: one every 20 ms, so a stall of the event loop shows in its figures. */
const HEALTH_RATE = 50;
/** The baseline's length: about as long as the bodies take. */
const BASELINE_MS = 5_000;
export const HOSTILE_HEALTH_P99_MS = 100;

const TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** The CPU time of a process's main thread (its event loop) so far, in ms; null where /proc is not available. */
function eventLoopCpuMs(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return null;
  }
}

const ms = (a: number | null, b: number | null): string =>
  a === null || b === null ? "?" : (b - a).toFixed(0);

interface Figures {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly n: number;
  readonly failures: number;
}

function figures(latencies: readonly number[], failures: number): Figures {
  const s = [...latencies].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: s.at(-1) ?? 0, n: s.length, failures };
}

/** The client, started and its bodies built; `go` sends them and resolves with what came back. */
async function bodySender(url: string): Promise<{ go: () => Promise<HostileStats> }> {
  const { child, finish } = await childClient(CLIENT, [url, String(ADDRESSES)], "ready", "the body sender");
  return {
    go: async () => {
      child.stdin!.write("go\n");
      return (await finish()) as HostileStats;
    },
  };
}

export async function hostileSection(
  server: RunningServer,
  rounds: number,
): Promise<{ failed: boolean; target: string }> {
  console.log("");
  console.log(
    `hostile: GET /api/health ${HEALTH_RATE}/s alone, then while 12 bodies of ~5 MB (accepted and refused) ` +
      `arrive from ${ADDRESSES} addresses at once; ${rounds} rounds`,
  );
  const alone: Figures[] = [];
  const loaded: Figures[] = [];
  const answers = new Map<string, string[]>();
  let failed = false;
  for (let i = 1; i <= rounds; i++) {
    const sender = await bodySender(server.url);
    const quietLoop0 = eventLoopCpuMs(server.child.pid);
    const quiet = probeHealth(server.url, HEALTH_RATE);
    await new Promise((r) => setTimeout(r, BASELINE_MS));
    const q = await quiet.stop();
    const quietLoop1 = eventLoopCpuMs(server.child.pid);
    alone.push(figures(q.latencies, q.failures));
    const busy = probeHealth(server.url, HEALTH_RATE);
    const t0 = performance.now();
    const loop0 = eventLoopCpuMs(server.child.pid);
    const all0 = cpuMs(server.child.pid);
    const stats = await sender.go();
    const took = performance.now() - t0;
    const loop1 = eventLoopCpuMs(server.child.pid);
    const all1 = cpuMs(server.child.pid);
    const b = await busy.stop();
    loaded.push(figures(b.latencies, b.failures));
    assertAlive(server, "the hostile-bodies section");
    for (const s of stats.sent) {
      const list = answers.get(s.kind) ?? [];
      list.push(`${s.status}${s.code ? ` ${s.code}` : ""}`);
      answers.set(s.kind, list);
      if (s.status === 0 || s.status >= 500) failed = true;
    }
    if (stats.firstError) console.log(`  round ${i}: first lost body: ${stats.firstError}`);
    // The server's CPU meanwhile: its event loop's (every request's own work on the main thread, the health
    // probes' too) and its other threads' (the tools' workers, the garbage collector's helpers).
    const loop = loop0 === null || loop1 === null ? null : loop1 - loop0;
    const others = loop === null || all0 === null || all1 === null ? null : all1 - all0 - loop;
    console.log(
      `  round ${i}: 12 bodies answered in ${(took / 1000).toFixed(1)} s; server CPU meanwhile: event loop ` +
        `${loop?.toFixed(0) ?? "?"} ms, other threads ${others?.toFixed(0) ?? "?"} ms ` +
        `(event loop with the probes alone: ${ms(quietLoop0, quietLoop1)} ms in ${BASELINE_MS / 1000} s)`,
    );
    await new Promise((r) => setTimeout(r, 1000));
  }
  console.log("");
  const row = (name: string, f: Figures): string[] => [
    name,
    f.p50.toFixed(1),
    f.p99.toFixed(1),
    f.max.toFixed(1),
    String(f.n),
    String(f.failures),
  ];
  const med = (fs: readonly Figures[]): Figures => ({
    p50: median(fs.map((f) => f.p50)),
    p99: median(fs.map((f) => f.p99)),
    max: median(fs.map((f) => f.max)),
    n: fs.reduce((n, f) => n + f.n, 0),
    failures: fs.reduce((n, f) => n + f.failures, 0),
  });
  const a = med(alone);
  const l = med(loaded);
  printColumns(
    ["health", "p50 ms", "p99 ms", "max ms", "probes", "failed"],
    [
      ...alone.map((f, i) => row(`alone ${i + 1}`, f)),
      ...loaded.map((f, i) => row(`+ 12 bodies ${i + 1}`, f)),
      row("alone (median)", a),
      row("+ 12 bodies (median)", l),
    ],
  );
  console.log("");
  for (const [kind, list] of answers) console.log(`  ${kind}: ${list.join(", ")}`);
  if (a.failures + l.failures > 0) failed = true;
  const met = l.p99 < HOSTILE_HEALTH_P99_MS;
  console.log(
    `health under hostile bodies: p50 ${(l.p50 / a.p50).toFixed(1)}×, p99 ${(l.p99 / a.p99).toFixed(1)}×, ` +
      `max ${(l.max / a.max).toFixed(1)}× its figure alone`,
  );
  return {
    failed,
    target: `hostile bodies: health p99 ${l.p99.toFixed(1)} ms < ${HOSTILE_HEALTH_P99_MS} ms (alone ${a.p99.toFixed(1)} ms): ${met ? "met" : "NOT met"}`,
  };
}
