import type { PostView } from "@forum-mafia/protocol";
import { useEffect, useMemo, useRef, useState } from "react";
import { api } from "../../api.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";

/** «Посты игрока»: whose posts the thread shows alone. */
export interface PostsOf {
  readonly seat: number;
  readonly name: string;
}

export interface PostsOfState {
  /** The player's posts, oldest first: those the server sent, then those that came live since. */
  readonly posts: readonly PostView[];
  readonly loading: boolean;
  readonly error: unknown;
  readonly retry: () => void;
}

const PAGE = 500;

/**
 * One player's posts (GET /api/games/:id/posts?seat=N, in pages like the whole thread), kept live from
 * the thread the page already holds: a post of that seat that arrives later joins the list, and a post
 * hidden since shows hidden. Null while no filter is on.
 */
export function usePostsOf(
  id: string,
  thread: readonly PostView[],
  who: PostsOf | null,
): PostsOfState | null {
  const [fetched, setFetched] = useState<{ seat: number; posts: readonly PostView[] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const seat = who?.seat ?? null;

  useEffect(() => {
    if (seat === null) return;
    let stopped = false;
    setError(null);
    (async () => {
      try {
        const first = await api.posts(id, 0, PAGE, seat);
        const rest: Promise<{ posts: PostView[] }>[] = [];
        for (let after = PAGE; after < first.total; after += PAGE)
          rest.push(api.posts(id, after, PAGE, seat));
        const pages = await Promise.all(rest);
        if (!stopped) setFetched({ seat, posts: [...first.posts, ...pages.flatMap((p) => p.posts)] });
      } catch (e) {
        if (!stopped) setError(e);
      }
    })();
    return () => {
      stopped = true;
    };
  }, [id, seat, attempt]);

  return useMemo(() => {
    if (seat === null) return null;
    const retry = () => setAttempt((a) => a + 1);
    if (fetched?.seat !== seat) return { posts: [], loading: error === null, error, retry };
    const latest = new Map(thread.map((p) => [p.id, p]));
    const have = new Set(fetched.posts.map((p) => p.id));
    const last = fetched.posts.at(-1);
    const from = last ? thread.findIndex((p) => p.id === last.id) + 1 : 0;
    const since = thread.slice(from).filter((p) => p.seat === seat && !have.has(p.id));
    return {
      posts: [...fetched.posts.map((p) => latest.get(p.id) ?? p), ...since],
      loading: false,
      error: null,
      retry,
    };
  }, [seat, fetched, thread, error]);
}

/**
 * The bar above a filtered thread: whose posts these are and how many, and the way back to the whole
 * thread. It takes the focus when the filter is turned on, so a keyboard user lands on it.
 */
export function PostsOfBar(props: { who: PostsOf; state: PostsOfState; onAll: () => void }) {
  const t = useT();
  const { lang } = useLang();
  const w = t.game.postsOf;
  const bar = useRef<HTMLDivElement>(null);
  const { state } = props;
  useEffect(() => {
    bar.current?.focus({ preventScroll: true });
  }, [props.who.seat]);
  return (
    <div ref={bar} className="thread-filter" role="region" aria-label={w.label} tabIndex={-1}>
      <p className="thread-filter-text" role="status">
        {state.loading ? w.loading(props.who.name) : w.heading(props.who.name, state.posts.length)}
      </p>
      <button type="button" onClick={props.onAll}>
        {w.all}
      </button>
      {state.error !== null && (
        <p className="error" role="alert">
          {w.failed} {errorText(state.error, lang)}{" "}
          <button type="button" onClick={state.retry}>
            {t.retry}
          </button>
        </p>
      )}
    </div>
  );
}
