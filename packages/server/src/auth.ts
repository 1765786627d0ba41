import { createHash, randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { checkNick, nickKey } from "@forum-mafia/forum";
import { nanoid } from "nanoid";
import type { Clock } from "./clock.ts";
import { isTimeZone } from "./deadline.ts";
import { ApiError, badRequest, conflict } from "./errors.ts";
import type { Store, UserRecord } from "./store.ts";

export const SESSION_COOKIE = "fm_session";
export const SESSION_DAYS = 30;
export const DEFAULT_TIME_ZONE = "Europe/Moscow";

const tokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

/** Accounts and sessions: argon2id password hashes, and session tokens kept only as their SHA-256. */
export class Accounts {
  /** A hash to verify against when the nick is unknown, so both failures take the same time. */
  private dummy: Promise<string> | null = null;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async register(nick: string, password: string, timeZone: string | undefined): Promise<UserRecord> {
    const clean = nick.trim().replace(/\s+/g, " ");
    const bad = checkNick(clean);
    if (bad) throw badRequest("nick", bad);
    const tz = timeZone ?? DEFAULT_TIME_ZONE;
    if (!isTimeZone(tz)) throw badRequest("timeZone", `timeZone: unknown time zone ${JSON.stringify(tz)}`);
    const user: UserRecord = {
      id: nanoid(12),
      nick: clean,
      nickKey: nickKey(clean),
      passwordHash: await hash(password),
      timeZone: tz,
      lang: "ru",
      createdAt: this.clock.now(),
    };
    if ((await this.store.createUser(user)) === "taken")
      throw conflict(
        "nick-taken",
        `nick: "${clean}" is taken (nicks are compared ignoring case, ё/е and look-alike letters)`,
      );
    return user;
  }

  async login(nick: string, password: string): Promise<UserRecord> {
    const user = await this.store.userByNickKey(nickKey(nick));
    if (!user) {
      this.dummy ??= hash(randomBytes(16).toString("hex"));
      await verify(await this.dummy, password);
    } else if (await verify(user.passwordHash, password)) {
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

  /** The session's user; null for a missing, forged or expired token. */
  async userOf(token: string | undefined): Promise<UserRecord | null> {
    if (!token || token.length > 100) return null;
    const s = await this.store.session(tokenHash(token));
    if (!s) return null;
    if (s.expiresAt <= this.clock.now()) {
      await this.store.deleteSession(tokenHash(token));
      return null;
    }
    return this.store.userById(s.userId);
  }

  async closeSession(token: string | undefined): Promise<void> {
    if (token) await this.store.deleteSession(tokenHash(token));
  }
}
