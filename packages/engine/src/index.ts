/**
 * The rules engine's one entry point (`@forum-mafia/engine`): what the server, the forum tools, the
 * protocol and the command-line tools use, named one by one. The bots, random play and the simulator are
 * not rules and live behind `@forum-mafia/engine/bots` (bots-entry.ts); the engine's own tests and
 * benches may import any module directly.
 */

// The rules' facts (RULES.md §1, O1), written once in @forum-mafia/rules.
export { DEFAULT_ROLES, ROLE_IDS, isMafia, type Faction, type RoleId } from "./roles.ts";
export { CLAUSES, type ClauseId } from "./clauses.ts";
export { DEFAULT_OPTIONS, OPTION_VALUES, type GameOptions } from "./options.ts";

// A game and its log (G1): start, act, vote, GM decisions, phase ends, export.
export {
  act,
  closeNightIntake,
  endDay,
  endNight,
  exportReplay,
  modkill,
  reopenMafia,
  replace,
  startMatch,
  strike,
  vote,
  type LogEvent,
  type Match,
  type NightDecisions,
  type PhaseOutcome,
} from "./match.ts";
export { checkModkill, checkNewName, checkStrike, type GameSetup } from "./game.ts";
export type { GameState, Phase, Winner } from "./state.ts";
export type { Player, Seat } from "./player.ts";
export { isRejection, type Rejection } from "./rejection.ts";

// The night (O1–O9): submissions, forms, the resolution's outcome and its explanation.
export {
  submitNightAction,
  type ActKind,
  type HealFromRole,
  type NightAction,
  type NightBallots,
  type Slot,
  type TargetedAct,
} from "./night-action.ts";
export { nightMoves, type SeatTonight } from "./strikes.ts";
export {
  nightFormFor,
  type CouncilChoice,
  type NightForm,
  type NightFormAct,
  type UnavailableTarget,
} from "./night-form.ts";
export type { Attack, CouncilAnswer, NightOutcome, RollName } from "./night.ts";
export { explainNight } from "./explain.ts";
export {
  COUNCIL_QUESTIONS,
  COUNCIL_QUESTION_IDS,
  checkListedQuestion,
  councilAnswerFor,
  councilAnswerTonight,
  listedQuestion,
  type CouncilQuestion,
  type CouncilQuestionId,
} from "./council.ts";

// The day (V1–V9): votes and the tally.
export { closeDay, type DayOutcome } from "./day.ts";
// Issue 28: a stalled game (no death and no hanging for STALL_CYCLES cycles), from the public results.
export { STALL_CYCLES, stallOf, type Stall } from "./stall.ts";
export {
  castVote,
  checkVote,
  earlyCounts,
  mayVote,
  type DayBallots,
  type Vote,
  type VoteColor,
} from "./vote.ts";

// Secrets (S2): each event's audience, each viewer's events and view, the private channels.
export {
  audienceOf,
  eventsSeenBy,
  gameEventsSince,
  mayReach,
  teamOf,
  type Audience,
  type EventCursor,
  type GameEvent,
  type SeenEvents,
  type Team,
  type Viewer,
} from "./events.ts";
export { foldView, ViewFold, type GameView } from "./view.ts";
export { channelMembers, channelsFor, type Channel } from "./channels.ts";

// What players read: announcements, vote counts, the results post, role cards, texts.
export {
  countLines,
  countPost,
  dayAnnouncement,
  nightAnnouncement,
  privateResults,
  publicDay,
  publicVoteCountLines,
  publicVoteCountSections,
  publishedResults,
  voteCountWords,
  type PrivateResult,
  type PublicCount,
  type VoteCountLines,
} from "./announce.ts";
export { announcementBBCode, resultsPost } from "./results-post.ts";
export { roleCard } from "./role-cards.ts";
export { LANGS, ROLE_NAMES, TEXTS, roleName, type Lang, type Phrase } from "./texts.ts";

// Replays (REPLAY.md): run a file to its results.
export { ReplayError, replayMatch, runReplay, stringifyResult } from "./replay.ts";
export type { ReplayFile } from "./replay-format.ts";
export { seedCommitment } from "./rng.ts";
