import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nickKey, nickSkeleton } from "@forum-mafia/forum";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { Entry } from "../src/log/entries.ts";
import { PG_MIGRATIONS, PgStore } from "../src/stores/pg-store.ts";
import { SQLITE_MIGRATIONS, SqliteStore } from "../src/stores/sqlite-store.ts";
import { S3_DEFAULTS } from "./play.ts";
import {
  SeqConflict,
  type MailRecord,
  type NotebookRecord,
  type SettingsRecord,
  type SetupRecord,
  type Store,
  type UserRecord,
} from "../src/stores/store.ts";
import { createServer } from "../src/server.ts";
import { FakeClock } from "./harness.ts";
import { PG_URL, pgAvailable, pgSchema } from "./pg.ts";
import { playToEnd, setUpGame } from "./play.ts";

interface Backend {
  open(): Promise<Store>;
  /** Write a database the way the version before nick skeletons (issue 11) did, holding these users. */
  openOld?(users: readonly OldUser[]): Promise<{ indexes(): Promise<string[]> }>;
  cleanup(): Promise<void>;
}

/** A user row as stored before the nick_skeleton column. */
type OldUser = Omit<UserRecord, "nickSkeleton">;
const oldRow = (u: OldUser): unknown[] => [
  u.id,
  u.nick,
  u.nickKey,
  u.passwordHash,
  u.timeZone,
  u.lang,
  u.createdAt,
];
const OLD_INSERT = `INSERT INTO users (id, nick, nick_key, password_hash, time_zone, lang, created_at)`;

const sqlite = async (): Promise<Backend> => {
  const dir = mkdtempSync(join(tmpdir(), "fm-store-"));
  const file = join(dir, "db.sqlite");
  const indexes = async (): Promise<string[]> => {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return (db.pragma("index_list(users)") as { name: string }[]).map((i) => i.name);
    } finally {
      db.close();
    }
  };
  return {
    open: async () => new SqliteStore(file),
    async openOld(users) {
      const old = new Database(file);
      old.exec(SQLITE_MIGRATIONS[0]!);
      old.exec(SQLITE_MIGRATIONS[1]!);
      old.pragma("user_version = 2");
      const put = old.prepare(`${OLD_INSERT} VALUES (?, ?, ?, ?, ?, ?, ?)`);
      for (const u of users) put.run(...oldRow(u));
      old.close();
      return { indexes };
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
};
const postgres = async (): Promise<Backend> => {
  const s = await pgSchema();
  // A second schema for the old database: pgSchema's name is its own.
  const old = `fm_test_old_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async <T>(run: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${old}` });
    await c.connect();
    try {
      return await run(c);
    } finally {
      await c.end();
    }
  };
  let usedOld = false;
  return {
    open: () =>
      usedOld ? PgStore.connect({ connectionString: PG_URL, options: `-c search_path=${old}` }) : s.open(),
    async openOld(users) {
      usedOld = true;
      await admin(async (c) => {
        await c.query(`CREATE SCHEMA ${old}`);
        await c.query(PG_MIGRATIONS[0] as string);
        await c.query(`CREATE TABLE fm_schema (version INTEGER NOT NULL); INSERT INTO fm_schema VALUES (1)`);
        for (const u of users) await c.query(`${OLD_INSERT} VALUES ($1, $2, $3, $4, $5, $6, $7)`, oldRow(u));
      });
      return {
        indexes: () =>
          admin(async (c) => {
            const r = await c.query<{ indexname: string }>(
              `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'users'`,
              [old],
            );
            return r.rows.map((row) => row.indexname);
          }),
      };
    },
    async cleanup() {
      await s.drop();
      if (usedOld) await admin((c) => c.query(`DROP SCHEMA ${old} CASCADE`));
    },
  };
};

const user = (id: string, nickKey: string, nickSkeleton = nickKey): UserRecord => ({
  id,
  nick: nickKey,
  nickKey,
  nickSkeleton,
  passwordHash: "$argon2id$x",
  timeZone: "Europe/Moscow",
  lang: "ru",
  createdAt: 1,
});
/** A user as the server makes one, from a nick. */
const person = (id: string, nick: string): UserRecord => ({
  ...user(id, nickKey(nick), nickSkeleton(nick)),
  nick,
});
const entry = (n: number): Entry => ({ at: n, kind: "signup", userId: `u${n}`, nick: `n${n}` });
/** What a start reads (Games.load): the games in creation order with their entry counts, then each log. */
const onStart = async (s: Store): Promise<[string, number, number[]][]> =>
  Promise.all(
    (await s.gameIndex()).map(async (g): Promise<[string, number, number[]]> => [
      g.id,
      g.seq,
      (await s.entriesFrom(g.id, 0)).map((e) => e.at),
    ]),
  );
const settings = (userId: string, change: Partial<SettingsRecord> = {}): SettingsRecord => ({
  userId,
  email: `${userId}@example.org`,
  emailConfirmed: false,
  emailReminders: true,
  before: ["2h", "15m"],
  quietHours: null,
  browserNotifications: false,
  confirmTokenHash: null,
  confirmExpiresAt: null,
  unsubscribeToken: `unsub-${userId}`,
  ...change,
});
const mail = (id: string, key: string, userId: string, change: Partial<MailRecord> = {}): MailRecord => ({
  id,
  key,
  userId,
  to: `${userId}@example.org`,
  subject: `Тема ${id}`,
  text: `Текст ${id}`,
  headers: { "List-Unsubscribe": `<https://x/api/mail/unsubscribe?token=${id}>` },
  createdAt: 100,
  attempts: 0,
  nextAttemptAt: 100,
  sentAt: null,
  lastError: null,
  failed: false,
  ...change,
});

/** Setups written out by hand (S3): a small one, and the classic 17 with a changed threshold. */
const SMALL = {
  roles: ["boss", "maniac", "sheriff", "doctor", "citizen", "citizen"],
  options: { ...S3_DEFAULTS, revealAbove: 4, strikes: "separate" },
} as const satisfies SetupRecord["setup"];
const CLASSIC = {
  roles: [
    ...["boss", "troll", "elf", "lawyer", "thug", "maniac", "sheriff", "sergeant", "doctor", "girl"],
    ...["prosecutor", "shahid", "citizen", "citizen", "citizen", "citizen", "citizen"],
  ],
  options: { ...S3_DEFAULTS, earlyFromDay: 2 },
} as const satisfies SetupRecord["setup"];
const saved = (id: string, name: string, setup: SetupRecord["setup"], at: number): SetupRecord => ({
  id,
  name,
  setup,
  at,
});

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
        expect(await s.accounts.createUser(user("a", "вася"))).toBe("created");
        expect(await s.accounts.createUser(user("b", "вася"))).toBe("taken");
        expect((await s.accounts.userByNickKey("вася"))?.id).toBe("a");
        await s.accounts.updateUser("a", { timeZone: "Asia/Yekaterinburg" });
        expect((await s.accounts.userById("a"))?.timeZone).toBe("Asia/Yekaterinburg");
        await s.accounts.createSession("h", { userId: "a", expiresAt: 99 });
        expect(await s.accounts.session("h")).toEqual({ userId: "a", expiresAt: 99 });
        await s.accounts.deleteSession("h");
        expect(await s.accounts.session("h")).toBeNull();
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("refuses a user whose nick skeleton another user has (issue 11), whatever the key", async () => {
      const b = await make();
      const s = await b.open();
      try {
        expect(await s.accounts.createUser(user("a", "ivan", "lvan"))).toBe("created");
        expect(await s.accounts.createUser(user("b", "lvan", "lvan"))).toBe("taken");
        expect(await s.accounts.createUser(user("c", "1van", "lvan"))).toBe("taken");
        expect(await s.accounts.createUser(user("d", "ivan", "other"))).toBe("taken"); // the key alone still counts
        expect(await s.accounts.createUser(user("e", "olga", "olga"))).toBe("created");
        expect(await s.accounts.userByNickKey("lvan")).toBeNull();
        expect(await s.accounts.userById("c")).toBeNull();
        expect((await s.accounts.userById("a"))?.nickSkeleton).toBe("lvan");
        expect((await s.accounts.userByNickKey("olga"))?.id).toBe("e");
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("lets exactly one of two look-alike nicks registered at the same time through", async () => {
      const b = await make();
      const s = await b.open();
      try {
        // Twenty-five races at once, each between two keys with one skeleton.
        const races = Array.from({ length: 25 }, (_, i) =>
          Promise.all([
            s.accounts.createUser(user(`a${i}`, `ivan${i}`, `lvan${i}`)),
            s.accounts.createUser(user(`b${i}`, `lvan${i}`, `lvan${i}`)),
          ]),
        );
        for (const outcome of await Promise.all(races))
          expect([...outcome].sort()).toEqual(["created", "taken"]);
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("gives the users of an old database their nick skeletons on open, keeping look-alike pairs it already holds", async () => {
      const b = await make();
      // Before issue 11 "Ivan" and "lvan" could both register: both stay, and both still log in.
      const old = ["Ivan", "lvan", "Вася"].map((nick, i): OldUser => {
        const { id, nickKey, passwordHash, timeZone, lang, createdAt } = person(`u${i}`, nick);
        return { id, nick, nickKey, passwordHash, timeZone, lang, createdAt };
      });
      const { indexes } = await b.openOld!(old);
      let s = await b.open();
      try {
        expect((await s.accounts.userByNickKey(nickKey("Ivan")))?.nickSkeleton).toBe("lvan");
        expect((await s.accounts.userByNickKey(nickKey("lvan")))?.nickSkeleton).toBe("lvan");
        expect((await s.accounts.userByNickKey(nickKey("Вася")))?.nickSkeleton).toBe("bacq");
        expect(await indexes()).toContain("users_nick_skeleton");
        expect(await s.accounts.createUser(person("n1", "1van"))).toBe("taken");
        expect(await s.accounts.createUser(person("n2", "Bася"))).toBe("taken");
        expect(await s.accounts.createUser(person("n3", "Bаня"))).toBe("created");
        await s.close();
        // Opened again, nothing is migrated twice.
        s = await b.open();
        expect((await s.accounts.userById("n3"))?.nickSkeleton).toBe("bahq");
        expect((await s.accounts.userById("u1"))?.nickSkeleton).toBe("lvan");
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
        expect((await s.entries("g1")).map((e) => e.at)).toEqual([0, 1, 2]);
        expect(await onStart(s)).toEqual([
          ["g1", 3, [0, 1, 2]],
          ["g2", 1, [5]],
        ]);
        await s.append("g1", 3, [entry(3)]);
        expect((await s.entries("g1")).length).toBe(4);
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("issue 20: indexes games with their entry count and meta, reads a log from a position, and lists the games changed since a cursor, across a reopen", async () => {
      const b = await make();
      let s = await b.open();
      try {
        expect(await s.gameIndex()).toEqual([]);
        expect(await s.changedSince(0)).toEqual({ cursor: 0, games: [] });
        await Promise.all([s.append("g1", 0, [entry(0), entry(1)]), s.append("g2", 0, [entry(5)])]);
        // Two appends of one game in the same turn (as Games pipelines them) both go through.
        await Promise.all([s.append("g1", 2, [entry(2)]), s.append("g1", 3, [entry(3), entry(4)])]);
        expect(await s.gameIndex()).toEqual([
          { id: "g1", seq: 5, meta: null },
          { id: "g2", seq: 1, meta: null },
        ]);
        expect((await s.entriesFrom("g1", 3)).map((e) => e.at)).toEqual([3, 4]);
        expect((await s.entriesFrom("g1", 0)).map((e) => e.at)).toEqual([0, 1, 2, 3, 4]);
        expect(await s.entriesFrom("g1", 5)).toEqual([]);
        expect(await s.entriesFrom("none", 0)).toEqual([]);

        const first = await s.changedSince(0);
        expect(first.games.map((g) => [g.id, g.seq])).toEqual([
          ["g1", 5],
          ["g2", 1],
        ]);
        expect(first.cursor).toBeGreaterThan(0);
        expect(await s.changedSince(first.cursor)).toEqual({ cursor: first.cursor, games: [] });
        await s.append("g2", 1, [entry(6)]);
        await s.saveGameMeta("g1", '{"ended":true}');
        const second = await s.changedSince(first.cursor);
        expect(second.games).toEqual([{ id: "g2", seq: 2, meta: null }]);
        expect(second.cursor).toBeGreaterThan(first.cursor);
        expect((await s.gameIndex())[0]).toEqual({ id: "g1", seq: 5, meta: '{"ended":true}' });
        await s.saveGameMeta("g1", "later");

        await s.close();
        s = await b.open();
        // After a restart: the same index, a cursor still good, and new changes counted past it.
        expect(await s.gameIndex()).toEqual([
          { id: "g1", seq: 5, meta: "later" },
          { id: "g2", seq: 2, meta: null },
        ]);
        expect((await s.changedSince(0)).games.map((g) => g.id)).toEqual(["g1", "g2"]);
        expect((await s.changedSince(second.cursor)).games).toEqual([]);
        await expect(s.append("g1", 4, [entry(9)])).rejects.toBeInstanceOf(SeqConflict);
        await Promise.all([s.append("g3", 0, [entry(7)]), s.append("g1", 5, [entry(8)])]);
        const third = await s.changedSince(second.cursor);
        expect(third.games.map((g) => [g.id, g.seq])).toEqual([
          ["g1", 6],
          ["g3", 1],
        ]);
        expect(third.cursor).toBeGreaterThan(second.cursor);
        expect((await s.entriesFrom("g1", 4)).map((e) => e.at)).toEqual([4, 8]);
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("issue 15: keeps settings, finds them by the confirmation token's hash and the unsubscribe token, and lists confirmed addresses", async () => {
      const b = await make();
      let s = await b.open();
      try {
        for (const id of ["a", "b", "c"]) await s.accounts.createUser(user(id, `nick-${id}`));
        expect(await s.accounts.settings("a")).toBeNull();
        const a = settings("a", {
          confirmTokenHash: "hash-a",
          confirmExpiresAt: 1_800_000_000_000,
          quietHours: { from: "23:00", to: "08:00" },
          before: ["90m"],
        });
        await s.accounts.saveSettings(a);
        await s.accounts.saveSettings(settings("b", { emailConfirmed: true, email: "Бета@example.org" }));
        await s.accounts.saveSettings(settings("c", { email: null, browserNotifications: true, before: [] }));
        expect(await s.accounts.settings("a")).toEqual(a);
        expect(await s.accounts.settingsByConfirmToken("hash-a")).toEqual(a);
        expect(await s.accounts.settingsByConfirmToken("hash-b")).toBeNull();
        expect((await s.accounts.settingsByUnsubscribeToken("unsub-c"))?.userId).toBe("c");
        expect(await s.accounts.settingsByUnsubscribeToken("unsub-x")).toBeNull();
        expect((await s.accounts.allSettings()).map((x) => x.userId)).toEqual(["b"]);
        // Confirming: the token is gone, the address confirmed; saving again replaces the row.
        await s.accounts.saveSettings({
          ...a,
          emailConfirmed: true,
          confirmTokenHash: null,
          confirmExpiresAt: null,
        });
        expect(await s.accounts.settingsByConfirmToken("hash-a")).toBeNull();
        expect((await s.accounts.allSettings()).map((x) => x.userId)).toEqual(["a", "b"]);
        // An unsubscribe token is one user's: another user cannot take it.
        await expect(
          s.accounts.saveSettings(settings("b", { unsubscribeToken: "unsub-a" })),
        ).rejects.toThrow();
        await s.close();
        s = await b.open();
        expect(await s.accounts.settings("b")).toEqual(
          settings("b", { emailConfirmed: true, email: "Бета@example.org" }),
        );
        expect(await s.accounts.settings("c")).toEqual(
          settings("c", { email: null, browserNotifications: true, before: [] }),
        );
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("issue 15: a read mark only moves forward, per user, game and place", async () => {
      const b = await make();
      let s = await b.open();
      try {
        for (const id of ["a", "b"]) await s.accounts.createUser(user(id, `nick-${id}`));
        expect(await s.accounts.readMarks("a", "g1")).toEqual({});
        await s.accounts.markRead("a", "g1", "thread", 5);
        await s.accounts.markRead("a", "g1", "thread", 3);
        await s.accounts.markRead("a", "g1", "mafia", 2);
        await s.accounts.markRead("a", "g2", "gm:4", 7);
        await s.accounts.markRead("b", "g1", "thread", 1);
        await Promise.all([
          s.accounts.markRead("a", "g1", "thread", 9),
          s.accounts.markRead("a", "g1", "thread", 6),
        ]);
        expect(await s.accounts.readMarks("a", "g1")).toEqual({ thread: 9, mafia: 2 });
        await s.close();
        s = await b.open();
        expect(await s.accounts.userReadMarks("a")).toEqual({
          g1: { thread: 9, mafia: 2 },
          g2: { "gm:4": 7 },
        });
        expect(await s.accounts.userReadMarks("b")).toEqual({ g1: { thread: 1 } });
        expect(await s.accounts.userReadMarks("c")).toEqual({});
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("issue 15: queues a mail once per key, hands out what is due oldest first, and keeps sent and failed marks", async () => {
      const b = await make();
      let s = await b.open();
      try {
        for (const id of ["a", "b"]) await s.accounts.createUser(user(id, `nick-${id}`));
        expect(await s.outbox.nextMailAt()).toBeNull();
        expect(await s.outbox.enqueueMail(mail("m1", "remind:g:night1:a", "a", { createdAt: 200 }))).toBe(
          "queued",
        );
        expect(await s.outbox.enqueueMail(mail("m2", "confirm:b:1", "b", { createdAt: 100 }))).toBe("queued");
        expect(
          await s.outbox.enqueueMail(
            mail("m3", "remind:g:day1:a", "a", { createdAt: 300, nextAttemptAt: 500 }),
          ),
        ).toBe("queued");
        // The same key again, even with another id and text: nothing is written.
        expect(await s.outbox.enqueueMail(mail("m4", "remind:g:night1:a", "a", { text: "другой" }))).toBe(
          "duplicate",
        );
        expect((await s.outbox.mailFor("a")).map((m) => [m.id, m.text])).toEqual([
          ["m1", "Текст m1"],
          ["m3", "Текст m3"],
        ]);
        expect(await s.outbox.nextMailAt()).toBe(100);
        expect((await s.outbox.dueMail(300, 10)).map((m) => m.id)).toEqual(["m2", "m1"]);
        expect((await s.outbox.dueMail(300, 1)).map((m) => m.id)).toEqual(["m2"]);
        expect((await s.outbox.dueMail(500, 10)).map((m) => m.id)).toEqual(["m2", "m1", "m3"]);
        await s.outbox.mailSent("m2", 310);
        await s.outbox.mailFailed("m1", {
          attempts: 1,
          nextAttemptAt: 400,
          lastError: "421 busy",
          failed: false,
        });
        expect((await s.outbox.dueMail(300, 10)).map((m) => m.id)).toEqual([]);
        expect(await s.outbox.nextMailAt()).toBe(400);
        await s.outbox.mailFailed("m3", {
          attempts: 10,
          nextAttemptAt: 900,
          lastError: "550 no",
          failed: true,
        });
        await s.close();
        s = await b.open();
        expect(await s.outbox.mailFor("b")).toEqual([mail("m2", "confirm:b:1", "b", { sentAt: 310 })]);
        expect(await s.outbox.mailFor("a")).toEqual([
          mail("m1", "remind:g:night1:a", "a", {
            createdAt: 200,
            attempts: 1,
            nextAttemptAt: 400,
            lastError: "421 busy",
          }),
          mail("m3", "remind:g:day1:a", "a", {
            createdAt: 300,
            attempts: 10,
            nextAttemptAt: 900,
            lastError: "550 no",
            failed: true,
          }),
        ]);
        expect(await s.outbox.nextMailAt()).toBe(400);
        expect((await s.outbox.dueMail(10_000, 10)).map((m) => m.id)).toEqual(["m1"]);
        expect(await s.outbox.enqueueMail(mail("m5", "confirm:b:1", "b"))).toBe("duplicate");
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("issue 17: keeps each user's saved setups, the last saved first; a name used again, in any case, replaces that setup and keeps its id", async () => {
      const b = await make();
      let s = await b.open();
      try {
        for (const id of ["a", "b"]) await s.accounts.createUser(user(id, `nick-${id}`));
        expect(await s.library.listSetups("a")).toEqual([]);
        expect(await s.library.saveSetup("a", saved("s1", "Малая", SMALL, 100), 50)).toEqual(
          saved("s1", "Малая", SMALL, 100),
        );
        await s.library.saveSetup("a", saved("s2", "Классика", CLASSIC, 200), 50);
        // Another user's setup of the same name is another setup.
        await s.library.saveSetup("b", saved("s3", "малая", CLASSIC, 150), 50);
        expect((await s.library.listSetups("a")).map((x) => x.id)).toEqual(["s2", "s1"]);
        // «МАЛАЯ» is «Малая» ignoring case (Cyrillic too): it replaces s1, keeps its id, and is now the last saved.
        expect(await s.library.saveSetup("a", saved("s4", "МАЛАЯ", CLASSIC, 300), 50)).toEqual(
          saved("s1", "МАЛАЯ", CLASSIC, 300),
        );
        expect(await s.library.listSetups("a")).toEqual([
          saved("s1", "МАЛАЯ", CLASSIC, 300),
          saved("s2", "Классика", CLASSIC, 200),
        ]);
        expect(await s.library.listSetups("b")).toEqual([saved("s3", "малая", CLASSIC, 150)]);
        await s.close();
        s = await b.open();
        expect(await s.library.listSetups("a")).toEqual([
          saved("s1", "МАЛАЯ", CLASSIC, 300),
          saved("s2", "Классика", CLASSIC, 200),
        ]);
        // Saved again under its name, the older one comes first again.
        await s.library.saveSetup("a", saved("s5", "классика", SMALL, 300), 50);
        expect((await s.library.listSetups("a")).map((x) => [x.id, x.name])).toEqual([
          ["s2", "классика"],
          ["s1", "МАЛАЯ"],
        ]);
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("issue 17: refuses a new name beyond the cap (a replacement still goes through), even when saves race; deletes only the user's own", async () => {
      const b = await make();
      let s = await b.open();
      try {
        for (const id of ["a", "b"]) await s.accounts.createUser(user(id, `nick-${id}`));
        await s.library.saveSetup("b", saved("other", "Чужая", SMALL, 1), 3);
        // Eight new names at once, three allowed: exactly three are saved, whatever the order.
        const outcomes = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            s.library.saveSetup("a", saved(`n${i}`, `Имя ${i}`, SMALL, 10 + i), 3),
          ),
        );
        expect(outcomes.filter((o) => o === "full").length).toBe(5);
        const kept = (await s.library.listSetups("a")).map((x) => x.id);
        expect(kept.length).toBe(3);
        expect(await s.library.saveSetup("a", saved("x", "Ещё одна", SMALL, 50), 3)).toBe("full");
        // At the cap, saving under a name the user has replaces it.
        const first = (await s.library.listSetups("a")).at(-1)!;
        expect(await s.library.saveSetup("a", saved("y", first.name.toUpperCase(), CLASSIC, 60), 3)).toEqual(
          saved(first.id, first.name.toUpperCase(), CLASSIC, 60),
        );
        // Two saves of one new name at once make one setup.
        expect(await s.library.deleteSetup("a", first.id)).toBe(true);
        const twice = await Promise.all([
          s.library.saveSetup("a", saved("t1", "Двойная", SMALL, 70), 3),
          s.library.saveSetup("a", saved("t2", "двойная", CLASSIC, 71), 3),
        ]);
        expect(twice.every((o) => o !== "full")).toBe(true);
        expect(
          (await s.library.listSetups("a")).filter((x) => x.name.toLowerCase() === "двойная").length,
        ).toBe(1);
        // A delete of another user's id, or of an id nobody has, changes nothing.
        expect(await s.library.deleteSetup("a", "other")).toBe(false);
        expect(await s.library.deleteSetup("a", "nobody")).toBe(false);
        expect(await s.library.listSetups("b")).toEqual([saved("other", "Чужая", SMALL, 1)]);
        const left = (await s.library.listSetups("a")).map((x) => x.id);
        expect(await s.library.deleteSetup("a", left[0]!)).toBe(true);
        expect(await s.library.deleteSetup("a", left[0]!)).toBe(false);
        await s.close();
        s = await b.open();
        expect((await s.library.listSetups("a")).map((x) => x.id)).toEqual(left.slice(1));
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("issue 18: keeps notebooks per owner under a cap, writes one only at the version read, lists the last changed first", async () => {
      const b = await make();
      let s = await b.open();
      const nb = (id: string, ownerId: string, at: number): NotebookRecord => ({
        id,
        ownerId,
        title: `Блокнот ${id}`,
        doc: JSON.stringify({ format: 1, id }),
        version: 1,
        createdAt: at,
        updatedAt: at,
        published: false,
      });
      try {
        for (const id of ["a", "b"]) await s.accounts.createUser(user(id, `nick-${id}`));
        // Five creations at once, three allowed: exactly three are stored.
        const outcomes = await Promise.all(
          Array.from({ length: 5 }, (_, i) => s.library.createNotebook(nb(`n${i}`, "a", 10 + i), 3)),
        );
        expect(outcomes.filter((o) => o === "full").length).toBe(2);
        expect(await s.library.createNotebook(nb("x", "b", 5), 3)).toBe("created");
        const mine = await s.library.listNotebooks("a");
        expect(mine.length).toBe(3);
        expect(mine.map((n) => n.updatedAt)).toEqual([...mine.map((n) => n.updatedAt)].sort((p, q) => q - p));
        const id = mine[2]!.id;
        // A write at the version read goes through once; the second at the same version is a lost race.
        const change = { title: "Новое", doc: '{"format":1}', updatedAt: 99, published: true };
        const race = await Promise.all([
          s.library.updateNotebook("a", id, 1, change),
          s.library.updateNotebook("a", id, 1, change),
        ]);
        expect(race.sort()).toEqual([false, true]);
        expect(await s.library.notebook(id)).toEqual({
          ...nb(id, "a", 0),
          ...change,
          version: 2,
          createdAt: mine[2]!.createdAt,
        });
        // Another owner can neither write nor delete it.
        expect(await s.library.updateNotebook("b", id, 2, change)).toBe(false);
        expect(await s.library.deleteNotebook("b", id)).toBe(false);
        expect((await s.library.listNotebooks("a"))[0]!.id).toBe(id);
        expect(await s.library.listNotebooks("b")).toEqual([nb("x", "b", 5)]);
        await s.close();
        s = await b.open();
        expect((await s.library.notebook(id))!.version).toBe(2);
        expect(await s.library.deleteNotebook("a", id)).toBe(true);
        expect(await s.library.deleteNotebook("a", id)).toBe(false);
        expect(await s.library.notebook(id)).toBeNull();
        expect(await s.library.notebook("nobody")).toBeNull();
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
      // Issue 20: each game's entry count is filled from its log, and every game counts as changed.
      expect(await s.gameIndex()).toEqual([
        { id: "a", seq: 3, meta: null },
        { id: "b", seq: 2, meta: null },
      ]);
      expect((await s.changedSince(0)).games.map((g) => g.id)).toEqual(["a", "b"]);
      expect(await onStart(s)).toEqual([
        ["a", 3, [0, 1, 2]],
        ["b", 2, [0, 1]],
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
