import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testServer, type TestServer } from "./harness.ts";

// The server serves the built web app (issue 4): its pages at their own paths, with a strict CSP, and
// the API untouched.
describe("serving the web app", () => {
  let t: TestServer;
  let web: string;
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), "fm-web-"));
    mkdirSync(join(web, "assets"));
    writeFileSync(join(web, "index.html"), "<!doctype html><title>app</title>");
    writeFileSync(join(web, "assets", "index-abc.js"), "console.log(1)");
    t = await testServer({ webRoot: web });
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });
  const get = (url: string) => t.server.app.inject({ method: "GET", url });

  it("answers the app's paths with its page, under a script-src 'self' policy", async () => {
    for (const url of ["/", "/games/abc/players", "/login?next=/new"]) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.body).toContain("<title>app</title>");
      expect(String(res.headers["content-security-policy"])).toContain("script-src 'self'");
    }
  });

  it("serves hashed assets for a year, and a missing file or API route as a 404", async () => {
    const js = await get("/assets/index-abc.js");
    expect(js.statusCode).toBe(200);
    expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await get("/assets/gone-123.js")).statusCode).toBe(404);
    const api = await get("/api/nope");
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: { code: "not-found", message: "no route GET /api/nope" } });
  });
});
