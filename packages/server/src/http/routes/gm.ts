import { nickKey } from "@forum-mafia/forum";
import * as P from "@forum-mafia/protocol";
import { z } from "zod";
import { notFound } from "../errors.ts";
import type { UserRecord } from "../../stores/store.ts";
import { bodyRoute, idOf, parse, requireUser, route, type RouteContext } from "./context.ts";

const postParams = z.strictObject({ id: P.str(32, 1), postId: P.str(32, 1) });
const flagParams = z.strictObject({ id: P.str(32, 1), flagId: P.str(32, 1) });

/** A GM command with a body: `POST /api/games/:id/gm/<url>`; the login is checked, then the body, then the id. */
function gmCommand<S extends z.ZodType>(
  ctx: RouteContext,
  url: string,
  summary: string,
  schema: S,
  run: (user: UserRecord, id: string, body: z.infer<S>) => Promise<void>,
): void {
  bodyRoute(ctx, {
    method: "POST",
    url: `/api/games/:id/gm/${url}`,
    summary: `GM: ${summary}`,
    body: schema,
    tag: "gm",
    handler: async (req, _reply, body) => {
      const user = requireUser(req);
      const b = body();
      await run(user, idOf(req), b);
    },
  });
}

/** A GM command without a body. */
function gmPlain(
  ctx: RouteContext,
  url: string,
  summary: string,
  run: (user: UserRecord, id: string) => Promise<void>,
): void {
  route(ctx, {
    method: "POST",
    url: `/api/games/:id/gm/${url}`,
    summary: `GM: ${summary}`,
    tag: "gm",
    handler: async (req) => {
      const user = requireUser(req);
      await run(user, idOf(req));
    },
  });
}

/** The GM's commands: the clock, the night's review, moderation (F2, G5, G10, P4). */
export function gmRoutes(ctx: RouteContext): void {
  const { store } = ctx;
  const { gm, signups, conduct } = ctx.commands;
  gmCommand(ctx, "extend", "extend the phase", P.extendSchema, (u, id, b) => gm.extend(u, id, b.minutes));
  gmPlain(ctx, "close", "close the phase now (in review mode a night then awaits review)", (u, id) =>
    gm.closePhase(u, id),
  );
  gmPlain(ctx, "pause", "pause the game's clock", (u, id) => gm.pause(u, id));
  gmPlain(ctx, "resume", "resume the game's clock", (u, id) => gm.resume(u, id));
  gmCommand(ctx, "council", "answer the council question (M2c)", P.councilSchema, (u, id, b) =>
    gm.answerCouncil(u, id, b.answer, b.reason),
  );
  gmCommand(ctx, "rolls", "fix rolls with a reason (F2)", P.rollsSchema, (u, id, b) =>
    gm.fixRolls(u, id, b.rolls, b.reason),
  );
  gmCommand(ctx, "reopen-mafia", "reopen the mafia's action as the G10 penalty", P.reasonSchema, (u, id, b) =>
    gm.reopenMafia(u, id, b.reason),
  );
  gmPlain(ctx, "publish", "publish the night's results", (u, id) => gm.publish(u, id));
  gmCommand(
    ctx,
    "modkill",
    "modkill a player at the end of the phase (G5, F2)",
    P.modkillSchema,
    (u, id, b) => gm.modkill(u, id, b.seat, b.reason),
  );
  gmCommand(ctx, "replace", "replace a player by a substitute (P4)", P.replaceSchema, async (u, id, b) => {
    gm.gmRoom(u, id); // the GM first: nobody else learns which nicks exist here
    const sub = await store.accounts.userByNickKey(nickKey(b.nick));
    if (!sub) throw notFound(`nick: no user ${JSON.stringify(b.nick)}`);
    await signups.replace(u, id, b.seat, sub, b.reason);
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/games/:id/posts/:postId/hide",
    summary: "GM: hide a post with a reason",
    body: P.hidePostSchema,
    tag: "gm",
    handler: async (req, _reply, body) => {
      const p = parse(postParams, req.params, "postId");
      await gm.hide(requireUser(req), p.id, p.postId, body().reason);
    },
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/games/:id/gm/flags/:flagId",
    summary:
      "GM: a measure on a flagged post or chat message (G5, F2): dismiss, warn, hide, strike (P3) or modkill",
    body: P.flagMeasureSchema,
    tag: "gm",
    handler: async (req, _reply, body) => {
      const p = parse(flagParams, req.params, "flagId");
      const b = body();
      await conduct.measure(requireUser(req), p.id, p.flagId, b.measure, b.reason);
    },
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/games/:id/posts/:postId/restore",
    summary: "GM: restore a hidden post with a reason (F2)",
    body: P.restorePostSchema,
    tag: "gm",
    handler: async (req, _reply, body) => {
      const p = parse(postParams, req.params, "postId");
      await gm.restore(requireUser(req), p.id, p.postId, body().reason);
    },
  });
}
