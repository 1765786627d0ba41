import type { Clock } from "../clock.ts";
import { ApiError } from "../http/errors.ts";

/** Failed logins a nick may have before it backs off. */
export const FREE_FAILURES = 5;
/** The first back-off, doubled with each further failure, up to MAX_LOCK_MS. */
const FIRST_LOCK_MS = 2_000;
export const MAX_LOCK_MS = 15 * 60_000;
/** A nick's failures are forgotten after this long without one. */
export const FORGET_MS = 60 * 60_000;
/** At most this many nicks are remembered; the oldest is forgotten first. */
const MAX_NICKS = 100_000;

/** How long a nick backs off after its `count`-th failure in a row (0: not yet). */
export function lockAfter(count: number): number {
  return count >= FREE_FAILURES ? Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** (count - FREE_FAILURES)) : 0;
}

/** The refusal of a login while its nick backs off, for `ms` more. */
export function backoffError(ms: number): ApiError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new ApiError(
    429,
    "login/backoff",
    `nick: too many failed logins for this nick; retry in ${seconds} s`,
  );
}

/**
 * Counts the login attempts at each nick: in this process (LoginBackoff), or in the database that several
 * instances share (shared-limits.ts), where a failure on one instance counts on all.
 */
export interface LoginLimiter {
  /**
   * An attempt at the nick, counted as a failure before the password is checked (so parallel guesses cannot
   * all slip past); refused (429 login/backoff) without counting while the nick backs off.
   */
  attempt(nickKey: string): Promise<void>;
  /** The password was right: the nick's failures are forgotten. */
  succeeded(nickKey: string): Promise<void>;
}

interface Failures {
  count: number;
  last: number;
  until: number;
}

/**
 * Password guessing, counted by the nick being guessed, whoever guesses it from wherever (the address
 * limit is the rate limiter's, keyed by address, never by session). After FREE_FAILURES failed logins a
 * nick backs off: 2 s, then 4, 8… up to 15 minutes, and every attempt meanwhile is refused without
 * checking the password. Nicks that do not exist are counted the same way, so a refusal says nothing of
 * whether an account exists. The price is that a stranger can keep a nick's owner waiting up to 15
 * minutes between tries; an owner who is logged in elsewhere keeps that session.
 */
export class LoginBackoff implements LoginLimiter {
  private readonly byNick = new Map<string, Failures>();

  constructor(private readonly clock: Clock) {}

  attempt(nickKey: string): Promise<void> {
    this.check(nickKey);
    this.failed(nickKey);
    return Promise.resolve();
  }

  /** Refuses (429) while the nick backs off. */
  check(nickKey: string): void {
    const f = this.byNick.get(nickKey);
    const now = this.clock.now();
    if (!f || f.until <= now) return;
    throw backoffError(f.until - now);
  }

  failed(nickKey: string): void {
    const now = this.clock.now();
    let f = this.byNick.get(nickKey);
    if (f && f.last + FORGET_MS <= now) f = undefined;
    if (!f) f = { count: 0, last: now, until: 0 };
    this.byNick.delete(nickKey); // re-inserted last: the map's order is the order of last failure
    f.count++;
    f.last = now;
    if (f.count >= FREE_FAILURES) f.until = now + lockAfter(f.count);
    this.byNick.set(nickKey, f);
    if (this.byNick.size > MAX_NICKS) this.byNick.delete(this.byNick.keys().next().value!);
  }

  succeeded(nickKey: string): Promise<void> {
    this.byNick.delete(nickKey);
    return Promise.resolve();
  }
}
