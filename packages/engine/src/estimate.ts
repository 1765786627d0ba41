/**
 * The balance estimate of a setup (issue 17): silent bot games of exactly that role list and those
 * options, counted into a Tally, and read as win rates with their 95% intervals and the mean length.
 *
 * Game i of an estimate is dealt from the seed `estimate:${i}` and nothing else, so a game's outcome
 * depends on the setup and its index only. The games are played in chunks (a range of indices) anywhere —
 * a worker thread of the server's pool, the command line's loop — and the chunks' tallies, integer counts,
 * are merged in index order: the figures depend on the setup and the game count, never on how the games
 * were split. The server (`POST /api/setups/estimate`) and `npm run simulate -- --setup FILE` both read
 * their figures through `balanceOf`, so they print the same numbers.
 *
 * Issue 28: a game still running after ESTIMATE_PHASE_CAP phases is not an error but a fact about the
 * setup (some legal setups stall: no death and no hanging, night after night). It is counted as stalled,
 * its own figure with its interval; the win rates stay shares of ALL games, so the four sides and the
 * stalled share add up to 1, and the mean length is that of the games that ended.
 */
import { BOT_PHASE_CAP, playBotGameToCap } from "./bots.ts";
import type { GameOptions } from "./options.ts";
import { ROLE_IDS, type RoleId } from "./roles.ts";
import {
  emptyTally,
  mergeTallies,
  recordOf,
  summarize,
  summaryOf,
  type GameRecord,
  type StalledRecord,
  type Tally,
} from "./simulation.ts";
import type { Winner } from "./state.ts";

/** S3: what an estimate plays: a role list (one role per seat) and the game's options, all of them. */
export interface EstimateSetup {
  readonly roles: readonly RoleId[];
  readonly options: GameOptions;
}

/** How many games an estimate plays: enough for intervals of about ±2 points at rates near one half. */
export const ESTIMATE_GAMES = 2_000;

/**
 * Issue 28: the phases an estimate's game may last before it counts as stalled: 100 nights and 100 days,
 * the bots' own cap. The classic 17's bot games last about 10 phases on average; one still running at 200
 * is caught in a loop the rules allow (bots.ts, playBotGameToCap) and will not end by itself.
 */
export const ESTIMATE_PHASE_CAP = BOT_PHASE_CAP;

/** The seed of an estimate's game `index`: the index alone, whatever the setup or the split. */
export const estimateSeed = (index: number): string => `estimate:${index}`;

const ROLE_RANK: ReadonlyMap<RoleId, number> = new Map(ROLE_IDS.map((r, i) => [r, i]));

/**
 * The role list in the table's order (RULES.md §1, ROLE_IDS). S1 deals the roles at random, so a list's
 * order says nothing about the game: an estimate plays this order, and two lists with the same roles get
 * the same figures (and share one cache entry in the server).
 */
export const canonicalRoles = (roles: readonly RoleId[]): readonly RoleId[] =>
  [...roles].sort((a, b) => ROLE_RANK.get(a)! - ROLE_RANK.get(b)!);

/** The setup as an estimate plays it: the roles in canonical order, and every option, in one order. */
export function canonicalSetup(setup: EstimateSetup): EstimateSetup {
  const o = setup.options;
  return {
    roles: canonicalRoles(setup.roles),
    options: {
      earlyClose: o.earlyClose,
      strikes: o.strikes,
      revealAbove: o.revealAbove,
      threeIntimidationsFrom: o.threeIntimidationsFrom,
      serumRepeatBelow: o.serumRepeatBelow,
      lapseAt: o.lapseAt,
      earlyFromDay: o.earlyFromDay,
    },
  };
}

/**
 * The tally of the estimate's games `from` … `from + count - 1` of this setup (its roles in canonical
 * order). Throws for a role list the engine cannot deal (S3: check it with roleListFault first); a game
 * still running at ESTIMATE_PHASE_CAP is counted as stalled (issue 28).
 */
export function estimateChunk(setup: EstimateSetup, from: number, count: number): Tally {
  if (!Number.isSafeInteger(from) || from < 0 || !Number.isSafeInteger(count) || count < 0)
    throw new Error(`estimateChunk: from and count must be non-negative integers (got ${from}, ${count})`);
  const { roles, options } = canonicalSetup(setup);
  const records: (GameRecord | StalledRecord)[] = [];
  for (let i = from; i < from + count; i++) {
    const game = playBotGameToCap(estimateSeed(i), {
      roles,
      gameOptions: options,
      maxPhases: ESTIMATE_PHASE_CAP,
      // Issue 28: the estimate models players who use what they know (bots.ts, informedVote); only the
      // demo's bots, whom a person watches, vote by the public rule.
      votes: "informed",
    });
    records.push(game.ended ? recordOf(game.match) : { stalled: true });
  }
  return summarize(records).tally;
}

/** The tallies of consecutive chunks, added in index order (exact: a tally is integer counts). */
export const mergeChunks = (tallies: readonly Tally[]): Tally => tallies.reduce(mergeTallies, emptyTally());

/** One win rate with its 95% Wilson interval, as shares of 1. */
export interface BalanceRate {
  readonly rate: number;
  readonly low: number;
  readonly high: number;
}

/** What an estimate shows: the protocol's BalanceEstimate, field for field. */
export interface Balance {
  /** Every game played, the stalled ones included. */
  readonly games: number;
  /** Each side's wins as a share of ALL games (stalled ones included): with `stalled`, they add up to 1. */
  readonly winRates: { readonly [W in Winner]: BalanceRate };
  /** Issue 28: the share of games still running at the phase cap (ESTIMATE_PHASE_CAP), over all games. */
  readonly stalled: BalanceRate;
  /** The phase cap the stalled games reached. */
  readonly phaseCap: number;
  /** The mean length of the games that ended (0 when none did). */
  readonly meanDays: number;
  readonly meanPhases: number;
}

/**
 * The figures of a tally: each side's win rate with its interval, the stalled share with its interval, and
 * the mean length in days and phases of the games that ended.
 */
export function balanceOf(tally: Tally): Balance {
  const summary = summaryOf(tally);
  const rate = (w: Winner): BalanceRate => {
    const r = summary.winRates[w];
    return { rate: r.rate, low: r.low, high: r.high };
  };
  // A mapped type: a new side would not compile until it is listed here.
  const winRates: { readonly [W in Winner]: BalanceRate } = {
    town: rate("town"),
    mafia: rate("mafia"),
    maniac: rate("maniac"),
    draw: rate("draw"),
  };
  const stalled: BalanceRate = {
    rate: summary.stalled.rate,
    low: summary.stalled.low,
    high: summary.stalled.high,
  };
  return {
    games: tally.games,
    winRates,
    stalled,
    phaseCap: ESTIMATE_PHASE_CAP,
    meanDays: summary.meanDays,
    meanPhases: summary.meanPhases,
  };
}
