/**
 * The body sender of the benchmark's hostile-bodies section (issue 28, item 3), run as its own process by
 * hostile.ts:
 *   node --import tsx packages/server/bench/hostile-client.ts <url> <addresses>
 * Twelve bodies of about 5 MB, accepted and refused kinds, from `addresses` loopback addresses (127.2.0.1,
 * 127.2.0.2, …: Linux routes all of 127.0.0.0/8 to the loopback), all addresses at once, each sending its
 * share one after another (the server takes one tool request at a time per address). It prints "ready"
 * once the bodies are built, waits for a line on stdin, sends them, and prints one HostileStats as JSON.
 */
import { request } from "node:http";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface HostileStats {
  /** Per body: its kind, its route, its status (0: no answer) and the ms from its start to its answer. */
  readonly sent: readonly { kind: string; status: number; ms: number; code: string | null }[];
  readonly firstError: string | null;
}

const FIXTURES = fileURLToPath(new URL("../../forum/test/fixtures/", import.meta.url));
/** Under the tools' body limit of 5 MiB (5,242,880 bytes). */
const SIZE = 4_900_000;

interface Body {
  readonly kind: string;
  readonly url: string;
  readonly body: Buffer;
}

const players = readFileSync(`${FIXTURES}votecount-players.txt`, "utf8");
const posts = JSON.parse(readFileSync(`${FIXTURES}votecount-thread.json`, "utf8")) as unknown[];
const page = readFileSync(`${FIXTURES}pages/phpbb.html`, "utf8");
const expected = JSON.parse(readFileSync(`${FIXTURES}pages/phpbb.expected.json`, "utf8")) as {
  players: string;
};

/** A forum page with its posts over and over, to about `size` bytes of JSON. */
function bigPage(size: number): string {
  const first = page.indexOf('<div id="p4501"');
  const end = page.indexOf('<div class="action-bar bar-bottom">');
  const middle = page.slice(first, end);
  const times = Math.floor((size - page.length) / (Buffer.byteLength(JSON.stringify(middle)) + 1));
  return page.slice(0, first) + middle.repeat(times) + page.slice(end);
}

/** A thread of the fixture's posts over and over, to about `size` bytes of JSON. */
function bigThread(size: number): unknown[] {
  const per = Buffer.byteLength(JSON.stringify(posts)) / posts.length;
  return Array.from({ length: Math.floor(size / per) }, (_, i) => posts[i % posts.length]);
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const filler = (n: number): string => "а".repeat(Math.floor(n / 2)); // Cyrillic: 2 bytes each in UTF-8

/** The twelve kinds: two accepted (read, counted), ten refused, each near 5 MB. */
function bodies(): Body[] {
  const html = bigPage(SIZE);
  const valid = json({ players, thread: bigThread(SIZE) });
  return [
    {
      kind: "paste read (accepted)",
      url: "/api/tools/thread",
      body: json({ players: expected.players, paste: { html } }),
    },
    { kind: "thread counted (accepted)", url: "/api/tools/votecount", body: valid },
    // The JSON breaks at its very end: the whole body is read before the refusal.
    {
      kind: "invalid JSON at the end",
      url: "/api/tools/votecount",
      body: valid.subarray(0, valid.length - 1),
    },
    {
      kind: "U+0000 at the end of 5 MB",
      url: "/api/tools/thread",
      body: json({ paste: { text: filler(SIZE) + "\u0000" } }),
    },
    {
      kind: "lone surrogates",
      url: "/api/tools/thread",
      body: Buffer.from(`{"paste":{"text":"${"\\ud800".repeat(SIZE / 6)}"}}`),
    },
    {
      kind: "5 MB in a field of the wrong type",
      url: "/api/tools/votecount",
      body: json({ players, thread: { posts: filler(SIZE) } }),
    },
    {
      kind: "5 MB in an unknown field",
      url: "/api/tools/thread",
      body: json({ paste: { text: "x" }, extra: filler(SIZE) }),
    },
    {
      kind: "players over its limit",
      url: "/api/tools/votecount",
      body: json({ players: filler(SIZE), thread: [] }),
    },
    {
      kind: "deep nesting",
      url: "/api/tools/votecount",
      body: Buffer.from(`{"players":"x","thread":${"[".repeat(SIZE / 2)}${"]".repeat(SIZE / 2)}}`),
    },
    {
      kind: "huge array of numbers",
      url: "/api/tools/votecount",
      body: Buffer.from(`{"players":"x","thread":[${"0,".repeat(SIZE / 2 - 1)}0]}`),
    },
    {
      kind: "a million silenced",
      url: "/api/tools/votecount",
      body: Buffer.from(`{"players":"x","thread":[],"silenced":[${'"a",'.repeat(SIZE / 4 - 1)}"a"]}`),
    },
    {
      kind: "results: 5 MB replay",
      url: "/api/tools/results",
      body: json({ replay: { phases: bigThread(SIZE) } }),
    },
  ];
}

const url = new URL(process.argv[2] ?? "");
const addresses = Number(process.argv[3] ?? 6);
const all = bodies();
for (const b of all)
  if (b.body.length > 5 * 1024 * 1024) throw new Error(`${b.kind}: ${b.body.length} bytes`);

function send(b: Body, localAddress: string): Promise<HostileStats["sent"][number]> {
  const start = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: b.url,
        method: "POST",
        localAddress,
        headers: { "content-type": "application/json", "content-length": b.body.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          let code: string | null = null;
          try {
            code =
              (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { error?: { code?: string } }).error
                ?.code ?? null;
          } catch {
            code = "(not JSON)";
          }
          resolve({ kind: b.kind, status: res.statusCode ?? 0, ms: performance.now() - start, code });
        });
      },
    );
    req.on("error", (e) => {
      firstError ??= `${b.kind}: ${String(e)}`;
      resolve({ kind: b.kind, status: 0, ms: performance.now() - start, code: null });
    });
    req.end(b.body);
  });
}

let firstError: string | null = null;
process.stdout.write("ready\n");
await new Promise<void>((r) => process.stdin.once("data", () => r()));
const sent = (
  await Promise.all(
    Array.from({ length: addresses }, async (_, a) => {
      const mine = all.filter((_, i) => i % addresses === a);
      const out: HostileStats["sent"][number][] = [];
      for (const b of mine) out.push(await send(b, `127.2.0.${a + 1}`));
      return out;
    }),
  )
).flat();
const stats: HostileStats = { sent, firstError };
process.stdout.write(`${JSON.stringify(stats)}\n`);
process.exit(0);
