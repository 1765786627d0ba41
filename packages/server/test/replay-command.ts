import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** `npm run --silent replay -- FILE` from the repository root (REPLAY.md), run for real: its exit and output. */
export function replayCommand(file: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync("npm", ["run", "--silent", "replay", "--", file], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false" },
  });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
