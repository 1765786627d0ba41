/**
 * A small scenario language for the rules tests (STYLE.md): a test is a replay file (REPLAY.md) built
 * phase by phase, plus the outcome it must produce.
 *
 *   const g = game(STANDARD).night({ Девочка: visit("Босс"), Босс: kill("Мирный1") });
 *   expect(g.last).toMatchObject({ died: [] });
 *   g.day("Шериф>Босс Доктор+Шериф");        // ">" red, "+" blue, a trailing "!" marks "досрочно"
 *
 * Players not named in a night get an explicit pass where their role has a night action, so that P2's
 * strikes and +2 appear only in tests that ask for them (`{ autoPass: false }`).
 */
import { createHash } from "node:crypto";
import { expect } from "vitest";
import {
  ReplayError,
  isRejection,
  replayMatch,
  type GameOptions,
  type Match,
  type Rejection,
  type ReplayFile,
  type RoleId,
  type RollName,
} from "../src/index.ts";
import { actsFor } from "../src/night-action.ts";
import { matchResult, type DayResultJson, type NightResultJson, type ReplayResult } from "../src/replay.ts";
import { mayVote } from "../src/vote.ts";
import type { GmEntry, ReplayAction, ReplayVote } from "../src/replay-format.ts";

/** The default 17-player table of RULES.md §1, with each player named after the role. */
export const STANDARD =
  "Босс=boss Тролль=troll Эльф=elf Адвокат=lawyer Громила=thug Маньяк=maniac Шериф=sheriff Сержант=sergeant " +
  "Доктор=doctor Девочка=girl Прокурор=prosecutor Шахид=shahid Мирный1=citizen Мирный2=citizen Мирный3=citizen " +
  "Мирный4=citizen Мирный5=citizen";

/** One night action as the scenario writes it: a replay action without its `by`. */
export type Act = ReplayAction extends infer A ? (A extends unknown ? Omit<A, "by"> : never) : never;

export const kill = (...targets: string[]): Act => ({ act: "mafia", kill: targets });
export const intimidate = (...targets: string[]): Act => ({ act: "mafia", intimidate: targets });
export const killAndIntimidate = (k: string, i: string): Act => ({
  act: "mafia",
  kill: [k],
  intimidate: [i],
});
export const question = (text: string): Act => ({ act: "mafia", question: text });
const targeted =
  (act: Extract<ReplayAction, { target: string }>["act"]) =>
  (target: string): Act => ({ act, target });
export const block = targeted("block");
export const protect = targeted("protect");
export const bloodyKill = targeted("bloodyKill");
export const quickKill = targeted("quickKill");
export const torture = targeted("torture");
export const shoot = targeted("shoot");
export const check = targeted("check");
export const serum = targeted("serum");
export const heal = targeted("heal");
export const poison = targeted("poison");
export const visit = targeted("visit");
export const unprotect = targeted("unprotect");
export const mark = targeted("mark");
export const healFrom = (role: "mafia" | "maniac" | "sheriff"): Act => ({ act: "healFrom", role });
export const pass = (): Act => ({ act: "pass" });

export interface NightExtra {
  rolls?: Partial<Record<RollName, boolean>>;
  council?: "yes" | "no" | "rejected";
  gm?: GmEntry[];
  /** Give an explicit pass to every player with an action who is not named (default true). */
  autoPass?: boolean;
}

export interface DayExtra {
  gm?: GmEntry[];
}

/** Night actions: an object in submission order, or pairs when one player submits twice. */
export type Actions = Record<string, Act | Act[]> | [string, Act][];

export class Scenario {
  constructor(readonly file: ReplayFile) {}

  private with(phase: ReplayFile["phases"][number]): Scenario {
    return new Scenario({ ...this.file, phases: [...this.file.phases, phase] });
  }

  /** The match as it stands after the phases so far (throws the replay's error if they are illegal). */
  get match(): Match {
    return replayMatch(this.file);
  }

  get result(): ReplayResult {
    return matchResult(this.match);
  }

  /** The outcome of the last phase. */
  get last(): NightResultJson | DayResultJson {
    const phases = this.result.phases;
    return phases[phases.length - 1]!;
  }

  get lastNight(): NightResultJson {
    const l = this.last;
    if (l.phase !== "night") throw new Error("the last phase is not a night");
    return l;
  }

  get lastDay(): DayResultJson {
    const l = this.last;
    if (l.phase !== "day") throw new Error("the last phase is not a day");
    return l;
  }

  /** The one line the replay command would print for this file; fails the test if it is legal. */
  get error(): string {
    return replayError(this.file);
  }

  night(actions: Actions = {}, extra: NightExtra = {}): Scenario {
    const list: [string, Act][] = Array.isArray(actions)
      ? actions
      : Object.entries(actions).flatMap(([by, a]) =>
          Array.isArray(a) ? a.map((x) => [by, x] as [string, Act]) : [[by, a]],
        );
    const number = this.file.phases.filter((p) => "night" in p).length + 1;
    const passes = extra.autoPass === false ? [] : this.autoPasses(list, extra.gm ?? []);
    return this.with({
      night: number,
      actions: [...passes, ...list.map(([by, a]) => ({ by, ...a }) as ReplayAction)],
      ...(extra.rolls ? { rolls: extra.rolls } : {}),
      ...(extra.council ? { council: extra.council } : {}),
      ...(extra.gm ? { gm: extra.gm } : {}),
    });
  }

  day(votes: string | ReplayVote[] = "", extra: DayExtra = {}): Scenario {
    const number = this.file.phases.filter((p) => "day" in p).length + 1;
    const list: ReplayVote[] = typeof votes === "string" ? parseVotes(votes) : votes;
    return this.with({ day: number, votes: list, ...(extra.gm ? { gm: extra.gm } : {}) });
  }

  private autoPasses(list: [string, Act][], gm: GmEntry[]): ReplayAction[] {
    let state;
    try {
      state = this.match.state;
    } catch {
      return [];
    }
    const renamed = new Map(gm.flatMap((g) => ("replace" in g ? [[g.replace, g.with] as const] : [])));
    const named = new Set(list.map(([by]) => by));
    const mafiaActed = list.some(([, a]) => a.act === "mafia");
    const pairNamed = state.players.some(
      (p) => (p.role === "sheriff" || p.role === "sergeant") && named.has(p.name),
    );
    const out: ReplayAction[] = [];
    state.players.forEach((p, seat) => {
      const name = renamed.get(p.name) ?? p.name;
      const acts = actsFor(state, seat);
      if (acts.length === 0 || named.has(name)) return;
      if (p.role === "troll" || p.role === "elf") {
        if (state.boss !== seat) return;
      }
      if (state.boss === seat && p.role !== "thug" && mafiaActed) return;
      if ((p.role === "sheriff" || p.role === "sergeant") && pairNamed) return;
      const own = acts.some((a) => a !== "mafia" && a !== "council" && a !== "pass");
      if (!own && state.boss !== seat) return;
      out.push({ by: name, act: "pass" });
    });
    return out;
  }
}

/** "Шериф>Босс Доктор+Шериф Вася>Петя!": ">" red, "+" blue, a trailing "!" for досрочно. */
export function parseVotes(text: string): ReplayVote[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((token) => {
      const m = /^(.+?)([>+])(.+?)(!?)$/.exec(token);
      if (!m) throw new Error(`bad vote "${token}"`);
      const [, by, sign, target, early] = m as unknown as [string, string, string, string, string];
      const base = sign === ">" ? { by, red: target } : { by, blue: target };
      return early ? { ...base, early: true } : base;
    });
}

/**
 * "Аня=boss Катя=girl …" → the players dealt by hand, in seat order. Roles are not checked here: the
 * engine refuses unknown ones (S3).
 */
export function playersOf(lineup: string): { name: string; role: RoleId }[] {
  return lineup
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => {
      const [name, role] = pair.split("=");
      if (!name || !role) throw new Error(`bad player "${pair}"`);
      return { name, role: role as RoleId };
    });
}

/** "Аня=boss Катя=girl …" → a game at night 1, dealt by hand. */
export function game(lineup: string, opts: { seed?: string; options?: Partial<GameOptions> } = {}): Scenario {
  return new Scenario({
    format: "forum-mafia/replay@1",
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.options ? { options: opts.options } : {}),
    players: playersOf(lineup),
    phases: [],
  });
}

/** A lineup of the standard table with some players removed (for alive-count thresholds). */
export function without(lineup: string, ...names: string[]): string {
  return lineup
    .split(/\s+/)
    .filter((pair) => !names.includes(pair.split("=")[0]!))
    .join(" ");
}

/** The five citizens of the standard table. */
export const CITIZENS = ["Мирный1", "Мирный2", "Мирный3", "Мирный4", "Мирный5"];

/** The players of the standard table whose role has a night action (P2), the boss's included. */
export const ACTING = [
  "Босс",
  "Адвокат",
  "Громила",
  "Маньяк",
  "Шериф",
  "Сержант",
  "Доктор",
  "Девочка",
  "Прокурор",
  "Шахид",
];

/**
 * The standard table less the five citizens, the prosecutor and the shahid: 10 alive, so R1 reveals
 * nothing, and M2b still allows 3 intimidations.
 */
export const TEN = without(STANDARD, ...CITIZENS, "Прокурор", "Шахид");

/** The standard table without the boss, troll, elf and lawyer: the thug is boss from night 1 (M1). */
export const THUG_BOSS = without(STANDARD, "Босс", "Тролль", "Эльф", "Адвокат");

/** The players' names of a lineup, in seat order. */
export const namesOf = (lineup: string): string[] => playersOf(lineup).map((p) => p.name);

/** The names of the standard table, in seat order. */
export const NAMES = namesOf(STANDARD);

/** `list` without the names `gone`. */
export const except = (list: readonly string[], ...gone: string[]): string[] =>
  list.filter((n) => !gone.includes(n));

/** Every roll fixed to false: rolls a night does not need are ignored. */
export const NO_ROLLS: Record<RollName, boolean> = {
  bossExposed: false,
  doctorExposed: false,
  tortureEvidence: false,
  girlSilence: false,
  thugSilence: false,
};

/** Each voter votes blue for the next one, in a ring: every score stays ≤ 0, so nobody is hanged. */
export const ring = (voters: readonly string[]): string =>
  voters.map((n, i) => `${n}+${voters[(i + 1) % voters.length]!}`).join(" ");

/** Every voter but `target` votes red for `target`; `target` (if a voter) votes red for `other`. */
export const allRed = (voters: readonly string[], target: string, other: string): string =>
  voters.map((n) => (n === target ? `${n}>${other}` : `${n}>${target}`)).join(" ");

/** The names of the players who may vote in the coming day (alive and not silenced, V6), in seat order. */
export function votersOf(g: Scenario): string[] {
  const s = g.match.state;
  return s.players.flatMap((p, seat) => (mayVote(s, seat) ? [p.name] : []));
}

/** The names of the living players, in seat order. */
const livingOf = (g: Scenario): string[] => g.match.state.players.flatMap((p) => (p.alive ? [p.name] : []));

/**
 * A day that hangs nobody and penalises nobody (P1): every player who may vote votes blue for the first
 * living player other than themselves.
 */
export function quietDay(g: Scenario, extra: DayExtra = {}): Scenario {
  const living = livingOf(g);
  const votes = votersOf(g).map((by): ReplayVote => ({ by, blue: living.find((n) => n !== by)! }));
  return g.day(votes, extra);
}

/**
 * A day on which every player who may vote votes red for `target`, and `target` votes red for the first
 * other living player (so nobody is penalised, P1).
 */
export function lynchDay(g: Scenario, target: string, extra: DayExtra = {}): Scenario {
  const other = livingOf(g).find((n) => n !== target)!;
  const votes = votersOf(g).map((by): ReplayVote => ({ by, red: by === target ? other : target }));
  return g.day(votes, extra);
}

/** The named fields of an outcome, each compared exactly (toMatchObject would let `{}` match any map). */
export function expectFields<T extends object>(actual: T, want: Partial<T>): void {
  const got = Object.fromEntries(Object.keys(want).map((k) => [k, actual[k as keyof T]]));
  expect(got).toEqual(want);
}

/** The value of an engine command that must be accepted; a refusal fails the test with its message. */
export function ok<T extends object>(x: T | Rejection): T {
  if (isRejection(x)) throw new Error(`unexpected refusal: ${x.message} (${x.clause})`);
  return x;
}

/** The replay command's one-line error for a file, or a test failure if the file is accepted. */
export function replayError(file: unknown): string {
  try {
    replayMatch(file);
  } catch (e) {
    if (e instanceof ReplayError) return e.message;
    throw e;
  }
  throw new Error("expected the file to be refused, but it was accepted");
}

/**
 * An independent implementation of the generator documented in rng.ts (SHA-256 → four little-endian
 * words → xoshiro128**), in BigInt arithmetic, as anyone verifying a published game would write it (F1).
 */
export function referenceRng(seed: string): () => number {
  const d = createHash("sha256").update(seed, "utf8").digest();
  const M = 0xffffffffn;
  let [s0, s1, s2, s3] = [0, 4, 8, 12].map((i) => BigInt(d.readUInt32LE(i))) as [
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  if (s0 === 0n && s1 === 0n && s2 === 0n && s3 === 0n) s0 = 1n;
  const rotl = (x: bigint, k: bigint): bigint => ((x << k) | (x >> (32n - k))) & M;
  return () => {
    const result = (rotl((s1 * 5n) & M, 7n) * 9n) & M;
    const t = (s1 << 9n) & M;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11n);
    return Number(result);
  };
}

/** A roll of probability `p` comes out true iff the generator's 32-bit draw `u` is below p·2³² (rng.ts). */
export const chance = (u: number, p: number): boolean => u < p * 2 ** 32;
