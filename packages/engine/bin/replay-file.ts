import { readFileSync } from "node:fs";
import { ReplayError } from "../src/index.ts";

/**
 * Read a REPLAY.md file for a command: its JSON, or the exit code after one line on stderr (2 when the
 * file cannot be read, 1 when it is not JSON). The replay and results commands say the same thing.
 */
export function readReplayFile(path: string): { readonly json: unknown } | { readonly exit: number } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    process.stderr.write(
      `file: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)} (REPLAY.md)\n`,
    );
    return { exit: 2 };
  }
  try {
    return { json: JSON.parse(text.replace(/^\uFEFF/, "")) as unknown };
  } catch (e) {
    process.stderr.write(`file: malformed JSON: ${(e as Error).message.replace(/\s+/g, " ")} (REPLAY.md)\n`);
    return { exit: 1 };
  }
}

/**
 * A failure while replaying, as one stderr line and the exit code: 1 for the file's fault (the
 * ReplayError's own message), 3 for a broken invariant, which is the engine's fault, still in one line.
 */
export function replayFailure(e: unknown): number {
  if (e instanceof ReplayError) {
    process.stderr.write(`${e.message.replace(/\s+/g, " ")}\n`);
    return 1;
  }
  process.stderr.write(
    `file: internal error: ${String(e instanceof Error ? e.message : e).replace(/\s+/g, " ")} (REPLAY.md)\n`,
  );
  return 3;
}
