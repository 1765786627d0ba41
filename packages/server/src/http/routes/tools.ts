import type { z } from "zod";
import { ApiError } from "../errors.ts";
import {
  resultsToolSchema,
  threadToolSchema,
  TOOLS_BODY_LIMIT,
  type ToolRunner,
  voteCountToolSchema,
} from "../../tools/tools.ts";
import { bodyRoute, type BodyRoute, type RouteConfig, type RouteContext } from "./context.ts";

/**
 * One tool: its body's schema (for the API document; the worker checks the body by it), the task that reads
 * and works on the body in the pool, and the message if it runs too long.
 */
interface Tool {
  readonly url: string;
  readonly summary: string;
  readonly body: z.ZodType;
  readonly tool: "votecount" | "thread" | "results";
  readonly tooSlow: string;
}

/**
 * A route run in the tools' pool (the tools, and the notebook's pasted thread): its body raw, for the pool
 * to read (the handler hands `rawBodyOf(req)` to the pool, never calls `body()`); a tenth of the app's
 * rate, as the auth routes have; the tools' larger body limit, worded with that limit when exceeded (413); a slot
 * of the pool claimed on the request and freed before the answer leaves.
 */
export function inToolsPool(
  ctx: RouteContext,
  runner: ToolRunner,
): Pick<BodyRoute<z.ZodType>, "config" | "fastify"> {
  // Issue 28: the body stays the bytes that arrived (raw-body.ts), read in the pool, never on the event loop.
  const config: RouteConfig = {
    rawBody: true,
    ...(ctx.limit > 0
      ? { rateLimit: { max: Math.max(10, Math.floor(ctx.limit / 10)), timeWindow: 60_000 } }
      : {}),
  };
  return {
    config,
    fastify: {
      bodyLimit: TOOLS_BODY_LIMIT,
      onRequest: runner.claim,
      // The slot is free before the answer leaves, so a client that sends its next request on receiving
      // it never finds its own previous request still under way.
      onSend: async (req, _reply, payload) => {
        runner.release(req);
        return payload;
      },
      // The app's handler words an oversized body with its own limit; these routes have a larger one.
      errorHandler: (error: { code?: string }) => {
        if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE")
          throw new ApiError(413, error.code, `body: larger than ${TOOLS_BODY_LIMIT} bytes`);
        throw error;
      },
    },
  };
}

function tool(ctx: RouteContext, runner: ToolRunner, spec: Tool): void {
  bodyRoute(ctx, {
    method: "POST",
    url: spec.url,
    summary: spec.summary,
    body: spec.body,
    tag: "tools",
    ...inToolsPool(ctx, runner),
    handler: async (req, reply) => runner.tool(req, reply, spec.tool, spec.tooSlow),
  });
}

/**
 * The GM tools for games on other forums (tools.ts): the vote counter and the results writer. They touch
 * no game, so they need no login. The runner (its pool of threads and its limits) is the app's, shared with
 * the notebook's counts; the app closes it.
 */
export function toolRoutes(ctx: RouteContext, runner: ToolRunner): void {
  tool(ctx, runner, {
    url: "/api/tools/votecount",
    summary: "Count a day's votes in a thread from another forum (the votecount command)",
    body: voteCountToolSchema,
    tool: "votecount",
    tooSlow: `thread: too large to count within ${runner.seconds}; send fewer posts (one day's)`,
  });
  tool(ctx, runner, {
    url: "/api/tools/thread",
    summary:
      "What a thread pasted from a forum page holds (posts, authors, engine), before counting; stores nothing",
    body: threadToolSchema,
    tool: "thread",
    tooSlow: `paste: too large to read within ${runner.seconds}; paste fewer posts (one day's)`,
  });
  tool(ctx, runner, {
    url: "/api/tools/results",
    summary: "The results post of a replay file's last finished phase (the results command)",
    body: resultsToolSchema,
    tool: "results",
    tooSlow: `replay: too large to replay within ${runner.seconds}`,
  });
}
