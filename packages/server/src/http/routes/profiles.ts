import { nickKey } from "@forum-mafia/forum";
import * as P from "@forum-mafia/protocol";
import { z } from "zod";
import { notFound } from "../errors.ts";
import { profilePart, profileView, type ProfilePart } from "../../views/profiles.ts";
import type { Room } from "../../log/room.ts";
import { roleNames } from "../../views/readouts.ts";
import { durableParts, langOf, parse, route, type RouteContext } from "./context.ts";

const nickParams = z.strictObject({ nick: P.str(64, 1) });

/** Issue 15: a player's profile (GET /api/users/:nick), from ended games only (R3). */
export function profileRoutes(ctx: RouteContext): void {
  const { games, store, demo } = ctx;
  route(ctx, {
    method: "GET",
    url: "/api/users/:nick",
    summary:
      "A player's record from ended games: roles, results, win rates by faction, strikes, games hosted",
    tag: "me",
    handler: async (req) => {
      const { nick } = parse(nickParams, req.params, "nick");
      const user = await store.accounts.userByNickKey(nickKey(nick));
      if (!user) throw notFound(`no user ${nick}`);
      await games.freshAll(); // issue 20: games other instances changed
      // Newest first. A demo game (issue 12) is its player's own practice with bots: no record.
      const parts: { room: Room; part: ProfilePart }[] = [];
      for (const room of await games.roomsOf(user)) {
        if (demo.isDemo(room)) continue;
        const part = profilePart(room, user);
        if (part) parts.push({ room, part });
      }
      // Shown once durable (issue 11); a game set aside meanwhile is left out until it is back.
      return profileView(user, await durableParts(ctx, parts), roleNames(langOf(req)));
    },
  });
}
