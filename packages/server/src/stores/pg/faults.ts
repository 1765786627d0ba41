import { StoreUnavailable } from "../store.ts";

/**
 * Issue 28: how long a store call may take, by default (STORE_TIMEOUT_MS), before its caller hears
 * StoreUnavailable (the request: 503 with Retry-After). It bounds the wait for a connection, each
 * statement (client side, so a frozen database is noticed too; and server side, so a statement stuck
 * behind a lock gives it up) and a call as a whole.
 */
export const STORE_TIMEOUT_MS = 5_000;

/**
 * Issue 28: whether an error says that the database cannot answer now (rather than that a statement is
 * wrong): a connection refused, reset or timed out, the database shutting down or out of connections, a
 * statement cancelled by its time limit.
 */
export function isStoreFault(error: unknown): boolean {
  if (error instanceof StoreUnavailable) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  // SQLSTATE 08 connection, 53 resources, 57P shutdown, 57014 cancelled, 55P03 lock timeout; E…: a socket.
  if (
    typeof code === "string" &&
    /^(08|53|57P|57014$|55P03$|(ECONNREFUSED|ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$)/.test(
      code,
    )
  )
    return true;
  // pg's own messages for a connection that failed or a time limit that passed (they carry no code).
  return /^(Query read timeout|timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Client was closed)/.test(
    error.message,
  );
}

/**
 * Issue 28: whether a write that failed with `error` after it was sent may have been stored all the same.
 * An error the server answered about the statement itself means it was rolled back; the connection lost
 * or a time limit passed on this side (or the server ending the session mid-statement) leave it unknown.
 */
function mayHaveCommitted(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return !(typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !/^(08|57P)/.test(code));
}

/** A store fault as StoreUnavailable (`sent`: a write had left, so its outcome may be unknown); others as they are. */
export function asUnavailable(error: unknown, sent: boolean): unknown {
  if (error instanceof StoreUnavailable || !isStoreFault(error)) return error;
  const unknown = sent && mayHaveCommitted(error);
  return new StoreUnavailable(`PostgreSQL: ${(error as Error).message}`, unknown);
}
