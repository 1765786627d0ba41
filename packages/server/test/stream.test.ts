import type { AddressInfo } from "node:net";
import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { FeedItem } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { testServer } from "./harness.ts";
import { expectOk, setUpGame, SseStream } from "./play.ts";

describe("the live stream", () => {
  it("sends each vote once, numbered 1…n, when many votes are stored in one commit; a reconnect sends the same", async () => {
    const t = await testServer();
    try {
      const table = await setUpGame(t, "automatic", { hand: [...DEFAULT_ROLES] });
      expectOk(await table.gm.post(`/api/games/${table.id}/gm/close`));
      await t.server.app.listen({ port: 0, host: "127.0.0.1" });
      const base = `http://127.0.0.1:${(t.server.app.server.address() as AddressInfo).port}`;
      const watcher = table.players[16]!;
      const live = await SseStream.open(base, table.id, { cookie: watcher.cookie, label: "live" });
      await live.until(() => true, "the backlog");
      const before = live.events.length;
      // Everyone but the watcher votes at once: the store commits them together (group commit).
      const voters = table.players.slice(0, 16);
      const replies = await Promise.all(
        voters.map((p, seat) =>
          p.post(`/api/games/${table.id}/votes`, { color: "red", target: (seat + 1) % 16 }),
        ),
      );
      const accepted = replies.filter((r) => r.status === 200).length;
      expect(accepted).toBeGreaterThan(10);
      const votes = (s: SseStream) =>
        s.events.filter(
          (e) => (JSON.parse(e.data) as FeedItem).type === "game" && e.data.includes('"voteCast"'),
        );
      await live.until(() => votes(live).length >= accepted, "every vote");
      live.close();
      expect(votes(live).length).toBe(accepted);
      expect(live.events.map((e) => e.id)).toEqual(live.events.map((_, i) => i + 1));
      expect(live.events.length).toBeGreaterThan(before);
      const again = await SseStream.open(base, table.id, { cookie: watcher.cookie, label: "again" });
      await again.until((e) => e.id === live.events.length, "the same backlog");
      again.close();
      expect(again.events.map((e) => e.data)).toEqual(live.events.map((e) => e.data));
    } finally {
      await t.close();
    }
  });
});
