import type { Lang, UserView } from "@forum-mafia/protocol";
import { lazy, startTransition, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { api } from "./api.ts";
import { dictFor, LangProvider, useT } from "./i18n/index.tsx";
import { fetchEarly } from "./early.ts";
import { Link, navigate, parseRoute, useRoute, type Route } from "./router.tsx";
import { Login, Register } from "./screens/auth.tsx";
import { Lobby } from "./screens/lobby.tsx";
import { SessionContext, useSession, type Session } from "./session.tsx";

// The game page and everything behind it load on demand, so the lobby's first load stays small.
const gamePage = () => import("./screens/game.tsx");
const GamePage = lazy(gamePage);
const NewGame = lazy(() => import("./screens/new-game.tsx"));
const Tools = lazy(() => import("./screens/tools.tsx"));
const Profile = lazy(() => import("./screens/profile.tsx"));
// Issue 15: «Мои игры», the settings and the reminders are a signed-in user's: a guest never loads them.
const MyGames = lazy(() => import("./screens/my-games.tsx"));
const Settings = lazy(() => import("./screens/settings.tsx"));
const Reminders = lazy(() => import("./reminders.tsx"));
// Issue 18: the notebooks for games kept on the GM's own forum, loaded only when opened.
const Notebooks = lazy(() => import("./screens/notebook/list.tsx"));
const NewNotebook = lazy(() => import("./screens/notebook/create.tsx"));
const Notebook = lazy(() => import("./screens/notebook/page.tsx"));
const NotebookLog = lazy(() => import("./screens/notebook/published.tsx"));

/** The browser's time zone, read once, when first needed: making the formatter costs tens of ms on a phone. */
let zone: string | null = null;
const browserZone = (): string =>
  (zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || "Europe/Moscow");
const storedLang = (): Lang => (localStorage.getItem("lang") === "en" ? "en" : "ru");

/**
 * Issue 32: a page opened at a game asks for the game page's code and the game itself at once, alongside
 * the session, instead of one after the other: from the app's first effect, once the first paint is done,
 * so they do not hold it back.
 */
function fetchForOpenedPage(lang: Lang): void {
  const opened = parseRoute(location.pathname);
  if (opened.page !== "game") return;
  gamePage().catch(() => undefined);
  if (opened.tab === "log") import("./screens/game-log.tsx").catch(() => undefined);
  fetchEarly(opened.id, lang, opened.tab);
}
let opening = true;

export function App() {
  const [user, setUser] = useState<UserView | null>(null);
  const [ready, setReady] = useState(false);
  const [lang, setLangState] = useState<Lang>(storedLang);

  useEffect(() => {
    // After the next paint: a request begun before the first paint holds the paint back on a slow link. A
    // hidden tab paints nothing (and runs no animation frame): there it starts at once.
    if (opening) {
      const start = () => fetchForOpenedPage(storedLang());
      if (document.visibilityState === "visible") requestAnimationFrame(() => setTimeout(start));
      else start();
    }
    opening = false;
    // The page is drawn as a transition: React renders it in slices, between which the browser may respond.
    api.me().then(
      ({ user }) =>
        startTransition(() => {
          setUser(user);
          if (user) setLangState(user.lang);
          setReady(true);
        }),
      () => startTransition(() => setReady(true)),
    );
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
    localStorage.setItem("lang", lang);
  }, [lang]);

  const setLang = useCallback(
    (l: Lang) => {
      setLangState(l);
      if (user)
        api.profile({ lang: l }).then(
          ({ user }) => setUser(user),
          () => undefined,
        );
    },
    [user],
  );
  // Issue 32: the time zone is worked out when a screen first shows a time, not on the first render.
  const session = useMemo(
    (): Session => ({
      user,
      setUser,
      get timeZone() {
        return user?.timeZone ?? browserZone();
      },
      lang,
    }),
    [user, lang],
  );

  return (
    <LangProvider lang={lang} setLang={setLang}>
      <SessionContext.Provider value={session}>
        <a className="skip" href="#main">
          {dictFor(lang).skipToContent}
        </a>
        <Header lang={lang} setLang={setLang} />
        <main id="main" tabIndex={-1}>
          {ready && user && (
            <Suspense fallback={null}>
              <Reminders key={user.id} />
            </Suspense>
          )}
          {ready ? <Page /> : <p className="muted">{dictFor(lang).loading}</p>}
        </main>
      </SessionContext.Provider>
    </LangProvider>
  );
}

function Header(props: { lang: Lang; setLang: (l: Lang) => void }) {
  const t = useT();
  const { user, setUser } = useSession();
  const route = useRoute();
  const current = (page: Route["page"]) => (route.page === page ? ("page" as const) : undefined);
  const logout = () =>
    api.logout().finally(() => {
      setUser(null);
      navigate("/");
    });
  return (
    <header className="top">
      <Link href="/" className="brand">
        {t.appName}
      </Link>
      <nav aria-label={t.nav.lobby}>
        {user && (
          <Link href="/" aria-current={current("lobby")}>
            {t.me.nav.myGames}
          </Link>
        )}
        <Link href="/tools" aria-label={t.nav.tools} aria-current={current("tools")}>
          <span className="nav-long">{t.nav.tools}</span>
          <span className="nav-short" aria-hidden="true">
            {t.nav.toolsShort}
          </span>
        </Link>
        {user ? (
          <>
            <Link href="/notebooks" aria-current={current("notebooks")}>
              {t.nav.notebooks}
            </Link>
            <Link href="/settings" aria-current={current("settings")}>
              {t.me.nav.settings}
            </Link>
            <span className="who" aria-label={user.nick} title={user.nick}>
              {user.nick}
            </span>
            <button type="button" className="link" onClick={logout}>
              {t.nav.logout}
            </button>
          </>
        ) : (
          <>
            <Link href="/login">{t.nav.login}</Link>
            <Link href="/register">{t.nav.register}</Link>
          </>
        )}
        <label className="lang">
          <span className="sr-only">{t.lang.label}</span>
          <select value={props.lang} onChange={(e) => props.setLang(e.target.value === "en" ? "en" : "ru")}>
            <option value="ru">RU</option>
            <option value="en">EN</option>
          </select>
        </label>
      </nav>
    </header>
  );
}

function Page() {
  const route = useRoute();
  const t = useT();
  return (
    <Suspense fallback={<p className="muted">{t.loading}</p>}>
      <Screen route={route} />
    </Suspense>
  );
}

function Screen({ route }: { route: Route }) {
  const { user } = useSession();
  switch (route.page) {
    case "lobby":
      return user ? <MyGames /> : <Lobby />;
    case "allGames":
      return <Lobby />;
    case "settings":
      return <Settings />;
    case "profile":
      return <Profile key={route.nick} nick={route.nick} />;
    case "login":
      return <Login />;
    case "register":
      return <Register />;
    case "new":
      return <NewGame />;
    case "tools":
      return <Tools />;
    case "game":
      return <GamePage key={route.id} id={route.id} tab={route.tab} />;
    case "notebooks":
      return <Notebooks />;
    case "notebookNew":
      return <NewNotebook />;
    case "notebook":
      return <Notebook key={route.id} id={route.id} />;
    case "notebookLog":
      return <NotebookLog key={route.id} id={route.id} />;
    case "notFound":
      return <NotFound />;
  }
}

function NotFound() {
  const t = useT();
  return (
    <section>
      <h1>404</h1>
      <p>
        <Link href="/">{t.nav.lobby}</Link>
      </p>
    </section>
  );
}
