import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { ApiError } from "../http/errors.ts";

/**
 * Issue 28: a write a client may send again (a post, a vote, a night action, a message, a signup or a
 * withdrawal) carries an `Idempotency-Key` header; a retry with the same key is answered as the first was
 * and stores nothing new, on whichever instance it lands.
 *
 * The key is kept inside the command's first log entry (`Entry.idem`), so it is durable in the same append
 * as the write, and every instance knows it once its room has caught up: a retry decided on a stale room
 * conflicts on its append (SeqConflict), catches up, and then finds the key (Games.commit). Only hashes
 * are kept: the key is a secret of its writer, and it never appears in a view, a stream or an answer.
 */
export interface IdempotencyMark {
  /** The user's id and the key, hashed together: the same key from another user is another key. */
  readonly key: string;
  /** The command and its body, hashed: the same key with another request is refused (422). */
  readonly request: string;
}

/** A key the room's log holds: the request it came with, and the id of what it created (a post, a message). */
export interface KeyedAnswer {
  readonly request: string;
  readonly created: string | null;
}

export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/** Visible ASCII, 8 to 200 characters: a UUID, a nanoid, a counter with a client prefix. */
const KEY = /^[\x21-\x7e]{8,200}$/;

const hash = (text: string): string => createHash("sha256").update(text).digest("base64url").slice(0, 32);

/**
 * The request's Idempotency-Key as its log mark, or null when it has none. The method, the path (without
 * its query) and the parsed body go into the request's hash.
 */
export function idempotencyOf(req: FastifyRequest, userId: string, body?: unknown): IdempotencyMark | null {
  const header = req.headers["idempotency-key"];
  if (header === undefined) return null;
  if (typeof header !== "string" || !KEY.test(header))
    throw new ApiError(
      400,
      "invalid",
      `${IDEMPOTENCY_HEADER}: expected one header of 8 to 200 visible ASCII characters`,
    );
  return {
    key: hash(`${userId}\n${header}`),
    request: hash(`${req.method} ${req.url.split("?")[0]!}\n${JSON.stringify(body ?? null)}`),
  };
}

/** The same key sent again with another request. */
export const keyMismatch = (): ApiError =>
  new ApiError(
    422,
    "idempotency/mismatch",
    `${IDEMPOTENCY_HEADER}: this key was used for another request; use a new key for a new write`,
  );

/** The OpenAPI description of the header, on every route that honours it (openapi.ts). */
export const IDEMPOTENCY_DOC =
  "Optional. 8–200 visible ASCII characters, new for each write (a UUID). A retry with the same key " +
  "(after a network error, a 502 or a 503) is answered as the first request was and stores nothing new, " +
  "on any instance; the same key with another body is refused (422 idempotency/mismatch). Keys are per user.";
