/**
 * Issue 15: the one rule of what counts as unread, for the server (GameDetail.unread) and the web app
 * (which counts the posts the stream brings on top of the server's marks): a post or message after the
 * reader's mark that is not the reader's own. The reader's own is one written under the reader's nick from
 * the reader's place (the GM's have no seat): a substitute's predecessor's posts from the same seat are not
 * the substitute's own (P4), and nicks are unique, so the nick tells them apart. No zod here, so the web
 * app imports it (`@forum-mafia/protocol/unread`) without the request schemas.
 */
export interface Authored {
  readonly seat: number | null;
  readonly author: string;
}

/** Whether the item is the reader's own (never unread). `gm`: the reader is the game's GM. */
export const isOwnItem = (item: Authored, nick: string, gm: boolean): boolean =>
  item.author === nick && gm === (item.seat === null);

/** How many of `items` after the first `mark` are not the reader's own. */
export function unreadAfter(items: readonly Authored[], mark: number, nick: string, gm: boolean): number {
  let n = 0;
  for (let i = Math.max(0, mark); i < items.length; i++) if (!isOwnItem(items[i]!, nick, gm)) n++;
  return n;
}
