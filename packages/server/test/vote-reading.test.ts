import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { PostView } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer } from "./harness.ts";
import { detail, expectOk, NICKS, setUpGame } from "./play.ts";

/**
 * V2 (issue 14): the server's game thread and the vote counter for other forums (`npm run votecount`,
 * served as /api/tools/votecount) read a vote in a post the same way: between the nick and
 * `КРАСНЫМ` may stand a line break, or one comma.
 */
const seat = (nick: string): number => NICKS.indexOf(nick);
const POSTS = [
  ["Маша", "Петя\nКРАСНЫМ"],
  ["Рома", "Петя, КРАСНЫМ"],
] as const;

describe("V2: one reading of votes in posts, through the server", () => {
  it('V2: "Петя\\nКРАСНЫМ" and "Петя, КРАСНЫМ" are red votes for Петя in a running game\'s day thread', async () => {
    const t = await testServer();
    try {
      // Маша and Рома are citizens in the hand deal (RULES.md §1's table).
      const g = await setUpGame(t, "automatic", { hand: [...DEFAULT_ROLES] });
      expectOk(await g.gm.post(`/api/games/${g.id}/gm/close`));
      for (const [nick, text] of POSTS)
        expectOk(await g.players[seat(nick)]!.post(`/api/games/${g.id}/posts`, { text }));
      const d = await detail(g.players[seat("Олег")]!, g.id);
      expect(d.view!.votes).toEqual(
        expect.arrayContaining([
          { seat: seat("Маша"), color: "red", target: seat("Петя"), early: false },
          { seat: seat("Рома"), color: "red", target: seat("Петя"), early: false },
        ]),
      );
      expect(d.view!.votes).toHaveLength(2);
      const posts = (await g.gm.get<{ posts: PostView[] }>(`/api/games/${g.id}/posts`)).body.posts;
      expect(posts.map((p) => p.vote?.color ?? null)).toEqual(["red", "red"]);
    } finally {
      await t.close();
    }
  });

  it('V2: "Петя\\nКРАСНЫМ" and "Петя, КРАСНЫМ" are red votes for Петя in the vote counter (/api/tools/votecount)', async () => {
    const t = await testServer();
    try {
      const anyone = new Client(() => t.server.app);
      const r = await anyone.post<{ votes: unknown[]; ignored: unknown[] }>("/api/tools/votecount", {
        players: "Маша\nПетя\nРома",
        thread: POSTS.map(([author, body]) => ({ author, time: "", body })),
      });
      expect(r.status).toBe(200);
      expect(r.body.votes).toEqual([
        { by: "Маша", red: "Петя", early: false, post: 0 },
        { by: "Рома", red: "Петя", early: false, post: 1 },
      ]);
      expect(r.body.ignored).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
