#!/usr/bin/env node
// `npm run --silent results -- GAME.json [ru|en]` (issue 6): replays a REPLAY.md file and prints the
// BBCode forum post of its last finished phase on stdout, exit 0; or one line on stderr, nothing on
// stdout, and a non-zero exit, with the replay command's messages.
import { LANGS, replayMatch, resultsPost, type Lang } from "../src/index.ts";
import { readReplayFile, replayFailure } from "./replay-file.ts";

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
  const file = readReplayFile(args[0]!);
  if ("exit" in file) return file.exit;
  const json = file.json;
  try {
    const post = resultsPost(replayMatch(json), lang);
    if (post === null) {
      process.stderr.write("file: no finished phase to report (REPLAY.md)\n");
      return 1;
    }
    process.stdout.write(`${post}\n`);
    return 0;
  } catch (e) {
    return replayFailure(e);
  }
}

process.exitCode = main(process.argv.slice(2));
