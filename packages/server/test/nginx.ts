import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./haproxy.ts";
import { startChild } from "./processes.ts";

/**
 * Issue 28: Debian's nginx (.ci/run installs it) in front of several server instances, round-robin, with the
 * config docs/server.md recommends ("Deployment"). Plain HTTP on 127.0.0.1.
 */

export const NGINX = "/usr/sbin/nginx";

/** Why nginx cannot run here, or null. Under CI a missing nginx is a failure, never a quiet skip. */
export function nginxMissing(): string | null {
  if (existsSync(NGINX)) return null;
  const why = `no nginx at ${NGINX}: install Debian's nginx (apt-get install -y nginx) to run the nginx tests`;
  if (process.env.CI) throw new Error(why);
  return why;
}

/** The header nginx adds to every answer: which backend gave it (`127.0.0.1:<port>`). */
export const NGINX_SERVED_BY = "x-upstream";

/**
 * The config (docs/server.md, "Deployment"): round-robin over the backends. A request whose connection is
 * refused or reset before an answer (an instance stopping or gone) goes to the next server
 * (`proxy_next_upstream error timeout`). nginx does not send a POST, PATCH or DELETE again once it has
 * reached a server unless told to (`non_idempotent`): that is safe only for a write with an
 * Idempotency-Key, so those, and only those, are passed through a location that allows it. Live streams
 * are not buffered and stay open for an hour; the instances trust X-Forwarded-For (TRUST_PROXY=loopback).
 */
export function nginxConfig(opts: { port: number; backends: readonly number[]; dir: string }): string {
  const pass = (retry: string): string[] => [
    "    proxy_pass http://instances;",
    "    proxy_http_version 1.1;",
    '    proxy_set_header Connection "";',
    "    proxy_set_header Host $http_host;",
    "    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
    "    proxy_set_header X-Forwarded-Proto $scheme;",
    "    proxy_buffering off;",
    "    proxy_read_timeout 1h;",
    "    proxy_connect_timeout 1s;",
    `    proxy_next_upstream ${retry};`,
    "    proxy_next_upstream_tries 3;",
    `    add_header ${NGINX_SERVED_BY} $upstream_addr always;`,
  ];
  return [
    `pid ${join(opts.dir, "nginx.pid")};`,
    `error_log ${join(opts.dir, "error.log")} warn;`,
    "worker_processes 1;",
    "events { worker_connections 1024; }",
    "http {",
    "  access_log off;",
    `  client_body_temp_path ${join(opts.dir, "body")};`,
    `  proxy_temp_path ${join(opts.dir, "proxy")};`,
    `  fastcgi_temp_path ${join(opts.dir, "fastcgi")};`,
    `  uwsgi_temp_path ${join(opts.dir, "uwsgi")};`,
    `  scgi_temp_path ${join(opts.dir, "scgi")};`,
    "  client_max_body_size 8m;",
    "  upstream instances {",
    ...opts.backends.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=1s;`),
    "    keepalive 16;",
    "  }",
    "  server {",
    `    listen 127.0.0.1:${opts.port};`,
    "    location / {",
    // A write that carries an Idempotency-Key may be sent again to another server (see above).
    "      if ($http_idempotency_key) { rewrite ^ /@keyed$uri last; }",
    ...pass("error timeout").map((l) => `  ${l}`),
    "    }",
    "    location /@keyed/ {",
    "      internal;",
    "      rewrite ^/@keyed(.*)$ $1 break;",
    ...pass("error timeout non_idempotent").map((l) => `  ${l}`),
    "    }",
    "  }",
    "}",
    "",
  ].join("\n");
}

export interface Nginx {
  readonly port: number;
  /** The proxy's origin, `http://127.0.0.1:<port>`: the instances' PUBLIC_URL. */
  readonly url: string;
  /** What nginx wrote in its error log so far (upstream failures it retried are logged there). */
  errors(): string;
  stop(): Promise<void>;
}

/** Start nginx in front of the backends' ports on `port` (a free one by default); resolves once it accepts. */
export async function startNginx(opts: { backends: readonly number[]; port?: number }): Promise<Nginx> {
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "fm-nginx-"));
  const cfg = join(dir, "nginx.conf");
  writeFileSync(cfg, nginxConfig({ port, backends: opts.backends, dir }));
  // `daemon off`: the test owns the process; -p: its prefix, so nothing is read from /etc or /var.
  const child = startChild({
    name: "nginx",
    command: NGINX,
    args: ["-p", dir, "-c", cfg, "-g", "daemon off;"],
    stdout: "ignore",
  });
  const stderr = (): string => child.log();
  const errorLog = join(dir, "error.log");
  const proxy: Nginx = {
    port,
    url: `http://127.0.0.1:${port}`,
    errors: () => (existsSync(errorLog) ? readFileSync(errorLog, "utf8") : ""),
    async stop() {
      await child.terminate({ signal: "SIGQUIT", guardMs: 5_000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const accepts = (): Promise<boolean> =>
    new Promise((resolve) => {
      const c = connect(port, "127.0.0.1");
      c.once("connect", () => {
        c.destroy();
        resolve(true);
      });
      c.once("error", () => resolve(false));
    });
  for (let i = 0; ; i++) {
    if (!child.alive) {
      const why = `${stderr().trim()} ${proxy.errors().trim()}`;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx exited at start: ${why}`);
    }
    if (await accepts()) return proxy;
    if (i > 200) {
      await proxy.stop();
      throw new Error(`nginx did not accept connections on ${port}: ${stderr().trim()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
