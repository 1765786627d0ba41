import type { GameSummary } from "@forum-mafia/protocol";
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { api } from "../api.ts";
import { errorText, useLang, useT } from "../i18n/index.tsx";
import { Link, navigate } from "../router.tsx";
import { useSession } from "../session.tsx";
import { formatLeft, formatMoment, phaseName } from "../time.ts";
import "./lobby.css";

const REFRESH_MS = 15_000;

/** The front page: open signups, running games and finished ones, refreshed every 15 seconds. */
export function Lobby() {
  const t = useT();
  const l = t.lobby.lobby;
  const { lang } = useLang();
  const [games, setGames] = useState<readonly GameSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    () =>
      api.games().then(
        (res) => {
          setGames(res.games);
          setError(null);
        },
        (e: unknown) => setError(errorText(e, lang)),
      ),
    [lang],
  );

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  const open = games?.filter((g) => g.status === "signup") ?? [];
  const running = games?.filter((g) => g.status === "running") ?? [];
  const ended = games?.filter((g) => g.status === "ended") ?? [];

  return (
    <div className="lobby">
      <h1 className="sr-only">{l.title}</h1>
      <Welcome />
      {error && (
        <div className="error" role="alert">
          <span>{games ? `${l.refreshFailed} ${error}` : error}</span>{" "}
          <button type="button" onClick={() => void load()}>
            {t.retry}
          </button>
        </div>
      )}
      {games === null ? (
        !error && <p className="muted">{t.loading}</p>
      ) : (
        <div className="lobby-sections">
          <Section title={l.open} empty={l.emptyOpen} games={open} onChange={load} />
          <Section title={l.running} empty={l.emptyRunning} games={running} onChange={load} />
          <Section title={l.ended} empty={l.emptyEnded} games={ended} onChange={load} />
        </div>
      )}
    </div>
  );
}

/** The top card: create a game, and the demo game (issue 5). */
function Welcome() {
  const t = useT();
  const l = t.lobby.lobby;
  const { lang } = useLang();
  const { user } = useSession();
  const [minutes, setMinutes] = useState("2");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  if (!user)
    return (
      <section className="hero card" aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`}>{l.guestTitle}</h2>
        <p className="muted">{l.guestLead}</p>
        <p>{l.demoGuest}</p>
        <div className="row">
          <Link href="/register?next=demo" className="btn primary big">
            {l.demoGuestButton}
          </Link>
        </div>
      </section>
    );

  const demo = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const n = Number(minutes);
    if (!Number.isInteger(n) || n < 1 || n > 60) return setError(l.demoRange);
    setBusy(true);
    setError(null);
    try {
      const { id } = await api.demo(n);
      navigate(`/games/${encodeURIComponent(id)}`);
    } catch (err) {
      setError(errorText(err, lang));
      setBusy(false);
    }
  };

  return (
    <section className="hero card" aria-labelledby={`${id}-h`}>
      <div className="hero-head">
        <h2 id={`${id}-h`}>{l.welcome(user.nick)}</h2>
        <Link href="/new" className="btn">
          {l.create}
        </Link>
      </div>
      <form className="demo" onSubmit={demo} noValidate>
        <label className="field demo-minutes">
          <span>{l.demoMinutes}</span>
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={60}
            step={1}
            value={minutes}
            onChange={(e) => setMinutes(e.target.value)}
            aria-describedby={`${id}-hint`}
          />
        </label>
        <button type="submit" className="primary big" disabled={busy}>
          {busy ? l.demoBusy : l.demo}
        </button>
        <p id={`${id}-hint`} className="muted small demo-hint">
          {l.demoHint}
        </p>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function Section(props: {
  title: string;
  empty: string;
  games: readonly GameSummary[];
  onChange: () => Promise<void>;
}) {
  const id = useId();
  return (
    <section className="lobby-section" aria-labelledby={id}>
      <h2 id={id}>
        {props.title} <span className="count">{props.games.length}</span>
      </h2>
      {props.games.length === 0 ? (
        <p className="muted empty">{props.empty}</p>
      ) : (
        <ul className="game-list">
          {props.games.map((g) => (
            <li key={g.id} className="card game-card">
              <GameCard game={g} onChange={props.onChange} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function GameCard({ game, onChange }: { game: GameSummary; onChange: () => Promise<void> }) {
  const t = useT();
  const l = t.lobby.lobby;
  return (
    <>
      <h3 className="game-title">
        <Link href={`/games/${encodeURIComponent(game.id)}`}>{game.title}</Link>
      </h3>
      <p className="muted gm-line">{l.gmBy(game.gm)}</p>
      {game.status === "signup" && <SignupLine game={game} onChange={onChange} />}
      {game.status === "running" && <RunningLine game={game} />}
      {game.status === "ended" && <EndedLine game={game} />}
    </>
  );
}

function SignupLine({ game, onChange }: { game: GameSummary; onChange: () => Promise<void> }) {
  const t = useT();
  const l = t.lobby.lobby;
  const { lang } = useLang();
  const { user } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const seated = Math.min(game.signedUp, game.seats);
  const reserve = game.signedUp - seated;

  const act = async (what: "signup" | "withdraw") => {
    setBusy(true);
    setError(null);
    try {
      await (what === "signup" ? api.signup(game.id) : api.withdraw(game.id));
      await onChange();
    } catch (e) {
      setError(errorText(e, lang));
    } finally {
      setBusy(false);
    }
  };

  const full = seated === game.seats;
  return (
    <>
      <div className="progress-line">
        <span>
          {l.signedUp(seated, game.seats)}
          {reserve > 0 && `, ${l.reserveCount(reserve)}`}
        </span>
        <progress max={game.seats} value={seated} aria-hidden="true" className={full ? "full" : undefined} />
      </div>
      <div className="row actions">
        {!user ? (
          <span className="muted">
            <Link href="/login?next=/">{l.guestLogin}</Link>, {l.guestSignup}
          </span>
        ) : game.mine === "gm" ? (
          <span className="badge gm">{l.mine.gm}</span>
        ) : game.mine === "signedUp" || game.mine === "reserve" || game.mine === "player" ? (
          <>
            <span className={game.mine === "reserve" ? "badge reserve" : "badge ok"}>
              {l.mine[game.mine]}
            </span>
            <button type="button" onClick={() => void act("withdraw")} disabled={busy}>
              {l.withdraw}
              <span className="sr-only">{l.fromGame(game.title)}</span>
            </button>
          </>
        ) : (
          <button type="button" className="primary" onClick={() => void act("signup")} disabled={busy}>
            {l.signup}
            <span className="sr-only">{l.inGame(game.title)}</span>
          </button>
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

function RunningLine({ game }: { game: GameSummary }) {
  const t = useT();
  const l = t.lobby.lobby;
  const { user } = useSession();
  return (
    <>
      <div className="row phase-line">
        {game.phase && <span className={`phase ${game.phase.kind}`}>{phaseName(game.phase, t)}</span>}
        {game.deadline === null ? (
          <span className="muted">{l.noDeadline}</span>
        ) : (
          <Countdown at={game.deadline} />
        )}
      </div>
      {user && (game.mine === "gm" || game.mine === "player") && (
        <div className="row actions">
          <span className={game.mine === "gm" ? "badge gm" : "badge ok"}>{l.mine[game.mine]}</span>
        </div>
      )}
    </>
  );
}

/** A live countdown to the phase's deadline, ticking every second, and the moment in the viewer's zone. */
function Countdown({ at }: { at: number }) {
  const t = useT();
  const { timeZone, lang } = useSession();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="countdown">
      <strong className="left">
        {at > now ? t.countdown.left(formatLeft(at - now, t)) : t.countdown.over}
      </strong>{" "}
      <time className="muted" dateTime={new Date(at).toISOString()}>
        ({t.lobby.lobby.deadline(formatMoment(at, timeZone, lang))})
      </time>
    </span>
  );
}

function EndedLine({ game }: { game: GameSummary }) {
  const t = useT();
  const l = t.lobby.lobby;
  const { user } = useSession();
  return (
    <div className="row actions">
      <span className={`badge winner ${game.winner ?? ""}`}>
        {game.winner ? l.winner[game.winner] : l.noWinner}
      </span>
      {user && (game.mine === "gm" || game.mine === "player") && (
        <span className="muted">{l.mineEnded[game.mine]}</span>
      )}
    </div>
  );
}
