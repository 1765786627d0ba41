import { readFileSync } from "node:fs";

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
