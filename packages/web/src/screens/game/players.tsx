import { useId, useState } from "react";
import { api } from "../../api.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";
import type { GameData } from "../../use-game.ts";

/**
 * Every seat: name, alive or dead (†), the role where the viewer may know it, a lost vote. During a day a
 * living player who may vote gets two one-tap buttons per living player (V1); a vote is a coloured post in
 * the thread (V2), with "досрочно" from day 3 on when the box is ticked (V7).
 */
export function Players(props: { id: string; game: GameData }) {
  const t = useT();
  const { lang } = useLang();
  const [early, setEarly] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ seat: number; text: string; ok: boolean } | null>(null);
  const earlyId = useId();
  const detail = props.game.detail;
  const view = detail?.view;
  if (!detail || !view) return null;
  const tp = t.game.players;

  const mySeat = detail.me.kind === "player" ? detail.me.seat : null;
  const me = mySeat === null ? undefined : view.seats[mySeat];
  const day = detail.summary.status === "running" && view.phase.kind === "day";
  const myVote = mySeat === null ? undefined : view.votes.find((v) => v.seat === mySeat);
  const mayVote = day && !!me && me.alive && !me.cannotVote && !myVote?.early;
  const earlyShown = mayVote && view.phase.number >= 3;
  const alive = view.seats.filter((s) => s.alive).length;
  const nameOf = (seat: number) => view.seats[seat]?.name ?? `#${seat + 1}`;

  const vote = async (seat: number, color: "red" | "blue") => {
    const name = nameOf(seat);
    setBusy(true);
    setResult(null);
    try {
      await api.post(props.id, `[color=${color}]${name}[/color]${earlyShown && early ? "\nдосрочно" : ""}`);
      setResult({ seat, text: tp.voted(name), ok: true });
      props.game.refresh();
    } catch (e) {
      setResult({ seat, text: errorText(e, lang), ok: false });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="players card" aria-labelledby={`${earlyId}-title`}>
      <h2 id={`${earlyId}-title`}>{tp.title}</h2>
      <p className="muted">{tp.count(alive, view.seats.length)}</p>
      {day && me?.alive && (
        <div className="my-vote">
          {myVote ? (
            <p className={myVote.color === "red" ? "vote-red" : "vote-blue"}>
              {tp.myVote(myVote.color, nameOf(myVote.target), myVote.early)}
            </p>
          ) : me.cannotVote ? null : (
            <p className="muted">{tp.noVote}</p>
          )}
          {me.cannotVote && <p className="notice">{tp.iCannotVote}</p>}
          {myVote?.early && <p className="muted">{tp.earlyLocked}</p>}
          {earlyShown && (
            <div className="early-toggle">
              <input
                id={earlyId}
                type="checkbox"
                checked={early}
                aria-describedby={`${earlyId}-hint`}
                onChange={(e) => setEarly(e.target.checked)}
              />
              <label htmlFor={earlyId}>{tp.early}</label>
              <span className="muted early-hint" id={`${earlyId}-hint`}>
                {tp.earlyHint}
              </span>
            </div>
          )}
        </div>
      )}
      <ul className="seat-list">
        {view.seats.map((s) => {
          const isMe = s.seat === mySeat;
          const votable = mayVote && s.alive && !isMe;
          return (
            <li key={s.seat} className={`seat${s.alive ? "" : " seat-dead"}${isMe ? " seat-me" : ""}`}>
              <div className="seat-info">
                <span className="seat-no muted">{s.seat + 1}.</span>{" "}
                <span className="seat-name">
                  {s.alive ? "" : "† "}
                  {s.name}
                </span>
                {isMe && <span className="badge badge-me">{tp.you}</span>}
                <span className="sr-only">, {s.alive ? tp.alive : tp.dead}</span>
                {s.role && <span className="seat-role">{tp.role(detail.roleNames[s.role])}</span>}
                {s.alive && s.cannotVote && <span className="seat-mute">{tp.cannotVote}</span>}
              </div>
              {votable && (
                <div className="seat-votes">
                  <button
                    type="button"
                    className="red"
                    disabled={busy}
                    aria-label={tp.voteRed(s.name)}
                    onClick={() => void vote(s.seat, "red")}
                  >
                    {tp.redShort}
                  </button>
                  <button
                    type="button"
                    className="blue"
                    disabled={busy}
                    aria-label={tp.voteBlue(s.name)}
                    onClick={() => void vote(s.seat, "blue")}
                  >
                    {tp.blueShort}
                  </button>
                </div>
              )}
              {result?.seat === s.seat &&
                (result.ok ? (
                  <p className="ok seat-result" role="status">
                    {result.text}
                  </p>
                ) : (
                  <p className="error seat-result" role="alert">
                    {result.text}
                  </p>
                ))}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
