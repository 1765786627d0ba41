import type { PostView } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { testServer } from "./harness.ts";
import { expectOk, setUpGame } from "./play.ts";

describe("a command the room cannot apply (a bug)", () => {
  it("answers 500, keeps nothing of it, and rebuilds the game from its log", async () => {
    const t = await testServer();
    try {
      const table = await setUpGame(t, "automatic");
      const [a, b] = table.players;
      expectOk(await a!.post(`/api/games/${table.id}/posts`, { text: "первый" }));
      const room = t.server.games.rooms.get(table.id)!;
      const apply = room.apply.bind(room);
      room.apply = (entry) => {
        if (entry.kind === "post") throw new Error("a planted bug");
        apply(entry);
      };
      const failed = await b!.post(`/api/games/${table.id}/posts`, { text: "второй" });
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({ error: { code: "internal", message: "internal error" } });
      expect(t.server.games.rooms.get(table.id)).not.toBe(room);
      expectOk(await b!.post(`/api/games/${table.id}/posts`, { text: "третий" }));
      const posts = (await a!.get<{ posts: PostView[] }>(`/api/games/${table.id}/posts`)).body.posts;
      expect(posts.map((p) => p.html)).toEqual(["первый", "третий"]);
      Object.assign(t, await t.restart()); // the clients follow t.server
      const again = (await a!.get<{ posts: PostView[] }>(`/api/games/${table.id}/posts`)).body.posts;
      expect(again.map((p) => p.html)).toEqual(["первый", "третий"]);
    } finally {
      await t.close();
    }
  });
});
