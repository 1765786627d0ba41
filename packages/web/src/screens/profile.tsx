import type { ProfileView } from "@forum-mafia/protocol";
import { useEffect, useId, useState } from "react";
import { api, ApiFailure } from "../api.ts";
import { errorText, useLang, useT, type Dict } from "../i18n/index.tsx";
import { Link } from "../router.tsx";
import "./lobby.css";
import "./profile.css";

type Loaded =
  | { readonly state: "loading" }
  | { readonly state: "notFound" }
  | { readonly state: "failed"; readonly error: unknown }
  | { readonly state: "ready"; readonly profile: ProfileView };

/** /u/:nick: a player's record from ended games (R3: roles only after the end), or a 404 in words. */
export default function Profile(props: { nick: string }) {
  const t = useT();
  const { lang } = useLang();
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let stopped = false;
    setLoaded({ state: "loading" });
    api.userProfile(props.nick, lang).then(
      (profile) => !stopped && setLoaded({ state: "ready", profile }),
      (error: unknown) => {
        if (stopped) return;
        if (error instanceof ApiFailure && error.status === 404) setLoaded({ state: "notFound" });
        else setLoaded({ state: "failed", error });
      },
    );
    return () => {
      stopped = true;
    };
  }, [props.nick, lang, attempt]);

  const w = t.profile;
  switch (loaded.state) {
    case "loading":
      return (
        <p className="muted" role="status">
          {t.loading}
        </p>
      );
    case "notFound":
      return (
        <section className="profile">
          <h1>{w.heading(props.nick)}</h1>
          <p className="notice" role="alert">
            {w.notFound(props.nick)}
          </p>
          <p>
            <Link href="/lobby">{t.nav.lobby}</Link>
          </p>
        </section>
      );
    case "failed":
      return (
        <section className="profile">
          <h1>{w.heading(props.nick)}</h1>
          <p className="error" role="alert">
            {w.loadFailed} {errorText(loaded.error, lang)}
          </p>
          <button type="button" onClick={() => setAttempt((a) => a + 1)}>
            {t.retry}
          </button>
        </section>
      );
    case "ready":
      return <Record profile={loaded.profile} />;
  }
}

const percent = (won: number, played: number): number =>
  played === 0 ? 0 : Math.round((won / played) * 100);

function Record({ profile }: { profile: ProfileView }) {
  const t = useT();
  const { lang } = useLang();
  const w = t.profile;
  const summaryId = useId();
  const since = new Intl.DateTimeFormat(lang === "ru" ? "ru-RU" : "en-GB", { dateStyle: "long" }).format(
    profile.since,
  );
  const won = profile.games.filter((g) => g.result === "won").length;
  const facts: readonly [string, string][] = [
    [w.played, String(profile.games.length)],
    [w.won, `${won} (${w.percent(percent(won, profile.games.length))})`],
    [w.strikes, String(profile.strikes)],
    [w.modkills, String(profile.modkills)],
    [w.hosted, String(profile.hosted)],
  ];
  return (
    <section className="profile" aria-labelledby={`${summaryId}-h`}>
      <h1 id={`${summaryId}-h`}>{w.heading(profile.nick)}</h1>
      <p className="muted">{w.since(since)}</p>
      <section className="card" aria-labelledby={`${summaryId}-sum`}>
        <h2 id={`${summaryId}-sum`}>{w.summary}</h2>
        <dl className="profile-facts">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {profile.byFaction.length > 0 && <ByFaction profile={profile} t={t} />}
        <p className="muted small">{w.onlyEnded}</p>
      </section>
      <section className="card" aria-labelledby={`${summaryId}-games`}>
        <h2 id={`${summaryId}-games`}>{w.games}</h2>
        {profile.games.length === 0 ? (
          <p className="muted">{w.noGames}</p>
        ) : (
          <ul className="profile-games">
            {profile.games.map((g) => (
              <li key={g.id}>
                <Link href={`/games/${encodeURIComponent(g.id)}`}>{g.title}</Link>
                <span className={`profile-result profile-${g.result}`}>{w.result[g.result]}</span>
                <div>{w.role(profile.roleNames[g.role], w.factions[g.faction])}</div>
                <div className="muted small">{gameNotes(g, w).join(" · ")}</div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}

function gameNotes(g: ProfileView["games"][number], w: Dict["profile"]): string[] {
  const notes = [g.survived ? w.survived : w.out];
  if (g.modkilled) notes.push(w.modkilled);
  if (g.replaced) notes.push(w.replaced);
  if (g.strikes > 0) notes.push(w.strikesIn(g.strikes));
  return notes;
}

function ByFaction({ profile, t }: { profile: ProfileView; t: Dict }) {
  const w = t.profile;
  const id = useId();
  return (
    <div className="profile-table">
      <table aria-labelledby={id}>
        <caption id={id}>{w.byFaction}</caption>
        <thead>
          <tr>
            <th scope="col">{w.faction}</th>
            <th scope="col">{w.factionPlayed}</th>
            <th scope="col">{w.factionWon}</th>
            <th scope="col">{w.rate}</th>
          </tr>
        </thead>
        <tbody>
          {profile.byFaction.map((f) => (
            <tr key={f.faction}>
              <th scope="row">{w.factions[f.faction]}</th>
              <td>{f.played}</td>
              <td>{f.won}</td>
              <td>{w.percent(percent(f.won, f.played))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
