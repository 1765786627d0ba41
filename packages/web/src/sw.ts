/// <reference lib="webworker" />
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";

/**
 * Issue 32: the service worker. It keeps the app's shell (the index and the hashed files of the build,
 * precached by workbox from the build's list) and the last game read, so a player can reread it offline.
 *
 * Never across users or sessions: every API answer names its session in `X-Session-Tag` (the server's
 * session-tag.ts; `guest` without one). The saved game is stored with its tag, and any answer with another
 * tag (a login, a logout, another user, a new session) deletes it before anything else happens. Offline, the
 * saved game is served only while no other tag has been seen since. Nothing else of the API is stored: not
 * the live stream, not /api/me…, not a write.
 */
declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

const TAG_HEADER = "x-session-tag";
/** On an answer served from the saved copy: the app says it shows a saved copy. */
const SAVED_HEADER = "x-saved-copy";
/** The one cache of the last game read; its entry at META holds `{ tag, game }`. */
const GAME_CACHE = "last-game";
const META = new URL("/__last-game", self.location.origin).href;

interface Meta {
  readonly tag: string;
  readonly game: string | null;
}

void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();

/** The game a read of the game page is about: its detail, a page of its thread, a chat; else null. */
function gameOf(url: URL): string | null {
  if (url.origin !== self.location.origin) return null;
  const m = /^\/api\/games\/([^/]+)(?:\/posts|\/channels\/[^/]+)?$/.exec(url.pathname);
  return m ? m[1]! : null;
}

/** The saved game's tag and id, or null when nothing is saved. */
async function readMeta(cache: Cache): Promise<Meta | null> {
  const res = await cache.match(META);
  if (!res) return null;
  try {
    const m = (await res.json()) as Partial<Meta>;
    return typeof m.tag === "string"
      ? { tag: m.tag, game: typeof m.game === "string" ? m.game : null }
      : null;
  } catch {
    return null;
  }
}

const writeMeta = (cache: Cache, m: Meta): Promise<void> =>
  cache.put(META, new Response(JSON.stringify(m), { headers: { "content-type": "application/json" } }));

/** One change of the saved game at a time, in the order the answers came. */
let queue: Promise<unknown> = Promise.resolve();
function serial<T>(job: () => Promise<T>): Promise<T> {
  const next = queue.then(job);
  queue = next.catch(() => undefined);
  return next;
}

/**
 * An answer of the API came with `tag`: if it is not the saved game's, the saved game goes first. The tag is
 * kept, so a game saved under another one later is told apart.
 */
async function seen(tag: string): Promise<Cache> {
  let cache = await caches.open(GAME_CACHE);
  const meta = await readMeta(cache);
  if (meta !== null && meta.tag === tag) return cache;
  if (meta !== null) {
    await caches.delete(GAME_CACHE);
    cache = await caches.open(GAME_CACHE);
  }
  await writeMeta(cache, { tag, game: null });
  return cache;
}

/** A good answer about `game`: saved in place of any other game's. */
async function save(game: string, tag: string, request: Request, response: Response): Promise<void> {
  let cache = await seen(tag);
  const meta = await readMeta(cache);
  if (meta?.game !== game) {
    if (meta?.game) {
      await caches.delete(GAME_CACHE);
      cache = await caches.open(GAME_CACHE);
    }
    await writeMeta(cache, { tag, game });
  }
  await cache.put(request, response);
}

/** The saved answer to `request`, marked as saved, if it is about the saved game. */
async function savedCopy(request: Request, game: string): Promise<Response | null> {
  const cache = await caches.open(GAME_CACHE);
  const meta = await readMeta(cache);
  if (meta === null || meta.game !== game) return null;
  const res = await cache.match(request);
  if (!res) return null;
  const headers = new Headers(res.headers);
  headers.set(SAVED_HEADER, "1");
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/** Sends `request` on and notes its answer's tag. */
async function passOn(request: Request): Promise<Response> {
  const res = await fetch(request);
  const tag = res.headers.get(TAG_HEADER);
  if (tag) await serial(() => seen(tag));
  return res;
}

// Pages: from the server; offline, the app's shell (its router shows the page).
registerRoute(
  ({ request, url }) => request.mode === "navigate" && !url.pathname.startsWith("/api/"),
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch (e) {
      const shell = await matchPrecache("/index.html");
      if (shell) return shell;
      throw e;
    }
  },
);

// A game's reads: from the network first, the good answer saved; offline, the saved copy.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && gameOf(url) !== null,
  async ({ request, url }) => {
    const game = gameOf(url)!;
    let res: Response;
    try {
      res = await fetch(request);
    } catch (e) {
      const saved = await serial(() => savedCopy(request, game));
      if (saved) return saved;
      throw e;
    }
    const tag = res.headers.get(TAG_HEADER);
    if (tag) {
      const copy = res.ok ? res.clone() : null;
      await serial(async () => void (copy ? await save(game, tag, request, copy) : await seen(tag)));
    }
    return res;
  },
);

// Every other read of the API, and the answers that change the session: only their tag is looked at. The
// live stream is left alone (it goes to the network as if there were no worker), and so are the writes.
registerRoute(
  ({ url, sameOrigin }) =>
    sameOrigin && url.pathname.startsWith("/api/") && !url.pathname.endsWith("/stream"),
  ({ request }) => passOn(request),
);
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && /^\/api\/(login|register|logout)$/.test(url.pathname),
  ({ request }) => passOn(request),
  "POST",
);

precacheAndRoute(self.__WB_MANIFEST);
