import type { MessagePort } from "node:worker_threads";
import type { z } from "zod";
import { ApiError } from "../errors.ts";
import {
  resultsToolSchema,
  threadToolSchema,
  TOOLS_BODY_LIMIT,
  type ToolRunner,
  voteCountToolSchema,
} from "../tools.ts";
import type { ToolTask } from "../tools-worker.ts";
import { bodyRoute, type BodyRoute, type RouteConfig, type RouteContext } from "./context.ts";

/** One tool: its body parsed by its schema, handed to the pool as a task, with the message if it runs too long. */
interface Tool<S extends z.ZodType> {
  readonly url: string;
  readonly summary: string;
  readonly body: S;
  readonly task: (body: z.infer<S>, started: MessagePort) => ToolTask;
  readonly tooSlow: string;
}

/**
 * A route run in the tools' pool (the tools, and the notebook's pasted thread): a tenth of the app's rate,
 * as the auth routes have; the tools' larger body limit, worded with that limit when exceeded (413); a slot
 * of the pool claimed on the request and freed before the answer leaves.
 */
export function inToolsPool(
  ctx: RouteContext,
  runner: ToolRunner,
): Pick<BodyRoute<z.ZodType>, "config" | "fastify"> {
  const config: RouteConfig =
    ctx.limit > 0 ? { rateLimit: { max: Math.max(10, Math.floor(ctx.limit / 10)), timeWindow: 60_000 } } : {};
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

function tool<S extends z.ZodType>(ctx: RouteContext, runner: ToolRunner, spec: Tool<S>): void {
  bodyRoute(ctx, {
    method: "POST",
    url: spec.url,
    summary: spec.summary,
    body: spec.body,
    tag: "tools",
    ...inToolsPool(ctx, runner),
    handler: async (_req, reply, body) => {
      const b = body();
      return runner.run(reply, (started) => spec.task(b, started), spec.tooSlow);
    },
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
    // A pasted thread (issue 18) is read and counted by the notebook's task; its answer adds what was found.
    task: (body, started) =>
      body.paste
        ? {
            tool: "countPaste",
            body: {
              paste: body.paste,
              roster: body.players,
              gm: body.gm ?? null,
              day: body.day ?? null,
              silenced: body.silenced,
              lang: "ru",
            },
            started,
          }
        : { tool: "votecount", body, started },
    tooSlow: `thread: too large to count within ${runner.seconds}; send fewer posts (one day's)`,
  });
  tool(ctx, runner, {
    url: "/api/tools/thread",
    summary:
      "What a thread pasted from a forum page holds (posts, authors, engine), before counting; stores nothing",
    body: threadToolSchema,
    task: (body, started) => ({
      tool: "readPaste",
      body: { paste: body.paste, roster: body.players ?? null },
      started,
    }),
    tooSlow: `paste: too large to read within ${runner.seconds}; paste fewer posts (one day's)`,
  });
  tool(ctx, runner, {
    url: "/api/tools/results",
    summary: "The results post of a replay file's last finished phase (the results command)",
    body: resultsToolSchema,
    task: (body, started) => ({ tool: "results", body, started }),
    tooSlow: `replay: too large to replay within ${runner.seconds}`,
  });
}
