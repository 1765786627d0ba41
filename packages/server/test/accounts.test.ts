import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import type { UserView } from "@forum-mafia/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { expectOk } from "./play.ts";

/**
 * Accounts (issue 3): register, log in, log out; nicks unique ignoring case, ё/е and Latin/Cyrillic
 * look-alikes; argon2id hashes; httpOnly SameSite session cookies; a time zone per profile (Moscow by
 * default); rate limits on the auth routes.
 */

const PASSWORD = "correct horse battery";
type ErrorBody = { error: { code: string; message: string } };
type Me = { user: UserView };

/** Read the database file through a second, read-only connection. */
function query<T>(t: TestServer, sql: string, ...args: unknown[]): T[] {
  const db = new Database(t.file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

const userCount = (t: TestServer): number => query<{ n: number }>(t, `SELECT COUNT(*) AS n FROM users`)[0]!.n;

describe("accounts", () => {
  let t: TestServer;
  const client = (nick = ""): Client => new Client(() => t.server.app, nick);
  beforeAll(async () => {
    t = await testServer();
  });
  afterAll(() => t.close());

  it("registers, logs out, and logs in again", async () => {
    const c = client("Тоня");
    const reg = await c.register();
    expect(reg.status).toBe(201);
    expect((reg.body as Me).user).toMatchObject({ nick: "Тоня", timeZone: "Europe/Moscow", lang: "ru" });
    expect(c.cookie).toMatch(/^fm_session=/);
    expect((await c.get<Me>("/api/me")).body.user.nick).toBe("Тоня");

    const old = c.cookie!;
    expectOk(await c.post("/api/logout"));
    expect(c.cookie).toBeNull();
    // A guest is answered, not refused (issue 12: no 401 in a guest's console).
    expect((await c.get("/api/me")).body).toEqual({ user: null });
    // The old token is gone from the server, not only from the browser.
    const stale = client();
    stale.cookie = old;
    expect((await stale.get("/api/me")).body).toEqual({ user: null });
    expect((await stale.post<ErrorBody>("/api/games", {})).body.error.code).toBe("unauthenticated");

    const login = await c.post<Me>("/api/login", { nick: "Тоня", password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.user.nick).toBe("Тоня");
    expect((await c.get<Me>("/api/me")).body.user.nick).toBe("Тоня");
  });

  it("refuses a wrong password and an unknown nick alike, without a session", async () => {
    expectOk(await client("Лиза").register());
    for (const [nick, password] of [
      ["Лиза", "wrong password"],
      ["Никтошкин", PASSWORD],
    ]) {
      const c = client();
      const r = await c.post<ErrorBody>("/api/login", { nick, password });
      expect(r.status).toBe(401);
      expect(r.body.error).toEqual({ code: "bad-credentials", message: "wrong nick or password" });
      expect(c.cookie).toBeNull();
    }
  });

  it("refuses a bad nick or a short password, naming it, and creates no user", async () => {
    const before = userCount(t);
    for (const [nick, password, field] of [
      ["В", PASSWORD, "nick"],
      ["Київ", PASSWORD, "nick"],
      ["_Вася", PASSWORD, "nick"],
      ["Нормальный", "short", "password"],
    ] as const) {
      const r = await client().post<ErrorBody>("/api/register", { nick, password });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain(field);
    }
    expect(userCount(t)).toBe(before);
  });

  describe("nicks are unique ignoring case, ё/е and look-alike letters", () => {
    it("«Вася», «ВАСЯ», «вася» and «Bася» (Latin B) are one nick", async () => {
      expect((await client().register("Вася")).status).toBe(201);
      const before = userCount(t);
      for (const nick of ["ВАСЯ", "вася", "Bася", "BACЯ", " Вася "]) {
        const r = await client().register(nick);
        expect(r.status, nick).toBe(409);
        expect((r.body as ErrorBody).error.code).toBe("nick-taken");
        expect((r.body as ErrorBody).error.message).toContain("nick");
      }
      expect(userCount(t)).toBe(before);
    });

    it("«Ёжик» and «Ежик» are one nick", async () => {
      expect((await client().register("Ёжик")).status).toBe(201);
      expect((await client().register("Ежик")).status).toBe(409);
      expect((await client().register("ЕЖИК")).status).toBe(409);
    });

    it("logging in with any spelling of the nick finds the one account", async () => {
      for (const nick of ["ВАСЯ", "Bася", "вася"]) {
        const r = await client().post<Me>("/api/login", { nick, password: PASSWORD });
        expect(r.status).toBe(200);
        expect(r.body.user.nick).toBe("Вася");
      }
    });

    it("different nicks stay different", async () => {
      expect((await client().register("Вася2")).status).toBe(201);
      expect((await client().register("Ваня")).status).toBe(201);
    });
  });

  describe("look-alike nicks (issue 11): one of a pair registers, the other is refused", () => {
    const pairs = [
      ["Ivan", "lvan"], // capital I and small l
      ["Olga", "0lga"], // the digit 0
      ["Roman", "Rornan"], // r and n for m
      ["nina", "пina"], // Cyrillic п
      ["rita", "гita"], // Cyrillic г
      ["bob", "ьоь"], // Cyrillic ь, о, ь
    ] as const;

    it.each(pairs)("«%s» registers, and then «%s» gets 409 nick-taken", async (first, second) => {
      expect((await client().register(first)).status).toBe(201);
      const before = userCount(t);
      const r = await client().register(second);
      expect(r.status, second).toBe(409);
      const { error } = r.body as ErrorBody;
      expect(error.code).toBe("nick-taken");
      expect(error.message).toContain("too similar to a taken nick");
      // The answer names only the nick asked for, never the account it looks like.
      expect(error.message).not.toContain(first);
      expect(userCount(t)).toBe(before);
      // The first still logs in, and the second's spelling finds no account.
      const login = await client().post<Me>("/api/login", { nick: first, password: PASSWORD });
      expect(login.status).toBe(200);
      expect(login.body.user.nick).toBe(first);
      expect((await client().post("/api/login", { nick: second, password: PASSWORD })).status).toBe(401);
    });

    it("«Иван» and «Ивар», «Маша» and «Миша», «Roma» and «Roman» are different nicks", async () => {
      for (const nick of ["Иван", "Ивар", "Маша", "Миша", "Roma"]) {
        expect((await client().register(nick)).status, nick).toBe(201);
      }
    });
  });

  it("stores the password as an argon2id hash, and the session only as the token's SHA-256", async () => {
    const res = await t.server.app.inject({
      method: "POST",
      url: "/api/register",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ nick: "Хэш", password: PASSWORD }),
    });
    expect(res.statusCode).toBe(201);
    const [row] = query<{ id: string; password_hash: string }>(
      t,
      `SELECT id, password_hash FROM users WHERE nick = ?`,
      "Хэш",
    );
    expect(row!.password_hash.startsWith("$argon2id$")).toBe(true);
    expect(row!.password_hash).not.toContain(PASSWORD);

    const token = decodeURIComponent(String(res.headers["set-cookie"]).split(";")[0]!.split("=")[1]!);
    const sessions = query<{ token_hash: string }>(
      t,
      `SELECT token_hash FROM sessions WHERE user_id = ?`,
      row!.id,
    );
    expect(sessions.map((s) => s.token_hash)).toEqual([createHash("sha256").update(token).digest("hex")]);
  });

  it("sets the session cookie HttpOnly, SameSite=Lax, for the whole site, for 30 days", async () => {
    for (const [url, nick] of [
      ["/api/register", "Кука"],
      ["/api/login", "Кука"],
    ]) {
      const res = await t.server.app.inject({
        method: "POST",
        url,
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({ nick, password: PASSWORD }),
      });
      expect(res.statusCode).toBeLessThan(300);
      const cookie = String(res.headers["set-cookie"]);
      const parts = cookie.split(/;\s*/).map((p) => p.toLowerCase());
      expect(parts[0]).toMatch(/^fm_session=[\w-]{40,}$/);
      expect(parts).toContain("httponly");
      expect(parts).toContain("samesite=lax");
      expect(parts).toContain("path=/");
      expect(parts).toContain(`max-age=${30 * 86_400}`);
    }
  });

  describe("time zones", () => {
    it("a profile's time zone is Moscow by default; PATCH /api/me changes it", async () => {
      const c = client("Часовщик");
      expect(((await c.register()).body as Me).user.timeZone).toBe("Europe/Moscow");
      const r = await c.req<Me>("PATCH", "/api/me", { timeZone: "Asia/Vladivostok" });
      expect(r.status).toBe(200);
      expect(r.body.user.timeZone).toBe("Asia/Vladivostok");
      expect((await c.get<Me>("/api/me")).body.user.timeZone).toBe("Asia/Vladivostok");
      // A game takes its GM's time zone for the daily deadline.
      const created = await c.post<{ id: string }>("/api/games", {
        title: "Игра во Владивостоке",
        night: { amount: 12, unit: "hours" },
        day: { amount: 24, unit: "hours" },
        dayDeadline: "22:00",
        mode: "review",
      });
      expect(created.status).toBe(201);
      const game = await c.get<{ settings: { timeZone: string } }>(`/api/games/${created.body.id}`);
      expect(game.body.settings.timeZone).toBe("Asia/Vladivostok");
    });

    it("an unknown time zone is refused, naming timeZone, and changes nothing", async () => {
      const c = client("Путник");
      await c.register();
      for (const timeZone of ["Mars/Olympus_Mons", "MSK+3", ""]) {
        const r = await c.req<ErrorBody>("PATCH", "/api/me", { timeZone });
        expect(r.status).toBe(400);
        expect(r.body.error.message).toContain("timeZone");
      }
      expect((await c.get<Me>("/api/me")).body.user.timeZone).toBe("Europe/Moscow");
      const before = userCount(t);
      const r = await client().post<ErrorBody>("/api/register", {
        nick: "Марсианин",
        password: PASSWORD,
        timeZone: "Mars/Olympus_Mons",
      });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain("timeZone");
      expect(userCount(t)).toBe(before);
    });

    it("a time zone given at registration is kept; the language can be changed", async () => {
      const c = client("Сибиряк");
      const r = await c.post<Me>("/api/register", {
        nick: "Сибиряк",
        password: PASSWORD,
        timeZone: "Asia/Novosibirsk",
      });
      expect(r.body.user.timeZone).toBe("Asia/Novosibirsk");
      expect((await c.req<Me>("PATCH", "/api/me", { lang: "en" })).body.user).toMatchObject({
        timeZone: "Asia/Novosibirsk",
        lang: "en",
      });
    });

    it("PATCH /api/me refuses unknown fields and needs a session", async () => {
      const c = client("Хитрец");
      await c.register();
      const r = await c.req<ErrorBody>("PATCH", "/api/me", { nick: "Админ" });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain(`"nick"`);
      expect((await c.get<Me>("/api/me")).body.user.nick).toBe("Хитрец");
      expect((await client().req("PATCH", "/api/me", { timeZone: "Europe/Moscow" })).status).toBe(401);
    });
  });
});

describe("rate limits", () => {
  // testServer({ rateLimit: 20 }): 20 requests a minute per user (or address); the auth routes get a
  // tenth of it, at least 5. Each test has its own server, so each starts with a full allowance.
  const limited = async (): Promise<TestServer> => {
    const t = await testServer({ rateLimit: 20 });
    expectOk(await new Client(() => t.server.app, "Взломщик").register());
    return t;
  };
  const login = (t: TestServer, cookie: string | null, password: string) => {
    const c = new Client(() => t.server.app);
    c.cookie = cookie;
    return c.post<ErrorBody>("/api/login", { nick: "Взломщик", password });
  };

  it("a burst of logins is cut off after 5 with a 429 in JSON", async () => {
    const t = await limited();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const r = await login(t, null, `guess-0000${i}`);
        statuses.push(r.status);
        if (r.status === 429) {
          expect(r.body.error.code).toBe("rate-limited");
          expect(r.body.error.message).toMatch(/at most 5 a minute/);
        }
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      // Even the right password is refused now: the limit holds whatever the answer would be.
      expect((await login(t, null, PASSWORD)).status).toBe(429);
    } finally {
      await t.close();
    }
  });

  it("a burst of logins is cut off even when each attempt carries a made-up session cookie", async () => {
    const t = await limited();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++)
        statuses.push((await login(t, `fm_session=made-up-${i}`, `guess-0000${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    } finally {
      await t.close();
    }
  });

  it("other routes allow 20 a minute per user, then 429 in JSON; another user has their own allowance", async () => {
    const t = await limited();
    try {
      const user = new Client(() => t.server.app, "Частый");
      expect((await user.register()).status).toBe(201);
      const statuses: number[] = [];
      for (let i = 0; i < 22; i++) statuses.push((await user.get("/api/me")).status);
      expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(20)).toEqual([429, 429]);
      const r = await user.get<ErrorBody>("/api/me");
      expect(r.body.error.code).toBe("rate-limited");
      expect(r.body.error.message).toMatch(/at most 20 a minute/);
      const other = new Client(() => t.server.app, "Редкий");
      expect((await other.register()).status).toBe(201);
      expect((await other.get("/api/me")).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
