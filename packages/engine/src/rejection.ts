import type { ClauseId } from "./clauses.ts";

/**
 * An expected refusal (STYLE.md, "Reject with a reason"): a stable code, the clause, and an English
 * sentence that names the player and the rule. Exceptions are for broken invariants only.
 */
export interface Rejection {
  readonly rejected: true;
  readonly code: string;
  readonly clause: ClauseId;
  readonly message: string;
}

export function reject(code: string, clause: ClauseId, message: string): Rejection {
  return { rejected: true, code, clause, message };
}

export function isRejection<T extends object>(value: T | Rejection): value is Rejection {
  // A property read rather than `in`: the values checked come in many shapes, and `in` is slow on them.
  return (value as { readonly rejected?: unknown }).rejected === true;
}
