import { z } from "zod";
import type { ChannelId, GameStatus, Phase, StallView, Winner } from "./views.ts";
import type { Faction, RoleId } from "./roles.ts";
import { str } from "./requests.ts";

/**
 * Issue 15: what brings a player back over a week-long game. «Мои игры» (GET /api/me/games), the
 * settings (GET and PUT /api/me/settings), unread marks (PUT /api/games/:id/read) and profiles
 * (GET /api/users/:nick). Nothing here carries a role before the game's end, or anything the user's own
 * view does not hold.
 */

/** "2h", "15m", "90m": how long before a deadline a reminder comes; 1 minute to 48 hours (48h, 2880m). */
export const reminderOffsetSchema = z
  .string()
  .regex(
    /^(?:(?:[1-9]|[1-3]\d|4[0-8])h|(?:[1-9]\d{0,2}|1\d{3}|2[0-7]\d{2}|28[0-7]\d|2880)m)$/,
    'expected minutes or hours up to 48 hours, e.g. "2h" or "15m"',
  );

/** A reminder offset in milliseconds ("2h" → 7,200,000). */
export function offsetMs(offset: string): number {
  const n = Number(offset.slice(0, -1));
  return n * (offset.endsWith("h") ? 3_600_000 : 60_000);
}

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected HH:MM");

/** Quiet hours in the user's time zone, e.g. 23:00 to 08:00 (crossing midnight is allowed). */
export const quietHoursSchema = z.strictObject({ from: hhmm, to: hhmm });

/**
 * PUT /api/me/settings replaces the settings. `email` absent or null: no address (nothing is e-mailed). A
 * new address is unconfirmed until its link is opened; the same address keeps its state.
 */
export const settingsSchema = z.strictObject({
  email: z.union([z.email().max(254).pipe(str(254)), z.null()]).optional(),
  reminders: z.strictObject({
    /** The default is ["2h", "15m"]; [] turns reminders off. */
    before: z.array(reminderOffsetSchema).max(4),
    quietHours: quietHoursSchema.nullable().optional(),
  }),
  browserNotifications: z.boolean().optional(),
  /** E-mail reminders on or off (an unsubscribe link turns them off). Default on. */
  emailReminders: z.boolean().optional(),
});
export type SettingsBody = z.infer<typeof settingsSchema>;

export const DEFAULT_REMINDERS: readonly string[] = ["2h", "15m"];

/** GET and PUT /api/me/settings answer this. */
export interface MySettings {
  readonly email: string | null;
  readonly emailConfirmed: boolean;
  readonly emailReminders: boolean;
  readonly reminders: {
    readonly before: readonly string[];
    readonly quietHours: { readonly from: string; readonly to: string } | null;
  };
  readonly browserNotifications: boolean;
  /** Whether this server sends e-mail at all (SMTP_URL is set); without it the settings say e-mail is off. */
  readonly emailAvailable: boolean;
  /**
   * Issue 28: for an unconfirmed address, when a new confirmation link may be sent at the earliest (ms since
   * the epoch): at most one an hour to one address and five a day to one user. Null when one may be sent now,
   * or none is needed. Saving meanwhile keeps the address; the link is just not sent again.
   */
  readonly confirmAgainAt: number | null;
}

/** PUT /api/games/:id/read: everything in `where` up to `upTo` items (posts or messages) has been read. */
export const readSchema = z.strictObject({
  where: z.union([
    z.literal("thread"),
    z.enum(["mafia", "pair", "spectators"]),
    z.string().regex(/^gm:\d{1,2}$/),
  ]),
  upTo: z.number().int().min(0).max(1_000_000),
});
export type ReadBody = z.infer<typeof readSchema>;

/**
 * What the user has not read in one game. A user's own posts and messages never count. `readUpTo` is the
 * thread's read mark (the number of posts read), so the thread can draw its "new since your last visit"
 * line before the first unread post.
 */
export interface UnreadView {
  readonly thread: { readonly unread: number; readonly readUpTo: number };
  /** Only the channels this user may read. */
  readonly channels: readonly {
    readonly id: ChannelId;
    readonly unread: number;
    readonly readUpTo: number;
  }[];
}

/**
 * What a player still owes in a running game: a vote today (V1, V6), a night move (O1, P2), or an answer
 * to the GM (the GM wrote last in the player's channel with the GM). The GM owes a review (G10) or a
 * council answer (M2c). `dayClosing` is never owed: it is the GM's reminder that the day is about to close
 * (a DueReminder only, never in MyGame.owes).
 */
export type Owed = "vote" | "action" | "gmAnswer" | "review" | "council" | "dayClosing";

export interface MyGame {
  readonly id: string;
  readonly title: string;
  readonly gm: string;
  readonly status: GameStatus;
  readonly phase: Phase | null;
  /** The public phase clock's deadline (epoch ms), or null (paused, in review, not running). */
  readonly deadline: number | null;
  readonly paused: boolean;
  readonly mine: "gm" | "player" | "signedUp" | "reserve" | "replaced";
  /** The user's seat while playing; null otherwise. */
  readonly seat: number | null;
  /** signedUp and reserve: the place in the list, 1 first (the reserve counts after the seats). */
  readonly place: number | null;
  readonly signedUp: number;
  readonly seats: number;
  readonly owes: readonly Owed[];
  /**
   * Issue 32: when this user's next reminder in this game falls (the server's clock, the user's reminder
   * times), while something is owed; null when nothing is, or no reminder is left before the deadline. The
   * app asks again then, so a reminder shows when the e-mail goes, not at the next minute's poll.
   */
  readonly nextReminder: number | null;
  /** Issue 28: the running game has stalled (no death and no hanging for three cycles); null otherwise. */
  readonly stall: StallView | null;
  /** Unread posts in the thread and messages in the user's channels; null when the game has none yet. */
  readonly unread: { readonly thread: number; readonly channels: number };
  /** After the end (R3): the user's role and whether the user's side won. Null before. */
  readonly role: RoleId | null;
  readonly winner: Winner | null;
  readonly result: "won" | "lost" | "draw" | null;
}

/** A reminder due now, shown as a banner (and a browser notification where allowed). Never a role. */
export interface DueReminder {
  /** Stable per game, phase, what is owed and offset: a client shows each once. */
  readonly key: string;
  readonly gameId: string;
  readonly title: string;
  readonly owes: Owed;
  readonly phase: Phase;
  readonly deadline: number | null;
}

/** GET /api/me/games: «Мои игры». */
export interface MyGames {
  /** Running games the user plays in. */
  readonly active: readonly MyGame[];
  /** Games in signup the user signed up for, and running games where the user is in the reserve. */
  readonly signups: readonly MyGame[];
  /** Games the user is GM of that are not over. */
  readonly hosting: readonly MyGame[];
  /** Ended games the user played (and those the user was GM of), newest first. */
  readonly finished: readonly MyGame[];
  readonly reminders: readonly DueReminder[];
  /**
   * Issue 32: the server's clock when this was built (epoch ms): the deadlines are on it, so a client
   * drops a reminder whose deadline has passed, and asks again then, even if its own clock is off.
   */
  readonly now: number;
  /**
   * Now is within the user's quiet hours (in the user's time zone): the banners show, but no browser
   * notification is raised until they end (e-mail keeps them too).
   */
  readonly quiet: boolean;
  /** The role names in the asker's language (`?lang=`), worded as GameDetail.roleNames. */
  readonly roleNames: Readonly<Record<RoleId, string>>;
}

/** GET /api/users/:nick: a player's record, from ended games only (R3). */
export interface ProfileView {
  readonly nick: string;
  readonly since: number;
  readonly games: readonly {
    readonly id: string;
    readonly title: string;
    readonly role: RoleId;
    readonly faction: Faction;
    readonly winner: Winner | null;
    readonly result: "won" | "lost" | "draw";
    readonly survived: boolean;
    readonly modkilled: boolean;
    readonly strikes: number;
    /** True when the user left the seat to a substitute (P4) before the end. */
    readonly replaced: boolean;
  }[];
  readonly byFaction: readonly {
    readonly faction: Faction;
    readonly played: number;
    readonly won: number;
  }[];
  readonly strikes: number;
  readonly modkills: number;
  /** Games the user was GM of that have ended. */
  readonly hosted: number;
  /** The role names in the asker's language (`?lang=`), worded as GameDetail.roleNames. */
  readonly roleNames: Readonly<Record<RoleId, string>>;
}
