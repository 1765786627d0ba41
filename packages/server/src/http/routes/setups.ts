import * as P from "@forum-mafia/protocol";
import { nanoid } from "nanoid";
import { z } from "zod";
import { conflict, notFound } from "../errors.ts";
import { MAX_SAVED_SETUPS, type SetupRecord } from "../../stores/store.ts";
import { roleNames } from "../../views/readouts.ts";
import { bodyRoute, langOf, parse, requireUser, route, type RouteContext } from "./context.ts";

/** A saved setup's id in a path: what nanoid makes, and nothing a path could abuse. */
const setupParams = z.strictObject({ setupId: P.str(32, 1) });

/** A stored setup as the wire shows it (SavedSetup): when it was saved stays in the store. */
const savedSetup = (r: SetupRecord): P.SavedSetup => ({ id: r.id, name: r.name, setup: r.setup });

/**
 * Issue 17: a GM's saved setups (S3: a role list and the options), per user, to reuse in new games. Names
 * are unique per user ignoring case: saving under a name already used replaces that setup. At most
 * MAX_SAVED_SETUPS (50) per user. Another user's setup is never shown, changed or confirmed to exist: its
 * id gets the same 404 as an id nobody has.
 */
export function setupRoutes(ctx: RouteContext): void {
  const { store, clock } = ctx;
  route(ctx, {
    method: "GET",
    url: "/api/me/setups",
    summary:
      "Your saved setups (issue 17), the last saved first, and the role names (in ?lang=) the editor shows",
    tag: "me",
    handler: async (req): Promise<P.MySetups> => {
      const user = requireUser(req);
      const setups = (await store.library.listSetups(user.id)).map(savedSetup);
      return { setups, roleNames: roleNames(langOf(req)) };
    },
  });
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/me/setups",
    summary: `Save a setup under a name (one of the same name, ignoring case, is replaced; at most ${MAX_SAVED_SETUPS})`,
    body: P.saveSetupSchema,
    tag: "me",
    handler: async (req, reply, body) => {
      const user = requireUser(req);
      const { name, setup } = body();
      const record: SetupRecord = { id: nanoid(12), name, setup, at: clock.now() };
      const saved = await store.library.saveSetup(user.id, record, MAX_SAVED_SETUPS);
      if (saved === "full")
        throw conflict(
          "setups/full",
          `you have ${MAX_SAVED_SETUPS} saved setups, the most one may keep: delete one, or save under the name of one you have`,
        );
      return reply.status(201).send(savedSetup(saved));
    },
  });
  route(ctx, {
    method: "DELETE",
    url: "/api/me/setups/:setupId",
    summary: "Delete one of your saved setups",
    tag: "me",
    handler: async (req, reply) => {
      const user = requireUser(req);
      const { setupId } = parse(setupParams, req.params, "setupId");
      // One answer whether the id is another user's or nobody's.
      if (!(await store.library.deleteSetup(user.id, setupId)))
        throw notFound("you have no saved setup with this id");
      return reply.status(204).send();
    },
  });
}
