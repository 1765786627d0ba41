import * as P from "@forum-mafia/protocol";
import sjson from "secure-json-parse";
import { z } from "zod";
import { invalidMessage } from "../http/invalid.ts";

/**
 * The large bodies (issue 28, item 3): the GM tools' and the notebook's pasted thread, up to 5 MiB. Their
 * routes keep the body as the bytes that arrived (raw-body.ts); the tools' worker threads (tools-worker.ts)
 * decode, parse and check them here, so the event loop never walks 5 MB of characters. The refusals are
 * the ones the event loop gave before, word for word: fastify's for a body that is not JSON, and the
 * schema's naming the field.
 */
export const TOOLS_BODY_LIMIT = 5 * 1024 * 1024;

const name = P.text(64);

/**
 * A thread as the GM copied it from the forum page (issue 18): the clipboard's `text/html` when there is one
 * (or a saved page), else its plain text, which may be BBCode. At least one of them holds something.
 * Issue 30: or a saved page or .txt chosen as a file (`file`), its bytes in base64, decoded in the worker by
 * their BOM, meta or a detector (tools-worker.ts pasteText); it comes alone, never beside `html` or `text`.
 */
export const pasteSchema = z
  .strictObject({
    html: P.str(TOOLS_BODY_LIMIT).optional(),
    text: P.str(TOOLS_BODY_LIMIT).optional(),
    file: P.pasteFile.optional(),
  })
  .superRefine((p, ctx) => {
    if (p.file !== undefined && (p.html !== undefined || p.text !== undefined))
      ctx.addIssue({
        code: "custom",
        path: ["file"],
        message: "give the thread either as a file (file) or as copied from the forum (html, text), not both",
      });
    else if (p.file === "")
      ctx.addIssue({ code: "custom", path: ["file"], message: "empty: choose the saved page of the thread" });
    else if (p.file === undefined && (p.html ?? "").trim() === "" && (p.text ?? "").trim() === "")
      ctx.addIssue({
        code: "custom",
        message: "both html and text are empty: paste the thread as copied from the forum page",
      });
  });
export type Paste = z.infer<typeof pasteSchema>;

const playersSchema = P.str(100_000);

/**
 * POST /api/tools/votecount: PLAYERS.txt as text, the flags, and the thread: either THREAD.json as JSON
 * (`thread`) or as copied from the forum page (`paste`, issue 18), never both.
 */
export const voteCountToolSchema = z
  .strictObject({
    players: playersSchema,
    gm: name.optional(),
    day: z.number().int().min(1).max(999).optional(),
    silenced: z.array(name).max(64).default([]),
    thread: z.array(z.unknown()).max(50_000).optional(),
    paste: pasteSchema.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.thread !== undefined && b.paste !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["paste"],
        message:
          "give the thread either as JSON posts (thread) or as copied from the forum (paste), not both",
      });
    else if (b.thread === undefined && b.paste === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["thread"],
        message: "required: the thread as JSON posts (thread) or as copied from the forum page (paste)",
      });
  });
export type VoteCountToolBody = z.infer<typeof voteCountToolSchema>;

/** POST /api/tools/thread: what a pasted thread holds, before counting; the players mark which authors play. */
export const threadToolSchema = z.strictObject({
  players: playersSchema.optional(),
  paste: pasteSchema,
});
export type ThreadToolBody = z.infer<typeof threadToolSchema>;

/** POST /api/tools/results: a REPLAY.md file, already parsed, and the post's language. */
export const resultsToolSchema = z.strictObject({
  replay: z.looseObject({}),
  lang: z.enum(["ru", "en"]).default("ru"),
});
export type ResultsToolBody = z.infer<typeof resultsToolSchema>;

/** A body refused: the code and message the app's error handler gives (app.ts: sendError). */
export interface BodyRefusal {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
}

/**
 * The bytes of a large body as the route's schema reads them, or the refusal the event loop gave before:
 * decoded as UTF-8 (a broken sequence reads as U+FFFD, as fastify reads it), parsed as fastify's own JSON
 * parser does (secure-json-parse, a `__proto__` or `constructor.prototype` key refused), a `null` or absent
 * body read as `{}` (routes/context.ts: bodyRoute), then the schema's check naming the field. `null`: the
 * request had no body. A body nested so deeply that the parser or the check runs out of stack is refused
 * as not valid JSON, rather than failing.
 */
export function readBody<S extends z.ZodType>(
  bytes: Uint8Array | null,
  schema: S,
): { readonly ok: true; readonly value: z.infer<S> } | BodyRefusal {
  let value: unknown = null;
  if (bytes !== null) {
    if (bytes.length === 0)
      return { ok: false, code: "FST_ERR_CTP_EMPTY_JSON_BODY", message: "body: empty JSON body" };
    try {
      value = sjson.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8"), {
        protoAction: "error",
        constructorAction: "error",
      });
    } catch {
      return {
        ok: false,
        code: "FST_ERR_CTP_INVALID_JSON_BODY",
        message: "body: Body is not valid JSON but content-type is set to 'application/json'",
      };
    }
  }
  let r: z.ZodSafeParseResult<z.infer<S>>;
  try {
    r = schema.safeParse(value ?? {});
  } catch (e) {
    if (e instanceof RangeError) return tooDeep;
    throw e;
  }
  return r.success
    ? { ok: true, value: r.data }
    : { ok: false, code: "invalid", message: invalidMessage("body", r.error) };
}

/** The refusal of a body whose nesting is deeper than the work on it can follow (it runs out of stack). */
export const tooDeep: BodyRefusal = {
  ok: false,
  code: "invalid",
  message: "body: nested too deeply to read (arrays or objects within each other)",
};
