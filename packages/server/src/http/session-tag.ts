import { createHash } from "node:crypto";

/**
 * Issue 32: the `X-Session-Tag` every API answer carries, which the web app's service worker compares to
 * decide whether the game it saved for reading offline still belongs to this browser's session. A short
 * hash of the session token (a separate one from the key the store keeps, so it names nothing there), or
 * `guest` without a session. The token is random and only its holder is sent the tag: it tells nothing.
 */
export const SESSION_TAG_HEADER = "x-session-tag";
export const GUEST_TAG = "guest";

export function sessionTag(token: string | null | undefined): string {
  if (!token) return GUEST_TAG;
  return createHash("sha256").update(`session-tag:${token}`).digest("hex").slice(0, 16);
}
