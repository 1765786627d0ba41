import { PRESET_ESTIMATES } from "@forum-mafia/protocol/preset-estimates";
import { SETUP_PRESETS, type BalanceEstimate, type Setup } from "@forum-mafia/protocol/setups";
import { useEffect, useState } from "react";
import { api } from "../../api.ts";
import { errorText, useLang } from "../../i18n/index.tsx";
import { useSetupT } from "../../i18n/setup.ts";
import { setupKey } from "./model.ts";

/** How long the setup must stay unchanged before its balance is asked for. */
const DEBOUNCE_MS = 300;
const SIDES = ["town", "mafia", "maniac", "draw"] as const;

/**
 * Issue 32: the presets' figures, kept with the code (`npm run presets:estimate`), by the setup's key: a
 * preset's balance is shown at once, with no request (the server would answer the same figures).
 */
const KEPT: ReadonlyMap<string, BalanceEstimate> = new Map(
  SETUP_PRESETS.map((p) => [setupKey(p.setup), PRESET_ESTIMATES[p.id]]),
);

/** The answer for one setup, kept with the setup's key: it is shown only while that setup is on screen. */
type Result =
  | { readonly key: string; readonly estimate: BalanceEstimate }
  | { readonly key: string; readonly error: unknown };

/**
 * Issue 17: the balance of the setup on screen, from bot games (POST /api/setups/estimate): each side's
 * win rate with its 95% interval and the mean length in days. Asked 300 ms after the last change; a
 * change aborts the request in flight, and an answer is shown only for the setup it was asked for. A
 * preset (its roles in any order, its options unchanged) is not asked for: its figures are kept with the code.
 */
export function EstimatePanel(props: {
  setup: Setup | null;
  id: string;
  /** The setup was picked whole (a preset, a saved one), not typed: ask at once. */
  picked: boolean;
}) {
  const w = useSetupT().estimate;
  const { lang } = useLang();
  const [result, setResult] = useState<Result | null>(null);
  const [attempt, setAttempt] = useState(0);
  const setup = props.setup;
  const key = setup === null ? null : setupKey(setup);
  const kept = key === null ? undefined : KEPT.get(key);

  useEffect(() => {
    if (setup === null || key === null || kept !== undefined) return;
    const abort = new AbortController();
    const timer = setTimeout(
      () => {
        api.estimate(setup, abort.signal).then(
          (estimate) => {
            if (!abort.signal.aborted) setResult({ key, estimate });
          },
          (error: unknown) => {
            if (!abort.signal.aborted) setResult({ key, error });
          },
        );
      },
      props.picked ? 0 : DEBOUNCE_MS,
    );
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
    // `key` stands for the setup: a new object with the same roles and options is not a change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);

  // Only an answer for exactly this setup is shown; anything else is still being counted.
  const current =
    key !== null && kept !== undefined
      ? { key, estimate: kept }
      : result !== null && result.key === key
        ? result
        : null;
  const retry = () => {
    setResult(null);
    setAttempt((a) => a + 1);
  };

  return (
    <section className="card estimate" id={props.id} tabIndex={-1} aria-labelledby={`${props.id}-h`}>
      <h2 id={`${props.id}-h`}>{w.heading}</h2>
      <p className="muted small">{w.lead}</p>
      <div className="estimate-body" aria-live="polite" aria-busy={setup !== null && current === null}>
        {setup === null ? (
          <p className="muted">{w.waiting}</p>
        ) : current === null ? (
          <p className="estimate-pending">{w.pending}</p>
        ) : "error" in current ? (
          <div>
            <p className="error">
              {w.failed} {errorText(current.error, lang)}
            </p>
            <button type="button" onClick={retry}>
              {w.retry}
            </button>
          </div>
        ) : (
          <Figures estimate={current.estimate} />
        )}
      </div>
    </section>
  );
}

function Figures(props: { estimate: BalanceEstimate }) {
  const w = useSetupT().estimate;
  const { estimate } = props;
  return (
    <div className="estimate-figures">
      <ul className="rates">
        {SIDES.map((side) => {
          const r = estimate.winRates[side];
          return (
            <li
              key={side}
              className={`rate ${side}`}
              aria-label={w.rateLabel(w.sides[side], r.rate, r.low, r.high)}
            >
              <span className="rate-line" aria-hidden="true">
                <span className="rate-side">{w.sides[side]}</span>
                <span className="rate-figure">{w.rate(r.rate, r.low, r.high)}</span>
              </span>
              <span className="rate-bar" aria-hidden="true">
                <span
                  className="rate-ci"
                  style={{ left: `${r.low * 100}%`, width: `${(r.high - r.low) * 100}%` }}
                />
                <span className="rate-fill" style={{ width: `${r.rate * 100}%` }} />
              </span>
            </li>
          );
        })}
      </ul>
      {/* Issue 28: the games that did not end within the cap, a figure of their own, said in words. */}
      {estimate.stalled.rate > 0 ? (
        <div className="notice estimate-stalled">
          <p>
            <strong>
              {w.stalledLabel(estimate.stalled.rate, estimate.stalled.low, estimate.stalled.high)}
            </strong>
          </p>
          <p>
            {w.stalled(
              Math.round(estimate.stalled.rate * estimate.games),
              estimate.games,
              estimate.phaseCap / 2,
            )}
          </p>
        </div>
      ) : (
        <p className="muted small estimate-stalled">{w.noneStalled(estimate.phaseCap / 2)}</p>
      )}
      <p className="estimate-length">
        {w.length}: <strong>{w.days(estimate.meanDays)}</strong>
      </p>
      <p className="muted small estimate-from">{w.from(estimate.games)}</p>
    </div>
  );
}
