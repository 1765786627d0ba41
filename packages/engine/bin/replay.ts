#!/usr/bin/env node
// `npm run --silent replay -- FILE.json` (REPLAY.md): the outcome JSON on stdout and exit 0, or one
// line on stderr, nothing on stdout, and a non-zero exit.
import { ReplayError, runReplay, stringifyResult } from "../src/index.ts";
import { readReplayFile } from "./replay-file.ts";

function main(args: readonly string[]): number {
  if (args.length !== 1) {
    process.stderr.write("file: usage: npm run --silent replay -- FILE.json (REPLAY.md)\n");
    return 2;
  }
  const file = readReplayFile(args[0]!);
  if ("exit" in file) return file.exit;
  const json = file.json;
  try {
    process.stdout.write(`${stringifyResult(runReplay(json))}\n`);
    return 0;
  } catch (e) {
    if (e instanceof ReplayError) {
      process.stderr.write(`${e.message.replace(/\s+/g, " ")}\n`);
      return 1;
    }
    // A broken invariant is the engine's fault, not the file's; it still gets one line, not a stack.
    process.stderr.write(
      `file: internal error: ${String(e instanceof Error ? e.message : e).replace(/\s+/g, " ")} (REPLAY.md)\n`,
    );
    return 3;
  }
}

process.exitCode = main(process.argv.slice(2));
