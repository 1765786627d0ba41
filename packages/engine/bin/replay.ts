#!/usr/bin/env node
// `npm run --silent replay -- FILE.json` (REPLAY.md): the outcome JSON on stdout and exit 0, or one
// line on stderr, nothing on stdout, and a non-zero exit.
import { runReplay, stringifyResult } from "../src/index.ts";
import { readReplayFile, replayFailure } from "./replay-file.ts";

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
    return replayFailure(e);
  }
}

process.exitCode = main(process.argv.slice(2));
