#!/usr/bin/env node
// `npm run --silent replay -- FILE.json` (REPLAY.md): the outcome JSON on stdout and exit 0, or one
// line on stderr, nothing on stdout, and a non-zero exit.
import { readFileSync } from "node:fs";
import { ReplayError, runReplay, stringifyResult } from "../src/index.ts";

function main(args: readonly string[]): number {
  if (args.length !== 1) {
    process.stderr.write("file: usage: npm run --silent replay -- FILE.json (REPLAY.md)\n");
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(args[0]!, "utf8");
  } catch (e) {
    process.stderr.write(
      `file: cannot read ${args[0]}: ${(e as NodeJS.ErrnoException).code ?? String(e)} (REPLAY.md)\n`,
    );
    return 2;
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    process.stderr.write(`file: malformed JSON: ${(e as Error).message.replace(/\s+/g, " ")} (REPLAY.md)\n`);
    return 1;
  }
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
