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
} from "react";
import { api } from "../../api.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";
import { useSession } from "../../session.tsx";
import type { GameData } from "../../use-game.ts";
import { formatMoment } from "../../time.ts";
import { Composer, postBlock, type ComposerHandle } from "./composer.tsx";

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

const toEnd = (): void => window.scrollTo(0, document.documentElement.scrollHeight);

/**
 * The game thread: the latest announcement pinned on top, then every post, oldest first, then the
 * composer. Quoting a post puts it into the composer.
 */
export function Thread(props: { id: string; game: GameData }) {
  const t = useT();
  const { user } = useSession();
  const { detail, posts } = props.game;
  const composer = useRef<ComposerHandle>(null);
  const pinnedId = useId();
  const quote = useCallback((post: PostView) => composer.current?.insert(quoteOf(post)), []);
  const mayQuote = detail ? postBlock(detail, user, t) === null : false;
  const last = detail?.announcements.at(-1);

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
      <p className="muted thread-count">{t.game.thread.count(posts.length)}</p>
      {posts.length === 0 && <p className="muted">{t.game.thread.empty}</p>}
      <ThreadList
        id={props.id}
        posts={posts}
        detail={detail}
        onQuote={mayQuote ? quote : null}
        mayHide={detail?.me.kind === "gm"}
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
}

/**
 * The posts, virtualized so thousands stay fast: only those near the screen are in the page, each
 * measured as it renders. A reader at the end stays at the end as posts arrive; "К новым" takes one there.
 * Only this list re-renders as the window scrolls.
 */
const ThreadList = memo(function ThreadList({ id, posts, detail, onQuote, mayHide }: ListProps) {
  const t = useT();
  const list = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  const [showToNew, setShowToNew] = useState(false);
  const [margin, setMargin] = useState(0);

  const virtualizer = useWindowVirtualizer({
    count: posts.length,
    estimateSize: () => 150,
    overscan: 8,
    scrollMargin: margin,
    getItemKey: (i) => posts[i]?.id ?? i,
  });
  const geometry = useRef({ margin, total: 0 });
  geometry.current = { margin, total: virtualizer.getTotalSize() };

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

  // A reader at the end stays there: whenever the list grows (a new post, a post measured taller), the
  // window follows it down. The reader leaves the end only by scrolling up: a move up while the page's
  // height stays the same (a move that comes with a change of height is the list re-measuring itself).
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
  }, []);

  const items = virtualizer.getVirtualItems();
  return (
    <>
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
              <Post id={id} post={post} detail={detail} onQuote={onQuote} mayHide={mayHide} />
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

interface PostProps {
  readonly id: string;
  readonly post: PostView;
  readonly detail: GameDetail | null;
  readonly onQuote: ((post: PostView) => void) | null;
  readonly mayHide: boolean;
}

/** One post: author, time, the vote it cast, the server's safe HTML; quote and (for the GM) hide. */
const Post = memo(function Post({ id, post, detail, onQuote, mayHide }: PostProps) {
  const t = useT();
  const { lang } = useLang();
  const { timeZone } = useSession();
  const [hiding, setHiding] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();
  const th = t.game.thread;
  const target = post.vote ? (detail?.view?.seats[post.vote.target]?.name ?? `#${post.vote.target + 1}`) : "";

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
    <article className={`post${post.seat === null ? " post-gm" : ""}`} aria-label={th.postLabel(post.author)}>
      <header className="post-head">
        <strong className="post-author">{post.author}</strong>
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
      {post.hidden ? (
        <p className="post-hidden muted">{th.hidden(post.hidden.reason)}</p>
      ) : (
        <div className="post-body" dangerouslySetInnerHTML={{ __html: post.html }} />
      )}
      {(onQuote || mayHide) && !post.hidden && (
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
