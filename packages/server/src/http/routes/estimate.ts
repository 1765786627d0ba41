import * as P from "@forum-mafia/protocol";
import { EstimateBusy, Estimator } from "../../tools/estimate.ts";
import type { EstimateOptions } from "../../tools/estimate-options.ts";
import { bodyRoute, requireUser, type RouteConfig, type RouteContext } from "./context.ts";

/**
 * Issue 17: the balance estimate of a setup (estimate.ts), shown beside the setup editor before a game
 * opens. Signed-in users only; the route gets a tenth of the app's rate per user, as the GM tools do.
 */
export function estimateRoutes(ctx: RouteContext, options: EstimateOptions | Estimator = {}): void {
  const estimator = options instanceof Estimator ? options : new Estimator(options);
  // Issue 28: before a shutdown's drain waits for the requests in flight, so an estimate still waiting is
  // answered 503 estimate/closed (the client asks another instance) instead of holding the drain.
  ctx.app.addHook("preClose", () => estimator.close());
  // The pool's threads load and warm up as the server starts, not during the first estimate.
  if (estimator.warmOnListen)
    ctx.app.addHook("onListen", async () => {
      estimator.warm().catch((e: unknown) => console.error("estimate: warming the pool failed:", e));
    });
  const config: RouteConfig =
    ctx.limit > 0 ? { rateLimit: { max: Math.max(10, Math.floor(ctx.limit / 10)), timeWindow: 60_000 } } : {};
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/setups/estimate",
    summary:
      "The balance of a setup (S3): win rates with 95% intervals and the mean length, from 2,000 bot games of it",
    body: P.setupSchema,
    tag: "setups",
    config,
    handler: async (req, reply, body) => {
      const user = requireUser(req);
      const setup = body();
      // The client hanging up before the answer stops the estimate (unless others wait for it too).
      const abort = new AbortController();
      const hungUp = (): void => {
        if (!reply.raw.writableFinished) abort.abort();
      };
      reply.raw.once("close", hungUp);
      try {
        const estimate: P.BalanceEstimate = await estimator.estimate(user.id, setup, abort.signal);
        return estimate;
      } catch (e) {
        // Issue 28: a full queue says when to ask again.
        if (e instanceof EstimateBusy) void reply.header("retry-after", String(e.retryAfter));
        throw e;
      } finally {
        reply.raw.off("close", hungUp);
      }
    },
  });
}
