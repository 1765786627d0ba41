import * as P from "@forum-mafia/protocol";
import { z } from "zod";
import { idempotencyOf } from "../../log/idempotency.ts";
import { textCheck } from "../../game/conduct.ts";
import { streamLength } from "../../streams/positions.ts";
import { posts } from "../../views/readouts.ts";
import { viewerOf } from "../../views/viewer.ts";
import { bodyRoute, idOf, parse, requireUser, route, shown, type RouteContext } from "./context.ts";

const pageQuery = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** «Посты игрока» (issue 15): only this seat's posts; `after` and `total` count them alone. */
  seat: z.coerce.number().int().min(0).max(63).optional(),
  /**
   * Issue 32: `?stream=1` adds `streamAt`, the asker's own stream length when the page was read, so the game
   * page may fetch the thread alongside the detail and open its stream at the earlier of the two.
   */
  stream: z.literal("1").optional(),
});

/** The game thread and the day's votes (V1–V7): reading, posting, a draft's preview, a one-tap vote. */
export function threadRoutes(ctx: RouteContext): void {
  const { games } = ctx;
  const { play } = ctx.commands;
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/games/:id/votes",
    summary: "Vote red or blue (V1–V7)",
    body: P.voteSchema,
    tag: "play",
    idempotent: true,
    handler: async (req, _reply, body) => {
      const user = requireUser(req);
      const vote = body();
      await play.vote(user, idOf(req), vote, idempotencyOf(req, user.id, vote));
    },
  });
  route(ctx, {
    method: "GET",
    url: "/api/games/:id/posts",
    summary: "The game thread; with ?seat= only that seat's posts («Посты игрока»)",
    query: pageQuery,
    tag: "play",
    handler: async (req) => {
      const room = games.room(idOf(req));
      const q = parse(pageQuery, req.query, "query");
      return shown(ctx, room, () => {
        const page = posts(room, q.after, q.limit, q.seat ?? null);
        if (q.stream === undefined) return page;
        // Read in the same turn as the posts: the stream from here on brings whatever they lack.
        return { ...page, streamAt: streamLength(room, viewerOf(room, req.user?.id ?? null)) };
      });
    },
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/games/:id/posts",
    summary: "Post in the game thread; a coloured nick is a vote (V2)",
    body: P.postSchema,
    tag: "play",
    idempotent: true,
    handler: async (req, reply, body) => {
      const user = requireUser(req);
      const { text } = body();
      const id = await play.post(user, idOf(req), text, idempotencyOf(req, user.id, text));
      return reply.status(201).send({ id });
    },
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/games/:id/posts/preview",
    summary:
      "What a draft post would count as (a vote, a refusal, coloured text that names nobody); stores nothing",
    body: P.postSchema,
    tag: "play",
    handler: async (req, _reply, body) => play.previewPost(requireUser(req), idOf(req), body().text),
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/text/check",
    summary:
      "Whether a text breaks G5 (мат or an insult) and the words; the chat composer asks before sending",
    body: P.textCheckSchema,
    tag: "play",
    handler: async (req, _reply, body) => {
      requireUser(req);
      return textCheck(body().text);
    },
  });
}
