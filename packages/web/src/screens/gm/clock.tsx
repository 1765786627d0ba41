import type { GameDetail } from "@forum-mafia/protocol";
import { useEffect, useId, useState, type FormEvent } from "react";
import { api } from "../../api.ts";
import { useLang, useT } from "../../i18n/index.tsx";
import { useSession } from "../../session.tsx";
import { formatLeft, formatMoment, phaseName } from "../../time.ts";
import { ConfirmButton, useRun } from "./shared.tsx";

/** The time now, once a second. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The phase clock: the deadline, extending it, closing the phase now, pausing and resuming (G10). Issue 32:
 * the phase and its deadline show at once; the controls sit in a closed <details> (Tab, Enter opens it),
 * with the reason there is nothing to close in review where the button would be.
 */
export function ClockPanel(props: { id: string; detail: GameDetail; done: () => void }) {
  const t = useT();
  const { lang } = useLang();
  const { timeZone } = useSession();
  const now = useNow();
  const d = props.detail;
  const clock = d.clock;
  const [minutes, setMinutes] = useState("30");
  const extend = useRun(props.done);
  const close = useRun(props.done);
  const pause = useRun(props.done);
  const closeHint = useId();
  const submitExtend = (e: FormEvent) => {
    e.preventDefault();
    const m = Number(minutes);
    void extend.run(() => api.gm.extend(props.id, m), t.gm.clock.extended(m));
  };
  return (
    <div className="card">
      <h3>{t.gm.clock.heading}</h3>
      {clock.phase && <p>{t.gm.clock.phaseNow(phaseName(clock.phase, t))}</p>}
      {clock.deadline !== null && (
        <p>
          {t.gm.clock.deadline(
            formatLeft(clock.deadline - now, t),
            formatMoment(clock.deadline, timeZone, lang),
          )}
        </p>
      )}
      {clock.paused && <p className="notice">{t.countdown.paused}</p>}
      {clock.resultsPending && <p className="notice">{t.countdown.review}</p>}
      <details className="sub fold">
        <summary>{t.gm.clock.controls}</summary>
        <form className="row" onSubmit={submitExtend}>
          <label className="field inline">
            <span>{t.gm.clock.extendBy}</span>
            <input
              type="number"
              inputMode="numeric"
              min={1}
              max={7 * 24 * 60}
              step={1}
              required
              value={minutes}
              onChange={(e) => setMinutes(e.target.value)}
            />
          </label>
          <button type="submit" disabled={extend.busy}>
            {t.gm.clock.extend}
          </button>
        </form>
        {extend.outcome}
        {/* G10: in review the intake is already closed; only publishing ends the night. */}
        <p id={closeHint} className={clock.resultsPending ? "notice" : "muted"}>
          {clock.resultsPending ? t.gm.clock.closeInReview : t.gm.clock.closeHint}
        </p>
        <div className="row">
          {!clock.resultsPending && (
            <ConfirmButton
              label={t.gm.clock.close}
              confirmLabel={t.gm.clock.closeConfirm}
              disabled={close.busy}
              onConfirm={() => void close.run(() => api.gm.close(props.id), t.gm.clock.closed)}
            />
          )}
          {clock.paused ? (
            <button
              type="button"
              disabled={pause.busy}
              onClick={() => void pause.run(() => api.gm.resume(props.id), t.gm.clock.resumed)}
            >
              {t.gm.clock.resume}
            </button>
          ) : (
            <button
              type="button"
              disabled={pause.busy}
              onClick={() => void pause.run(() => api.gm.pause(props.id), t.gm.clock.paused)}
            >
              {t.gm.clock.pause}
            </button>
          )}
        </div>
        {close.outcome}
        {pause.outcome}
      </details>
    </div>
  );
}
