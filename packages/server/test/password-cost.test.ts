import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nickKey } from "@forum-mafia/forum";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { PASSWORD_COST, TEST_PASSWORD_COST } from "../src/accounts/auth.ts";
import { createServer, productionOptions, type Server } from "../src/server.ts";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import { Client } from "./client.ts";
import { FakeClock, testServer } from "./harness.ts";

/**
 * Issue 29: tests hash their users' passwords at a cheap argon2 cost, passed in code by the harness; the
 * production start (bin/start.ts, through productionOptions) refuses it and hashes at the production cost.
 * The expected parameters are written by hand: @node-rs/argon2's documented defaults (argon2id, m=19456 KiB,
 * t=2, p=1), which production has always used, and argon2's least (m=8 KiB, t=1) for tests.
 */

const PASSWORD = "correct horse battery";
const PRODUCTION_PREFIX = "$argon2id$v=19$m=19456,t=2,p=1$";
const CHEAP_PREFIX = "$argon2id$v=19$m=8,t=1,p=1$";

const dirs: string[] = [];
const tempFile = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "fm-cost-"));
  dirs.push(dir);
  return join(dir, "forum-mafia.sqlite");
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const hashOf = async (store: SqliteStore, nick: string): Promise<string> =>
  (await store.accounts.userByNickKey(nickKey(nick)))!.passwordHash;

describe("argon2's cost: cheap in tests, refused in production", () => {
  it("productionOptions (bin/start.ts) refuses a cost below the production one, and keeps the rest", () => {
    const store = new SqliteStore(tempFile());
    try {
      expect(() => productionOptions({ store, passwordCost: TEST_PASSWORD_COST })).toThrow(
        /passwordCost: m=8,t=1,p=1 is below the production cost m=19456,t=2,p=1/,
      );
      // Each of the three below production's is refused alone.
      for (const cost of [
        { memoryCost: 19_455, timeCost: 2, parallelism: 1 },
        { memoryCost: 19_456, timeCost: 1, parallelism: 1 },
        { memoryCost: 19_456, timeCost: 2, parallelism: 0 },
      ])
        expect(() => productionOptions({ store, passwordCost: cost })).toThrow(/below the production cost/);
      const plain = { store, rateLimit: 5 };
      expect(productionOptions(plain)).toBe(plain);
      expect(productionOptions({ store, passwordCost: PASSWORD_COST }).passwordCost).toBe(PASSWORD_COST);
    } finally {
      void store.close();
    }
  });

  it("a production server hashes at m=19456, t=2, p=1; a test server at m=8, t=1; both hashes verify on both", async () => {
    const file = tempFile();
    const clock = new FakeClock();
    const open = async (cheap: boolean): Promise<{ server: Server; store: SqliteStore }> => {
      const store = new SqliteStore(file);
      const opts = { store, clock, rateLimit: 0 };
      const server = await createServer(
        cheap ? { ...opts, passwordCost: TEST_PASSWORD_COST } : productionOptions(opts),
      );
      return { server, store };
    };
    const login = (server: Server, nick: string, password: string): Promise<number> =>
      new Client(() => server.app).post("/api/login", { nick, password }).then((r) => r.status);

    // Production's cost, as bin/start.ts builds its server.
    let s = await open(false);
    expect((await new Client(() => s.server.app, "Прод").register()).status).toBe(201);
    expect((await hashOf(s.store, "Прод")).slice(0, PRODUCTION_PREFIX.length)).toBe(PRODUCTION_PREFIX);
    await s.server.close();

    // The tests' cost, on the same database: a cheap hash for the new user, and the old one still verifies.
    s = await open(true);
    expect((await new Client(() => s.server.app, "Тест").register()).status).toBe(201);
    expect((await hashOf(s.store, "Тест")).slice(0, CHEAP_PREFIX.length)).toBe(CHEAP_PREFIX);
    expect(await login(s.server, "Тест", PASSWORD)).toBe(200);
    expect(await login(s.server, "Тест", "wrong horse battery")).toBe(401);
    expect(await login(s.server, "Прод", PASSWORD)).toBe(200);
    await s.server.close();

    // Back at production's cost: the hash made at the cheap cost verifies (a hash carries its own cost).
    s = await open(false);
    expect(await login(s.server, "Тест", PASSWORD)).toBe(200);
    expect(await login(s.server, "Тест", "wrong horse battery")).toBe(401);
    expect(await login(s.server, "Прод", PASSWORD)).toBe(200);
    await s.server.close();
  });

  it("the test harness's servers hash at the cheap cost", async () => {
    const t = await testServer();
    try {
      expect((await new Client(() => t.server.app, "Гость").register()).status).toBe(201);
      const db = new Database(t.file, { readonly: true, fileMustExist: true });
      try {
        const row = db.prepare("SELECT password_hash FROM users WHERE nick = ?").get("Гость") as {
          password_hash: string;
        };
        expect(row.password_hash.slice(0, CHEAP_PREFIX.length)).toBe(CHEAP_PREFIX);
      } finally {
        db.close();
      }
    } finally {
      await t.close();
    }
  });
});
