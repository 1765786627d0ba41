import { afterAll, describe, expect, it } from "vitest";
import { HttpUser, Instances, type HttpReply } from "./instances.ts";
import { pgAvailable } from "./pg.ts";
import { NICKS } from "./play.ts";

/**
 * Issue 28, item 7, end to end: three server processes on one PostgreSQL, six players posting to one game
 * at once, each post sent to one instance and read back at once from another: the read must hold the post.
 * RYW_CHECKS sets how many read-backs (300 by default; the figure, 10,000, with RYW_CHECKS=10000).
 * The deterministic reproduction of the race is read-your-writes.test.ts.
 */

const CHECKS = Number(process.env.RYW_CHECKS ?? 300);
const SMALL9 = ["boss", "thug", "maniac", "sheriff", "doctor", "citizen", "citizen", "citizen", "citizen"];

describe.skipIf(!pgAvailable)("read-your-writes across three instances (issue 28)", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it(
    `${CHECKS} posts, each read back at once on another instance, are all there`,
    { timeout: 600_000 },
    async () => {
      const cluster = await Instances.start(3, {
        clock: `manual:${Date.UTC(2026, 0, 5, 9)}`,
        seed: "7".repeat(64),
      });
      cleanups.push(() => cluster.close());
      const on = (n: number): string => cluster.get(n % 3).base;
      const ok = (r: HttpReply, what: string): HttpReply => {
        if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.raw}`);
        return r;
      };
      const gm = new HttpUser();
      ok(
        await gm.req(on(0), "POST", "/api/register", { nick: "Ведущий", password: "correct horse battery" }),
        "gm",
      );
      const created = ok(
        await gm.req(on(1), "POST", "/api/games", {
          title: "Партия на трёх",
          night: { amount: 12, unit: "hours" },
          day: { amount: 24, unit: "hours" },
          mode: "automatic",
          roles: SMALL9,
        }),
        "create",
      );
      const id = (created.body as { id: string }).id;
      const players: HttpUser[] = [];
      for (const [i, nick] of NICKS.slice(0, SMALL9.length).entries()) {
        const p = new HttpUser();
        ok(await p.req(on(i), "POST", "/api/register", { nick, password: "correct horse battery" }), nick);
        ok(await p.req(on(i + 1), "POST", `/api/games/${id}/signup`), `${nick} signs up`);
        players.push(p);
      }
      ok(await gm.req(on(0), "POST", `/api/games/${id}/start`, { deal: "random" }), "start");

      let next = 0;
      const stale: string[] = [];
      let checked = 0;
      const writer = async (p: HttpUser, w: number): Promise<void> => {
        for (;;) {
          const n = next++;
          if (n >= CHECKS) return;
          const text = `ryw-${w}-${n}`;
          ok(await p.req(on(n), "POST", `/api/games/${id}/posts`, { text }), `post ${text}`);
          // The newest posts: the page after all but the last 50 of the thread.
          const read = ok(await p.req(on(n + 1 + (w % 2)), "GET", `/api/games/${id}/posts?limit=1`), "count");
          const total = (read.body as { total: number }).total;
          const back = ok(
            await p.req(
              on(n + 1 + (w % 2)),
              "GET",
              `/api/games/${id}/posts?after=${Math.max(0, total - 50)}&limit=50`,
            ),
            "read back",
          );
          checked++;
          if (!back.raw.includes(`"${text}"`) && !back.raw.includes(text))
            stale.push(`${text} (total ${total})`);
        }
      };
      await Promise.all(players.slice(0, 6).map((p, w) => writer(p, w)));
      console.log(
        `${checked} read-after-write checks on 3 instances, 6 writers on one game: ${stale.length} stale`,
      );
      expect(stale).toEqual([]);
    },
  );
});
