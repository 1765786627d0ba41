import * as P from "@forum-mafia/protocol";
import { forbidden } from "../errors.ts";
import { myGames, myPart, type MyPart } from "../../views/me-views.ts";
import { isQuiet } from "../../mail/reminders.ts";
import type { Room } from "../../log/room.ts";
import { viewerOf } from "../../views/viewer.ts";
import { channels, roleNames } from "../../views/readouts.ts";
import { bodyRoute, durableParts, idOf, langOf, requireUser, route, type RouteContext } from "./context.ts";

/** Issue 15: «Мои игры» (GET /api/me/games) and read marks (PUT /api/games/:id/read). */
export function meRoutes(ctx: RouteContext): void {
  const { games, store, clock } = ctx;
  route(ctx, {
    method: "GET",
    url: "/api/me/games",
    summary:
      "«Мои игры»: your games (playing, signed up, hosting, finished), what you owe, reminders due now",
    tag: "me",
    handler: async (req) => {
      await games.freshAll(); // issue 20: games other instances created or changed
      const user = requireUser(req);
      const [marks, settings] = await Promise.all([
        store.accounts.userReadMarks(user.id),
        store.accounts.settings(user.id),
      ]);
      const input = { offsets: settings?.before ?? P.DEFAULT_REMINDERS, now: clock.now() };
      const me = { id: user.id, nick: user.nick };
      // Newest first, like the lobby; built now, sent once durable (a game set aside meanwhile is left out).
      const parts: { room: Room; part: MyPart }[] = [];
      for (const room of await games.roomsOf(me)) {
        const part = myPart(room, me, marks[room.id] ?? {}, input);
        if (part) parts.push({ room, part });
      }
      const quiet = isQuiet(input.now, settings?.quietHours ?? null, user.timeZone);
      return myGames(await durableParts(ctx, parts), quiet, roleNames(langOf(req)), input.now);
    },
  });
  bodyRoute(ctx, {
    method: "PUT",
    url: "/api/games/:id/read",
    summary: "Mark the thread or one of your channels read up to an item (issue 15: unread counts)",
    body: P.readSchema,
    tag: "me",
    handler: async (req, _reply, body) => {
      const user = requireUser(req);
      const room = games.room(idOf(req));
      const { where, upTo } = body();
      await games.settled(room);
      let count: number;
      if (where === "thread") count = room.posts.length;
      else {
        const channel = channels(room, viewerOf(room, user.id)).find((c) => c.id === where);
        // One answer for every channel the user may not read, whatever it holds (or whether it exists).
        if (!channel) throw forbidden("channel/not-member", "you are not a member of that channel", "G6");
        count = channel.messages.length;
      }
      await store.accounts.markRead(user.id, room.id, where, Math.min(upTo, count));
    },
  });
}
