import { exportReplay, isRejection, seedCommitment, startMatch, type Lang } from "@forum-mafia/engine";
import * as P from "@forum-mafia/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import { nanoid } from "nanoid";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { councilQuestion, councilSuggestion } from "../../game/draft.ts";
import { ApiError, badRequest, conflict, notFound } from "../errors.ts";
import {
  addAction,
  addModkill,
  addReplace,
  addVote,
  answerCouncil,
  close,
  day,
  fixRolls,
  rebuild,
  removeInput,
  reviewed,
  setAliases,
  setGm,
  gmNick,
  type Built,
} from "../../notebooks/notebook.ts";
import {
  emptyPhase,
  handDealFault,
  readDoc,
  writeDoc,
  type NotebookDoc,
} from "../../notebooks/notebook-doc.ts";
import { encodingFor, NotebookCache } from "../../notebooks/notebook-cache.ts";
import { notebookSummary, notebookView } from "../../notebooks/notebook-view.ts";
import type { NotebookRecord } from "../../stores/store.ts";
import type { ToolRunner } from "../../tools/tools.ts";
import { toNightAction } from "../../game/play.ts";
import { bodyRoute, langOf, parse, requireUser, route, type RouteContext } from "./context.ts";
import { inToolsPool } from "./tools.ts";

/** A notebook's id in a path: what nanoid makes, and nothing a path could abuse. */
const notebookParams = z.strictObject({ id: P.str(32, 1) });

/** One answer for a notebook that is another user's and one that does not exist (issue 18: private). */
const NO_NOTEBOOK = "no notebook with this id";

/**
 * Issue 18: the off-site game's notebook (notebook.ts), private to its GM. Every route reads the row, checks
 * the owner (another user's notebook answers the same 404 as a missing id), rebuilds the match from the
 * document, applies the change with the engine, and writes the document back only if the row still has the
 * version read (a lost race: 409 `notebook/changed`, nothing lost). The day's thread is read, counted and
 * applied to the document in the tools' worker pool (tools.ts, notebook.ts `notebookThread`), never on the
 * event loop. Issue 28: the rebuilt match and each answer's bytes are kept per notebook and version
 * (notebook-cache.ts), so a read of an unchanged notebook redoes nothing.
 */
export function notebookRoutes(ctx: RouteContext, runner: ToolRunner): void {
  const h = helpersOf(ctx);
  readRoutes(ctx, h);
  createRoute(ctx, h);
  changeRoutes(ctx, h);
  threadRoute(ctx, h, runner);
  exportRoutes(ctx, h);
}

type Helpers = ReturnType<typeof helpersOf>;

/** The answers sent as kept bytes are JSON, as Fastify would have sent the objects. */
const JSON_TYPE = "application/json; charset=utf-8";

function helpersOf(ctx: RouteContext) {
  const { store, clock } = ctx;
  const cache = new NotebookCache();

  const idOf = (req: FastifyRequest): string => parse(notebookParams, req.params, "id").id;

  /** The signed-in owner's notebook, or the same 404 for anyone else's and for none. */
  const own = async (req: FastifyRequest): Promise<{ rec: NotebookRecord; doc: NotebookDoc; b: Built }> => {
    const user = requireUser(req);
    const rec = await store.library.notebook(idOf(req));
    if (!rec || rec.ownerId !== user.id) throw notFound(NO_NOTEBOOK);
    const { doc, built } = cache.read(rec.id, rec.version, rec.doc);
    return { rec, doc, b: built };
  };

  /**
   * A kept version's answer `key`, as sent: serialised once, and compressed once for each encoding clients
   * accept (the app's compression leaves an answer that has its Content-Encoding alone).
   */
  const sendKept = (
    req: FastifyRequest,
    reply: FastifyReply,
    id: string,
    version: number,
    key: string,
    make: () => unknown,
  ): Buffer => {
    const encoding = encodingFor(req.headers["accept-encoding"]);
    reply.type(JSON_TYPE).header("vary", "accept-encoding");
    if (encoding !== "identity") reply.header("content-encoding", encoding);
    return cache.bytes(id, version, key, make, encoding);
  };

  /** The owner's view of a kept version, as sent (built and serialised once per version and language). */
  const sendView = (
    req: FastifyRequest,
    reply: FastifyReply,
    rec: Pick<NotebookRecord, "id" | "title" | "published">,
    version: number,
    doc: NotebookDoc,
    b: Built,
    lang: Lang,
  ): Buffer =>
    sendKept(req, reply, rec.id, version, `view:${lang}`, () =>
      notebookView({ id: rec.id, title: rec.title, published: rec.published }, doc, b, lang),
    );

  /**
   * Write the changed document if the row still has the version read; the view of what was written, which
   * is kept with its match at the version written, so the next read builds nothing.
   */
  const save = async (
    req: FastifyRequest,
    reply: FastifyReply,
    rec: NotebookRecord,
    doc: NotebookDoc,
    lang: Lang,
    published = rec.published,
    built = rebuild(doc),
  ): Promise<Buffer> => {
    const ok = await store.library.updateNotebook(rec.ownerId, rec.id, rec.version, {
      title: rec.title,
      doc: writeDoc(doc),
      updatedAt: clock.now(),
      published,
    });
    if (!ok)
      throw conflict(
        "notebook/changed",
        "the notebook was changed meanwhile (in another tab?): reload it and enter this again",
      );
    // The store's update writes `version + 1` over the version read.
    cache.keep(rec.id, rec.version + 1, doc, built);
    return sendView(req, reply, { ...rec, published }, rec.version + 1, doc, built, lang);
  };

  /** A change with a body: login and owner first (a stranger learns nothing, not even a bad field), then the body. */
  function change<S extends z.ZodType>(
    url: string,
    summary: string,
    body: S,
    apply: (doc: NotebookDoc, b: Built, body: z.infer<S>, lang: Lang) => NotebookDoc,
  ): void {
    bodyRoute(ctx, {
      method: "POST",
      url: `/api/notebooks/:id/${url}`,
      summary,
      body,
      tag: "notebooks",
      handler: async (req, reply, parsed) => {
        const { rec, doc, b } = await own(req);
        const lang = langOf(req);
        return save(req, reply, rec, apply(doc, b, parsed(), lang), lang);
      },
    });
  }
  return { idOf, own, sendKept, sendView, save, change, cache };
}

function readRoutes(ctx: RouteContext, h: Helpers): void {
  const { store } = ctx;
  const { own, sendView, idOf, cache } = h;
  route(ctx, {
    method: "GET",
    url: "/api/notebooks",
    summary: "Your off-site games' notebooks (issue 18), the last changed first",
    tag: "notebooks",
    handler: async (req): Promise<P.NotebookSummary[]> => {
      const user = requireUser(req);
      const list = await store.library.listNotebooks(user.id);
      return list.map((rec) => {
        const { doc, built } = cache.read(rec.id, rec.version, rec.doc);
        return notebookSummary(rec, doc, built);
      });
    },
  });

  route(ctx, {
    method: "GET",
    url: "/api/notebooks/:id",
    summary:
      "One of your notebooks: seats, the phase in play with its forms, draft or count, the posts, the corrections",
    tag: "notebooks",
    handler: async (req, reply): Promise<Buffer> => {
      const { rec, doc, b } = await own(req);
      return sendView(req, reply, rec, rec.version, doc, b, langOf(req));
    },
  });

  route(ctx, {
    method: "DELETE",
    url: "/api/notebooks/:id",
    summary: "Delete one of your notebooks",
    tag: "notebooks",
    handler: async (req, reply) => {
      const user = requireUser(req);
      const id = idOf(req);
      if (!(await store.library.deleteNotebook(user.id, id))) throw notFound(NO_NOTEBOOK);
      cache.drop(id);
      return reply.status(204).send();
    },
  });
}

function createRoute(ctx: RouteContext, h: Helpers): void {
  const { store, clock } = ctx;
  const { sendView, cache } = h;
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/notebooks",
    summary: `Start a notebook for an off-site game: nicks, setup (S3), deal (S1, F1); at most ${P.MAX_NOTEBOOKS} per GM`,
    body: P.createNotebookSchema,
    tag: "notebooks",
    handler: async (req, reply, parsed) => {
      const user = requireUser(req);
      const body = parsed();
      const lang = langOf(req);
      if (body.players.length !== body.roles.length)
        throw badRequest(
          "players",
          `players: ${body.players.length} players for a role list of ${body.roles.length} (S3: one role per player)`,
          "S3",
        );
      let seed: string | null = null;
      if (body.deal.kind === "hand") {
        const fault = handDealFault(body.roles, body.deal.roles);
        if (fault) throw fault;
      } else seed = randomBytes(32).toString("hex"); // F1: the server draws the seed
      const hand = body.deal.kind === "hand" ? body.deal.roles : null;
      const m = startMatch({
        players: body.players.map((name, seat) => (hand ? { name, role: hand[seat]! } : { name })),
        seed,
        options: body.options,
        roles: body.roles,
      });
      if (isRejection(m)) {
        const field =
          m.code === "setup/duplicate-name" || m.code === "setup/empty-name" ? "players" : "roles";
        throw badRequest(field, `${field}: ${m.message}`, m.clause);
      }
      const doc: NotebookDoc = {
        format: 1,
        players: body.players,
        roles: body.roles,
        dealt: m.state.players.map((p) => p.role),
        options: m.state.options,
        seed,
        dialect: body.dialect,
        gm: gmNick(body.gm ?? null, body.players, []),
        aliases: body.players.map(() => []),
        closed: [],
        current: emptyPhase(),
        corrections: [],
      };
      const now = clock.now();
      const rec: NotebookRecord = {
        id: nanoid(12),
        ownerId: user.id,
        title: body.title,
        doc: writeDoc(doc),
        version: 1,
        createdAt: now,
        updatedAt: now,
        published: false,
      };
      if ((await store.library.createNotebook(rec, P.MAX_NOTEBOOKS)) === "full")
        throw conflict(
          "notebooks/full",
          `you have ${P.MAX_NOTEBOOKS} notebooks, the most one may keep: delete one first`,
        );
      const built = rebuild(doc);
      cache.keep(rec.id, rec.version, doc, built);
      return reply.status(201).send(sendView(req, reply, rec, rec.version, doc, built, lang));
    },
  });
}

function changeRoutes(ctx: RouteContext, h: Helpers): void {
  const { change, own, save } = h;
  change(
    "actions",
    "A night action received by PM, for the seat that sent it (O1, M4); replacing one in the same slot needs a reason (F2)",
    P.notebookActionSchema,
    (doc, b, body, lang) => addAction(doc, b, body.seat, toNightAction(body.action), body.reason, lang),
  );
  change(
    "votes",
    "A vote entered by hand (the parser missed it or read it wrongly): a correction with a reason (F2)",
    P.notebookVoteSchema,
    (doc, b, body, lang) => addVote(doc, b, body.seat, body.vote, body.reason, lang),
  );
  change(
    "inputs/remove",
    "Remove an entered action or vote of the phase in play, with a reason (F2)",
    P.removeInputSchema,
    (doc, b, body, lang) => removeInput(doc, b, body.index, body.reason, lang),
  );
  change("rolls", "Fix tonight's rolls (O8), with a reason (F2)", P.notebookRollsSchema, (doc, b, body) =>
    fixRolls(doc, b, body.rolls, body.reason),
  );
  change(
    "council",
    "Answer tonight's council question (M2c); an answer other than the rules' needs a reason (F2)",
    P.notebookCouncilSchema,
    (doc, b, body, lang) => {
      const r = reviewed(doc, b.match);
      const night = b.match.state.phase.kind === "night" && b.match.state.winner === null;
      return answerCouncil(
        doc,
        b,
        body.answer,
        body.reason,
        night ? councilSuggestion(r) : null,
        night ? councilQuestion(r) : null,
        lang,
      );
    },
  );
  change(
    "modkill",
    "Modkill a living player at the end of the phase in play (F2, G5), with a reason",
    P.notebookModkillSchema,
    (doc, b, body) => addModkill(doc, b, body.seat, body.reason),
  );
  change(
    "replace",
    "Replace a living player with a substitute (P4), with a reason",
    P.notebookReplaceSchema,
    (doc, b, body) => addReplace(doc, b, body.seat, body.name, body.reason),
  );
  change(
    "aliases",
    "Other spellings of a player's nick in the thread (the vote counter's roster)",
    P.notebookAliasesSchema,
    (doc, b, body) => setAliases(doc, b, body.seat, body.aliases),
  );
  change(
    "gm",
    "Issue 30: the GM's nick on their forum (null: none): that author's posts are the GM's, never votes",
    P.notebookGmSchema,
    (doc, b, body) => setGm(doc, b, body.gm),
  );

  route(ctx, {
    method: "POST",
    url: "/api/notebooks/:id/close",
    summary:
      "Close the phase in play: the night with the GM's decisions (an unanswered council: 409, M2c), or the day",
    tag: "notebooks",
    handler: async (req, reply) => {
      const { rec, doc, b } = await own(req);
      const lang = langOf(req);
      return save(req, reply, rec, close(doc, b), lang);
    },
  });
}

function threadRoute(ctx: RouteContext, h: Helpers, runner: ToolRunner): void {
  const { own, save } = h;
  // The day's thread: up to 5 MiB, read, counted and applied to the document in the tools' pool under the
  // tools' limits (routes/tools.ts); the event loop gets back a document with at most one thread vote a
  // seat (issue 28, notebook.ts `notebookThread`).
  bodyRoute(ctx, {
    method: "POST",
    url: "/api/notebooks/:id/thread",
    summary:
      "The day's thread as copied from the forum (clipboard HTML, or BBCode or text): its votes replace the last paste's (V1–V7)",
    body: P.notebookThreadSchema,
    tag: "notebooks",
    ...inToolsPool(ctx, runner),
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const { rec, b } = await own(req);
      const lang = langOf(req);
      const answer = await runner.notebookPaste(
        req,
        reply,
        () => {
          // The pool's time is not spent counting a thread that cannot be entered.
          day(b.match);
          return { doc: rec.doc, lang };
        },
        `thread: too large to count within ${runner.seconds}; paste one day's posts`,
      );
      if (!answer.ok) throw new ApiError(answer.status, answer.code, answer.message, answer.clause);
      return save(req, reply, rec, readDoc(answer.doc), lang);
    },
  });
}

/** What a file name may not hold on the GM's system (Windows' reserved characters and controls). */
const NOT_IN_FILE_NAME = /[\\/:*?"<>|\p{Cc}]+/gu;

/**
 * Issue 30: the replay file is named after the notebook's title, as docs/web.md says (the header's name wins
 * over the app's `download` attribute, so it is given here). RFC 6266: `filename*` carries the title in
 * UTF-8 (RFC 8187 percent-encoding), read by every current browser; `filename` is the ASCII fallback for
 * older clients: the title's ASCII letters and digits, or the notebook's id when it has none (a Russian title).
 */
export function replayDisposition(title: string, id: string): string {
  const name = title.replace(NOT_IN_FILE_NAME, "_").trim() || "replay";
  // RFC 8187's attr-char leaves `'()*` out of what may stand unencoded; encodeURIComponent keeps them.
  const encoded = encodeURIComponent(`${name}.json`).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  const ascii = name
    .replace(/[^A-Za-z0-9 ._()-]+/g, "_")
    .replace(/_+/g, "_")
    .trim();
  const fallback = /[A-Za-z0-9]/.test(ascii) ? ascii : `notebook-${id}`;
  return `attachment; filename="${fallback}.json"; filename*=UTF-8''${encoded}`;
}

function exportRoutes(ctx: RouteContext, h: Helpers): void {
  const { store } = ctx;
  const { own, save, idOf, cache, sendKept } = h;
  route(ctx, {
    method: "GET",
    url: "/api/notebooks/:id/replay",
    summary: "The game's REPLAY.md file (with the seed): `npm run replay` gives the notebook's results",
    tag: "notebooks",
    handler: async (req, reply) => {
      const { rec, b } = await own(req);
      reply.header("content-disposition", replayDisposition(rec.title, rec.id));
      return sendKept(req, reply, rec.id, rec.version, "replay", () => exportReplay(b.match));
    },
  });

  route(ctx, {
    method: "POST",
    url: "/api/notebooks/:id/publish",
    summary: "Publish the finished game (W1): its file, seed and corrections, to everyone",
    tag: "notebooks",
    handler: async (req, reply) => {
      const { rec, doc, b } = await own(req);
      if (b.match.state.winner === null)
        throw conflict("notebook/not-ended", "the game is not over yet: it is published after the end", "W1");
      // The document is unchanged: its match is the one read.
      return save(req, reply, rec, doc, langOf(req), true, b);
    },
  });

  route(ctx, {
    method: "GET",
    url: "/api/notebooks/:id/published",
    summary: "A published notebook, to everyone: the REPLAY.md file, the seed (F1) and the corrections (F2)",
    tag: "notebooks",
    handler: async (req, reply): Promise<Buffer> => {
      const rec = await store.library.notebook(idOf(req));
      if (!rec || !rec.published) throw notFound(NO_NOTEBOOK);
      const { doc, built: b } = cache.read(rec.id, rec.version, rec.doc);
      // Its own key: never the owner's view (which holds the seed and roles before the end, issue 18).
      return sendKept(req, reply, rec.id, rec.version, "published", (): P.PublishedNotebook => ({
        title: rec.title,
        seed: doc.seed,
        seedHash: doc.seed === null ? null : seedCommitment(doc.seed),
        replay: exportReplay(b.match),
        corrections: doc.corrections,
        winner: b.match.state.winner,
      }));
    },
  });
}
