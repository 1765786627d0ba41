import type { GameDetail } from "@forum-mafia/protocol";
import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { CopyDone, CopyFailed, useCopy } from "../copy.tsx";
import { withoutClauseIds } from "../i18n/common.ts";
import { errorText, useLang, useT } from "../i18n/index.tsx";
import { navigate } from "../router.tsx";
import { useSession } from "../session.tsx";
import { useG5T } from "../i18n/g5.ts";
import { useUnreadTitle } from "../title.ts";
import { useGame, type GameData } from "../use-game.ts";
import { PhaseBanner } from "./game/banner.tsx";
import { MyStrikes, openFlags } from "./game/my-strikes.tsx";
import { Players } from "./game/players.tsx";
import type { PostsOf } from "./game/posts-of.tsx";
import { SetupPost } from "./game/setup-post.tsx";
import { Signups } from "./game/signups.tsx";
import { Thread } from "./game/thread.tsx";
import { UnreadBadge } from "./game/unread.tsx";
import { VoteCount } from "./game/vote-count.tsx";
import { VoteHistory } from "./game/vote-history.tsx";
import "./game.css";

// The GM's console and the published log are big and seldom opened: they load on demand.
const GmConsole = lazy(() => import("./gm-console.tsx"));
const GameLog = lazy(() => import("./game-log.tsx"));
// After the end the «Роль» tab shows the player's role and moves from the published log (R3).
const PlayerRecap = lazy(() => import("./game-log.tsx").then((m) => ({ default: m.PlayerRecap })));
// Issue 32: the tabs seldom opened first, and the stall's notice, load when shown: the thread's and the
// log's first load skip them.
const NightPanel = lazy(() => import("./game/night.tsx").then((m) => ({ default: m.NightPanel })));
const Chats = lazy(() => import("./game/chats.tsx").then((m) => ({ default: m.Chats })));
const Results = lazy(() => import("./game/results.tsx").then((m) => ({ default: m.Results })));
const StallNotice = lazy(() => import("./game/stall.tsx").then((m) => ({ default: m.StallNotice })));

type TabId = "thread" | "players" | "role" | "chats" | "results" | "gm" | "log";
const TAB_ORDER: readonly TabId[] = ["thread", "players", "role", "chats", "results", "gm", "log"];
const isTab = (s: string | null): s is TabId => TAB_ORDER.some((t) => t === s);

/** Whether the screen is wide enough for the thread and the players side by side. */
function useWide(): boolean {
  const query = "(min-width: 900px)";
  const [wide, setWide] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const m = window.matchMedia(query);
    const on = () => setWide(m.matches);
    on();
    m.addEventListener("change", on);
    return () => m.removeEventListener("change", on);
  }, []);
  return wide;
}

/** The game page at /games/:id and /games/:id/:tab. A retry after a failed first load starts afresh. */
export default function GamePage(props: { id: string; tab: string | null }) {
  const [attempt, setAttempt] = useState(0);
  return <Game key={attempt} id={props.id} tab={props.tab} retry={() => setAttempt((a) => a + 1)} />;
}

function Game(props: { id: string; tab: string | null; retry: () => void }) {
  const t = useT();
  const { lang } = useLang();
  const { user } = useSession();
  const game = useGame(props.id, lang, user?.nick ?? null);
  const wide = useWide();
  const { detail, error } = game;
  // Issue 15: «(3) Форумная мафия» while something here is unread.
  useUnreadTitle(t.appName, game.unread?.total ?? null);

  if (!detail) {
    if (error)
      return (
        <section className="game">
          <p className="error" role="alert">
            {t.game.loadFailed} {errorText(error, lang)}
          </p>
          <button type="button" onClick={props.retry}>
            {t.retry}
          </button>
        </section>
      );
    return (
      <p className="muted" role="status">
        {t.loading}
      </p>
    );
  }

  const { summary } = detail;
  const isGm = detail.me.kind === "gm";
  return (
    <section className="game" aria-labelledby="game-title">
      <header className="game-head">
        <h1 id="game-title">{summary.title}</h1>
        <p className="muted game-gm">{t.game.gmBy(summary.gm)}</p>
        <PhaseBanner game={game} />
        {detail.commitment !== null && (
          <SeedCommitment commitment={detail.commitment} ended={summary.status === "ended"} />
        )}
      </header>
      {error !== null && (
        <div className="error row" role="alert">
          <span>{errorText(error, lang)}</span>
          <button type="button" onClick={game.refresh}>
            {t.retry}
          </button>
        </div>
      )}
      {detail.notices.map((n, i) => (
        <p key={i} className="notice" role="status">
          {withoutClauseIds(n)}
        </p>
      ))}
      {detail.stall !== null && (
        <Suspense fallback={null}>
          <StallNotice stall={detail.stall} gm={isGm} gameId={props.id} />
        </Suspense>
      )}
      <MyStrikes detail={detail} />
      {/* Issue 17: the published setup, open while players decide to sign up, a tap away once it runs. */}
      {summary.status === "signup" ? (
        <>
          <Signups id={props.id} game={game} />
          <SetupPost detail={detail} open />
          {isGm && (
            <Suspense fallback={<p className="muted">{t.loading}</p>}>
              <GmConsole id={props.id} game={game} />
            </Suspense>
          )}
        </>
      ) : (
        <>
          <SetupPost detail={detail} open={false} />
          <Tabs id={props.id} tab={props.tab} game={game} wide={wide} />
        </>
      )}
    </section>
  );
}

/** The tabs this viewer has: the players beside the thread on a wide screen, the GM's and the log's when they apply. */
function tabsShown(detail: GameDetail, wide: boolean): readonly TabId[] {
  return TAB_ORDER.filter((tab) => {
    switch (tab) {
      case "thread":
      case "results":
        return true;
      case "players":
        return !wide;
      case "role":
        return detail.me.kind === "player";
      case "chats":
        return detail.channels.length > 0;
      case "gm":
        return detail.me.kind === "gm";
      case "log":
        return detail.summary.status === "ended";
    }
  });
}

function Tabs(props: { id: string; tab: string | null; game: GameData; wide: boolean }) {
  const t = useT();
  const shown = tabsShown(props.game.detail!, props.wide);
  const current: TabId = isTab(props.tab) && shown.includes(props.tab) ? props.tab : "thread";
  const go = (tab: TabId) => {
    if (tab !== current) navigate(`/games/${encodeURIComponent(props.id)}/${tab}`, true);
  };
  // «Посты игрока» is kept here, so the players list (a tab of its own on a phone) can turn it on.
  const [postsOf, setPostsOf] = useState<PostsOf | null>(null);
  const showPostsOf = (who: PostsOf | null) => {
    setPostsOf(who);
    if (who) go("thread");
  };
  const unread = props.game.unread;
  const unreadIn = (tab: TabId): number =>
    tab === "thread" ? (unread?.thread ?? 0) : tab === "chats" ? (unread?.chats ?? 0) : 0;
  // G5 (issue 31): the GM's tab carries the count of flagged posts and messages awaiting a decision.
  const g5 = useG5T();
  const flagsOpen = openFlags(props.game.detail!);
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = shown.indexOf(current);
    let next: number | null = null;
    if (e.key === "ArrowRight") next = (i + 1) % shown.length;
    else if (e.key === "ArrowLeft") next = (i - 1 + shown.length) % shown.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = shown.length - 1;
    if (next === null) return;
    e.preventDefault();
    const tab = shown[next]!;
    go(tab);
    document.getElementById(`game-tab-${tab}`)?.focus();
  };

  // The selected tab is kept in view when the bar scrolls sideways (only the bar moves, never the page).
  const tablist = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const bar = tablist.current;
    const tab = bar?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!bar || !tab) return;
    const left = tab.offsetLeft - bar.offsetLeft;
    if (left < bar.scrollLeft) bar.scrollLeft = left;
    else if (left + tab.offsetWidth > bar.scrollLeft + bar.clientWidth)
      bar.scrollLeft = left + tab.offsetWidth - bar.clientWidth;
  }, [current]);

  return (
    <>
      <div ref={tablist} className="game-tabs" role="tablist" aria-label={t.game.tabsLabel} onKeyDown={onKey}>
        {shown.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`game-tab-${tab}`}
            aria-selected={tab === current}
            aria-controls={tab === current ? `game-panel-${tab}` : undefined}
            aria-describedby={
              unreadIn(tab) > 0
                ? `game-tab-${tab}-unread`
                : tab === "gm" && flagsOpen > 0
                  ? "game-tab-gm-flags"
                  : undefined
            }
            tabIndex={tab === current ? 0 : -1}
            className={tab === current ? "game-tab current" : "game-tab"}
            onClick={() => go(tab)}
          >
            {t.game.tabs[tab]}
            <UnreadBadge count={unreadIn(tab)} id={`game-tab-${tab}-unread`} />
            {tab === "gm" && flagsOpen > 0 && (
              <>
                <span
                  className="unread-badge g5-badge"
                  data-count={flagsOpen > 99 ? "99+" : flagsOpen}
                  aria-hidden="true"
                />
                <span hidden id="game-tab-gm-flags">
                  {g5.flags.badge(flagsOpen)}
                </span>
              </>
            )}
          </button>
        ))}
      </div>
      <div
        className="game-panel"
        role="tabpanel"
        id={`game-panel-${current}`}
        aria-labelledby={`game-tab-${current}`}
      >
        <Suspense fallback={<p className="muted">{t.loading}</p>}>
          <TabPanel
            tab={current}
            id={props.id}
            game={props.game}
            wide={props.wide}
            postsOf={postsOf}
            onPostsOf={showPostsOf}
          />
        </Suspense>
      </div>
    </>
  );
}

/** The open tab's content. */
function TabPanel(props: {
  tab: TabId;
  id: string;
  game: GameData;
  wide: boolean;
  postsOf: PostsOf | null;
  onPostsOf: (who: PostsOf | null) => void;
}) {
  const t = useT();
  const { id, game, postsOf, onPostsOf } = props;
  const thread = <Thread id={id} game={game} postsOf={postsOf} onPostsOf={onPostsOf} />;
  const detail = game.detail!;
  switch (props.tab) {
    case "thread":
      return props.wide ? (
        <div className="game-split">
          <div className="game-main">{thread}</div>
          <aside className="game-side" aria-label={t.game.tabs.players}>
            <VoteCount game={game} />
            <Players id={id} game={game} onPostsOf={onPostsOf} />
            <VoteHistory game={game} />
          </aside>
        </div>
      ) : (
        thread
      );
    case "players":
      // On a phone the live count comes first: it is what a player opens this tab for during the day.
      return (
        <>
          <VoteCount game={game} />
          <Players id={id} game={game} onPostsOf={onPostsOf} />
          <VoteHistory game={game} />
        </>
      );
    case "role":
      return detail.summary.status === "ended" ? (
        <PlayerRecap id={id} detail={detail} />
      ) : (
        <NightPanel id={id} game={game} />
      );
    case "chats":
      return <Chats id={id} game={game} />;
    case "results":
      return <Results id={id} game={game} />;
    case "gm":
      return <GmConsole id={id} game={game} />;
    case "log":
      return <GameLog id={id} detail={detail} />;
  }
}

/**
 * F1: the SHA-256 of the seed the roles were dealt from, published before the deal. Shown from the deal
 * on, shortened, with the whole value a tap away and a copy button; the seed itself comes after the end.
 */
function SeedCommitment(props: { commitment: string; ended: boolean }) {
  const t = useT();
  const w = t.game.seed;
  const full = useRef<HTMLElement>(null);
  const details = useRef<HTMLDetailsElement>(null);
  const { commitment } = props;
  // Without the clipboard (an http page, a refusal) the whole value is opened and selected to copy by hand.
  const { state, copy } = useCopy(commitment, () => {
    if (details.current) details.current.open = true;
    const el = full.current;
    const selection = window.getSelection();
    if (el && selection) {
      const range = document.createRange();
      range.selectNodeContents(el);
      selection.removeAllRanges();
      selection.addRange(range);
    }
  });
  return (
    <div className="seed-hash">
      <div className="seed-line">
        <span className="seed-label">{w.label}</span>
        <details ref={details} className="seed-details">
          {/* Named by what it shows, then what it opens (axe: label-content-name-mismatch). */}
          <summary title={commitment}>
            <code>{commitment.slice(0, 8)}…</code>
            <span className="sr-only"> {w.full}</span>
          </summary>
          <code ref={full} className="seed-full">
            {commitment}
          </code>
        </details>
        <button type="button" className="seed-copy" aria-label={w.copyLabel} onClick={copy}>
          {w.copy}
        </button>
        <CopyDone state={state} words={w} />
      </div>
      <CopyFailed state={state} words={w} />
      <p className="muted seed-explain">{props.ended ? w.explainEnded : w.explain}</p>
    </div>
  );
}
