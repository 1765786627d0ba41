import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SqliteStore } from "../src/stores/sqlite-store.ts";
import type { ConfirmQuota, MailRecord, Store, UserRecord } from "../src/stores/store.ts";
import { pgAvailable, pgSchema } from "./pg.ts";

/**
 * Issue 28: the limits on confirmation mails, in each store: counted per address (any user's, case ignored)
 * and per user within their windows, and checked with the insert as one step, so saves at the same time
 * on several instances queue no more than the limit.
 */

const HOUR = 3_600_000;
const QUOTA: ConfirmQuota = { perAddress: 1, addressWindowMs: HOUR, perUser: 3, userWindowMs: 24 * HOUR };

const user = (id: string): UserRecord => ({
  id,
  nick: id,
  nickKey: id,
  nickSkeleton: id,
  passwordHash: "$argon2id$x",
  timeZone: "Europe/Moscow",
  lang: "ru",
  createdAt: 1,
});

let n = 0;
const confirmation = (userId: string, to: string, createdAt: number): MailRecord => ({
  id: `m${++n}`,
  key: `confirm:${userId}:${n}`,
  userId,
  to,
  subject: "Подтвердите адрес",
  text: "ссылка",
  headers: {},
  createdAt,
  attempts: 0,
  nextAttemptAt: createdAt,
  sentAt: null,
  lastError: null,
  failed: false,
});

const backends: [
  string,
  () => Promise<{ open: () => Promise<Store>; cleanup: () => Promise<void> }>,
  boolean,
][] = [
  [
    "SQLite",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "fm-quota-"));
      return {
        open: async () => new SqliteStore(join(dir, "db.sqlite")),
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
    true,
  ],
  [
    "PostgreSQL",
    async () => {
      const s = await pgSchema();
      return { open: s.open, cleanup: s.drop };
    },
    pgAvailable,
  ],
];

for (const [name, make, available] of backends) {
  describe.skipIf(!available)(`the ${name} store's confirmation quota (issue 28)`, () => {
    it("one mail an hour per address, whoever asks, with the address's case ignored; three a day per user", async () => {
      const b = await make();
      const s = await b.open();
      try {
        for (const id of ["a", "b"]) await s.accounts.createUser(user(id));
        const t0 = 1_000_000;
        expect(await s.outbox.confirmationAllowedAt("a", "v@example.org", QUOTA, t0)).toBe(t0);
        expect(await s.outbox.enqueueConfirmation(confirmation("a", "v@example.org", t0), QUOTA)).toBe(
          "queued",
        );
        // The same address again, in other capitals, by the same user or another: not before the hour is out.
        expect(
          await s.outbox.enqueueConfirmation(confirmation("a", "V@Example.org", t0 + 10), QUOTA),
        ).toEqual({
          notBefore: t0 + HOUR,
        });
        expect(
          await s.outbox.enqueueConfirmation(confirmation("b", "v@example.org", t0 + 20), QUOTA),
        ).toEqual({
          notBefore: t0 + HOUR,
        });
        expect(await s.outbox.confirmationAllowedAt("b", "v@EXAMPLE.org", QUOTA, t0 + 30)).toBe(t0 + HOUR);
        expect((await s.outbox.mailFor("b")).length).toBe(0);
        // Other addresses for user a: three a day in all.
        expect(await s.outbox.enqueueConfirmation(confirmation("a", "w@example.org", t0 + 40), QUOTA)).toBe(
          "queued",
        );
        expect(await s.outbox.enqueueConfirmation(confirmation("a", "x@example.org", t0 + 50), QUOTA)).toBe(
          "queued",
        );
        expect(
          await s.outbox.enqueueConfirmation(confirmation("a", "y@example.org", t0 + 60), QUOTA),
        ).toEqual({
          notBefore: t0 + 24 * HOUR,
        });
        // Reminders do not count.
        const reminder = { ...confirmation("b", "z@example.org", t0 + 70), key: "remind:g:day1:b" };
        expect(await s.outbox.enqueueMail(reminder)).toBe("queued");
        expect(await s.outbox.confirmationAllowedAt("b", "z@example.org", QUOTA, t0 + 80)).toBe(t0 + 80);
        // Once the hour is out, the address may be sent to again.
        expect(await s.outbox.enqueueConfirmation(confirmation("b", "v@example.org", t0 + HOUR), QUOTA)).toBe(
          "queued",
        );
      } finally {
        await s.close();
        await b.cleanup();
      }
    });

    it("of 10 saves at once, on two connections to the store, one queues the mail", async () => {
      const b = await make();
      const one = await b.open();
      const two = await b.open();
      try {
        for (const id of ["a", "b"]) await one.accounts.createUser(user(id));
        const t0 = 5_000_000;
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? one : two).outbox.enqueueConfirmation(
              confirmation(i % 4 < 2 ? "a" : "b", "victim@example.org", t0 + i),
              QUOTA,
            ),
          ),
        );
        expect(outcomes.filter((o) => o === "queued").length).toBe(1);
        expect([...(await one.outbox.mailFor("a")), ...(await one.outbox.mailFor("b"))].length).toBe(1);
      } finally {
        await one.close();
        await two.close();
        await b.cleanup();
      }
    });
  });
}
