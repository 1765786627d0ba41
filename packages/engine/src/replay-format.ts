import { z } from "zod";
import { HEAL_FROM_ROLES, TARGETED_ACTS } from "./night-action.ts";
import { OPTION_VALUES, type GameOptions } from "./options.ts";
import { ROLL_NAMES } from "@forum-mafia/rules";

/** The file format of REPLAY.md, as zod schemas: unknown keys are errors. */
export const REPLAY_FORMAT = "forum-mafia/replay@1";

const name = z.string().min(1);
const by = { by: name };

const mafiaQuestionSchema = z.strictObject({ ...by, act: z.literal("mafia"), question: z.string() });
const mafiaHitSchema = z.strictObject({
  ...by,
  act: z.literal("mafia"),
  kill: z.array(name).optional(),
  intimidate: z.array(name).optional(),
});
const targetedActionSchema = z.strictObject({ ...by, act: z.enum(TARGETED_ACTS), target: name });
const healFromSchema = z.strictObject({
  ...by,
  act: z.literal("healFrom"),
  role: z.enum(HEAL_FROM_ROLES),
});
const passSchema = z.strictObject({ ...by, act: z.literal("pass") });
const actionHead = z.looseObject({ by: name, act: z.string() });

/** The schema for one night action, chosen by its `act` so that errors speak of that act. */
export function actionSchemaFor(raw: unknown): z.ZodType<ReplayAction> {
  const head = actionHead.safeParse(raw);
  if (!head.success) return actionHead as unknown as z.ZodType<ReplayAction>;
  const act = head.data.act;
  if (act === "mafia") return isQuestion(raw) ? mafiaQuestionSchema : mafiaHitSchema;
  if (act === "healFrom") return healFromSchema;
  if (act === "pass") return passSchema;
  if ((TARGETED_ACTS as readonly string[]).includes(act)) return targetedActionSchema;
  return z.never({ error: `unknown act "${act}"` }) as unknown as z.ZodType<ReplayAction>;
}

const isQuestion = (raw: unknown): boolean => typeof raw === "object" && raw !== null && "question" in raw;

export const replayVoteSchema = z.union([
  z.strictObject({ ...by, red: name, early: z.boolean().optional() }),
  z.strictObject({ ...by, blue: name, early: z.boolean().optional() }),
]);

/** G5 (issue 31, docs/readings.md): a modkill or strike may name the clause it punishes under. */
const clause = z.literal("G5").optional();
const modkillSchema = z.strictObject({ modkill: name, reason: z.string().optional(), clause });
const replaceSchema = z.strictObject({ replace: name, with: name });
/** G5, P3 (issue 31): a strike for swearing or an insult; a second strike is a modkill at the phase's end. */
const strikeSchema = z.strictObject({ strike: name, reason: z.string().optional(), clause });

/** The schema for one GM entry, chosen by its key so that errors speak of that entry (checked once). */
export function gmSchemaFor(raw: unknown): z.ZodType<GmEntry> {
  if (typeof raw === "object" && raw !== null && "modkill" in raw) return modkillSchema;
  if (typeof raw === "object" && raw !== null && "replace" in raw) return replaceSchema;
  if (typeof raw === "object" && raw !== null && "strike" in raw) return strikeSchema;
  return z.never({
    error: 'a GM entry is {"modkill": …}, {"strike": …} or {"replace": …, "with": …}',
  }) as unknown as z.ZodType<GmEntry>;
}

/** One GM entry or a list of them; each is checked by gmSchemaFor. */
const gm = z.unknown().optional();

export const replayNightSchema = z.strictObject({
  night: z.number().int().positive(),
  actions: z.array(z.unknown()).optional(),
  rolls: z.strictObject(Object.fromEntries(ROLL_NAMES.map((r) => [r, z.boolean().optional()]))).optional(),
  council: z.enum(["yes", "no", "rejected"]).optional(),
  gm,
});

export const replayDaySchema = z.strictObject({
  day: z.number().int().positive(),
  votes: z.array(z.unknown()).optional(),
  gm,
});

const threshold = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional();

export const replayFileSchema = z.strictObject({
  format: z.string(),
  seed: z.string().optional(),
  options: z
    .strictObject({
      earlyClose: z.enum(OPTION_VALUES.earlyClose).optional(),
      strikes: z.enum(OPTION_VALUES.strikes).optional(),
      // S3's thresholds: each a non-negative integer; a key left out takes its default.
      revealAbove: threshold,
      threeIntimidationsFrom: threshold,
      serumRepeatBelow: threshold,
      lapseAt: threshold,
      earlyFromDay: threshold,
    })
    .optional(),
  players: z.array(z.strictObject({ name: z.string(), role: z.string() })),
  phases: z.array(z.unknown()),
});

export type ReplayAction =
  | z.infer<typeof mafiaQuestionSchema>
  | z.infer<typeof mafiaHitSchema>
  | z.infer<typeof targetedActionSchema>
  | z.infer<typeof healFromSchema>
  | z.infer<typeof passSchema>;

export type ReplayVote =
  { by: string; red: string; early?: boolean } | { by: string; blue: string; early?: boolean };

export type GmEntry =
  z.infer<typeof modkillSchema> | z.infer<typeof replaceSchema> | z.infer<typeof strikeSchema>;

export interface ReplayNight {
  night: number;
  actions?: ReplayAction[];
  rolls?: Partial<Record<(typeof ROLL_NAMES)[number], boolean>>;
  council?: "yes" | "no" | "rejected";
  gm?: GmEntry | GmEntry[];
}

export interface ReplayDay {
  day: number;
  votes?: ReplayVote[];
  gm?: GmEntry | GmEntry[];
}

export type ReplayPhase = ReplayNight | ReplayDay;

export interface ReplayFile {
  format: string;
  seed?: string;
  options?: Partial<GameOptions>;
  players: { name: string; role: string }[];
  phases: ReplayPhase[];
}

/** The first problem zod found, as "path: message". */
export function describeIssue(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0]!;
  const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  const where = `${prefix}${path}`.replace(/^\./, "");
  return `${where === "" ? "" : `${where}: `}${issue.message}`;
}
