import type { Rejection } from "@forum-mafia/engine";

/**
 * A refused request: the HTTP status, a stable code, a message that names the field or the rule, and the
 * RULES.md clause where one applies. Thrown before anything changes; the edge turns it into
 * `{ error: { code, message, clause? } }`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly clause?: string,
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string, clause?: string): ApiError =>
  new ApiError(400, code, message, clause);
export const forbidden = (code: string, message: string, clause?: string): ApiError =>
  new ApiError(403, code, message, clause);
export const notFound = (message: string): ApiError => new ApiError(404, "not-found", message);
export const conflict = (code: string, message: string, clause?: string): ApiError =>
  new ApiError(409, code, message, clause);

/** An engine refusal, as the player who sent the command sees it (422: well-formed, but against the rules). */
export const refused = (r: Rejection): ApiError => new ApiError(422, r.code, r.message, r.clause);
