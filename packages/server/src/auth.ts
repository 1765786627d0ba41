import { createHash, randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { checkNick, nickKey, nickSkeleton } from "@forum-mafia/forum";
import { nanoid } from "nanoid";
import type { Clock } from "./clock.ts";
import { isTimeZone } from "./deadline.ts";
import { isReservedNick } from "./demo.ts";
import { ApiError, badRequest, conflict } from "./errors.ts";
import type { Store, UserRecord } from "./store.ts";

export const SESSION_COOKIE = "fm_session";
export const SESSION_DAYS = 30;
export const DEFAULT_TIME_ZONE = "Europe/Moscow";

const CACHE_MS = 60_000;
const CACHE_SIZE = 50_000;

const tokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

/** Accounts and sessions: argon2id password hashes, and session tokens kept only as their SHA-256. */
export class Accounts {
  /** A hash to verify against when the nick is unknown, so both failures take the same time. */
  private dummy: Promise<string> | null = null;
  /**
   * Recently checked sessions, so a request costs no database read. An entry is trusted for CACHE_MS only:
   * a logout on another server of a PostgreSQL deployment takes effect here within that time.
   */
  private readonly cache = new Map<string, { user: UserRecord; expiresAt: number; checkedAt: number }>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async register(nick: string, password: string, timeZone: string | undefined): Promise<UserRecord> {
    const clean = nick.trim().replace(/\s+/g, " ");
    const bad = checkNick(clean);
    if (bad) throw badRequest("nick", bad);
    if (isReservedNick(clean))
      throw conflict("nick-taken", `nick: "${clean}" is reserved for the demo games' bots`);
    const tz = timeZone ?? DEFAULT_TIME_ZONE;
    if (!isTimeZone(tz)) throw badRequest("timeZone", `timeZone: unknown time zone ${JSON.stringify(tz)}`);
    const user: UserRecord = {
      id: nanoid(12),
      nick: clean,
      nickKey: nickKey(clean),
      nickSkeleton: nickSkeleton(clean),
      passwordHash: await hash(password),
      timeZone: tz,
      lang: "ru",
      createdAt: this.clock.now(),
    };
    if ((await this.store.createUser(user)) === "taken")
      throw conflict(
        "nick-taken",
        `nick: "${clean}" is taken or too similar to a taken nick (nicks are compared ignoring case, ё/е ` +
          `and look-alike characters such as I/l, 0/O, rn/m, Cyrillic п/n)`,
      );
    return user;
  }

  async login(nick: string, password: string): Promise<UserRecord> {
    const user = await this.store.userByNickKey(nickKey(nick));
    if (!user) {
      this.dummy ??= hash(randomBytes(16).toString("hex"));
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
    await this.store.createSession(tokenHash(token), { userId, expiresAt });
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

  /** The session's user; null for a missing, forged or expired token. */
  async userOf(token: string | undefined): Promise<UserRecord | null> {
    const known = this.cachedUser(token);
    if (known !== undefined) return known;
    const now = this.clock.now();
    this.cache.delete(token!);
    const s = await this.store.session(tokenHash(token!));
    if (!s) return null;
    if (s.expiresAt <= now) {
      await this.store.deleteSession(tokenHash(token!));
      return null;
    }
    const user = await this.store.userById(s.userId);
    if (!user) return null;
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(token!, { user, expiresAt: s.expiresAt, checkedAt: now });
    return user;
  }

  /** After a profile change: the next request reads the user again. */
  forgetUser(userId: string): void {
    for (const [token, hit] of this.cache) if (hit.user.id === userId) this.cache.delete(token);
  }

  /** A session's key, as the store and the live streams know it: the token's SHA-256, never the token. */
  sessionKey(token: string): string {
    return tokenHash(token);
  }

  /** When the session with this key expires; null when there is no such session any more. */
  async sessionExpiry(key: string): Promise<number | null> {
    const s = await this.store.session(key);
    return s && s.expiresAt > this.clock.now() ? s.expiresAt : null;
  }

  async closeSession(token: string | undefined): Promise<void> {
    if (!token) return;
    this.cache.delete(token);
    await this.store.deleteSession(tokenHash(token));
  }
}
