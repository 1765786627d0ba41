import type { GameDetail, GameView } from "@forum-mafia/protocol";
import { useEffect, useId, useRef, useState } from "react";
import { api } from "../../api.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";
import { Link } from "../../router.tsx";
import { useArrival, type GameData } from "../../use-game.ts";
import type { PostsOf } from "./posts-of.tsx";
import { profileHref } from "./thread.tsx";

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

/** What a tapped vote came to, shown under its seat: sent, undone, or the refusal. */
interface Outcome {
  readonly seat: number;
  readonly text: string;
  readonly ok: boolean;
}

/**
 * The tapped vote's life: an early vote asked about first (`confirming`), then held with a countdown and an
 * undo button (`held`, `left`), then sent (`busy`, then `result`). The held vote is sent when the countdown
 * ends, and at once when the screen goes away or the page closes.
 */
function useHeldVote(id: string, game: GameData) {
  const t = useT();
  const { lang } = useLang();
  const tp = t.game.players;
  const [requesting, setRequesting] = useState(false);
  const arrival = useArrival(game);
  const busy = requesting || arrival.waiting;
  const [result, setResult] = useState<Outcome | null>(null);
  const [confirming, setConfirming] = useState<{ seat: number; color: Color } | null>(null);
  const [held, setHeld] = useState<Held | null>(null);
  const [left, setLeft] = useState(VOTE_HOLD_SECONDS);
  const heldRef = useRef<Held | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const undoRef = useRef<HTMLButtonElement>(null);

  /** Send the held vote now (once): the countdown ran out, or the player is leaving. */
  const sendRef = useRef<(keepalive: boolean) => void>(() => {});
  sendRef.current = (keepalive: boolean) => {
    const h = heldRef.current;
    if (!h) return;
    heldRef.current = null;
    setHeld(null);
    setRequesting(true);
    setResult(null);
    // The vote comes back by the live stream: until it shows (or the day is over), the buttons stay
    // disabled, so nobody taps again on a page that does not show the vote yet.
    const phase = phaseOf(game.detail);
    api.post(id, h.text, keepalive).then(
      () => {
        setResult({ seat: h.seat, text: tp.voted(h.name), ok: true });
        setRequesting(false);
        arrival.wait((g) => {
          const d = g.detail;
          const mine = d?.view?.votes.find((v) => v.seat === d.me.seat);
          return (mine?.target === h.seat && mine.color === h.color) || phaseOf(d) !== phase;
        });
      },
      (e: unknown) => {
        setResult({ seat: h.seat, text: errorText(e, lang), ok: false });
        setRequesting(false);
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

  /** Hold a vote for `name`'s seat: the post that casts it (V2), "досрочно" when early (V7). */
  const hold = (seat: number, color: Color, name: string, early: boolean) => {
    const h: Held = {
      seat,
      color,
      name,
      early,
      text: `[color=${color}]${name}[/color]${early ? "\nдосрочно" : ""}`,
    };
    heldRef.current = h;
    setConfirming(null);
    setResult(null);
    setLeft(VOTE_HOLD_SECONDS);
    setHeld(h);
  };
  /** V7: an early vote is final, so it is asked about first. */
  const ask = (seat: number, color: Color) => {
    heldRef.current = null;
    setHeld(null);
    setResult(null);
    setConfirming({ seat, color });
  };
  const undo = () => {
    const h = heldRef.current;
    heldRef.current = null;
    setHeld(null);
    if (h) setResult({ seat: h.seat, text: tp.undone(h.name), ok: true });
  };
  const cancel = () => setConfirming(null);
  return { busy, result, confirming, held, left, confirmRef, undoRef, hold, ask, undo, cancel };
}

type HeldVote = ReturnType<typeof useHeldVote>;

/** The phase a detail shows, as one string to compare. */
const phaseOf = (d: GameDetail | null): string =>
  d?.view ? `${d.summary.status}-${d.view.phase.kind}-${d.view.phase.number}` : (d?.summary.status ?? "");

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
export function Players(props: { id: string; game: GameData; onPostsOf?: (who: PostsOf) => void }) {
  const t = useT();
  const [early, setEarly] = useState(false);
  const vote = useHeldVote(props.id, props.game);
  const titleId = useId();
  const tp = t.game.players;

  const detail = props.game.detail;
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
  const tap = (seat: number, color: Color) => {
    if (earlyShown && early) vote.ask(seat, color);
    else vote.hold(seat, color, nameOf(seat), false);
  };

  return (
    <section className="players card" aria-labelledby={`${titleId}-title`}>
      <h2 id={`${titleId}-title`}>{tp.title}</h2>
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
          {earlyShown && <EarlyToggle id={titleId} checked={early} onChange={setEarly} />}
        </div>
      )}
      <ul className="seat-list">
        {view.seats.map((s) => (
          <SeatRow
            key={s.seat}
            seat={s}
            role={s.role ? detail.roleNames[s.role] : null}
            isMe={s.seat === mySeat}
            votable={mayVote && s.alive && s.seat !== mySeat}
            vote={vote}
            tap={tap}
            onPostsOf={props.onPostsOf ?? null}
          />
        ))}
      </ul>
    </section>
  );
}

/** V7: the box that makes the next vote an early one. */
function EarlyToggle(props: { id: string; checked: boolean; onChange: (early: boolean) => void }) {
  const tp = useT().game.players;
  const { id } = props;
  return (
    <div className="early-toggle">
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        aria-describedby={`${id}-hint`}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <label htmlFor={id}>{tp.early}</label>
      <span className="muted early-hint" id={`${id}-hint`}>
        {tp.earlyHint}
      </span>
    </div>
  );
}

/** One seat: who sits there, the vote buttons when it may be voted for, and the vote's question, countdown or outcome. */
function SeatRow(props: {
  seat: GameView["seats"][number];
  role: string | null;
  isMe: boolean;
  votable: boolean;
  vote: HeldVote;
  tap: (seat: number, color: Color) => void;
  /** «Посты игрока»: the thread with only this seat's posts. */
  onPostsOf: ((who: PostsOf) => void) | null;
}) {
  const t = useT();
  const tp = t.game.players;
  const { seat: s, isMe, votable, vote } = props;
  const asking = votable && vote.confirming?.seat === s.seat ? vote.confirming : null;
  const waiting = votable && vote.held?.seat === s.seat ? vote.held : null;
  const result = vote.result?.seat === s.seat ? vote.result : null;
  return (
    <li className={`seat${s.alive ? "" : " seat-dead"}${isMe ? " seat-me" : ""}`}>
      <div className="seat-info">
        <span className="seat-no muted">{s.seat + 1}.</span>{" "}
        <span className="seat-name">
          {s.alive ? "" : "† "}
          <Link href={profileHref(s.name)} aria-label={t.game.profileLabel(s.name)}>
            {s.name}
          </Link>
        </span>
        {isMe && <span className="badge badge-me">{tp.you}</span>}
        <span className="sr-only">, {s.alive ? tp.alive : tp.dead}</span>
        {props.role && <span className="seat-role">{tp.role(props.role)}</span>}
        {s.alive && s.cannotVote && <span className="seat-mute">{tp.cannotVote}</span>}
        {props.onPostsOf && (
          <button
            type="button"
            className="link seat-posts"
            aria-label={t.game.postsOf.showLabel(s.name)}
            onClick={() => props.onPostsOf?.({ seat: s.seat, name: s.name })}
          >
            {tp.posts}
          </button>
        )}
      </div>
      {votable && (
        <div className="seat-votes">
          <button
            type="button"
            className="red"
            disabled={vote.busy}
            aria-label={tp.voteRed(s.name)}
            onClick={() => props.tap(s.seat, "red")}
          >
            {tp.redShort}
          </button>
          <button
            type="button"
            className="blue"
            disabled={vote.busy}
            aria-label={tp.voteBlue(s.name)}
            onClick={() => props.tap(s.seat, "blue")}
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
              ref={vote.confirmRef}
              className={asking.color}
              onClick={() => vote.hold(asking.seat, asking.color, s.name, true)}
            >
              {tp.earlyYes}
            </button>
            <button type="button" onClick={vote.cancel}>
              {t.cancel}
            </button>
          </div>
        </div>
      )}
      {waiting && (
        <div className="row seat-result" role="status">
          <span className={waiting.color === "red" ? "vote-red" : "vote-blue"}>
            {tp.holding(waiting.color, waiting.name, waiting.early, vote.left)}
          </span>
          <button
            type="button"
            ref={vote.undoRef}
            aria-label={tp.undoLabel(waiting.name)}
            onClick={vote.undo}
          >
            {tp.undo}
          </button>
        </div>
      )}
      {result &&
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
}
