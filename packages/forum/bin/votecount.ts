/**
 * The vote counter for games on other forums (issue 6):
 * `npm run --silent votecount -- --players PLAYERS.txt [--gm NAME] [--day N] [--silenced NAME]... THREAD.json`
 * prints `{"votes", "notVoted", "ignored", "count"}` as JSON. Bad input: one line on stderr, exit 1.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { voteCountWords } from "@forum-mafia/engine";
import { runVoteCount } from "@forum-mafia/forum";

const USAGE = "usage: votecount --players PLAYERS.txt [--gm NAME] [--day N] [--silenced NAME]... THREAD.json";

function main(argv: readonly string[]): string {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      players: { type: "string" },
      gm: { type: "string" },
      day: { type: "string" },
      silenced: { type: "string", multiple: true },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.players === undefined) throw new Error(`--players is required; ${USAGE}`);
  if (positionals.length !== 1) throw new Error(`give exactly one THREAD.json; ${USAGE}`);
  const day = values.day === undefined ? null : Number(values.day);
  if (day !== null && !(Number.isSafeInteger(day) && day >= 1 && /^\d+$/u.test(values.day ?? "")))
    throw new Error(`--day must be a whole number from 1, not "${values.day}"`);
  return JSON.stringify(
    runVoteCount(
      {
        roster: readText(values.players),
        rosterName: values.players,
        gm: values.gm ?? null,
        day,
        silenced: values.silenced ?? [],
        thread: parseJson(readText(positionals[0]!), positionals[0]!),
        threadName: positionals[0]!,
      },
      voteCountWords("ru"),
    ),
    null,
    2,
  );
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "error";
    throw new Error(`cannot read ${path} (${code})`);
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON`);
  }
}

try {
  process.stdout.write(main(process.argv.slice(2)) + "\n");
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`votecount: ${message.split("\n")[0]!}\n`);
  process.exitCode = 1;
}
