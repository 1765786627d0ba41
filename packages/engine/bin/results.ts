#!/usr/bin/env node
// `npm run --silent results -- GAME.json [ru|en]` (issue 6): replays a REPLAY.md file and prints the
// BBCode forum post of its last finished phase on stdout, exit 0; or one line on stderr, nothing on
// stdout, and a non-zero exit, with the replay command's messages.
import { readFileSync } from "node:fs";
import { LANGS, ReplayError, replayMatch, resultsPost, type Lang } from "../src/index.ts";

const USAGE = "file: usage: npm run --silent results -- GAME.json [ru|en] (REPLAY.md)\n";

const isLang = (s: string): s is Lang => (LANGS as readonly string[]).includes(s);

function main(args: readonly string[]): number {
  if (args.length < 1 || args.length > 2) {
    process.stderr.write(USAGE);
    return 2;
  }
  const lang = args[1] ?? "ru";
  if (!isLang(lang)) {
    process.stderr.write(`file: unknown language "${lang}", expected ${LANGS.join(" or ")} (REPLAY.md)\n`);
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
    const post = resultsPost(replayMatch(json), lang);
    if (post === null) {
      process.stderr.write("file: no finished phase to report (REPLAY.md)\n");
      return 1;
    }
    process.stdout.write(`${post}\n`);
    return 0;
  } catch (e) {
    if (e instanceof ReplayError) {
      process.stderr.write(`${e.message.replace(/\s+/g, " ")}\n`);
      return 1;
    }
    process.stderr.write(
      `file: internal error: ${String(e instanceof Error ? e.message : e).replace(/\s+/g, " ")} (REPLAY.md)\n`,
    );
    return 3;
  }
}

process.exitCode = main(process.argv.slice(2));
