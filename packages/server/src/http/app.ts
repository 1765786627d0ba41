import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import helmet from "@fastify/helmet";
import rateLimit, { type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import swagger from "@fastify/swagger";
import fastifyStatic from "@fastify/static";
import swaggerUi from "@fastify/swagger-ui";
import { existsSync } from "node:fs";
import { join, sep } from "node:path";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type onRequestHookHandler,
  type onSendHookHandler,
} from "fastify";
import { Accounts, SESSION_COOKIE, type PasswordCost } from "../accounts/auth.ts";
import type { Clock } from "../clock.ts";
import { ApiError, forbidden } from "./errors.ts";
import type { Demo } from "../demo/demo.ts";
import { commandsOf, type Commands } from "../game/commands.ts";
import type { Games } from "../log/games.ts";
import { openApiDocument, swaggerSpec, type RouteDoc } from "./openapi.ts";
import type { Store } from "../stores/store.ts";
import { LocalCluster, type Cluster } from "../log/cluster.ts";
import { Streams } from "../streams/stream.ts";
import { isStoreFault, PgStore } from "../stores/pg-store.ts";
import { StoreUnavailable } from "../stores/store.ts";
import { SharedLimits } from "../accounts/shared-limits.ts";
import { authRoutes } from "./routes/auth.ts";
import { channelRoutes } from "./routes/channels.ts";
import { route, type MailContext, type RouteContext } from "./routes/context.ts";
import { gamesRoutes } from "./routes/games.ts";
import { gmRoutes } from "./routes/gm.ts";
import { meRoutes } from "./routes/me.ts";
import { profileRoutes } from "./routes/profiles.ts";
import { settingsRoutes } from "./routes/settings.ts";
import { setupRoutes } from "./routes/setups.ts";
import { notebookRoutes } from "./routes/notebooks.ts";
import { nightRoutes } from "./routes/night.ts";
import { streamRoutes } from "./routes/streams.ts";
import { threadRoutes } from "./routes/thread.ts";
import { toolRoutes } from "./routes/tools.ts";
import { ToolRunner } from "../tools/tools.ts";
import { jsonBodies } from "./raw-body.ts";
import { estimateRoutes } from "./routes/estimate.ts";
import { GUEST_TAG, SESSION_TAG_HEADER, sessionTag } from "./session-tag.ts";

export interface AppOptions {
  readonly store: Store;
  /** Issue 20: the other instances on the same database (LocalCluster when alone, e.g. on SQLite). */
  readonly cluster?: Cluster;
  readonly clock: Clock;
  readonly games: Games;
  /** Issue 29: the game commands over `games`; built here when absent (they hold no state). */
  readonly commands?: Commands;
  readonly demo: Demo;
  /** Requests per minute per session (or address); auth routes get a tenth of it. 0 turns limits off. */
  readonly rateLimit?: number;
  /**
   * The site's origin as users see it (PUBLIC_URL, e.g. `https://mafia.example.org`): requests for any other
   * Host are refused (DNS rebinding), an Origin must match it by scheme, host and port, and the session
   * cookie is `Secure` when it is https. Without it only loopback names (localhost, 127.0.0.1, [::1]) are
   * served, on any port.
   */
  readonly publicUrl?: string | null;
  /**
   * Which peers are trusted proxies (TRUST_PROXY): their X-Forwarded-For, -Proto and -Host are believed, so
   * rate limits count the client's address. Fastify's `trustProxy`: a comma-separated list of addresses or
   * CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `loopback`), or true for any peer. Off by default: a client
   * could otherwise pick its own address.
   */
  readonly trustProxy?: boolean | string;
  readonly logger?: boolean;
  /** The built web app (packages/web/dist), served at `/`; without it the root opens the API docs. */
  readonly webRoot?: string | null;
  /** The GM tools' limits: time budget, worker threads, waiting requests (tools.ts, TOOLS_DEFAULTS). */
  readonly tools?: import("../tools/tools.ts").ToolsOptions;
  /**
   * Caps on live streams (stream.ts, STREAM_LIMITS): 8 without a session per address, 8 per user, 64 per
   * address in all; beyond one, a stream is refused with 429 stream/too-many.
   */
  readonly streamLimits?: Partial<import("../streams/connections.ts").StreamLimits>;
  /** Issue 15: e-mail and reminders (server.ts makes them when SMTP_URL is set); none by default. */
  readonly mail?: MailContext | null;
  /** Issue 17: the balance estimates' limits and sizes (estimate-options.ts, ESTIMATE_DEFAULTS), or an estimator (tests). */
  readonly estimates?:
    import("../tools/estimate-options.ts").EstimateOptions | import("../tools/estimate.ts").Estimator;
  /** Tests only: the argon2 cost of new password hashes (auth.ts, TEST_PASSWORD_COST); PASSWORD_COST by default. */
  readonly passwordCost?: PasswordCost;
}

/**
 * The web app's pages get a strict content security policy: scripts only from this origin, so even a
 * renderer bug in the thread could not run a script. (The API docs keep helmet's defaults without one.)
 */
const WEB_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; " +
  "form-action 'self'";

const BODY_LIMIT = 64 * 1024;
/** Each app's routes with their zod schemas, as the API document lists them (the fuzz tests read it). */
export const routeDocs = new WeakMap<FastifyInstance, readonly RouteDoc[]>();

/** The names a server without PUBLIC_URL answers to: this machine's own (a DNS rebinding attack has none). */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A URL's origin (scheme, host and port, with the default port left out), or null if it is not one. */
function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The site's origin as the request names it: PUBLIC_URL's when set (and then only for its own Host), else
 * the request's scheme and Host when the Host is a loopback name. Null: the request is not for this site.
 */
function siteOrigin(publicUrl: URL | null, protocol: string, host: string | undefined): string | null {
  if (host === undefined || host === "") return null;
  const asked = originOf(`${publicUrl ? publicUrl.protocol : `${protocol}:`}//${host}`);
  if (asked === null) return null;
  if (publicUrl) return asked === publicUrl.origin ? asked : null;
  return LOOPBACK.has(new URL(asked).hostname) ? asked : null;
}

/** The fields of an error that the error handler reads; a thrown value without them has none. */
function errorFields(error: unknown): { statusCode?: number; code?: string; message?: string } {
  if (typeof error !== "object" || error === null) return {};
  return {
    ...("statusCode" in error && typeof error.statusCode === "number"
      ? { statusCode: error.statusCode }
      : {}),
    ...("code" in error && typeof error.code === "string" ? { code: error.code } : {}),
    ...("message" in error && typeof error.message === "string" ? { message: error.message } : {}),
  };
}

/** Issue 28: how soon a client may try again after a 503 (the store's faults, a busy game): seconds. */
export const RETRY_AFTER_S = 2;

/**
 * Every error as the API's `{ error: { code, message, clause? } }`: a refusal with its status, the store's
 * faults as 503 (issue 28), else a 500. Every 503 says when to retry (Retry-After).
 */
function sendError(error: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (!(error instanceof ApiError) && isStoreFault(error)) {
    // The database did not answer in time, or its connection failed (in the session lookup before any
    // route, a route, the rate limits): never a 500. A write that may have been stored says so.
    const unknown = error instanceof StoreUnavailable && error.unknown;
    return reply
      .status(503)
      .header("retry-after", String(RETRY_AFTER_S))
      .send({
        error: unknown
          ? {
              code: "store/unknown",
              message:
                "the database did not confirm the change in time: it may have been saved; reload before retrying",
            }
          : { code: "store/unavailable", message: "the database is unavailable: nothing was changed; retry" },
      });
  }
  if (error instanceof ApiError && error.status === 503 && !reply.hasHeader("retry-after"))
    reply.header("retry-after", String(RETRY_AFTER_S));
  if (error instanceof ApiError) {
    return reply.status(error.status).send({
      error: {
        code: error.code,
        message: error.message,
        ...(error.clause ? { clause: error.clause } : {}),
      },
    });
  }
  const e = errorFields(error);
  if (e.statusCode === 429) return reply.status(429).send(error);
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    const message =
      e.code === "FST_ERR_CTP_BODY_TOO_LARGE"
        ? `body: larger than ${BODY_LIMIT} bytes`
        : e.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE"
          ? "body: expected Content-Type application/json"
          : e.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
            ? "body: empty JSON body"
            : `body: ${e.message ?? "bad request"}`;
    return reply.status(e.statusCode).send({ error: { code: e.code ?? "bad-request", message } });
  }
  // Unexpected: always on stderr, with the request, whatever the logger setting.
  console.error(`500 ${req.method} ${req.url}:`, error);
  return reply.status(500).send({ error: { code: "internal", message: "internal error" } });
}

/** The router's refusal of a path, before any hook, in the API's error shape. */
function sendPathError(error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === "FST_ERR_BAD_URL"
      ? "path: not a valid URL (a broken %-escape, or one that is not UTF-8 text)"
      : error.code === "FST_ERR_MAX_PARAM_LENGTH"
        ? "path: a part of the path is longer than 100 characters"
        : `path: ${error.message}`;
  void reply
    .status(error.statusCode && error.statusCode < 500 ? error.statusCode : 400)
    .send({ error: { code: error.code || "bad-request", message } });
}

/**
 * Cookies, security headers, compression and the rate limiter: before every route. `counts` is where the
 * rate limits count: in this process by default, in the database when instances share it (issue 20).
 */
async function registerPlugins(
  app: FastifyInstance,
  limit: number,
  counts: FastifyRateLimitStoreCtor | null,
): Promise<void> {
  // CSRF: only JSON bodies are accepted (a cross-site form cannot send one without a CORS preflight, which
  // this server never grants), the session cookie is SameSite=Lax, and a foreign Origin is refused.
  app.removeContentTypeParser("text/plain");
  // Issue 28: a body is collected as bytes; a large-body route's stays bytes, for a worker thread to read.
  jsonBodies(app);
  await app.register(cookie);
  await app.register(helmet, { contentSecurityPolicy: false });
  // Answers over 1 KB (the API's JSON) travel compressed, brotli or gzip as the client accepts (issue 12).
  // Before every route: it hooks each route as it is declared. The live streams hijack their reply, so
  // nothing here buffers or compresses them; the web app's files come precompressed (the reply already
  // has a Content-Encoding, which this leaves alone). Request bodies are never decompressed.
  await app.register(compress, { encodings: ["br", "gzip"], threshold: 1024, globalDecompression: false });
  if (limit > 0)
    await app.register(rateLimit, {
      max: limit,
      timeWindow: 60_000,
      // After the session is read, so the key is the user (a forged cookie cannot dodge the limit).
      hook: "preHandler",
      ...(counts ? { store: counts } : {}),
      keyGenerator: (req) => (req.user ? `user:${req.user.id}` : `ip:${req.ip}`),
      errorResponseBuilder: (_req, ctx) => ({
        statusCode: 429,
        error: {
          code: "rate-limited",
          message: `too many requests: at most ${ctx.max} a minute, retry in ${ctx.after}`,
        },
      }),
    });
}

/**
 * Every request's first hook: the Host must be this site's (a page on another name that resolves here must
 * not reach the API), and a browser's Origin must be this site by scheme, host and port. A request without
 * an Origin (curl, the tests) passes; an opaque one ("null") does not. Then the session is read.
 */
function guard(publicUrl: URL | null, accounts: Accounts): onRequestHookHandler {
  // Callback style, so a request whose session is cached costs no promise.
  return (req, _reply, done) => {
    const site = siteOrigin(publicUrl, req.protocol, req.host);
    if (site === null)
      return done(
        new ApiError(
          421,
          "host",
          `Host: ${JSON.stringify(req.host ?? "")} is not this site's` +
            (publicUrl ? ` (${publicUrl.host})` : " (set PUBLIC_URL to serve other names than localhost)"),
        ),
      );
    const origin = req.headers.origin;
    if (req.method !== "GET" && req.method !== "HEAD" && origin !== undefined && originOf(origin) !== site)
      return done(forbidden("csrf", "Origin: the request's origin is not this site"));
    const token = req.cookies[SESSION_COOKIE];
    const known = accounts.cachedUser(token);
    if (known !== undefined) {
      req.user = known;
      return done();
    }
    accounts.userOf(token).then(
      (user) => {
        req.user = user;
        done();
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  };
}

/**
 * Issue 32: every API answer names the session it was made for (session-tag.ts), so the web app's service
 * worker drops a game saved for offline reading when the session changes. Logging in, registering and
 * logging out set the tag of the session they leave behind; every other answer is the request's.
 */
const tagSession: onSendHookHandler = (req, reply, payload, done) => {
  if (req.url.startsWith("/api/") && !reply.hasHeader(SESSION_TAG_HEADER))
    reply.header(SESSION_TAG_HEADER, req.user ? sessionTag(req.cookies[SESSION_COOKIE]) : GUEST_TAG);
  done(null, payload);
};

/**
 * The built web app's files: hashed assets cached for good, the rest (the index, the service worker, the
 * manifest and the icons, issue 32) checked on every visit, so a new build's worker is found at once.
 */
async function serveWebApp(app: FastifyInstance, webRoot: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: webRoot,
    // The file may be the build's brotli or gzip copy (index.html.br), chosen by Accept-Encoding.
    setHeaders: (res, file) => {
      const name = file.replace(/\.(br|gz)$/, "");
      if (name.includes(`${sep}assets${sep}`)) {
        res.header("cache-control", "public, max-age=31536000, immutable");
        return;
      }
      res.header("cache-control", "no-cache");
      // The worker runs under a policy of its own: the same as the pages'.
      if (/\.html$|[/\\]sw\.js$/.test(name)) res.header("content-security-policy", WEB_CSP);
      if (name.endsWith(".webmanifest")) res.header("content-type", "application/manifest+json");
    },
    cacheControl: false,
    preCompressed: true,
  });
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { store, clock, games } = opts;
  const cluster = opts.cluster ?? new LocalCluster();
  // Issue 20: the demo bots play on the cluster's leader only.
  opts.demo.follow(cluster);
  const accounts = new Accounts(store, clock, cluster, opts.passwordCost);
  const streams = new Streams(games, clock, accounts, opts.streamLimits);
  // Issue 20: a session revoked on any instance ends its streams here; after notifications may have been
  // lost, every session with a stream here is read again.
  const unhear = [
    accounts.onRevoke((key) => streams.closeSession(key)),
    cluster.onResync(() => streams.recheckSessions()),
  ];
  // Issue 20: instances sharing PostgreSQL count rate limits and failed logins there, together.
  const shared = store instanceof PgStore ? await SharedLimits.open(store, () => clock.now()) : null;
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: BODY_LIMIT,
    trustProxy: opts.trustProxy ?? false,
    // Issue 28: while closing, a request in flight or on a kept-alive connection is served (server.ts).
    return503OnClosing: false,
    // The router's own refusals (a path that is not valid percent-encoding, a path part too long) come
    // before any hook: they get the API's error shape here, naming the path.
    frameworkErrors: sendPathError,
  });
  const limit = opts.rateLimit ?? 600;
  const publicUrl = opts.publicUrl ? new URL(opts.publicUrl) : null;
  await registerPlugins(app, limit, shared?.rateStore() ?? null);
  app.decorateRequest("user", null);
  app.addHook("onRequest", guard(publicUrl, accounts));
  app.addHook("onSend", tagSession);
  // Issue 20: a game's reads see the log past the room first (on a shared store), so they show what other
  // instances on the same database acknowledged; a game not built yet (one new to this instance, or a
  // finished one not needed since the start) is built from its log. A failure here is left to the route
  // (which answers 404 for an unknown game, or 503 for a room set aside), but the store's (below).
  app.addHook("preHandler", async (req) => {
    const params: unknown = req.params;
    const id = typeof params === "object" && params !== null && "id" in params ? params.id : undefined;
    const url = req.routeOptions.url ?? "";
    if (typeof id !== "string" || !url.startsWith("/api/games/:id")) return;
    // A command (a POST, but the preview, which only reads) is checked against the log by its own append
    // (Games.commit), so it reads nothing first when the game is here already.
    const command = req.method === "POST" && !url.endsWith("/preview");
    // Issue 28: a catch-up the store could not make answers 503 (the room may be behind what another
    // instance acknowledged: it is not shown); an unknown game is left to the route's 404.
    if (!command || !games.rooms.has(id))
      await games.fresh(id).catch((error: unknown) => {
        if (isStoreFault(error)) throw error;
      });
  });
  app.setErrorHandler(sendError);
  const webRoot = opts.webRoot && existsSync(join(opts.webRoot, "index.html")) ? opts.webRoot : null;
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?")[0]!;
    // The app's own routes (/games/…, /login) are pages of the single-page app: its index answers them.
    // A missing file (a name with an extension, e.g. an old build's /assets/x.js) stays a 404.
    const page = !path.startsWith("/api/") && path !== "/api" && !/\.[a-z0-9]+$/i.test(path);
    if (webRoot && req.method === "GET" && page)
      return reply.header("content-security-policy", WEB_CSP).type("text/html").sendFile("index.html");
    return reply
      .status(404)
      .send({ error: { code: "not-found", message: `no route ${req.method} ${path}` } });
  });
  const docs: RouteDoc[] = [];
  routeDocs.set(app, docs);
  const ctx: RouteContext = {
    app,
    store,
    clock,
    cluster,
    games,
    commands: opts.commands ?? commandsOf(games),
    demo: opts.demo,
    accounts,
    streams,
    publicUrl,
    limit,
    docs,
    mail: opts.mail ?? null,
  };
  authRoutes(ctx, shared?.loginLimiter(clock));
  gamesRoutes(ctx);
  nightRoutes(ctx);
  threadRoutes(ctx);
  channelRoutes(ctx);
  streamRoutes(ctx);
  gmRoutes(ctx);
  // One pool of worker threads for the tools and the notebook's counts (tools.ts), stopped with the app.
  const toolRunner = new ToolRunner(opts.tools);
  app.addHook("onClose", () => toolRunner.close());
  toolRoutes(ctx, toolRunner);
  meRoutes(ctx);
  profileRoutes(ctx);
  settingsRoutes(ctx);
  estimateRoutes(ctx, opts.estimates);
  setupRoutes(ctx);
  notebookRoutes(ctx, toolRunner);

  if (webRoot) await serveWebApp(app, webRoot);
  // Without a built web app, the site's root shows the API's documentation.
  else app.get("/", async (_req, reply) => reply.redirect("/api/docs"));

  const document = openApiDocument(docs);
  route(ctx, {
    method: "GET",
    url: "/api/openapi.json",
    summary: "This document",
    tag: "meta",
    handler: async () => document,
  });
  await app.register(swagger, { mode: "static", specification: swaggerSpec(document) });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });
  app.addHook("onClose", async () => {
    for (const u of unhear) u();
    accounts.close();
    streams.closeAll();
    await shared?.close();
  });
  return app;
}
