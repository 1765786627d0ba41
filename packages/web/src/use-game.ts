import type { FeedItem, GameDetail, Lang, PostView, ReadBody } from "@forum-mafia/protocol";
import { isOwnItem, unreadAfter } from "@forum-mafia/protocol/unread";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { api } from "./api.ts";

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
  /** Fetch the game again now (after an action of the viewer's own, say). */
  readonly refresh: () => void;
  /** Whether the whole thread has been fetched. */
  readonly loaded: boolean;
  /** Null for a guest, or where the server keeps no read marks. */
  readonly unread: Unread | null;
  /** The viewer has seen the first `upTo` items of `where`: sent to the server a moment later, once. */
  readonly markRead: (where: ReadPlace, upTo: number) => void;
}

const PAGE = 500;

/**
 * A game as the viewer may see it, kept live: the detail and the thread are fetched once, then the
 * viewer's own stream (server-sent events, resumed from the detail's `streamAt`) brings each post as
 * it is written and tells when anything else changed, which refetches the detail. Posts are kept by id,
 * so an item that arrives twice (a fetch and the stream overlapping) shows once.
 */
export function useGame(id: string, lang: Lang, nick: string | null): GameData {
  const [detail, setDetail] = useState<GameDetail | null>(null);
  const [posts, setPosts] = useState<readonly PostView[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [live, setLive] = useState(false);
  const [epoch, setEpoch] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const fetching = useRef<{ busy: boolean; again: boolean }>({ busy: false, again: false });
  const langRef = useRef(lang);
  langRef.current = lang;

  const refresh = useCallback(() => {
    const f = fetching.current;
    if (f.busy) {
      f.again = true;
      return;
    }
    f.busy = true;
    api.game(id, langRef.current).then(
      (d) => {
        setDetail(d);
        setError(null);
        f.busy = false;
        if (f.again) {
          f.again = false;
          refresh();
        }
      },
      (e: unknown) => {
        setError(e);
        f.busy = false;
      },
    );
  }, [id]);

  // The language changes only the detail's texts.
  useEffect(() => {
    if (detail) refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of language refetches here
  }, [lang]);

  useEffect(() => {
    let stopped = false;
    let source: EventSource | null = null;
    setDetail(null);
    setPosts([]);
    setLive(false);
    setLoaded(false);
    const upsert = (batch: readonly PostView[]) =>
      setPosts((old) => {
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
        return next ?? old;
      });
    (async () => {
      try {
        const d = await api.game(id, langRef.current);
        if (stopped) return;
        setDetail(d);
        // The thread after the detail, so it holds every post up to the detail's stream position: the
        // first page tells how many there are, and the rest come at once, put back in order.
        if (d.summary.status !== "signup") {
          const first = await api.posts(id, 0, PAGE);
          const rest: Promise<{ posts: PostView[] }>[] = [];
          for (let after = PAGE; after < first.total; after += PAGE) rest.push(api.posts(id, after, PAGE));
          const pages = await Promise.all(rest);
          if (stopped) return;
          upsert([...first.posts, ...pages.flatMap((p) => p.posts)]);
        }
        setLoaded(true);
        source = new EventSource(api.streamUrl(id, d.streamAt, langRef.current));
        source.onopen = () => setLive(true);
        source.onerror = () => setLive(false);
        source.onmessage = (ev: MessageEvent<string>) => {
          const item = JSON.parse(ev.data) as FeedItem;
          if (item.type === "post") upsert([item.post]);
          else if (item.type === "postHidden")
            setPosts((old) =>
              old.map((p) => (p.id === item.id ? { ...p, html: "", hidden: { reason: item.reason } } : p)),
            );
          // Everything else changes the detail (a post's vote comes as its own voteCast item right after
          // it); refresh keeps one fetch in flight, so a burst of items costs at most two.
          else refresh();
        };
        // The viewer's seat changed hands (P4) or the stream cannot resume: start again.
        source.addEventListener("reset", () => setEpoch((e) => e + 1));
      } catch (e) {
        if (!stopped) setError(e);
      }
    })();
    return () => {
      stopped = true;
      source?.close();
    };
  }, [id, epoch, refresh]);

  // Back on the page (another tab, a phone woken up): what was read elsewhere meanwhile comes with the detail.
  useEffect(() => {
    const onShow = () => {
      if (document.visibilityState === "visible") refresh();
    };
    document.addEventListener("visibilitychange", onShow);
    return () => document.removeEventListener("visibilitychange", onShow);
  }, [refresh]);

  const { unread, markRead } = useUnread(id, detail, posts, loaded, nick, epoch);
  return { detail, posts, error, live, refresh, loaded, unread, markRead };
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
  epoch: number,
): { unread: Unread | null; markRead: (where: ReadPlace, upTo: number) => void } {
  const [local, setLocal] = useState<Readonly<Record<string, number>>>({});
  const [firstNew, setFirstNew] = useState<{ epoch: number; id: string | null } | null>(null);
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
    if (!loaded || !server || nick === null || firstNew?.epoch === epoch) return;
    const mark = server.thread.readUpTo;
    const first = mark > 0 ? posts.slice(mark).find((p) => !isOwnItem(p, nick, gm)) : undefined;
    setFirstNew({ epoch, id: first?.id ?? null });
  }, [loaded, server, nick, gm, posts, epoch, firstNew]);

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
    const firstNewId = firstNew?.epoch === epoch ? firstNew.id : null;
    return { thread, channels, chats, total: thread + chats, firstNewId };
  }, [server, nick, loaded, posts, markOf, gm, detail, firstNew, epoch]);

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
      setLocal((old) => ({ ...old, [where]: Math.max(old[where] ?? 0, upTo) }));
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
