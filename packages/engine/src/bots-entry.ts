/**
 * `@forum-mafia/engine/bots`: what plays the game rather than rules it. The bots (a player's move from
 * that player's view alone), random play (every legal input, for tests and benches), the simulator of
 * bot games with its summary and its SVG chart. Kept apart from the engine's entry point, which holds the
 * rules only.
 */
export {
  BotViews,
  botNightAction,
  botView,
  botVote,
  BOT_PHASE_CAP,
  playBotGame,
  playBotGameToCap,
  type BotDecision,
  type BotGameOptions,
  type BotView,
} from "./bots.ts";
export {
  MATCH_CALLS,
  RANDOM_PLAYER_NAMES,
  playRandomGame,
  randomGame,
  type MatchCalls,
  type RandomGame,
  type RandomPlayOptions,
} from "./random-play.ts";
export {
  WINNERS,
  WINNER_LABELS,
  emptyTally,
  mergeSummaries,
  mergeTallies,
  recordOf,
  simulate,
  summarize,
  summaryOf,
  tallyOf,
  wilson,
  winRateSvg,
  type GameRecord,
  type StalledRecord,
  type Rate,
  type SimulationOptions,
  type Summary,
  type Tally,
} from "./simulation.ts";
// The seeded stream the bots draw from (their randomness stays seeded, STYLE.md).
export { RandomStream, rngFromSeed } from "./rng.ts";
// Issue 16: bots that talk (posts, replies, team channels) from their own view, and games of them.
export { botSuspicion } from "./bots.ts";
export {
  VOTE_SLOT,
  botChat,
  botDayPost,
  botReply,
  excerpt,
  mafiaCovers,
  mafiaPush,
  nextSlot,
  styleOf,
  talkPlan,
  type NameCase,
  type NameForms,
  type TalkInput,
  type TalkMessage,
  type TalkPlan,
  type TalkPost,
} from "./bot-talk.ts";
export {
  channelOf,
  playTalkingGame,
  talkInput,
  talkSeeds,
  type TalkStep,
  type TalkingGame,
  type TalkingGameOptions,
} from "./talking-game.ts";
// Issue 17: the balance estimate of a setup (bot games of exactly that role list and options).
export {
  ESTIMATE_GAMES,
  ESTIMATE_PHASE_CAP,
  balanceOf,
  canonicalRoles,
  canonicalSetup,
  estimateChunk,
  estimateSeed,
  mergeChunks,
  type Balance,
  type BalanceRate,
  type EstimateSetup,
} from "./estimate.ts";
