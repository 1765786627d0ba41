/**
 * A random legal player (for property tests and the engine benchmark): deals 17 players from a seed and
 * plays the game to its end through the Match API, submitting only what the engine accepts. Its own
 * choices come from a stream of the game's generator (rng.ts) seeded with `"play:" + seed`, so a seed
 * always gives the same game; the night rolls are left to the match's seed.
 */
import { councilQuestionText } from "@forum-mafia/rules";
import { councilAnswerTonight } from "./council.ts";
import { act, endDay, endNight, modkill, startMatch, vote, type Match } from "./match.ts";
import {
  HEAL_FROM_ROLES,
  actsFor,
  legalTargets,
  type ActKind,
  type NightAction,
  type TargetedAct,
} from "./night-action.ts";
import type { CouncilAnswer } from "./night.ts";
import type { GameOptions } from "./options.ts";
import type { Seat } from "./player.ts";
import { isRejection, type Rejection } from "./rejection.ts";
import { RandomStream, rngFromSeed, type RngState } from "./rng.ts";
import { DEFAULT_ROLES, isMafia } from "./roles.ts";
import { mayVote, type VoteColor } from "./vote.ts";

/** The Match API calls the player makes; a benchmark may pass wrappers that time or record them. */
export interface MatchCalls {
  readonly act: typeof act;
  readonly vote: typeof vote;
  readonly modkill: typeof modkill;
  readonly endNight: typeof endNight;
  readonly endDay: typeof endDay;
}

export const MATCH_CALLS: MatchCalls = { act, vote, modkill, endNight, endDay };

export interface RandomPlayOptions {
  /** A game still running after this many phases is a bug (P3's modkills and the kills must end it). */
  readonly maxPhases?: number;
  /** The named options; left out, each is drawn from the seed. */
  readonly gameOptions?: Partial<GameOptions>;
  /** Percent chance per phase that the GM modkills a random living player (F2); default 2. */
  readonly modkillPercent?: number;
  /** Stand-ins for the Match API (they must behave the same); MATCH_CALLS by default. */
  readonly calls?: MatchCalls;
}

export interface RandomGame {
  readonly match: Match;
  /** How many numbers the player drew from its own stream (the benchmark's baseline). */
  readonly draws: number;
}

/** The players' names, seat by seat. */
export const RANDOM_PLAYER_NAMES: readonly string[] = DEFAULT_ROLES.map((_, i) => `Игрок${i + 1}`);

/** M2c: two questions of the rules' list (council.ts), and one that names a player's action (the GM rejects it). */
const COUNCIL_QUESTIONS = [
  councilQuestionText("sheriffAlive", "ru"),
  councilQuestionText("maniacMoved", "ru"),
  "Доктор лечил Игрок1?",
] as const;
const COUNCIL_ANSWERS: readonly CouncilAnswer[] = ["yes", "no", "rejected"];
/** V7: the share of early votes on a day, drawn per day (early votes have effect from day 3 on). */
const EARLY_PERCENT_FROM_DAY_3 = [0, 0, 15, 60] as const;
const EARLY_PERCENT_BEFORE = [0, 10] as const;
const THUG_BOSS_KINDS: readonly ActKind[] = ["mafia", "mafia", "council", "block"];
const MAFIA_KINDS: readonly ActKind[] = ["mafia", "mafia", "mafia", "council"];
const NO_SEATS: readonly Seat[] = [];

/**
 * The player's own dice, over rng.ts's generator. Each 32-bit draw gives two 16-bit choices, which
 * halves the draws; a choice in [0, n) is floor(h * n / 2^16), as near uniform as a random player needs.
 */
class Dice {
  draws = 0;
  private spare = -1;
  private readonly stream: RandomStream;
  constructor(state: RngState) {
    this.stream = new RandomStream(state);
  }

  /** An integer in [0, n), n ≤ 2^16. */
  int(n: number): number {
    let h = this.spare;
    if (h < 0) {
      const value = this.stream.nextU32();
      this.draws++;
      h = value & 0xffff;
      this.spare = value >>> 16;
    } else this.spare = -1;
    return (h * n) >>> 16;
  }

  percent(p: number): boolean {
    return this.int(100) < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

/** One game in progress: the match and the player's dice. */
class Table {
  /** Living seats at the start of the phase, and the living non-mafia (the mafia's prey). */
  private readonly alive: Seat[] = [];
  private readonly prey: Seat[] = [];
  /** How many of `alive` and `prey` are in use this phase: the lists are written over in place, never cut. */
  private aliveCount = 0;
  private preyCount = 0;
  /** Whether a council question was accepted tonight: without one, councilAnswerTonight is null. */
  private askedTonight = false;

  constructor(
    public m: Match,
    private readonly dice: Dice,
    private readonly calls: MatchCalls,
    private readonly modkillPercent: number,
  ) {}

  /** The living seats, and at night the mafia's prey too (the day has no use for it). */
  private survey(night: boolean): void {
    const alive = this.alive;
    const prey = this.prey;
    let a = 0;
    let q = 0;
    const players = this.m.state.players;
    for (let i = 0; i < players.length; i++) {
      const p = players[i]!;
      if (!p.alive) continue;
      alive[a++] = i;
      if (night && !isMafia(p.role)) prey[q++] = i;
    }
    this.aliveCount = a;
    if (night) this.preyCount = q;
  }

  /** Submit if the engine accepts; false if it refused (nothing changed then). */
  private try(seat: Seat, action: NightAction): boolean {
    const next = this.calls.act(this.m, seat, action);
    if (isRejection(next)) return false;
    this.m = next;
    return true;
  }

  /** A call that must be accepted: a refusal is a bug of the player or of the engine. */
  private must(next: Match | Rejection, what: string): void {
    if (isRejection(next))
      throw new Error(`random play: ${what} was refused: ${next.message} (${next.clause})`);
    this.m = next;
  }

  /** A random living player (the same draw as dice.pick on the list). */
  private livingSeat(): Seat {
    return this.alive[this.dice.int(this.aliveCount)]!;
  }

  /** A random living player other than `seat` (who is alive). */
  private other(seat: Seat): Seat {
    const a = this.alive;
    const n = this.aliveCount;
    const t = a[this.dice.int(n - 1)]!;
    return t === seat ? a[n - 1]! : t;
  }

  /** A few random targets checked by the engine, then the legal list; false if there is none. */
  private targeted(seat: Seat, kind: TargetedAct): boolean {
    const self = kind === "heal" || kind === "protect"; // O1a
    for (let i = 0; i < 3; i++) {
      const target = self ? this.livingSeat() : this.other(seat);
      if (this.try(seat, { act: kind, target })) return true;
    }
    const legal = legalTargets(this.m.state, seat, kind);
    return legal.length > 0 && this.try(seat, { act: kind, target: this.dice.pick(legal) });
  }

  /** `count` distinct random players from the mafia's prey (fewer if there are not enough). */
  private preyOf(count: number): Seat[] {
    const p = this.prey;
    const out: Seat[] = [];
    const n = Math.min(count, this.preyCount);
    while (out.length < n) {
      const t = p[this.dice.int(this.preyCount)]!;
      if (!out.includes(t)) out.push(t);
    }
    return out;
  }

  /** M2: a kill or intimidation in one of its shapes; a single kill if the engine refuses the shape. */
  private hit(seat: Seat): boolean {
    const r = this.dice.int(100);
    let action: NightAction;
    if (r < 35) action = { act: "mafia", kill: this.preyOf(1), intimidate: NO_SEATS };
    else if (r < 55) action = { act: "mafia", kill: this.preyOf(2), intimidate: NO_SEATS };
    else if (r < 75) {
      const two = this.preyOf(2);
      action = { act: "mafia", kill: two.slice(0, 1), intimidate: two.slice(1) };
    } else action = { act: "mafia", kill: NO_SEATS, intimidate: this.preyOf(1 + this.dice.int(3)) };
    return (
      this.try(seat, action) || this.try(seat, { act: "mafia", kill: this.preyOf(1), intimidate: NO_SEATS })
    );
  }

  /** T3c: a random role, then the others; false if heal-from-role is unavailable tonight. */
  private healFrom(seat: Seat): boolean {
    const start = this.dice.int(HEAL_FROM_ROLES.length);
    for (let i = 0; i < HEAL_FROM_ROLES.length; i++) {
      const role = HEAL_FROM_ROLES[(start + i) % HEAL_FROM_ROLES.length]!;
      if (this.try(seat, { act: "healFrom", role })) return true;
    }
    return false;
  }

  /** One submission of `kind`; false if no legal one exists. */
  private submit(seat: Seat, kind: ActKind): boolean {
    switch (kind) {
      case "mafia":
        return this.hit(seat);
      case "council":
        if (!this.try(seat, { act: "council", question: this.dice.pick(COUNCIL_QUESTIONS) })) return false;
        this.askedTonight = true;
        return true;
      case "healFrom":
        return this.healFrom(seat);
      case "pass":
        return this.try(seat, { act: "pass" });
      default:
        return this.targeted(seat, kind);
    }
  }

  /**
   * One slot's submissions (REPLAY.md): nothing (P2), a pass, or one of kinds[from, to), and one time in
   * ten a second submission that replaces the first. The kinds are tried from a random one on until one
   * has a legal submission; if none has, a pass.
   */
  private slot(
    seat: Seat,
    kinds: readonly ActKind[],
    from: number,
    to: number,
    nothing: number,
    pass: number,
  ): void {
    const rounds = this.dice.percent(10) ? 2 : 1;
    const n = to - from;
    for (let round = 0; round < rounds; round++) {
      const r = this.dice.int(100);
      if (r < nothing) return;
      let done = false;
      if (r >= nothing + pass && n > 0) {
        const start = this.dice.int(n);
        for (let i = 0; i < n && !done; i++) done = this.submit(seat, kinds[from + ((start + i) % n)]!);
      }
      if (!done) this.must(this.calls.act(this.m, seat, { act: "pass" }), "a pass");
    }
  }

  night(): void {
    this.survey(true);
    this.askedTonight = false;
    const state = this.m.state;
    const alive = this.alive;
    const n = this.aliveCount;
    const offset = this.dice.int(n);
    for (let k = 0; k < n; k++) {
      const seat = alive[(k + offset) % n]!;
      const acts = actsFor(state, seat);
      if (acts.length === 0) continue;
      // actsFor lists the mafia's acts first and the pass last, the player's own acts between.
      const mafioso = acts[0] === "mafia";
      const ownFrom = mafioso ? 2 : 0;
      const ownTo = acts.length - 1;
      const boss = state.boss === seat;
      if (mafioso && boss && state.players[seat]!.role === "thug") {
        // M6, P2: a thug who is boss has one slot for the mafia's action and the block.
        this.slot(seat, THUG_BOSS_KINDS, 0, THUG_BOSS_KINDS.length, 5, 8);
        continue;
      }
      if (mafioso) {
        // REPLAY.md: a pass by the boss, the troll or the elf fills their mafia slot; a lawyer's or a
        // thug's pass fills their own slot, so their mafia slot gets an action or nothing.
        const k = MAFIA_KINDS.length;
        if (boss) this.slot(seat, MAFIA_KINDS, 0, k, 5, 8);
        else if (ownTo === ownFrom) this.slot(seat, MAFIA_KINDS, 0, k, 70, 10);
        else this.slot(seat, MAFIA_KINDS, 0, k, 85, 0);
      }
      if (ownTo > ownFrom) this.slot(seat, acts, ownFrom, ownTo, 6, 10);
    }
    this.gmModkill();
  }

  day(): void {
    this.survey(false);
    const state = this.m.state;
    const alive = this.alive;
    const n = this.aliveCount;
    const from3 = state.phase.number >= 3;
    const earlyPercent = this.dice.pick(from3 ? EARLY_PERCENT_FROM_DAY_3 : EARLY_PERCENT_BEFORE);
    const offset = this.dice.int(n);
    const dice = this.dice;
    const castVote = this.calls.vote;
    // mayVote reads only the players and the silenced, which votes do not change: a seat silenced today
    // is the only living one that may not vote, so an empty list means every living seat may.
    const anySilenced = state.day.silenced.length > 0;
    for (let k = 0; k < n && !this.m.day.closedEarly; k++) {
      const seat = alive[(k + offset) % n]!;
      if ((anySilenced && !mayVote(state, seat)) || dice.percent(5)) continue; // P1: sometimes no vote
      const rounds = dice.percent(12) ? 2 : 1;
      for (let round = 0; round < rounds; round++) {
        const m = this.m;
        if (m.day.closedEarly || (from3 && m.day.votes[seat]?.early)) break; // V7: an early vote is final
        const color: VoteColor = dice.percent(75) ? "red" : "blue";
        const early = dice.percent(earlyPercent);
        this.must(castVote(m, seat, { color, target: this.other(seat), early }), "a vote");
      }
    }
    if (!this.m.day.closedEarly) this.gmModkill();
  }

  /** F2: now and then the GM modkills a random living player, at the end of the phase. */
  private gmModkill(): void {
    if (!this.dice.percent(this.modkillPercent)) return;
    this.must(this.calls.modkill(this.m, this.livingSeat(), "G5: оскорбления"), "a modkill");
  }

  /**
   * M2c: the GM's answer, given every night and logged only when the question was asked; a listed question
   * gets the rules' answer (council.ts). The answer is drawn every night all the same, so the draws, and
   * the games a seed gives, do not depend on the question.
   */
  councilAnswer(): CouncilAnswer {
    const drawn = this.dice.pick(COUNCIL_ANSWERS);
    // The mafia's action tonight is a council question only if one was accepted (its slot holds the last).
    return (this.askedTonight ? councilAnswerTonight(this.m) : null) ?? drawn;
  }
}

/** Play a random legal game from `seed` to its end (W1); the match holds the log (exportReplay). */
export function randomGame(seed: string, options: RandomPlayOptions = {}): RandomGame {
  const dice = new Dice(rngFromSeed(`play:${seed}`));
  const gameOptions: Partial<GameOptions> = {
    earlyClose: dice.percent(50) ? "majority" : "all",
    strikes: dice.percent(50) ? "shared" : "separate",
    ...options.gameOptions,
  };
  const started = startMatch({
    players: RANDOM_PLAYER_NAMES.map((name) => ({ name })),
    seed,
    options: gameOptions,
  });
  if (isRejection(started)) throw new Error(`random play: the deal was refused: ${started.message}`);
  const calls = options.calls ?? MATCH_CALLS;
  const table = new Table(started, dice, calls, options.modkillPercent ?? 2);
  const maxPhases = options.maxPhases ?? 200;
  for (let phases = 0; table.m.state.winner === null; phases++) {
    if (phases >= maxPhases)
      throw new Error(`random play: the game "${seed}" did not end in ${maxPhases} phases`);
    let next: Match | Rejection;
    if (table.m.state.phase.kind === "night") {
      table.night();
      next = calls.endNight(table.m, { rolls: {}, council: table.councilAnswer() });
    } else {
      table.day();
      next = calls.endDay(table.m);
    }
    if (isRejection(next))
      throw new Error(`random play: closing the phase was refused: ${next.message} (${next.clause})`);
    table.m = next;
  }
  return { match: table.m, draws: dice.draws };
}

/** Play a random legal game from `seed` to its end; see randomGame. */
export function playRandomGame(seed: string, options: RandomPlayOptions = {}): Match {
  return randomGame(seed, options).match;
}
