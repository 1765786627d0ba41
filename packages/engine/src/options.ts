/**
 * S3: what a game may change from the default table: the named [reading] options of RULES.md and the five
 * thresholds, each with the number the clauses name as its default.
 */
export interface GameOptions {
  /** V7: the day closes early when more than half ("majority") or all ("all") eligible voters vote early. */
  readonly earlyClose: "majority" | "all";
  /** P3: whether vote strikes and night strikes add up ("shared") or count apart ("separate"). */
  readonly strikes: "shared" | "separate";
  /** R1: roles are revealed while alive at phase start > this; T3c's heal-from-role needs the same. */
  readonly revealAbove: number;
  /** M2b: three intimidations only when alive at night start ≥ this, else at most two. */
  readonly threeIntimidationsFrom: number;
  /** T3a: no serum two nights in a row while alive at night start < this. */
  readonly serumRepeatBelow: number;
  /** M2, M6, T3e, T4, T6: when alive at night start equals this, the repeat limits lapse and the boss kills one. */
  readonly lapseAt: number;
  /** V7: the first day on which «досрочно» has effect. */
  readonly earlyFromDay: number;
}

export const DEFAULT_OPTIONS: GameOptions = {
  earlyClose: "majority",
  strikes: "shared",
  revealAbove: 10,
  threeIntimidationsFrom: 10,
  serumRepeatBelow: 15,
  lapseAt: 3,
  earlyFromDay: 3,
};

export const OPTION_VALUES = {
  earlyClose: ["majority", "all"],
  strikes: ["shared", "separate"],
} as const satisfies { readonly [K in "earlyClose" | "strikes"]: readonly GameOptions[K][] };

/** S3's thresholds, each a non-negative integer option (REPLAY.md `options`). */
export const THRESHOLDS = [
  "revealAbove",
  "threeIntimidationsFrom",
  "serumRepeatBelow",
  "lapseAt",
  "earlyFromDay",
] as const satisfies readonly (keyof GameOptions)[];
