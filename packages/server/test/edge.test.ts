import type { InjectOptions } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { parsePublicUrl } from "../src/server.ts";
import { testServer, type TestServer } from "./harness.ts";

/**
 * Issue 11, findings 4 and 7: logins are limited by address and by the nick being guessed, never by the
 * session; the site answers only for its own Host, checks Origin by scheme, host and port, and marks the
 * session cookie Secure over https.
 */

interface ErrorBody {
  error: { code: string; message: string };
}

let t: TestServer | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const PASSWORD = "correct horse battery";

async function send(
  server: TestServer,
  opts: InjectOptions & { cookie?: string | null },
): Promise<{ status: number; body: ErrorBody; cookie: string | null; setCookie: string }> {
  const { cookie, ...rest } = opts;
  const res = await server.server.app.inject({
    ...rest,
    headers: {
      ...(rest.payload !== undefined ? { "content-type": "application/json" } : {}),
      ...(cookie ? { cookie } : {}),
      ...rest.headers,
    },
  });
  const set = res.headers["set-cookie"];
  const first = (Array.isArray(set) ? set[0] : set) ?? "";
  return {
    status: res.statusCode,
    body: res.body ? (JSON.parse(res.body) as ErrorBody) : ({} as ErrorBody),
    cookie: first ? first.split(";")[0]! : null,
    setCookie: first,
  };
}

const register = (
  s: TestServer,
  nick: string,
  headers: Record<string, string> = {},
  remoteAddress?: string,
) =>
  send(s, {
    method: "POST",
    url: "/api/register",
    payload: JSON.stringify({ nick, password: PASSWORD }),
    headers,
    ...(remoteAddress ? { remoteAddress } : {}),
  });

const login = (
  s: TestServer,
  nick: string,
  password: string,
  from = "127.0.0.1",
  cookie: string | null = null,
) =>
  send(s, {
    method: "POST",
    url: "/api/login",
    payload: JSON.stringify({ nick, password }),
    remoteAddress: from,
    cookie,
  });

describe("login limits (issue 11, finding 4)", () => {
  it("a session does not buy more guesses: logins count by address, however many accounts the address opens", async () => {
    // rateLimit 50: each auth route allows 5 a minute per address.
    t = await testServer({ rateLimit: 50 });
    let accepted = 0;
    for (const nick of ["Первый", "Второй", "Третий"]) {
      const r = await register(t, nick);
      expect(r.status).toBe(201);
      // Each guess names another nick, so only the address limit is at work here.
      for (let i = 0; i < 6; i++) {
        const g = await login(t, `Кто-то ${nick} ${i}`, "wrong password!", "127.0.0.1", r.cookie);
        if (g.status === 401) accepted++;
        else expect(g.body.error.code).toBe("rate-limited");
      }
    }
    expect(accepted).toBe(5);
  });

  it("a nick backs off after 5 failed logins from any addresses: even the right password waits, then works", async () => {
    t = await testServer();
    expect((await register(t, "Жертва")).status).toBe(201);
    for (let i = 0; i < 5; i++)
      expect((await login(t, "Жертва", `guess number ${i}`, `10.0.0.${i + 1}`)).status).toBe(401);
    const locked = await login(t, "Жертва", PASSWORD, "10.0.1.1");
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe("login/backoff");
    expect(locked.body.error.message).toMatch(/^nick: .*retry in 2 s/);
    // The same nick written another way (case, ё/е) is the same nick.
    expect((await login(t, "ЖЕРТВА", PASSWORD, "10.0.1.2")).body.error.code).toBe("login/backoff");
    await t.clock.advance(2_000);
    // One more failure doubles the wait.
    expect((await login(t, "Жертва", "still guessing", "10.0.2.1")).status).toBe(401);
    expect((await login(t, "Жертва", PASSWORD, "10.0.2.2")).body.error.message).toMatch(/retry in 4 s/);
    await t.clock.advance(4_000);
    expect((await login(t, "Жертва", PASSWORD, "10.0.3.1")).status).toBe(200);
    // A success forgets the failures.
    expect((await login(t, "Жертва", "a typo here", "10.0.3.1")).status).toBe(401);
    expect((await login(t, "Жертва", PASSWORD, "10.0.3.1")).status).toBe(200);
  });

  it("a nick nobody has backs off the same way, so the refusal says nothing of whether an account exists", async () => {
    t = await testServer();
    for (let i = 0; i < 5; i++) expect((await login(t, "Никого нет", `guess number ${i}`)).status).toBe(401);
    expect((await login(t, "Никого нет", PASSWORD)).body.error.code).toBe("login/backoff");
  });
});

describe("the site's own name, origin and cookie (issue 11, finding 7)", () => {
  it("without PUBLIC_URL only loopback names are served: a rebound DNS name is refused", async () => {
    t = await testServer();
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", "localhost"])
      expect((await send(t, { method: "GET", url: "/api/health", headers: { host } })).status).toBe(200);
    for (const host of ["attacker.example:3000", "localhost.attacker.example", "10.0.0.5:3000"]) {
      const r = await send(t, { method: "GET", url: "/api/health", headers: { host } });
      expect(r.status).toBe(421);
      expect(r.body.error.code).toBe("host");
      expect(r.body.error.message).toMatch(/^Host: /);
    }
  });

  it("an Origin must match by scheme, host and port", async () => {
    t = await testServer();
    const at = (origin: string) =>
      register(t!, `Ник${Math.random().toString(36).slice(2, 8)}`, { host: "localhost:3000", origin });
    expect((await at("http://localhost:3000")).status).toBe(201);
    for (const origin of ["https://localhost:3000", "http://localhost:3001", "http://evil.example", "null"]) {
      const r = await at(origin);
      expect(r.status, origin).toBe(403);
      expect(r.body.error.code).toBe("csrf");
    }
  });

  it("with an https PUBLIC_URL: its Host only, its origin only, and a Secure cookie", async () => {
    t = await testServer({ publicUrl: "https://mafia.example.org" });
    const host = "mafia.example.org";
    const ok = await register(t, "Гость", { host, origin: "https://mafia.example.org" });
    expect(ok.status).toBe(201);
    expect(ok.setCookie).toMatch(/;\s*Secure/i);
    expect(ok.setCookie).toMatch(/HttpOnly/i);
    expect((await register(t, "Гость2", { host, origin: "http://mafia.example.org" })).status).toBe(403);
    expect((await register(t, "Гость3", { host, origin: "https://mafia.example.org:8443" })).status).toBe(
      403,
    );
    expect(
      (await send(t, { method: "GET", url: "/api/health", headers: { host: "localhost" } })).status,
    ).toBe(421);
  });

  it("behind a trusted proxy the forwarded host, scheme and address count; from anyone else they are ignored", async () => {
    t = await testServer({ publicUrl: "https://mafia.example.org", trustProxy: "127.0.0.1", rateLimit: 50 });
    const forwarded = {
      host: "127.0.0.1:3000",
      "x-forwarded-host": "mafia.example.org",
      "x-forwarded-proto": "https",
    };
    const viaProxy = await send(t, {
      method: "GET",
      url: "/api/health",
      headers: forwarded,
      remoteAddress: "127.0.0.1",
    });
    expect(viaProxy.status).toBe(200);
    const direct = await send(t, {
      method: "GET",
      url: "/api/health",
      headers: forwarded,
      remoteAddress: "10.1.1.1",
    });
    expect(direct.status).toBe(421);
    // Two clients behind the proxy have an allowance each (5 logins a minute), told apart by X-Forwarded-For.
    const guess = (client: string) =>
      send(t!, {
        method: "POST",
        url: "/api/login",
        payload: JSON.stringify({ nick: `Никто ${Math.random()}`, password: "wrong password" }),
        headers: { ...forwarded, "x-forwarded-for": client },
        remoteAddress: "127.0.0.1",
      });
    const a: number[] = [];
    for (let i = 0; i < 6; i++) a.push((await guess("203.0.113.1")).status);
    expect(a).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await guess("203.0.113.2")).status).toBe(401);
  });

  it("PUBLIC_URL must be an origin: a scheme, a host and a port", () => {
    expect(parsePublicUrl("https://mafia.example.org/")).toEqual({ url: "https://mafia.example.org" });
    expect(parsePublicUrl("http://mafia.example.org:8080")).toEqual({ url: "http://mafia.example.org:8080" });
    expect(parsePublicUrl(undefined)).toEqual({ url: null });
    for (const bad of [
      "mafia.example.org",
      "ftp://x.org",
      "https://x.org/forum",
      "https://u:p@x.org",
      "https://x.org/?a=1",
    ])
      expect(parsePublicUrl(bad)).toMatchObject({ error: expect.stringMatching(/^PUBLIC_URL: /) });
  });
});
