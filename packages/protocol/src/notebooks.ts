import { z } from "zod";
import type { GmDayTally, NightDraft, ActionForm, PasteFound, Phase, Winner } from "./views.ts";
import {
  actionSchema,
  gameOptionsSchema,
  line,
  nightRollsSchema,
  pasteFile,
  roleListSchema,
  str,
  text,
  voteSchema,
  type RoleId,
} from "./requests.ts";
import { DEFAULT_OPTIONS } from "./setups.ts";
import { ROLE_IDS } from "./roles.ts";

/**
 * The off-site game notebook (issue 18): a GM whose game stays on their own forum keeps the whole game
 * here. Players are nicknames only (no accounts); the GM enters what players sent by private message and
 * pastes the day's thread. Every notebook is private to its GM: every route below answers 404 to anyone
 * else, signed in or not, with the same body as for an id that does not exist, until the GM publishes
 * (then only `GET /api/notebooks/:id/published` answers everyone).
 *
 * Routes (all JSON; the GM must be signed in; `?lang=ru|en` picks the language of texts, default ru):
 * - `POST   /api/notebooks`                      createNotebookSchema → NotebookView (201)
 * - `GET    /api/notebooks`                      → NotebookSummary[] (the signed-in GM's, newest first)
 * - `GET    /api/notebooks/:id`                  → NotebookView
 * - `DELETE /api/notebooks/:id`                  → 204
 * - `POST   /api/notebooks/:id/actions`          notebookActionSchema → NotebookView (night only)
 * - `POST   /api/notebooks/:id/votes`            notebookVoteSchema → NotebookView (day only; a correction)
 * - `POST   /api/notebooks/:id/thread`           notebookThreadSchema → NotebookView (day only)
 * - `POST   /api/notebooks/:id/inputs/remove`    removeInputSchema → NotebookView (a correction)
 * - `POST   /api/notebooks/:id/rolls`            notebookRollsSchema → NotebookView (night only)
 * - `POST   /api/notebooks/:id/council`          notebookCouncilSchema → NotebookView (night only)
 * - `POST   /api/notebooks/:id/modkill`          notebookModkillSchema → NotebookView
 * - `POST   /api/notebooks/:id/replace`          notebookReplaceSchema → NotebookView (P4)
 * - `POST   /api/notebooks/:id/aliases`          notebookAliasesSchema → NotebookView
 * - `POST   /api/notebooks/:id/gm`               notebookGmSchema → NotebookView
 * - `POST   /api/notebooks/:id/close`            {} → NotebookView (closes the phase in play)
 * - `GET    /api/notebooks/:id/replay`           → the REPLAY.md file (JSON, `Content-Disposition`)
 * - `POST   /api/notebooks/:id/publish`          {} → NotebookView (only after the end, W1)
 * - `GET    /api/notebooks/:id/published`        → PublishedNotebook, to everyone, once published
 *
 * A refused input is a 4xx `{ error: { code, message, clause? } }` naming the field or the clause (the
 * engine's refusal for an illegal action, e.g. `night/repeat-target`, T4) and changes nothing.
 */

/** How the forum writes BBCode colours: phpBB, SMF, Discourse `[color=red]`; vBulletin, XenForo, IPB `[COLOR="Red"]`. */
export const DIALECTS = ["lower", "upper"] as const;
export type Dialect = (typeof DIALECTS)[number];

/** At most this many notebooks per GM; one more is refused (409 `notebooks/full`). */
export const MAX_NOTEBOOKS = 100;

const nick = line(64);
/** A correction's reason (F2): required wherever the GM changes something already entered. */
const reason = text(500);

export const createNotebookSchema = z.strictObject({
  title: line(120),
  /** The players' nicks as on their forum, in seat order; unique as REPLAY.md compares names. */
  players: z.array(nick).min(1).max(64),
  /** S3: the role list; its length must equal the player count. */
  roles: roleListSchema,
  options: gameOptionsSchema.default(DEFAULT_OPTIONS),
  /**
   * S1, F1: `random` deals from a seed the server draws, whose SHA-256 the GM publishes on the forum first;
   * `hand` gives each player's role, in seat order, and must be the role list as a multiset (S3).
   */
  deal: z.union([
    z.strictObject({ kind: z.literal("random") }),
    z.strictObject({ kind: z.literal("hand"), roles: z.array(z.enum(ROLE_IDS)).min(1).max(64) }),
  ]),
  dialect: z.enum(DIALECTS).default("lower"),
  /**
   * Issue 30: the GM's own nick on their forum, as /tools takes it: that author's posts are the GM's, never
   * a player's votes nor an unknown player's spelling. None when not given (it can be set later).
   */
  gm: nick.optional(),
});
export type CreateNotebook = z.infer<typeof createNotebookSchema>;

/**
 * A night action the GM received by private message, entered for the seat that sent it (`seat`: the
 * sender; for the mafia's action any living mafia member, M4). Checked by the engine as the server checks a
 * player's. `reason` is required when it replaces an action already entered in the same slot (a correction, F2).
 */
export const notebookActionSchema = z.strictObject({
  seat: z.number().int().min(0).max(63),
  action: actionSchema,
  reason: reason.optional(),
});

/** A vote the parser missed or read wrongly, entered by hand: always a correction, so `reason` is required. */
export const notebookVoteSchema = z.strictObject({
  seat: z.number().int().min(0).max(63),
  vote: voteSchema,
  reason,
});

/**
 * The day's thread as the GM copied it (issue 18): the clipboard's `text/html` when there is one, else its
 * plain text (which may be BBCode). Read by the forum package's thread reader; the votes it finds replace
 * the votes read from an earlier paste of this day (the GM's hand corrections stay).
 */
export const notebookThreadSchema = z.strictObject({
  html: str(5 * 1024 * 1024).optional(),
  text: str(5 * 1024 * 1024).optional(),
  /** Issue 30: a saved page or .txt chosen as a file, its bytes in base64, decoded on the server. */
  file: pasteFile.optional(),
});

/** Remove an entered action or vote of the phase in play (the index in NotebookView's `inputs`), with why. */
export const removeInputSchema = z.strictObject({ index: z.number().int().min(0), reason });

/**
 * O8, F2: tonight's rolls given by the GM. With a seed, a roll is drawn from it and giving one is an override
 * that needs a reason (400 naming `reason`, F2); a hand deal has no seed, so the GM rolls the dice and gives
 * every roll the night needs, no reason asked.
 */
export const notebookRollsSchema = z.strictObject({
  rolls: nightRollsSchema,
  reason: reason.optional(),
});

/** M2c, F2: a reason is needed when the answer differs from the rules' answer to a listed question. */
export const notebookCouncilSchema = z.strictObject({
  answer: z.enum(["yes", "no", "rejected"]),
  reason: reason.optional(),
});

export const notebookModkillSchema = z.strictObject({ seat: z.number().int().min(0).max(63), reason });
export const notebookReplaceSchema = z.strictObject({
  seat: z.number().int().min(0).max(63),
  name: nick,
  reason,
});

/** Other spellings of a player's nick in the thread (the vote counter's roster: `Ник | alias | alias`). */
export const notebookAliasesSchema = z.strictObject({
  seat: z.number().int().min(0).max(63),
  aliases: z.array(nick).max(10),
});

/** Issue 30: the GM's nick on their forum set or changed (null: none). */
export const notebookGmSchema = z.strictObject({ gm: nick.nullable() });

export interface NotebookSummary {
  readonly id: string;
  readonly title: string;
  readonly players: number;
  readonly phase: Phase;
  readonly winner: Winner | null;
  readonly published: boolean;
  readonly updatedAt: number;
}

/** A seat as the GM sees it: the notebook is the GM's own, so roles are shown. */
export interface NotebookSeat {
  readonly seat: number;
  readonly name: string;
  readonly role: RoleId;
  readonly alive: boolean;
  readonly aliases: readonly string[];
  readonly voteStrikes: number;
  readonly nightStrikes: number;
}

/** One input of the phase in play, in the order entered (its index is what `inputs/remove` names). */
export type NotebookInput =
  | {
      readonly kind: "action";
      readonly seat: number;
      /** The action as the engine's NightAction (seats as numbers). */
      readonly action: ActionForm["submitted"][number]["action"];
      /** A short text of the action in the notebook's language, e.g. "Вася: проверка — Петя". */
      readonly text: string;
    }
  | {
      readonly kind: "vote";
      readonly seat: number;
      readonly color: "red" | "blue";
      readonly target: number;
      readonly early: boolean;
      /**
       * Read from the pasted thread (`post`: its index among the posts found; `label`: its number or anchor
       * as the forum shows it, when found), or entered by the GM.
       */
      readonly source:
        | { readonly kind: "thread"; readonly post: number; readonly label: string | null }
        | { readonly kind: "gm" };
      readonly text: string;
    };

/** A posted phase's posts, kept so the GM can copy them again. */
export interface NotebookPosts {
  readonly phase: Phase;
  /** The public post, BBCode in the notebook's dialect. */
  readonly public: string;
  /** Each private result (a check, the council's answer), with whom to send it to (role and nick). */
  readonly private: readonly { readonly to: readonly string[]; readonly text: string }[];
  /** Day: the vote-count post (BBCode in the dialect); null for a night. */
  readonly count: string | null;
  /** The GM's explanation of the outcome (explainNight for a night), never for the forum. */
  readonly explanation: readonly string[];
}

/**
 * A paste's findings list at most this many authors who name no seat (those who do are always listed) and
 * this many of the votes that do not count (the last ones): a pasted thread may hold 5 MiB, the view stays
 * small (issue 28).
 */
export const FOUND_LISTED = 200;

/** What the last thread paste found, before and beside the count (issue 18: "show what was found"). */
export interface ThreadFound {
  /** html, bbcode or text; `text` has no colours, and the page says how to copy with them. */
  readonly kind: "html" | "bbcode" | "text";
  /** The forum engine whose markup was read (phpbb, invision, xenforo, vbulletin, smf, discourse, generic). */
  readonly engine: string | null;
  readonly posts: number;
  /**
   * The authors found, in the order of their first post, with the seat their nick (or alias) names, or null
   * when it names nobody: every one who names a seat, and the first FOUND_LISTED who do not.
   */
  readonly authors: readonly {
    readonly name: string;
    readonly posts: number;
    readonly seat: number | null;
    /** Issue 30: the author is the GM (the notebook's `gm` nick): no seat, and no spelling to add to one. */
    readonly gm: boolean;
  }[];
  /** How many authors the thread has in all (more than `authors` lists when many name nobody). */
  readonly authorCount: number;
  /** The first and last post's label as on the forum (number or anchor), or null when none was found. */
  readonly first: string | null;
  readonly last: string | null;
  /**
   * What looked like a vote and does not count, with why (the vote counter's `ignored`, and the votes the
   * engine refused, in the view's language): the last FOUND_LISTED, in posting order. `post` is the post's
   * index among the posts found, `label` its number or anchor as on the forum (null when it has none).
   */
  readonly ignored: readonly {
    readonly post: number;
    readonly label: string | null;
    readonly text: string;
    readonly reason: string;
  }[];
  /** How many did not count in all (more than `ignored` lists when the thread holds many). */
  readonly ignoredCount: number;
  /**
   * G5 (issue 31): the posts that break G5 (мат, or an insult aimed at someone), as the tools' `found.flags`
   * gives them: the last FOUND_LISTED, in posting order, authors and words cut to a length the view can list.
   */
  readonly flags: PasteFound["flags"];
  /** How many posts break G5 in all (more than `flags` lists when the thread holds many). */
  readonly flagCount: number;
  /**
   * V1: the counted votes of a player that a later counted vote of theirs replaced. Only each player's last
   * vote can count, so only it is kept and listed in `inputs` (issue 28); this says how many were left out.
   */
  readonly replaced: number;
}

export interface NotebookView {
  readonly id: string;
  readonly title: string;
  readonly dialect: Dialect;
  /** Issue 30: the GM's nick on their forum, whose posts are never votes; null when none was given. */
  readonly gm: string | null;
  /** S3: the setup. */
  readonly roles: readonly RoleId[];
  readonly options: z.infer<typeof gameOptionsSchema>;
  /** F1: SHA-256 of the seed (hex), to publish on the forum before night 1; null for a hand deal. */
  readonly seedHash: string | null;
  /** The seed: the GM's own secret until published (shown to the GM, who owns the notebook). */
  readonly seed: string | null;
  readonly published: boolean;
  readonly seats: readonly NotebookSeat[];
  readonly phase: Phase;
  readonly winner: Winner | null;
  /** The inputs of the phase in play, in the order entered. */
  readonly inputs: readonly NotebookInput[];
  /**
   * Night: for each living seat with a move, the engine's form for it (acts and legal targets, the
   * unavailable ones with the reason), and whether it still owes a move (P2). Null by day and after the end.
   */
  readonly night: {
    readonly forms: readonly { readonly seat: number; readonly form: ActionForm; readonly owes: boolean }[];
    /** The draft as closing now would give it: public and private lines, explanation, council, rolls. */
    readonly draft: NightDraft;
    /** The draft's posts, as they will be when the night is closed. */
    readonly posts: NotebookPosts | null;
  } | null;
  /** Day: the tally as closing now would give it, the count post, and what the last paste found. */
  readonly day: {
    readonly tally: GmDayTally;
    readonly count: string;
    readonly found: ThreadFound | null;
  } | null;
  /** The posts of every closed phase, oldest first. */
  readonly history: readonly NotebookPosts[];
  /** F2: every correction and GM decision with its reason, in order (exported with the file). */
  readonly corrections: readonly {
    readonly phase: Phase;
    readonly kind: string;
    readonly detail: string;
    readonly reason: string;
  }[];
}

/** What `GET /api/notebooks/:id/published` gives everyone once the GM publishes. */
export interface PublishedNotebook {
  readonly title: string;
  readonly seed: string | null;
  readonly seedHash: string | null;
  /** The REPLAY.md file: replays to the same results with `npm run replay`. */
  readonly replay: unknown;
  readonly corrections: NotebookView["corrections"];
  readonly winner: Winner | null;
}
