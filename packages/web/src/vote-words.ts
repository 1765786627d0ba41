/**
 * Issue 32: a vote colour is never the only mark. The server marks a vote colour written in a post with
 * the class `vote-red` or `vote-blue` (forum's renderBBCode); here each such mark gets its colour's name
 * in the reader's language, hidden from the eye and said by a screen reader: «красный: Борис».
 * The HTML is the server's own safe rendering; only a fixed tag and a word of ours are added.
 */
export function withVoteWords(html: string, words: { readonly red: string; readonly blue: string }): string {
  return html.replace(
    /<span class="vote-(red|blue)"[^>]*>/g,
    (tag, color: "red" | "blue") => `${tag}<span class="sr-only vote-word">${words[color]}: </span>`,
  );
}

/** A post's or message's HTML for React's dangerouslySetInnerHTML, with the vote colours' spoken names. */
export const voteHtml = (
  html: string,
  words: { readonly red: string; readonly blue: string },
): { __html: string } => ({ __html: withVoteWords(html, words) });
