/** The named [reading] options of RULES.md, with their documented defaults. */
export interface GameOptions {
  /** V7: the day closes early when more than half ("majority") or all ("all") eligible voters vote early. */
  readonly earlyClose: "majority" | "all";
  /** P3: whether vote strikes and night strikes add up ("shared") or count apart ("separate"). */
  readonly strikes: "shared" | "separate";
}

export const DEFAULT_OPTIONS: GameOptions = { earlyClose: "majority", strikes: "shared" };

export const OPTION_VALUES = {
  earlyClose: ["majority", "all"],
  strikes: ["shared", "separate"],
} as const satisfies { readonly [K in keyof GameOptions]: readonly GameOptions[K][] };
