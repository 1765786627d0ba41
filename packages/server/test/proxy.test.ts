import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./haproxy.ts";
import { testServer, type TestServer } from "./harness.ts";

/**
 * Issue 11, finding 7, as deployed: the server behind a real TLS proxy (Debian's haproxy, which .ci/run
 * installs), with PUBLIC_URL set to the proxy's https origin and TRUST_PROXY to the proxy's address. The
 * session cookie is Secure, an https Origin of the site passes and an http one does not, and the same
 * server reached directly under another name is refused.
 */

const HAPROXY = "/usr/sbin/haproxy";
const missing = !existsSync(HAPROXY) || !existsSync("/usr/bin/openssl");
if (missing) {
  const why = "haproxy or openssl is missing (apt-get install -y haproxy openssl)";
  if (process.env.CI) throw new Error(`${why}: CI must run the proxy test`);
  console.warn(`${why}: the TLS proxy test is skipped`);
}

interface Answer {
  status: number;
  setCookie: string;
  body: string;
}

describe.skipIf(missing)("behind a TLS proxy (haproxy)", () => {
  let t: TestServer;
  let proxy: ChildProcess;
  let dir: string;
  let port: number;
  let cert: Buffer;

  /** A request to the proxy over https, trusting its self-signed certificate. */
  const viaProxy = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", servername: "localhost", port, method, path, ca: cert, headers },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (text += c));
          res.on("end", () => {
            const set = res.headers["set-cookie"];
            resolve({ status: res.statusCode ?? 0, setCookie: set?.[0] ?? "", body: text });
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "fm-proxy-"));
    execFileSync(
      "/usr/bin/openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    cert = readFileSync(join(dir, "cert.pem"));
    writeFileSync(join(dir, "site.pem"), Buffer.concat([cert, readFileSync(join(dir, "key.pem"))]));
    port = await freePort();
    t = await testServer({ publicUrl: `https://localhost:${port}`, trustProxy: "127.0.0.1", rateLimit: 0 });
    await t.server.app.listen({ port: 0, host: "127.0.0.1" });
    const appPort = (t.server.app.server.address() as AddressInfo).port;
    writeFileSync(
      join(dir, "haproxy.cfg"),
      [
        "global",
        "  maxconn 100",
        "defaults",
        "  mode http",
        "  timeout connect 5s",
        "  timeout client 30s",
        "  timeout server 30s",
        "frontend site",
        `  bind 127.0.0.1:${port} ssl crt ${join(dir, "site.pem")}`,
        "  option forwardfor",
        "  http-request set-header X-Forwarded-Proto https",
        "  default_backend app",
        "backend app",
        `  server app 127.0.0.1:${appPort}`,
        "",
      ].join("\n"),
    );
    proxy = spawn(HAPROXY, ["-db", "-f", join(dir, "haproxy.cfg")], { stdio: "ignore" });
    // Ready when it answers.
    for (let i = 0; ; i++) {
      try {
        await viaProxy("GET", "/api/health", { host: `localhost:${port}` });
        break;
      } catch (error) {
        if (i > 100) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  });

  afterAll(async () => {
    proxy?.kill();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const register = (nick: string, origin: string) =>
    viaProxy(
      "POST",
      "/api/register",
      { host: `localhost:${port}`, origin, "content-type": "application/json" },
      JSON.stringify({ nick, password: "correct horse battery" }),
    );

  it("a registration through the proxy gets a Secure cookie; the site's https Origin passes, an http one does not", async () => {
    const ok = await register("Прокси", `https://localhost:${port}`);
    expect(ok.status, ok.body).toBe(201);
    expect(ok.setCookie).toMatch(/;\s*Secure/i);
    const plain = await register("Прокси2", `http://localhost:${port}`);
    expect(plain.status).toBe(403);
    expect(JSON.parse(plain.body)).toMatchObject({ error: { code: "csrf" } });
  });

  it("the same server reached directly, under a name that is not the site's, is refused", async () => {
    const appPort = (t.server.app.server.address() as AddressInfo).port;
    const direct = await t.server.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { host: `127.0.0.1:${appPort}` },
      remoteAddress: "10.9.9.9",
    });
    expect(direct.statusCode).toBe(421);
    // Through the proxy, a Host that is not the site's is refused too (DNS rebinding).
    const rebound = await viaProxy("GET", "/api/health", { host: `attacker.example:${port}` });
    expect(rebound.status).toBe(421);
  });
});
