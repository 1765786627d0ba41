import type { CouncilAnswer, NightAction, RoleId, RollName, Vote } from "@forum-mafia/engine";
import type { IdempotencyMark } from "./idempotency.ts";
import {
  DEFAULT_OPTIONS,
  DEFAULT_ROLES,
  type ChannelId,
  type FlagMeasure,
  type G5Settings,
  type GameSettings,
  type GmFlag,
} from "@forum-mafia/protocol";

/**
 * A game's settings as its `created` entry holds them. Games created before issue 17 stored only the two
 * [reading] options and no role list: they read as the classic 17 with the default thresholds (S3).
 */
export type StoredSettings = Omit<GameSettings, "options" | "roles" | "g5"> & {
  readonly options: Partial<GameSettings["options"]>;
  readonly roles?: readonly RoleId[];
  /** Issue 31: games created before it have none, and read as OLD_G5. */
  readonly g5?: G5Settings;
};

/** G5 before issue 31: the platform did nothing by itself, and the GM could always modkill. */
export const OLD_G5: G5Settings = { policy: "off", strikes: true };

/**
 * G5 (issue 31): what the checker found in a post or chat message when it was accepted (forum's
 * checkMessage), kept in the log so a rebuilt room has the same flags whatever the checker says later.
 */
export type StoredFlag = Pick<GmFlag, "kind" | "spans">;

/** The settings of a stored game, with S3's defaults for what older entries left out. */
export function settingsOf(stored: StoredSettings): GameSettings {
  return {
    night: stored.night,
    day: stored.day,
    dayDeadline: stored.dayDeadline,
    timeZone: stored.timeZone,
    options: { ...DEFAULT_OPTIONS, ...stored.options },
    mode: stored.mode,
    roles: stored.roles ?? DEFAULT_ROLES,
    seats: stored.seats,
    g5: stored.g5 ?? OLD_G5,
  };
}

/**
 * One accepted input to a game, as stored: the game's whole life is its list of entries, and the room in
 * memory is rebuilt by applying them in order (room.ts). `at` is the server's clock when it was accepted;
 * deadlines are worked out from it, so a rebuilt room has the same deadlines.
 */
export type Entry = {
  readonly at: number;
  /**
   * Issue 28: on a command's first entry, the hashes of the Idempotency-Key it was sent with and of its
   * request (idempotency.ts), so a retry finds it in the log. Older entries have none.
   */
  readonly idem?: IdempotencyMark;
} & EntryBody;

export type EntryBody =
  | {
      readonly kind: "created";
      readonly gmId: string;
      readonly gmNick: string;
      readonly title: string;
      readonly settings: StoredSettings;
      /** A demo game (issue 12): its players are its human and bots; kept out of others' lobby lists. */
      readonly demo?: true;
      /** Issue 16: a demo's language, its human's (the bots talk in it); absent: Russian. */
      readonly lang?: "en";
    }
  | { readonly kind: "signup"; readonly userId: string; readonly nick: string }
  | { readonly kind: "withdraw"; readonly userId: string }
  /** S1, F1: the seed (kept secret until the end) and, for a deal by hand, every seat's role. */
  | {
      readonly kind: "started";
      readonly seed: string;
      readonly hand: readonly RoleId[] | null;
    }
  | { readonly kind: "act"; readonly seat: number; readonly action: NightAction }
  | { readonly kind: "vote"; readonly seat: number; readonly vote: Vote }
  /** A post in the game thread; `vote` is the vote it cast (V2), applied with it. */
  | {
      readonly kind: "post";
      readonly id: string;
      readonly seat: number | null;
      readonly text: string;
      readonly vote: Vote | null;
      /** G5 (issue 31): the checker's flag, if the post breaks G5. */
      readonly flag?: StoredFlag;
    }
  | {
      readonly kind: "message";
      readonly id: string;
      readonly channel: ChannelId;
      readonly seat: number | null;
      readonly text: string;
      /** G5 (issue 31): the checker's flag, if the message breaks G5. */
      readonly flag?: StoredFlag;
    }
  /**
   * G5, F2 (issue 31): a measure on a flagged post or message (its id), with its reason: by the GM, or by
   * the game's G5 policy (`auto`) in the same commit as the post.
   */
  | {
      readonly kind: "measure";
      readonly flagId: string;
      readonly measure: FlagMeasure;
      readonly reason: string;
      readonly auto?: true;
    }
  | { readonly kind: "hide"; readonly postId: string; readonly reason: string }
  /** F2: the GM restores a hidden post, with a reason. */
  | { readonly kind: "unhide"; readonly postId: string; readonly reason: string }
  /** M2c; F2: `reason` when the answer differs from the rules' answer to a listed question (older logs: none). */
  | { readonly kind: "council"; readonly answer: CouncilAnswer; readonly reason?: string }
  | {
      readonly kind: "fixRolls";
      readonly rolls: Partial<Readonly<Record<RollName, boolean>>>;
      readonly reason: string;
    }
  | { readonly kind: "reopenMafia"; readonly reason: string }
  /** G10: the night's deadline in review mode: intake closes and the GM reviews the draft. */
  | { readonly kind: "intakeClosed" }
  /** The night's results are published (the engine resolves it). */
  | { readonly kind: "publishNight" }
  | { readonly kind: "endDay" }
  | { readonly kind: "modkill"; readonly seat: number; readonly reason: string }
  | {
      readonly kind: "replace";
      readonly seat: number;
      readonly userId: string;
      readonly nick: string;
      readonly reason: string;
    }
  | { readonly kind: "extend"; readonly ms: number }
  | { readonly kind: "pause" }
  | { readonly kind: "resume" };

export type EntryKind = EntryBody["kind"];
