import runEstimate, { type EstimateOutcome, type EstimateTask } from "../src/tools/estimate-worker.ts";

/**
 * A stand-in for estimate-worker.ts (estimate.test.ts): every chunk but the first of a run throws, as a
 * bug in the games would; warming up and the rest work as the real worker does.
 */
export default function failingEstimate(task: EstimateTask): EstimateOutcome {
  if (task.kind === "chunk" && task.from > 0) throw new Error(`a bot game of chunk ${task.from} broke`);
  return runEstimate(task);
}
