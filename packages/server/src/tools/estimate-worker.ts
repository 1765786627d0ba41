import { estimateChunk, mergeChunks, type EstimateSetup, type Tally } from "@forum-mafia/engine/bots";
import { readFileSync } from "node:fs";
import { getPriority } from "node:os";

/**
 * The balance estimate's work (issue 17), in a worker thread of estimate.ts's pool: one chunk of an
 * estimate's bot games, by index. A chunk plays its games a few at a time (STEP) and looks at its
 * estimate's stop flag (shared memory, set by the server when nobody waits for the estimate any more)
 * before each few, so a stale estimate stops within a few games (milliseconds), and the thread stays:
 * piscina's own abort would end the thread, and a new one pays for loading the engine through tsx and
 * warming it up again. The tallies of the steps merge exactly, as any split of the games does. A chunk
 * tells how much CPU it took (the server shares the threads by it), and the thread can tell its OS priority
 * (piscina lowers it as the thread starts: `niceIncrement`; on Linux a nice value is the thread's own).
 */
export type EstimateTask =
  | {
      readonly kind: "chunk";
      readonly setup: EstimateSetup;
      readonly from: number;
      readonly count: number;
      /** One Int32 in shared memory: 0 while the estimate is wanted, 1 once it is stale. */
      readonly stop: Int32Array;
    }
  /** Play a few games, so a thread's first estimate does not pay for compiling the engine. */
  | { readonly kind: "warm"; readonly setup: EstimateSetup; readonly games: number }
  /** The thread's nice value (tests: the pool's threads run below the event loop). */
  | { readonly kind: "priority" };

export type EstimateOutcome =
  /** `ms`: the chunk's CPU time in this thread (its wall time where that cannot be read). */
  | { readonly kind: "done"; readonly tally: Tally; readonly ms: number }
  | { readonly kind: "stopped"; readonly played: number }
  | { readonly kind: "warm" }
  | { readonly kind: "priority"; readonly nice: number };

/** Ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

/**
 * This thread's CPU time so far, in ms (/proc/thread-self/stat: utime + stime, in 10 ms ticks), or null
 * where there is no /proc. Node 20 has no per-thread CPU clock (process.threadCpuUsage is Node 23).
 */
function threadCpuMs(): number | null {
  try {
    const stat = readFileSync("/proc/thread-self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** Games between two looks at the stop flag: a stale estimate stops within a few milliseconds. */
const STEP = 5;

/** The pool's entry point. The tally is the same as `estimateChunk(setup, from, count)`: games merge exactly. */
export default function runEstimate(task: EstimateTask): EstimateOutcome {
  switch (task.kind) {
    case "warm":
      estimateChunk(task.setup, 0, task.games);
      return { kind: "warm" };
    case "priority":
      // getpriority(PRIO_PROCESS, 0): on Linux, the calling thread's own nice value.
      return { kind: "priority", nice: getPriority() };
    case "chunk": {
      const started = performance.now();
      const cpu = threadCpuMs();
      const tallies: Tally[] = [];
      let played = 0;
      for (let i = task.from; i < task.from + task.count; i += STEP) {
        if (Atomics.load(task.stop, 0) !== 0) return { kind: "stopped", played };
        const n = Math.min(STEP, task.from + task.count - i);
        tallies.push(estimateChunk(task.setup, i, n));
        played += n;
      }
      // The thread's CPU time where it can be read: the wall time also counts what other work took.
      const cpuEnd = cpu === null ? null : threadCpuMs();
      const ms = cpu !== null && cpuEnd !== null ? cpuEnd - cpu : performance.now() - started;
      return { kind: "done", tally: mergeChunks(tallies), ms };
    }
    default: {
      const never: never = task;
      throw new Error(`unknown estimate task ${JSON.stringify(never)}`);
    }
  }
}
