import { z } from "zod";
import {
  DEFAULT_ROLES,
  HEAL_FROM_ROLES,
  ROLE_IDS,
  ROLL_NAMES,
  TARGETED_ACTS,
  type RollName,
} from "./roles.ts";
import {
  DEFAULT_OPTIONS,
  MAX_SEATS,
  MAX_THRESHOLD,
  OPTION_VALUES,
  roleListFault,
  type ThresholdName,
} from "./setups.ts";

/**
 * Every request body the server accepts, validated at the edge. Objects are strict: an unknown field is
 * refused with a message naming it, so a typo never silently does nothing.
 */

export * from "./roles.ts";

const seat = z.number().int().min(0).max(63);

/**
 * U+0000, or half of a UTF-16 surrogate pair without its other half: neither is text, PostgreSQL refuses
 * both (22P05, 22P02), and SQLite would store them. Every string the server accepts is checked here, at the
 * edge, so both stores hold the same texts and a hostile one is a 400 naming its field, never a store error.
 */
const UNPAIRED_SURROGATE = /\p{Cs}/u; // with the u flag, a pair is one code point and never matches
export const isStorableText = (s: string): boolean => !s.includes("\u0000") && !UNPAIRED_SURROGATE.test(s);
const STORABLE = {
  message: "contains U+0000 or an unpaired UTF-16 surrogate, which is not text",
  abort: true,
} as const;

/**
 * Issue 28: the bidirectional controls, which reorder how the text around them is shown: the embeddings and
 * overrides (U+202A–U+202E), the isolates (U+2066–U+2069) and the marks (U+200E, U+200F, U+061C). A title
 * holding U+202E shows its letters backwards, in the lobby and in the subject of every reminder; a post
 * holding one could show a coloured nick that the vote counter (V2) reads as another.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/gu;
export const hasBidiControl = (s: string): boolean => s.search(BIDI_CONTROLS) !== -1;
const NO_BIDI = {
  message:
    "contains a bidirectional control character (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F or U+061C), " +
    "which would reorder how the text is shown",
  abort: true,
} as const;

/**
 * Any string the API accepts: `min` to `max` characters, and text (see isStorableText). zod 4 counts a
 * string's length in code points, so an emoji outside the BMP (two UTF-16 units) counts as one.
 */
export const str = (max: number, min = 0) => z.string().min(min).max(max).refine(isStorableText, STORABLE);
/**
 * Issue 30: a saved page or .txt chosen as a file is sent as its bytes, in base64, and decoded on the server
 * by its BOM, meta or a detector (the forum package's decodePage), since a browser's `file.text()` reads
 * every file as UTF-8 and a page saved from a windows-1251 or KOI8-R forum came out as mojibake. At most
 * this many bytes: their base64 (a third more) and the rest of the body stay within the tools' 5 MiB limit.
 */
export const PASTE_FILE_LIMIT = 3 * 1024 * 1024;
/**
 * A file's bytes in base64 (RFC 4648's alphabet; the padding may be left off, as Node's decoder reads it), at
 * most PASTE_FILE_LIMIT of them. A pattern rather than `z.base64()`: one character class, checked in a tenth
 * of a second on 4 MB, and one the schema fuzzer's generator (fast-check's stringMatching) can produce.
 */
export const pasteFile = z
  .string()
  .max(4 * Math.ceil(PASTE_FILE_LIMIT / 3), {
    message: `larger than ${PASTE_FILE_LIMIT} bytes: save one day's page, or paste the posts`,
    abort: true,
  })
  .regex(/^[A-Za-z0-9+/]*={0,2}$/u, { message: "not base64: the file's bytes as base64 (RFC 4648)" });
/**
 * A text someone writes: trimmed, not empty, at most `max` characters (code points, as `str`), and text.
 * Issue 28: bidi controls are dropped (a post or a reason may be pasted from elsewhere with a stray mark in
 * it; Arabic and Hebrew words still show right to left without them, by the Unicode bidi algorithm alone).
 */
export const text = (max: number) =>
  z
    .string()
    .overwrite((s) => s.replace(BIDI_CONTROLS, ""))
    .trim()
    .min(1)
    .max(max)
    .refine(isStorableText, STORABLE);
/**
 * A one-line name or title someone writes (a game's title, a setup's name, a nick in a notebook): as
 * `text`, but a bidi control is refused, a 400 naming the field (issue 28), since the line is shown alone,
 * in lists and in e-mail subjects, where nothing around it would tell the reader.
 */
export const line = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine(isStorableText, STORABLE)
    .refine((s) => !hasBidiControl(s), NO_BIDI);

export const credentialsSchema = z.strictObject({
  nick: str(64),
  password: str(256, 8),
});
export const registerSchema = z.strictObject({
  nick: str(64),
  password: str(256, 8),
  timeZone: str(64).optional(),
});
export const profileSchema = z.strictObject({
  timeZone: str(64).optional(),
  lang: z.enum(["ru", "en"]).optional(),
});

export const durationSchema = z.strictObject({
  amount: z.number().int().min(1).max(240),
  unit: z.enum(["hours", "minutes"]),
});
export type Duration = z.infer<typeof durationSchema>;

/** S3's thresholds: each a non-negative integer, left out for its default (RULES.md). */
const threshold = (name: ThresholdName) =>
  z.number().int().min(0).max(MAX_THRESHOLD).default(DEFAULT_OPTIONS[name]);

/** S3: the options of a game: the [reading] options and the thresholds, each defaulted. */
export const gameOptionsSchema = z.strictObject({
  earlyClose: z.enum(OPTION_VALUES.earlyClose).default(DEFAULT_OPTIONS.earlyClose),
  strikes: z.enum(OPTION_VALUES.strikes).default(DEFAULT_OPTIONS.strikes),
  revealAbove: threshold("revealAbove"),
  threeIntimidationsFrom: threshold("threeIntimidationsFrom"),
  serumRepeatBelow: threshold("serumRepeatBelow"),
  lapseAt: threshold("lapseAt"),
  earlyFromDay: threshold("earlyFromDay"),
});

const ROLE_LIST_FAULTS = {
  "setup/no-players": "the role list is empty",
  "setup/duplicate-role": "a role other than citizen appears more than once",
  "setup/no-town": "the role list has no town player",
  "setup/no-opponent": "the role list has neither a mafia member nor the maniac",
} as const;

/** S3: a role list, one role per seat; its faults are named with the clause, e.g. `roles: … (S3)`. */
export const roleListSchema = z
  .array(z.enum(ROLE_IDS))
  .max(
    MAX_SEATS,
    `at most ${MAX_SEATS} players: S3 sets no limit, this server's signup list and estimate do (S3)`,
  )
  .superRefine((roles, ctx) => {
    const fault = roleListFault(roles);
    if (fault !== null) ctx.addIssue({ code: "custom", message: `${ROLE_LIST_FAULTS[fault.code]} (S3)` });
  });

/** S3: a whole setup (the balance estimate's request, a saved setup). */
export const setupSchema = z.strictObject({
  roles: roleListSchema,
  options: gameOptionsSchema.default(DEFAULT_OPTIONS),
});

/** A setup saved under a name for reuse (POST /api/me/setups). */
export const saveSetupSchema = z.strictObject({ name: line(80), setup: setupSchema });

/**
 * G5 (issue 31): `policy` is what the platform does by itself when a post or chat message is flagged (off;
 * warn the author privately; hide the post and warn, with a strike on every third flag of a player), shown
 * in the setup post; `strikes` whether a G5 strike (P3) may be given at all, by the GM or by the policy.
 */
export const G5_POLICIES = ["off", "warn", "hideStrike"] as const;
export type G5Policy = (typeof G5_POLICIES)[number];
export const g5SettingsSchema = z.discriminatedUnion("policy", [
  z.strictObject({ policy: z.enum(["off", "warn"]), strikes: z.boolean() }),
  // hideStrike gives strikes (every third flag), so it needs them allowed: `g5.strikes` must be true.
  z.strictObject({ policy: z.literal("hideStrike"), strikes: z.literal(true) }),
]);
export type G5Settings = z.infer<typeof g5SettingsSchema>;
export const DEFAULT_G5: G5Settings = { policy: "warn", strikes: true };

export const createGameSchema = z.strictObject({
  title: line(120),
  night: durationSchema,
  day: durationSchema,
  /** The local time ("HH:MM", in the GM's time zone) at which each day ends; null for plain lengths. */
  dayDeadline: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected HH:MM")
    .nullable()
    .default(null),
  /** S3: the role list (its length is the player count); the classic 17 when left out. */
  roles: roleListSchema.default([...DEFAULT_ROLES]),
  options: gameOptionsSchema.default(DEFAULT_OPTIONS),
  mode: z.enum(["review", "automatic"]),
  /** G5 (issue 31): what the platform does by itself with a flagged post, and whether G5 strikes are allowed. */
  g5: g5SettingsSchema.default(DEFAULT_G5),
});
export type CreateGame = z.infer<typeof createGameSchema>;

/** A demo game: the phases' length in minutes (issue 5: 2 by default). */
export const demoSchema = z.strictObject({ minutes: z.number().int().min(1).max(60).default(2) });

export const startSchema = z.strictObject({
  /** S1: deal from the seed, or by the GM's hand (a role for every seat, in seat order). */
  deal: z.union([z.literal("random"), z.strictObject({ hand: z.array(z.enum(ROLE_IDS)).min(1).max(64) })]),
});

export const actionSchema = z.discriminatedUnion("act", [
  z.strictObject({
    act: z.literal("mafia"),
    kill: z.array(seat).max(2).default([]),
    intimidate: z.array(seat).max(3).default([]),
  }),
  z.strictObject({ act: z.literal("council"), question: text(500) }),
  z.strictObject({ act: z.enum(TARGETED_ACTS), target: seat }),
  z.strictObject({ act: z.literal("healFrom"), role: z.enum(HEAL_FROM_ROLES) }),
  z.strictObject({ act: z.literal("pass") }),
]);
export type ActionRequest = z.infer<typeof actionSchema>;

export const voteSchema = z.strictObject({
  color: z.enum(["red", "blue"]),
  target: seat,
  early: z.boolean().default(false),
});

export const postSchema = z.strictObject({ text: text(10_000) });
export const messageSchema = z.strictObject({ text: text(5_000) });

export const extendSchema = z.strictObject({
  minutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60),
});
/** M2c, F2: the council's answer; a reason is needed when it differs from the rules' answer to a listed question. */
export const councilSchema = z.strictObject({
  answer: z.enum(["yes", "no", "rejected"]),
  reason: text(500).optional(),
});
/** O8: a night's rolls given by the GM, each optional (the GM console's and the notebook's). */
export const nightRollsSchema = z.strictObject(
  Object.fromEntries(ROLL_NAMES.map((name) => [name, z.boolean().optional()])) as {
    readonly [R in RollName]: z.ZodOptional<z.ZodBoolean>;
  },
);
export const rollsSchema = z.strictObject({ rolls: nightRollsSchema, reason: text(500) });
export const reasonSchema = z.strictObject({ reason: text(500) });
export const modkillSchema = z.strictObject({ seat, reason: text(500) });
export const replaceSchema = z.strictObject({ seat, nick: str(64), reason: text(500) });
export const hidePostSchema = z.strictObject({ reason: text(500) });
/** G5, F2 (issue 31): the GM's measure on a flagged post or chat message, with a reason. */
export const FLAG_MEASURES = ["dismiss", "warn", "hide", "strike", "modkill"] as const;
export type FlagMeasure = (typeof FLAG_MEASURES)[number];
export const flagMeasureSchema = z.strictObject({ measure: z.enum(FLAG_MEASURES), reason: text(500) });
/** G5 (issue 31): a text to check before it is sent (the chat composer). */
export const textCheckSchema = z.strictObject({ text: text(10_000) });
/** F2: restore a hidden post, with the GM's reason. */
export const restorePostSchema = z.strictObject({ reason: text(500) });

export const idParams = z.strictObject({ id: str(32, 1) });
