import type {
  BalanceEstimate,
  ChannelId,
  ChannelView,
  GameDetail,
  GameLog,
  GameSummary,
  Lang,
  MyGames,
  MySettings,
  ProfileView,
  ReadBody,
  MySetups,
  SavedSetup,
  Setup,
  SettingsBody,
  NightDraft,
  PostPreview,
  PostView,
  TextCheck,
  FlagMeasure,
  UserView,
  VoteCountResult,
  NotebookSummary,
  PublishedNotebook,
  NotebookView,
} from "@forum-mafia/protocol";
import type {
  actionSchema,
  createGameSchema,
  modkillSchema,
  replaceSchema,
  rollsSchema,
  startSchema,
  voteSchema,
  createNotebookSchema,
  notebookActionSchema,
  notebookVoteSchema,
  notebookRollsSchema,
  notebookCouncilSchema,
  notebookThreadSchema,
} from "@forum-mafia/protocol";

/**
 * The server's JSON API, typed by the protocol package. Only types are imported from it, so no
 * validation code reaches the browser: the server validates every request and answers a refusal with
 * `{error:{code,message,clause?}}`, which becomes an ApiFailure here.
 */

type In<T> = T extends { _zod: { input: infer I } } ? I : never;
export type ActionBody = In<typeof actionSchema>;
export type VoteBody = In<typeof voteSchema>;
export type CreateGameBody = In<typeof createGameSchema>;
export type StartBody = In<typeof startSchema>;
export type RollsBody = In<typeof rollsSchema>;
export type ModkillBody = In<typeof modkillSchema>;
export type ReplaceBody = In<typeof replaceSchema>;
/** Issue 18: the off-site game notebook's requests. */
export type CreateNotebookBody = In<typeof createNotebookSchema>;
export type NotebookActionBody = In<typeof notebookActionSchema>;
export type NotebookVoteBody = In<typeof notebookVoteSchema>;
export type NotebookRollsBody = In<typeof notebookRollsSchema>;
export type NotebookCouncilBody = In<typeof notebookCouncilSchema>;
export type NotebookThreadBody = In<typeof notebookThreadSchema>;

export type NotebookRoute =
  | "actions"
  | "votes"
  | "thread"
  | "inputs/remove"
  | "rolls"
  | "council"
  | "modkill"
  | "replace"
  | "aliases"
  | "gm"
  | "close"
  | "publish";

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly clause: string | undefined,
  ) {
    super(message);
  }
}

interface CallInit {
  signal?: AbortSignal;
  keepalive?: boolean;
  /**
   * Issue 28: a write the server takes an Idempotency-Key for: it is sent with a new key and, after a
   * network error, a 502 or a 503 (an instance restarting behind the proxy), once more with the same key,
   * which the server answers as the first (storing nothing twice).
   */
  retry?: boolean;
}

/** The answers after which a keyed write is sent once more: no answer, the proxy's 502, a 503. */
const RETRIED = new Set([0, 502, 503]);

/** A new Idempotency-Key: 128 random bits (getRandomValues works on plain http too, unlike randomUUID). */
function newKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function call<T>(method: string, path: string, body?: unknown, init: CallInit = {}): Promise<T> {
  if (!init.retry) return send<T>(method, path, body, init, null);
  const key = newKey();
  try {
    return await send<T>(method, path, body, init, key);
  } catch (e) {
    if (!(e instanceof ApiFailure) || !RETRIED.has(e.status) || init.signal?.aborted) throw e;
    await new Promise((r) => setTimeout(r, 500 + Math.random() * 500));
    return send<T>(method, path, body, init, key);
  }
}

async function send<T>(
  method: string,
  path: string,
  body: unknown,
  init: CallInit,
  key: string | null,
): Promise<T> {
  const { signal, keepalive } = init;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(key === null ? {} : { "idempotency-key": key }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
      ...(keepalive ? { keepalive } : {}),
    });
  } catch (e) {
    if (signal?.aborted) throw e; // the caller gave up on it: not a network failure
    throw new ApiFailure(0, "network", "network error", undefined);
  }
  const text = await res.text();
  let json: unknown = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    // Not our JSON (a proxy's error page, say): the status says what happened.
    throw new ApiFailure(res.status, "http", res.statusText, undefined);
  }
  if (!res.ok) {
    const e = (json as { error?: { code?: string; message?: string; clause?: string } }).error ?? {};
    throw new ApiFailure(res.status, e.code ?? "http", e.message ?? res.statusText, e.clause);
  }
  if (method !== "GET" && path.startsWith("/api/games/")) gameWritten();
  // Issue 32: offline, the service worker answers a game's reads from the copy it saved (sw.ts).
  else if (path.startsWith("/api/games/")) fromSavedCopy = res.headers.has("x-saved-copy");
  return json as T;
}

/** Whether the last read of a game came from the service worker's saved copy (issue 32). */
let fromSavedCopy = false;
export const savedCopy = (): boolean => fromSavedCopy;

/**
 * Issue 32: a command to a game was accepted (a move, a vote, a post, a message, a GM's decision): what the
 * user owes may have changed, so «Мои игры» and the reminders look again (reminders.tsx listens).
 */
const writeListeners = new Set<() => void>();
export function onGameWrite(listener: () => void): () => void {
  writeListeners.add(listener);
  return () => void writeListeners.delete(listener);
}
function gameWritten(): void {
  writeListeners.forEach((l) => l());
}

const g = (id: string): string => `/api/games/${encodeURIComponent(id)}`;
/** Issue 18: a notebook's routes. */
const nb = (id: string): string => `/api/notebooks/${encodeURIComponent(id)}`;

export const api = {
  /** Who is logged in: null for a guest (a 200, so a guest's first visit logs no error). */
  me: () => call<{ user: UserView | null }>("GET", "/api/me"),
  register: (nick: string, password: string, timeZone?: string) =>
    call<{ user: UserView }>("POST", "/api/register", { nick, password, ...(timeZone ? { timeZone } : {}) }),
  login: (nick: string, password: string) =>
    call<{ user: UserView }>("POST", "/api/login", { nick, password }),
  logout: () => call<unknown>("POST", "/api/logout"),
  profile: (change: { timeZone?: string; lang?: Lang }) =>
    call<{ user: UserView }>("PATCH", "/api/me", change),

  /** Issue 15: «Мои игры», the settings, read marks and profiles. */
  myGames: (lang: Lang) => call<MyGames>("GET", `/api/me/games?lang=${lang}`),
  settings: () => call<MySettings>("GET", "/api/me/settings"),
  saveSettings: (body: SettingsBody) => call<MySettings>("PUT", "/api/me/settings", body),
  markRead: (id: string, body: ReadBody) => call<unknown>("PUT", `${g(id)}/read`, body),
  userProfile: (nick: string, lang: Lang) =>
    call<ProfileView>("GET", `/api/users/${encodeURIComponent(nick)}?lang=${lang}`),

  /** Issue 17: a setup's balance from bot games; a newer setup aborts the older request (`signal`). */
  estimate: (setup: Setup, signal?: AbortSignal) =>
    call<BalanceEstimate>("POST", "/api/setups/estimate", setup, signal ? { signal } : {}),
  /** Issue 17: the GM's saved setups; saving under a name already used replaces that one. */
  mySetups: (lang: Lang) => call<MySetups>("GET", `/api/me/setups?lang=${lang}`),
  saveSetup: (name: string, setup: Setup) => call<SavedSetup>("POST", "/api/me/setups", { name, setup }),
  deleteSetup: (id: string) => call<unknown>("DELETE", `/api/me/setups/${encodeURIComponent(id)}`),

  games: () => call<{ games: GameSummary[] }>("GET", "/api/games"),
  createGame: (body: CreateGameBody) => call<{ id: string }>("POST", "/api/games", body),
  demo: (minutes?: number) => call<{ id: string }>("POST", "/api/demo", minutes ? { minutes } : {}),
  game: (id: string, lang: Lang) => call<GameDetail>("GET", `${g(id)}?lang=${lang}`),
  signup: (id: string) => call<unknown>("POST", `${g(id)}/signup`, undefined, { retry: true }),
  withdraw: (id: string) => call<unknown>("DELETE", `${g(id)}/signup`, undefined, { retry: true }),
  start: (id: string, body: StartBody) => call<unknown>("POST", `${g(id)}/start`, body),

  act: (id: string, body: ActionBody) => call<unknown>("POST", `${g(id)}/actions`, body, { retry: true }),
  vote: (id: string, body: VoteBody) => call<unknown>("POST", `${g(id)}/votes`, body, { retry: true }),
  /** `seat`: only that player's posts («Посты игрока»); `total` then counts only theirs. */
  posts: (id: string, after: number, limit: number, seat?: number) =>
    call<{ posts: PostView[]; total: number }>(
      "GET",
      `${g(id)}/posts?after=${after}&limit=${limit}${seat === undefined ? "" : `&seat=${seat}`}`,
    ),
  /**
   * The thread's first page for the game page's first load, fetched alongside the detail (issue 32): with
   * `streamAt`, the asker's stream length when the page was read.
   */
  thread: (id: string, limit: number) =>
    call<{ posts: PostView[]; total: number; streamAt: number }>(
      "GET",
      `${g(id)}/posts?after=0&limit=${limit}&stream=1`,
    ),
  /** `keepalive`: the request outlives the page (a held vote sent as the page closes). */
  post: (id: string, text: string, keepalive = false) =>
    call<{ id: string }>("POST", `${g(id)}/posts`, { text }, { keepalive, retry: true }),
  /** What a draft post would count as (a vote, a refusal, coloured text that names nobody); stores nothing. */
  preview: (id: string, text: string, signal?: AbortSignal) =>
    call<PostPreview>("POST", `${g(id)}/posts/preview`, { text }, signal ? { signal } : {}),
  channel: (id: string, channel: ChannelId) =>
    call<ChannelView>("GET", `${g(id)}/channels/${encodeURIComponent(channel)}`),
  message: (id: string, channel: ChannelId, text: string) =>
    call<unknown>("POST", `${g(id)}/channels/${encodeURIComponent(channel)}`, { text }, { retry: true }),
  /** G5 (issue 31): whether a chat message's draft holds мат or an insult, and the words; stores nothing. */
  textCheck: (text: string, signal?: AbortSignal) =>
    call<TextCheck>("POST", "/api/text/check", { text }, signal ? { signal } : {}),

  gm: {
    draft: (id: string, lang: Lang) => call<NightDraft>("GET", `${g(id)}/gm/draft?lang=${lang}`),
    extend: (id: string, minutes: number) => call<unknown>("POST", `${g(id)}/gm/extend`, { minutes }),
    close: (id: string) => call<unknown>("POST", `${g(id)}/gm/close`),
    pause: (id: string) => call<unknown>("POST", `${g(id)}/gm/pause`),
    resume: (id: string) => call<unknown>("POST", `${g(id)}/gm/resume`),
    /** M2c, F2: `reason` is needed when the answer differs from the rules' answer to a listed question. */
    council: (id: string, answer: "yes" | "no" | "rejected", reason?: string) =>
      call<unknown>("POST", `${g(id)}/gm/council`, reason === undefined ? { answer } : { answer, reason }),
    rolls: (id: string, body: RollsBody) => call<unknown>("POST", `${g(id)}/gm/rolls`, body),
    reopenMafia: (id: string, reason: string) =>
      call<unknown>("POST", `${g(id)}/gm/reopen-mafia`, { reason }),
    publish: (id: string) => call<unknown>("POST", `${g(id)}/gm/publish`),
    modkill: (id: string, body: ModkillBody) => call<unknown>("POST", `${g(id)}/gm/modkill`, body),
    replace: (id: string, body: ReplaceBody) => call<unknown>("POST", `${g(id)}/gm/replace`, body),
    hide: (id: string, postId: string, reason: string) =>
      call<unknown>("POST", `${g(id)}/posts/${encodeURIComponent(postId)}/hide`, { reason }),
    restore: (id: string, postId: string, reason: string) =>
      call<unknown>("POST", `${g(id)}/posts/${encodeURIComponent(postId)}/restore`, { reason }),
    /** G5, F2 (issue 31): the GM's measure on a flagged post or chat message, with a reason. */
    measure: (id: string, flagId: string, measure: FlagMeasure, reason: string) =>
      call<unknown>("POST", `${g(id)}/gm/flags/${encodeURIComponent(flagId)}`, { measure, reason }),
  },

  /** The GM tools for games on other forums (issue 6); no login needed. */
  tools: {
    /** The thread as JSON posts (`thread`) or as copied from the forum page (`paste`, issue 18). */
    voteCount: (body: {
      players: string;
      gm?: string;
      day?: number;
      silenced: string[];
      thread?: unknown;
      paste?: { html?: string; text?: string; file?: string };
    }) => call<VoteCountResult>("POST", "/api/tools/votecount", body),
    /** What a pasted thread holds (posts, authors, engine), before counting; the server stores nothing. */
    thread: (body: { players?: string; paste: { html?: string; text?: string; file?: string } }) =>
      call<import("@forum-mafia/protocol").PasteFound>("POST", "/api/tools/thread", body),
    results: (replay: unknown, lang: Lang) =>
      call<{ post: string }>("POST", "/api/tools/results", { replay, lang }),
  },

  /** Issue 18: the GM's notebooks for games kept on their own forum (private to the GM: 404 to anyone else). */
  notebooks: {
    list: (lang: Lang) => call<NotebookSummary[]>("GET", `/api/notebooks?lang=${lang}`),
    create: (body: CreateNotebookBody, lang: Lang) =>
      call<NotebookView>("POST", `/api/notebooks?lang=${lang}`, body),
    get: (id: string, lang: Lang) => call<NotebookView>("GET", `${nb(id)}?lang=${lang}`),
    remove: (id: string) => call<unknown>("DELETE", nb(id)),
    /** A POST to one of the notebook's routes (`actions`, `votes`, `thread`, …); answers the new view. */
    post: (id: string, route: NotebookRoute, body: unknown, lang: Lang) =>
      call<NotebookView>("POST", `${nb(id)}/${route}?lang=${lang}`, body),
    replayUrl: (id: string) => `${nb(id)}/replay`,
    /** F1, F2: a published notebook (the replay file, the seed, the corrections), to anyone. */
    published: (id: string) => call<PublishedNotebook>("GET", `${nb(id)}/published`),
  },

  log: (id: string, lang: Lang) => call<GameLog>("GET", `${g(id)}/log?lang=${lang}`),
  replayUrl: (id: string) => `${g(id)}/replay`,
  streamUrl: (id: string, after: number, lang: Lang) => `${g(id)}/stream?after=${after}&lang=${lang}`,
};
