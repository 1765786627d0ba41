import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PgCluster } from "../src/log/cluster.ts";
import { testServer } from "./harness.ts";
import { pgAvailable, pgSchema } from "./pg.ts";
import { setUpGame, sseBlocks } from "./play.ts";

/**
 * Issue 28: what an instance does on SIGTERM, piece by piece (rolling-restart*.test.ts runs it whole):
 * its live streams end with a reconnect hint and no reset, so EventSource resumes them with Last-Event-ID;
 * and its leadership passes to another instance while it still drains, not when its connections end.
 */

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close().catch(() => {});
});

/** Wait for `ok` (a hang guard, not a speed target). */
async function until(ok: () => boolean, what: string, guardMs = 15_000): Promise<void> {
  const end = Date.now() + guardMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`waited ${guardMs} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("an instance shutting down (issue 28)", () => {
  it("its live streams end with a short retry: hint and no reset, and the close does not wait for them", async () => {
    const t = await testServer();
    open.push(() => t.close());
    const table = await setUpGame(t, "automatic");
    await t.server.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (t.server.app.server.address() as AddressInfo).port;
    const res = await fetch(`http://127.0.0.1:${port}/api/games/${table.id}/stream`, {
      headers: { cookie: table.players[0]!.cookie! },
    });
    expect(res.status).toBe(200);
    const blocks: string[] = [];
    let ended = false;
    const reading = sseBlocks(res.body!, (b) => blocks.push(b)).then(
      () => (ended = true),
      () => (ended = true),
    );
    await until(() => blocks.length > 0, "the stream's first block");
    await t.server.close();
    await reading;
    expect(ended).toBe(true);
    const last = blocks[blocks.length - 1]!;
    // The hint: EventSource waits this long, then reconnects (through the proxy, to another instance) with
    // Last-Event-ID; a reset would make the page fetch everything again instead.
    expect(last.split("\n")).toContain("retry: 500");
    expect(blocks.some((b) => b.includes("event: reset"))).toBe(false);
  });

  it.skipIf(!pgAvailable)(
    "its leadership passes to another instance while it still holds its connections (resign)",
    async () => {
      const db = await pgSchema();
      open.push(db.drop);
      const store = await db.open();
      open.push(() => store.close());
      const a = await PgCluster.connect(store.clientConfig, store.namespace);
      open.push(() => a.close());
      expect(a.leader).toBe(true);
      const b = await PgCluster.connect(store.clientConfig, store.namespace);
      open.push(() => b.close());
      expect(b.leader).toBe(false);
      let aLeads = true;
      a.onLeader((l) => (aLeads = l));
      await a.resign();
      expect(aLeads).toBe(false);
      // A's connections are all still open: only the lock was given up, and B was told.
      await until(() => b.leader, "B to lead");
      expect(a.leader).toBe(false);
    },
  );
});
