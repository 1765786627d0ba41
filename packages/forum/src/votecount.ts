import {
  announcementBBCode,
  countLines,
  countPost,
  DEFAULT_OPTIONS,
  earlyCounts,
  publicVoteCountLines,
  publicVoteCountSections,
  type PublicCount,
} from "@forum-mafia/engine";
import { htmlToBBCode, looksLikeHtml } from "./html.ts";
import { NameResolver, type NameMatch, type RosterPlayer } from "./names.ts";
import { nickKey } from "./nick.ts";
import type { VoteColor } from "./vote-color.ts";
import { voteMarks, type NameReader, type VoteMark } from "./vote-marks.ts";

/** A post of THREAD.json: BBCode or HTML as copied from a forum page. */
export interface ThreadPost {
  readonly author: string;
  readonly time: string;
  readonly body: string;
}

export interface VoteCountOptions {
  readonly players: readonly RosterPlayer[];
  readonly gm: string | null;
  /** The day being counted; `досрочно` has effect from day 3 on (V7), and never when it is unknown. */
  readonly day: number | null;
  readonly silenced: readonly string[];
  /** The language of the ignored votes' reasons: English (the CLI's JSON) unless asked otherwise. */
  readonly lang?: ReasonLang;
  /** S3's threshold: `досрочно` has effect from this day on (V7); the standard table's when not given. */
  readonly earlyFromDay?: number;
}

export type ReasonLang = "ru" | "en";

/**
 * Why a vote-like mark does not count, in each language. The Russian is for players and GMs reading the
 * app: it says the rule in words, without clause ids, and agrees with "игрок", never with a nickname.
 */
const REASONS = {
  en: {
    gmPost: (): string => "post by the GM",
    notPlayer: (author: string): string =>
      `post by ${author}, who is not a living player (a non-player or the dead)`,
    silenced: (author: string): string => `${author} cannot vote today (silenced, V6)`,
    ambiguous: (names: readonly string[]): string => `ambiguous name: could be ${names.join(" or ")}`,
    nonPlayer: (): string => "vote for a non-player",
    self: (): string => "vote for oneself (V3)",
    afterEarly: (author: string, post: number): string =>
      `${author} already voted early in post ${post} (V7)`,
  },
  ru: {
    gmPost: (): string => "пост ведущего: его цветные ники — не голоса",
    notPlayer: (author: string): string =>
      `автора поста ${author} нет среди живых игроков: не играет или уже вне игры`,
    silenced: (author: string): string => `игрок ${author} сегодня лишён возможности голосовать`,
    ambiguous: (names: readonly string[]): string => `непонятно, за кого голос: ${names.join(" или ")}`,
    nonPlayer: (): string => "голос за того, кого нет среди игроков",
    self: (): string => "голос за себя не считается",
    afterEarly: (author: string, post: number): string =>
      `игрок ${author} уже проголосовал досрочно в посте ${post}, и этот голос не изменить`,
  },
} as const satisfies Record<ReasonLang, unknown>;

/** A player's vote that counts: their last one (V1). `post` is the index in the thread. */
export interface CountedVote {
  readonly by: string;
  readonly color: VoteColor;
  readonly target: string;
  readonly early: boolean;
  readonly post: number;
}

/** Something that looked like a vote and does not count, with why. */
export interface IgnoredVote {
  readonly post: number;
  readonly text: string;
  readonly reason: string;
}

export interface VoteCount {
  /** Sorted by voter, in code point order. */
  readonly votes: readonly CountedVote[];
  /** Living players with the right to vote and no vote, in code point order. */
  readonly notVoted: readonly string[];
  /** The `--silenced` players (V6), in code point order. */
  readonly silenced: readonly string[];
  readonly ignored: readonly IgnoredVote[];
  /**
   * Every vote that counted when it was cast, in posting order (a player's earlier votes included, V1),
   * without what is in `ignored`: replaying it, each player's last vote, gives `votes`.
   */
  readonly cast: readonly CountedVote[];
  /** S3's threshold the count was made with (V7). */
  readonly earlyFromDay: number;
}

/** A coloured text longer than this is prose, not a name. */
const MAX_NAME_TEXT = 40;
/** A coloured text up to this long that names nobody is reported as a vote for a non-player. */
const MAX_REPORTED_TEXT = 24;
/** Reported texts are cut to this many characters. */
const MAX_TEXT = 80;

const compareCodePoints = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Counts the votes of one day in a forum thread (RULES.md V1–V3, V6, V7): the last vote in a post wins
 * and each player's last vote counts; quotes never count; an early vote (from day 3) cannot be changed.
 * Ignored, each reported: posts by the GM, by anyone not in the roster (non-players and the dead),
 * votes by silenced players, votes for oneself or a non-player, ambiguous names, votes after an early one.
 * Throws, in English, when a `--silenced` name is not a player.
 */
export function countVotes(posts: readonly ThreadPost[], options: VoteCountOptions): VoteCount {
  const resolver = new NameResolver(options.players);
  const reader = tolerantReader(resolver);
  const silenced = new Set(
    options.silenced.map((name) => {
      const player = resolver.author(name);
      if (player === null) throw new Error(`silenced player "${name}" is not in the player list`);
      return player;
    }),
  );
  const gmKey = options.gm === null ? null : nickKey(options.gm);
  const why = REASONS[options.lang ?? "en"];
  const votes = new Map<string, CountedVote>();
  const cast: CountedVote[] = [];
  const earlyFromDay = options.earlyFromDay ?? DEFAULT_OPTIONS.earlyFromDay;
  const ignored: IgnoredVote[] = [];
  const ignore = (post: number, text: string, reason: string): void => {
    ignored.push({ post, text: safeText(text), reason });
  };

  posts.forEach((post, index) => {
    const source = looksLikeHtml(post.body) ? htmlToBBCode(post.body) : post.body;
    const { marks, early } = voteMarks(source, reader);
    if (marks.length === 0) return;
    const all = marks.map((m) => m.text).join(", ");
    const author = resolver.author(post.author);
    if (gmKey !== null && nickKey(post.author) === gmKey) return ignore(index, all, why.gmPost());
    if (author === null) return ignore(index, all, why.notPlayer(post.author));
    if (silenced.has(author)) return ignore(index, all, why.silenced(author));
    const valid: (VoteMark<NameMatch> & { readonly target: string })[] = [];
    for (const mark of marks) {
      const match = mark.name;
      if (match.kind === "ambiguous") ignore(index, mark.text, why.ambiguous(match.names));
      else if (match.kind === "none") ignore(index, mark.text, why.nonPlayer());
      else if (match.name === author) ignore(index, mark.text, why.self());
      else valid.push({ ...mark, target: match.name });
    }
    const last = valid.at(-1);
    if (last === undefined) return;
    const before = votes.get(author);
    if (before?.early === true) return ignore(index, last.text, why.afterEarly(author, before.post));
    // V7: the word has effect from S3's threshold day on (day 3 in the standard table), never when the day is unknown.
    const isEarly = early && options.day !== null && earlyCounts(options.day, earlyFromDay);
    const vote = { by: author, color: last.color, target: last.target, early: isEarly, post: index };
    votes.set(author, vote);
    cast.push(vote);
  });

  const names = options.players.map((p) => p.name);
  return {
    votes: [...votes.values()].sort((a, b) => compareCodePoints(a.by, b.by)),
    notVoted: names.filter((n) => !votes.has(n) && !silenced.has(n)).sort(compareCodePoints),
    silenced: [...silenced].sort(compareCodePoints),
    ignored,
    cast,
    earlyFromDay,
  };
}

/** The count as the CLI prints it: `{"by", "red" | "blue", "early", "post"}` per vote. */
export function voteCountJson(count: VoteCount, post: string): unknown {
  return {
    votes: count.votes.map((v) => ({ by: v.by, [v.color]: v.target, early: v.early, post: v.post })),
    notVoted: count.notVoted,
    ignored: count.ignored,
    count: post,
  };
}

/** The count post is in Russian, as the GMs of Russian forums write it. */
const POST_LANG = "ru";

/**
 * The BBCode vote-count post, laid out by the engine as the server's count is (countPost: V4, V6, V7):
 * the title in bold when the day is known, "Против:" and "В защиту:" with a line per target (most votes
 * first, each target's voters in the order they voted, an early vote marked from day 3 on), then who
 * cannot vote and who has not voted. What the counter ignored is reported beside it, never in it.
 */
export function voteCountPost(count: VoteCount, day: number | null): string {
  const seen = publicCountOf(count);
  if (day === null) return countLines(publicVoteCountLines(seen, false, POST_LANG), POST_LANG).join("\n");
  const post = countPost(
    publicVoteCountSections({ day, earlyFromDay: count.earlyFromDay, ...seen }, POST_LANG),
    POST_LANG,
  );
  return announcementBBCode(post);
}

/**
 * The count as the engine's public count reads it: a seat per player (the voters, those who have not voted
 * and the silenced, who together are the roster) and the counted votes in the order they were cast, that
 * is by the post of each voter's last vote (V1).
 */
function publicCountOf(count: VoteCount): PublicCount {
  const silenced = new Set(count.silenced);
  const names = [...count.votes.map((v) => v.by), ...count.notVoted, ...count.silenced];
  const seats = new Map(names.map((name, seat) => [name, seat]));
  const seatOf = (name: string): number => {
    const seat = seats.get(name);
    if (seat === undefined) throw new Error(`votecount: "${name}" is not in the count`);
    return seat;
  };
  return {
    seats: names.map((name) => ({ name, alive: true, cannotVote: silenced.has(name) })),
    votes: [...count.votes]
      .sort((a, b) => a.post - b.post)
      .map((v) => ({ seat: seatOf(v.by), color: v.color, target: seatOf(v.target), early: v.early })),
  };
}

/**
 * The counter's reading of names (V2 marks are found by voteMarks): tolerant, and every name is a mark,
 * so that a vote for a non-player or an ambiguous name can be reported. A coloured text over
 * MAX_NAME_TEXT characters, or one over MAX_REPORTED_TEXT that names nobody, is prose, not a mark.
 * Before a word, the longest candidate that names a player wins ("Оля К" over "К"), then the longest
 * ambiguous one; when none names anyone, the last word is a vote for a non-player.
 */
function tolerantReader(resolver: NameResolver): NameReader<NameMatch> {
  return {
    coloured: ({ text }) => {
      if (text.length > MAX_NAME_TEXT) return null;
      const match = resolver.resolve(text);
      return match.kind === "none" && Array.from(text).length > MAX_REPORTED_TEXT ? null : match;
    },
    written: (candidates) => {
      let best: { readonly at: number; readonly name: NameMatch } | null = null;
      for (const [at, candidate] of candidates.entries()) {
        const match = resolver.resolve(candidate);
        if (match.kind === "player") return { at, name: match };
        if (match.kind === "ambiguous" && best === null) best = { at, name: match };
      }
      return best ?? { at: candidates.length - 1, name: { kind: "none" } };
    },
  };
}

/** Reported text: plain, short, and never HTML (angle brackets become look-alike quotes). */
function safeText(text: string): string {
  const cleaned = text
    .replace(/\p{Cc}+/gu, " ")
    .replaceAll("<", "‹")
    .replaceAll(">", "›");
  const chars = Array.from(cleaned);
  return chars.length > MAX_TEXT ? chars.slice(0, MAX_TEXT - 1).join("") + "…" : cleaned;
}
