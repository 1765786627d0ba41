/**
 * A whole game of talking bots (issue 16), for the simulator, the bench and the secrets property test:
 * the bots act and vote as in playBotGame, and they talk as in a demo: each day's posts come in the order
 * of their seeded moments (talkPlan), the vote is cast by the post at VOTE_SLOT, and the teams write in
 * their channels. Everything a bot says is a pure function of its view, its seeds, the thread and its
 * team's channel; the transcript lists every step, so a test can replay it against another deal.
 */
import {
  botChat,
  botDayPost,
  talkPlan,
  talkStream,
  VOTE_SLOT,
  type TalkInput,
  type TalkMessage,
  type TalkPlan,
} from "./bot-talk.ts";
import { BotViews, botNightAction, botVote, type BotView } from "./bots.ts";
import { act, endDay, endNight, startMatch, vote, type Match } from "./match.ts";
import type { NightAction } from "./night-action.ts";
import type { GameOptions } from "./options.ts";
import type { Seat } from "./player.ts";
import { RANDOM_PLAYER_NAMES } from "./random-play.ts";
import { isRejection, type Rejection } from "./rejection.ts";
import type { RandomStream } from "./rng.ts";
import { isMafia, type RoleId } from "./roles.ts";
import type { Phase } from "./state.ts";
import type { TalkPost } from "./talk-facts.ts";
import type { NameForms } from "./talk-phrases.ts";
import type { Lang } from "./texts.ts";
import type { Vote } from "./vote.ts";

/** One step of a talking game, in the order it happened. */
export type TalkStep =
  | { readonly kind: "act"; readonly seat: Seat; readonly action: NightAction }
  | { readonly kind: "endNight" }
  | { readonly kind: "endDay" }
  | {
      readonly kind: "post";
      readonly seat: Seat;
      readonly slot: number;
      readonly vote: Vote | null;
      readonly text: string;
    }
  | { readonly kind: "chat"; readonly seat: Seat; readonly channel: "mafia" | "pair"; readonly text: string };

export interface TalkingGame {
  readonly match: Match;
  readonly thread: readonly TalkPost[];
  readonly chat: readonly TalkMessage[];
  readonly steps: readonly TalkStep[];
}

export interface TalkingGameOptions {
  readonly maxPhases?: number;
  readonly gameOptions?: Partial<GameOptions>;
  /** A deal by hand (S1), seat by seat; else the seed deals. */
  readonly roles?: readonly RoleId[];
  readonly lang?: Lang;
  /** Each nick's case forms (the forum package's nickForms); by default every case is the nick. */
  readonly names?: (nick: string) => NameForms;
  /** Stop after this many phases (for tests that look at the start of a game). */
  readonly phases?: number;
  /** Called with the view a bot decides or talks from, before it does (tests check it is the bot's own). */
  readonly observe?: (m: Match, seat: Seat, bot: BotView) => void;
}

const plainForms = (nick: string): NameForms => ({
  nom: nick,
  gen: nick,
  dat: nick,
  acc: nick,
  ins: nick,
  prep: nick,
});

/** The seeds a seat talks and decides from in a game dealt from `seed`. */
export const talkSeeds = (seed: string, seat: Seat, role: RoleId) => ({
  seed: `talk:${seed}:${seat}`,
  teamSeed: isMafia(role) ? `talk:${seed}:mafia` : `talk:${seed}:seat${seat}`,
  decide: (phase: Phase): RandomStream => talkStream(`bot:${seed}:${seat}:${phase.kind}${phase.number}`),
});

/** What a seat reads of the game's channels: its own team's (S2), none for a seat in no team. */
export function channelOf(role: RoleId): "mafia" | "pair" | null {
  return isMafia(role) ? "mafia" : role === "sheriff" || role === "sergeant" ? "pair" : null;
}

function accepted(next: Match | Rejection, what: string): Match {
  if (isRejection(next))
    throw new Error(`talking bots: ${what} was refused: ${next.message} (${next.clause})`);
  return next;
}

/** A seat in no team reads no channel: one empty list for all (talk keeps what it read per list). */
const NO_MESSAGES: readonly TalkMessage[] = Object.freeze([]);

/** The talk context of a seat in a game: its BotView, the thread, its channel and the names. */
export function talkInput(
  game: {
    readonly thread: readonly TalkPost[];
    readonly chat: readonly TalkMessage[];
    /** The same messages by channel, when kept so (else `chat` is read through for the bot's channel). */
    readonly channels?: { readonly [C in "mafia" | "pair"]: readonly TalkMessage[] };
  },
  bot: BotView,
  seeds: { readonly seed: string; readonly teamSeed: string },
  names: readonly NameForms[],
  lang: Lang,
): TalkInput {
  const channel = bot.view.me ? channelOf(bot.view.me.role) : null;
  return {
    bot,
    thread: game.thread,
    chat:
      channel === null
        ? NO_MESSAGES
        : (game.channels?.[channel] ?? game.chat.filter((m) => m.channel === channel)),
    names,
    humans: [],
    seed: seeds.seed,
    teamSeed: seeds.teamSeed,
    lang,
  };
}

/** A game of 17 talking bots dealt from `seed`, to its end (W1), or for `options.phases` phases. */
export function playTalkingGame(seed: string, options: TalkingGameOptions = {}): TalkingGame {
  const roles = options.roles;
  let m = accepted(
    startMatch({
      players: RANDOM_PLAYER_NAMES.map((name, i) => (roles ? { name, role: roles[i]! } : { name })),
      seed,
      options: options.gameOptions ?? {},
    }),
    "the deal",
  );
  const lang = options.lang ?? "ru";
  const names = m.state.players.map((p) => (options.names ?? plainForms)(p.name));
  const seeds = m.state.players.map((p, s) => talkSeeds(seed, s, p.role));
  const thread: TalkPost[] = [];
  const chat: TalkMessage[] = [];
  const steps: TalkStep[] = [];
  const channels = { mafia: [] as TalkMessage[], pair: [] as TalkMessage[] };
  const game = { thread, chat, channels };
  const input = (bot: BotView, s: Seat): TalkInput => talkInput(game, bot, seeds[s]!, names, lang);
  const maxPhases = options.maxPhases ?? 200;
  // Each seat's view folds only the events it has not read (BotViews): a night's submissions reach only
  // their slot's audience (S2), and a day's votes every view.
  const views = new BotViews(m);
  const say = (s: Seat, bot: BotView): void => {
    const said = botChat(input(bot, s));
    if (!said) return;
    const message = { channel: said.channel, seat: s, text: said.text, phase: m.state.phase };
    chat.push(message);
    channels[said.channel].push(message);
    steps.push({ kind: "chat", seat: s, channel: said.channel, text: said.text });
  };
  for (let phases = 0; m.state.winner === null && phases !== options.phases; phases++) {
    if (phases >= maxPhases)
      throw new Error(`talking bots: the game "${seed}" did not end in ${maxPhases} phases`);
    const phase = m.state.phase;
    const seats = m.state.players.map((_, s) => s).filter((s) => m.state.players[s]!.alive);
    // Each seat's plan for the phase, drawn once (the day's posts below read it too).
    const plans: TalkPlan[] = [];
    for (const s of seats) plans[s] = talkPlan(seeds[s]!.seed, phase);
    const order = seats
      .map((s) => ({ s, at: plans[s]!.chat[0] }))
      .sort((a, b) => a.at - b.at)
      .map((x) => x.s);
    const team = order.filter((s) => channelOf(m.state.players[s]!.role) !== null);
    if (phase.kind === "night") {
      for (const s of order) {
        const v = views.of(m, s);
        options.observe?.(m, s, v);
        if (v.form === null) continue;
        const action = botNightAction(v, seeds[s]!.decide(phase));
        if (action === null) continue;
        m = accepted(act(m, s, action), "a night action");
        steps.push({ kind: "act", seat: s, action });
      }
      chatRound(team, (s) => say(s, views.of(m, s)));
      m = accepted(endNight(m, { rolls: {}, council: "no" }), "closing the night");
      steps.push({ kind: "endNight" });
      continue;
    }
    chatRound(team, (s) => say(s, views.of(m, s)));
    m = playDay(m, seats, { views, seeds, plans, input, thread, steps, observe: options.observe });
    m = accepted(endDay(m), "closing the day");
    steps.push({ kind: "endDay" });
  }
  return { match: m, thread, chat, steps };
}

/** The team members' two chances to write (talkPlan.chat): the first in order, then again for those who waited. */
function chatRound(team: readonly Seat[], say: (s: Seat) => void): void {
  for (const s of team) say(s);
  for (const s of team) say(s);
}

/** A day's planned posts in the order of their moments; the vote's post casts the vote (V2). */
function playDay(
  start: Match,
  seats: readonly Seat[],
  g: {
    readonly views: BotViews;
    readonly seeds: readonly ReturnType<typeof talkSeeds>[];
    /** Each playing seat's plan for the day (talkPlan). */
    readonly plans: readonly TalkPlan[];
    readonly input: (bot: BotView, s: Seat) => TalkInput;
    readonly thread: TalkPost[];
    readonly steps: TalkStep[];
    readonly observe: TalkingGameOptions["observe"];
  },
): Match {
  let m = start;
  const phase = m.state.phase;
  const slots = seats
    .flatMap((s) => g.plans[s]!.posts.map((at, slot) => ({ s, slot, at })))
    .sort((a, b) => a.at - b.at || a.s - b.s);
  for (const { s, slot } of slots) {
    if (m.day.closedEarly) break;
    const bot = g.views.of(m, s);
    g.observe?.(m, s, bot);
    const input = g.input(bot, s);
    const ballot = slot === VOTE_SLOT ? botVote(bot, g.seeds[s]!.decide(phase)) : null;
    const text = botDayPost(input, slot, ballot);
    if (text === null) continue;
    g.thread.push({
      id: `p${g.thread.length}`,
      seat: s,
      text,
      phase,
      vote: ballot && { color: ballot.color, target: ballot.target },
    });
    g.steps.push({ kind: "post", seat: s, slot, vote: ballot, text });
    if (ballot) m = accepted(vote(m, s, ballot), "a vote");
  }
  return m;
}
