import type { GameView, NightAction } from "@forum-mafia/protocol";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { errorText, useLang, useT, type Dict } from "../../i18n/index.tsx";

/**
 * What every part of the GM's console shares: the count of successes that clears stale refusals, one
 * control's request (useRun), the two-step button for destructive actions, and night actions in words.
 */

/**
 * Each success in the console, counted: a control's refusal is cleared by any later success (its own or
 * another control's) and by a change of phase, so no stale error stands beside a newer success.
 */
export const Successes = createContext<{ stamp: number; succeeded: () => number }>({
  stamp: 0,
  succeeded: () => 0,
});

/**
 * One control's request: busy while it runs, then its refusal in words or a brief success. `run`'s
 * `explain` may word a refusal its own way (null: the refusal's usual words). The notebook's requests
 * (`useSend`) run through it too, outside the console's `Successes`.
 */
export function useRun(after?: () => void) {
  const { lang } = useLang();
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [ok, setOk] = useState<string | null>(null);
  const { stamp, succeeded } = useContext(Successes);
  const mine = useRef<number | null>(null);
  // Another control's later success (or a new phase) makes this control's refusal stale.
  useEffect(() => {
    if (mine.current !== stamp) setError(null);
  }, [stamp]);
  const run = useCallback(
    async (
      action: () => Promise<unknown>,
      success?: string,
      explain?: (e: unknown) => string | null,
    ): Promise<boolean> => {
      setBusy(true);
      setError(null);
      setOk(null);
      try {
        await action();
        mine.current = succeeded();
        setOk(success ?? t.gm.console.done);
        after?.();
        return true;
      } catch (e) {
        setError(explain?.(e) ?? errorText(e, lang));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [after, lang, t, succeeded],
  );
  const fail = useCallback((message: string) => {
    setOk(null);
    setError(message);
  }, []);
  const outcome: ReactNode = (
    <>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {ok && (
        <p className="ok" role="status">
          {ok}
        </p>
      )}
    </>
  );
  return { busy, run, fail, outcome };
}

/** A destructive button: the first press asks, the second (on "yes") does it; Escape-free, plain buttons. */
export function ConfirmButton(props: {
  label: string;
  confirmLabel: string;
  disabled?: boolean;
  className?: string;
  onConfirm: () => void;
}) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  // After "yes" or "cancel" the question goes away: focus returns to the button that asked it (once
  // that button is enabled again, when the request it started has finished).
  const first = useRef<HTMLButtonElement>(null);
  const answered = useRef(false);
  useEffect(() => {
    if (answered.current && !asking && !props.disabled) {
      answered.current = false;
      first.current?.focus();
    }
  }, [asking, props.disabled]);
  if (!asking)
    return (
      <button
        ref={first}
        type="button"
        className={props.className}
        disabled={props.disabled}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  return (
    <span className="row confirm" role="group" aria-label={props.label}>
      <span>{t.gm.console.confirm}</span>
      <button
        type="button"
        className="red"
        autoFocus
        disabled={props.disabled}
        onClick={() => {
          answered.current = true;
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirmLabel}
      </button>
      <button
        type="button"
        onClick={() => {
          answered.current = true;
          setAsking(false);
        }}
      >
        {t.cancel}
      </button>
    </span>
  );
}

/** The names of the seats, as the view has them now. */
export const namesOf = (view: GameView): readonly string[] => view.seats.map((s) => s.name);

/** A night action in words, e.g. "проверка: Петя" or "убить: Петя; запугать: Коля". */
export function actionText(action: NightAction, names: readonly string[], t: Dict): string {
  const name = (s: number) => names[s] ?? `#${s + 1}`;
  switch (action.act) {
    case "mafia": {
      const parts = [
        action.kill.length ? t.gm.acts.kill(action.kill.map(name).join(", ")) : null,
        action.intimidate.length ? t.gm.acts.intimidate(action.intimidate.map(name).join(", ")) : null,
      ].filter((p): p is string => p !== null);
      return `${t.gm.acts.mafia}: ${parts.join("; ")}`;
    }
    case "council":
      return t.gm.acts.council(action.question);
    case "healFrom":
      return `${t.gm.acts.healFrom}: ${t.gm.acts.healFromRoles[action.role]}`;
    case "pass":
      return t.gm.acts.pass;
    default:
      return `${t.gm.acts[action.act]}: ${name(action.target)}`;
  }
}
