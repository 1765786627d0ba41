import type {
  GameEvent,
  GameView,
  NightAction,
  NightForm,
  NightFormAct,
  Phase,
  SeatTonight,
  Slot,
  Winner,
} from "@forum-mafia/engine";
import type { UnreadView } from "./me.ts";
import type { CreateGame, Duration, FlagMeasure, RoleId } from "./requests.ts";

/**
 * What the server sends. Every response is built from what its viewer may see (the engine's viewFor and
 * the server's feed audiences); these types never hold the full game state.
 */
export type { GameEvent, GameView, NightAction, Phase, Winner };

export type Lang = "ru" | "en";

export interface ApiError {
  readonly error: { readonly code: string; readonly message: string; readonly clause?: string };
}

export interface UserView {
  readonly id: string;
  readonly nick: string;
  readonly timeZone: string;
  readonly lang: Lang;
}

export interface GameSettings {
  readonly night: Duration;
  readonly day: Duration;
  readonly dayDeadline: string | null;
  readonly timeZone: string;
  /** S3: the game's options: the [reading] options and the thresholds. */
  readonly options: CreateGame["options"];
  readonly mode: CreateGame["mode"];
  /** S3: the published setup's role list (which roles are in the game, never who holds them). */
  readonly roles: readonly RoleId[];
  /** The player count: the role list's length. */
  readonly seats: number;
  /** G5 (issue 31): the platform's own measures on flagged posts; older games read as off, strikes allowed. */
  readonly g5: CreateGame["g5"];
}

export type GameStatus = "signup" | "running" | "ended";

export interface GameSummary {
  readonly id: string;
  readonly title: string;
  readonly gm: string;
  readonly status: GameStatus;
  readonly phase: Phase | null;
  readonly signedUp: number;
  readonly seats: number;
  readonly winner: Winner | null;
  /** The public phase clock's deadline (epoch ms), or null (paused, in review, not running). */
  readonly deadline: number | null;
  /** Where the asking user stands in this game. */
  readonly mine: "gm" | "player" | "signedUp" | "reserve" | "none";
}

/** The phase clock everyone sees. */
export interface Clock {
  readonly phase: Phase | null;
  /** Epoch milliseconds; null while paused, while the GM reviews the night, or when the game is over. */
  readonly deadline: number | null;
  readonly paused: boolean;
  /** G10: the night's intake has closed and its results are pending. */
  readonly resultsPending: boolean;
  /** G10: the GM has reopened the mafia's action as the penalty. */
  readonly mafiaReopened: boolean;
}

export interface VoteInPost {
  readonly color: "red" | "blue";
  readonly target: number;
  readonly early: boolean;
}

export interface PostView {
  readonly id: string;
  /** The author's seat, or null for the GM. */
  readonly seat: number | null;
  readonly author: string;
  /** Safe HTML from the BBCode subset (b, i, u, s, quote, spoiler, color). Empty when hidden. */
  readonly html: string;
  readonly at: number;
  readonly hidden: { readonly reason: string } | null;
  /** V2: the vote this post cast, if any. */
  readonly vote: VoteInPost | null;
}

/** A private channel: the mafia's, the sheriff and sergeant's, the spectators' room, or one player's with the GM. */
export type ChannelId = "mafia" | "pair" | "spectators" | `gm:${number}`;

export interface MessageView {
  readonly id: string;
  readonly channel: ChannelId;
  /** The author's seat, or null for the GM. */
  readonly seat: number | null;
  readonly author: string;
  readonly html: string;
  readonly at: number;
}

export interface ChannelView {
  readonly id: ChannelId;
  readonly canPost: boolean;
  readonly messages: readonly MessageView[];
}

/**
 * O1, O1a: what a player may send tonight, worked out only from what the player knows: the engine's night
 * form (nightFormFor), with the player's own submissions so far.
 */
export interface ActionForm {
  readonly acts: readonly ActionFormAct[];
  /** M2: how many the mafia may kill and intimidate tonight. */
  readonly mafiaLimits: NightForm["mafiaLimits"];
  /** The last submission in each slot this player fills, if any. */
  readonly submitted: readonly { readonly slot: Slot; readonly action: NightAction }[];
}

/**
 * One act of the form: the engine's NightFormAct (its legal targets), sent with only the extra field its
 * act uses: healFrom's roles (T3c), or the other acts' unavailable targets, each with the engine's refusal
 * code and clause (e.g. `night/repeat-target`, T4), so a form lists them disabled with the reason in words.
 */
export type ActionFormAct = Pick<NightFormAct, "act" | "targets"> &
  Partial<Pick<NightFormAct, "roles" | "unavailable" | "questions">>;

/** The live public vote count (V4: every vote shown as 1). */
export interface VoteCount {
  /** The whole count as the forum post, e.g. "Итоги голосования …\nПротив:\nВася (3): Петя, Коля, Маша". */
  readonly text: string;
  readonly title: string;
  /** A line per target, "Вася (3): Петя, Коля, Маша", most votes first: the red votes, then the blue. */
  readonly red: readonly string[];
  readonly blue: readonly string[];
  readonly cannotVote: readonly number[];
  readonly notVoted: readonly number[];
}

export interface Signup {
  readonly nick: string;
  readonly reserve: boolean;
}

export interface GameDetail {
  readonly summary: GameSummary;
  readonly settings: GameSettings;
  readonly signups: readonly Signup[];
  readonly me: {
    readonly kind: "gm" | "player" | "signedUp" | "reserve" | "none";
    readonly seat: number | null;
  };
  readonly clock: Clock;
  /** F1: the seed's commitment, published at the start. */
  readonly commitment: string | null;
  readonly view: GameView | null;
  /** The role message (S1): the player's role and its rules. */
  readonly roleCard: { readonly role: RoleId; readonly lines: readonly string[] } | null;
  readonly form: ActionForm | null;
  readonly voteCount: VoteCount | null;
  readonly channels: readonly ChannelView[];
  /** Warnings the thread shows now: G10 while the night's results are pending, a pause. */
  readonly notices: readonly string[];
  /** Issue 28: the running game has stalled (no death and no hanging for three cycles); null otherwise. */
  readonly stall: StallView | null;
  /** Plain-language announcements (A1, A3), oldest first, in the viewer's language. */
  readonly announcements: readonly { readonly phase: Phase; readonly lines: readonly string[] }[];
  /** A2: the viewer's own private results (a check, the council's answer), oldest first, as text. */
  readonly privateResults: readonly { readonly phase: Phase; readonly lines: readonly string[] }[];
  /** The role names in the viewer's language, worded as the engine words them everywhere else. */
  readonly roleNames: Readonly<Record<RoleId, string>>;
  /** The length of the viewer's own live stream when this was built: open the stream with `?after=` it. */
  readonly streamAt: number;
  /** The GM's table: every seat's strikes (P1, P2). Null for everyone but the GM. */
  readonly gm: GmTable | null;
  /** Issue 15: what the signed-in user has not read here (the thread, each of the user's channels). */
  readonly unread: UnreadView | null;
}

/**
 * Issue 28: a stalled game: three full cycles in a row (three nights and three days, STALL_CYCLES) closed
 * with no death, modkill or hanging, counted from the public results only (the engine's `stallOf`), so
 * everyone may be told. The rules give the GM the means to move it on (modkills, F2; the strikes that end
 * in one, P1–P3); `humanGm` is false for a game the platform runs alone (a demo), where nobody can.
 */
export interface StallView {
  /** The first phase of the quiet streak. */
  readonly since: Phase;
  /** Nights and days closed in a row with no death and no hanging. */
  readonly nights: number;
  readonly days: number;
  readonly humanGm: boolean;
}

/** What only the GM sees in a running game (GameDetail.gm). */
export interface GmTable {
  /** Every seat's strikes (P1, P2, and G5's given by the GM or the policy: `conduct`). */
  readonly strikes: readonly { readonly vote: number; readonly night: number; readonly conduct: number }[];
  /** G5 (issue 31): every flagged post and chat message of the game, oldest first, with what was done. */
  readonly flags: readonly GmFlag[];
  /**
   * M2c: tonight's council question, the GM's answer so far (null: none yet) and, for a question of the
   * rules' list, the rules' answer (`suggested`; null for a question of the mafia's own); null when none
   * was asked.
   */
  readonly council: {
    readonly question: string;
    readonly answer: "yes" | "no" | "rejected" | null;
    readonly suggested: "yes" | "no" | null;
  } | null;
  /**
   * The day's tally as the engine would close it now (V4 weights, V5, P1 and P2 penalty votes), which
   * the public count never shows (V4); null outside the day.
   */
  readonly day: GmDayTally | null;
  /**
   * O1, M4, T1, P2: where each seat's night move stands tonight, seat by seat; null outside the night.
   * Worked out by the server from the rules (who has a move, the team slots), so the console never
   * repeats that logic.
   */
  readonly tonight: readonly SeatTonight[] | null;
}

/**
 * G5 (issue 31): a post or chat message the checker flagged (forum's checkMessage), as only the GM sees it.
 * `id` is the post's or message's id; `where` the thread or the channel it was written in; `text` as
 * written (BBCode), `spans` the flagged words in it (UTF-16 offsets); `earlier` how many flags the same
 * seat had before this one in this game; `measures` what was done with it, oldest first (none yet: it is
 * open), `auto` when the game's G5 policy did it.
 */
export interface GmFlag {
  readonly id: string;
  readonly where: "thread" | ChannelId;
  readonly seat: number;
  readonly author: string;
  readonly at: number;
  readonly phase: Phase | null;
  readonly kind: ProfanityKind;
  readonly text: string;
  readonly spans: readonly { readonly start: number; readonly end: number; readonly word: string }[];
  readonly earlier: number;
  readonly measures: readonly {
    readonly kind: FlagMeasure;
    readonly reason: string;
    readonly auto: boolean;
    readonly at: number;
  }[];
}

/** G5: what the checker calls a message: мат (`obscene`) or a personal insult aimed at someone. */
export type ProfanityKind = "obscene" | "insult";

/** G5 (issue 31): POST /api/text/check, and a draft post's preview: the flag and the flagged words. */
export interface TextCheck {
  readonly flag: ProfanityKind | null;
  readonly words: readonly string[];
}

/**
 * One seat's night move tonight, as the engine reads it (nightMoves): `none` (dead, or nothing owed: a
 * citizen, T7; the troll or the elf while no mafia action is in); `owes` (P2's strike if it stays so);
 * `sent` (sent their own, or the team's); `mafia` or `pair` (a teammate sent the team's shared move, which
 * covers this seat: M4, T1).
 */
export type { SeatTonight };

export interface GmDayTally {
  /** Every living seat: its score with the weights (V4) and penalties, and the penalty votes in it (P1, P2). */
  readonly scores: readonly { readonly seat: number; readonly score: number; readonly penalty: number }[];
  /** Who the tally would hang if the day closed now (V5), or excuse (V8); null for nobody. */
  readonly hanged: number | null;
  readonly excused: number | null;
}

/** The published log (after the end, R3): every GM decision with its reason and every event. */
export interface GameLog {
  readonly seed: string | null;
  readonly overrides: readonly {
    readonly phase: Phase;
    readonly kind: string;
    readonly detail: string;
    readonly reason: string;
  }[];
  readonly moderation: readonly {
    readonly at: number;
    readonly phase: Phase | null;
    readonly kind: string;
    readonly detail: string;
    readonly reason: string;
  }[];
  readonly hiddenPosts: readonly {
    readonly id: string;
    readonly author: string;
    readonly text: string;
    readonly reason: string;
  }[];
  readonly view: GameView | null;
  /** Every game event, in order: nothing is secret after the end (R3). */
  readonly events: readonly GameEvent[];
  /** The GM's explanation of each night, in the viewer's language (what the draft showed). */
  readonly explanations: readonly { readonly phase: Phase; readonly lines: readonly string[] }[];
}

/** The GM's draft of a night awaiting review. */
export interface NightDraft {
  readonly phase: Phase;
  readonly publicLines: readonly string[];
  readonly privateLines: readonly string[];
  readonly explanation: readonly string[];
  /** M2c: the council question awaiting an answer, if the mafia asked one. */
  readonly councilQuestion: string | null;
  readonly councilAnswer: "yes" | "no" | "rejected" | null;
  /**
   * M2c, F2: the rules' answer to a question of their list (engine council.ts), which the GM may accept, or
   * change with a reason; null for a question of the mafia's own, or when none was asked.
   */
  readonly councilSuggested: "yes" | "no" | null;
  readonly fixedRolls: Readonly<Record<string, boolean>>;
  /** Why the draft cannot be published yet, if it cannot (the engine's refusal: its message and code). */
  readonly blocked: string | null;
  readonly blockedCode: string | null;
}

/** One item of a viewer's live stream; its id is its position in that viewer's own stream. */
export type FeedItem =
  | { readonly type: "game"; readonly event: GameEvent }
  | { readonly type: "post"; readonly post: PostView }
  | { readonly type: "postHidden"; readonly id: string; readonly reason: string }
  | { readonly type: "message"; readonly message: MessageView }
  | { readonly type: "clock"; readonly clock: Clock }
  | { readonly type: "lobby"; readonly signups: readonly Signup[] }
  | { readonly type: "review"; readonly phase: Phase }
  /** G5 (issue 31): a flag or a measure on one, for the GM's table only (its audience is the GM). */
  | { readonly type: "flag"; readonly id: string };

/** POST /api/tools/votecount: what `npm run votecount` prints (issue 6). */
export interface VoteCountResult {
  readonly votes: readonly {
    readonly by: string;
    readonly red?: string;
    readonly blue?: string;
    readonly early: boolean;
    readonly post: number;
  }[];
  readonly notVoted: readonly string[];
  readonly ignored: readonly { readonly post: number; readonly text: string; readonly reason: string }[];
  /** The BBCode vote-count post, the way Russian GMs write it. */
  readonly count: string;
  /** A pasted thread (`paste`, issue 18): what was found in it. */
  readonly found?: PasteFound;
  /** A pasted thread: every counted vote in posting order (a player's earlier votes too), names as in the list. */
  readonly cast?: readonly PastedVote[];
}

/**
 * A vote read from a pasted thread, in posting order (`post`: its index among the posts found; `label`: that
 * post's number or anchor as the forum shows it, e.g. "#12" or "p4512", when the reader found one).
 */
export interface PastedVote {
  readonly by: string;
  readonly color: "red" | "blue";
  readonly target: string;
  readonly early: boolean;
  readonly post: number;
  readonly label: string | null;
}

/**
 * POST /api/tools/thread, and `found` beside a pasted thread's count (issue 18): what the forum reader found
 * in what the GM pasted, shown before counting.
 */
export interface PasteFound {
  /** html (with colours), bbcode (with colours), or text: no colours, so no votes can be read from it. */
  readonly kind: "html" | "bbcode" | "text";
  /** The forum engine whose markup was read; null for BBCode or plain text. */
  readonly engine:
    | "phpbb"
    | "invision"
    | "xenforo"
    | "vbulletin"
    | "smf"
    | "discourse"
    | "punbb"
    | "mybb"
    | "ucoz"
    | "generic"
    | null;
  readonly posts: number;
  /**
   * Each author in the order of their first post, with their posts, and the player of the list their nick or
   * alias names (null: nobody on the list, or no list given).
   */
  readonly authors: readonly {
    readonly name: string;
    readonly posts: number;
    readonly player: string | null;
  }[];
  /** The first and last post's label as on the forum (number or anchor), or null when it has none. */
  readonly first: string | null;
  readonly last: string | null;
  /** Each post's label as on the forum, by its index among the posts found (what `post` fields name). */
  readonly labels: readonly (string | null)[];
  /**
   * G5 (issue 31): the posts that break G5, in posting order, as forum's checkMessage reads each post's own
   * words (quotes are someone else's): `kind` мат (`obscene`) or an insult aimed at someone, `words` the
   * flagged words as written, each once; `post` and `label` as elsewhere here.
   */
  readonly flags: readonly {
    readonly post: number;
    readonly label: string | null;
    readonly author: string;
    readonly kind: ProfanityKind;
    readonly words: readonly string[];
  }[];
}

/**
 * POST /api/games/:id/posts/preview: what a draft post would count as, read by the same code as a post
 * (V2), with nothing stored (issue 12).
 */
export interface PostPreview {
  /** The vote the post would cast (V1: the last one in it); `early` only where V7 gives it effect. */
  readonly vote: {
    readonly color: "red" | "blue";
    readonly target: number;
    readonly name: string;
    readonly early: boolean;
  } | null;
  /** The vote the post holds would be refused, and so would the post: why (a refusal code and its clause). */
  readonly refused: { readonly code: string; readonly message: string; readonly clause: string } | null;
  /** Text in a vote colour that names no player (no vote, V2), with the names it may have meant. */
  readonly unmatched: readonly {
    readonly color: "red" | "blue";
    readonly text: string;
    readonly nearest: readonly string[];
  }[];
  /** Night: coloured names are not votes (V2 votes are cast by day). */
  readonly night: boolean;
  /** Whether the author's coloured names can be votes at all: false for the GM and after the end (V1). */
  readonly counts: boolean;
  /** G5 (issue 31): the draft breaks G5 (мат or an insult): the words. The post may still be sent. */
  readonly profanity: TextCheck;
}
