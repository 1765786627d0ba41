import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import swagger from "@fastify/swagger";
import fastifyStatic from "@fastify/static";
import swaggerUi from "@fastify/swagger-ui";
import type { Lang } from "@forum-mafia/engine";
import { exportReplay } from "@forum-mafia/engine";
import { nickKey } from "@forum-mafia/forum";
import * as P from "@forum-mafia/protocol";
import { existsSync } from "node:fs";
import { join, sep } from "node:path";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { z } from "zod";
import { Accounts, SESSION_COOKIE, SESSION_DAYS } from "./auth.ts";
import { LoginBackoff } from "./auth-limits.ts";
import type { Clock } from "./clock.ts";
import { isTimeZone } from "./deadline.ts";
import { nightDraft } from "./draft.ts";
import { ApiError, conflict, forbidden, notFound } from "./errors.ts";
import type { Demo } from "./demo.ts";
import { Games, toNightAction } from "./games.ts";
import { openApiDocument, type RouteDoc } from "./openapi.ts";
import type { Room } from "./room.ts";
import type { Store, UserRecord } from "./store.ts";
import { Streams } from "./stream.ts";
import { registerTools } from "./tools.ts";
import { viewerOf } from "./viewer.ts";
import { gameLog } from "./gm-views.ts";
import { channels, gameDetail, posts, summaryOf } from "./views.ts";

export interface AppOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly games: Games;
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
  readonly tools?: import("./tools.ts").ToolsOptions;
  /**
   * Caps on live streams (stream.ts, STREAM_LIMITS): 8 without a session per address, 8 per user, 64 per
   * address in all; beyond one, a stream is refused with 429 stream/too-many.
   */
  readonly streamLimits?: Partial<import("./stream.ts").StreamLimits>;
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

declare module "fastify" {
  interface FastifyRequest {
    user: UserRecord | null;
  }
}

/** The field path and zod's message, e.g. `night.amount: Too small: expected number to be >=1`. */
function invalid(where: string, error: z.ZodError): ApiError {
  const issue = error.issues[0]!;
  const path = issue.path.length ? issue.path.join(".") : where;
  const message =
    issue.code === "unrecognized_keys"
      ? `${issue.path.length ? path + ": " : ""}unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`
      : `${path}: ${issue.message}`;
  return new ApiError(400, "invalid", message);
}

function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(where, r.error);
  return r.data;
}

const noBody = z.strictObject({});
const channelParams = z.strictObject({
  id: P.str(32, 1),
  // Written one way only ("gm:5", never "gm:05"), so a channel has exactly one id.
  channel: z.union([
    z.enum(["mafia", "pair", "spectators"]),
    z.templateLiteral(["gm:", z.number()]).refine((c) => /^gm:(0|[1-9]\d?)$/.test(c), "expected gm:<seat>"),
  ]),
});
const postParams = z.strictObject({ id: P.str(32, 1), postId: P.str(32, 1) });
const pageQuery = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
const langQuery = z.strictObject({ lang: z.enum(["ru", "en"]).optional() });

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

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { store, clock, games } = opts;
  const accounts = new Accounts(store, clock);
  const streams = new Streams(games, clock, accounts, opts.streamLimits);
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: BODY_LIMIT,
    trustProxy: opts.trustProxy ?? false,
    // Live streams never go idle: on shutdown they are closed, not waited for.
    forceCloseConnections: true,
    // The router's own refusals (a path that is not valid percent-encoding, a path part too long) come
    // before any hook: they get the API's error shape here, naming the path.
    frameworkErrors: (error, _req, reply) => {
      const message =
        error.code === "FST_ERR_BAD_URL"
          ? "path: not a valid URL (a broken %-escape, or one that is not UTF-8 text)"
          : error.code === "FST_ERR_MAX_PARAM_LENGTH"
            ? "path: a part of the path is longer than 100 characters"
            : `path: ${error.message}`;
      void (reply as FastifyReply)
        .status(error.statusCode && error.statusCode < 500 ? error.statusCode : 400)
        .send({ error: { code: error.code || "bad-request", message } });
    },
  });
  const limit = opts.rateLimit ?? 600;

  const publicUrl = opts.publicUrl ? new URL(opts.publicUrl) : null;
  // CSRF: only JSON bodies are accepted (a cross-site form cannot send one without a CORS preflight, which
  // this server never grants), the session cookie is SameSite=Lax, and a foreign Origin is refused.
  app.removeContentTypeParser("text/plain");
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
      keyGenerator: (req) => (req.user ? `user:${req.user.id}` : `ip:${req.ip}`),
      errorResponseBuilder: (_req, ctx) => ({
        statusCode: 429,
        error: {
          code: "rate-limited",
          message: `too many requests: at most ${ctx.max} a minute, retry in ${ctx.after}`,
        },
      }),
    });

  app.decorateRequest("user", null);
  // Callback style, so a request whose session is cached costs no promise.
  app.addHook("onRequest", (req, _reply, done) => {
    // The Host must be this site's (a page on another name that resolves here must not reach the API),
    // and a browser's Origin must be this site by scheme, host and port. A request without an Origin (curl,
    // the tests) passes; an opaque one ("null") does not.
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
      (error: unknown) => done(error as Error),
    );
  });

  app.setErrorHandler((error: unknown, req, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).send({
        error: {
          code: error.code,
          message: error.message,
          ...(error.clause ? { clause: error.clause } : {}),
        },
      });
    }
    const e = error as { statusCode?: number; code?: string; message?: string };
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
  });
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

  const need = (req: FastifyRequest): UserRecord => {
    if (!req.user)
      throw new ApiError(401, "unauthenticated", "log in first: no valid session (it may have expired)");
    return req.user;
  };
  const langOf = (req: FastifyRequest): Lang => {
    const q = langQuery.safeParse({ lang: (req.query as { lang?: string }).lang });
    return (q.success && q.data.lang) || req.user?.lang || "ru";
  };

  const docs: RouteDoc[] = [];
  routeDocs.set(app, docs);
  type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  const route = (
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    doc: Omit<RouteDoc, "method" | "url">,
    handler: Handler,
    config: {
      rateLimit?: { max: number; timeWindow: number; keyGenerator?: (req: FastifyRequest) => string };
    } = {},
  ): void => {
    docs.push({ method, url, ...doc });
    app.route({
      method,
      url,
      config,
      handler: async (req, reply) => {
        if (doc.body === undefined && method !== "GET" && req.body !== undefined && req.body !== null)
          parse(noBody, req.body, "body");
        const out = await handler(req, reply);
        return reply.sent ? reply : reply.send(out ?? { ok: true });
      },
    });
  };
  /**
   * A read: its answer is built from the room now and sent once everything in it is durable (issue 11: a
   * reader never sees what a crash could take back). The builders copy what they return, so later
   * commands cannot change an answer while it waits.
   */
  const shown = async <T>(room: Room, build: () => T): Promise<T> => {
    const out = build();
    await games.settled(room);
    return out;
  };
  const body = <T extends z.ZodType>(req: FastifyRequest, schema: T): z.infer<T> =>
    parse(schema, req.body ?? {}, "body");
  const params = (req: FastifyRequest): string => parse(P.idParams, req.params, "id").id;
  // Logging in and registering count by address, never by session: a session would give each new account
  // a bucket of its own, and so more guesses from the same address (issue 11). Guesses at one nick from
  // anywhere are slowed by LoginBackoff.
  const authLimit =
    limit > 0
      ? {
          rateLimit: {
            max: Math.max(5, Math.floor(limit / 10)),
            timeWindow: 60_000,
            keyGenerator: (req: FastifyRequest) => `auth:${req.ip}`,
          },
        }
      : {};
  const backoff = new LoginBackoff(clock);

  const setSession = async (reply: FastifyReply, user: UserRecord): Promise<void> => {
    const s = await accounts.openSession(user.id);
    reply.setCookie(SESSION_COOKIE, s.token, {
      httpOnly: true,
      sameSite: "lax",
      // A cookie over https is Secure: never sent over plain http, where anyone on the way could read it.
      secure: publicUrl?.protocol === "https:",
      path: "/",
      maxAge: SESSION_DAYS * 86_400,
    });
  };
  const userView = (u: UserRecord): P.UserView => ({
    id: u.id,
    nick: u.nick,
    timeZone: u.timeZone,
    lang: u.lang,
  });

  // ——— accounts ———
  route(
    "POST",
    "/api/register",
    { summary: "Create an account and log in", body: P.registerSchema, tag: "accounts" },
    async (req, reply) => {
      const b = body(req, P.registerSchema);
      const user = await accounts.register(b.nick, b.password, b.timeZone);
      await setSession(reply, user);
      return reply.status(201).send({ user: userView(user) });
    },
    authLimit,
  );
  route(
    "POST",
    "/api/login",
    { summary: "Log in", body: P.credentialsSchema, tag: "accounts" },
    async (req, reply) => {
      const b = body(req, P.credentialsSchema);
      const key = nickKey(b.nick);
      backoff.check(key);
      // Counted before the password is checked, so parallel guesses cannot all slip past the check.
      backoff.failed(key);
      const user = await accounts.login(b.nick, b.password);
      backoff.succeeded(key);
      await setSession(reply, user);
      return { user: userView(user) };
    },
    authLimit,
  );
  route("POST", "/api/logout", { summary: "Log out", tag: "accounts" }, async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    await accounts.closeSession(token);
    // The session is gone: its live streams end now, not when their clients next reconnect.
    if (token) streams.closeSession(accounts.sessionKey(token));
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return { ok: true };
  });
  // A guest is an answer, not an error: `{ user: null }` (a 401 here would be logged by every browser on
  // every guest's first visit).
  route(
    "GET",
    "/api/me",
    { summary: "The logged-in user, or null for a guest", tag: "accounts" },
    async (req) => ({
      user: req.user ? userView(req.user) : null,
    }),
  );
  route(
    "PATCH",
    "/api/me",
    { summary: "Change the time zone or language", body: P.profileSchema, tag: "accounts" },
    async (req) => {
      const user = need(req);
      const b = body(req, P.profileSchema);
      if (b.timeZone !== undefined && !isTimeZone(b.timeZone))
        throw new ApiError(400, "invalid", `timeZone: unknown time zone ${JSON.stringify(b.timeZone)}`);
      await store.updateUser(user.id, b);
      accounts.forgetUser(user.id);
      return { user: userView((await store.userById(user.id))!) };
    },
  );

  // ——— games ———
  route(
    "GET",
    "/api/health",
    { summary: "A bare endpoint that does no work (the benchmark's baseline)", tag: "meta" },
    async () => ({ ok: true }),
  );
  route("GET", "/api/games", { summary: "Every game, newest first", tag: "games" }, async (req) => {
    // A demo game is listed only for its own player (issue 12).
    const rooms = [...games.rooms.values()]
      .reverse()
      .filter((r) => opts.demo.listed(r, req.user?.id ?? null));
    const list = rooms.map((room) => summaryOf(room, req.user?.id ?? null));
    // Shown once durable, like every read; a game set aside meanwhile is left out until it is back.
    const live = await Promise.all(
      rooms.map((r) =>
        games.settled(r).then(
          () => true,
          () => false,
        ),
      ),
    );
    return { games: list.filter((_, i) => live[i]) };
  });
  route(
    "POST",
    "/api/games",
    { summary: "Create a game (you are its GM)", body: P.createGameSchema, tag: "games" },
    async (req, reply) => {
      const user = need(req);
      const id = await games.create(user, body(req, P.createGameSchema));
      return reply.status(201).send({ id });
    },
  );
  route("GET", "/api/games/:id", { summary: "The game as you may see it", tag: "games" }, async (req) => {
    const room = games.room(params(req));
    return shown(room, () =>
      gameDetail(room, viewerOf(room, req.user?.id ?? null), req.user?.id ?? null, langOf(req)),
    );
  });
  route(
    "POST",
    "/api/demo",
    {
      summary: "Start a demo game: you take one seat, 16 bots the rest (phases of 2 minutes unless set)",
      body: P.demoSchema,
      tag: "games",
    },
    async (req, reply) => {
      const user = need(req);
      const id = await opts.demo.create(user, body(req, P.demoSchema).minutes);
      return reply.status(201).send({ id });
    },
  );
  route(
    "POST",
    "/api/games/:id/signup",
    { summary: "Sign up (17 seats, then the reserve list)", tag: "games" },
    async (req) => {
      const user = need(req);
      opts.demo.refuseSignup(games.room(params(req))); // also a demo from before the mark (issue 12)
      await games.signup(user, params(req));
    },
  );
  route(
    "DELETE",
    "/api/games/:id/signup",
    { summary: "Withdraw before the start", tag: "games" },
    async (req) => {
      await games.withdraw(need(req), params(req));
    },
  );
  route(
    "POST",
    "/api/games/:id/start",
    { summary: "GM: deal the roles and start night 1 (S1, F1, G4)", body: P.startSchema, tag: "gm" },
    async (req) => {
      await games.start(need(req), params(req), body(req, P.startSchema).deal);
    },
  );
  route(
    "POST",
    "/api/games/:id/actions",
    { summary: "Submit, replace or pass your night action (O1)", body: P.actionSchema, tag: "play" },
    async (req) => {
      await games.act(need(req), params(req), toNightAction(body(req, P.actionSchema)));
    },
  );
  route(
    "POST",
    "/api/games/:id/votes",
    { summary: "Vote red or blue (V1–V7)", body: P.voteSchema, tag: "play" },
    async (req) => {
      await games.vote(need(req), params(req), body(req, P.voteSchema));
    },
  );
  route(
    "GET",
    "/api/games/:id/posts",
    { summary: "The game thread", query: pageQuery, tag: "play" },
    async (req) => {
      const room = games.room(params(req));
      const q = parse(pageQuery, req.query, "query");
      return shown(room, () => posts(room, q.after, q.limit));
    },
  );
  route(
    "POST",
    "/api/games/:id/posts",
    { summary: "Post in the game thread; a coloured nick is a vote (V2)", body: P.postSchema, tag: "play" },
    async (req, reply) => {
      const id = await games.post(need(req), params(req), body(req, P.postSchema).text);
      return reply.status(201).send({ id });
    },
  );
  route(
    "POST",
    "/api/games/:id/posts/preview",
    {
      summary:
        "What a draft post would count as (a vote, a refusal, coloured text that names nobody); stores nothing",
      body: P.postSchema,
      tag: "play",
    },
    async (req) => games.previewPost(need(req), params(req), body(req, P.postSchema).text),
  );
  route(
    "GET",
    "/api/games/:id/channels/:channel",
    { summary: "A private channel you belong to", tag: "play" },
    async (req) => {
      const p = parse(channelParams, req.params, "channel");
      const room = games.room(p.id);
      const c = channels(room, viewerOf(room, req.user?.id ?? null)).find((ch) => ch.id === p.channel);
      if (!c) throw forbidden("channel/not-member", `you are not a member of the channel ${p.channel}`, "G6");
      return shown(room, () => c);
    },
  );
  route(
    "POST",
    "/api/games/:id/channels/:channel",
    { summary: "Write in a private channel (S2, G6–G8)", body: P.messageSchema, tag: "play" },
    async (req, reply) => {
      const p = parse(channelParams, req.params, "channel");
      await games.message(need(req), p.id, p.channel, body(req, P.messageSchema).text);
      return reply.status(201).send({ ok: true });
    },
  );
  route(
    "GET",
    "/api/games/:id/stream",
    {
      summary:
        "Live updates (server-sent events); resumes from Last-Event-ID. Open streams are capped " +
        "(by default 8 per user, 8 per address without a session, 64 per address): beyond, 429 stream/too-many",
      tag: "play",
    },
    async (req, reply) => {
      const room = games.room(params(req));
      const q = z
        .strictObject({ after: z.coerce.number().int().min(0).optional(), lang: z.string().optional() })
        .safeParse(req.query);
      const header = req.headers["last-event-id"];
      const after = Number(
        typeof header === "string" && /^\d+$/.test(header) ? header : ((q.success ? q.data.after : 0) ?? 0),
      );
      const token = req.cookies[SESSION_COOKIE];
      const user = req.user && token ? { id: req.user.id, session: accounts.sessionKey(token) } : null;
      streams.open(room, user, after, req, reply);
    },
  );

  // ——— the GM ———
  const gm = (
    url: string,
    summary: string,
    schema: z.ZodType | undefined,
    run: (user: UserRecord, id: string, b: never) => Promise<void>,
  ): void =>
    route(
      "POST",
      `/api/games/:id/gm/${url}`,
      { summary: `GM: ${summary}`, ...(schema ? { body: schema } : {}), tag: "gm" },
      async (req) => {
        const user = need(req);
        const b = schema ? body(req, schema) : undefined;
        await run(user, params(req), b as never);
      },
    );
  gm("extend", "extend the phase", P.extendSchema, (u, id, b: z.infer<typeof P.extendSchema>) =>
    games.extend(u, id, b.minutes),
  );
  gm("close", "close the phase now (in review mode a night then awaits review)", undefined, (u, id) =>
    games.closePhase(u, id),
  );
  gm("pause", "pause the game's clock", undefined, (u, id) => games.pause(u, id));
  gm("resume", "resume the game's clock", undefined, (u, id) => games.resume(u, id));
  gm(
    "council",
    "answer the council question (M2c)",
    P.councilSchema,
    (u, id, b: z.infer<typeof P.councilSchema>) => games.answerCouncil(u, id, b.answer),
  );
  gm("rolls", "fix rolls with a reason (F2)", P.rollsSchema, (u, id, b: z.infer<typeof P.rollsSchema>) =>
    games.fixRolls(u, id, b.rolls, b.reason),
  );
  gm(
    "reopen-mafia",
    "reopen the mafia's action as the G10 penalty",
    P.reasonSchema,
    (u, id, b: z.infer<typeof P.reasonSchema>) => games.reopenMafia(u, id, b.reason),
  );
  gm("publish", "publish the night's results", undefined, (u, id) => games.publish(u, id));
  gm(
    "modkill",
    "modkill a player at the end of the phase (G5, F2)",
    P.modkillSchema,
    (u, id, b: z.infer<typeof P.modkillSchema>) => games.modkill(u, id, b.seat, b.reason),
  );
  gm(
    "replace",
    "replace a player by a substitute (P4)",
    P.replaceSchema,
    async (u, id, b: z.infer<typeof P.replaceSchema>) => {
      games.gmRoom(u, id); // the GM first: nobody else learns which nicks exist here
      const sub = await store.userByNickKey(nickKey(b.nick));
      if (!sub) throw notFound(`nick: no user ${JSON.stringify(b.nick)}`);
      await games.replace(u, id, b.seat, sub, b.reason);
    },
  );
  route(
    "POST",
    "/api/games/:id/posts/:postId/hide",
    { summary: "GM: hide a post with a reason", body: P.hidePostSchema, tag: "gm" },
    async (req) => {
      const p = parse(postParams, req.params, "postId");
      await games.hide(need(req), p.id, p.postId, body(req, P.hidePostSchema).reason);
    },
  );
  route(
    "POST",
    "/api/games/:id/posts/:postId/restore",
    { summary: "GM: restore a hidden post with a reason (F2)", body: P.restorePostSchema, tag: "gm" },
    async (req) => {
      const p = parse(postParams, req.params, "postId");
      await games.restore(need(req), p.id, p.postId, body(req, P.restorePostSchema).reason);
    },
  );
  route(
    "GET",
    "/api/games/:id/gm/draft",
    { summary: "GM: the night's draft results with an explanation", tag: "gm" },
    async (req) => {
      const room = games.gmRoom(need(req), params(req));
      if (room.status !== "running" || room.phase!.kind !== "night")
        throw conflict("night/not-night", "there is no night to review");
      return shown(room, () => nightDraft(room, langOf(req)));
    },
  );

  registerTools(app, { docs, parse, limit }, opts.tools);

  // ——— after the end (R3, F1, F2) ———
  const ended = (id: string) => {
    const room = games.room(id);
    if (room.status !== "ended") throw conflict("game/running", "published when the game ends (R3)", "R3");
    return room;
  };
  route(
    "GET",
    "/api/games/:id/replay",
    { summary: "The game as a REPLAY.md file (after the end)", tag: "games" },
    async (req, reply) => {
      const room = ended(params(req));
      const replay = await shown(room, () => exportReplay(room.match!));
      return reply
        .header("content-disposition", `attachment; filename="forum-mafia-${room.id}.json"`)
        .send(replay);
    },
  );
  route(
    "GET",
    "/api/games/:id/log",
    {
      summary: "The published log: every GM decision with its reason, hidden posts (after the end)",
      tag: "games",
    },
    async (req) => {
      const room = ended(params(req));
      return shown(room, () => gameLog(room, langOf(req)));
    },
  );

  if (webRoot)
    await app.register(fastifyStatic, {
      root: webRoot,
      // Hashed assets never change; the index is checked on every visit so a new build is picked up.
      // The file may be the build's brotli or gzip copy (index.html.br), chosen by Accept-Encoding.
      setHeaders: (res, file) => {
        if (/\.html(\.br|\.gz)?$/.test(file)) {
          res.header("cache-control", "no-cache");
          res.header("content-security-policy", WEB_CSP);
        } else if (file.includes(`${sep}assets${sep}`))
          res.header("cache-control", "public, max-age=31536000, immutable");
      },
      cacheControl: false,
      preCompressed: true,
    });
  // Without a built web app, the site's root shows the API's documentation.
  else app.get("/", async (_req, reply) => reply.redirect("/api/docs"));

  const document = openApiDocument(docs);
  route("GET", "/api/openapi.json", { summary: "This document", tag: "meta" }, async () => document);
  await app.register(swagger, { mode: "static", specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });
  app.addHook("onClose", async () => streams.closeAll());
  return app;
}
