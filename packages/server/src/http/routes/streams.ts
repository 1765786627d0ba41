import { z } from "zod";
import { SESSION_COOKIE } from "../../accounts/auth.ts";
import { drainOnClose } from "../shutdown.ts";
import { idOf, langOf, route, type RouteContext } from "./context.ts";

const streamQuery = z.strictObject({
  after: z.coerce.number().int().min(0).optional(),
  lang: z.string().optional(),
});

/** The live updates of a game (server-sent events, stream.ts). */
export function streamRoutes(ctx: RouteContext): void {
  const { games, accounts, streams } = ctx;
  // Issue 28: on close, the streams end (with a reconnect hint) and every answer closes its connection.
  drainOnClose(ctx.app, streams);
  route(ctx, {
    method: "GET",
    url: "/api/games/:id/stream",
    summary:
      "Live updates (server-sent events); resumes from Last-Event-ID. Open streams are capped " +
      "(by default 8 per user, 8 per address without a session, 64 per address): beyond, 429 stream/too-many",
    tag: "play",
    handler: async (req, reply) => {
      const room = games.room(idOf(req));
      const q = streamQuery.safeParse(req.query);
      const header = req.headers["last-event-id"];
      const after = Number(
        typeof header === "string" && /^\d+$/.test(header) ? header : ((q.success ? q.data.after : 0) ?? 0),
      );
      const token = req.cookies[SESSION_COOKIE];
      const user = req.user && token ? { id: req.user.id, session: accounts.sessionKey(token) } : null;
      streams.open(room, user, after, langOf(req), req, reply);
    },
  });
}
