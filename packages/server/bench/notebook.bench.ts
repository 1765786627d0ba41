/**
 * Issue 28, item 1: one free account froze the server through a notebook. This bench reproduces the Done
 * when: the real server (bin/start.ts) in its own process, with the default limits, and a notebook whose day
 * holds one 5 MB paste of 17,700 votes; three readers of the same account GET it in parallel for a minute,
 * paced to stay under the default per-session rate (600 a minute: 3 × one read every 320 ms), while
 * /api/health is probed every 50 ms. The same probe with no readers, just before, is the baseline; then,
 * as a control for the reads on a busy machine, the same three readers read `GET /api/me` (the lightest
 * signed-in answer) at the same pace.
 *
 *   npm run bench:notebook [-- --seconds 60]
 *
 * Each phase runs its seconds in three rounds, interleaved (health alone, with the notebook's readers, with
 * the control's), so the shared machine's busy spells fall on all three alike.
 *
 * Prints p50, p99 and max of /api/health alone and with the readers, and of the reads; the size of one read;
 * any answer that was not 200. The targets: health p99 < 100 ms and read p99 < 50 ms.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { NotebookView } from "@forum-mafia/protocol";
import { bigPaste, NAMES, ROLES } from "../test/notebook-big-paste.ts";
import { freePort, Refused, removeOnExit, ROOT, track, User } from "./harness.ts";
import { cleanUpOnExit } from "./stores.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "60" } } });
const SECONDS = Number(values.seconds);
if (!(SECONDS > 0)) throw new Error("--seconds: a positive number of seconds");
const READERS = 3;
const READ_EVERY_MS = 320;
const PROBE_EVERY_MS = 50;
const ROUNDS = 3;

const START = join(ROOT, "packages/server/bin/start.ts");

/** The server with the default limits (no RATE_LIMIT), on a fresh SQLite file. */
async function startDefault(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "fm-bench-notebook-"));
  removeOnExit(dir);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dir };
  delete env.RATE_LIMIT;
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", START], { cwd: ROOT, env, stdio: "ignore" });
  track(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return url;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the server did not answer /api/health in 60 s");
    await new Promise((r) => setTimeout(r, 100));
  }
}

const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
}

/** Probe /api/health every 50 ms until `until`: each answer's time. */
async function probe(url: string, until: number): Promise<number[]> {
  const out: number[] = [];
  while (now() < until) {
    const t0 = now();
    const res = await fetch(`${url}/api/health`);
    await res.arrayBuffer();
    out.push(now() - t0);
    await sleep(PROBE_EVERY_MS - (now() - t0));
  }
  return out;
}

/** One reader: GET the notebook every READ_EVERY_MS until `until`: each 200's time, and the other statuses. */
async function reader(
  url: string,
  cookie: string,
  path: string,
  until: number,
  statuses: Map<number, number>,
) {
  const out: number[] = [];
  let bytes = 0;
  while (now() < until) {
    const t0 = now();
    const res = await fetch(url + path, { headers: { cookie } });
    const body = await res.arrayBuffer();
    const ms = now() - t0;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status === 200) {
      out.push(ms);
      bytes = body.byteLength;
    }
    await sleep(READ_EVERY_MS - ms);
  }
  return { times: out, bytes };
}

const row = (name: string, xs: readonly number[]): string =>
  `${name.padEnd(34)} n=${String(xs.length).padStart(5)}  p50 ${quantile(xs, 0.5).toFixed(1).padStart(7)} ms  p99 ${quantile(xs, 0.99).toFixed(1).padStart(7)} ms  max ${Math.max(
    ...xs,
  )
    .toFixed(1)
    .padStart(7)} ms`;

async function main(): Promise<void> {
  cleanUpOnExit();
  const url = await startDefault();
  const gm = new User(url, "Ведущий");
  await gm.register();
  let v = await gm.call<NotebookView>("POST", "/api/notebooks", {
    title: "Большая тема",
    players: NAMES,
    roles: ROLES,
    deal: { kind: "hand", roles: ROLES },
  });
  const id = v.id;
  for (let f = v.night!.forms.find((x) => x.owes); f; f = v.night!.forms.find((x) => x.owes))
    v = await gm.call<NotebookView>("POST", `/api/notebooks/${id}/actions`, {
      seat: f.seat,
      action: { act: "pass" },
    });
  await gm.call("POST", `/api/notebooks/${id}/close`, {});
  let text: string | null = bigPaste(NAMES);
  // The paste is the set-up, not what is measured: on a machine busy enough for the count to run over the
  // tools' time budget (413 tools/too-slow), it is sent again.
  for (let attempt = 1; ; attempt++) {
    const t0 = now();
    try {
      v = await gm.call<NotebookView>("POST", `/api/notebooks/${id}/thread`, { text: text! });
    } catch (e) {
      if (!(e instanceof Refused && e.status === 413 && attempt < 5)) throw e;
      console.log(`notebook: the paste ran over the tools' budget (${(now() - t0).toFixed(0)} ms); again`);
      continue;
    }
    console.log(
      `notebook: a ${(Buffer.byteLength(text!) / 1e6).toFixed(2)} MB paste of ${v.day!.found!.posts} posts pasted in ${(now() - t0).toFixed(0)} ms; ${v.inputs.length} votes kept, ${v.day!.found!.replaced} replaced`,
    );
    break;
  }
  text = null; // the 5 MB string is not kept through the measurement
  await sleep(1000);

  // Rounds of three phases each, SECONDS in all per phase: /api/health alone; with the three notebook
  // readers; with the three control readers. Interleaved, so a busy spell of the shared machine falls on
  // every phase alike rather than on one.
  const phase = SECONDS / ROUNDS;
  const statuses = new Map<number, number>();
  const baseline: number[] = [];
  const health: number[] = [];
  const readTimes: number[] = [];
  const controlHealth: number[] = [];
  const controlTimes: number[] = [];
  let bytes = 0;
  const withReaders = async (path: string, probed: number[], times: number[]): Promise<void> => {
    const until = now() + phase * 1000;
    const [h, ...reads] = await Promise.all([
      probe(url, until),
      ...Array.from({ length: READERS }, () => reader(url, gm.cookie, path, until, statuses)),
    ]);
    probed.push(...h!);
    for (const r of reads) times.push(...r.times);
    if (path !== "/api/me") bytes = reads[0]!.bytes;
  };
  for (let round = 0; round < ROUNDS; round++) {
    baseline.push(...(await probe(url, now() + phase * 1000)));
    await withReaders(`/api/notebooks/${id}`, health, readTimes);
    await withReaders("/api/me", controlHealth, controlTimes);
  }
  console.log(
    `\n${READERS} readers of one account, one read each every ${READ_EVERY_MS} ms, for ${SECONDS} s in ${ROUNDS} rounds (default limits); one read is ${bytes} bytes`,
  );
  console.log(row("GET /api/health, no readers", baseline));
  console.log(row("GET /api/health, with the readers", health));
  console.log(row("GET /api/notebooks/:id", readTimes));
  console.log(row("control: GET /api/health", controlHealth));
  console.log(row("control: GET /api/me, same pace", controlTimes));
  console.log(`answers to the readers: ${JSON.stringify(Object.fromEntries(statuses))}`);
  const ok = quantile(health, 0.99) < 100 && quantile(readTimes, 0.99) < 50;
  console.log(`target (health p99 < 100 ms, read p99 < 50 ms): ${ok ? "met" : "NOT met"}`);
  process.exit(0);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
