import { ReplayError, replayMatch, resultsPost, voteCountWords } from "@forum-mafia/engine";
import { runVoteCount } from "@forum-mafia/forum";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { ApiError, badRequest } from "./errors.ts";
import type { RouteDoc } from "./openapi.ts";

/**
 * The GM tools for games on other forums (issue 6, "In the app"): the vote counter and the results
 * writer, the same code as `npm run votecount` and `npm run results`. They touch no game, so they need no
 * login; a saved forum thread or a whole game's replay can be large, so they take bodies up to 5 MiB.
 */
export const TOOLS_BODY_LIMIT = 5 * 1024 * 1024;

const name = z.string().trim().min(1).max(64);

/** POST /api/tools/votecount: PLAYERS.txt as text, the flags, and THREAD.json as JSON. */
export const voteCountToolSchema = z.strictObject({
  players: z.string().max(100_000),
  gm: name.optional(),
  day: z.number().int().min(1).max(999).optional(),
  silenced: z.array(name).max(64).default([]),
  thread: z.array(z.unknown()).max(50_000),
});

/** POST /api/tools/results: a REPLAY.md file, already parsed, and the post's language. */
export const resultsToolSchema = z.strictObject({
  replay: z.looseObject({}),
  lang: z.enum(["ru", "en"]).default("ru"),
});

export interface ToolsDeps {
  /** The API document's list: the tools' routes are described there too. */
  readonly docs: RouteDoc[];
  /** The app's edge validation: a zod failure becomes a 400 naming the field. */
  readonly parse: <T extends z.ZodType>(schema: T, value: unknown, where: string) => z.infer<T>;
  /** The app's requests per minute (0: no limits); the tools get a tenth of it, as the auth routes do. */
  readonly limit: number;
}

/** A clause id at the end of a replay message, e.g. "… two nights in a row (T4)". */
const CLAUSE_AT_END = /\(([A-Z]\d+[a-z]?)\)$/;

export function registerTools(app: FastifyInstance, deps: ToolsDeps): void {
  const rateLimit: { rateLimit?: { max: number; timeWindow: number } } =
    deps.limit > 0
      ? { rateLimit: { max: Math.max(10, Math.floor(deps.limit / 10)), timeWindow: 60_000 } }
      : {};
  const tool = (
    url: string,
    summary: string,
    schema: z.ZodType,
    handler: (req: FastifyRequest) => unknown,
  ): void => {
    deps.docs.push({ method: "POST", url, summary, tag: "tools", body: schema });
    app.route({
      method: "POST",
      url,
      bodyLimit: TOOLS_BODY_LIMIT,
      config: rateLimit,
      // The app's handler words an oversized body with its own limit; these routes have a larger one.
      errorHandler: (error: { code?: string }) => {
        if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE")
          throw new ApiError(413, error.code, `body: larger than ${TOOLS_BODY_LIMIT} bytes`);
        throw error;
      },
      handler: async (req) => handler(req),
    });
  };

  tool(
    "/api/tools/votecount",
    "Count a day's votes in a thread from another forum (the votecount command)",
    voteCountToolSchema,
    (req) => {
      const b = deps.parse(voteCountToolSchema, req.body ?? {}, "body");
      try {
        return runVoteCount(
          {
            roster: b.players,
            rosterName: "(players)",
            gm: b.gm ?? null,
            day: b.day ?? null,
            silenced: b.silenced,
            thread: b.thread,
            threadName: "thread",
          },
          voteCountWords("ru"),
        );
      } catch (e) {
        // The counter's refusals are its input's faults; each message names the line, post or player.
        if (e instanceof Error) throw badRequest("invalid", e.message);
        throw e;
      }
    },
  );

  tool(
    "/api/tools/results",
    "The results post of a replay file's last finished phase (the results command)",
    resultsToolSchema,
    (req) => {
      const b = deps.parse(resultsToolSchema, req.body ?? {}, "body");
      let post: string | null;
      try {
        post = resultsPost(replayMatch(b.replay), b.lang);
      } catch (e) {
        if (!(e instanceof ReplayError)) throw e;
        const message = e.message.replace(/\s+/g, " ");
        throw badRequest("invalid", `replay: ${message}`, CLAUSE_AT_END.exec(message)?.[1]);
      }
      if (post === null) throw badRequest("invalid", "replay: no finished phase to report (REPLAY.md)");
      return { post };
    },
  );
}
