/**
 * The stream holder, run as its own process by server.bench.ts (the streams section):
 *   node --import tsx packages/server/bench/streams.ts <url> <game> <count> <per-address>
 * It opens <count> anonymous live streams on one game from where its stream stands (as the web app does), <per-address> from each loopback address in turn
 * (127.1.0.1, 127.1.0.2, …: Linux routes all of 127.0.0.0/8 to the loopback, so each address is a
 * different client to the server, and the server's per-address caps apply as they would in production).
 * It prints `ready <n>` on stdout once every stream has its headers, then reads them all. When its stdin
 * closes it waits until the streams have been quiet for a moment, closes them and prints one StreamStats
 * as JSON on the last line of stdout.
 */
import { get, type IncomingMessage } from "node:http";
import type { StreamStats } from "./plan.ts";

const [urlArg, game, countArg, perAddressArg] = process.argv.slice(2);
const count = Number(countArg);
const perAddress = Number(perAddressArg);
if (!urlArg || !game || !(count > 0) || !(perAddress > 0)) {
  console.error("usage: streams.ts <url> <game> <count> <per-address>");
  process.exit(2);
}
const url = new URL(urlArg);
// Like the web app: from where the stream stands now (GameDetail.streamAt), not from its start.
const detail = (await (await fetch(`${urlArg}/api/games/${game}`)).json()) as { streamAt: number };
const after = detail.streamAt;

/** One stream: how many items it received, and whether their ids ran 1, 2, 3… without a gap. */
interface Held {
  res: IncomingMessage | null;
  carry: Buffer;
  last: number;
  items: number;
  gaps: number;
  ended: boolean;
}

const MARK = Buffer.from("\nid: ");
const held: Held[] = [];
const refused = new Map<string, number>();
let lastData = Date.now();
let bytes = 0;

/** Count the `id:` lines of a chunk; a line cut by the chunk's end is kept for the next one. */
function read(h: Held, chunk: Buffer): void {
  bytes += chunk.length;
  lastData = Date.now();
  const buf = h.carry.length ? Buffer.concat([h.carry, chunk]) : chunk;
  let from = 0;
  let keep = -1;
  for (;;) {
    const i = buf.indexOf(MARK, from);
    if (i < 0) break;
    const j = buf.indexOf(10, i + MARK.length);
    if (j < 0) {
      keep = i;
      break;
    }
    const id = Number(buf.toString("latin1", i + MARK.length, j));
    if (id !== h.last + 1) h.gaps++;
    h.last = id;
    h.items++;
    from = j;
  }
  if (keep < 0) keep = Math.max(from, buf.length - (MARK.length - 1));
  h.carry = Buffer.from(buf.subarray(keep));
}

const addressOf = (k: number): string => {
  const a = Math.floor(k / perAddress);
  return `127.1.${Math.floor(a / 250)}.${1 + (a % 250)}`;
};

function open(k: number): Promise<void> {
  const h: Held = { res: null, carry: Buffer.alloc(0), last: after, items: 0, gaps: 0, ended: false };
  return new Promise((resolve) => {
    const req = get(
      {
        host: url.hostname,
        port: url.port,
        path: `/api/games/${game}/stream?after=${after}`,
        localAddress: addressOf(k),
        agent: false,
      },
      (res) => {
        if (res.statusCode !== 200) {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString("utf8")));
          res.on("end", () => {
            const key = `${res.statusCode} ${body.slice(0, 200)}`;
            refused.set(key, (refused.get(key) ?? 0) + 1);
            resolve();
          });
          return;
        }
        h.res = res;
        held.push(h);
        res.on("data", (c: Buffer) => read(h, c));
        res.on("close", () => (h.ended = true));
        resolve();
      },
    );
    req.on("error", (error) => {
      const key = `error ${error.message}`;
      refused.set(key, (refused.get(key) ?? 0) + 1);
      resolve();
    });
  });
}

// A few at a time, so the server's accept queue never overflows (a dropped SYN costs a second).
const AT_ONCE = 50;
for (let k = 0; k < count; k += AT_ONCE)
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, count - k) }, (_, i) => open(k + i)));
process.stdout.write(`ready ${held.length}\n`);

process.stdin.resume();
await new Promise<void>((resolve) => process.stdin.on("end", resolve));
// The server may still be sending what the last requests published.
const quietSince = Date.now();
while (Date.now() - lastData < 1000 && Date.now() - quietSince < 30_000)
  await new Promise((r) => setTimeout(r, 100));

const items = held.map((h) => h.items);
const stats: StreamStats = {
  opened: held.length,
  refused: Object.fromEntries(refused),
  endedByServer: held.filter((h) => h.ended).length,
  minItems: items.length ? Math.min(...items) : 0,
  maxItems: items.length ? Math.max(...items) : 0,
  withGaps: held.filter((h) => h.gaps > 0).length,
  megabytes: bytes / 1e6,
};
for (const h of held) h.res?.destroy();
process.stdout.write(`${JSON.stringify(stats)}\n`);
process.exit(0);
