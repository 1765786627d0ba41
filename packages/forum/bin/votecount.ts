/**
 * The vote counter for games on other forums (issues 6 and 18):
 * `npm run --silent votecount -- --players PLAYERS.txt [--gm NAME] [--day N] [--silenced NAME]... THREAD`
 * where THREAD is a saved page or copied HTML, the BBCode of quoted posts, or THREAD.json; prints
 * `{"votes", "notVoted", "ignored", "count"}` as JSON; `--help` prints the usage. Bad input: one line on
 * stderr, exit 1. Issue 30: every file is read from its bytes by decodePage (a BOM, else the page's meta,
 * else a detector), so a page saved from a windows-1251 or KOI8-R forum reads as its UTF-8 twin would.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { decodePage, runVoteCount, threadFromFile } from "@forum-mafia/forum";

const USAGE = "usage: votecount --players PLAYERS.txt [--gm NAME] [--day N] [--silenced NAME]... THREAD";

const HELP = [
  USAGE,
  "",
  "Counts the red and blue votes of one day in THREAD, a thread of another forum (phpBB, Invision,",
  "XenForo, vBulletin, SMF, Discourse or another), and prints JSON. THREAD is one of:",
  "  - the thread's page saved as HTML, or the HTML copied from it (with the colours);",
  '  - the posts quoted in BBCode, as the forum\'s multi-quote writes them ([quote="Ник" …]…[/quote]);',
  '  - THREAD.json: an array of {"author", "time", "body"}, the body in BBCode or HTML.',
  "Files may be in UTF-8 (with or without a BOM), windows-1251, KOI8-R or cp1252: a page's meta charset",
  "names its encoding; without one, it is detected.",
  "The JSON printed:",
  '  "votes"     each player\'s counted vote (their last), with the post it is in',
  '  "notVoted"  the players with the right to vote who have not voted',
  '  "ignored"   what looked like a vote and does not count, and why',
  '  "count"     the BBCode vote-count post, laid out as the server\'s',
  "",
  "  --players PLAYERS.txt  one player a line: Ник, or Ник | alias | alias",
  "  --gm NAME              the GM, whose coloured names are not votes",
  "  --day N                the day counted: the post's title, and досрочно from day 3 (V7)",
  "  --silenced NAME        a player who cannot vote today (V6); repeat for each",
].join("\n");

function main(argv: readonly string[]): string {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      players: { type: "string" },
      gm: { type: "string" },
      day: { type: "string" },
      silenced: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help === true) return HELP;
  if (values.players === undefined) throw new Error(`--players is required; ${USAGE}`);
  if (positionals.length !== 1) throw new Error(`give exactly one THREAD; ${USAGE}`);
  const day = values.day === undefined ? null : Number(values.day);
  if (day !== null && !(Number.isSafeInteger(day) && day >= 1 && /^\d+$/u.test(values.day ?? "")))
    throw new Error(`--day must be a whole number from 1, not "${values.day}"`);
  return JSON.stringify(
    runVoteCount({
      roster: readText(values.players),
      rosterName: values.players,
      gm: values.gm ?? null,
      day,
      silenced: values.silenced ?? [],
      thread: threadFromFile(readText(positionals[0]!), positionals[0]!).posts,
      threadName: positionals[0]!,
    }),
    null,
    2,
  );
}

/** A file's text, decoded from its bytes (issue 30); a file that cannot be read is an Error naming it. */
function readText(path: string): string {
  try {
    return decodePage(readFileSync(path)).text;
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "error";
    throw new Error(`cannot read ${path} (${code})`);
  }
}

try {
  process.stdout.write(main(process.argv.slice(2)) + "\n");
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`votecount: ${message.split("\n")[0]!}\n`);
  process.exitCode = 1;
}
