import * as P from "@forum-mafia/protocol";
import { z } from "zod";
import { forbidden } from "../errors.ts";
import { idempotencyOf } from "../../log/idempotency.ts";
import { viewerOf } from "../../views/viewer.ts";
import { channels } from "../../views/readouts.ts";
import { bodyRoute, parse, requireUser, route, shown, type RouteContext } from "./context.ts";

const channelParams = z.strictObject({
  id: P.str(32, 1),
  // Written one way only ("gm:5", never "gm:05"), so a channel has exactly one id.
  channel: z.union([
    z.enum(["mafia", "pair", "spectators"]),
    z.templateLiteral(["gm:", z.number()]).refine((c) => /^gm:(0|[1-9]\d?)$/.test(c), "expected gm:<seat>"),
  ]),
});

/** The private channels (S2, G6–G8): the mafia's, the pair's, the spectators', each player's with the GM. */
export function channelRoutes(ctx: RouteContext): void {
  const { games } = ctx;
  const { play } = ctx.commands;
  route(ctx, {
    method: "GET",
    url: "/api/games/:id/channels/:channel",
    summary: "A private channel you belong to",
    tag: "play",
    handler: async (req) => {
      const p = parse(channelParams, req.params, "channel");
      const room = games.room(p.id);
      const c = channels(room, viewerOf(room, req.user?.id ?? null)).find((ch) => ch.id === p.channel);
      if (!c) throw forbidden("channel/not-member", `you are not a member of the channel ${p.channel}`, "G6");
      return shown(ctx, room, () => c);
    },
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/games/:id/channels/:channel",
    summary: "Write in a private channel (S2, G6–G8)",
    body: P.messageSchema,
    tag: "play",
    idempotent: true,
    handler: async (req, reply, body) => {
      const p = parse(channelParams, req.params, "channel");
      const user = requireUser(req);
      const { text } = body();
      await play.message(user, p.id, p.channel, text, idempotencyOf(req, user.id, text));
      return reply.status(201).send({ ok: true });
    },
  });
}
