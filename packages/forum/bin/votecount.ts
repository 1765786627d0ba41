/**
 * The vote counter for games on other forums (issue 6):
 * `npm run --silent votecount -- --players PLAYERS.txt [--gm NAME] [--day N] [--silenced NAME]... THREAD.json`
 * prints `{"votes", "notVoted", "ignored", "count"}` as JSON. Bad input: one line on stderr, exit 1.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { compareNames, TEXTS } from "@forum-mafia/engine";
import { countVotes, parseRoster, voteCountJson, voteCountPost, type ThreadPost } from "@forum-mafia/forum";

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
  const players = parseRoster(readText(values.players));
  if (players.length === 0) throw new Error(`the player list ${values.players} is empty`);
  const posts = parseThread(readText(positionals[0]!), positionals[0]!);
  const count = countVotes(posts, {
    players,
    gm: values.gm ?? null,
    day,
    silenced: values.silenced ?? [],
  });
  const post = voteCountPost(count, day, {
    voteCountTitle: TEXTS.voteCountTitle.ru,
    against: TEXTS.against.ru,
    inDefence: TEXTS.inDefence.ru,
    votesFor: TEXTS.votesFor.ru,
    lostVote: TEXTS.lostVote.ru,
    notVoted: TEXTS.notVoted.ru,
    compareNames,
  });
  return JSON.stringify(voteCountJson(count, post), null, 2);
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "error";
    throw new Error(`cannot read ${path} (${code})`);
  }
}

function parseThread(text: string, path: string): ThreadPost[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON`);
  }
  if (!Array.isArray(data)) throw new Error(`${path} must hold an array of posts`);
  return data.map((item: unknown, index): ThreadPost => {
    if (typeof item !== "object" || item === null)
      throw new Error(`post ${index} in ${path} is not an object`);
    const { author, time, body } = item as Record<string, unknown>;
    if (typeof author !== "string" || typeof body !== "string")
      throw new Error(`post ${index} in ${path} needs a string "author" and "body"`);
    return { author, time: typeof time === "string" ? time : "", body };
  });
}

try {
  process.stdout.write(main(process.argv.slice(2)) + "\n");
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`votecount: ${message.split("\n")[0]!}\n`);
  process.exitCode = 1;
}
