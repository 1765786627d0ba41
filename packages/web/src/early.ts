import type { GameDetail, GameLog, Lang, PostView } from "@forum-mafia/protocol";
import { api } from "./api.ts";

/** The thread's page size: the game page fetches the thread 500 posts at a time. */
export const THREAD_PAGE = 500;

/** The game detail and the thread's first page, asked for as the app starts (issue 32). */
export interface EarlyGame {
  readonly detail: Promise<GameDetail>;
  readonly thread: Promise<{ posts: PostView[]; total: number; streamAt: number }>;
}

let early: { id: string; lang: Lang; game: EarlyGame } | null = null;
let earlyLog: { id: string; lang: Lang; log: Promise<GameLog> } | null = null;

/**
 * The page they were asked for: the path, and the history's length then. A page reached by a link and the
 * back button after it has the same path but a longer history, so what was asked for is not taken stale.
 */
let page: { path: string; length: number } | null = null;
const samePage = (): boolean =>
  page !== null && page.path === location.pathname && page.length === history.length;
/** The game page has already loaded without them: asking now would only fetch the same twice. */
let late = false;

/**
 * Issue 32: a page opened at a game asks for the game as soon as the app's first script runs, alongside the
 * session and the game page's code, not after them. Taken once by the game page's first load, and only if
 * the app is still at the page it opened at, so it is never read stale; not asked for at all if the game
 * page has loaded without them.
 */
export function fetchEarly(id: string, lang: Lang, tab: string | null): void {
  if (late) return;
  const game = { detail: api.game(id, lang), thread: api.thread(id, THREAD_PAGE) };
  // A failure is the game page's to handle, when it takes them.
  game.detail.catch(() => undefined);
  game.thread.catch(() => undefined);
  early = { id, lang, game };
  page = { path: location.pathname, length: history.length };
  // The finished game's log (R3), when the page opens at it.
  if (tab === "log") {
    const log = api.log(id, lang);
    log.catch(() => undefined);
    earlyLog = { id, lang, log };
  }
}

/** What `fetchEarly` asked for this game in this language, once; null if nothing (or not that). */
export function takeEarly(id: string, lang: Lang): EarlyGame | null {
  const e = early;
  early = null;
  late = true;
  return e !== null && e.id === id && e.lang === lang && samePage() ? e.game : null;
}

/** What `fetchEarly` asked for the log of this game in this language, once; null if nothing. */
export function takeEarlyLog(id: string, lang: Lang): Promise<GameLog> | null {
  const e = earlyLog;
  earlyLog = null;
  late = true;
  return e !== null && e.id === id && e.lang === lang && samePage() ? e.log : null;
}
