/**
 * S3: what a game may change from the default table. The facts (the options, their defaults, the
 * thresholds) live once, in @forum-mafia/rules, for the engine, the server and the setup editor alike.
 */
export {
  DEFAULT_OPTIONS,
  OPTION_VALUES,
  THRESHOLDS,
  type GameOptions,
  type ThresholdName,
} from "@forum-mafia/rules";
