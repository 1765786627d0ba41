/**
 * Bots that talk (issue 16): what a bot writes in the game thread and in its team's channel. Talk is a
 * pure function of the bot's own view (BotView), its seeds and what the bot may read: the public thread
 * and its own team's channel. It never sees the state, so it can say nothing its role may not know (S2).
 *
 * A day has a plan of posts at seeded moments of the phase (talkPlan); the post at VOTE_SLOT states the
 * bot's vote with the coloured nick (V2), so the post casts it and the count and the thread agree. What a
 * bot has already said is read from the thread itself (its own posts this phase), so after a restart a
 * slot is never said twice. Replies (a human quoted or named the bot) quote the post they answer.
 */
import { botSuspicion, publicSuspicion, type BotView } from "./bots.ts";
import type { Seat } from "./player.ts";
import { RandomStream } from "./rng.ts";
import { isMafia, roleSpec, type RoleId } from "./roles.ts";
import type { Phase } from "./state.ts";
import {
  factsOf,
  namedIn,
  reasonsAgainst,
  samePhase,
  type Facts,
  type Reason,
  type TalkPost,
} from "./talk-facts.ts";
import { PHRASES, STYLES, roleWord, type NameForms, type Phrases, type Style } from "./talk-phrases.ts";
import type { Lang } from "./texts.ts";
import type { GameView } from "./view.ts";
import type { Vote } from "./vote.ts";

export type { TalkPost } from "./talk-facts.ts";
export type { NameCase, NameForms } from "./talk-phrases.ts";

/** A message in a team's channel (S2): the mafia's, or the sheriff and sergeant's. */
export interface TalkMessage {
  readonly channel: "mafia" | "pair";
  readonly seat: Seat | null;
  readonly text: string;
  readonly phase: Phase;
}

/** Everything a bot talks from. */
export interface TalkInput {
  readonly bot: BotView;
  /** The game thread so far, oldest first (public). */
  readonly thread: readonly TalkPost[];
  /** The messages of the bot's own team channel so far (none for a bot in no team). */
  readonly chat: readonly TalkMessage[];
  /** Every seat's nick in every case (public). */
  readonly names: readonly NameForms[];
  /** The seats of the people in the game: the bots answer their posts, not one another's. */
  readonly humans: readonly Seat[];
  /** The bot's own secret seed for the game, and its team's (the same for every member). */
  readonly seed: string;
  readonly teamSeed: string;
  readonly lang: Lang;
}

/** The post at this slot of a day's plan casts the bot's vote. */
export const VOTE_SLOT = 1;
/** A bot answers at most this many posts a phase. */
const MAX_REPLIES = 4;

/** When in the phase (0 = its start, 1 = its deadline) the bot posts, and writes in its channel. */
export interface TalkPlan {
  readonly posts: readonly number[];
  /** Two moments for the team channel: a teammate who waits for the lead's word writes at the second. */
  readonly chat: readonly [number, number];
}

/**
 * A seeded stream for talk. Talk draws often (a plan, a voice, each post), so it is seeded by a fast string
 * hash (cyrb128) of a label that holds the bot's secret seed, not by SHA-256 (rngFromSeed) as the moves are.
 */
export function talkStream(label: string): RandomStream {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < label.length; i++) {
    const k = label.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  const s: [number, number, number, number] = [
    (h1 ^ h2 ^ h3 ^ h4) >>> 0,
    (h2 ^ h1) >>> 0,
    (h3 ^ h1) >>> 0,
    (h4 ^ h1) >>> 0,
  ];
  if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1;
  return new RandomStream(s);
}
const TWO_32 = 4294967296;
const unit = (rng: RandomStream): number => rng.nextU32() / TWO_32;
const int = (rng: RandomStream, n: number): number => Math.floor(unit(rng) * n);
const stream = (label: string): RandomStream => talkStream(label);
const phaseKey = (p: Phase): string => `${p.kind}${p.number}`;

/** The bot's plan for a phase: a day has an opening post, the vote's post and, now and then, a late one. */
export function talkPlan(seed: string, phase: Phase): TalkPlan {
  // A day: an opening at 4–26% of the phase, the vote's post at 30–62%, and 40% of the time a late word.
  const rng = stream(`${seed}:plan:${phaseKey(phase)}`);
  const first = 0.03 + 0.2 * unit(rng);
  const chat: [number, number] = [first, first + 0.25 + 0.2 * unit(rng)];
  if (phase.kind === "night") return { posts: [], chat };
  const posts = [0.04 + 0.22 * unit(rng), 0.3 + 0.32 * unit(rng)];
  if (unit(rng) < 0.4) posts.push(0.68 + 0.22 * unit(rng));
  return { posts, chat };
}

/** A bot's voice: the same all game. */
export function styleOf(seed: string): Style {
  let style = STYLE_OF.get(seed);
  if (style === undefined) {
    if (STYLE_OF.size >= 4096) STYLE_OF.clear(); // a talking game's bots ask again and again; keep it small
    STYLE_OF.set(seed, (style = STYLES[int(stream(`${seed}:style`), STYLES.length)]!));
  }
  return style;
}
const STYLE_OF = new Map<string, Style>();

function lastOf<T>(items: readonly T[], ok: (x: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (ok(items[i]!)) return items[i];
  return undefined;
}

const isReply = (text: string): boolean => text.startsWith("[quote");
const mine = (input: TalkInput): Seat => input.bot.view.me!.seat;

/** How many of its planned posts the bot has written this phase: the next slot to say. */
export function nextSlot(input: TalkInput): number {
  const me = mine(input);
  const now = input.bot.view.phase;
  return input.thread.filter((p) => p.seat === me && samePhase(p.phase, now) && !isReply(p.text)).length;
}

/** Picks lines a bot has not written yet in this game; the same line twice only when every variant is used. */
class Writer {
  readonly parts: string[] = [];
  constructor(
    readonly rng: RandomStream,
    /**
     * What the bot said before: its posts joined by line breaks, and its channel messages joined so. A
     * line is in what was said when it is in either (a line with no line break cannot span the two).
     */
    private readonly said: readonly [string, string],
    /** Words that say a line again («Повторю:»), and the moment's own mark when even those are used. */
    private readonly again_: readonly string[],
    private readonly tag: string,
  ) {}
  /** A variant not written before, from a seeded place in the list on (few look-ups in what was said). */
  fresh(lines: readonly string[]): string | null {
    const from = int(this.rng, Math.max(lines.length, 1));
    for (let i = 0; i < lines.length; i++) {
      const l = lines[(from + i) % lines.length]!;
      if (!this.parts.includes(l) && !this.wasSaid(l)) return l;
    }
    return null;
  }
  private wasSaid(l: string): boolean {
    const [posts, chat] = this.said;
    return l.includes("\n") ? `${posts}\n${chat}`.includes(l) : posts.includes(l) || chat.includes(l);
  }
  /** A fresh variant; when every variant was said (and one is needed), one said again in other words. */
  add(lines: readonly string[], always = true): void {
    const line = this.fresh(lines) ?? (always && lines.length > 0 ? this.again(lines) : null);
    if (line !== null) this.parts.push(line);
  }
  /**
   * The first fresh line of every prefix before every line (prefix by prefix), from a seeded place on, as
   * fresh() would find it in that list: each line is put together only when its turn comes.
   */
  private again(lines: readonly string[]): string {
    const n = this.again_.length * lines.length;
    const from = int(this.rng, Math.max(n, 1));
    for (let i = 0; i < n; i++) {
      const j = (from + i) % n;
      const l = `${this.again_[Math.floor(j / lines.length)]!} ${lines[j % lines.length]!}`;
      if (!this.parts.includes(l) && !this.wasSaid(l)) return l;
    }
    return `${lines[int(this.rng, lines.length)]!} ${this.tag}`;
  }
  chance(percent: number): boolean {
    return int(this.rng, 100) < percent;
  }
  pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[int(this.rng, items.length)];
  }
  text(previous: readonly string[], tag: string): string {
    const body = this.parts.join(" ");
    return previous.includes(body) ? `${body} (${tag})` : body;
  }
}

/** A seat's posts in a thread: their texts, and the texts joined by line breaks. */
interface OwnPosts {
  readonly texts: readonly string[];
  readonly joined: string;
}
const NO_POSTS: OwnPosts = { texts: [], joined: "" };

/**
 * Each seat's posts in a thread (or messages in a channel), read once and then only for the ones added
 * since (a thread and a channel only grow).
 */
const OWN = new WeakMap<
  readonly { readonly seat: Seat | null; readonly text: string }[],
  { read: number; bySeat: Map<Seat, OwnPosts> }
>();
function ownPosts(
  thread: readonly { readonly seat: Seat | null; readonly text: string }[],
  seat: Seat,
): OwnPosts {
  let kept = OWN.get(thread);
  if (!kept || kept.read > thread.length) OWN.set(thread, (kept = { read: 0, bySeat: new Map() }));
  for (; kept.read < thread.length; kept.read++) {
    const p = thread[kept.read]!;
    if (p.seat === null) continue;
    const had = kept.bySeat.get(p.seat);
    // A new list and string each time: a Talker may still hold the ones before.
    kept.bySeat.set(
      p.seat,
      had
        ? { texts: [...had.texts, p.text], joined: `${had.joined}\n${p.text}` }
        : { texts: [p.text], joined: p.text },
    );
  }
  return kept.bySeat.get(seat) ?? NO_POSTS;
}

/** One bot's talk at one moment: its view's facts, voice, phrases and what it has said before. */
class Talker {
  readonly me: Seat;
  readonly role: RoleId;
  readonly facts: Facts;
  readonly style: Style;
  readonly p: Phrases;
  readonly previous: readonly string[];
  readonly w: Writer;
  constructor(
    readonly input: TalkInput,
    label: string,
  ) {
    const me = input.bot.view.me!;
    this.me = me.seat;
    this.role = me.role;
    this.facts = factsOf(input.bot.view, me.seat, input.thread);
    this.style = styleOf(input.seed);
    this.p = PHRASES[input.lang];
    const own = ownPosts(input.thread, me.seat);
    this.previous = own.texts;
    this.w = new Writer(
      stream(`${input.seed}:${phaseKey(input.bot.view.phase)}:${label}`),
      [own.joined, ownPosts(input.chat, me.seat).joined],
      this.p.again,
      `(${phaseKey(input.bot.view.phase)}, ${label})`,
    );
  }
  n(s: Seat): NameForms {
    return this.input.names[s]!;
  }
  get view() {
    return this.input.bot.view;
  }
  alive(s: Seat): boolean {
    return this.view.seats[s]?.alive === true;
  }
  mate(s: Seat): boolean {
    const r = this.view.seats[s]?.role;
    return isMafia(this.role) && r !== null && r !== undefined && isMafia(r);
  }
  redsOnMe(): number {
    return this.facts.redsOn.get(this.me) ?? 0;
  }
  /**
   * The one the bot talks about in the thread: its strongest suspicion by the public rule (a little noise),
   * whatever its role (issue 28: the mafia's agreed push stays in their chat, the pair's checks in theirs,
   * so the thread tells no more of a bot's role than its vote).
   */
  suspect(): Seat | null {
    const rng = this.w.rng;
    let top: Seat | null = null;
    let best = -Infinity;
    publicSuspicion(this.view).forEach((score, s) => {
      const v = score + 2 * unit(rng);
      if (v > best) {
        top = s;
        best = v;
      }
    });
    return top;
  }
  reason(r: Reason, x: Seat): readonly string[] {
    const p = this.p;
    const lang = this.input.lang;
    const n = this.n(x);
    switch (r.kind) {
      case "exposed":
        return p.exposed(n);
      case "revealed":
        return p.revealed(n, roleWord(r.role, lang));
      case "redOnTown":
        return p.redOnTown(n, r.day, this.n(r.target), roleWord(r.role, lang));
      case "blueOnBad":
        return p.blueOnBad(n, r.day, this.n(r.target), roleWord(r.role, lang));
      case "blueForSuspect":
        return p.blueForSuspect(n, this.n(r.target));
      case "redOnMe":
        return p.redOnMe(n);
      case "silentDays":
        return p.silentDays(n, r.days);
      case "silentToday":
        return p.silentToday(n);
      case "bandwagon":
        return p.bandwagon(n, r.reds);
      default: {
        const never: never = r;
        throw new Error(`unknown reason ${String(never)}`);
      }
    }
  }
  /** Up to `most` reasons against `x`, or a hunch when the facts say nothing. */
  because(x: Seat, most: number, late: boolean): void {
    const reasons = reasonsAgainst(this.facts, x, late).slice(0, most);
    if (reasons.length === 0) this.w.add(this.p.hunch(this.n(x)));
    for (const r of reasons) this.w.add(this.reason(r, x));
  }
  opener(): void {
    if (this.w.chance(this.style === "terse" ? 0 : 70)) this.w.add(this.p.opener[this.style], false);
  }
  closer(): void {
    if (this.w.chance(this.style === "terse" ? 25 : 55)) this.w.add(this.p.closer[this.style], false);
  }
}

/** Every case form of every seat's nick, as lists: worked out once per list of names. */
const FORMS = new WeakMap<readonly NameForms[], readonly (readonly string[])[]>();
function allForms(names: readonly NameForms[]): readonly (readonly string[])[] {
  let forms = FORMS.get(names);
  if (!forms) {
    forms = names.map((f) => Object.values(f));
    FORMS.set(names, forms);
  }
  return forms;
}

/** The bot's mafia teammates and itself, highest rank first (M1), as its view knows them (S2). */
function roster(input: TalkInput): readonly Seat[] {
  const seats = input.bot.view.seats;
  let list = ROSTER.get(seats);
  if (!list) {
    const rank = (r: RoleId): number => roleSpec(r).succession ?? 99;
    list = seats
      .filter((s) => s.role !== null && isMafia(s.role))
      .sort((a, b) => rank(a.role!) - rank(b.role!) || a.seat - b.seat)
      .map((s) => s.seat);
    ROSTER.set(seats, list);
  }
  return list;
}
/** Worked out once per list of seats (a view's lists never change; ViewFold keeps one while nobody dies). */
const ROSTER = new WeakMap<GameView["seats"], readonly Seat[]>();

/** Who speaks for the mafia in the chat: the highest-ranked living bot among them. */
function mafiaLead(input: TalkInput): Seat | null {
  const view = input.bot.view;
  return roster(input).find((s) => view.seats[s]!.alive && !input.humans.includes(s)) ?? null;
}

const COVER_ROLES: readonly RoleId[] = [
  "citizen",
  "doctor",
  "citizen",
  "prosecutor",
  "girl",
  "shahid",
  "citizen",
];

/** The team's cover stories: the same town role for a mafioso all game, known to the whole team. */
export function mafiaCovers(input: TalkInput): ReadonlyMap<Seat, RoleId> {
  // Worked out once per roster and team seed (a roster list is kept per list of seats, roster()).
  const list = roster(input);
  const kept = COVERS.get(list);
  if (kept && kept.teamSeed === input.teamSeed) return kept.covers;
  const rng = stream(`${input.teamSeed}:covers`);
  const out = new Map<Seat, RoleId>();
  const taken = new Set<RoleId>();
  for (const s of [...list].sort((a, b) => a - b)) {
    let role = COVER_ROLES[int(rng, COVER_ROLES.length)]!;
    if (role !== "citizen" && taken.has(role)) role = "citizen";
    taken.add(role);
    out.set(s, role);
  }
  COVERS.set(list, { teamSeed: input.teamSeed, covers: out });
  return out;
}
const COVERS = new WeakMap<
  readonly Seat[],
  { readonly teamSeed: string; readonly covers: ReadonlyMap<Seat, RoleId> }
>();

/**
 * The player the mafia agreed to push today: the player named last in the team's chat of the night before
 * (or tonight's) and of today, by anyone in it, unless a teammate; null when the chat named none or that
 * player is dead (the lead then names a new one).
 */
export function mafiaPush(input: TalkInput): Seat | null {
  const view = input.bot.view;
  if (!view.me || !isMafia(view.me.role)) return null;
  // Read again only when the channel, the phase, the names or the player's seats changed.
  const kept = PUSH.get(view.seats);
  if (
    kept &&
    kept.chat === input.chat &&
    kept.length === input.chat.length &&
    kept.phase === view.phase &&
    kept.names === input.names
  )
    return kept.push;
  const push = pushOf(input);
  PUSH.set(view.seats, {
    chat: input.chat,
    length: input.chat.length,
    phase: view.phase,
    names: input.names,
    push,
  });
  return push;
}
const PUSH = new WeakMap<
  GameView["seats"],
  {
    readonly chat: readonly TalkMessage[];
    readonly length: number;
    readonly phase: Phase;
    readonly names: readonly NameForms[];
    readonly push: Seat | null;
  }
>();

function pushOf(input: TalkInput): Seat | null {
  const view = input.bot.view;
  const forms = allForms(input.names);
  let push: Seat | null = null;
  for (const m of input.chat) {
    if (m.channel !== "mafia" || m.phase.number !== view.phase.number) continue;
    if (view.phase.kind === "night" && m.phase.kind !== "night") continue;
    for (const { seat } of namedIn(m.text, forms)) {
      const role = view.seats[seat]?.role ?? null;
      if (!(role !== null && isMafia(role))) push = seat;
    }
  }
  return push !== null && view.seats[push]?.alive ? push : null;
}

/** A bot's claim today, if it makes one: a true role, the pair's check, or the mafia's cover story. */
function claimLine(t: Talker, pressed: boolean): void {
  const lang = t.input.lang;
  if (t.role === "sergeant" || (t.role === "sheriff" && !sergeantAlive(t))) {
    const found = t.view.privateResults
      .flatMap((r) => (r.check && r.check.result === "mafia" ? [r.check.target] : []))
      .filter((s) => t.alive(s));
    const last = lastOf(t.view.privateResults, (r) => r.check !== null && r.check.result !== "failed")?.check;
    if (found.length > 0) return void t.w.add(t.p.claimCheck(t.n(found[found.length - 1]!), true));
    if (pressed && last) return void t.w.add(t.p.claimCheck(t.n(last.target), false));
  }
  if (!pressed) return;
  if (isMafia(t.role)) {
    const cover = mafiaCovers(t.input).get(t.me) ?? "citizen";
    const word = roleWord(cover, lang);
    const takenByOther = [...t.facts.publicRole].some(
      ([s, r]) => r === cover && s !== t.me && cover !== "citizen",
    );
    const claimed = t.previous.some((x) => x.includes(word));
    return void t.w.add(t.p.claim(takenByOther && !claimed ? roleWord("citizen", lang) : word));
  }
  if (t.role === "maniac") return void t.w.add(t.p.claim(roleWord("citizen", lang)));
  if (t.w.chance(60)) t.w.add(t.p.claim(roleWord(t.role, lang)));
}

function sergeantAlive(t: Talker): boolean {
  return t.view.seats.some((s) => s.role === "sergeant" && s.alive && s.seat !== t.me);
}

/** The tag that casts a vote (V2): the nick exactly as the players' list has it. */
const voteTag = (v: Vote, nick: string): string => `[color=${v.color}]${nick}[/color]`;

/**
 * The bot's planned post for `slot` of today's plan (its opening, its vote, a late word), or null when it
 * says nothing (dead, not a day, the game over). `vote` is the vote the post casts at VOTE_SLOT (null:
 * the bot may not vote today).
 */
export function botDayPost(input: TalkInput, slot: number, vote: Vote | null): string | null {
  const view = input.bot.view;
  if (!view.me || view.phase.kind !== "day" || view.winner !== null || !view.seats[view.me.seat]?.alive)
    return null;
  const t = new Talker(input, `post${slot}`);
  const reds = t.redsOnMe();
  if (slot === VOTE_SLOT) {
    if (reds >= 2) t.w.add(t.p.defend(reds));
    if (vote !== null) votePart(t, vote);
    else {
      const suspect = t.suspect();
      t.w.add(suspect === null ? t.p.calm : t.p.noVote(t.n(suspect)));
    }
    return t.w.text(t.previous, `${view.phase.number}.${slot}`);
  }
  const suspect = t.suspect();
  if (slot === 0) {
    t.opener();
    claimLine(t, reds >= 3);
    if (reds >= 1) t.w.add(t.p.defend(reds));
    if (suspect === null) t.w.add(t.p.calm);
    else if (view.phase.number === 1 && reasonsAgainst(t.facts, suspect, false).length === 0) {
      t.w.add(t.p.calm);
      if (t.w.chance(50)) t.w.add(t.p.accuse(t.n(suspect)));
    } else {
      t.w.add(t.p.accuse(t.n(suspect)));
      t.because(suspect, t.style === "analytical" ? 2 : 1, false);
    }
    t.closer();
  } else {
    if (reds >= 2) {
      claimLine(t, reds >= 3);
      t.w.add(t.p.defend(reds));
    } else {
      const [leader, most] = [...t.facts.redsOn].reduce<[Seat | null, number]>(
        (acc, [s, n]) => (n > acc[1] ? [s, n] : acc),
        [null, 0],
      );
      if (leader !== null && leader !== t.me) {
        t.w.add(t.p.leader(t.n(leader), most));
        const why = reasonsAgainst(t.facts, leader, true).find((r) => r.kind !== "bandwagon");
        if (why && t.w.chance(60)) t.w.add(t.reason(why, leader));
        else t.w.add(suspect === leader ? t.p.agree : t.p.doubt(t.n(suspect ?? leader)));
      } else t.w.add(t.p.calm);
    }
    t.closer();
  }
  return t.w.text(t.previous, `${view.phase.number}.${slot}`);
}

function votePart(t: Talker, vote: Vote): void {
  const x = t.n(vote.target);
  const tag = voteTag(vote, x.nom);
  if (vote.color === "blue") {
    const role = t.facts.publicRole.get(vote.target);
    t.w.add(role !== undefined ? t.p.defendTown(x, roleWord(role, t.input.lang)) : t.p.defendMate(x));
    t.w.add(t.p.voteBlue(x, tag));
    return;
  }
  t.because(vote.target, 1, true);
  t.w.add(t.p.voteRed(x, tag));
}

/** A post's own words: quotes and tags taken out. */
function ownWords(text: string): string {
  let plain = text;
  for (let i = 0; i < 5 && /\[quote/iu.test(plain); i++)
    plain = plain.replace(/\[quote[^\]]*\][^]*?\[\/quote\]/giu, " ");
  return plain
    .replace(/\[[^\]]*\]/gu, "")
    .replace(/\s+/gu, " ")
    .trim();
}

/** The forms a person may call a bot by: its nick in any case, and the last word of a longer nick. */
function callNames(forms: NameForms): string[] {
  const all = Object.values(forms);
  const short = all.flatMap((f) => {
    const words = f.split(/\s+/u);
    return words.length > 1 && words[words.length - 1]!.length >= 3 ? [words[words.length - 1]!] : [];
  });
  return [...all, ...short];
}

/** The text of a post with quotes and tags taken out, cut short: what a reply quotes. */
export function excerpt(text: string): string {
  const plain = ownWords(text);
  if (plain.length <= 150) return plain || "…";
  const cut = plain.slice(0, 150);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 100))}…`;
}

const quoteOf = (p: TalkPost, nick: string): string => `[quote=${nick}]${excerpt(p.text)}[/quote]`;

/** Today's posts by the people that quote, name or vote on the bot and that it has not answered yet. */
function unanswered(input: TalkInput): TalkPost[] {
  const me = mine(input);
  const now = input.bot.view.phase;
  const myNick = input.names[me]!.nom.toLowerCase();
  const forms = input.names.map((f, s) => (s === me ? callNames(f) : []));
  const out: TalkPost[] = [];
  input.thread.forEach((p, i) => {
    if (p.seat === null || p.seat === me || !input.humans.includes(p.seat) || !samePhase(p.phase, now))
      return;
    const addressed =
      p.text.toLowerCase().includes(`[quote=${myNick}]`) ||
      p.vote?.target === me ||
      namedIn(ownWords(p.text), forms).length > 0;
    if (!addressed) return;
    const quote = quoteOf(p, input.names[p.seat]!.nom);
    if (input.thread.slice(i + 1).some((q) => q.seat === me && q.text.startsWith(quote))) return;
    out.push(p);
  });
  return out;
}

/** A reply to the first post by a person that addresses the bot today, quoting it; null when none waits. */
export function botReply(input: TalkInput): string | null {
  const view = input.bot.view;
  if (!view.me || view.winner !== null || !view.seats[view.me.seat]?.alive) return null;
  const me = view.me.seat;
  const replies = input.thread.filter(
    (p) => p.seat === me && samePhase(p.phase, view.phase) && isReply(p.text),
  );
  if (replies.length >= MAX_REPLIES) return null;
  const post = unanswered(input)[0];
  if (!post || post.seat === null) return null;
  const t = new Talker(input, `reply:${post.id}`);
  const plain = excerpt(post.text).toLowerCase();
  if (post.vote?.target === me && post.vote.color === "red") {
    t.w.add(t.p.replyRed);
    claimLine(t, t.redsOnMe() >= 3);
    t.w.add(t.p.defend(Math.max(1, t.redsOnMe())));
  } else if (post.vote?.target === me) t.w.add(t.p.replyBlue);
  else if (/мафи|mafia/u.test(plain)) t.w.add(t.p.replyMafia);
  else if (plain.includes("?")) t.w.add(t.p.replyQuestion);
  else t.w.add(t.p.replyOther);
  const suspect = t.suspect();
  if (suspect !== null && suspect !== post.seat) {
    t.w.add(t.p.accuse(t.n(suspect)));
    t.because(suspect, 1, true);
  } else if (suspect !== null) t.because(suspect, 1, true);
  const body = t.w.text([], "");
  return `${quoteOf(post, input.names[post.seat]!.nom)}\n${body}`;
}

/** A message in the bot's team channel this phase, if it has one to write and has not written it. */
export function botChat(
  input: TalkInput,
): { readonly channel: "mafia" | "pair"; readonly text: string } | null {
  const view = input.bot.view;
  if (!view.me || view.winner !== null || !view.seats[view.me.seat]?.alive) return null;
  const channel = isMafia(view.me.role) ? "mafia" : view.me.team === "pair" ? "pair" : null;
  if (channel === null) return null;
  const me = view.me.seat;
  if (input.chat.some((m) => m.seat === me && m.channel === channel && samePhase(m.phase, view.phase)))
    return null;
  const heard = input.chat.some(
    (m) => m.seat !== me && m.channel === channel && samePhase(m.phase, view.phase),
  );
  if (channel === "mafia" && view.phase.kind === "night" && mafiaLead(input) !== me && !heard) return null;
  if (channel === "mafia" && view.phase.kind === "day" && mafiaLead(input) !== me) return null;
  const t = new Talker(input, "chat");
  if (channel === "mafia") mafiaChat(t);
  else pairChat(t);
  return t.w.parts.length === 0 ? null : { channel, text: t.w.parts.join(" ") };
}

/** The mafia's story: tonight's target (the team's submission), tomorrow's push, and on night 1 the covers. */
function mafiaChat(t: Talker): void {
  const view = t.view;
  const lead = mafiaLead(t.input) === t.me;
  if (view.phase.kind === "day") {
    const push = mafiaPush(t.input);
    if (lead && push !== null) t.w.add(t.p.chatDayPush(t.n(push)));
    else if (lead) {
      const next = pushCandidates(t, []).find((s) => s !== t.me);
      if (next !== undefined) t.w.add(t.p.chatNewPush(t.n(next)));
    }
    return;
  }
  if (!lead) {
    // A teammate answers the lead's word (or a person's in the team), not before it.
    if (!t.input.chat.some((m) => m.seat !== t.me && m.channel === "mafia" && samePhase(m.phase, view.phase)))
      return;
    t.w.add(t.p.chatAck);
    const cover = mafiaCovers(t.input).get(t.me);
    if (view.phase.number === 1 && cover) t.w.add(t.p.chatMyClaim(roleWord(cover, t.input.lang)));
    return;
  }
  // M4: the boss's submission counts, else the highest-ranked other member's.
  const order = roster(t.input);
  const sub = view.submissions
    .filter((s) => s.slot === "mafia")
    .sort((a, b) => order.indexOf(a.seat) - order.indexOf(b.seat))[0]?.action;
  const kills = sub?.act === "mafia" ? sub.kill : [];
  if (sub?.act === "mafia")
    t.w.add(
      t.p.chatKill(
        sub.kill.map((s) => t.n(s)),
        sub.intimidate.map((s) => t.n(s)),
      ),
    );
  const ranked = pushCandidates(t, kills);
  if (sub?.act !== "mafia" && ranked[0] !== undefined) t.w.add(t.p.chatSuggest(t.n(ranked[0])));
  if (view.phase.number === 1) {
    const covers = [...mafiaCovers(t.input)].map(([s, r]) => ({
      who: t.n(s),
      role: roleWord(r, t.input.lang),
    }));
    t.w.add(t.p.chatClaims(covers));
  }
  // Named last, so the push is the last player the lead's message names (mafiaPush).
  const push = ranked.find((s) => sub?.act === "mafia" || s !== ranked[0]) ?? ranked[0];
  if (push !== undefined) t.w.add(t.p.chatPush(t.n(push)));
}

/** Whom the mafia may push, best first: the likeliest town roles, with the team's own noise. */
function pushCandidates(t: Talker, kills: readonly Seat[]): Seat[] {
  const view = t.view;
  const scores = botSuspicion(view);
  const rng = stream(`${t.input.teamSeed}:push:${phaseKey(view.phase)}`);
  return view.seats
    .filter((s) => s.alive && s.seat !== t.me && !t.mate(s.seat) && !kills.includes(s.seat))
    .map((s) => ({ s: s.seat, v: (scores.get(s.seat) ?? 0) + 3 * unit(rng) }))
    .sort((a, b) => b.v - a.v)
    .map((x) => x.s);
}

/** The pair's channel: tonight's check, and by day the result the pair got. */
function pairChat(t: Talker): void {
  const view = t.view;
  if (view.phase.kind === "night") {
    const sub = view.submissions.find((s) => s.slot === "pair" && s.seat === t.me)?.action;
    if (sub?.act === "check") t.w.add(t.p.pairCheck(t.n(sub.target)));
    return;
  }
  const last = lastOf(
    view.privateResults,
    (r) => r.phase.kind === "night" && r.phase.number === view.phase.number,
  );
  const check = last?.check;
  if (check && check.result !== "failed" && (t.role === "sergeant" || !sergeantAlive(t)))
    t.w.add(t.p.pairResult(t.n(check.target), check.result === "mafia"));
}
