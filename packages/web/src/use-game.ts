import type { GameDetail, Lang, PostView, ReadBody } from "@forum-mafia/protocol";
import { applyStreamItem, type StreamItem } from "@forum-mafia/protocol/stream";
import { isOwnItem, unreadAfter } from "@forum-mafia/protocol/unread";
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { api } from "./api.ts";
import { takeEarly, THREAD_PAGE, type EarlyGame } from "./early.ts";

/** Where a read mark goes: the thread or one channel. */
export type ReadPlace = ReadBody["where"];

/** What the viewer has not read here, kept live (issue 15). One's own posts and messages never count. */
export interface Unread {
  readonly thread: number;
  /** By channel id; a channel missing here has nothing unread. */
  readonly channels: Readonly<Record<string, number>>;
  readonly chats: number;
  readonly total: number;
  /**
   * The first post that was unread when the page opened, where «Новое с прошлого визита» stands; it stays
   * there while the reader reads on. Null on a first visit or with nothing new.
   */
  readonly firstNewId: string | null;
}

export interface GameData {
  readonly detail: GameDetail | null;
  /** The whole thread, oldest first. */
  readonly posts: readonly PostView[];
  readonly error: unknown;
  /** Whether the live stream is connected. */
  readonly live: boolean;
  /**
   * Fetch the game again now: for a change the live stream does not bring (read marks made elsewhere, one's
   * own place in the signups before the start). The stream brings the effect of one's own vote, post,
   * night action or message: nothing needs to fetch after them.
   */
  readonly refresh: () => void;
  /** Whether the whole thread has been fetched. */
  readonly loaded: boolean;
  /** Null for a guest, or where the server keeps no read marks. */
  readonly unread: Unread | null;
  /** The viewer has seen the first `upTo` items of `where`: sent to the server a moment later, once. */
  readonly markRead: (where: ReadPlace, upTo: number) => void;
}

/** How long a failed load waits before it is tried again, doubling up to the last. */
const RETRY_MS = [2_000, 4_000, 8_000, 16_000, 30_000] as const;
const backoff = (n: number): number => RETRY_MS[Math.min(n, RETRY_MS.length - 1)] ?? RETRY_MS[0];

/** Where the page's copy of a game goes: React's state. */
interface Sink {
  readonly detail: (d: GameDetail) => void;
  readonly posts: (p: readonly PostView[]) => void;
  readonly live: (live: boolean) => void;
  readonly error: (e: unknown) => void;
  readonly loaded: () => void;
}

/**
 * How the page's copy is brought back in step with the server:
 * - `initial`: the detail, then the whole thread, then the stream from the detail's `streamAt`;
 * - `renumbered` (`event: reset`, a gap in the ids, an item this client cannot read): the viewer's stream
 *   starts again, so its old ids mean nothing: the detail, the thread after the posts held, then the stream
 *   from the new `streamAt`;
 * - `reopen` (another language): the stream is closed, the detail fetched in the new language, and the
 *   stream opened again from the earlier of the last id received and the new `streamAt`;
 * - `keep` (a refresh asked for, or an item `applyStreamItem` cannot apply): the stream stays open and its
 *   items wait until the fresh detail is in, then those after its `streamAt` are applied.
 */
type Resync = "initial" | "renumbered" | "reopen" | "keep";

/**
 * One game page's copy of a game, kept live outside React's renders, so each stream item is checked and
 * applied in the order it came, once (issue 19). Items change the detail through the protocol's
 * `applyStreamItem`; posts are kept by id, so a post received twice shows once.
 *
 * Ids: `seen` is the last id received in the current numbering; the detail holds the items up to its
 * `streamAt`. An item at or below `seen` is a repeat and is ignored; one beyond `seen + 1` is a gap. An item
 * at or below the detail's `streamAt` (after a reload from an earlier point) only updates the posts.
 */
class LiveGame {
  private detail: GameDetail | null = null;
  private posts: readonly PostView[] = [];
  private seen = 0;
  private source: EventSource | null = null;
  /** Bumped by every reload: what an older one fetched arrives too late and is dropped. */
  private run = 0;
  /** While a `keep` reload runs: the items received meanwhile, and the id the fresh detail must reach. */
  private paused: { upTo: number; items: { id: number; data: string }[] } | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  /** Gaps in a row, each followed by a fresh start: the next one waits longer. */
  private gaps = 0;
  private stopped = false;

  constructor(
    private readonly id: string,
    private lang: Lang,
    private nick: string | null,
    private readonly out: Sink,
  ) {}

  start(): void {
    void this.reload("initial");
  }

  stop(): void {
    this.stopped = true;
    this.run++;
    this.close();
    if (this.retry !== null) clearTimeout(this.retry);
  }

  /** The texts change with the language: the detail is fetched again, the stream opened in it. */
  setLang(lang: Lang): void {
    if (lang === this.lang) return;
    this.lang = lang;
    void this.reload(this.detail === null ? "initial" : "reopen");
  }

  /** The signed-in user's nick: `applyStreamItem` finds their place in the signups by it. */
  setNick(nick: string | null): void {
    this.nick = nick;
  }

  refresh(): void {
    void this.reload(this.detail === null ? "initial" : "keep");
  }

  private async reload(mode: Resync): Promise<void> {
    if (this.stopped) return;
    const run = ++this.run;
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    const keep = mode === "keep" && this.source !== null && this.source.readyState === EventSource.OPEN;
    if (keep) this.paused ??= { upTo: this.seen, items: [] };
    else {
      this.close();
      this.paused = null;
    }
    const lang = this.lang;
    let fresh: GameDetail;
    // Where the stream starts: the detail's `streamAt`, or earlier if the thread was read before it.
    let from: number;
    try {
      // After a reset the whole thread again: a post hidden while the stream was cut off is only known from
      // it. Fetched alongside the detail (issue 32): the thread's own `streamAt` says how far it reaches.
      // The first load takes what the app asked for as it started, if it did (early.ts).
      const early = mode === "initial" ? takeEarly(this.id, lang) : null;
      const thread = mode === "initial" || mode === "renumbered" ? this.loadThread(run, early) : null;
      // Not left unhandled while the detail is awaited: its failure is caught below, when awaited.
      thread?.catch(() => undefined);
      fresh = await (early?.detail ?? api.game(this.id, lang));
      if (run !== this.run) return;
      const at = fresh.summary.status === "signup" ? null : await thread;
      if (run !== this.run) return;
      from = Math.min(fresh.streamAt, at ?? fresh.streamAt);
    } catch (e) {
      if (run !== this.run) return;
      this.out.error(e);
      if (keep) this.resume();
      // Without a stream nothing would ever come: try again a moment later (a refresh tries at once).
      else this.retry = setTimeout(() => void this.reload(mode), backoff(this.failures++));
      return;
    }
    if (run !== this.run) return;
    this.out.error(null);
    this.setDetail(fresh);
    if (mode === "initial") this.out.loaded();
    const at = fresh.streamAt;
    if (keep) {
      const paused = this.paused!;
      this.paused = null;
      if (at >= paused.upTo) {
        // The items that came meanwhile: those the detail already holds only update the posts.
        this.drain(paused.items);
        return;
      }
      // The fresh detail is behind what the stream gave: the stream starts again from it.
      this.close();
      this.open(at);
      return;
    }
    // The same numbering (another language, a refresh while the stream was down): from the earlier point,
    // so no post in between is missed; a new numbering starts at the detail, or at the thread if it was
    // read first (the items up to the detail's `streamAt` then only update the posts).
    this.open(mode === "initial" || mode === "renumbered" ? from : Math.min(this.seen, at));
  }

  /** A `keep` reload failed: the items held back go to the detail the page still has. */
  private resume(): void {
    const paused = this.paused;
    this.paused = null;
    this.drain(paused?.items ?? []);
  }

  /**
   * Items held back, in order, as if they came now: one of them may start another reload, after which the
   * rest wait again (a refresh) or are dropped with their stream (a new one sends them again).
   */
  private drain(items: readonly { id: number; data: string }[]): void {
    const source = this.source;
    for (const x of items) {
      if (this.source !== source) return;
      this.take(x.id, x.data);
    }
  }

  /** An item from the stream: held back while a refresh is under way, else applied. */
  private take(id: number, data: string): void {
    if (this.paused) this.paused.items.push({ id, data });
    else this.receive(id, data);
  }

  /**
   * The whole thread, a page at a time: the first tells how many there are and where the asker's stream
   * stood when it was read, the rest come at once. Resolves to that stream position, once the posts are in.
   */
  private async loadThread(run: number, early: EarlyGame | null): Promise<number> {
    const first = await (early?.thread ?? api.thread(this.id, THREAD_PAGE));
    const rest: Promise<{ posts: PostView[] }>[] = [];
    for (let after = THREAD_PAGE; after < first.total; after += THREAD_PAGE)
      rest.push(api.posts(this.id, after, THREAD_PAGE));
    const pages = await Promise.all(rest);
    if (run === this.run) this.upsert([...first.posts, ...pages.flatMap((p) => p.posts)]);
    return first.streamAt;
  }

  private open(after: number): void {
    this.seen = after;
    const source = new EventSource(api.streamUrl(this.id, after, this.lang));
    this.source = source;
    source.onopen = () => {
      if (this.source !== source) return;
      this.failures = 0;
      this.out.live(true);
    };
    source.onerror = () => {
      if (this.source !== source) return;
      this.out.live(false);
      // The browser tries again by itself (with Last-Event-ID) unless the server refused the stream.
      if (source.readyState === EventSource.CLOSED)
        this.retry = setTimeout(() => void this.reload("reopen"), backoff(this.failures++));
    };
    source.onmessage = (ev: MessageEvent<string>) => {
      if (this.source !== source) return;
      this.take(Number(ev.lastEventId), ev.data);
    };
    // The viewer's numbering no longer applies (a seat changed, the end, a channel opened to the viewer,
    // a client too far behind). Closed here, before the browser would reconnect with the old numbering.
    source.addEventListener("reset", () => {
      if (this.source === source) void this.reload("renumbered");
    });
  }

  private close(): void {
    this.source?.close();
    this.source = null;
    this.out.live(false);
  }

  /** One item of the stream, in the order it came. */
  private receive(id: number, data: string): void {
    if (!Number.isSafeInteger(id) || id <= this.seen) return; // a repeat
    if (id !== this.seen + 1) {
      // A gap: something was missed. Fetched again at once the first time; if the stream keeps skipping,
      // a moment later each time, so a broken stream never turns into a loop of requests.
      const wait = this.gaps === 0 ? 0 : backoff(this.gaps - 1);
      this.gaps++;
      this.close();
      if (wait === 0) void this.reload("renumbered");
      else this.retry = setTimeout(() => void this.reload("renumbered"), wait);
      return;
    }
    this.gaps = 0;
    let item: StreamItem;
    try {
      item = JSON.parse(data) as StreamItem;
    } catch {
      void this.reload("renumbered");
      return;
    }
    this.seen = id;
    if (item.type === "post") this.upsert([item.post]);
    else if (item.type === "postHidden") {
      const hidden = item;
      this.setPosts(
        this.posts.map((p) =>
          p.id === hidden.id ? { ...p, html: "", hidden: { reason: hidden.reason } } : p,
        ),
      );
    }
    const d = this.detail;
    if (d === null || id <= d.streamAt) return;
    let next: GameDetail | null;
    try {
      next = applyStreamItem(d, id, item, this.nick);
    } catch {
      // An item of a kind this client does not know: start again from the server's detail.
      void this.reload("renumbered");
      return;
    }
    // The channels the viewer belongs to changed: their history comes with the detail.
    if (next === null) void this.reload("keep");
    else if (next !== d) this.setDetail(next);
  }

  private upsert(batch: readonly PostView[]): void {
    const old = this.posts;
    const index = new Map(old.map((p, i) => [p.id, i]));
    let next: PostView[] | null = null;
    for (const p of batch) {
      const i = index.get(p.id);
      next ??= old.slice();
      if (i === undefined) {
        index.set(p.id, next.length);
        next.push(p);
      } else next[i] = p;
    }
    if (next) this.setPosts(next);
  }

  private setPosts(posts: readonly PostView[]): void {
    this.posts = posts;
    this.out.posts(posts);
  }

  private setDetail(d: GameDetail): void {
    this.detail = d;
    this.out.detail(d);
  }
}

/**
 * A game as the viewer may see it, kept live: the detail and the thread are fetched once, then the
 * viewer's own stream (server-sent events, from the detail's `streamAt`) brings what changed, which is
 * applied to them (issue 19). The detail is fetched again only when the stream says its numbering no
 * longer applies (`event: reset`), on a gap in its ids, in another language, and when `refresh` asks.
 */
export function useGame(id: string, lang: Lang, nick: string | null): GameData {
  const [detail, setDetail] = useState<GameDetail | null>(null);
  const [posts, setPosts] = useState<readonly PostView[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [live, setLive] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const game = useRef<LiveGame | null>(null);
  const first = useRef({ lang, nick });
  first.current = { lang, nick };

  useEffect(() => {
    setDetail(null);
    setPosts([]);
    setLive(false);
    setLoaded(false);
    setError(null);
    // Issue 32: the game's data renders as a transition, which React renders in slices between which the
    // browser may respond: the first render of a game page was one task of up to a second on a slow phone.
    const g = new LiveGame(id, first.current.lang, first.current.nick, {
      detail: (d) => startTransition(() => setDetail(d)),
      posts: (p) => startTransition(() => setPosts(p)),
      live: (l) => startTransition(() => setLive(l)),
      error: setError,
      loaded: () => startTransition(() => setLoaded(true)),
    });
    game.current = g;
    g.start();
    return () => {
      g.stop();
      if (game.current === g) game.current = null;
    };
  }, [id]);

  useEffect(() => game.current?.setLang(lang), [lang]);
  useEffect(() => game.current?.setNick(nick), [nick]);

  const refresh = useCallback(() => game.current?.refresh(), []);

  // Back on the page (another tab, a phone woken up): what was read elsewhere meanwhile comes with the detail.
  useEffect(() => {
    const onShow = () => {
      if (document.visibilityState === "visible") refresh();
    };
    document.addEventListener("visibilitychange", onShow);
    return () => document.removeEventListener("visibilitychange", onShow);
  }, [refresh]);

  const { unread, markRead } = useUnread(id, detail, posts, loaded, nick);
  return useMemo(
    () => ({ detail, posts, error, live, refresh, loaded, unread, markRead }),
    [detail, posts, error, live, refresh, loaded, unread, markRead],
  );
}

/** How long the page waits for the stream to show one's own change before it lets the control go again. */
const ARRIVAL_MS = 5_000;

/**
 * After a change of the viewer's own is answered (a post, a vote, a night action, a message), until the
 * stream brings it (a few milliseconds): `wait(arrived)` starts waiting, and `waiting` stays true until
 * `arrived(game)` holds, so a control that would act on what the page does not show yet stays disabled.
 * It gives up after a few seconds: a stream that is down must not lock the page (the change comes when it
 * reconnects).
 */
export function useArrival(game: GameData): {
  readonly waiting: boolean;
  readonly wait: (arrived: (game: GameData) => boolean) => void;
} {
  const [pending, setPending] = useState<{ readonly arrived: (game: GameData) => boolean } | null>(null);
  useEffect(() => {
    if (pending?.arrived(game)) setPending(null);
  }, [pending, game]);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setPending(null), ARRIVAL_MS);
    return () => clearTimeout(timer);
  }, [pending]);
  const wait = useCallback((arrived: (game: GameData) => boolean) => setPending({ arrived }), []);
  return { waiting: pending !== null, wait };
}

/** How long read marks gather before one request carries them: scrolling through twenty posts sends one. */
const MARK_DELAY_MS = 1_000;

/**
 * The unread counts, worked out here from the server's read marks (GameDetail.unread) and the marks this
 * page has made since, over the posts and messages the page holds: a post from the stream counts at once,
 * without waiting for the next detail. Marks only move forward, here as on the server.
 */
function useUnread(
  id: string,
  detail: GameDetail | null,
  posts: readonly PostView[],
  loaded: boolean,
  nick: string | null,
): { unread: Unread | null; markRead: (where: ReadPlace, upTo: number) => void } {
  const [local, setLocal] = useState<Readonly<Record<string, number>>>({});
  const [firstNew, setFirstNew] = useState<{ game: string; id: string | null } | null>(null);
  const server = detail?.unread ?? null;
  const gm = detail?.me.kind === "gm";

  const markOf = useCallback(
    (where: string): number => {
      const theirs =
        where === "thread" ? server?.thread.readUpTo : server?.channels.find((c) => c.id === where)?.readUpTo;
      return Math.max(theirs ?? 0, local[where] ?? 0);
    },
    [server, local],
  );

  // The line's place is taken once, from the marks the page opened with.
  useEffect(() => {
    if (!loaded || !server || nick === null || firstNew?.game === id) return;
    const mark = server.thread.readUpTo;
    const first = mark > 0 ? posts.slice(mark).find((p) => !isOwnItem(p, nick, gm)) : undefined;
    setFirstNew({ game: id, id: first?.id ?? null });
  }, [loaded, server, nick, gm, posts, id, firstNew]);

  const unread = useMemo((): Unread | null => {
    if (!server || nick === null) return null;
    const thread = loaded ? unreadAfter(posts, markOf("thread"), nick, gm) : server.thread.unread;
    const channels: Record<string, number> = {};
    let chats = 0;
    for (const c of detail?.channels ?? []) {
      if (!server.channels.some((u) => u.id === c.id)) continue;
      const n = unreadAfter(c.messages, markOf(c.id), nick, gm);
      channels[c.id] = n;
      chats += n;
    }
    const firstNewId = firstNew?.game === id ? firstNew.id : null;
    return { thread, channels, chats, total: thread + chats, firstNewId };
  }, [server, nick, loaded, posts, markOf, gm, detail, firstNew, id]);

  const markRead = useMarkRead(id, markOf, setLocal, server !== null && nick !== null);
  return { unread, markRead };
}

/** Marks gathered for a moment, then sent: one request per place with the furthest mark. */
function useMarkRead(
  id: string,
  markOf: (where: string) => number,
  setLocal: (f: (old: Readonly<Record<string, number>>) => Readonly<Record<string, number>>) => void,
  enabled: boolean,
): (where: ReadPlace, upTo: number) => void {
  const pending = useRef(new Map<ReadPlace, number>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const state = useRef({ markOf, enabled });
  state.current = { markOf, enabled };

  const flush = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    const marks = [...pending.current];
    pending.current.clear();
    // A lost mark costs nothing lasting: the count comes back with the next detail, and the next mark,
    // which is further on, covers it.
    for (const [where, upTo] of marks) api.markRead(id, { where, upTo }).catch(() => undefined);
  }, [id]);

  // Leaving the game page or the browser tab sends what is gathered at once.
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === "hidden") flush();
    };
    document.addEventListener("visibilitychange", onHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      flush();
    };
  }, [flush]);

  return useCallback(
    (where: ReadPlace, upTo: number) => {
      const { markOf, enabled } = state.current;
      if (!enabled || upTo <= markOf(where) || upTo <= (pending.current.get(where) ?? 0)) return;
      pending.current.set(where, upTo);
      // The counts follow as a transition: marking the posts that scroll into view redraws the whole page.
      startTransition(() => setLocal((old) => ({ ...old, [where]: Math.max(old[where] ?? 0, upTo) })));
      if (timer.current === null) timer.current = setTimeout(flush, MARK_DELAY_MS);
    },
    [flush, setLocal],
  );
}

/** Whether the page is in front of the user (not a background tab, not a locked phone). */
export function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState === "visible");
  useEffect(() => {
    const on = () => setVisible(document.visibilityState === "visible");
    document.addEventListener("visibilitychange", on);
    return () => document.removeEventListener("visibilitychange", on);
  }, []);
  return visible;
}
