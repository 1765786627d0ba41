import { lazy, Suspense, useEffect, useState, type KeyboardEvent, type ReactNode } from "react";
import { errorText, useLang, useT } from "../i18n/index.tsx";
import { navigate } from "../router.tsx";
import { useGame, type GameData } from "../use-game.ts";
import { PhaseBanner } from "./game/banner.tsx";
import { Chats } from "./game/chats.tsx";
import { NightPanel } from "./game/night.tsx";
import { Players } from "./game/players.tsx";
import { Results } from "./game/results.tsx";
import { Signups } from "./game/signups.tsx";
import { Thread } from "./game/thread.tsx";
import { VoteCount } from "./game/vote-count.tsx";
import { VoteHistory } from "./game/vote-history.tsx";
import "./game.css";

// The GM's console and the published log are big and seldom opened: they load on demand.
const GmConsole = lazy(() => import("./gm-console.tsx"));
const GameLog = lazy(() => import("./game-log.tsx"));

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
  const game = useGame(props.id, lang);
  const wide = useWide();
  const { detail, error } = game;

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
          {n}
        </p>
      ))}
      {summary.status === "signup" ? (
        <>
          <Signups id={props.id} game={game} />
          {isGm && (
            <Suspense fallback={<p className="muted">{t.loading}</p>}>
              <GmConsole id={props.id} game={game} />
            </Suspense>
          )}
        </>
      ) : (
        <Tabs id={props.id} tab={props.tab} game={game} wide={wide} />
      )}
    </section>
  );
}

function Tabs(props: { id: string; tab: string | null; game: GameData; wide: boolean }) {
  const t = useT();
  const detail = props.game.detail!;
  const shown = TAB_ORDER.filter((tab) => {
    switch (tab) {
      case "thread":
      case "results":
        return true;
      case "players":
        return !props.wide;
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
  const current: TabId = isTab(props.tab) && shown.includes(props.tab) ? props.tab : "thread";
  const go = (tab: TabId) => {
    if (tab !== current) navigate(`/games/${encodeURIComponent(props.id)}/${tab}`, true);
  };
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

  let panel: ReactNode;
  switch (current) {
    case "thread":
      panel = props.wide ? (
        <div className="game-split">
          <div className="game-main">
            <Thread id={props.id} game={props.game} />
          </div>
          <aside className="game-side" aria-label={t.game.tabs.players}>
            <VoteCount game={props.game} />
            <Players id={props.id} game={props.game} />
            <VoteHistory game={props.game} />
          </aside>
        </div>
      ) : (
        <Thread id={props.id} game={props.game} />
      );
      break;
    case "players":
      panel = (
        <>
          <Players id={props.id} game={props.game} />
          <VoteCount game={props.game} />
          <VoteHistory game={props.game} />
        </>
      );
      break;
    case "role":
      panel = <NightPanel id={props.id} game={props.game} />;
      break;
    case "chats":
      panel = <Chats id={props.id} game={props.game} />;
      break;
    case "results":
      panel = <Results id={props.id} game={props.game} />;
      break;
    case "gm":
      panel = <GmConsole id={props.id} game={props.game} />;
      break;
    case "log":
      panel = <GameLog id={props.id} detail={detail} />;
      break;
  }

  return (
    <>
      <div className="game-tabs" role="tablist" aria-label={t.game.tabsLabel} onKeyDown={onKey}>
        {shown.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`game-tab-${tab}`}
            aria-selected={tab === current}
            aria-controls={tab === current ? `game-panel-${tab}` : undefined}
            tabIndex={tab === current ? 0 : -1}
            className={tab === current ? "game-tab current" : "game-tab"}
            onClick={() => go(tab)}
          >
            {t.game.tabs[tab]}
          </button>
        ))}
      </div>
      <div
        className="game-panel"
        role="tabpanel"
        id={`game-panel-${current}`}
        aria-labelledby={`game-tab-${current}`}
      >
        <Suspense fallback={<p className="muted">{t.loading}</p>}>{panel}</Suspense>
      </div>
    </>
  );
}
