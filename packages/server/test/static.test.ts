import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get as httpGet, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { expectOk } from "./play.ts";

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

// Issue 12, "Delivery": the build's brotli and gzip copies are served by Accept-Encoding, the API's JSON
// over 1 KB is compressed on the way out, and the live stream is left alone.
describe("compression", () => {
  const SCRIPT = `console.log(${JSON.stringify("мафия ".repeat(400))});`;
  const PAGE = "<!doctype html><title>app</title><script type=module src=/assets/index-abc.js></script>";
  let t: TestServer;
  let web: string;
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), "fm-web-"));
    mkdirSync(join(web, "assets"));
    // What `vite build` leaves (vite-plugin-compression2): each file, its .br and its .gz.
    for (const [file, body] of [
      ["index.html", PAGE],
      ["assets/index-abc.js", SCRIPT],
    ] as const) {
      writeFileSync(join(web, file), body);
      writeFileSync(join(web, `${file}.br`), brotliCompressSync(body));
      writeFileSync(join(web, `${file}.gz`), gzipSync(body));
    }
    t = await testServer({ webRoot: web });
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });
  const get = (url: string, encoding?: string) =>
    t.server.app.inject({
      method: "GET",
      url,
      headers: encoding === undefined ? {} : { "accept-encoding": encoding },
    });

  it("serves a hashed asset's .br to a client that accepts brotli, for a year, varying by Accept-Encoding", async () => {
    const br = await get("/assets/index-abc.js", "gzip, deflate, br, zstd");
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await get("/assets/index-abc.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get("/assets/index-abc.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
  });

  it("serves the page compressed too, never cached without a check, under the strict policy", async () => {
    for (const url of ["/", "/index.html", "/games/abc"]) {
      const res = await get(url, "br, gzip");
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-encoding"]).toBe("br");
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(String(res.headers["content-security-policy"])).toContain("script-src 'self'");
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(PAGE);
    }
  });

  it("compresses JSON over 1 KB (brotli or gzip, as accepted) and leaves smaller answers as they are", async () => {
    const big = await get("/api/openapi.json", "gzip, deflate, br");
    expect(big.statusCode).toBe(200);
    expect(big.headers["content-encoding"]).toBe("br");
    expect(String(big.headers.vary)).toMatch(/accept-encoding/i);
    const doc = JSON.parse(brotliDecompressSync(big.rawPayload).toString()) as { openapi: string };
    expect(doc.openapi).toMatch(/^3\./);
    const plainSize = (await get("/api/openapi.json")).rawPayload.length;
    expect(plainSize).toBeGreaterThan(1024);
    expect(big.rawPayload.length).toBeLessThan(plainSize / 2);

    const gz = await get("/api/openapi.json", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(doc);

    // Under 1 KB: sent as it is, compressing would gain nothing.
    const small = await get("/api/me", "gzip, deflate, br");
    expect(small.statusCode).toBe(200);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.json()).toEqual({ user: null });
    // An error over 1 KB is still the API's JSON error, compressed.
    const missing = await get(`/api/${"x".repeat(1100)}`, "br");
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["content-encoding"]).toBe("br");
    const error = JSON.parse(brotliDecompressSync(missing.rawPayload).toString()) as {
      error: { code: string };
    };
    expect(error.error.code).toBe("not-found");
  });

  it("leaves the live stream uncompressed and unbuffered for a client that accepts brotli", async () => {
    const gm = new Client(() => t.server.app, "Ведущий");
    expectOk(await gm.register());
    const created = await gm.post<{ id: string }>("/api/games", {
      title: "Сжатие",
      night: { amount: 12, unit: "hours" },
      day: { amount: 24, unit: "hours" },
      mode: "automatic",
    });
    expectOk(created);
    await t.server.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (t.server.app.server.address() as AddressInfo).port;
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      httpGet(
        `http://127.0.0.1:${port}/api/games/${created.body.id}/stream`,
        { headers: { "accept-encoding": "br, gzip", accept: "text/event-stream" } },
        resolve,
      ).on("error", reject),
    );
    try {
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/event-stream/);
      expect(res.headers["content-encoding"]).toBeUndefined();
      // The first bytes arrive as written, while the stream stays open: nothing holds them back.
      const first = await new Promise<string>((resolve) =>
        res.once("data", (b: Buffer) => resolve(String(b))),
      );
      expect(first).toMatch(/^retry: 2000\n\n/);
    } finally {
      res.destroy();
    }
  });
});
