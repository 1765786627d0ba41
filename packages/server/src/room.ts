import {
  act,
  audienceOf,
  channelMembers,
  closeNightIntake,
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
  ROLE_CARDS,
  roleName,
  type RoleId,
  type RollName,
  type Winner,
} from "@forum-mafia/engine";
import type {
  ChannelId,
  Clock,
  FeedItem,
  GameSettings,
  GameStatus,
  MessageView,
  PostView,
  Signup,
} from "@forum-mafia/protocol";
import { renderBBCode } from "@forum-mafia/forum";
import type { Entry } from "./entries.ts";
import { phaseDeadline } from "./deadline.ts";

export interface Post {
  readonly id: string;
  readonly seat: number | null;
  readonly author: string;
  readonly text: string;
  readonly html: string;
  readonly at: number;
  hidden: { readonly reason: string } | null;
  readonly vote: { readonly color: "red" | "blue"; readonly target: number; readonly early: boolean } | null;
}

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
    | "resume";
  readonly detail: string;
  readonly reason: string;
}

const EVERYONE: Audience = { to: "everyone" };
const GM: Audience = { to: "gm" };

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
  fixedRolls: Partial<Record<RollName, boolean>> = {};
  rollsReason = "";
  readonly moderation: Moderation[] = [];
  readonly feed: FeedEntry[] = [];
  /** How much of the feed is on disk: streams send nothing beyond it. */
  durable = 0;
  /** Set aside (Games.setAside): a new room rebuilt from the log takes its place; this one is never armed. */
  retired = false;
  /** How many entries have been applied (the next entry's sequence number). */
  seq = 0;
  private cursor: EventCursor | null = null;
  /** The engine's events so far (gameEvents of the match, read as it grew). */
  readonly events: GameEvent[] = [];

  constructor(id: string) {
    this.id = id;
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
    // Before the start the first 17 hold seats; after it, everyone still signed up is in the reserve.
    const seated = this.status === "signup" ? this.settings.seats : 0;
    return this.signups.map((s, i) => ({ nick: s.nick, reserve: i >= seated }));
  }

  apply(entry: Entry): void {
    this.seq++;
    switch (entry.kind) {
      case "created":
        this.gmId = entry.gmId;
        this.gmNick = entry.gmNick;
        this.title = entry.title;
        this.settings = entry.settings;
        this.demo = entry.demo === true;
        return;
      case "signup":
        this.signups.push({ userId: entry.userId, nick: entry.nick });
        this.push(EVERYONE, { type: "lobby", signups: this.signupList() });
        return;
      case "withdraw":
        this.signups = this.signups.filter((s) => s.userId !== entry.userId);
        this.push(EVERYONE, { type: "lobby", signups: this.signupList() });
        return;
      case "started": {
        const seated = this.signups.slice(0, this.settings.seats);
        const m = startMatch({
          players: seated.map((s, i) =>
            entry.hand ? { name: s.nick, role: entry.hand[i]! } : { name: s.nick },
          ),
          seed: entry.seed,
          options: this.settings.options,
        });
        this.match = this.engine(m);
        this.seed = entry.seed;
        this.seatUsers = seated.map((s) => s.userId);
        this.signups = this.signups.slice(this.settings.seats);
        this.status = "running";
        this.startPhase(entry.at);
        this.syncEvents();
        this.match.setup.players.forEach((p, seat) => this.roleMessage(seat, p.role, entry.at));
        return;
      }
      case "act":
        // M2c: a new question to the council waits for a new answer (a rejected one may be followed by another).
        if (entry.action.act === "council") this.council = null;
        this.match = this.engine(act(this.match!, entry.seat, entry.action));
        this.syncEvents();
        return;
      case "vote":
        this.match = this.engine(vote(this.match!, entry.seat, entry.vote));
        this.syncEvents();
        return;
      case "post": {
        const post: Post = {
          id: entry.id,
          seat: entry.seat,
          author: this.nameOf(entry.seat),
          text: entry.text,
          html: renderBBCode(entry.text),
          at: entry.at,
          hidden: null,
          vote: entry.vote,
        };
        this.posts.push(post);
        this.postById.set(post.id, post);
        this.push(EVERYONE, { type: "post", post: postView(post) });
        if (entry.vote) {
          this.match = this.engine(vote(this.match!, entry.seat!, entry.vote));
          this.syncEvents();
        }
        return;
      }
      case "message": {
        this.addMessage({
          id: entry.id,
          channel: entry.channel,
          seat: entry.seat,
          author: this.nameOf(entry.seat),
          html: renderBBCode(entry.text),
          at: entry.at,
        });
        return;
      }
      case "hide": {
        const post = this.postById.get(entry.postId)!;
        post.hidden = { reason: entry.reason };
        this.moderate(entry, "hide", post.author, entry.reason);
        this.push(EVERYONE, { type: "postHidden", id: post.id, reason: entry.reason });
        return;
      }
      case "unhide": {
        // F2: the post comes back as it was written; clients replace it by its id.
        const post = this.postById.get(entry.postId)!;
        post.hidden = null;
        this.moderate(entry, "unhide", post.author, entry.reason);
        this.push(EVERYONE, { type: "post", post: postView(post) });
        return;
      }
      case "council":
        this.council = entry.answer;
        this.moderate(entry, "council", entry.answer, "");
        this.push(GM, { type: "review", phase: this.phase! });
        return;
      case "fixRolls":
        this.fixedRolls = { ...this.fixedRolls, ...entry.rolls };
        this.rollsReason = entry.reason;
        this.push(GM, { type: "review", phase: this.phase! });
        return;
      case "reopenMafia":
        this.match = reopenMafia(this.match!, entry.reason);
        this.mafiaReopened = true;
        this.moderate(entry, "reopenMafia", "", entry.reason);
        this.pushClock();
        return;
      case "intakeClosed":
        this.match = closeNightIntake(this.match!);
        this.resultsPending = true;
        this.deadline = null;
        this.paused = false;
        this.remaining = null;
        this.pushClock();
        this.push(GM, { type: "review", phase: this.phase! });
        return;
      case "publishNight":
        this.match = this.engine(
          endNight(this.match!, {
            rolls: this.fixedRolls,
            // In automatic mode an unanswered council question is answered "rejected" (issue 3, M2c).
            council: this.council ?? (this.settings.mode === "automatic" ? "rejected" : null),
            ...(this.rollsReason ? { reason: this.rollsReason } : {}),
          }),
        );
        this.council = null;
        this.fixedRolls = {};
        this.rollsReason = "";
        this.resultsPending = false;
        this.mafiaReopened = false;
        this.afterPhase(entry.at);
        return;
      case "endDay":
        this.match = this.engine(endDay(this.match!));
        this.afterPhase(entry.at);
        return;
      case "modkill":
        this.match = this.engine(modkill(this.match!, entry.seat, entry.reason));
        this.moderate(entry, "modkill", this.nameOf(entry.seat), entry.reason);
        this.syncEvents();
        return;
      case "replace": {
        const old = this.nameOf(entry.seat);
        this.match = this.engine(replace(this.match!, entry.seat, entry.nick, entry.reason));
        this.seatUsers[entry.seat] = entry.userId;
        this.signups = this.signups.filter((s) => s.userId !== entry.userId);
        this.moderate(entry, "replace", `${old} → ${entry.nick}`, entry.reason);
        this.syncEvents();
        return;
      }
      case "extend":
        if (this.paused) this.remaining = (this.remaining ?? 0) + entry.ms;
        else if (this.deadline !== null) this.deadline += entry.ms;
        this.moderate(entry, "extend", `${Math.round(entry.ms / 60_000)} min`, "");
        this.pushClock();
        return;
      case "pause":
        this.remaining = this.deadline === null ? null : Math.max(0, this.deadline - entry.at);
        this.paused = true;
        this.moderate(entry, "pause", "", "");
        this.pushClock();
        return;
      case "resume":
        this.deadline = this.remaining === null ? null : entry.at + this.remaining;
        this.paused = false;
        this.remaining = null;
        this.moderate(entry, "resume", "", "");
        this.pushClock();
        return;
      default: {
        const never: never = entry;
        throw new Error(`unknown entry ${JSON.stringify(never)}`);
      }
    }
  }

  /** S1: the role message, the first message in each player's channel with the GM (in Russian). */
  private roleMessage(seat: number, role: RoleId, at: number): void {
    const channel: ChannelId = `gm:${seat}`;
    const text = [`Ваша роль: [b]${roleName(role, "ru")}[/b]`, "", ...ROLE_CARDS[role].ru].join("\n");
    this.addMessage({
      id: `role-${seat}`,
      channel,
      seat: null,
      author: this.gmNick,
      html: renderBBCode(text),
      at,
    });
  }

  private addMessage(message: MessageView): void {
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

  private engine(m: Match | ReturnType<typeof act>): Match {
    if (isRejection(m))
      throw new Error(`game ${this.id}: the log holds an entry the engine refuses: ${m.message}`);
    return m;
  }

  private moderate(entry: Entry, kind: Moderation["kind"], detail: string, reason: string): void {
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
  private syncEvents(): void {
    const r = gameEventsSince(this.match!, this.cursor);
    this.cursor = r.cursor;
    for (const event of r.events) {
      this.events.push(event);
      this.push(audienceOf(event), { type: "game", event });
    }
  }

  private push(audience: Audience, item: FeedItem): void {
    this.feed.push({ audience, item });
  }
}

/** A post as everyone sees it: a hidden post keeps its author and time, not its text. */
export function postView(post: Post): PostView {
  return {
    id: post.id,
    seat: post.seat,
    author: post.author,
    html: post.hidden ? "" : post.html,
    at: post.at,
    hidden: post.hidden,
    vote: post.vote,
  };
}
