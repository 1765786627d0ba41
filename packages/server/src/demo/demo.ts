import { randomBytes } from "node:crypto";
import { botNightAction, RandomStream, rngFromSeed } from "@forum-mafia/engine/bots";
import { nightFormFor } from "@forum-mafia/engine";
import { DEFAULT_G5, DEFAULT_OPTIONS, DEFAULT_ROLES } from "@forum-mafia/protocol";
import { nickKey, nickSkeleton } from "@forum-mafia/forum";
import { nanoid } from "nanoid";
import type { Clock } from "../clock.ts";
import type { Cluster } from "../log/cluster.ts";
import { DemoTalk } from "./demo-talk.ts";
import { ApiError } from "../http/errors.ts";
import { commandsOf, type Commands } from "../game/commands.ts";
import type { Games } from "../log/games.ts";
import type { Room } from "../log/room.ts";
import type { Store, UserRecord } from "../stores/store.ts";
import { seenBy } from "../views/seen.ts";

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

/** The demo GM and the 16 bots. */
interface Accounts {
  readonly gm: UserRecord;
  readonly bots: readonly UserRecord[];
}

/**
 * Demo games (issue 5): the user takes one seat, 16 bots the rest, and phases are short. The bots and the
 * demo GM are ordinary accounts that cannot log in (their password hash matches no password). A bot decides
 * from exactly what a human in its seat would get: its own view (seenBy) and its night form, and sends its
 * move through the same commands as everyone else. Bots act at the start of each night.
 *
 * Issue 16: the bots play the thread (demo-talk.ts). By day each bot posts at seeded moments of the phase,
 * its vote cast by one of its posts (V2), so the count and the thread agree; it answers the person who
 * quotes or names it; the mafia and the pair write in their channels. The bots talk in the language of the demo's human (Room.lang).
 *
 * Issue 12: a demo is made in one commit (created, 17 signups, started: all or nothing) and marked as a demo
 * in its `created` entry; it is its player's own (out of everyone else's lobby list, closed to signups). The
 * accounts are looked up once, however many games ask at the same time.
 *
 * Issue 20: the bots play on one instance only, the cluster's leader. Any instance creates a demo game (a
 * request); the leader hears every game's commits (Games calls its listeners for entries other instances
 * wrote too) and its bots play. When leadership arrives the bots resume what they owe in every demo game;
 * when it is lost their timers stop, and the next leader resumes them (a move already made is not repeated).
 */
export class Demo {
  /** The accounts, once known (for the checks that cannot wait). */
  private known: Accounts | null = null;
  /** The one lookup of the accounts, shared by everyone who asks while it runs. */
  private lookup: Promise<Accounts> | null = null;
  private readonly lastPhase = new Map<string, string>();
  /** The bots' moves under way, and whether the server is stopping. */
  private readonly moving = new Set<Promise<void>>();
  private stopped = false;
  /**
   * Whether this instance's bots play: it is the cluster's leader. Alone with its store it always is; on a
   * shared store not until a cluster says so (follow).
   */
  private leading: boolean;
  private readonly talk: DemoTalk;
  private following: Cluster | null = null;
  private unlead: () => void = () => {};

  constructor(
    private readonly games: Games,
    private readonly store: Store,
    private readonly clock: Clock,
    cluster?: Cluster,
    /** Issue 29: the game commands the bots use (server.ts passes its own; they hold no state). */
    private readonly commands: Commands = commandsOf(games),
  ) {
    this.leading = !store.shared;
    this.talk = new DemoTalk(games, commands.play, clock, (work, what) => this.track(work, what));
    this.talk.isHuman = (room, seat) => {
      const user = room.seatUsers[seat];
      return user !== undefined && !(this.known?.bots.some((b) => b.id === user) ?? false);
    };
    games.listen((room, from, to) => {
      this.onCommit(room);
      if (this.known && this.playing && this.isDemo(room)) this.talk.heard(room, this.known.bots, from, to);
    });
    if (cluster) this.follow(cluster);
  }

  /** Play only while this instance leads the cluster (issue 20); called at once with the current state. */
  follow(cluster: Cluster): void {
    if (this.following === cluster) return;
    this.unlead();
    this.following = cluster;
    this.unlead = cluster.onLeader((leader) => {
      if (leader === this.leading) return;
      this.leading = leader;
      // A new leader first reads what the others wrote (its rooms may be behind), then plays what is owed.
      if (leader)
        this.track(
          this.games.freshAll().then(() => this.resume()),
          "resuming the demo games as the leader",
        );
      else this.pause();
    });
  }

  /** Whether the bots move now: this instance leads, and is not stopping. */
  private get playing(): boolean {
    return this.leading && !this.stopped;
  }

  /** Leadership is lost: every planned moment is cancelled, and the next leader plays them. */
  private pause(): void {
    this.talk.stop();
    // Forgotten, so that a leadership regained resumes every phase (resume skips what was done).
    this.lastPhase.clear();
  }

  /**
   * After a restart, or when this instance becomes the leader: let the bots move in every running demo game
   * (a move already made is not repeated).
   */
  resume(): void {
    if (!this.playing) return;
    const rooms = [...this.games.rooms.values()];
    // Games from before the mark are known by their GM, the demo GM's account: learn it first.
    if (!rooms.some((room) => room.demo || room.gmNick === GM_NICK)) return;
    this.track(
      this.accounts().then(() => {
        for (const room of rooms) this.onCommit(room);
      }),
    );
  }

  async create(user: UserRecord, minutes: number): Promise<string> {
    const { gm, bots } = await this.accounts();
    if (bots.some((b) => b.id === user.id) || gm.id === user.id)
      throw new ApiError(403, "demo/bot", "a bot cannot start a demo game");
    return this.commands.signups.create(
      gm,
      {
        title: user.lang === "en" ? `Demo game: ${user.nick}` : `Демо-игра: ${user.nick}`,
        night: { amount: minutes, unit: "minutes" },
        day: { amount: minutes, unit: "minutes" },
        dayDeadline: null,
        roles: [...DEFAULT_ROLES],
        options: DEFAULT_OPTIONS,
        mode: "automatic",
        g5: DEFAULT_G5,
      },
      // Issue 16: the bots talk in the language of the demo's human.
      { players: [user, ...bots], lang: user.lang },
    );
  }

  /** A demo game, marked so (issue 12), or one from before the mark, run by the demo GM's account. */
  isDemo(room: Room): boolean {
    return room.demo || (this.known !== null && room.gmId === this.known.gm.id);
  }

  /** Whether the lobby lists the game for this user: a demo only for those in it (issue 12). */
  listed(room: Room, userId: string | null): boolean {
    if (!this.isDemo(room)) return true;
    return userId !== null && (room.seatOf(userId) !== null || room.signups.some((s) => s.userId === userId));
  }

  /** Nobody signs up to a demo game: it is its player's own (issue 12). */
  refuseSignup(room: Room): void {
    if (this.isDemo(room))
      throw new ApiError(403, "demo/private", "a demo game is its player's own: start a demo of your own");
  }

  /** The demo accounts, created on first use (their nicks are reserved from then on). */
  private accounts(): Promise<Accounts> {
    if (!this.lookup) {
      const lookup = this.lookUp().then((found) => {
        this.known = found;
        return found;
      });
      // A failed lookup (the store is down) is tried again by the next one to ask.
      lookup.catch(() => {
        if (this.lookup === lookup) this.lookup = null;
      });
      this.lookup = lookup;
    }
    return this.lookup;
  }

  private async lookUp(): Promise<Accounts> {
    const get = async (nick: string): Promise<UserRecord> => {
      const key = nickKey(nick);
      const found = await this.store.accounts.userByNickKey(key);
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
      if ((await this.store.accounts.createUser(user)) === "created") return user;
      // Created meanwhile by another server, or (in a database older than the skeletons) a person's
      // look-alike nick holds its skeleton.
      const now = await this.store.accounts.userByNickKey(key);
      if (!now) throw new Error(`the demo nick ${nick} is too like a person's nick`);
      return now;
    };
    const gm = await get(GM_NICK);
    const bots: UserRecord[] = [];
    for (const nick of BOT_NICKS) bots.push(await get(nick));
    return { gm, bots };
  }

  private onCommit(room: Room): void {
    if (!this.playing || room.status !== "running" || !room.match) return;
    if (!this.known) {
      // A restarted server learns the accounts on its first look (resume), once for every game.
      if (room.demo || room.gmNick === GM_NICK) this.track(this.accounts().then(() => this.onCommit(room)));
      return;
    }
    if (!this.isDemo(room)) return;
    const phase = room.match.state.phase;
    const key = `${phase.kind}${phase.number}`;
    if (this.lastPhase.get(room.id) === key) return;
    this.lastPhase.set(room.id, key);
    this.track(
      new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.move(room.id, key)),
      `demo game ${room.id}: a bot's move`,
    );
  }

  /** Work for idle() to wait for; its failure is reported, not thrown. */
  private track(work: Promise<void>, what = "resuming the demo games"): void {
    const done = work
      .catch((error: unknown) => console.error(`${what} failed:`, error))
      .finally(() => this.moving.delete(done));
    this.moving.add(done);
  }

  /** Resolves when the bots have made every move they have started (tests, and shutdown). */
  async idle(): Promise<void> {
    while (this.moving.size > 0) await Promise.allSettled([...this.moving]);
  }

  /** No more moves: for a clean shutdown, before the store closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unlead();
    this.talk.stop();
    await this.idle();
  }

  /** Every bot that is alive makes its night move, as its own player; then the phase's talk is planned. */
  private async move(id: string, key: string): Promise<void> {
    const room = this.games.rooms.get(id);
    if (!room || room.status !== "running" || !this.known) return;
    if (room.match!.state.phase.kind === "night") await this.act(room, id, key, this.known.bots);
    const now = this.games.rooms.get(id);
    const phase = now?.match?.state.phase;
    if (this.playing && now && phase && `${phase.kind}${phase.number}` === key)
      this.talk.plan(now, this.known.bots);
  }

  private async act(room: Room, id: string, key: string, bots: readonly UserRecord[]): Promise<void> {
    for (const bot of bots) {
      if (!this.playing) return;
      const seat = room.seatOf(bot.id);
      if (seat === null) continue;
      const now = room.match!.state.phase;
      if (`${now.kind}${now.number}` !== key) return;
      // A bot sees what a human in its seat would: its own view, and the form built from it.
      const seen = seenBy(room, { kind: "player", seat })!;
      const view = seen.view;
      if (!view.seats[seat]!.alive) continue;
      // Each bot's choices come from its own stream, seeded by the game's secret seed (F1), the seat and
      // the phase: from public data alone (the game's id, the phase) nobody can replay a bot's choice and
      // so read its role from its votes. At the end the seed is published and every choice can be checked.
      const rng = new RandomStream(rngFromSeed(`demo:${room.seed!}:${seat}:${key}`));
      try {
        if (view.submissions.some((s) => s.seat === seat)) continue;
        const action = botNightAction({ view, form: nightFormFor(view, seen.roleList) }, rng);
        if (action) await this.commands.play.act(bot, id, action);
      } catch (error) {
        // A refused move (the phase moved on meanwhile) is the bot's loss, as it would be a human's.
        if (!(error instanceof ApiError)) throw error;
      }
    }
  }
}
