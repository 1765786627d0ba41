import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { PG_LOCKS } from "../src/stores/pg-locks.ts";
import { freePort, haproxyMissing, startHaproxy, type Haproxy } from "./haproxy.ts";
import { nginxMissing, startNginx, type Nginx } from "./nginx.ts";
import { PG_URL, pgAvailable } from "./pg.ts";
import { NICKS } from "./play.ts";
import {
  halfSentPost,
  ProxyUser,
  scratchDatabase,
  StartedServer,
  StreamReader,
  type Answer,
} from "./rolling.ts";

/**
 * Issue 28: a rolling restart under writes. Three instances (`npm start`'s bin/start.ts, as deployed) share
 * one PostgreSQL behind a proxy (haproxy in rolling-restart.test.ts, nginx in rolling-restart-nginx.test.ts),
 * each with the config docs/server.md recommends. While writers post in the game thread and the GM writes to
 * players' channels, each with an Idempotency-Key and the web app's retry policy (once more, with the same
 * key, after no answer, a 502 or a 503), every instance in turn gets SIGTERM, drains, exits and starts again
 * on its port; two rounds. At each SIGTERM a post is in flight on that instance, its body half sent.
 *
 * Expected, from the contract: no client sees an error; the post in flight is served (201, with
 * `Connection: close`); every acknowledged write is in the log exactly once (a retried one too), and nothing
 * unacknowledged is; every instance exits cleanly (0) after its drain; the live streams ended by a shutdown
 * resume from Last-Event-ID on another instance with no gap, no repeat and no reset, holding every post;
 * never two leaders, and one at the end.
 *
 * ROLLING_ROUNDS=12 (36 restarts per proxy) is the long run the issue measured; CI runs 2.
 */

const ROUNDS = Number(process.env.ROLLING_ROUNDS ?? 2);
const INSTANCES = 3;
/** A game of nine (the «Малая» preset's roles, S3). */
const SMALL9 = ["boss", "thug", "maniac", "sheriff", "doctor", "citizen", "citizen", "citizen", "citizen"];

interface Proxy {
  readonly url: string;
  /** Resolves once the proxy sends traffic to the named instance again (haproxy's checks; nginx at once). */
  back(name: string): Promise<void>;
  stop(): Promise<void>;
}

export type ProxyKind = "haproxy" | "nginx";

async function startProxy(kind: ProxyKind, port: number, servers: readonly StartedServer[]): Promise<Proxy> {
  if (kind === "haproxy") {
    const h: Haproxy = await startHaproxy({
      port,
      backends: servers.map((s) => ({ name: s.name, port: s.port })),
      host: (p) => `127.0.0.1:${p}`,
      retryKeyed: true,
    });
    await h.waitFor(Object.fromEntries(servers.map((s) => [s.name, "UP" as const])), 30_000);
    return { url: h.url, back: (name) => h.waitFor({ [name]: "UP" }, 30_000), stop: () => h.stop() };
  }
  const n: Nginx = await startNginx({ port, backends: servers.map((s) => s.port) });
  return { url: n.url, back: async () => {}, stop: () => n.stop() };
}

/** A write the client was told was done, to be found in the log. */
interface Acked {
  readonly kind: "post" | "message";
  readonly text: string;
  /** The post's id from the answer. */
  readonly id: string | null;
}

/** The rolling restart behind one proxy: the suite of rolling-restart*.test.ts. */
export function rollingRestart(kind: ProxyKind): void {
  const missing = kind === "haproxy" ? haproxyMissing() : nginxMissing();
  if (missing) console.warn(`skipping the ${kind} rolling restart: ${missing}`);
  describe(`a rolling restart behind ${kind} (issue 28)`, () => {
    const run = pgAvailable && missing === null;
    let db: { url: string; drop: () => Promise<void> } | null = null;
    let servers: StartedServer[] = [];
    let proxy: Proxy | null = null;
    let sql: pg.Client | null = null;

    beforeAll(async () => {
      if (!run) return;
      db = await scratchDatabase(PG_URL);
      sql = new pg.Client({ connectionString: db.url });
      await sql.connect();
      const port = await freePort();
      const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
      servers = ports.map(
        (p, i) =>
          new StartedServer(`i${i}`, p, {
            DATABASE_URL: `${db!.url}?application_name=i${i}`,
            PUBLIC_URL: `http://127.0.0.1:${port}`,
            TRUST_PROXY: "loopback",
            RATE_LIMIT: "0",
          }),
      );
      // One first, which creates the schema; then the others.
      await servers[0]!.start();
      await Promise.all(servers.slice(1).map((s) => s.start()));
      proxy = await startProxy(kind, port, servers);
    }, 120_000);

    afterAll(async () => {
      await proxy?.stop();
      await Promise.all(servers.map((s) => s.kill()));
      await sql?.end();
      await db?.drop();
    });

    const logs = (): string => servers.map((s) => `--- ${s.name}\n${s.log.slice(-3000)}`).join("\n");

    /** The instances holding the leader's advisory lock (PG_LOCKS.leader), by application_name. */
    const leaders = async (): Promise<string[]> =>
      (
        await sql!.query<{ name: string }>(
          `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objsubid = 2
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          [PG_LOCKS.leader],
        )
      ).rows.map((r) => r.name);

    it.skipIf(!run)(
      `${ROUNDS} rounds of SIGTERM to each of ${INSTANCES} instances under writes: no client error, each write stored once, streams resume`,
      async () => {
        const url = proxy!.url;
        const user = (nick: string): ProxyUser => new ProxyUser(url, nick);
        const gm = user("Ведущий");
        const players = NICKS.slice(0, SMALL9.length).map(user);
        const ok = (r: Answer, what: string): void => {
          if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.raw}`);
        };
        for (const c of [gm, ...players])
          ok(await c.post("/api/register", { nick: c.nick, password: "correct horse battery" }), "register");
        const created = await gm.post("/api/games", {
          title: "Перезапуск под нагрузкой",
          night: { amount: 12, unit: "hours" },
          day: { amount: 24, unit: "hours" },
          mode: "automatic",
          roles: SMALL9,
        });
        ok(created, "create");
        const id = (created.body as { id: string }).id;
        for (const p of players) ok(await p.post(`/api/games/${id}/signup`), "signup");
        ok(await gm.post(`/api/games/${id}/start`, { deal: "random" }), "start");

        // Live pages: the public's and a player's.
        const readers = [
          new StreamReader("guest", user(""), id),
          new StreamReader("player", players[0]!, id),
        ];
        for (const r of readers) r.start();

        // Writers: four players post in the thread; the GM writes to the players' channels.
        const acked: Acked[] = [];
        const errors: string[] = [];
        let stop = false;
        const writer = async (c: ProxyUser, n: number): Promise<void> => {
          for (let i = 0; !stop; i++) {
            const text = `${c.nick} ${i}`;
            if (c === gm) {
              const r = await c.post(`/api/games/${id}/channels/gm:${i % SMALL9.length}`, { text });
              if (r.status === 201) acked.push({ kind: "message", text, id: null });
              else errors.push(`GM message ${i}: ${r.status} ${r.raw.slice(0, 200)}`);
            } else {
              const r = await c.post(`/api/games/${id}/posts`, { text });
              if (r.status === 201) acked.push({ kind: "post", text, id: (r.body as { id: string }).id });
              else errors.push(`${c.nick} post ${i}: ${r.status} ${r.raw.slice(0, 200)}`);
            }
            if (i % 5 === n % 5) {
              const read = await c.get(`/api/games/${id}/posts?after=0&limit=5`);
              if (read.status !== 200)
                errors.push(`${c.nick} read ${i}: ${read.status} ${read.raw.slice(0, 200)}`);
            }
            await new Promise((r) => setTimeout(r, 50));
          }
        };
        const writers = [gm, ...players.slice(1, 5)].map((c, n) => writer(c, n));

        // The rolling restart: each instance in turn drains, exits, and comes back on its port.
        const leadersSeen: string[][] = [];
        for (let round = 0; round < ROUNDS; round++)
          for (const s of servers) {
            // A post in flight on the instance when SIGTERM comes (half its body sent) is served, not cut.
            let stopped: Promise<number | null> = Promise.resolve(null);
            const inFlight = await halfSentPost({
              port: s.port,
              host: new URL(url).host,
              path: `/api/games/${id}/posts`,
              cookie: players[5]!.cookie,
              key: `in-flight-${round}-${s.name}`,
              body: { text: `in flight ${round} ${s.name}` },
              whileSending: async () => {
                stopped = s.stop();
                await new Promise((r) => setTimeout(r, 300));
              },
            });
            expect(
              inFlight.status,
              `the post in flight when ${s.name} stopped: ${inFlight.raw}\n${logs()}`,
            ).toBe(201);
            expect(inFlight.connection, "answered with Connection: close").toBe("close");
            acked.push({
              kind: "post",
              text: `in flight ${round} ${s.name}`,
              id: (JSON.parse(inFlight.raw) as { id: string }).id,
            });
            const code = await stopped;
            expect(code, `${s.name} exits cleanly after its drain:\n${logs()}`).toBe(0);
            leadersSeen.push(await leaders());
            await s.start();
            await proxy!.back(s.name);
            await new Promise((r) => setTimeout(r, 300));
          }
        stop = true;
        await Promise.all(writers);

        expect(errors, `client-visible errors:\n${errors.join("\n")}\n${logs()}`).toEqual([]);
        const retries = [gm, ...players].reduce((n, c) => n + c.retries, 0);
        console.log(
          `${kind}: ${ROUNDS * INSTANCES} restarts, ${acked.length} acknowledged writes, ${retries} retried by a client`,
        );
        expect(acked.length).toBeGreaterThan(0);

        // Every acknowledged write is in the log exactly once, with the id its answer gave; nothing else is.
        const log = (
          await sql!.query<{ body: { kind: string; id?: string; text?: string } }>(
            "SELECT body FROM game_entries WHERE game_id = $1 ORDER BY seq",
            [id],
          )
        ).rows.map((r) => r.body);
        const stored = (k: string): Map<string, string[]> => {
          const m = new Map<string, string[]>();
          for (const e of log) if (e.kind === k) m.set(e.text!, [...(m.get(e.text!) ?? []), e.id!]);
          return m;
        };
        const posts = stored("post");
        const messages = stored("message");
        for (const a of acked) {
          const ids = (a.kind === "post" ? posts : messages).get(a.text) ?? [];
          expect(ids, `${a.kind} «${a.text}» is stored exactly once`).toHaveLength(1);
          if (a.id !== null) expect(ids[0]).toBe(a.id);
        }
        expect([...posts.keys(), ...messages.keys()].length, "nothing unacknowledged was stored").toBe(
          acked.length,
        );

        // The streams resume on other instances: every post, no gap, no repeat, no reset.
        const postIds = new Set(acked.filter((a) => a.id !== null).map((a) => a.id!));
        const until = Date.now() + 30_000;
        while (readers.some((r) => r.posts.size < postIds.size) && Date.now() < until)
          await new Promise((r) => setTimeout(r, 100));
        for (const r of readers) {
          await r.stop();
          expect(r.gaps, `${r.label}: gaps`).toEqual([]);
          expect(r.resets, `${r.label}: resets`).toBe(0);
          expect(r.repeats, `${r.label}: repeats`).toBe(0);
          expect(
            r.connections,
            `${r.label}: its stream was ended by shutdowns and opened again`,
          ).toBeGreaterThan(1);
          expect([...r.posts].sort(), `${r.label}: every post, once`).toEqual([...postIds].sort());
        }
        // Leadership: never two at once; one instance leads at the end.
        for (const l of leadersSeen) expect(l.length).toBeLessThanOrEqual(1);
        const end = Date.now() + 10_000;
        while ((await leaders()).length !== 1 && Date.now() < end)
          await new Promise((r) => setTimeout(r, 100));
        expect(await leaders()).toHaveLength(1);
      },
      // A hang guard, growing with the rounds (ROLLING_ROUNDS).
      Math.max(300_000, ROUNDS * 150_000),
    );
  });
}
