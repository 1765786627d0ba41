import type { GameDetail, PostView } from "@forum-mafia/protocol";
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type RefObject,
} from "react";
import { api } from "../../api.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";
import { Link } from "../../router.tsx";
import { useSession } from "../../session.tsx";
import type { GameData } from "../../use-game.ts";
import { formatMoment } from "../../time.ts";
import { voteHtml } from "../../vote-words.ts";
import { Composer, postBlock, type ComposerHandle } from "./composer.tsx";
import { PostsOfBar, usePostsOf, type PostsOf } from "./posts-of.tsx";
import "./g5.css";

/**
 * A post's plain text, for a quote: the safe HTML parsed in a detached document, never run. The quotes
 * inside it are left out (a quote of a quote only repeats) and so are the spoilers' "Спойлер" heads.
 */
export function plainText(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  doc.querySelectorAll("blockquote, summary").forEach((el) => el.remove());
  doc.querySelectorAll("br").forEach((br) => br.replaceWith("\n"));
  return (doc.body.textContent ?? "").trim();
}

/** The quote the composer receives: `[quote="Автор"]text[/quote]` and a new line. */
export const quoteOf = (post: PostView): string =>
  `[quote="${post.author.replace(/"/g, "'")}"]${plainText(post.html)}[/quote]\n`;

/** A post's height before it is measured. */
const ROW_ESTIMATE = 150;

const toEnd = (): void => window.scrollTo(0, document.documentElement.scrollHeight);

/** A post's anchor: `/games/:id/thread#post-<id>` opens the thread at that post (issue 31: the GM's G5 list). */
export const postAnchor = (id: string): string => `post-${id}`;

/** The post the address points at (`#post-<id>`), or null. */
function postInHash(): string | null {
  const m = /^#post-(.+)$/.exec(window.location.hash);
  return m ? decodeURIComponent(m[1]!) : null;
}

/**
 * The post the address points at, once: when it is in the list the window is scrolled to it (the reader
 * leaves the end, so new posts no longer pull the window down) and it is marked. Its id, or null.
 */
function useTargetPost(
  posts: readonly PostView[],
  atEnd: RefObject<boolean>,
  scrollTo: (index: number) => void,
): string | null {
  const [target] = useState(postInHash);
  const done = useRef(false);
  const index = target === null ? -1 : posts.findIndex((p) => p.id === target);
  useEffect(() => {
    if (done.current || index < 0) return;
    done.current = true;
    atEnd.current = false;
    scrollTo(index);
  }, [index, atEnd, scrollTo]);
  return index >= 0 ? target : null;
}

/** A player's profile page. */
export const profileHref = (nick: string): string => `/u/${encodeURIComponent(nick)}`;

/**
 * The game thread: the latest announcement pinned on top, then every post, oldest first, then the
 * composer. Quoting a post puts it into the composer. With `postsOf` («Посты игрока») only that player's
 * posts show, under a bar that says so and leads back to the whole thread.
 */
export function Thread(props: {
  id: string;
  game: GameData;
  postsOf: PostsOf | null;
  onPostsOf: (who: PostsOf | null) => void;
}) {
  const t = useT();
  const { user } = useSession();
  const { detail, posts, unread, markRead } = props.game;
  const composer = useRef<ComposerHandle>(null);
  const pinnedId = useId();
  const quote = useCallback((post: PostView) => composer.current?.insert(quoteOf(post)), []);
  const markThread = useCallback((upTo: number) => markRead("thread", upTo), [markRead]);
  const { onPostsOf } = props;
  const showPostsOf = useCallback((seat: number, name: string) => onPostsOf({ seat, name }), [onPostsOf]);
  const filtered = usePostsOf(props.id, posts, props.postsOf);
  // Back from «Посты игрока», a keyboard user lands where the whole thread begins, not on the page's top.
  const count = useRef<HTMLParagraphElement>(null);
  const filteredBefore = useRef(props.postsOf !== null);
  useEffect(() => {
    if (filteredBefore.current && props.postsOf === null) count.current?.focus({ preventScroll: true });
    filteredBefore.current = props.postsOf !== null;
  }, [props.postsOf]);
  const mayQuote = detail ? postBlock(detail, user, t) === null : false;
  const last = detail?.announcements.at(-1);
  const shown = filtered ? filtered.posts : posts;

  return (
    <section className="thread" aria-label={t.game.thread.label}>
      {last && last.lines.length > 0 && (
        <aside className="card pinned" aria-labelledby={pinnedId}>
          <h2 id={pinnedId}>{last.lines[0]}</h2>
          {last.lines.slice(1).map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </aside>
      )}
      {props.postsOf && filtered ? (
        <PostsOfBar who={props.postsOf} state={filtered} onAll={() => onPostsOf(null)} />
      ) : (
        <p ref={count} className="muted thread-count" tabIndex={-1}>
          {t.game.thread.count(posts.length)}
        </p>
      )}
      {shown.length === 0 && !filtered?.loading && (
        <p className="muted">{filtered ? t.game.postsOf.none : t.game.thread.empty}</p>
      )}
      <ThreadList
        key={props.postsOf ? `seat-${props.postsOf.seat}` : "all"}
        id={props.id}
        posts={shown}
        detail={detail}
        onQuote={mayQuote ? quote : null}
        mayHide={detail?.me.kind === "gm"}
        onPostsOf={props.postsOf ? null : showPostsOf}
        firstNewId={props.postsOf ? null : (unread?.firstNewId ?? null)}
        onSeen={props.postsOf || !unread ? null : markThread}
      />
      <Composer id={props.id} game={props.game} handle={composer} />
    </section>
  );
}

interface ListProps {
  readonly id: string;
  readonly posts: readonly PostView[];
  readonly detail: GameDetail | null;
  readonly onQuote: ((post: PostView) => void) | null;
  readonly mayHide: boolean;
  readonly onPostsOf: ((seat: number, name: string) => void) | null;
  /** «Новое с прошлого визита» stands before this post. */
  readonly firstNewId: string | null;
  /** The reader has seen the first `upTo` posts (null: the list marks nothing read). */
  readonly onSeen: ((upTo: number) => void) | null;
}

/**
 * The posts, virtualized so thousands stay fast: only those near the screen are in the page, each
 * measured as it renders. A reader at the end stays at the end as posts arrive; "К новым" takes one there.
 * Only this list re-renders as the window scrolls.
 */
const ThreadList = memo(function ThreadList(props: ListProps) {
  const { id, posts, detail, onQuote, mayHide, onPostsOf, firstNewId } = props;
  const t = useT();
  const list = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  const [showToNew, setShowToNew] = useState(false);
  const [margin, setMargin] = useState(0);

  const virtualizer = useWindowVirtualizer({
    count: posts.length,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 4,
    // The thread opens at its end (issue 32): the first render lays out the last rows, not the first ones
    // only to replace them once the window has scrolled down (each row rendered and measured for nothing).
    initialOffset: () => (atEnd.current ? posts.length * ROW_ESTIMATE : 0),
    // Rows measured or scrolled in are drawn in React's next render, not in one forced at once (flushSync).
    useFlushSync: false,
    scrollMargin: margin,
    getItemKey: (i) => posts[i]?.id ?? i,
  });
  const geometry = useRef({ margin, total: 0 });
  const total = virtualizer.getTotalSize();
  geometry.current = { margin, total };
  // A reader at the end stays there when the list's rows are measured (taller or shorter than the estimate)
  // in the same frame, before it is painted: following a frame later (useFollowEnd's observer) showed the
  // composer jumping down first, a layout shift of 0.33 on opening a game at a phone's size (issue 32).
  useLayoutEffect(() => {
    if (atEnd.current) toEnd();
  }, [total]);

  // The list's distance from the top of the page moves when anything above it (the pinned card, a notice)
  // changes size: measured whenever the page's size changes.
  useLayoutEffect(() => {
    const measure = () => {
      const el = list.current;
      if (el) setMargin(Math.round(el.getBoundingClientRect().top + window.scrollY));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(document.body);
    return () => ro.disconnect();
  }, []);

  useFollowEnd(list, atEnd, geometry, setShowToNew);
  useSeen(list, posts.length, props.onSeen);
  const scrollToPost = useCallback(
    (index: number) => virtualizer.scrollToIndex(index, { align: "center" }),
    [virtualizer],
  );
  const target = useTargetPost(posts, atEnd, scrollToPost);

  const firstNew = firstNewId === null ? -1 : posts.findIndex((p) => p.id === firstNewId);
  const toFirstNew = () => {
    atEnd.current = false;
    virtualizer.scrollToIndex(firstNew, { align: "start" });
  };
  const items = virtualizer.getVirtualItems();
  return (
    <>
      {firstNew >= 0 && (
        <p className="thread-jump">
          <button type="button" className="link" onClick={toFirstNew}>
            {t.game.unread.toFirstNew} ↑
          </button>
        </p>
      )}
      <div ref={list} className="thread-list" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const post = posts[item.index];
          if (!post) return null;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="thread-row"
              style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
            >
              {item.index === firstNew && (
                <p className="thread-new" id="thread-new">
                  <span>{t.game.unread.newSince}</span>
                </p>
              )}
              <Post
                id={id}
                post={post}
                detail={detail}
                onQuote={onQuote}
                mayHide={mayHide}
                onPostsOf={onPostsOf}
                target={post.id === target}
              />
            </div>
          );
        })}
      </div>
      {showToNew && posts.length > 0 && (
        <div className="to-new-bar">
          <button
            type="button"
            className="primary to-new"
            onClick={() => {
              atEnd.current = true;
              toEnd();
            }}
          >
            {t.game.thread.toNew} ↓
          </button>
        </div>
      )}
    </>
  );
});

/**
 * A reader at the end stays there: whenever the list grows (a new post, a post measured taller), the
 * window follows it down. The reader leaves the end only by scrolling up: a move up while the page's
 * height stays the same (a move that comes with a change of height is the list re-measuring itself).
 */
function useFollowEnd(
  list: RefObject<HTMLDivElement | null>,
  atEnd: RefObject<boolean>,
  geometry: RefObject<{ margin: number; total: number }>,
  setShowToNew: (show: boolean) => void,
): void {
  useEffect(() => {
    let lastY = window.scrollY;
    let lastHeight = document.documentElement.scrollHeight;
    const onScroll = () => {
      const y = window.scrollY;
      const height = document.documentElement.scrollHeight;
      const { margin, total } = geometry.current;
      const near = margin + total - y <= window.innerHeight + 80;
      if (near) atEnd.current = true;
      else if (y < lastY - 1 && height === lastHeight) atEnd.current = false;
      lastY = y;
      lastHeight = height;
      setShowToNew(!near);
    };
    const ro = new ResizeObserver(() => {
      if (atEnd.current) toEnd();
    });
    if (list.current) ro.observe(list.current);
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      ro.disconnect();
      window.removeEventListener("scroll", onScroll);
    };
  }, [list, atEnd, geometry, setShowToNew]);
}

/** How much of a post must be in the window for it to count as seen: its head and a line or two. */
const SEEN_PX = 48;

/**
 * Issue 15: which posts the reader has seen. After each scroll (once a frame), when the list changes and
 * when the page comes back into view, the furthest post whose top part is in the window is found among
 * the few rows in the page; everything up to it is read. Nothing counts while the page is hidden.
 */
function useSeen(
  list: RefObject<HTMLDivElement | null>,
  count: number,
  onSeen: ((upTo: number) => void) | null,
): void {
  const check = useRef<() => void>(() => undefined);
  check.current = () => {
    const el = list.current;
    if (!el || !onSeen || document.visibilityState !== "visible") return;
    let furthest = -1;
    for (const row of el.querySelectorAll<HTMLElement>(".thread-row")) {
      const box = row.getBoundingClientRect();
      if (box.bottom > 0 && box.top + SEEN_PX <= window.innerHeight)
        furthest = Math.max(furthest, Number(row.dataset["index"]));
    }
    if (furthest >= 0) onSeen(furthest + 1);
  };
  useEffect(() => {
    let frame = 0;
    const soon = () => {
      if (frame === 0)
        frame = requestAnimationFrame(() => {
          frame = 0;
          check.current();
        });
    };
    window.addEventListener("scroll", soon, { passive: true });
    window.addEventListener("resize", soon);
    document.addEventListener("visibilitychange", soon);
    const ro = new ResizeObserver(soon);
    if (list.current) ro.observe(list.current);
    soon();
    return () => {
      cancelAnimationFrame(frame);
      ro.disconnect();
      window.removeEventListener("scroll", soon);
      window.removeEventListener("resize", soon);
      document.removeEventListener("visibilitychange", soon);
    };
  }, [list, count]);
}

interface PostProps {
  readonly id: string;
  readonly post: PostView;
  readonly detail: GameDetail | null;
  readonly onQuote: ((post: PostView) => void) | null;
  readonly mayHide: boolean;
  readonly onPostsOf: ((seat: number, name: string) => void) | null;
  /** The post the address points at (`#post-<id>`): marked. */
  readonly target: boolean;
}

/** A post's head: the author (a link to the profile), the GM's mark, the vote it cast, the time. */
function PostHead({ post, detail }: { post: PostView; detail: GameDetail | null }) {
  const t = useT();
  const { lang } = useLang();
  const { timeZone } = useSession();
  const th = t.game.thread;
  const target = post.vote ? (detail?.view?.seats[post.vote.target]?.name ?? `#${post.vote.target + 1}`) : "";
  return (
    <header className="post-head">
      <strong className="post-author">
        <Link href={profileHref(post.author)} aria-label={t.game.profileLabel(post.author)}>
          {post.author}
        </Link>
      </strong>
      {post.seat === null && <span className="badge badge-gm">{th.gmMark}</span>}
      {post.vote && (
        <span className={`badge badge-${post.vote.color}`}>
          {th.vote(post.vote.color, target)}
          {post.vote.early ? `, ${th.early}` : ""}
        </span>
      )}
      <time className="muted post-time" dateTime={new Date(post.at).toISOString()}>
        {formatMoment(post.at, timeZone, lang)}
      </time>
    </header>
  );
}

/** One post: author, time, the vote it cast, the server's safe HTML; quote and (for the GM) hide. */
const Post = memo(function Post({ id, post, detail, onQuote, mayHide, onPostsOf, target }: PostProps) {
  const t = useT();
  const { lang } = useLang();
  const [hiding, setHiding] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();
  const th = t.game.thread;
  const seat = post.seat;

  const hide = async (e: FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) return;
    setBusy(true);
    setError(null);
    try {
      // F2: a hidden post's form restores it, with a reason of its own.
      if (post.hidden) await api.gm.restore(id, post.id, reason.trim());
      else await api.gm.hide(id, post.id, reason.trim());
      setHiding(false);
      setReason("");
    } catch (err) {
      setError(errorText(err, lang));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article
      id={postAnchor(post.id)}
      className={`post${post.seat === null ? " post-gm" : ""}${target ? " post-target" : ""}`}
      aria-label={th.postLabel(post.author)}
    >
      <PostHead post={post} detail={detail} />
      {post.hidden ? (
        <p className="post-hidden muted">{th.hidden(post.hidden.reason)}</p>
      ) : (
        <div className="post-body" dangerouslySetInnerHTML={voteHtml(post.html, t.voteWords)} />
      )}
      {(onQuote || mayHide || (onPostsOf && seat !== null)) && !post.hidden && (
        <div className="post-actions">
          {onQuote && (
            <button
              type="button"
              className="link"
              aria-label={th.quoteLabel(post.author)}
              onClick={() => onQuote(post)}
            >
              {th.quote}
            </button>
          )}
          {mayHide && (
            <button
              type="button"
              className="link"
              aria-label={th.hideLabel(post.author)}
              aria-expanded={hiding}
              onClick={() => setHiding(!hiding)}
            >
              {th.hide}
            </button>
          )}
          {onPostsOf && seat !== null && (
            <button
              type="button"
              className="link"
              aria-label={t.game.postsOf.showLabel(post.author)}
              onClick={() => onPostsOf(seat, post.author)}
            >
              {t.game.postsOf.show}
            </button>
          )}
        </div>
      )}
      {mayHide && post.hidden && (
        <div className="post-actions">
          <button
            type="button"
            className="link"
            aria-label={t.gm.hidden.restoreLabel(post.author)}
            aria-expanded={hiding}
            onClick={() => setHiding(!hiding)}
          >
            {t.gm.hidden.restore}
          </button>
        </div>
      )}
      {hiding && (
        <form className="row post-hide" onSubmit={(e) => void hide(e)}>
          <label htmlFor={reasonId} className="sr-only">
            {post.hidden ? t.gm.hidden.reason : th.hideReason}
          </label>
          <input
            id={reasonId}
            value={reason}
            required
            maxLength={500}
            placeholder={post.hidden ? t.gm.hidden.reason : th.hideReason}
            onChange={(e) => setReason(e.target.value)}
          />
          <button type="submit" disabled={busy || !reason.trim()}>
            {post.hidden ? t.gm.hidden.restore : th.hideConfirm}
          </button>
          <button type="button" onClick={() => setHiding(false)}>
            {t.cancel}
          </button>
        </form>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
});
