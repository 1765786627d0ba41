import { exportReplay } from "@forum-mafia/engine";
import * as P from "@forum-mafia/protocol";
import { archivedListed, archivedSummary } from "../../log/archive.ts";
import { conflict } from "../errors.ts";
import { idempotencyOf } from "../../log/idempotency.ts";
import { gameLog } from "../../views/gm-views.ts";
import type { Room } from "../../log/room.ts";
import { viewerOf } from "../../views/viewer.ts";
import { encodingFor, packed } from "../../views/packed.ts";
import { gameDetailJson, summaryOf } from "../../views/views.ts";
import { bodyRoute, idOf, langOf, requireUser, route, shown, type RouteContext } from "./context.ts";

/** The games: the list, creating one (or a demo), its detail, signing up, the start. */
export function gamesRoutes(ctx: RouteContext): void {
  const { games, demo } = ctx;
  const { signups } = ctx.commands;
  route(ctx, {
    method: "GET",
    url: "/api/health",
    summary: "A bare endpoint that does no work (the benchmark's baseline)",
    tag: "meta",
    handler: async () => ({ ok: true }),
  });
  route(ctx, {
    method: "GET",
    url: "/api/games",
    summary: "Every game, newest first",
    tag: "games",
    handler: async (req) => {
      await games.freshAll(); // issue 20: games other instances created or changed
      // A demo game is listed only for its own player (issue 12).
      const userId = req.user?.id ?? null;
      const list: P.GameSummary[] = [];
      const rooms: (Room | null)[] = [];
      for (const { room, archived } of games.list()) {
        if (room && demo.listed(room, userId)) {
          list.push(summaryOf(room, userId));
          rooms.push(room);
        } else if (archived && archivedListed(archived, userId)) {
          // Issue 20: a finished game nobody has opened since the start is listed from its summary.
          list.push(archivedSummary(archived, userId));
          rooms.push(null);
        }
      }
      // Shown once durable, like every read; a game set aside meanwhile is left out until it is back.
      const live = await Promise.all(
        rooms.map((r) =>
          r === null
            ? true
            : games.settled(r).then(
                () => true,
                () => false,
              ),
        ),
      );
      return { games: list.filter((_, i) => live[i]) };
    },
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/games",
    summary: "Create a game (you are its GM)",
    body: P.createGameSchema,
    tag: "games",
    handler: async (req, reply, body) => {
      const user = requireUser(req);
      const id = await signups.create(user, body());
      return reply.status(201).send({ id });
    },
  });
  route(ctx, {
    method: "GET",
    url: "/api/games/:id",
    summary: "The game as you may see it",
    tag: "games",
    handler: async (req, reply) => {
      const room = games.room(idOf(req));
      const user = req.user;
      // Issue 15: the user's read marks here (per user, so every device of the user agrees), read first.
      const read = user
        ? { nick: user.nick, marks: await ctx.store.accounts.readMarks(user.id, room.id) }
        : null;
      // Issue 19: the part every reader with this view shares is serialised once per change of the game,
      // and a guest's whole answer, the same for every guest, is compressed once per change too.
      const viewer = viewerOf(room, user?.id ?? null);
      const lang = langOf(req);
      const body = await shown(ctx, room, () => gameDetailJson(room, viewer, user?.id ?? null, lang, read));
      reply.type("application/json; charset=utf-8");
      const encoding = user ? null : encodingFor(req.headers["accept-encoding"], body);
      if (encoding === null) return reply.send(body);
      const bytes = await packed(room, `detail|${lang}`, body, encoding);
      return reply.header("content-encoding", encoding).header("vary", "accept-encoding").send(bytes);
    },
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/demo",
    summary: "Start a demo game: you take one seat, 16 bots the rest (phases of 2 minutes unless set)",
    body: P.demoSchema,
    tag: "games",
    handler: async (req, reply, body) => {
      const user = requireUser(req);
      const id = await demo.create(user, body().minutes);
      return reply.status(201).send({ id });
    },
  });
  signupRoutes(ctx);
  endedRoutes(ctx);
}

/** Signing up, withdrawing, and the GM's start. */
function signupRoutes(ctx: RouteContext): void {
  const { games, demo } = ctx;
  const { signups } = ctx.commands;
  route(ctx, {
    method: "POST",
    url: "/api/games/:id/signup",
    summary: "Sign up (the setup's seats, then the reserve list)",
    tag: "games",
    idempotent: true,
    handler: async (req) => {
      const user = requireUser(req);
      demo.refuseSignup(games.room(idOf(req))); // also a demo from before the mark (issue 12)
      await signups.signup(user, idOf(req), idempotencyOf(req, user.id));
    },
  });
  route(ctx, {
    method: "DELETE",
    url: "/api/games/:id/signup",
    summary: "Withdraw before the start",
    tag: "games",
    idempotent: true,
    handler: async (req) => {
      const user = requireUser(req);
      await signups.withdraw(user, idOf(req), idempotencyOf(req, user.id));
    },
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/games/:id/start",
    summary: "GM: deal the roles and start night 1 (S1, F1, G4)",
    body: P.startSchema,
    tag: "gm",
    handler: async (req, _reply, body) => {
      await signups.start(requireUser(req), idOf(req), body().deal);
    },
  });
}

/** After the end (R3, F1, F2): the replay file and the published log. */
function endedRoutes(ctx: RouteContext): void {
  const ended = (id: string): Room => {
    const room = ctx.games.room(id);
    if (room.status !== "ended") throw conflict("game/running", "published when the game ends (R3)", "R3");
    return room;
  };
  route(ctx, {
    method: "GET",
    url: "/api/games/:id/replay",
    summary: "The game as a REPLAY.md file (after the end)",
    tag: "games",
    handler: async (req, reply) => {
      const room = ended(idOf(req));
      const replay = await shown(ctx, room, () => exportReplay(room.match!));
      return reply
        .header("content-disposition", `attachment; filename="forum-mafia-${room.id}.json"`)
        .send(replay);
    },
  });
  route(ctx, {
    method: "GET",
    url: "/api/games/:id/log",
    summary: "The published log: every GM decision with its reason, hidden posts (after the end)",
    tag: "games",
    handler: async (req) => {
      const room = ended(idOf(req));
      return shown(ctx, room, () => gameLog(room, langOf(req)));
    },
  });
}
