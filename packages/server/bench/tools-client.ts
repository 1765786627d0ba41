/**
 * The tool client of the benchmark's tools section (issue 11, finding 2), run as its own process by
 * server.bench.ts:
 *   node --import tsx packages/server/bench/tools-client.ts <url>
 * One client sending big vote counts back to back: POST /api/tools/votecount with a thread of about 5 MB
 * (the forum fixture's posts over and over, as in the finding), each sent as soon as the previous one is
 * answered. It prints "started" once the first is sent, and when its stdin closes it lets the request under
 * way finish, then prints one ToolClientStats as JSON on stdout.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface ToolClientStats {
  readonly requests: number;
  /** Answers by status, e.g. { "200": 7 } ("413" when a count ran over the server's time budget). */
  readonly statusCodes: Readonly<Record<string, number>>;
  /** Requests that got no answer (a connection error), with the first error's text. */
  readonly errors: number;
  readonly firstError: string | null;
  /** Milliseconds from a request's start to its whole answer. */
  readonly p50Ms: number;
  readonly maxMs: number;
  /** The size of each request's body. */
  readonly bodyBytes: number;
}

const FIXTURES = fileURLToPath(new URL("../../forum/test/fixtures/", import.meta.url));
/** The fixture's posts 32,000 times over: about 4.8 MB, under the tools' limit of 5 MiB. */
const POSTS = 32_000;

const url = process.argv[2];
if (!url) {
  console.error("usage: tools-client.ts <url>");
  process.exit(2);
}
const posts = JSON.parse(readFileSync(`${FIXTURES}votecount-thread.json`, "utf8")) as unknown[];
const body = JSON.stringify({
  players: readFileSync(`${FIXTURES}votecount-players.txt`, "utf8"),
  thread: Array.from({ length: POSTS }, (_, i) => posts[i % posts.length]),
});

let stopping = false;
process.stdin.on("end", () => (stopping = true));
process.stdin.resume();

const statusCodes: Record<string, number> = {};
const times: number[] = [];
let errors = 0;
let firstError: string | null = null;
let first = true;
while (!stopping) {
  const start = performance.now();
  const answer = fetch(`${url}/api/tools/votecount`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  if (first) {
    process.stdout.write("started\n");
    first = false;
  }
  try {
    const res = await answer;
    await res.arrayBuffer();
    statusCodes[res.status] = (statusCodes[res.status] ?? 0) + 1;
  } catch (error) {
    errors++;
    firstError ??= String(error);
  }
  times.push(performance.now() - start);
}

const sorted = [...times].sort((a, b) => a - b);
const stats: ToolClientStats = {
  requests: times.length,
  statusCodes,
  errors,
  firstError,
  p50Ms: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0,
  maxMs: sorted.at(-1) ?? 0,
  bodyBytes: Buffer.byteLength(body),
};
process.stdout.write(`${JSON.stringify(stats)}\n`);
process.exit(0);
