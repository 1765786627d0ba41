import { createHash, randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { checkNick, checkNickWords, nickKey, nickSkeleton } from "@forum-mafia/forum";
import { nanoid } from "nanoid";
import type { Clock } from "../clock.ts";
import type { Cluster } from "../log/cluster.ts";
import { isTimeZone } from "../game/deadline.ts";
import { isReservedNick } from "../demo/demo.ts";
import { ApiError, badRequest, conflict } from "../http/errors.ts";
import type { Store, UserRecord } from "../stores/store.ts";

export const SESSION_COOKIE = "fm_session";
export const SESSION_DAYS = 30;
export const DEFAULT_TIME_ZONE = "Europe/Moscow";

const CACHE_MS = 60_000;
const CACHE_SIZE = 50_000;

/** An argon2id cost: memory in KiB, passes, lanes (the `m=`, `t=` and `p=` of the hash's PHC string). */
export interface PasswordCost {
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

/**
 * The cost of every password hash in production: @node-rs/argon2's defaults written out (argon2id, 19 MiB,
 * 2 passes, 1 lane: OWASP's first recommended argon2id setting).
 */
export const PASSWORD_COST: PasswordCost = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * Tests only (issue 29): the least argon2 allows (8 KiB, 1 pass), so a test user costs well under a
 * millisecond instead of the production cost's 100–400 ms. A test passes it in code (`passwordCost`, the
 * test harness's servers); nothing reads it from the environment, and bin/start.ts refuses it
 * (`productionOptions`). A hash carries its cost, so it verifies whatever cost the server hashes at.
 */
export const TEST_PASSWORD_COST: PasswordCost = { memoryCost: 8, timeCost: 1, parallelism: 1 };

const tokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

/** Revocations remembered for the session reads under way, at most; past it every such read starts again. */
const MAX_REVOKED = 10_000;

interface Cached {
  readonly user: UserRecord;
  readonly key: string;
  readonly expiresAt: number;
  readonly checkedAt: number;
}

/**
 * Accounts and sessions: argon2id password hashes, and session tokens kept only as their SHA-256.
 *
 * Issue 20: a session revoked on any instance (logout) is told to every instance on the cluster's `session`
 * topic (its key, the token's SHA-256, never the token), and each forgets it at once: no wait for CACHE_MS.
 */
export class Accounts {
  /** A hash to verify against when the nick is unknown, so both failures take the same time. */
  private dummy: Promise<string> | null = null;
  /**
   * Recently checked sessions by token, so a request costs no database read. An entry is trusted for
   * CACHE_MS at most; a revocation heard from any instance drops it at once, and after notifications may
   * have been lost (onResync) the whole cache goes.
   */
  private readonly cache = new Map<string, Cached>();
  /** The cached tokens by session key: a revocation names the key. */
  private readonly tokens = new Map<string, string>();
  /**
   * A read of a session may have begun before a revocation was heard and end after it, holding the row as
   * it was: it must neither cache nor trust it. Each revocation heard gets a number (`heard`); a read notes
   * the number when it starts and checks the revocations after it when it ends.
   */
  private heard = 0;
  private readonly revokedAt = new Map<string, number>();
  /** The number of the last resync (every session may have been revoked meanwhile). */
  private resyncedAt = 0;
  private reading = 0;
  private readonly revokeHandlers = new Set<(key: string) => void>();
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly cluster: Cluster,
    /** The cost of new hashes (PASSWORD_COST; a test server passes TEST_PASSWORD_COST). */
    private readonly cost: PasswordCost = PASSWORD_COST,
  ) {
    this.unsubscribe = [
      cluster.subscribe("session", (key) => this.revoked(key)),
      cluster.subscribe("user", (userId) => this.forgetUser(userId)),
      cluster.onResync(() => this.forgetAll()),
    ];
  }

  /** Stop hearing revocations (the app is closing). */
  close(): void {
    for (const u of this.unsubscribe) u();
  }

  /** Called with the key of every session revoked on any instance (this one too), once it is gone. */
  onRevoke(handler: (key: string) => void): () => void {
    this.revokeHandlers.add(handler);
    return () => this.revokeHandlers.delete(handler);
  }

  async register(nick: string, password: string, timeZone: string | undefined): Promise<UserRecord> {
    const clean = nick.trim().replace(/\s+/g, " ");
    const bad = checkNick(clean);
    if (bad) throw badRequest("nick", bad);
    // G5 (issue 31): a nick with мат or an insult in it is refused; it would be read in every game.
    const g5 = checkNickWords(clean);
    if (g5.flag)
      throw badRequest(
        "nick-g5",
        `nick: "${g5.spans.map((s) => s.word).join(", ")}" is ${g5.flag === "obscene" ? "obscene" : "an insult"}: swearing and insults are forbidden`,
        "G5",
      );
    if (isReservedNick(clean))
      throw conflict("nick-taken", `nick: "${clean}" is reserved for the demo games' bots`);
    const tz = timeZone ?? DEFAULT_TIME_ZONE;
    if (!isTimeZone(tz)) throw badRequest("timeZone", `timeZone: unknown time zone ${JSON.stringify(tz)}`);
    const user: UserRecord = {
      id: nanoid(12),
      nick: clean,
      nickKey: nickKey(clean),
      nickSkeleton: nickSkeleton(clean),
      passwordHash: await hash(password, this.cost),
      timeZone: tz,
      lang: "ru",
      createdAt: this.clock.now(),
    };
    if ((await this.store.accounts.createUser(user)) === "taken")
      throw conflict(
        "nick-taken",
        `nick: "${clean}" is taken or too similar to a taken nick (nicks are compared ignoring case, ё/е ` +
          `and look-alike characters such as I/l, 0/O, rn/m, Cyrillic п/n)`,
      );
    return user;
  }

  async login(nick: string, password: string): Promise<UserRecord> {
    const user = await this.store.accounts.userByNickKey(nickKey(nick));
    if (!user) {
      this.dummy ??= hash(randomBytes(16).toString("hex"), this.cost);
      await verify(await this.dummy, password);
    } else if (user.passwordHash.startsWith("$argon2") && (await verify(user.passwordHash, password))) {
      // Only argon2 hashes are checked: the demo bots' accounts hold none, so nobody logs in as a bot.
      return user;
    }
    throw new ApiError(401, "bad-credentials", "wrong nick or password");
  }

  async openSession(userId: string): Promise<{ token: string; expiresAt: number }> {
    const token = randomBytes(32).toString("base64url");
    const expiresAt = this.clock.now() + SESSION_DAYS * 86_400_000;
    await this.store.accounts.createSession(tokenHash(token), { userId, expiresAt });
    return { token, expiresAt };
  }

  /** The session's user when it is known without a database read: undefined when it is not. */
  cachedUser(token: string | undefined): UserRecord | null | undefined {
    if (!token || token.length > 100) return null;
    const now = this.clock.now();
    const hit = this.cache.get(token);
    if (hit && hit.checkedAt + CACHE_MS > now && hit.expiresAt > now) return hit.user;
    return undefined;
  }

  /** The session's user; null for a missing, forged, expired or revoked token. */
  async userOf(token: string | undefined): Promise<UserRecord | null> {
    const known = this.cachedUser(token);
    if (known !== undefined) return known;
    const key = tokenHash(token!);
    this.drop(token!);
    // A read that a resync overtook is made again: it may hold a session revoked meanwhile.
    for (let attempt = 0; ; attempt++) {
      const mark = this.heard;
      this.reading++;
      try {
        const found = await this.read(key);
        if ((this.revokedAt.get(key) ?? 0) > mark) return null;
        if (this.resyncedAt > mark && attempt < 2) continue;
        if (found && this.resyncedAt <= mark) this.remember(token!, key, found.user, found.expiresAt);
        return found?.user ?? null;
      } finally {
        // With no read under way, no revocation needs remembering.
        if (--this.reading === 0) this.revokedAt.clear();
      }
    }
  }

  private async read(key: string): Promise<{ user: UserRecord; expiresAt: number } | null> {
    const now = this.clock.now();
    const s = await this.store.accounts.session(key);
    if (!s) return null;
    if (s.expiresAt <= now) {
      // Expired, not revoked: every instance knows the expiry already (its cache and streams keep it).
      await this.store.accounts.deleteSession(key);
      return null;
    }
    const user = await this.store.accounts.userById(s.userId);
    return user ? { user, expiresAt: s.expiresAt } : null;
  }

  private remember(token: string, key: string, user: UserRecord, expiresAt: number): void {
    if (this.cache.size >= CACHE_SIZE) this.drop(this.cache.keys().next().value!);
    this.cache.set(token, { user, key, expiresAt, checkedAt: this.clock.now() });
    this.tokens.set(key, token);
  }

  private drop(token: string): void {
    const hit = this.cache.get(token);
    if (!hit) return;
    this.cache.delete(token);
    if (this.tokens.get(hit.key) === token) this.tokens.delete(hit.key);
  }

  /**
   * After a profile change: the next request reads the user again, on every instance (issue 20). Resolves
   * once the others have been told.
   */
  async userChanged(userId: string): Promise<void> {
    this.forgetUser(userId);
    await this.cluster.publish("user", userId);
  }

  private forgetUser(userId: string): void {
    for (const [token, hit] of this.cache) if (hit.user.id === userId) this.drop(token);
  }

  /** A session's key, as the store and the live streams know it: the token's SHA-256, never the token. */
  sessionKey(token: string): string {
    return tokenHash(token);
  }

  /** When the session with this key expires; null when there is no such session any more. */
  async sessionExpiry(key: string): Promise<number | null> {
    const s = await this.store.accounts.session(key);
    return s && s.expiresAt > this.clock.now() ? s.expiresAt : null;
  }

  /**
   * Log out: the session's row is deleted, then every instance is told (this one too), and each forgets it
   * and ends its streams. Rejects if the others could not be told, so the user can log out again.
   */
  async closeSession(token: string | undefined): Promise<void> {
    if (!token) return;
    this.drop(token);
    await this.revoke(tokenHash(token));
  }

  /** A revocation: delete the row, then tell every instance. */
  private async revoke(key: string): Promise<void> {
    await this.store.accounts.deleteSession(key);
    await this.cluster.publish("session", key);
  }

  /** A revocation heard from an instance (this one too): the session is forgotten, its streams end. */
  private revoked(key: string): void {
    const token = this.tokens.get(key);
    if (token !== undefined) this.drop(token);
    if (this.reading > 0) {
      this.revokedAt.set(key, ++this.heard);
      // Too many to remember: every read under way starts again instead.
      if (this.revokedAt.size > MAX_REVOKED) {
        this.resyncedAt = this.heard;
        this.revokedAt.clear();
      }
    }
    for (const h of [...this.revokeHandlers]) h(key);
  }

  /** Revocations may have been missed: every session is read again on its next request. */
  private forgetAll(): void {
    this.cache.clear();
    this.tokens.clear();
    this.resyncedAt = ++this.heard;
  }
}
