import { useState } from "react";
import { api } from "../../api.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";
import { Link } from "../../router.tsx";
import { useSession } from "../../session.tsx";
import type { GameData } from "../../use-game.ts";

/** Signups: the seats, then the reserve; a logged-in user who is not the GM signs up or withdraws here. */
export function Signups(props: { id: string; game: GameData }) {
  const t = useT();
  const { lang } = useLang();
  const { user } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const detail = props.game.detail;
  if (!detail) return null;
  const ts = t.game.signups;
  const seated = detail.signups.filter((s) => !s.reserve);
  const reserve = detail.signups.filter((s) => s.reserve);
  const kind = detail.me.kind;
  const inGame = kind === "signedUp" || kind === "reserve" || kind === "player";

  const act = async (join: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await (join ? api.signup(props.id) : api.withdraw(props.id));
      props.game.refresh();
    } catch (e) {
      setError(errorText(e, lang));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="signups card" aria-labelledby="signups-title">
      <h2 id="signups-title">{ts.title}</h2>
      <p>
        <strong>{ts.count(seated.length, detail.settings.seats)}</strong>
        {reserve.length > 0 && <span className="muted"> · {ts.reserveCount(reserve.length)}</span>}
      </p>
      {detail.signups.length === 0 && <p className="muted">{ts.empty}</p>}
      {seated.length > 0 && (
        <>
          <h3>{ts.seats}</h3>
          <ol className="signup-list">
            {seated.map((s) => (
              <li key={s.nick} className={s.nick === user?.nick ? "seat-me" : undefined}>
                {s.nick}
              </li>
            ))}
          </ol>
        </>
      )}
      {reserve.length > 0 && (
        <>
          <h3>{ts.reserve}</h3>
          <ol className="signup-list">
            {reserve.map((s) => (
              <li key={s.nick} className={s.nick === user?.nick ? "seat-me" : undefined}>
                {s.nick}
              </li>
            ))}
          </ol>
        </>
      )}
      {!user ? (
        <p>
          <Link href="/login">{ts.guest}</Link>
        </p>
      ) : kind === "gm" ? (
        <p className="muted">{ts.gmNote}</p>
      ) : (
        <div className="row">
          {kind === "signedUp" && <span className="ok">{ts.youIn}</span>}
          {kind === "reserve" && <span className="ok">{ts.youReserve}</span>}
          {inGame ? (
            <button type="button" disabled={busy} onClick={() => void act(false)}>
              {ts.withdraw}
            </button>
          ) : (
            <button type="button" className="primary" disabled={busy} onClick={() => void act(true)}>
              {ts.join}
            </button>
          )}
        </div>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
