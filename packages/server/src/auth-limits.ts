import type { Clock } from "./clock.ts";
import { ApiError } from "./errors.ts";

/** Failed logins a nick may have before it backs off. */
export const FREE_FAILURES = 5;
/** The first back-off, doubled with each further failure, up to MAX_LOCK_MS. */
const FIRST_LOCK_MS = 2_000;
const MAX_LOCK_MS = 15 * 60_000;
/** A nick's failures are forgotten after this long without one. */
const FORGET_MS = 60 * 60_000;
/** At most this many nicks are remembered; the oldest is forgotten first. */
const MAX_NICKS = 100_000;

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
export class LoginBackoff {
  private readonly byNick = new Map<string, Failures>();

  constructor(private readonly clock: Clock) {}

  /** Refuses (429) while the nick backs off. */
  check(nickKey: string): void {
    const f = this.byNick.get(nickKey);
    const now = this.clock.now();
    if (!f || f.until <= now) return;
    const seconds = Math.ceil((f.until - now) / 1000);
    throw new ApiError(
      429,
      "login/backoff",
      `nick: too many failed logins for this nick; retry in ${seconds} s`,
    );
  }

  failed(nickKey: string): void {
    const now = this.clock.now();
    let f = this.byNick.get(nickKey);
    if (f && f.last + FORGET_MS <= now) f = undefined;
    if (!f) f = { count: 0, last: now, until: 0 };
    this.byNick.delete(nickKey); // re-inserted last: the map's order is the order of last failure
    f.count++;
    f.last = now;
    if (f.count >= FREE_FAILURES)
      f.until = now + Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** (f.count - FREE_FAILURES));
    this.byNick.set(nickKey, f);
    if (this.byNick.size > MAX_NICKS) this.byNick.delete(this.byNick.keys().next().value!);
  }

  succeeded(nickKey: string): void {
    this.byNick.delete(nickKey);
  }
}
