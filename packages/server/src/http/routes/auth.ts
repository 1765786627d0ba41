import { nickKey } from "@forum-mafia/forum";
import * as P from "@forum-mafia/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import { SESSION_COOKIE, SESSION_DAYS } from "../../accounts/auth.ts";
import { LoginBackoff, type LoginLimiter } from "../../accounts/auth-limits.ts";
import { isTimeZone } from "../../game/deadline.ts";
import { ApiError } from "../errors.ts";
import { GUEST_TAG, SESSION_TAG_HEADER, sessionTag } from "../session-tag.ts";
import type { UserRecord } from "../../stores/store.ts";
import { bodyRoute, requireUser, route, type RouteConfig, type RouteContext } from "./context.ts";

const userView = (u: UserRecord): P.UserView => ({
  id: u.id,
  nick: u.nick,
  timeZone: u.timeZone,
  lang: u.lang,
});

/**
 * Accounts: register, log in and out, the logged-in user and their profile. `logins` counts failed logins
 * per nick: in this process by default, in the shared database when several instances share it (issue 20).
 */
export function authRoutes(ctx: RouteContext, logins: LoginLimiter = new LoginBackoff(ctx.clock)): void {
  const { accounts, store, streams, limit } = ctx;
  // Logging in and registering count by address, never by session: a session would give each new account
  // a bucket of its own, and so more guesses from the same address (issue 11). Guesses at one nick from
  // anywhere are slowed by LoginBackoff.
  const authLimit: RouteConfig =
    limit > 0
      ? {
          rateLimit: {
            max: Math.max(5, Math.floor(limit / 10)),
            timeWindow: 60_000,
            keyGenerator: (req: FastifyRequest) => `auth:${req.ip}`,
          },
        }
      : {};

  const setSession = async (reply: FastifyReply, user: UserRecord): Promise<void> => {
    const s = await accounts.openSession(user.id);
    reply.setCookie(SESSION_COOKIE, s.token, {
      httpOnly: true,
      sameSite: "lax",
      // A cookie over https is Secure: never sent over plain http, where anyone on the way could read it.
      secure: ctx.publicUrl?.protocol === "https:",
      path: "/",
      maxAge: SESSION_DAYS * 86_400,
    });
    // Issue 32: the answer names the new session (the service worker drops what it saved for another).
    reply.header(SESSION_TAG_HEADER, sessionTag(s.token));
  };

  bodyRoute(ctx, {
    method: "POST",
    url: "/api/register",
    summary: "Create an account and log in",
    body: P.registerSchema,
    tag: "accounts",
    config: authLimit,
    handler: async (_req, reply, body) => {
      const b = body();
      const user = await accounts.register(b.nick, b.password, b.timeZone);
      await setSession(reply, user);
      return reply.status(201).send({ user: userView(user) });
    },
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/login",
    summary: "Log in",
    body: P.credentialsSchema,
    tag: "accounts",
    config: authLimit,
    handler: async (_req, reply, body) => {
      const b = body();
      const key = nickKey(b.nick);
      // Counted before the password is checked, so parallel guesses cannot all slip past the check.
      await logins.attempt(key);
      const user = await accounts.login(b.nick, b.password);
      await logins.succeeded(key);
      await setSession(reply, user);
      return { user: userView(user) };
    },
  });
  route(ctx, {
    method: "POST",
    url: "/api/logout",
    summary: "Log out",
    tag: "accounts",
    handler: async (req, reply) => {
      const token = req.cookies[SESSION_COOKIE];
      try {
        // Every other instance is told, and ends its own streams of the session (issue 20).
        await accounts.closeSession(token);
      } finally {
        // The session is gone: its live streams end now, not when their clients next reconnect.
        if (token) streams.closeSession(accounts.sessionKey(token));
      }
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      reply.header(SESSION_TAG_HEADER, GUEST_TAG);
      return { ok: true };
    },
  });
  // A guest is an answer, not an error: `{ user: null }` (a 401 here would be logged by every browser on
  // every guest's first visit).
  route(ctx, {
    method: "GET",
    url: "/api/me",
    summary: "The logged-in user, or null for a guest",
    tag: "accounts",
    handler: async (req) => ({ user: req.user ? userView(req.user) : null }),
  });
  bodyRoute(ctx, {
    method: "PATCH",
    url: "/api/me",
    summary: "Change the time zone or language",
    body: P.profileSchema,
    tag: "accounts",
    handler: async (req, _reply, body) => {
      const user = requireUser(req);
      const b = body();
      if (b.timeZone !== undefined && !isTimeZone(b.timeZone))
        throw new ApiError(400, "invalid", `timeZone: unknown time zone ${JSON.stringify(b.timeZone)}`);
      await store.accounts.updateUser(user.id, b);
      await accounts.userChanged(user.id);
      return { user: userView((await store.accounts.userById(user.id))!) };
    },
  });
}
