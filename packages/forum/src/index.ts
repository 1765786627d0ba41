/**
 * Forum text: nicknames (nick.ts), safe BBCode (bbcode.ts) and the votes written in posts (votes.ts).
 * Pure functions, no I/O.
 */
export { escapeHtml, quoteFreeText, renderBBCode } from "./bbcode.ts";
export { checkNick, nickKey } from "./nick.ts";
export type { VoteColor } from "./vote-color.ts";
export { votesInPost, type PostVote } from "./votes.ts";
