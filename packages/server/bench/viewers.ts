/**
 * The viewer holder of the fan-out, storm and capacity sections, run as its own process by scale.ts:
 *   node --import tsx packages/server/bench/viewers.ts <spec.json>
 * It opens the live streams the spec asks for (plan.ts, ViewerSpec), each from where the viewer's stream
 * stands (GameDetail.streamAt, as the web app does), <perAddress> from each loopback address in turn
 * (127.<subnet>.0.1, 127.<subnet>.0.2, …: Linux routes all of 127.0.0.0/8 to the loopback, so each address
 * is a different client to the server and the server's per-address caps apply as in production). It
 * prints `ready <n>` once every stream has its headers, then reads them all, parsing each event (id, event,
 * data) and checking that the ids run 1, 2, 3… without a gap. With several instances (ViewerSpec.urls,
 * issue 20) the k-th viewer watches through the (k mod n)-th instance.
 *
 * - fanout: when every open stream has received its k-th item of type "vote" (k from 1), prints
 *   `vote <k> <ms>`, the time the last of them arrived (the machine's monotonic clock, which the driver
 *   notes each vote's answer with); over several instances, before it `at <k> <i> <ms>` when every stream
 *   of the i-th instance has it.
 * - storm: each stream's vote item makes its viewer fetch GET /api/games/:id (over its own keep-alive
 *   connection, from its address); when every viewer's fetch for the k-th vote has completed, prints
 *   `done <k> <ms>`, the time the last one completed.
 * - count: streams counted only.
 * When its stdin closes it waits until the streams have been quiet for a moment, closes them and prints
 * one ViewerStats as JSON on the last line of stdout.
 *
 * An item's type is read from its data's text (the first `"type":"…"`), which costs far less than parsing
 * every item while a thousand arrive at once; each stream's first items are also parsed whole and the two
 * compared (ViewerStats.typeMismatches).
 */
import { readFileSync } from "node:fs";
import { Agent, get, type IncomingMessage } from "node:http";
import { StringDecoder } from "node:string_decoder";
import type { ViewerSpec, ViewerStats } from "./plan.ts";

const [specFile] = process.argv.slice(2);
if (!specFile) {
  console.error("usage: viewers.ts <spec.json>");
  process.exit(2);
}
const spec = JSON.parse(readFileSync(specFile, "utf8")) as ViewerSpec;
/** The instances (issue 20): viewer k watches through the (k mod n)-th. */
const bases = (spec.urls && spec.urls.length > 0 ? spec.urls : [spec.url]).map((u) => new URL(u));
/**
 * The machine's monotonic clock (CLOCK_MONOTONIC, one for every process), in ms. Not timeOrigin + now():
 * each process fixes its timeOrigin from the wall clock when it starts, and the wall clock is slewed while
 * the bench runs, so two processes started minutes apart disagree by up to a second.
 */
const now = (): number => Number(process.hrtime.bigint()) / 1e6;

/** One viewer's stream and what it has received. */
interface Viewer {
  /** The instance it watches through, and its index in the spec's urls. */
  readonly base: URL;
  readonly baseIndex: number;
  readonly game: string;
  readonly cookie: string | null;
  readonly address: string;
  /** Where the stream was opened from (GameDetail.streamAt). */
  readonly after: number;
  res: IncomingMessage | null;
  readonly decoder: StringDecoder;
  /** The text after the last complete line. */
  partial: string;
  /** The event being read. */
  id: string | null;
  event: string | null;
  data: string;
  last: number;
  items: number;
  votes: number;
  gaps: number;
  resets: number;
  verified: number;
  ended: boolean;
}

const viewers: Viewer[] = [];
const refused = new Map<string, number>();
const types = new Map<string, number>();
const refetchFailures = new Map<string, number>();
let bytes = 0;
let lastData = Date.now();
let typeMismatches = 0;
let refetches = 0;
let staleRefetches = 0;

const addressOf = (k: number): string => {
  const a = Math.floor(k / spec.perAddress);
  return `127.${spec.subnet}.${Math.floor(a / 250)}.${1 + (a % 250)}`;
};
const bump = (m: Map<string, number>, key: string): void => {
  m.set(key, (m.get(key) ?? 0) + 1);
};

/** The k-th vote's arrivals (fanout) or completed fetches (storm): how many, and the latest. */
const arrivals: { n: number; last: number }[] = [];
const fetched: { n: number; last: number }[] = [];
/** fanout over several instances: the k-th vote's arrivals among each instance's viewers. */
const arrivalsAt: { n: number; last: number }[][] = bases.map(() => []);
/** How many open streams each instance serves (set once they are all open). */
let viewersAt: number[] = [];
function note(list: { n: number; last: number }[], k: number, at: number, word: string): void {
  const a = (list[k] ??= { n: 0, last: 0 });
  a.n++;
  if (at > a.last) a.last = at;
  if (a.n === viewers.length) process.stdout.write(`${word} ${k + 1} ${a.last}\n`);
}

// One keep-alive connection per viewer (the agent keys its pool by local address).
const agent = new Agent({ keepAlive: true });

function refetch(v: Viewer, k: number, itemId: number): void {
  refetches++;
  const req = get(
    {
      host: v.base.hostname,
      port: v.base.port,
      path: `/api/games/${v.game}`,
      localAddress: v.address,
      agent,
      headers: v.cookie ? { cookie: v.cookie } : {},
    },
    (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const at = now();
        if (res.statusCode !== 200) bump(refetchFailures, `status ${res.statusCode}`);
        else {
          const body = Buffer.concat(chunks).toString("utf8");
          const i = body.lastIndexOf('"streamAt":');
          const streamAt = i < 0 ? NaN : parseInt(body.slice(i + 11, i + 31), 10);
          if (!(streamAt >= itemId)) staleRefetches++;
        }
        note(fetched, k, at, "done");
      });
    },
  );
  req.on("error", (error) => {
    bump(refetchFailures, `error ${error.message}`);
    note(fetched, k, now(), "done");
  });
}

/** The item's type from its data's text: the first `"type":"…"`. */
function typeOf(data: string): string {
  const i = data.indexOf('"type":"');
  if (i < 0) return "?";
  const j = data.indexOf('"', i + 8);
  return data.slice(i + 8, j);
}

function dispatch(v: Viewer, at: number): void {
  const { id, event, data } = v;
  v.id = null;
  v.event = null;
  v.data = "";
  if (event === "reset") {
    v.resets++;
    return;
  }
  if (id === null) return;
  const n = Number(id);
  if (n !== v.last + 1) v.gaps++;
  v.last = n;
  v.items++;
  const type = typeOf(data);
  bump(types, type);
  if (v.verified < 2) {
    v.verified++;
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(data);
    } catch {
      // counted as a mismatch below
    }
    const real =
      typeof parsed === "object" && parsed !== null && "type" in parsed ? String(parsed.type) : "(no type)";
    if (real !== type) typeMismatches++;
  }
  if (type !== "vote") return;
  const k = v.votes++;
  if (spec.mode === "fanout") {
    // Each instance's own mark first: the overall one is printed at the last of them.
    if (bases.length > 1) {
      const a = (arrivalsAt[v.baseIndex]![k] ??= { n: 0, last: 0 });
      a.n++;
      if (at > a.last) a.last = at;
      if (a.n === viewersAt[v.baseIndex]) process.stdout.write(`at ${k + 1} ${v.baseIndex} ${a.last}\n`);
    }
    note(arrivals, k, at, "vote");
  } else if (spec.mode === "storm") refetch(v, k, n);
}

function read(v: Viewer, chunk: Buffer): void {
  const at = now();
  bytes += chunk.length;
  lastData = Date.now();
  const text = v.partial + v.decoder.write(chunk);
  let from = 0;
  for (let i = text.indexOf("\n", from); i >= 0; i = text.indexOf("\n", from)) {
    const line = text.slice(from, i);
    from = i + 1;
    if (line === "") dispatch(v, at);
    else if (line.startsWith("data:")) v.data += (v.data ? "\n" : "") + line.slice(line[5] === " " ? 6 : 5);
    else if (line.startsWith("id:")) v.id = line.slice(3).trim();
    else if (line.startsWith("event:")) v.event = line.slice(6).trim();
    // `: keep-alive` and other comments: nothing to do
  }
  v.partial = text.slice(from);
}

function open(v: Viewer): Promise<void> {
  return new Promise((resolve) => {
    const req = get(
      {
        host: v.base.hostname,
        port: v.base.port,
        path: `/api/games/${v.game}/stream?after=${v.after}`,
        localAddress: v.address,
        agent: false,
        headers: v.cookie ? { cookie: v.cookie } : {},
      },
      (res) => {
        if (res.statusCode !== 200) {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString("utf8")));
          res.on("end", () => {
            bump(refused, `${res.statusCode} ${body.slice(0, 200)}`);
            resolve();
          });
          return;
        }
        v.res = res;
        viewers.push(v);
        res.on("data", (c: Buffer) => read(v, c));
        res.on("close", () => (v.ended = true));
        resolve();
      },
    );
    req.on("error", (error) => {
      bump(refused, `error ${error.message}`);
      resolve();
    });
  });
}

/** Where a viewer's stream stands now: its detail's streamAt (as the web app opens it). */
async function streamAt(base: URL, game: string, cookie: string | null): Promise<number> {
  const res = await fetch(`${base.origin}/api/games/${game}`, { headers: cookie ? { cookie } : {} });
  if (!res.ok) throw new Error(`GET /api/games/${game}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { streamAt: number }).streamAt;
}

const baseOf = (k: number): URL => bases[k % bases.length]!;

const newViewer = (k: number, game: string, cookie: string | null, after: number): Viewer => ({
  base: baseOf(k),
  baseIndex: k % bases.length,
  game,
  cookie,
  address: addressOf(k),
  after,
  res: null,
  decoder: new StringDecoder("utf8"),
  partial: "",
  id: null,
  event: null,
  data: "",
  last: after,
  items: 0,
  votes: 0,
  gaps: 0,
  resets: 0,
  verified: 0,
  ended: false,
});

const wanted: Viewer[] = [];
if (spec.mode === "count") {
  const players = spec.players ?? [];
  // Each player's own position, a few fetches at a time.
  const afters: number[] = new Array<number>(players.length).fill(0);
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let k = next++; k < players.length; k = next++)
        afters[k] = await streamAt(baseOf(k), players[k]!.game, players[k]!.cookie);
    }),
  );
  players.forEach((p, k) => wanted.push(newViewer(k, p.game, p.cookie, afters[k]!)));
} else {
  const game = spec.game;
  const count = spec.count ?? 0;
  if (!game || !(count > 0)) throw new Error("viewers.ts: fanout and storm need a game and a count");
  // Each instance's own answer: they must agree once the instances share the game (issue 20).
  const afters = await Promise.all(bases.map((b) => streamAt(b, game, null)));
  for (let k = 0; k < count; k++) wanted.push(newViewer(k, game, null, afters[k % bases.length]!));
}

// A few at a time, so the server's accept queue never overflows (a dropped SYN costs a second).
const AT_ONCE = 50;
for (let k = 0; k < wanted.length; k += AT_ONCE) await Promise.all(wanted.slice(k, k + AT_ONCE).map(open));
viewersAt = bases.map((_, i) => viewers.filter((v) => v.baseIndex === i).length);
process.stdout.write(`ready ${viewers.length}\n`);

process.stdin.resume();
await new Promise<void>((resolve) => process.stdin.on("end", resolve));
// The server may still be sending what the last requests published.
const quietSince = Date.now();
while (Date.now() - lastData < 1000 && Date.now() - quietSince < 30_000)
  await new Promise((r) => setTimeout(r, 100));

const items = viewers.map((v) => v.items);
const votes = viewers.map((v) => v.votes);
const min = (xs: number[]): number => xs.reduce((a, b) => Math.min(a, b), xs.length ? Infinity : 0);
const max = (xs: number[]): number => xs.reduce((a, b) => Math.max(a, b), 0);
const stats: ViewerStats = {
  opened: viewers.length,
  refused: Object.fromEntries(refused),
  endedByServer: viewers.filter((v) => v.ended).length,
  withGaps: viewers.filter((v) => v.gaps > 0).length,
  resets: viewers.reduce((n, v) => n + v.resets, 0),
  minItems: min(items),
  maxItems: max(items),
  minVotes: min(votes),
  maxVotes: max(votes),
  typeMismatches,
  types: Object.fromEntries(types),
  megabytes: bytes / 1e6,
  refetches,
  refetchFailures: Object.fromEntries(refetchFailures),
  staleRefetches,
};
for (const v of viewers) v.res?.destroy();
agent.destroy();
process.stdout.write(`${JSON.stringify(stats)}\n`);
process.exit(0);
