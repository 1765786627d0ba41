import { randomBytes } from "node:crypto";
import { botNightAction, botVote, nightForm, RandomStream, rngFromSeed } from "@forum-mafia/engine";
import { nickKey, nickSkeleton } from "@forum-mafia/forum";
import { nanoid } from "nanoid";
import type { Clock } from "./clock.ts";
import { ApiError } from "./errors.ts";
import type { Games } from "./games.ts";
import type { Room } from "./room.ts";
import type { Store, UserRecord } from "./store.ts";
import { gameView } from "./views.ts";

/** The bots' nicks: 16 seats beside the human's, and the demo games' GM. */
const BOT_NICKS = [
  "Бот Аркадий",
  "Бот Белла",
  "Бот Валера",
  "Бот Галя",
  "Бот Денис",
  "Бот Ева",
  "Бот Жора",
  "Бот Зина",
  "Бот Илья",
  "Бот Кира",
  "Бот Лев",
  "Бот Мила",
  "Бот Нестор",
  "Бот Оля",
  "Бот Прохор",
  "Бот Рита",
];
const GM_NICK = "Ведущий демо";

/** The demo accounts' nicks, and their look-alikes, are not open to registration (compared by skeleton). */
const RESERVED = new Set([GM_NICK, ...BOT_NICKS].map(nickSkeleton));
export const isReservedNick = (nick: string): boolean => RESERVED.has(nickSkeleton(nick));

/**
 * Demo games (issue 5): the user takes one seat, 16 bots the rest, and phases are short. The bots and the
 * demo GM are ordinary accounts that cannot log in (their password hash matches no password). A bot decides
 * from exactly what a human in its seat would get: its own view (gameView) and its night form, and sends its
 * move through the same commands as everyone else. Bots move once at the start of each phase.
 */
export class Demo {
  private bots: UserRecord[] | null = null;
  private gm: UserRecord | null = null;
  private readonly lastPhase = new Map<string, string>();
  /** The bots' moves under way, and whether the server is stopping. */
  private readonly moving = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly games: Games,
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    games.listen((room) => this.onCommit(room));
  }

  /** After a restart: let the bots move in every running demo game (a move already made is not repeated). */
  resume(): void {
    for (const room of this.games.rooms.values()) this.onCommit(room);
  }

  async create(user: UserRecord, minutes: number): Promise<string> {
    const { gm, bots } = await this.accounts();
    if (bots.some((b) => b.id === user.id) || gm.id === user.id)
      throw new ApiError(403, "demo/bot", "a bot cannot start a demo game");
    const id = await this.games.create(gm, {
      title: `Демо-игра: ${user.nick}`,
      night: { amount: minutes, unit: "minutes" },
      day: { amount: minutes, unit: "minutes" },
      dayDeadline: null,
      options: { earlyClose: "majority", strikes: "shared" },
      mode: "automatic",
    });
    await this.games.signup(user, id);
    for (const bot of bots) await this.games.signup(bot, id);
    await this.games.start(gm, id, "random");
    return id;
  }

  /** The demo accounts, created on first use (their nicks are reserved from then on). */
  private async accounts(): Promise<{ gm: UserRecord; bots: UserRecord[] }> {
    if (this.gm && this.bots) return { gm: this.gm, bots: this.bots };
    const get = async (nick: string): Promise<UserRecord> => {
      const key = nickKey(nick);
      const found = await this.store.userByNickKey(key);
      if (found && found.passwordHash.startsWith("$argon2"))
        throw new Error(`the demo nick ${nick} belongs to a person's account`);
      if (found) return found;
      const user: UserRecord = {
        id: nanoid(12),
        nick,
        nickKey: key,
        nickSkeleton: nickSkeleton(nick),
        // Not an argon2 hash: no password verifies against it, so nobody can log in as a bot.
        passwordHash: `!bot:${randomBytes(16).toString("hex")}`,
        timeZone: "Europe/Moscow",
        lang: "ru",
        createdAt: this.clock.now(),
      };
      if ((await this.store.createUser(user)) === "created") return user;
      // Created meanwhile by another server, or (in a database older than the skeletons) a person's
      // look-alike nick holds its skeleton.
      const now = await this.store.userByNickKey(key);
      if (!now) throw new Error(`the demo nick ${nick} is too like a person's nick`);
      return now;
    };
    this.gm = await get(GM_NICK);
    this.bots = [];
    for (const nick of BOT_NICKS) this.bots.push(await get(nick));
    return { gm: this.gm, bots: this.bots };
  }

  private isDemo(room: Room): boolean {
    return this.gm !== null && room.gmId === this.gm.id;
  }

  private onCommit(room: Room): void {
    if (this.stopped || room.status !== "running" || !room.match) return;
    if (!this.isDemo(room)) {
      // The demo accounts are looked up lazily; a restarted server learns them on its first look.
      if (this.gm === null && room.gmNick === GM_NICK) void this.accounts().then(() => this.onCommit(room));
      return;
    }
    const phase = room.match.state.phase;
    const key = `${phase.kind}${phase.number}`;
    if (this.lastPhase.get(room.id) === key) return;
    this.lastPhase.set(room.id, key);
    const move = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.move(room.id, key));
    this.moving.add(move);
    move
      .catch((error: unknown) => console.error(`demo game ${room.id}: a bot's move failed:`, error))
      .finally(() => this.moving.delete(move));
  }

  /** Resolves when the bots have made every move they have started (tests, and shutdown). */
  async idle(): Promise<void> {
    while (this.moving.size > 0) await Promise.allSettled([...this.moving]);
  }

  /** No more moves: for a clean shutdown, before the store closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  /** Every bot that is alive makes its move for the phase, as its own player. */
  private async move(id: string, key: string): Promise<void> {
    const room = this.games.rooms.get(id);
    if (!room || room.status !== "running" || !this.bots) return;
    for (const bot of this.bots) {
      if (this.stopped) return;
      const seat = room.seatOf(bot.id);
      if (seat === null) continue;
      const now = room.match!.state.phase;
      if (`${now.kind}${now.number}` !== key) return;
      const view = gameView(room, { kind: "player", seat })!;
      if (!view.seats[seat]!.alive) continue;
      // Each bot's choices come from its own stream, seeded by the game's secret seed (F1), the seat and
      // the phase: from public data alone (the game's id, the phase) nobody can replay a bot's choice and
      // so read its role from its votes. At the end the seed is published and every choice can be checked.
      const rng = new RandomStream(rngFromSeed(`demo:${room.seed!}:${seat}:${key}`));
      try {
        if (now.kind === "night") {
          if (view.submissions.some((s) => s.seat === seat)) continue;
          const action = botNightAction({ view, form: nightForm(room.match!.state, seat) }, rng);
          if (action) await this.games.act(bot, id, action);
        } else {
          if (view.votes.some((v) => v.seat === seat)) continue;
          const vote = botVote({ view, form: null }, rng);
          if (vote) await this.games.vote(bot, id, vote);
        }
      } catch (error) {
        // A refused move (the phase moved on meanwhile) is the bot's loss, as it would be a human's.
        if (!(error instanceof ApiError)) throw error;
      }
    }
  }
}
