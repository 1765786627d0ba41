import {
  botChat,
  botDayPost,
  botReply,
  botVote,
  nextSlot,
  talkPlan,
  RandomStream,
  rngFromSeed,
  VOTE_SLOT,
  type NameForms,
  type TalkInput,
  type TalkMessage,
  type TalkPost,
} from "@forum-mafia/engine/bots";
import { isMafia, type Lang, type Phase } from "@forum-mafia/engine";
import { nickForms, votesInPost } from "@forum-mafia/forum";
import type { Clock } from "../clock.ts";
import { ApiError } from "../http/errors.ts";
import { channelsOf } from "../views/channels.ts";
import type { Play } from "../game/play.ts";
import type { Games } from "../log/games.ts";
import type { Room } from "../log/room.ts";
import { seenBy } from "../views/seen.ts";
import type { UserRecord } from "../stores/store.ts";

/** The thread and the team channels of a room, each post and message with the phase it was written in. */
interface Written {
  readonly thread: readonly TalkPost[];
  readonly chat: readonly TalkMessage[];
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&lt;": "<",
  "&gt;": ">",
  "&amp;": "&",
  "&quot;": '"',
  "&#39;": "'",
};
/** A message's text from its safe HTML (the room keeps no source of messages): enough to read names in. */
const textOf = (html: string): string =>
  html.replace(/<[^>]*>/gu, " ").replace(/&(?:lt|gt|amp|quot|#39);/gu, (e) => ENTITIES[e]!);

/** Walks the room's feed: the phase changes with the results (A1, A3), posts and messages fall between. */
function written(room: Room): Written {
  const thread: TalkPost[] = [];
  const chat: TalkMessage[] = [];
  let phase: Phase = { kind: "night", number: 1 };
  for (const { item } of room.feed) {
    if (item.type === "game") {
      const e = item.event;
      if (e.type === "nightResults") phase = { kind: "day", number: e.phase.number };
      else if (e.type === "dayResults") phase = { kind: "night", number: e.phase.number + 1 };
    } else if (item.type === "post") {
      const post = room.postById.get(item.post.id);
      if (!post || post.hidden || thread.some((p) => p.id === post.id)) continue;
      thread.push({ id: post.id, seat: post.seat, text: post.text, phase, vote: post.vote });
    } else if (item.type === "message") {
      const m = item.message;
      if (m.channel === "mafia" || m.channel === "pair")
        chat.push({ channel: m.channel, seat: m.seat, text: textOf(m.html), phase });
    }
  }
  return { thread, chat };
}

const TWO_32 = 4294967296;

/**
 * The demo bots' talk (issue 16): each bot's posts at the seeded moments of its plan (talkPlan) within the
 * phase, its vote cast by the post at VOTE_SLOT, its team's channel, and its replies to the person who
 * quotes or names it. Nothing is stored beyond the posts and messages themselves: what a bot has already
 * said is read from the thread (nextSlot, botReply), so after a restart a moment past due says only what
 * was not said yet. Each bot talks from what a human in its seat would get: its own view (seenBy), the
 * public thread and its own team's channel.
 */
export class DemoTalk {
  private readonly timers = new Set<() => void>();

  constructor(
    private readonly games: Games,
    private readonly play: Play,
    private readonly clock: Clock,
    private readonly track: (work: Promise<void>, what: string) => void,
  ) {}

  /** No more talk: every moment not yet come is cancelled. */
  stop(): void {
    for (const cancel of this.timers) cancel();
    this.timers.clear();
  }

  /** Plans the phase now in play for every living bot: its posts, its channel, and replies that wait. */
  plan(room: Room, bots: readonly UserRecord[]): void {
    const start = room.phaseStart;
    const end = room.deadline;
    if (end === null || !room.match || room.status !== "running") return;
    const phase = room.match.state.phase;
    const key = `${phase.kind}${phase.number}`;
    const at = (f: number): number => Math.round(start + f * (end - start));
    for (const bot of bots) {
      const seat = room.seatOf(bot.id);
      if (seat === null || !room.match.state.players[seat]!.alive) continue;
      const plan = talkPlan(this.seedOf(room, seat), phase);
      plan.posts.forEach((f, slot) =>
        this.at(at(f), room.id, key, () => this.speak(room.id, key, bot, slot)),
      );
      for (const f of plan.chat) this.at(at(f), room.id, key, () => this.write(room.id, key, bot));
      this.replyLater(room, bot, key);
    }
  }

  /** After a person's post: the bots it addresses answer a little later (a seeded delay). */
  heard(room: Room, bots: readonly UserRecord[], from: number, to: number): void {
    if (!room.match || room.status !== "running") return;
    const phase = room.match.state.phase;
    const key = `${phase.kind}${phase.number}`;
    const ids = new Set(bots.map((b) => b.id));
    const spoke = room.feed
      .slice(from, to)
      .some(
        (f) =>
          f.item.type === "post" && f.item.post.seat !== null && !ids.has(room.seatUsers[f.item.post.seat]!),
      );
    if (!spoke) return;
    for (const bot of bots) this.replyLater(room, bot, key);
  }

  private replyLater(room: Room, bot: UserRecord, key: string): void {
    const seat = room.seatOf(bot.id);
    if (seat === null || !room.match!.state.players[seat]!.alive) return;
    const input = this.input(room, seat);
    if (input === null || botReply(input) === null) return;
    const length = (room.deadline ?? this.clock.now() + 60_000) - room.phaseStart;
    const rng = new RandomStream(rngFromSeed(`${this.seedOf(room, seat)}:reply:${room.feed.length}`));
    const delay = Math.max(2_000, length * (0.03 + (0.07 * rng.nextU32()) / TWO_32));
    this.at(this.clock.now() + delay, room.id, key, () => this.reply(room.id, key, bot));
  }

  private at(when: number, id: string, key: string, fn: () => Promise<void>): void {
    const cancel = this.clock.at(when, () => {
      this.timers.delete(cancel);
      this.track(fn(), `demo game ${id}: a bot's talk (${key})`);
    });
    this.timers.add(cancel);
  }

  /** The room, if it is still in the phase the moment was planned for. */
  private current(id: string, key: string): Room | null {
    const room = this.games.rooms.get(id);
    if (!room?.match || room.status !== "running") return null;
    const p = room.match.state.phase;
    return `${p.kind}${p.number}` === key ? room : null;
  }

  /** The bot's seeds: its own and its team's, from the game's secret seed (F1). */
  private seedOf(room: Room, seat: number): string {
    return `demo:${room.seed!}:talk:${seat}`;
  }

  private input(room: Room, seat: number): TalkInput | null {
    const seen = seenBy(room, { kind: "player", seat });
    if (!seen?.view.me) return null;
    const mine = new Set(channelsOf(room, seat).map((c) => c.id));
    const { thread, chat } = written(room);
    const names: NameForms[] = room.match!.state.players.map((p) => DemoTalk.formsOf(p.name, room.lang));
    return {
      bot: { view: seen.view, form: null },
      thread,
      chat: chat.filter((m) => mine.has(m.channel)),
      names,
      humans: room.seatUsers.flatMap((_, s) => (this.isHuman(room, s) ? [s] : [])),
      seed: this.seedOf(room, seat),
      teamSeed: isMafia(seen.view.me.role) ? `demo:${room.seed!}:talk:mafia` : this.seedOf(room, seat),
      // The demo's language, its human's (Room.lang).
      lang: room.lang,
    };
  }

  /** A nick in every case: declined in Russian (the forum's rules), as it is in English. */
  private static formsOf(nick: string, lang: Lang): NameForms {
    if (lang === "ru") return nickForms(nick);
    return { nom: nick, gen: nick, dat: nick, acc: nick, ins: nick, prep: nick };
  }

  /** Set by the demo: whether a seat is a person's. */
  isHuman: (room: Room, seat: number) => boolean = () => false;

  /** The bot's planned posts up to `slot` that it has not written yet (after a restart, more than one). */
  private async speak(id: string, key: string, bot: UserRecord, slot: number): Promise<void> {
    for (;;) {
      const room = this.current(id, key);
      const seat = room?.seatOf(bot.id) ?? null;
      if (!room || seat === null || !room.match!.state.players[seat]!.alive) return;
      const input = this.input(room, seat);
      if (!input) return;
      const next = nextSlot(input);
      if (next > slot) return;
      const rng = new RandomStream(rngFromSeed(`demo:${room.seed!}:${seat}:${key}`));
      const ballot = next === VOTE_SLOT ? botVote(input.bot, rng) : null;
      const text = botDayPost(input, next, ballot);
      if (text === null) return;
      const names = room.match!.state.players.map((p) => p.name);
      const read = votesInPost(text, names);
      const last = read[read.length - 1];
      const agrees = ballot
        ? last !== undefined && last.color === ballot.color && last.name === names[ballot.target]
        : read.length === 0;
      // The count must say what the thread says: a post whose words would read otherwise says only the vote.
      const post = agrees ? text : ballot ? `[color=${ballot.color}]${names[ballot.target]!}[/color]` : null;
      if (post === null) return;
      if (!(await this.send(() => this.play.post(bot, id, post)))) return;
    }
  }

  private async reply(id: string, key: string, bot: UserRecord): Promise<void> {
    const room = this.current(id, key);
    const seat = room?.seatOf(bot.id) ?? null;
    if (!room || seat === null) return;
    const input = this.input(room, seat);
    const text = input && botReply(input);
    // A reply casts no vote (the words it quotes are inside the quote, which V2 does not read).
    const names = room.match!.state.players.map((p) => p.name);
    if (text && votesInPost(text, names).length === 0) await this.send(() => this.play.post(bot, id, text));
  }

  private async write(id: string, key: string, bot: UserRecord): Promise<void> {
    const room = this.current(id, key);
    const seat = room?.seatOf(bot.id) ?? null;
    if (!room || seat === null) return;
    const input = this.input(room, seat);
    const said = input && botChat(input);
    if (said) await this.send(() => this.play.message(bot, id, said.channel, said.text));
  }

  /** A refused write (the phase moved on meanwhile) is the bot's loss, as it would be a human's. */
  private async send(write: () => Promise<unknown>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return false;
    }
  }
}
