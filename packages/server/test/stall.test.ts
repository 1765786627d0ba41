import type { GameDetail, MyGames, StallView } from "@forum-mafia/protocol";
import { applyStreamItem, type StreamItem } from "@forum-mafia/protocol/stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { detail, expectOk, NIGHT_MS, setUpGame, SseStream, type Table } from "./play.ts";
import { FOUR, quietDay as day, quietNight as night } from "./quiet.ts";
import { seenBy } from "../src/views/seen.ts";
import { stallView } from "../src/views/readouts.ts";

/**
 * Issue 28: a real game can stall as bot games do. Three nights and three days in a row with no death, no
 * modkill and no hanging (public facts only, the engine's stallOf): the game detail says so to the GM, to
 * each player and to a guest alike, and so does «Мои игры»; a death ends it. A game with no human GM (a
 * demo) says that nobody can step in.
 */

let t: TestServer;
let table: Table;
let guest: Client;

const quietNight = (): Promise<void> => night(t, table);
const quietDay = (): Promise<void> => day(t, table);

beforeAll(async () => {
  t = await testServer();
  table = await setUpGame(t, "automatic", "random", FOUR);
  guest = new Client(() => t.server.app);
});
afterAll(async () => t.close());

/** The stall as the GM, each player and a guest see it in the detail; all must agree. */
async function stallsSeen(): Promise<(StallView | null)[]> {
  const details: GameDetail[] = [
    await detail(table.gm, table.id),
    ...(await Promise.all(table.players.map((p) => detail(p, table.id)))),
    await detail(guest, table.id),
  ];
  return details.map((d) => d.stall);
}

/** «Мои игры»: the stall on the game's card, for the GM (hosting) and each player (active). */
async function stallsInMyGames(): Promise<(StallView | null)[]> {
  const gm = (await table.gm.get<MyGames>("/api/me/games")).body.hosting.find((g) => g.id === table.id)!;
  const players = await Promise.all(
    table.players.map(async (p) =>
      (await p.get<MyGames>("/api/me/games")).body.active.find((g) => g.id === table.id)!,
    ),
  );
  return [gm, ...players].map((g) => g.stall);
}

describe("a stalled game (issue 28)", () => {
  it("F2, P3: after three nights and two days with no death nobody is told; after the third day everyone is, alike", async () => {
    for (let n = 1; n <= 2; n++) {
      await quietNight();
      await quietDay();
    }
    await quietNight();
    // Night 3 closed: three quiet nights, two quiet days: not yet.
    expect((await detail(table.gm, table.id)).view!.phase).toEqual({ kind: "day", number: 3 });
    expect(await stallsSeen()).toEqual(Array.from({ length: 6 }, () => null));
    expect(await stallsInMyGames()).toEqual(Array.from({ length: 5 }, () => null));

    // Issue 19: a guest's and a player's live streams carry the change; applied to the details they hold,
    // they give what a fresh detail gives.
    await t.server.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.server.app.server.address();
    const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    const player = table.players[0]!;
    const held = { guest: await detail(guest, table.id), player: await detail(player, table.id) };
    const streams = {
      guest: await SseStream.open(base, table.id, {
        cookie: null,
        label: "guest",
        after: held.guest.streamAt,
      }),
      player: await SseStream.open(base, table.id, {
        cookie: player.cookie,
        label: "player",
        after: held.player.streamAt,
      }),
    };

    await quietDay();
    const d = await detail(table.gm, table.id);
    expect(d.summary.status).toBe("running");
    expect(d.view!.results.every((r) => r.died.length === 0 && r.modkilled.length === 0)).toBe(true);
    // By hand: nights 1–3 and days 1–3 closed quiet, so the streak starts at night 1.
    const expected: StallView = { since: { kind: "night", number: 1 }, nights: 3, days: 3, humanGm: true };
    expect(await stallsSeen()).toEqual(Array.from({ length: 6 }, () => expected));
    expect(await stallsInMyGames()).toEqual(Array.from({ length: 5 }, () => expected));

    const stalledPhase = (e: { data: string }): boolean =>
      e.data.includes('"type":"phase"') && e.data.includes('"stall":{');
    for (const [who, client] of [
      ["guest", guest],
      ["player", player],
    ] as const) {
      const stream = streams[who];
      await stream.until(stalledPhase, "the phase item of night 4");
      let applied: GameDetail | null = held[who];
      for (const e of stream.events)
        applied =
          applied && applyStreamItem(applied, e.id, JSON.parse(e.data) as StreamItem, client.nick || null);
      expect(stream.reset).toBe(false);
      const fresh = await detail(client, table.id);
      expect(applied?.stall).toEqual(expected);
      expect(applied?.stall).toEqual(fresh.stall);
      expect(applied?.view?.phase).toEqual(fresh.view?.phase);
      stream.close();
    }
  });

  it("a demo game, which has no human GM, says nobody can step in (humanGm false)", async () => {
    const room = t.server.games.rooms.get(table.id)!;
    const pub = seenBy(room, { kind: "public" })!.publicView;
    expect(stallView(room, pub)).toEqual({
      since: { kind: "night", number: 1 },
      nights: 3,
      days: 3,
      humanGm: true,
    });
    // The same room read as a demo (issue 12's mark): the platform runs it alone.
    room.demo = true;
    try {
      expect(stallView(room, pub)?.humanGm).toBe(false);
      const card = (await table.players[0]!.get<MyGames>("/api/me/games")).body.active.find(
        (g) => g.id === table.id,
      )!;
      expect(card.stall?.humanGm).toBe(false);
    } finally {
      room.demo = false;
    }
  });

  it("F2, P3: a death ends the stall: the boss kills on night 4, and nobody is told any more", async () => {
    const boss = await (async () => {
      for (const p of table.players) if ((await detail(p, table.id)).form) return p;
      throw new Error("no boss");
    })();
    const d = await detail(boss, table.id);
    const victim = d.view!.seats.find((s) => s.alive && s.seat !== d.me.seat)!;
    expectOk(await boss.post(`/api/games/${table.id}/actions`, { act: "mafia", kill: [victim.seat] }));
    await t.clock.advance(NIGHT_MS);
    const after = await detail(table.gm, table.id);
    expect(after.view!.results.at(-1)!.died).toEqual([victim.seat]);
    expect(await stallsSeen()).toEqual(Array.from({ length: 6 }, () => null));
    expect(await stallsInMyGames()).toEqual(Array.from({ length: 5 }, () => null));
  });
});
