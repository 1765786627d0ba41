import type { FeedItem, GameDetail, Lang, PostView } from "@forum-mafia/protocol";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "./api.ts";

export interface GameData {
  readonly detail: GameDetail | null;
  /** The whole thread, oldest first. */
  readonly posts: readonly PostView[];
  readonly error: unknown;
  /** Whether the live stream is connected. */
  readonly live: boolean;
  /** Fetch the game again now (after an action of the viewer's own, say). */
  readonly refresh: () => void;
}

const PAGE = 500;

/**
 * A game as the viewer may see it, kept live: the detail and the thread are fetched once, then the
 * viewer's own stream (server-sent events, resumed from the detail's `streamAt`) brings each post as
 * it is written and tells when anything else changed, which refetches the detail. Posts are kept by id,
 * so an item that arrives twice (a fetch and the stream overlapping) shows once.
 */
export function useGame(id: string, lang: Lang): GameData {
  const [detail, setDetail] = useState<GameDetail | null>(null);
  const [posts, setPosts] = useState<readonly PostView[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [live, setLive] = useState(false);
  const [epoch, setEpoch] = useState(0);
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

  return { detail, posts, error, live, refresh };
}
