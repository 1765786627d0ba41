import { useEffect, useId, useRef, useState } from "react";
import { api } from "../../api.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";
import type { GameData } from "../../use-game.ts";

/** How long a one-tap vote waits, with an undo button, before it is sent. */
export const VOTE_HOLD_SECONDS = 5;

type Color = "red" | "blue";

/** A tapped vote waiting to be sent: the post that casts it (V2) and what the countdown shows. */
interface Held {
  readonly seat: number;
  readonly color: Color;
  readonly name: string;
  readonly early: boolean;
  readonly text: string;
}

/**
 * Every seat: name, alive or dead (†), the role where the viewer may know it, a lost vote. During a day a
 * living player who may vote gets two one-tap buttons per living player (V1); a vote is a coloured post in
 * the thread (V2), with "досрочно" from day 3 on when the box is ticked (V7).
 *
 * A tapped vote is held for a few seconds with an undo button before it is sent; an early vote, which can
 * never be changed (V7), is confirmed first. Leaving the screen (another tab, or closing the page) sends a
 * held vote at once rather than dropping it: the player tapped it and did not undo it, and a vote lost
 * without a word would count as not voting (a strike and penalty votes).
 */
export function Players(props: { id: string; game: GameData }) {
  const t = useT();
  const { lang } = useLang();
  const [early, setEarly] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ seat: number; text: string; ok: boolean } | null>(null);
  const [confirming, setConfirming] = useState<{ seat: number; color: Color } | null>(null);
  const [held, setHeld] = useState<Held | null>(null);
  const [left, setLeft] = useState(VOTE_HOLD_SECONDS);
  const heldRef = useRef<Held | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const undoRef = useRef<HTMLButtonElement>(null);
  const earlyId = useId();
  const tp = t.game.players;
  const { id, game } = props;

  /** Send the held vote now (once): the countdown ran out, or the player is leaving. */
  const sendRef = useRef<(keepalive: boolean) => void>(() => {});
  sendRef.current = (keepalive: boolean) => {
    const h = heldRef.current;
    if (!h) return;
    heldRef.current = null;
    setHeld(null);
    setBusy(true);
    setResult(null);
    api.post(id, h.text, keepalive).then(
      () => {
        setResult({ seat: h.seat, text: tp.voted(h.name), ok: true });
        setBusy(false);
        game.refresh();
      },
      (e: unknown) => {
        setResult({ seat: h.seat, text: errorText(e, lang), ok: false });
        setBusy(false);
      },
    );
  };

  // The countdown: one tick a second, and the vote goes when it reaches zero.
  useEffect(() => {
    if (!held) return;
    let remaining = VOTE_HOLD_SECONDS;
    const tick = setInterval(() => {
      remaining -= 1;
      setLeft(remaining);
      if (remaining <= 0) {
        clearInterval(tick);
        sendRef.current(false);
      }
    }, 1_000);
    return () => clearInterval(tick);
  }, [held]);

  // Leaving: another tab unmounts this screen; closing the page fires pagehide. Either sends the held vote.
  useEffect(() => {
    const leave = () => sendRef.current(true);
    window.addEventListener("pagehide", leave);
    return () => {
      window.removeEventListener("pagehide", leave);
      sendRef.current(false);
    };
  }, []);

  // Keyboard users land on the question, then on the undo button.
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  useEffect(() => {
    if (held) undoRef.current?.focus();
  }, [held]);

  const detail = game.detail;
  const view = detail?.view;
  if (!detail || !view) return null;

  const mySeat = detail.me.kind === "player" ? detail.me.seat : null;
  const me = mySeat === null ? undefined : view.seats[mySeat];
  const day = detail.summary.status === "running" && view.phase.kind === "day";
  const myVote = mySeat === null ? undefined : view.votes.find((v) => v.seat === mySeat);
  const mayVote = day && !!me && me.alive && !me.cannotVote && !myVote?.early;
  const earlyShown = mayVote && view.phase.number >= 3;
  const alive = view.seats.filter((s) => s.alive).length;
  const nameOf = (seat: number) => view.seats[seat]?.name ?? `#${seat + 1}`;

  const hold = (seat: number, color: Color, isEarly: boolean) => {
    const name = nameOf(seat);
    const h: Held = {
      seat,
      color,
      name,
      early: isEarly,
      text: `[color=${color}]${name}[/color]${isEarly ? "\nдосрочно" : ""}`,
    };
    heldRef.current = h;
    setConfirming(null);
    setResult(null);
    setLeft(VOTE_HOLD_SECONDS);
    setHeld(h);
  };
  const tap = (seat: number, color: Color) => {
    const isEarly = earlyShown && early;
    // V7: an early vote is final, so it is asked about first.
    if (isEarly) {
      heldRef.current = null;
      setHeld(null);
      setResult(null);
      setConfirming({ seat, color });
    } else hold(seat, color, false);
  };
  const undo = () => {
    const h = heldRef.current;
    heldRef.current = null;
    setHeld(null);
    if (h) setResult({ seat: h.seat, text: tp.undone(h.name), ok: true });
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
          const asking = votable && confirming?.seat === s.seat ? confirming : null;
          const waiting = votable && held?.seat === s.seat ? held : null;
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
                    onClick={() => tap(s.seat, "red")}
                  >
                    {tp.redShort}
                  </button>
                  <button
                    type="button"
                    className="blue"
                    disabled={busy}
                    aria-label={tp.voteBlue(s.name)}
                    onClick={() => tap(s.seat, "blue")}
                  >
                    {tp.blueShort}
                  </button>
                </div>
              )}
              {asking && (
                <div className="notice seat-result" role="group" aria-label={tp.earlyConfirmLabel}>
                  <p>{tp.earlyConfirm(asking.color, s.name)}</p>
                  <div className="row">
                    <button
                      type="button"
                      ref={confirmRef}
                      className={asking.color}
                      onClick={() => hold(asking.seat, asking.color, true)}
                    >
                      {tp.earlyYes}
                    </button>
                    <button type="button" onClick={() => setConfirming(null)}>
                      {t.cancel}
                    </button>
                  </div>
                </div>
              )}
              {waiting && (
                <div className="row seat-result" role="status">
                  <span className={waiting.color === "red" ? "vote-red" : "vote-blue"}>
                    {tp.holding(waiting.color, waiting.name, waiting.early, left)}
                  </span>
                  <button type="button" ref={undoRef} aria-label={tp.undoLabel(waiting.name)} onClick={undo}>
                    {tp.undo}
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
