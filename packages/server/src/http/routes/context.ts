import type { Lang } from "@forum-mafia/engine";
import type { Cluster } from "../../log/cluster.ts";
import * as P from "@forum-mafia/protocol";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { z } from "zod";
import type { Accounts } from "../../accounts/auth.ts";
import type { Clock } from "../../clock.ts";
import type { Demo } from "../../demo/demo.ts";
import { ApiError } from "../errors.ts";
import { invalidMessage } from "../invalid.ts";
import type { Commands } from "../../game/commands.ts";
import type { Games } from "../../log/games.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { RouteDoc } from "../openapi.ts";
import type { Reminders } from "../../mail/reminders.ts";
import type { Room } from "../../log/room.ts";
import type { Store, UserRecord } from "../../stores/store.ts";
import type { Streams } from "../../streams/stream.ts";

declare module "fastify" {
  interface FastifyRequest {
    user: UserRecord | null;
  }
}

/** What every route module is given: the app to register on, the services, and the API document's list. */
export interface RouteContext {
  readonly app: FastifyInstance;
  readonly store: Store;
  readonly clock: Clock;
  /** Issue 20: the other instances on the same database. */
  readonly cluster: Cluster;
  readonly games: Games;
  /** Issue 29: the game commands, committed through `games`. */
  readonly commands: Commands;
  readonly demo: Demo;
  readonly accounts: Accounts;
  readonly streams: Streams;
  /** The site's origin as users see it (PUBLIC_URL); null: loopback names only. */
  readonly publicUrl: URL | null;
  /** Requests per minute per session or address; 0: no limits. */
  readonly limit: number;
  /** The API document's list: each route adds itself with its zod schemas (the fuzz tests read it). */
  readonly docs: RouteDoc[];
  /** Issue 15: e-mail (the outbox's mailer and the reminders); null when SMTP_URL is not set. */
  readonly mail: MailContext | null;
}

export interface MailContext {
  readonly mailer: Mailer;
  readonly reminders: Reminders;
}

/** The field path and zod's message, e.g. `night.amount: Too small: expected number to be >=1`. */
function invalid(where: string, error: z.ZodError): ApiError {
  return new ApiError(400, "invalid", invalidMessage(where, error));
}

/** The edge's validation: the value as the schema reads it, or a 400 naming the field. */
export function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(where, r.error);
  return r.data;
}

/** The logged-in user, or a 401. */
export function requireUser(req: FastifyRequest): UserRecord {
  if (!req.user)
    throw new ApiError(401, "unauthenticated", "log in first: no valid session (it may have expired)");
  return req.user;
}

/** The game id of a `/api/games/:id/…` route. */
export const idOf = (req: FastifyRequest): string => parse(P.idParams, req.params, "id").id;

/** `?lang=` alone, whatever else the query holds; anything but ru or en is ignored. */
const langQuery = z.object({ lang: z.enum(["ru", "en"]).optional() });

/** The language of an answer's texts: `?lang=`, else the user's, else Russian. */
export function langOf(req: FastifyRequest): Lang {
  const q = langQuery.safeParse(req.query);
  return (q.success && q.data.lang) || req.user?.lang || "ru";
}

/**
 * A read: its answer is built from the room now and sent once everything in it is durable (issue 11: a
 * reader never sees what a crash could take back). The builders copy what they return, so later
 * commands cannot change an answer while it waits.
 */
export async function shown<T>(ctx: RouteContext, room: Room, build: () => T): Promise<T> {
  const out = build();
  await ctx.games.settled(room);
  return out;
}

/**
 * The parts of a read built from several rooms, kept for the rooms whose writes so far are durable (issue
 * 11); a room set aside meanwhile is left out until it is back.
 */
export async function durableParts<T>(
  ctx: RouteContext,
  parts: readonly { room: Room; part: T }[],
): Promise<T[]> {
  const live = await Promise.all(
    parts.map(({ room }) =>
      ctx.games.settled(room).then(
        () => true,
        () => false,
      ),
    ),
  );
  return parts.filter((_, i) => live[i]).map((p) => p.part);
}

export interface RouteConfig {
  /** Issue 28: the body is kept as its bytes (raw-body.ts), for the tools' pool to read. */
  readonly rawBody?: true;
  readonly rateLimit?: {
    readonly max: number;
    readonly timeWindow: number;
    readonly keyGenerator?: (req: FastifyRequest) => string;
  };
}

interface RouteSpec {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  readonly url: string;
  readonly summary: string;
  readonly tag: string;
  readonly query?: z.ZodType;
  /** Issue 28: the handler honours an Idempotency-Key header (idempotency.ts); listed in the API document. */
  readonly idempotent?: true;
  readonly config?: RouteConfig;
  /** Fastify's own options for this route (the GM tools' larger body limit and their hooks). */
  readonly fastify?: Pick<RouteOptions, "bodyLimit" | "onRequest" | "onSend" | "errorHandler">;
}

/** A route that takes no body: any body but `{}` is refused (400, unknown fields). */
export interface PlainRoute extends RouteSpec {
  readonly handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/** A route with a JSON body, documented and parsed by the one schema. */
export interface BodyRoute<S extends z.ZodType> extends RouteSpec {
  readonly body: S;
  /**
   * `body()` parses the request's body with the route's schema (a 400 naming the field): the handler calls
   * it where that check comes, e.g. after the login check.
   */
  readonly handler: (req: FastifyRequest, reply: FastifyReply, body: () => z.infer<S>) => Promise<unknown>;
}

const noBody = z.strictObject({});

function register(
  ctx: RouteContext,
  spec: RouteSpec,
  body: z.ZodType | undefined,
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  const { method, url, summary, tag, query } = spec;
  ctx.docs.push({
    method,
    url,
    summary,
    ...(body ? { body } : {}),
    ...(query ? { query } : {}),
    ...(spec.idempotent ? { idempotent: true } : {}),
    tag,
  });
  ctx.app.route({
    method,
    url,
    config: spec.config ?? {},
    ...spec.fastify,
    handler: async (req, reply) => {
      if (body === undefined && method !== "GET" && req.body !== undefined && req.body !== null)
        parse(noBody, req.body, "body");
      const out = await handler(req, reply);
      // A handler that answers nothing answers `{ ok: true }`.
      return reply.sent ? reply : reply.send(out ?? { ok: true });
    },
  });
}

/** Register a route that takes no body, and list it in the API document. */
export function route(ctx: RouteContext, spec: PlainRoute): void {
  register(ctx, spec, undefined, spec.handler);
}

/** Register a route with a body, and list it in the API document with the schema its handler parses by. */
export function bodyRoute<S extends z.ZodType>(ctx: RouteContext, spec: BodyRoute<S>): void {
  register(ctx, spec, spec.body, (req, reply) =>
    spec.handler(req, reply, () => parse(spec.body, req.body ?? {}, "body")),
  );
}
