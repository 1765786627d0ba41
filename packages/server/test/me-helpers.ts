import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_ROLES } from "@forum-mafia/engine";
import type { MyGame, MyGames } from "@forum-mafia/protocol";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import type { Client, Reply } from "./client.ts";
import { FakeClock, serverOn, type TestServer } from "./harness.ts";
import { NICKS } from "./play.ts";

/**
 * Issue 15's tests: a server on a SQLite file whose store the test holds (to write a user's settings, or
 * read the read marks), and small calls the Client has no method for (PUT).
 */

/** RULES.md §1's table dealt by hand: Аня boss, Борис troll, … Лёва shahid, Маша … Рома citizens. */
export const HAND = { hand: [...DEFAULT_ROLES] };
export const seat = (nick: string): number => NICKS.indexOf(nick);

export interface StoreServer extends TestServer {
  readonly store: SqliteStore;
}

export async function storeServer(opts: { seed?: () => string } = {}): Promise<StoreServer> {
  const dir = mkdtempSync(join(tmpdir(), "fm-me-"));
  const file = join(dir, "forum-mafia.sqlite");
  const clock = new FakeClock();
  const store = new SqliteStore(file);
  const server = await serverOn(store, clock, { rateLimit: 0, ...(opts.seed ? { seed: opts.seed } : {}) });
  return {
    server,
    clock,
    dir,
    file,
    store,
    restart: () => Promise.reject(new Error("not restarted here")),
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A PUT with the client's session (the Client sends GET, POST, PATCH and DELETE). */
export async function put(t: TestServer, c: Client, url: string, body: unknown): Promise<Reply> {
  const res = await t.server.app.inject({
    method: "PUT",
    url,
    headers: { ...(c.cookie ? { cookie: c.cookie } : {}), "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
  c.seen.push(res.body);
  return { status: res.statusCode, body: JSON.parse(res.body) as unknown, raw: res.body };
}

export const myGames = async (c: Client): Promise<MyGames> => {
  const r = await c.get<MyGames>("/api/me/games");
  if (r.status !== 200) throw new Error(`GET /api/me/games: ${r.status} ${r.raw}`);
  return r.body;
};

/** The user's line for one game in «Мои игры», from whichever list holds it. */
export const myGame = async (c: Client, id: string): Promise<MyGame | undefined> => {
  const m = await myGames(c);
  return [...m.active, ...m.signups, ...m.hosting, ...m.finished].find((g) => g.id === id);
};
