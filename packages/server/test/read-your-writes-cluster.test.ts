import { afterAll, describe, expect, it } from "vitest";
import {
  freePort,
  haproxyMissing,
  SERVED_BY,
  startHaproxy,
  startInstances,
  type Haproxy,
  type Instances,
} from "./haproxy.ts";
import { PG_URL, pgAvailable } from "./pg.ts";
import { NICKS } from "./play.ts";

/**
 * Issue 28, item 7, as deployed: three server processes on one PostgreSQL behind Debian's haproxy
 * (round-robin), six players posting to one game at once, each post read back at once through the proxy.
 * The read must hold the post. Each read-back is one request for the writer's own posts («Посты игрока»,
 * `?seat=`), so the check is exact; the proxy's `x-served-by` header says which instance answered, and
 * the checks whose read went to another instance than the write are counted (the ones that matter).
 * RYW_CHECKS sets how many (300 by default; the 10,000: `npm run bench:ryw`, about 5 minutes
 * here). The deterministic reproduction of the race is read-your-writes.test.ts.
 */

const CHECKS = Number(process.env.RYW_CHECKS ?? 300);
const SMALL9 = ["boss", "thug", "maniac", "sheriff", "doctor", "citizen", "citizen", "citizen", "citizen"];
const missing = haproxyMissing();

/** One user through the proxy: its session cookie, and which instance answered each request. */
class ProxyUser {
  cookie: string | null = null;
  constructor(private readonly base: string) {}

  async req(
    method: "GET" | "POST",
    url: string,
    body?: unknown,
  ): Promise<{ status: number; raw: string; by: string | null }> {
    const res = await fetch(`${this.base}${url}`, {
      method,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const set = res.headers.getSetCookie()[0];
    if (set) this.cookie = set.split(";")[0]!;
    const raw = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${raw}`);
    return { status: res.status, raw, by: res.headers.get(SERVED_BY) };
  }
}

describe.skipIf(!pgAvailable || missing !== null)(
  "read-your-writes through haproxy on three instances (issue 28)",
  () => {
    let proxy: Haproxy | null = null;
    let cluster: Instances | null = null;
    afterAll(async () => {
      await proxy?.stop();
      await cluster?.stop();
    });

    it(
      `${CHECKS} posts, each read back at once through the proxy, are all there`,
      { timeout: 900_000 },
      async () => {
        const port = await freePort();
        const site = `127.0.0.1:${port}`;
        cluster = await startInstances(3, { pgUrl: PG_URL, publicUrl: `http://${site}`, seed: "ryw" });
        proxy = await startHaproxy({
          port,
          backends: cluster.list.map((i) => ({ name: i.name, port: i.port })),
          host: () => site,
        });
        await proxy.waitFor({ i0: "UP", i1: "UP", i2: "UP" });
        const user = (): ProxyUser => new ProxyUser(proxy!.url);
        const gm = user();
        await gm.req("POST", "/api/register", { nick: "Ведущий", password: "correct horse battery" });
        const created = await gm.req("POST", "/api/games", {
          title: "Партия на трёх",
          night: { amount: 12, unit: "hours" },
          day: { amount: 24, unit: "hours" },
          mode: "automatic",
          roles: SMALL9,
        });
        const id = (JSON.parse(created.raw) as { id: string }).id;
        const players: ProxyUser[] = [];
        for (const nick of NICKS.slice(0, SMALL9.length)) {
          const p = user();
          await p.req("POST", "/api/register", { nick, password: "correct horse battery" });
          await p.req("POST", `/api/games/${id}/signup`);
          players.push(p);
        }
        await gm.req("POST", `/api/games/${id}/start`, { deal: "random" });

        let next = 0;
        let checked = 0;
        let elsewhere = 0;
        const stale: string[] = [];
        const writer = async (p: ProxyUser, w: number): Promise<void> => {
          const me = JSON.parse((await p.req("GET", `/api/games/${id}`)).raw) as { me: { seat: number } };
          let mine = 0;
          for (;;) {
            const n = next++;
            if (n >= CHECKS) return;
            const text = `ryw-${w}-${n}`;
            const wrote = await p.req("POST", `/api/games/${id}/posts`, { text });
            const back = await p.req(
              "GET",
              `/api/games/${id}/posts?seat=${me.me.seat}&after=${mine}&limit=5`,
            );
            mine++;
            checked++;
            if (back.by !== wrote.by) elsewhere++;
            if (!back.raw.includes(`"${text}"`))
              stale.push(`${text} (written on ${wrote.by}, read on ${back.by})`);
          }
        };
        await Promise.all(players.slice(0, 6).map((p, w) => writer(p, w)));
        console.log(
          `${checked} read-after-write checks through haproxy on 3 instances, 6 writers on one game ` +
            `(${elsewhere} read on another instance than the write): ${stale.length} stale`,
        );
        expect(stale).toEqual([]);
        expect(elsewhere).toBeGreaterThan(0);
      },
    );
  },
);
