import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { GameDetail } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { testServer } from "./harness.ts";
import { expectOk, setUpGame } from "./play.ts";

/**
 * Issue 19: a game's detail is serialised once per change and view, and a guest's is compressed once per
 * change: what a reader gets must never be stale, nor another viewer's.
 */
describe("the detail kept between changes (issue 19)", () => {
  it("a guest's compressed detail equals the plain one, follows every change, and is never a player's", async () => {
    const t = await testServer();
    try {
      const table = await setUpGame(t, "automatic", { hand: [...DEFAULT_ROLES] });
      expectOk(await table.gm.post(`/api/games/${table.id}/gm/close`));
      const get = async (encoding: string | null, cookie: string | null = null): Promise<GameDetail> => {
        const res = await t.server.app.inject({
          method: "GET",
          url: `/api/games/${table.id}`,
          headers: {
            ...(encoding ? { "accept-encoding": encoding } : {}),
            ...(cookie ? { cookie } : {}),
          },
        });
        expect(res.statusCode).toBe(200);
        const used = res.headers["content-encoding"];
        const raw = res.rawPayload;
        const text =
          used === "br"
            ? brotliDecompressSync(raw).toString("utf8")
            : used === "gzip"
              ? gunzipSync(raw).toString("utf8")
              : raw.toString("utf8");
        if (encoding === "br") expect(used).toBe("br");
        if (encoding === "gzip") expect(used).toBe("gzip");
        return JSON.parse(text) as GameDetail;
      };
      const plain = await get(null);
      expect(await get("br")).toEqual(plain);
      expect(await get("gzip, deflate")).toEqual(plain);
      expect(plain.me).toEqual({ kind: "none", seat: null });
      // A vote: every guest's next answer shows it, compressed or not.
      expectOk(await table.players[0]!.post(`/api/games/${table.id}/votes`, { color: "red", target: 1 }));
      const after = await get("br");
      expect(after.view!.votes).toEqual([{ seat: 0, color: "red", target: 1, early: false }]);
      expect(after.streamAt).toBeGreaterThan(plain.streamAt);
      expect(await get(null)).toEqual(after);
      // A player's answer is the player's own, not the guests' kept one.
      const mine = await get("br", table.players[3]!.cookie);
      expect(mine.me).toEqual({ kind: "player", seat: 3 });
      expect(mine.roleCard).not.toBeNull();
      expect((await get("br")).roleCard).toBeNull();
    } finally {
      await t.close();
    }
  });
});
