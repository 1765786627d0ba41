import type { z } from "zod";
import type { DayOutcome } from "./day.ts";
import type { NightAction } from "./night-action.ts";
import type { NightOutcome, RollName } from "./night.ts";
import { compareCodePoints, type Seat } from "./player.ts";
import { isRejection, type Rejection } from "./rejection.ts";
import {
  REPLAY_FORMAT,
  describeIssue,
  gmSchemaFor,
  actionSchemaFor,
  type ReplayAction,
  replayDaySchema,
  replayFileSchema,
  replayNightSchema,
  replayVoteSchema,
  type GmEntry,
} from "./replay-format.ts";
import { isRoleId, type RoleId, type RoleListFault } from "./roles.ts";
import type { Winner } from "./state.ts";
import {
  act,
  endDay,
  endNight,
  modkill,
  strike,
  replace,
  seatByName,
  startMatch,
  vote,
  type Match,
} from "./match.ts";

/** A replay that cannot go on: the one line REPLAY.md asks for on standard error. */
export class ReplayError extends Error {}

export interface NightResultJson {
  phase: "night";
  number: number;
  died: string[];
  revealed: Record<string, RoleId>;
  exposed: Record<string, "boss" | "doctor">;
  maniacVictims: string[];
  silenced: string[];
  checks: { target: string; result: "mafia" | "not mafia" | "failed" }[];
  council: "yes" | "no" | "rejected" | null;
  modkilled: string[];
  winner: Winner | null;
}

export interface DayResultJson {
  phase: "day";
  number: number;
  score: Record<string, number>;
  hanged: string | null;
  excused: string | null;
  closedEarly: boolean;
  penalized: string[];
  uncounted: string[];
  modkilled: string[];
  died: string[];
  revealed: Record<string, RoleId>;
  winner: Winner | null;
}

export interface ReplayResult {
  phases: (NightResultJson | DayResultJson)[];
  winner: Winner | null;
}

const sortedNames = (seats: Iterable<Seat>, names: readonly string[]): string[] =>
  [...seats].map((s) => names[s]!).sort(compareCodePoints);

function sortedMap<V>(entries: Iterable<[Seat, V]>, names: readonly string[]): Record<string, V> {
  const list = [...entries]
    .map(([s, v]) => [names[s]!, v] as const)
    .sort((a, b) => compareCodePoints(a[0], b[0]));
  return Object.fromEntries(list);
}

function nightJson(o: NightOutcome, names: readonly string[]): NightResultJson {
  return {
    phase: "night",
    number: o.phase.number,
    died: sortedNames(o.died, names),
    revealed: sortedMap(o.revealed, names),
    exposed: sortedMap(o.exposed, names),
    maniacVictims: sortedNames(new Set([...o.bloodyVictims, ...o.tortureEvidence]), names),
    silenced: sortedNames(o.silenced, names),
    checks: o.check ? [{ target: names[o.check.target]!, result: o.check.result }] : [],
    council: o.council?.answer ?? null,
    modkilled: sortedNames(o.modkilled, names),
    winner: o.winner,
  };
}

function dayJson(o: DayOutcome, names: readonly string[]): DayResultJson {
  return {
    phase: "day",
    number: o.phase.number,
    score: sortedMap(o.score, names),
    hanged: o.hanged === null ? null : names[o.hanged]!,
    excused: o.excused === null ? null : names[o.excused]!,
    closedEarly: o.closedEarly,
    penalized: sortedNames(o.penalized, names),
    uncounted: sortedNames(o.uncounted, names),
    modkilled: sortedNames(o.modkilled, names),
    died: sortedNames(o.died, names),
    revealed: sortedMap(o.revealed, names),
    winner: o.winner,
  };
}

/** The outcome JSON of REPLAY.md for every finished phase of a match. */
export function matchResult(m: Match): ReplayResult {
  const phases = m.outcomes.map(({ outcome, players }) => {
    const names = players.map((p) => p.name);
    return outcome.phase.kind === "night"
      ? nightJson(outcome as NightOutcome, names)
      : dayJson(outcome as DayOutcome, names);
  });
  return { phases, winner: m.state.winner };
}

function parse<T>(schema: z.ZodType<T>, value: unknown, prefix: string, where: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new ReplayError(`${where}: ${describeIssue(r.error, prefix)} (REPLAY.md)`);
  return r.data;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The outcome's maps, keyed by name (REPLAY.md: in code point order, like the lists). */
const NAME_MAPS = new Set(["revealed", "exposed", "score"]);

/**
 * The outcome as JSON text, indented by two spaces. The name-keyed maps are written in code point order
 * even for names that look like numbers, which a JavaScript object would put first.
 */
export function stringifyResult(result: ReplayResult): string {
  const write = (value: unknown, indent: string, sortKeys: boolean): string => {
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    const inner = `${indent}  `;
    if (Array.isArray(value)) {
      if (value.length === 0) return "[]";
      return `[\n${value.map((v) => inner + write(v, inner, false)).join(",\n")}\n${indent}]`;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (sortKeys) entries.sort((a, b) => compareCodePoints(a[0], b[0]));
    if (entries.length === 0) return "{}";
    const body = entries.map(
      ([k, v]) => `${inner}${JSON.stringify(k)}: ${write(v, inner, NAME_MAPS.has(k))}`,
    );
    return `{\n${body.join(",\n")}\n${indent}}`;
  };
  return write(result, "", false);
}

/** S3's faults of a role list (roleListFault), which a replay reports as `setup:` errors. */
const ROLE_LIST_FAULTS: ReadonlySet<string> = new Set<RoleListFault["code"]>([
  "setup/no-players",
  "setup/duplicate-role",
  "setup/no-town",
  "setup/no-opponent",
]);

/** Run a replay file (already parsed from JSON) and return its outcome, or throw a ReplayError. */
export function runReplay(input: unknown): ReplayResult {
  return matchResult(replayMatch(input));
}

/** Play a replay file (already parsed from JSON) into a match, or throw a ReplayError. */
export function replayMatch(input: unknown): Match {
  if (!isObject(input)) throw new ReplayError("file: the file must hold a JSON object (REPLAY.md)");
  if (input.format !== REPLAY_FORMAT)
    throw new ReplayError(
      `file: unknown format ${JSON.stringify(input.format ?? null)}, expected "${REPLAY_FORMAT}" (REPLAY.md)`,
    );
  const file = parse(replayFileSchema, input, "", "file");
  const players: { name: string; role: RoleId }[] = [];
  for (const p of file.players) {
    if (!isRoleId(p.role)) throw new ReplayError(`file: ${p.name} has an unknown role "${p.role}" (S3)`);
    players.push({ name: p.name, role: p.role });
  }
  const started = startMatch({ players, seed: file.seed ?? null, options: file.options ?? {} });
  if (isRejection(started)) {
    // REPLAY.md: a role list S3 does not allow is a `setup` error naming S3; the names' faults (a duplicate
    // or empty name) are faults of the file itself.
    const where = ROLE_LIST_FAULTS.has(started.code) ? "setup" : "file";
    throw new ReplayError(`${where}: ${started.message} (${started.clause})`);
  }
  let m: Match = started;

  file.phases.forEach((raw, index) => {
    const expected = m.state.phase;
    const label = `${expected.kind} ${expected.number}`;
    const numbered = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;
    const rawLabel =
      isObject(raw) && numbered(raw.night)
        ? `night ${raw.night}`
        : isObject(raw) && numbered(raw.day)
          ? `day ${raw.day}`
          : `phase ${index + 1}`;
    if (m.state.winner !== null)
      throw new ReplayError(`${rawLabel}: the game is already over, ${m.state.winner} won (W1)`);
    const isNight = isObject(raw) && "night" in raw;
    if (!isObject(raw) || (isNight ? "day" in raw : !("day" in raw)) || rawLabel !== label)
      throw new ReplayError(`${rawLabel}: expected ${label}: nights and days alternate from night 1 (G4)`);
    const fail = (r: Rejection): never => {
      throw new ReplayError(`${label}: ${r.message} (${r.clause})`);
    };
    const seat = (name: string, clause: string): Seat => {
      const s = seatByName(m.state, name);
      if (s === null) throw new ReplayError(`${label}: unknown player "${name}" (${clause})`);
      return s;
    };
    const step = (next: Match | Rejection): void => {
      m = isRejection(next) ? fail(next) : next;
    };

    const phase = isNight ? parse(replayNightSchema, raw, "", label) : parse(replayDaySchema, raw, "", label);
    const rawGm: unknown[] = phase.gm === undefined ? [] : Array.isArray(phase.gm) ? phase.gm : [phase.gm];
    const gm: GmEntry[] = rawGm.map((g, i) => parse(gmSchemaFor(g), g, `gm[${i}]`, label));
    // F2: modkills take effect at the end of the phase, after its actions or votes; G5's strikes (issue 31)
    // with them, in the order listed (a strike changes nothing before the phase's end but the count, P3).
    const modkills = (): void => {
      for (const g of gm)
        if ("modkill" in g) step(modkill(m, seat(g.modkill, "F2"), g.reason ?? "", g.clause));
        else if ("strike" in g) step(strike(m, seat(g.strike, "G5"), g.reason ?? ""));
    };
    // P4: a replacement takes effect at the start of the phase in which it is listed.
    for (const g of gm) if ("replace" in g) step(replace(m, seat(g.replace, "P4"), g.with));

    if ("night" in phase) {
      (phase.actions ?? []).forEach((rawAction, i) => {
        const by = isObject(rawAction) && typeof rawAction.by === "string" ? `${rawAction.by}: ` : "";
        const a = parse(actionSchemaFor(rawAction), rawAction, `${by}actions[${i}]`, label);
        const actor = seat(a.by, "O1");
        step(
          act(
            m,
            actor,
            toNightAction(a, (n) => seat(n, "O1a")),
          ),
        );
      });
      modkills();
      step(
        endNight(m, {
          rolls: (phase.rolls ?? {}) as Partial<Record<RollName, boolean>>,
          council: phase.council ?? null,
        }),
      );
    } else {
      for (const [i, rawVote] of (phase.votes ?? []).entries()) {
        if (m.day.closedEarly) break; // V7: after an early close, later votes are ignored
        const by = isObject(rawVote) && typeof rawVote.by === "string" ? `${rawVote.by}: ` : "";
        if (isObject(rawVote) && "red" in rawVote && "blue" in rawVote)
          throw new ReplayError(`${label}: ${by}votes[${i}] is both red and blue (V1)`);
        if (isObject(rawVote) && !("red" in rawVote) && !("blue" in rawVote))
          throw new ReplayError(`${label}: ${by}votes[${i}] has no colour (V2)`);
        const v = parse(replayVoteSchema, rawVote, `${by}votes[${i}]`, label);
        const voter = seat(v.by, "V1");
        const red = "red" in v;
        const target = seat(red ? v.red : v.blue, "V1");
        step(vote(m, voter, { color: red ? "red" : "blue", target, early: v.early === true }));
      }
      modkills();
      step(endDay(m));
    }
  });
  return m;
}

function toNightAction(a: ReplayAction, seat: (name: string) => Seat): NightAction {
  if ("question" in a) return { act: "council", question: a.question };
  if ("target" in a) return { act: a.act, target: seat(a.target) };
  if ("role" in a) return { act: "healFrom", role: a.role };
  if (a.act === "pass") return { act: "pass" };
  return { act: "mafia", kill: (a.kill ?? []).map(seat), intimidate: (a.intimidate ?? []).map(seat) };
}
