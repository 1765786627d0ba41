import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testServer, type TestServer } from "./harness.ts";

/**
 * Issue 32: every API answer carries `X-Session-Tag`, which the web app's service worker compares before
 * it keeps or serves a game saved for offline reading: the same for every answer of one session, another
 * for another session (of the same user, too), `guest` without one; the answers that open or close a
 * session carry the state they leave behind.
 */

const PASSWORD = "correct horse battery";

describe("the session tag on API answers (issue 32)", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await testServer();
  });
  afterAll(() => t.close());

  /** An API request with the given session cookie ("name=value", or none): the answer's status, tag and cookie. */
  const send = async (
    method: "GET" | "POST",
    url: string,
    cookie: string | null,
    body?: unknown,
  ): Promise<{ status: number; tag: unknown; cookie: string | null }> => {
    const res = await t.server.app.inject({
      method,
      url,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    const set = res.headers["set-cookie"];
    const first = Array.isArray(set) ? set[0] : set;
    return {
      status: res.statusCode,
      tag: res.headers["x-session-tag"],
      cookie: first ? first.split(";")[0]! : null,
    };
  };

  it("is `guest` without a session, the same for one session's answers, another for another session", async () => {
    expect((await send("GET", "/api/me", null)).tag).toBe("guest");
    expect((await send("GET", "/api/games", null)).tag).toBe("guest");
    // An error of the API is an answer too.
    const missing = await send("GET", "/api/games/no-such-game", null);
    expect(missing.status).toBe(404);
    expect(missing.tag).toBe("guest");

    const registered = await send("POST", "/api/register", null, { nick: "Метка", password: PASSWORD });
    expect(registered.status).toBe(201);
    const first = registered.cookie!;
    const tag = registered.tag;
    expect(tag).toMatch(/^[0-9a-f]{16}$/);
    // The tag is not the token, nor a part of it.
    expect(first).not.toContain(String(tag));
    expect((await send("GET", "/api/me", first)).tag).toBe(tag);
    expect((await send("GET", "/api/games", first)).tag).toBe(tag);

    // The same user in a second session: another tag.
    const again = await send("POST", "/api/login", null, { nick: "Метка", password: PASSWORD });
    expect(again.status).toBe(200);
    expect(again.tag).toMatch(/^[0-9a-f]{16}$/);
    expect(again.tag).not.toBe(tag);
    expect((await send("GET", "/api/me", again.cookie)).tag).toBe(again.tag);
    // Another user: another tag again.
    const other = await send("POST", "/api/register", null, { nick: "Другая метка", password: PASSWORD });
    expect(new Set([tag, again.tag, other.tag]).size).toBe(3);
    // The first session still has its own.
    expect((await send("GET", "/api/me", first)).tag).toBe(tag);
  });

  it("logging out answers `guest`, and the closed session's cookie is a guest's from then on", async () => {
    const registered = await send("POST", "/api/register", null, { nick: "Уходящий", password: PASSWORD });
    const cookie = registered.cookie!;
    expect(registered.tag).not.toBe("guest");
    const out = await send("POST", "/api/logout", cookie);
    expect(out.status).toBe(200);
    expect(out.tag).toBe("guest");
    expect((await send("GET", "/api/me", cookie)).tag).toBe("guest");
  });

  it("the pages of the app carry no tag: only the API's answers", async () => {
    const docs = await t.server.app.inject({ method: "GET", url: "/" });
    expect(docs.headers["x-session-tag"]).toBeUndefined();
  });
});
