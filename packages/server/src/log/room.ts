import {
  act,
  audienceOf,
  channelMembers,
  closeNightIntake,
  councilAnswerTonight,
  endDay,
  endNight,
  gameEventsSince,
  isRejection,
  modkill,
  reopenMafia,
  replace,
  startMatch,
  vote,
  type Audience,
  type CouncilAnswer,
  type EventCursor,
  type GameEvent,
  type Match,
  type Phase,
  roleCard,
  roleName,
  type RoleId,
  type RollName,
  type Winner,
} from "@forum-mafia/engine";
import type {
  ChannelId,
  Clock,
  FeedItem,
  FlagMeasure,
  GameSettings,
  GameStatus,
  MessageView,
  Signup,
} from "@forum-mafia/protocol";
import { settingsOf, type Entry, type EntryKind } from "./entries.ts";
import { applyMeasure, noteFlag, type Flag } from "./flags.ts";
import { postView, withHtml, type Post } from "./posts.ts";
import { phaseDeadline } from "../game/deadline.ts";
import type { KeyedAnswer } from "./idempotency.ts";

/** A feed item and who may receive it, fixed when it is appended (so each viewer's stream never changes). */
export interface FeedEntry {
  readonly audience: Audience;
  readonly item: FeedItem;
}

export interface Moderation {
  readonly at: number;
  readonly phase: Phase | null;
  readonly kind:
    | "modkill"
    | "replace"
    | "hide"
    | "unhide"
    | "reopenMafia"
    | "fixRolls"
    | "council"
    | "extend"
    | "pause"
    | "resume"
    /** G5 (issue 31): a measure on a flag (flags.ts), its detail the author's nick. */
    | `g5-${FlagMeasure}`;
  readonly detail: string;
  readonly reason: string;
}

const EVERYONE: Audience = { to: "everyone" };
const GM: Audience = { to: "gm" };

/** The entry of one kind, e.g. `EntryOf<"vote">` has `seat` and `vote`. */
type EntryOf<K extends EntryKind> = Extract<Entry, { readonly kind: K }>;

/**
 * One game in memory, rebuilt from its entries (entries.ts): `apply` is the only way it changes, and it
 * applies an entry that the service has already checked. An entry the engine refuses here means the log
 * and the code disagree, which is a broken invariant, not a user error.
 */
export class Room {
  readonly id: string;
  title = "";
  gmId = "";
  gmNick = "";
  settings!: GameSettings;
  /** A demo game (issue 12); logs from before the mark have none. */
  demo = false;
  /** The language a demo's bots talk in (issue 16): its human's; Russian for other games and old logs. */
  lang: "ru" | "en" = "ru";
  status: GameStatus = "signup";
  signups: { userId: string; nick: string }[] = [];
  match: Match | null = null;
  seed: string | null = null;
  /** Seat → the user who holds it now (P4 moves a seat to a substitute). */
  seatUsers: string[] = [];
  posts: Post[] = [];
  readonly postById = new Map<string, Post>();
  readonly messages = new Map<ChannelId, MessageView[]>();
  phaseStart = 0;
  deadline: number | null = null;
  paused = false;
  remaining: number | null = null;
  resultsPending = false;
  mafiaReopened = false;
  council: CouncilAnswer | null = null;
  /** F2: why the GM's council answer differs from the rules' answer (M2c), or "". */
  councilReason = "";
  fixedRolls: Partial<Record<RollName, boolean>> = {};
  rollsReason = "";
  readonly moderation: Moderation[] = [];
  /** G5 (issue 31): the flagged posts and messages, oldest first (flags.ts); for the GM's table only. */
  readonly flags: Flag[] = [];
  readonly flagById = new Map<string, Flag>();
  readonly feed: FeedEntry[] = [];
  /** Set aside (Games.setAside): a new room rebuilt from the log takes its place; this one is never armed. */
  retired = false;
  /** How many entries have been applied (the next entry's sequence number). */
  seq = 0;
  /** Issue 28: the Idempotency-Keys of the commands in the log (hashed, never shown): Games.commit. */
  readonly keys = new Map<string, KeyedAnswer>();
  private cursor: EventCursor | null = null;
  /** The engine's events so far (gameEvents of the match, read as it grew). */
  readonly events: GameEvent[] = [];

  constructor(id: string) {
    this.id = id;
  }

  /**
   * M2c: the council's answer tonight's results give: the GM's, if given; else, in automatic mode, the
   * rules' answer to a listed question (council.ts), worked out now, before the night's deaths. A question
   * of the mafia's own that the log holds from before the list was kept to (issue 16) stays "rejected".
   */
  councilDecision(): CouncilAnswer | null {
    if (this.council !== null) return this.council;
    if (this.settings.mode !== "automatic") return null;
    return councilAnswerTonight(this.match!) ?? "rejected";
  }

  /** W1: the winner once the game is over (public: the last results announce it). */
  get winner(): Winner | null {
    return this.match?.state.winner ?? null;
  }

  /** Seat → role, fixed by the deal (S1; a substitute takes the role, P4): for audience checks only. */
  get roles(): readonly RoleId[] {
    if (!this.match) return [];
    return (this.dealt ??= this.match.setup.players.map((p) => p.role));
  }
  private dealt: readonly RoleId[] | null = null;

  get phase(): Phase | null {
    return this.match ? this.match.state.phase : null;
  }

  seatOf(userId: string): number | null {
    const i = this.seatUsers.indexOf(userId);
    return i < 0 ? null : i;
  }

  nameOf(seat: number | null): string {
    if (seat === null) return this.gmNick;
    return this.match!.state.players[seat]!.name;
  }

  clock(): Clock {
    return {
      phase: this.status === "ended" ? null : this.phase,
      deadline: this.paused ? null : this.deadline,
      paused: this.paused,
      resultsPending: this.resultsPending,
      mafiaReopened: this.mafiaReopened,
    };
  }

  signupList(): Signup[] {
    // Before the start the first `seats` (the role list's length, S3) hold seats; after it, everyone still
    // signed up is in the reserve (docs/readings.md).
    const seated = this.status === "signup" ? this.settings.seats : 0;
    return this.signups.map((s, i) => ({ nick: s.nick, reserve: i >= seated }));
  }

  apply(entry: Entry): void {
    this.seq++;
    // A log from a newer version, or a broken one: the kind is checked here, where the types cannot.
    if (!Object.hasOwn(Room.APPLY, entry.kind)) throw new Error(`unknown entry ${JSON.stringify(entry)}`);
    Room.applyKind(this, entry.kind, entry);
    // Issue 28: the command's Idempotency-Key (hashed), and what it created, for a retry to find.
    if (entry.idem)
      this.keys.set(entry.idem.key, {
        request: entry.idem.request,
        created: entry.kind === "post" || entry.kind === "message" ? entry.id : null,
      });
  }

  /** The handler of one kind of entry, given its own variant (a generic K keeps kind and entry together). */
  private static applyKind<K extends EntryKind>(room: Room, kind: K, entry: EntryOf<K>): void {
    Room.APPLY[kind](room, entry);
  }

  /**
   * What each kind of entry does to the room: one handler per kind (entries.ts), each given its own
   * variant; a new kind fails to compile until it has one.
   */
  private static readonly APPLY: { readonly [K in EntryKind]: (room: Room, entry: EntryOf<K>) => void } = {
    created: (room, entry) => {
      room.gmId = entry.gmId;
      room.gmNick = entry.gmNick;
      room.title = entry.title;
      room.settings = settingsOf(entry.settings);
      room.demo = entry.demo === true;
      room.lang = entry.lang ?? "ru";
    },
    signup: (room, entry) => {
      room.signups.push({ userId: entry.userId, nick: entry.nick });
      room.push(EVERYONE, { type: "lobby", signups: room.signupList() });
    },
    withdraw: (room, entry) => {
      room.signups = room.signups.filter((s) => s.userId !== entry.userId);
      room.push(EVERYONE, { type: "lobby", signups: room.signupList() });
    },
    started: (room, entry) => {
      const seated = room.signups.slice(0, room.settings.seats);
      const m = startMatch({
        players: seated.map((s, i) =>
          entry.hand ? { name: s.nick, role: entry.hand[i]! } : { name: s.nick },
        ),
        seed: entry.seed,
        options: room.settings.options,
        roles: room.settings.roles,
      });
      room.match = room.engine(m);
      room.seed = entry.seed;
      room.seatUsers = seated.map((s) => s.userId);
      room.signups = room.signups.slice(room.settings.seats);
      room.status = "running";
      room.startPhase(entry.at);
      room.syncEvents();
      room.match.setup.players.forEach((p, seat) => room.roleMessage(seat, p.role, entry.at));
    },
    act: (room, entry) => {
      // M2c: a new question to the council waits for a new answer (a rejected one may be followed by another).
      if (entry.action.act === "council") {
        room.council = null;
        room.councilReason = "";
      }
      room.match = room.engine(act(room.match!, entry.seat, entry.action));
      room.syncEvents();
    },
    vote: (room, entry) => {
      room.match = room.engine(vote(room.match!, entry.seat, entry.vote));
      room.syncEvents();
    },
    post: (room, entry) => {
      const post: Post = withHtml(
        {
          id: entry.id,
          seat: entry.seat,
          author: room.nameOf(entry.seat),
          text: entry.text,
          at: entry.at,
          hidden: null,
          vote: entry.vote,
        },
        entry.text,
      );
      room.posts.push(post);
      room.postById.set(post.id, post);
      room.push(EVERYONE, { type: "post", post: postView(post) });
      if (entry.flag) noteFlag(room, entry, "thread", entry.flag);
      if (entry.vote) {
        room.match = room.engine(vote(room.match!, entry.seat!, entry.vote));
        room.syncEvents();
      }
    },
    message: (room, entry) => {
      room.addMessage(
        withHtml(
          {
            id: entry.id,
            channel: entry.channel,
            seat: entry.seat,
            author: room.nameOf(entry.seat),
            at: entry.at,
          },
          entry.text,
        ),
      );
      if (entry.flag) noteFlag(room, entry, entry.channel, entry.flag);
    },
    measure: applyMeasure,
    hide: (room, entry) => {
      const post = room.postById.get(entry.postId)!;
      post.hidden = { reason: entry.reason };
      room.moderate(entry, "hide", post.author, entry.reason);
      room.push(EVERYONE, { type: "postHidden", id: post.id, reason: entry.reason });
    },
    unhide: (room, entry) => {
      // F2: the post comes back as it was written; clients replace it by its id.
      const post = room.postById.get(entry.postId)!;
      post.hidden = null;
      room.moderate(entry, "unhide", post.author, entry.reason);
      room.push(EVERYONE, { type: "post", post: postView(post) });
    },
    council: (room, entry) => {
      room.council = entry.answer;
      room.councilReason = entry.reason ?? "";
      room.moderate(entry, "council", entry.answer, room.councilReason);
      room.push(GM, { type: "review", phase: room.phase! });
    },
    fixRolls: (room, entry) => {
      room.fixedRolls = { ...room.fixedRolls, ...entry.rolls };
      room.rollsReason = entry.reason;
      room.push(GM, { type: "review", phase: room.phase! });
    },
    reopenMafia: (room, entry) => {
      room.match = reopenMafia(room.match!, entry.reason);
      room.mafiaReopened = true;
      room.moderate(entry, "reopenMafia", "", entry.reason);
      room.pushClock();
    },
    intakeClosed: (room) => {
      room.match = closeNightIntake(room.match!);
      room.resultsPending = true;
      room.deadline = null;
      room.paused = false;
      room.remaining = null;
      room.pushClock();
      room.push(GM, { type: "review", phase: room.phase! });
    },
    publishNight: (room, entry) => {
      room.match = room.engine(
        endNight(room.match!, {
          rolls: room.fixedRolls,
          council: room.councilDecision(),
          ...(room.rollsReason ? { reason: room.rollsReason } : {}),
          ...(room.councilReason ? { councilReason: room.councilReason } : {}),
        }),
      );
      room.council = null;
      room.councilReason = "";
      room.fixedRolls = {};
      room.rollsReason = "";
      room.resultsPending = false;
      room.mafiaReopened = false;
      room.afterPhase(entry.at);
    },
    endDay: (room, entry) => {
      room.match = room.engine(endDay(room.match!));
      room.afterPhase(entry.at);
    },
    modkill: (room, entry) => {
      room.match = room.engine(modkill(room.match!, entry.seat, entry.reason));
      room.moderate(entry, "modkill", room.nameOf(entry.seat), entry.reason);
      room.syncEvents();
    },
    replace: (room, entry) => {
      const old = room.nameOf(entry.seat);
      room.match = room.engine(replace(room.match!, entry.seat, entry.nick, entry.reason));
      room.seatUsers[entry.seat] = entry.userId;
      room.signups = room.signups.filter((s) => s.userId !== entry.userId);
      room.moderate(entry, "replace", `${old} → ${entry.nick}`, entry.reason);
      room.syncEvents();
    },
    extend: (room, entry) => {
      if (room.paused) room.remaining = (room.remaining ?? 0) + entry.ms;
      else if (room.deadline !== null) room.deadline += entry.ms;
      room.moderate(entry, "extend", `${Math.round(entry.ms / 60_000)} min`, "");
      room.pushClock();
    },
    pause: (room, entry) => {
      room.remaining = room.deadline === null ? null : Math.max(0, room.deadline - entry.at);
      room.paused = true;
      room.moderate(entry, "pause", "", "");
      room.pushClock();
    },
    resume: (room, entry) => {
      room.deadline = room.remaining === null ? null : entry.at + room.remaining;
      room.paused = false;
      room.remaining = null;
      room.moderate(entry, "resume", "", "");
      room.pushClock();
    },
  };

  /** S1: the role message, the first message in each player's channel with the GM (in Russian). */
  private roleMessage(seat: number, role: RoleId, at: number): void {
    const channel: ChannelId = `gm:${seat}`;
    const text = [
      `Ваша роль: [b]${roleName(role, "ru")}[/b]`,
      "",
      ...roleCard(role, "ru", this.match!.state.options),
    ].join("\n");
    this.addMessage(this.gmMessage(`role-${seat}`, channel, at, text));
  }

  /** A message from the GM (the role message; G5's warnings and strikes, flags.ts). */
  gmMessage(id: string, channel: ChannelId, at: number, text: string): MessageView {
    return withHtml({ id, channel, seat: null, author: this.gmNick, at }, text);
  }

  addMessage(message: MessageView): void {
    const list = this.messages.get(message.channel) ?? [];
    list.push(message);
    this.messages.set(message.channel, list);
    this.push(this.channelAudience(message.channel), { type: "message", message });
  }

  /** Who may read a channel's messages (S2, G6, G8); the GM reads them all. */
  channelAudience(channel: ChannelId): Audience {
    if (channel === "mafia" || channel === "pair") return { to: "team", team: channel };
    if (channel === "spectators") return { to: "seats", seats: this.spectators() };
    return { to: "seats", seats: [Number(channel.slice(3))] };
  }

  /** G8: the dead who were in no faction chat. */
  spectators(): number[] {
    return this.match ? channelMembers(this.match.state, "spectators") : [];
  }

  engine(m: Match | ReturnType<typeof act>): Match {
    if (isRejection(m))
      throw new Error(`game ${this.id}: the log holds an entry the engine refuses: ${m.message}`);
    return m;
  }

  moderate(entry: Entry, kind: Moderation["kind"], detail: string, reason: string): void {
    this.moderation.push({ at: entry.at, phase: this.phase, kind, detail, reason });
  }

  private afterPhase(at: number): void {
    this.syncEvents();
    if (this.match!.state.winner !== null) {
      this.status = "ended";
      this.deadline = null;
      this.paused = false;
      this.remaining = null;
      this.pushClock();
      return;
    }
    this.startPhase(at);
  }

  private startPhase(at: number): void {
    this.phaseStart = at;
    this.deadline = phaseDeadline(this.settings, this.match!.state.phase, at);
    this.paused = false;
    this.remaining = null;
    this.pushClock();
  }

  private pushClock(): void {
    this.push(EVERYONE, { type: "clock", clock: this.clock() });
  }

  /** Append the engine's new events (read from where the last reading stopped) with the engine's audiences. */
  syncEvents(): void {
    const r = gameEventsSince(this.match!, this.cursor);
    this.cursor = r.cursor;
    for (const event of r.events) {
      this.events.push(event);
      this.push(audienceOf(event), { type: "game", event });
    }
  }

  push(audience: Audience, item: FeedItem): void {
    this.feed.push({ audience, item });
  }
}
