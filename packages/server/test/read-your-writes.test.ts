import { afterEach, describe, expect, it } from "vitest";
import { DeafCluster } from "./deaf-cluster.ts";
import type { Entry } from "../src/log/entries.ts";
import type { PgStore } from "../src/stores/pg-store.ts";
import { createServer, type Server } from "../src/server.ts";
import { Client } from "./client.ts";
import { FakeClock } from "./harness.ts";
import { pgAvailable, pgSchema } from "./pg.ts";
import { expectOk, setUpGame } from "./play.ts";

/**
 * Issue 28, item 7: read-your-writes across instances. A write acknowledged by instance A must be in every
 * read that starts after it on instance B, even while B itself is writing the same game. B here hears no
 * notification (as when A's is still on its way), so it learns of A's write only from the log, when a read
 * catches its room up. The store of B is held at two points, by the test, to give the one interleaving
 * that the proxy runs met about once in 2,000 checks: B's read has the log's new entries in hand while a
 * command of B's (decided on B's room, which is behind) is being appended.
 */

/** A point where the store waits until the test opens it; `reached` resolves when a call gets there. */
class Gate {
  private open: () => void = () => {};
  private readonly opened = new Promise<void>((resolve) => (this.open = resolve));
  private arrive: () => void = () => {};
  readonly reached = new Promise<void>((resolve) => (this.arrive = resolve));
  armed = false;

  async pass(): Promise<void> {
    if (!this.armed) return;
    this.armed = false;
    this.arrive();
    await this.opened;
  }

  release(): void {
    this.open();
  }
}

describe.skipIf(!pgAvailable)("read-your-writes across instances (issue 28)", () => {
  const open: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });

  it("a read on B that found A's acknowledged post keeps it while B appends a command of its own", async () => {
    const db = await pgSchema();
    open.push(db.drop);
    const clock = new FakeClock();
    const a = await createServer({ store: await db.open(), clock, rateLimit: 0 });
    open.push(() => a.close());
    const storeB: PgStore = await db.open();
    // B's catch-up read answers only once `afterRead` opens (its entries in hand); B's appends are sent
    // only once `beforeAppend` opens.
    const afterRead = new Gate();
    const beforeAppend = new Gate();
    const entriesFrom = storeB.entriesFrom.bind(storeB);
    storeB.entriesFrom = async (id: string, from: number): Promise<Entry[]> => {
      const found = await entriesFrom(id, from);
      await afterRead.pass();
      return found;
    };
    const append = storeB.append.bind(storeB);
    storeB.append = async (id: string, seq: number, entries: readonly Entry[]): Promise<void> => {
      await beforeAppend.pass();
      return append(id, seq, entries);
    };
    const b: Server = await createServer({ store: storeB, clock, rateLimit: 0, cluster: new DeafCluster() });
    open.push(() => b.close());

    const table = await setUpGame({ server: a }, "automatic");
    const onB = (c: Client): Client => Object.assign(new Client(() => b.app, c.nick), { cookie: c.cookie });
    // B builds the game from its log, then hears nothing more.
    expectOk(await onB(table.gm).get(`/api/games/${table.id}/posts`));
    const [writer, reader, other] = [table.players[0]!, table.players[1]!, table.players[2]!];

    // A acknowledges a post.
    expectOk(await writer.post(`/api/games/${table.id}/posts`, { text: "пост-A-подтверждён" }));
    // B: a read starts after that acknowledgement and finds the post in the log...
    afterRead.armed = true;
    const read = onB(reader).get(`/api/games/${table.id}/posts?limit=500`);
    await afterRead.reached;
    // ...while a command of B's, decided on B's room (behind: it lacks A's post), is being appended.
    beforeAppend.armed = true;
    const write = onB(other).post(`/api/games/${table.id}/posts`, { text: "пост-B" });
    await beforeAppend.reached;
    afterRead.release();
    // Let the read's catch-up finish (the append stays held), then the append go: it conflicts with A's
    // post in the log and is decided again.
    await new Promise((r) => setTimeout(r, 200));
    beforeAppend.release();
    const [readReply, writeReply] = await Promise.all([read, write]);
    expectOk(writeReply);
    expect(readReply.status).toBe(200);
    expect(readReply.raw).toContain("пост-A-подтверждён");
    // And the log holds both posts once each, A's first.
    const after = await onB(reader).get(`/api/games/${table.id}/posts?limit=500`);
    const texts = after.raw.match(/пост-[A-B][^"]*/g);
    expect(texts).toEqual(["пост-A-подтверждён", "пост-B"]);
  });
});
