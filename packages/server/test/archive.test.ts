import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { LiveServer, testServer, type TestServer } from "./harness.ts";
import { expectOk, NICKS, playToEnd, setUpGame } from "./play.ts";

/**
 * Issue 20, start-up at scale: a finished game is not rebuilt on start. The lobby lists it from the summary
 * kept when it ended; its room is built from its log the first time a request needs it. Every answer must be
 * what the server gave before the restart, byte for byte (the expected values are the answers of the same
 * server before it restarted, not something this code computes).
 */

/** The live server, with its current instance in reach (to close it by hand). */
class Live extends LiveServer {
  get current(): TestServer {
    return this.cur;
  }
  set current(t: TestServer) {
    this.cur = t;
  }
}

async function answers(
  guest: Client,
  player: Client,
  gm: Client,
  id: string,
  nick: string,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const read = async (who: string, c: Client, url: string): Promise<void> => {
    const r = await c.get(url);
    expectOk(r);
    out[`${who} ${url}`] = r.raw;
  };
  await read("guest", guest, "/api/games");
  await read("player", player, "/api/games");
  await read("gm", gm, "/api/games");
  await read("player", player, "/api/me/games");
  await read("gm", gm, "/api/me/games");
  await read("guest", guest, `/api/users/${encodeURIComponent(nick)}`);
  await read("guest", guest, `/api/games/${id}`);
  await read("player", player, `/api/games/${id}`);
  await read("guest", guest, `/api/games/${id}/posts`);
  await read("guest", guest, `/api/games/${id}/replay`);
  return out;
}

describe("a finished game after a restart (issue 20)", () => {
  it("is listed from its kept summary without its room, and built from its log when first needed, answering as before", async () => {
    const t0 = await testServer();
    const live = new Live(t0);
    const table = await setUpGame(live, "automatic");
    await playToEnd(live, table, 11, "automatic");
    // A second game still signing up: a live game is built on start as before.
    const other = new Client(() => live.server.app, "Второй ведущий");
    expectOk(await other.register());
    expectOk(
      await other.post("/api/games", {
        title: "Набор",
        night: { amount: 12, unit: "hours" },
        day: { amount: 24, unit: "hours" },
        mode: "automatic",
      }),
    );
    const guest = new Client(() => live.server.app);
    const player = table.players[3]!;
    const before = await answers(guest, player, table.gm, table.id, NICKS[3]!);

    await live.restart();
    const games = live.server.games;
    expect(games.rooms.has(table.id)).toBe(false);
    expect(games.rooms.size).toBe(1);
    // The lobby, as a guest: from the summary; the room is still not built.
    const lobby = await guest.get("/api/games");
    expect(lobby.raw).toBe(before["guest /api/games"]);
    expect(games.rooms.has(table.id)).toBe(false);

    const after = await answers(guest, player, table.gm, table.id, NICKS[3]!);
    expect(after).toEqual(before);
    expect(games.rooms.has(table.id)).toBe(true);
    await live.close();
  });

  it("a game that ended before its summary was kept is read once on start, and its summary kept then", async () => {
    const t0 = await testServer();
    const live = new Live(t0);
    const table = await setUpGame(live, "automatic");
    await playToEnd(live, table, 5, "automatic");
    const guest = new Client(() => live.server.app);
    const lobby = (await guest.get("/api/games")).raw;
    await live.current.server.close();
    // As a database from before issue 20 holds it: no summary.
    const db = new Database(live.current.file);
    db.prepare("UPDATE games SET meta = NULL").run();
    db.close();
    live.current = await testServer({ dir: live.current.dir, clock: live.current.clock });
    expect(live.server.games.rooms.has(table.id)).toBe(true);
    expect((await guest.get("/api/games")).raw).toBe(lobby);
    await live.server.games.idle();
    await live.restart();
    expect(live.server.games.rooms.has(table.id)).toBe(false);
    expect((await guest.get("/api/games")).raw).toBe(lobby);
    await live.close();
  });
});
