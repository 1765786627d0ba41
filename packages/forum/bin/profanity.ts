/**
 * The G5 checker (issue 31) on a file: `npm run --silent profanity -- FILE`, where FILE is UTF-8 text
 * with one message a line; prints one JSON object a line, `{"flag": "obscene" | "insult" | null,
 * "spans": [{"start", "end", "word"}]}`, the offsets in UTF-16 units of that line. A file that cannot be
 * read, a folder, or one that is not UTF-8 text (NUL bytes, invalid UTF-8): one line on stderr, exit 1;
 * bad usage: one line on stderr, exit 2.
 */
import { readFileSync } from "node:fs";
import { checkMessage } from "@forum-mafia/forum";

const USAGE = "usage: profanity FILE (UTF-8 text, one message a line)";

class UsageError extends Error {}

function main(argv: readonly string[]): string {
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) return USAGE;
  if (argv.length !== 1 || argv[0]!.startsWith("-")) throw new UsageError(`give exactly one FILE; ${USAGE}`);
  const lines = readText(argv[0]!).split(/\r?\n/u);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => JSON.stringify(checkMessage(line))).join("\n");
}

/** The file's text; a file that cannot be read, a folder or a binary file is an Error naming it. */
function readText(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "error";
    throw new Error(`cannot read ${path} (${code})`);
  }
  if (bytes.includes(0)) throw new Error(`${path} is not text (it has NUL bytes)`);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new Error(`${path} is not UTF-8 text`);
  }
}

try {
  const out = main(process.argv.slice(2));
  if (out !== "") process.stdout.write(out + "\n");
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`profanity: ${message.split("\n")[0]!}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
