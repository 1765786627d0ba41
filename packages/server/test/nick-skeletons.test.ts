import { nickKey, nickSkeleton } from "@forum-mafia/forum";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SQLITE_MIGRATIONS } from "../src/stores/sqlite-store.ts";
import { PG_MIGRATIONS } from "../src/stores/pg-store.ts";
import type { Store, UserRecord } from "../src/stores/store.ts";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { PG_URL, pgAvailable, pgSchema } from "./pg.ts";

/**
 * Issue 28: look-alike nicks that differ by more than one character (a letter drawn with several: "Ш" as
 * "LLI", "Ю" as "IO"), on the registration route, and the skeletons an older database keeps.
 */

const PASSWORD = "correct horse battery";
type ErrorBody = { error: { code: string; message: string } };

describe("look-alike nicks of more than one character (issue 28): one of a pair registers", () => {
  let t: TestServer;
  const client = (): Client => new Client(() => t.server.app, "");
  beforeAll(async () => {
    t = await testServer();
  });
  afterAll(() => t.close());

  const pairs = [
    ["Шум", "LLIум"],
    ["Юля", "IOля"],
    ["Ваня", "Ванq"],
    ["Red", "Recl"], // d drawn as cl (a nick has 2 characters at least)
    ["Owl", "Ovvl"], // w drawn as vv
    ["Zoya", "3oya"],
    ["Шура", "IIIура"],
    ["Лена", "JIена"],
    ["Сыр", "CbIр"],
    ["Dima", "clima"],
  ] as const;

  it.each(pairs)("«%s» registers, and then «%s» gets 409 nick-taken", async (first, second) => {
    expect((await client().register(first)).status).toBe(201);
    const r = await client().register(second);
    expect(r.status, second).toBe(409);
    const { error } = r.body as ErrorBody;
    expect(error.code).toBe("nick-taken");
    expect(error.message).toContain("too similar to a taken nick");
    expect((await client().post("/api/login", { nick: second, password: PASSWORD })).status).toBe(401);
  });

  it("the other way round too: «LLIум» first, then «Шум» is refused", async () => {
    expect((await client().register("LLIапка")).status).toBe(201);
    expect((await client().register("Шапка")).status).toBe(409);
  });

  it("names of the community that only look a little alike both register: Ваня and Васа, Юля and Юра, Зоя and Зина, Лена and Лина", async () => {
    for (const nick of ["Васа", "Юра", "Зоя", "Зина", "Лина", "Tim", "Тим"])
      expect((await client().register(nick)).status, nick).toBe(201);
  });
});

/** A user as the server makes one. */
const person = (id: string, nick: string): UserRecord => ({
  id,
  nick,
  nickKey: nickKey(nick),
  nickSkeleton: nickSkeleton(nick),
  passwordHash: "$argon2id$x",
  timeZone: "Europe/Moscow",
  lang: "ru",
  createdAt: 1,
});

/** The skeletons the version before issue 28 stored for these nicks. */
const STALE: readonly (readonly [string, string])[] = [
  ["Шум", "шyrn"],
  ["Юля", "юля"],
];

interface Backend {
  /** A database at the schema version before issue 28's, whose users hold stale skeletons. */
  openStale(): Promise<Store>;
  cleanup(): Promise<void>;
}

const sqlite = async (): Promise<Backend> => {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { SqliteStore } = await import("../src/stores/sqlite-store.ts");
  const dir = mkdtempSync(join(tmpdir(), "fm-skeleton-"));
  const file = join(dir, "db.sqlite");
  return {
    async openStale() {
      const s = new SqliteStore(file);
      for (const [i, [nick]] of STALE.entries()) await s.accounts.createUser(person(`u${i}`, nick));
      await s.close();
      const db = new Database(file);
      const put = db.prepare(`UPDATE users SET nick_skeleton = ? WHERE nick = ?`);
      for (const [nick, stale] of STALE) put.run(stale, nick);
      db.exec(`DROP INDEX mail_outbox_recipient`);
      db.pragma(`user_version = ${SQLITE_MIGRATIONS.indexOf(ISSUE_28_SQLITE)}`);
      db.close();
      return new SqliteStore(file);
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
};

const postgres = async (): Promise<Backend> => {
  const schema = await pgSchema();
  return {
    async openStale() {
      const s = await schema.open();
      for (const [i, [nick]] of STALE.entries()) await s.accounts.createUser(person(`u${i}`, nick));
      await s.close();
      const c = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema.name}` });
      await c.connect();
      try {
        for (const [nick, stale] of STALE)
          await c.query(`UPDATE users SET nick_skeleton = $1 WHERE nick = $2`, [stale, nick]);
        await c.query(`DROP INDEX mail_outbox_recipient`);
        await c.query(`UPDATE fm_schema SET version = $1`, [PG_MIGRATIONS.indexOf(ISSUE_28_PG)]);
      } finally {
        await c.end();
      }
      return schema.open();
    },
    cleanup: () => schema.drop(),
  };
};

/** Issue 28's migration in each store: the one that works the skeletons out again. */
const ISSUE_28_SQLITE = SQLITE_MIGRATIONS.find((m) => m.includes("mail_outbox_recipient"))!;
const ISSUE_28_PG = PG_MIGRATIONS.find(
  (m) => typeof m !== "string" && m.toString().includes("mail_outbox_recipient"),
)!;

const backends: [string, () => Promise<Backend>, boolean][] = [
  ["SQLite", sqlite, true],
  ["PostgreSQL", postgres, pgAvailable],
];

for (const [name, make, available] of backends) {
  describe.skipIf(!available)(`the ${name} store (issue 28)`, () => {
    it("works every user's skeleton out again on open, so a look-alike of an older user's nick is refused", async () => {
      expect(ISSUE_28_SQLITE).toBeDefined();
      expect(ISSUE_28_PG).toBeDefined();
      const b = await make();
      const s = await b.openStale();
      try {
        expect((await s.accounts.userById("u0"))?.nickSkeleton).toBe("lllyrn");
        expect((await s.accounts.userById("u1"))?.nickSkeleton).toBe("lojlq");
        expect(await s.accounts.createUser(person("n1", "LLIум"))).toBe("taken");
        expect(await s.accounts.createUser(person("n2", "IOля"))).toBe("taken");
        expect(await s.accounts.createUser(person("n3", "Юра"))).toBe("created");
      } finally {
        await s.close();
        await b.cleanup();
      }
    });
  });
}
