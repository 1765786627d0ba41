/**
 * Forum text: nicknames (nick.ts), safe BBCode (bbcode.ts), the votes written in posts (votes.ts) and
 * the vote counter for games on other forums (votecount.ts, names.ts, html.ts), the reader of threads
 * pasted from those forums (thread/) and their BBCode dialects (dialect.ts), and the G5 checker
 * (profanity/). Pure functions, no I/O.
 */
export { escapeHtml, quoteFreeText, renderBBCode } from "./bbcode.ts";
export { BBCodeWriter, htmlToBBCode, looksLikeHtml, type BBCodeWriterOptions } from "./html.ts";
export { bbcodeDialect, type BBCodeDialect } from "./dialect.ts";
export { decodePage, type DecodedPage, type DecodeHow } from "./decode.ts";
export {
  readThread,
  type FoundPost,
  type ForumEngine,
  type ThreadReading,
  type ThreadSourceKind,
} from "./thread/read.ts";
export { NameResolver, parseRoster, type NameMatch, type RosterPlayer } from "./names.ts";
export { checkNick, nickKey, nickSkeleton } from "./nick.ts";
export type { VoteColor } from "./vote-color.ts";
export {
  countVotes,
  voteCountJson,
  voteCountPost,
  type CountedVote,
  type IgnoredVote,
  type ThreadPost,
  type VoteCount,
  type VoteCountOptions,
} from "./votecount.ts";
export { runVoteCount, threadFromFile, threadPosts, type VoteCountRun } from "./votecount-run.ts";
export { nearestNames, unmatchedColours, votesInPost, type PostVote, type UnmatchedColour } from "./votes.ts";
export { voteMarks, type ColourTag, type NameReader, type PostMarks, type VoteMark } from "./vote-marks.ts";
export { NICK_CASES, inflectNick, nickForms, type NickCase, type NickForms } from "./inflect.ts";
export {
  checkMessage,
  checkNick as checkNickWords,
  type ProfanityCheck,
  type ProfanityFlag,
  type ProfanitySpan,
} from "./profanity/check.ts";
