import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Entry } from "../src/entries.ts";
import Database from "better-sqlite3";
import { SQLITE_MIGRATIONS, SqliteStore } from "../src/sqlite-store.ts";
import { SeqConflict, type Store, type UserRecord } from "../src/store.ts";
import { createServer } from "../src/server.ts";
import { FakeClock } from "./harness.ts";
import { pgAvailable, pgSchema } from "./pg.ts";
import { playToEnd, setUpGame } from "./play.ts";

interface Backend {
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

const sqlite = async (): Promise<Backend> => {
  const dir = mkdtempSync(join(tmpdir(), "fm-store-"));
  return {
    open: async () => new SqliteStore(join(dir, "db.sqlite")),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
};
const postgres = async (): Promise<Backend> => {
  const s = await pgSchema();
  return { open: () => s.open(), cleanup: () => s.drop() };
};

const user = (id: string, nickKey: string): UserRecord => ({
  id,
  nick: nickKey,
  nickKey,
  passwordHash: "$argon2id$x",
  timeZone: "Europe/Moscow",
  lang: "ru",
  createdAt: 1,
});
const entry = (n: number): Entry => ({ at: n, kind: "signup", userId: `u${n}`, nick: `n${n}` });

const backends: [string, () => Promise<Backend>, boolean][] = [
  ["SQLite", sqlite, true],
  ["PostgreSQL", postgres, pgAvailable],
];

for (const [name, make, available] of backends) {
  describe.skipIf(!available)(`the ${name} store`, () => {
    it("keeps users unique by their nick key, and sessions until deleted", async () => {
      const b = await make();
      const s = await b.open();
      try {
        expect(await s.createUser(user("a", "вася"))).toBe("created");
        expect(await s.createUser(user("b", "вася"))).toBe("taken");
        expect((await s.userByNickKey("вася"))?.id).toBe("a");
        await s.updateUser("a", { timeZone: "Asia/Yekaterinburg" });
        expect((await s.userById("a"))?.timeZone).toBe("Asia/Yekaterinburg");
        await s.createSession("h", { userId: "a", expiresAt: 99 });
        expect(await s.session("h")).toEqual({ userId: "a", expiresAt: 99 });
        await s.deleteSession("h");
        expect(await s.session("h")).toBeNull();
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("appends a game's entries in order, refuses a stale sequence number, and keeps them across a reopen", async () => {
      const b = await make();
      let s = await b.open();
      try {
        await Promise.all([s.append("g1", 0, [entry(0), entry(1)]), s.append("g2", 0, [entry(5)])]);
        await s.append("g1", 2, [entry(2)]);
        await expect(s.append("g1", 2, [entry(9)])).rejects.toBeInstanceOf(SeqConflict);
        await expect(s.append("g1", 7, [entry(9)])).rejects.toBeInstanceOf(SeqConflict);
        await s.close();
        s = await b.open();
        expect(await s.gameIds()).toEqual(["g1", "g2"]);
        expect((await s.entries("g1")).map((e) => e.at)).toEqual([0, 1, 2]);
        expect((await s.loadAll()).map((g) => [g.id, g.entries.map((e) => e.at)])).toEqual([
          ["g1", [0, 1, 2]],
          ["g2", [5]],
        ]);
        await s.append("g1", 3, [entry(3)]);
        expect((await s.entries("g1")).length).toBe(4);
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("runs a whole game and rebuilds it after a restart", async () => {
      const b = await make();
      const clock = new FakeClock();
      let server = await createServer({ store: await b.open(), clock, rateLimit: 0 });
      const holder = { server, clock, dir: "", file: "", restart: async () => holder, close: async () => {} };
      try {
        const table = await setUpGame(holder, "automatic");
        await playToEnd(holder, table, 7, "automatic");
        await server.games.idle();
        const before = (await table.gm.get(`/api/games/${table.id}`)).body;
        await server.close();
        server = await createServer({ store: await b.open(), clock, rateLimit: 0 });
        holder.server = server;
        // PostgreSQL's jsonb may store an entry's keys in another order: compare values, not text.
        expect((await table.gm.get(`/api/games/${table.id}`)).body).toEqual(before);
      } finally {
        await server.close();
        await b.cleanup();
      }
    });
  });
}

describe("the SQLite schema", () => {
  it("migrates a version-1 file (the log clustered by game) to the append-ordered log, keeping every entry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fm-migrate-"));
    const file = join(dir, "db.sqlite");
    try {
      const old = new Database(file);
      old.exec(SQLITE_MIGRATIONS[0]!);
      old.pragma("user_version = 1");
      old.prepare(`INSERT INTO games (id, position) VALUES ('a', 0), ('b', 1)`).run();
      const put = old.prepare(`INSERT INTO game_entries (game_id, seq, body) VALUES (?, ?, ?)`);
      [
        ["b", 0],
        ["a", 0],
        ["a", 1],
        ["b", 1],
        ["a", 2],
      ].forEach(([g, n]) => put.run(g, n, JSON.stringify(entry(Number(n)))));
      old.close();
      const s = new SqliteStore(file);
      expect((await s.loadAll()).map((g) => [g.id, g.entries.map((e) => e.at)])).toEqual([
        ["a", [0, 1, 2]],
        ["b", [0, 1]],
      ]);
      await s.append("a", 3, [entry(3)]);
      await expect(s.append("b", 1, [entry(9)])).rejects.toBeInstanceOf(SeqConflict);
      await s.append("b", 2, [entry(2)]);
      expect((await s.entries("a")).map((e) => e.at)).toEqual([0, 1, 2, 3]);
      await s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
