import * as P from "@forum-mafia/protocol";
import { nightDraft } from "../../game/draft.ts";
import { conflict } from "../errors.ts";
import { toNightAction } from "../../game/play.ts";
import { idempotencyOf } from "../../log/idempotency.ts";
import { bodyRoute, idOf, langOf, requireUser, route, shown, type RouteContext } from "./context.ts";

/** The night: a player's action (O1) and the GM's draft of the results. */
export function nightRoutes(ctx: RouteContext): void {
  const { play, gm } = ctx.commands;
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/games/:id/actions",
    summary: "Submit, replace or pass your night action (O1)",
    body: P.actionSchema,
    tag: "play",
    idempotent: true,
    handler: async (req, _reply, body) => {
      const user = requireUser(req);
      const action = toNightAction(body());
      await play.act(user, idOf(req), action, idempotencyOf(req, user.id, action));
    },
  });
  route(ctx, {
    method: "GET",
    url: "/api/games/:id/gm/draft",
    summary: "GM: the night's draft results with an explanation",
    tag: "gm",
    handler: async (req) => {
      const room = gm.gmRoom(requireUser(req), idOf(req));
      if (room.status !== "running" || room.phase!.kind !== "night")
        throw conflict("night/not-night", "there is no night to review");
      return shown(ctx, room, () => nightDraft(room, langOf(req)));
    },
  });
}
