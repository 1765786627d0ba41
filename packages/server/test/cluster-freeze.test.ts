import { afterEach, describe, expect, it } from "vitest";
import { LEADER_LEASE_MS } from "../src/log/cluster.ts";
import { HttpUser, Instances, type HttpReply } from "./instances.ts";
import { pgAvailable } from "./pg.ts";
import { NICKS, NIGHT_MS } from "./play.ts";

/**
 * Issue 28, item 6: the leader's process freezes (SIGSTOP: a paused VM, a stuck event loop). Its lock's
 * connection stays open, so PostgreSQL would keep the lock for as long as the socket lives; the lock's
 * session has idle_session_timeout (twice LEADER_LEASE_MS), so PostgreSQL ends it and another instance
 * takes the lead. When the frozen process wakes, its lead has run out (LEADER_LEASE_MS): it fires no
 * deadline as a leader, and the night's end is stored once, by the new leader.
 */

const START = Date.UTC(2026, 11, 7, 9, 0);
const SEED_HEX = "46".repeat(32);
const SMALL9 = ["boss", "thug", "maniac", "sheriff", "doctor", "citizen", "citizen", "citizen", "citizen"];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch((e: unknown) => console.error(e));
});

async function waitFor(what: string, ready: () => Promise<boolean>, guardMs: number): Promise<void> {
  const until = Date.now() + guardMs;
  while (!(await ready())) {
    if (Date.now() > until) throw new Error(`not within ${guardMs} ms (a hang guard): ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!pgAvailable)("a frozen leader (issue 28)", () => {
  it(
    "loses the lead to another instance, and fires nothing as a leader when it wakes",
    { timeout: 120_000 },
    async () => {
      const cluster = await Instances.start(2, { clock: `manual:${START}`, seed: SEED_HEX });
      cleanups.push(() => cluster.close());
      const ok = (r: HttpReply, what: string): HttpReply => {
        if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.raw}`);
        return r;
      };
      await waitFor("an instance leads", async () => (await cluster.leader()) !== null, 10_000);
      const old = (await cluster.leader())!;
      const other = 1 - old;
      const base = cluster.get(other).base;
      const gm = new HttpUser();
      ok(
        await gm.req(base, "POST", "/api/register", { nick: "Ведущий", password: "correct horse battery" }),
        "gm",
      );
      const created = ok(
        await gm.req(base, "POST", "/api/games", {
          title: "Замёрзший ведущий",
          night: { amount: 12, unit: "hours" },
          day: { amount: 24, unit: "hours" },
          mode: "automatic",
          roles: SMALL9,
        }),
        "create",
      );
      const id = (created.body as { id: string }).id;
      for (const nick of NICKS.slice(0, SMALL9.length)) {
        const p = new HttpUser();
        ok(await p.req(base, "POST", "/api/register", { nick, password: "correct horse battery" }), nick);
        ok(await p.req(base, "POST", `/api/games/${id}/signup`), `${nick} signs up`);
      }
      ok(await gm.req(base, "POST", `/api/games/${id}/start`, { deal: "random" }), "start");
      await Promise.all(cluster.running.map((i) => i.idle()));

      // The leader freezes. PostgreSQL ends its idle lock session after 2 × LEADER_LEASE_MS; the other
      // instance then takes the lock at its next try.
      const frozen = cluster.get(old);
      frozen.proc!.kill("SIGSTOP");
      try {
        await waitFor(
          "the other instance leads",
          async () => (await cluster.leader()) === other,
          2 * LEADER_LEASE_MS + 15_000,
        );
      } finally {
        frozen.proc!.kill("SIGCONT");
      }
      // Awake, the old leader moves its clock past the night's deadline at once, with the new leader: its
      // lead ran out while it slept, so it gives it up instead of firing; the new leader closes the night.
      await cluster.advance(NIGHT_MS);
      await Promise.all(cluster.running.map((i) => i.idle()));
      const log = await cluster.log(id);
      expect(log.filter((e) => e.body.kind === "publishNight")).toHaveLength(1);
      expect(await cluster.leader()).toBe(other);
      expect(frozen.log).toMatch(/leader no/);
    },
  );
});
