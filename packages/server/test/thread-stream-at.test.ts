import type { PostView } from "@forum-mafia/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { HAND, seat, storeServer, type StoreServer } from "./me-helpers.ts";
import { detail, expectOk, setUpGame } from "./play.ts";

/**
 * Issue 32: the game page fetches the thread alongside the detail. `GET /api/games/:id/posts?stream=1` says
 * where the asker's own stream stood when the page was read, so the page opens its stream at the earlier
 * of that and the detail's `streamAt` and misses nothing in between.
 */

let t: StoreServer | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

type Page = { posts: PostView[]; total: number; streamAt?: number };

describe("the thread's stream position (issue 32)", () => {
  it("?stream=1 gives the asker's stream length as the detail counts it, moving on with each post; without it, none", async () => {
    t = await storeServer();
    const g = await setUpGame(t, "automatic", HAND);
    const masha = g.players[seat("Маша")]!;
    const guest = new Client(() => t!.server.app);
    const page = async (c: Client, q = "&stream=1"): Promise<Page> => {
      const res = await c.get<Page>(`/api/games/${g.id}/posts?after=0&limit=500${q}`);
      expectOk(res);
      return res.body;
    };
    for (const c of [masha, g.gm, guest])
      expect((await page(c)).streamAt).toBe((await detail(c, g.id)).streamAt);
    const before = (await page(masha)).streamAt!;
    expectOk(await masha.post(`/api/games/${g.id}/posts`, { text: "Доброе утро" }));
    const after = await page(masha);
    // The post is one item of every reader's stream, and it is in the page read with it.
    expect(after.streamAt).toBe(before + 1);
    expect(after.posts.at(-1)!.html).toContain("Доброе утро");
    expect(after.streamAt).toBe((await detail(masha, g.id)).streamAt);
    // Asked for without it, the page is as before: the posts and the total alone.
    expect(Object.keys(await page(masha, ""))).toEqual(["posts", "total"]);
    expect((await masha.get(`/api/games/${g.id}/posts?stream=2`)).status).toBe(400);
  });
});
