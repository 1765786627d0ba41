import type { MyGame, MyGames } from "@forum-mafia/protocol";
import { useEffect, useId, type MouseEvent, type ReactNode } from "react";
import { errorText, useLang, useT } from "../i18n/index.tsx";
import { refreshMyGames, useMyGames, useNow } from "../reminders.tsx";
import { Link } from "../router.tsx";
import { useSession } from "../session.tsx";
import { formatLeft, formatMoment, phaseName } from "../time.ts";
import { useUnreadTitle } from "../title.ts";
import { StallLine } from "./game/stall.tsx";
import { Lobby } from "./lobby.tsx";
import "./my-games.css";

/**
 * Issue 15: «Мои игры», a signed-in user's `/`. What the user plays now (the phase, the time left and what
 * is still owed: a vote, a night move, an answer to the GM), the signups and reserve places, the games the
 * user runs (reviews and council questions waiting), and the finished ones with the user's role and
 * result; unread posts per game. The lobby follows (open games, a new game, the demo), the same component
 * as at `/lobby`. The data is refreshed every minute and when the tab comes back (reminders.tsx).
 */
export default function MyGamesPage() {
  const t = useT();
  const m = t.me.myGames;
  const { lang } = useLang();
  const { data, error } = useMyGames();

  // Coming back to the page (from a game where the vote was just cast) looks again at once.
  useEffect(() => void refreshMyGames({ ifIdle: true }), []);
  useUnreadTitle(t.appName, data ? totalUnread(data) : null);

  // The lobby's signup buttons change «Мои игры» too: look again once the lobby's own request is done.
  const onLobbyClick = (e: MouseEvent) => {
    if (e.target instanceof Element && e.target.closest("button"))
      setTimeout(() => void refreshMyGames(), 1500);
  };

  return (
    <>
      <div className="my-games">
        <div className="my-head">
          <h1>{m.title}</h1>
          <a href="#all-games" className="small">
            {m.toLobby} ↓
          </a>
        </div>
        {error !== null && (
          <div className="error" role="alert">
            <span>{data ? `${m.refreshFailed} ${errorText(error, lang)}` : errorText(error, lang)}</span>{" "}
            <button type="button" onClick={() => void refreshMyGames()}>
              {t.retry}
            </button>
          </div>
        )}
        {data === null ? error === null && <p className="muted">{t.loading}</p> : <Groups data={data} />}
      </div>
      <section
        id="all-games"
        className="all-games"
        tabIndex={-1}
        aria-label={m.lobbyTitle}
        onClick={onLobbyClick}
      >
        <Lobby />
      </section>
    </>
  );
}

const unreadOf = (g: MyGame): number => {
  // The contract allows no unread counts yet for a game that has none.
  const u: MyGame["unread"] | null = g.unread;
  return u ? u.thread + u.channels : 0;
};

/** The tab title's count: unread in the games going on (a finished game's chatter does not nag). */
const totalUnread = (d: MyGames): number =>
  [...d.active, ...d.signups, ...d.hosting].reduce((sum, g) => sum + unreadOf(g), 0);

/** What is owed first, then the nearest deadline. */
const byUrgency = (games: readonly MyGame[]): MyGame[] =>
  [...games].sort(
    (a, b) =>
      Number(b.owes.length > 0) - Number(a.owes.length > 0) ||
      (a.deadline ?? Infinity) - (b.deadline ?? Infinity),
  );

function Groups({ data }: { data: MyGames }) {
  const m = useT().me.myGames;
  const none = data.active.length + data.signups.length + data.hosting.length + data.finished.length === 0;
  if (none) return <p className="muted empty">{m.nothing}</p>;
  return (
    <div className="my-groups">
      <Group title={m.active} games={byUrgency(data.active)} card={(g) => <ActiveCard game={g} />} />
      <Group title={m.hosting} games={byUrgency(data.hosting)} card={(g) => <HostingCard game={g} />} />
      <Group title={m.signups} games={data.signups} card={(g) => <SignupCard game={g} />} />
      <Group
        title={m.finished}
        games={data.finished}
        card={(g) => <FinishedCard game={g} roleNames={data.roleNames} />}
      />
    </div>
  );
}

function Group(props: { title: string; games: readonly MyGame[]; card: (g: MyGame) => ReactNode }) {
  const id = useId();
  if (props.games.length === 0) return null;
  return (
    <section className="my-group" aria-labelledby={id}>
      <h2 id={id}>
        {props.title} <span className="count">{props.games.length}</span>
      </h2>
      <div className="my-list">
        {props.games.map((g) => (
          <Card key={g.id} game={g}>
            {props.card(g)}
          </Card>
        ))}
      </div>
    </section>
  );
}

const gameHref = (id: string, tab?: string): string =>
  `/games/${encodeURIComponent(id)}${tab ? `/${tab}` : ""}`;

/** A game's card: its title (a link), the unread count, the GM; the group's own lines below. */
function Card({ game, children }: { game: MyGame; children: ReactNode }) {
  const t = useT();
  const m = t.me.myGames;
  const id = useId();
  const u: MyGame["unread"] | null = game.unread;
  const owed = game.owes.length > 0;
  return (
    <article className={owed ? "card game-card my-card owed" : "card game-card my-card"} aria-labelledby={id}>
      <div className="my-card-head">
        <h3 className="game-title" id={id}>
          <Link href={gameHref(game.id)}>{game.title}</Link>
        </h3>
        {u && unreadOf(game) > 0 && <span className="badge unread">{m.unread(u.thread, u.channels)}</span>}
      </div>
      {game.mine !== "gm" && <p className="muted gm-line">{m.gmBy(game.gm)}</p>}
      {children}
    </article>
  );
}

/** The phase, and the time left (or why the clock stands). */
function PhaseLine({ game }: { game: MyGame }) {
  const t = useT();
  if (!game.phase) return null;
  return (
    <div className="row phase-line">
      <span className={`phase ${game.phase.kind}`}>{phaseName(game.phase, t)}</span>
      {game.paused ? (
        <span className="muted">{t.countdown.paused}</span>
      ) : game.deadline === null ? (
        <span className="muted">
          {game.phase.kind === "night" ? t.countdown.review : t.me.myGames.stopped}
        </span>
      ) : (
        <TimeLeft at={game.deadline} />
      )}
    </div>
  );
}

function TimeLeft({ at }: { at: number }) {
  const t = useT();
  const { timeZone, lang } = useSession();
  // The latest answer's time too: a clock that jumped (a laptop woken) shows right at once.
  const now = Math.max(useNow(1000), useMyGames().at);
  return (
    <span className="countdown">
      <strong className="left">
        {at > now ? t.countdown.left(formatLeft(at - now, t)) : t.countdown.over}
      </strong>{" "}
      <time className="muted" dateTime={new Date(at).toISOString()}>
        ({t.countdown.until(formatMoment(at, timeZone, lang))})
      </time>
    </span>
  );
}

/** What the user still owes, clearly marked; or that nothing is. */
function Owes({ game }: { game: MyGame }) {
  const m = useT().me.myGames;
  if (game.owes.length === 0) return <p className="muted owes-none">{m.nothingOwed}</p>;
  return (
    <ul className="owes" aria-label={m.owesLabel}>
      {game.owes.map((o) => (
        <li key={o} className={`owe ${o}`}>
          <span aria-hidden="true">! </span>
          {m.owes[o]}
        </li>
      ))}
    </ul>
  );
}

function ActiveCard({ game }: { game: MyGame }) {
  return (
    <>
      <PhaseLine game={game} />
      {game.stall && <StallLine stall={game.stall} gm={false} />}
      <Owes game={game} />
    </>
  );
}

function HostingCard({ game }: { game: MyGame }) {
  const m = useT().me.myGames;
  if (game.status === "signup")
    return (
      <p className="my-line">
        {m.signupOpen}: {m.listed(game.signedUp, game.seats)}
      </p>
    );
  return (
    <>
      <PhaseLine game={game} />
      {game.stall && <StallLine stall={game.stall} gm />}
      {game.owes.length > 0 && <Owes game={game} />}
      <p className="my-line">
        <Link href={gameHref(game.id, "gm")}>
          {m.console}
          <span className="sr-only">{m.consoleOf(game.title)}</span>
        </Link>
      </p>
    </>
  );
}

function SignupCard({ game }: { game: MyGame }) {
  const m = useT().me.myGames;
  const inReserve = game.mine === "reserve";
  const line = inReserve
    ? m.reserve(game.place !== null && game.place > game.seats ? game.place - game.seats : null)
    : m.signedUp(game.place, game.seats);
  return (
    <>
      {game.status === "running" ? (
        <>
          <PhaseLine game={game} />
          <p className="my-line">{m.reserveRunning}</p>
        </>
      ) : (
        <p className="my-line muted">{m.listed(game.signedUp, game.seats)}</p>
      )}
      <p className="my-line">
        <span className={inReserve ? "badge reserve" : "badge ok"}>{line}</span>
      </p>
    </>
  );
}

function FinishedCard({ game, roleNames }: { game: MyGame; roleNames: MyGames["roleNames"] }) {
  const t = useT();
  const m = t.me.myGames;
  return (
    <div className="row my-line">
      {game.mine === "gm" ? (
        <span>{m.hosted}</span>
      ) : game.mine === "replaced" ? (
        <span>{m.replaced}</span>
      ) : (
        game.role && <span>{m.role(roleNames[game.role])}</span>
      )}
      {game.result && <span className={`badge result ${game.result}`}>{m.result[game.result]}</span>}
      <span className={`badge winner ${game.winner ?? ""}`}>
        {game.winner ? t.lobby.lobby.winner[game.winner] : t.lobby.lobby.noWinner}
      </span>
    </div>
  );
}
