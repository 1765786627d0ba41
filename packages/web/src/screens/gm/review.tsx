import type { GameDetail, NightDraft } from "@forum-mafia/protocol";
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { api, type RollsBody } from "../../api.ts";
import { ERROR_TEXTS } from "../../i18n/errors.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";
import { questionWords } from "../game/night-choices.tsx";
import { chosenRolls, DraftLines, RollChoices, type RollChoice } from "./readouts.tsx";
import { Fold } from "./fold.tsx";
import { useRun } from "./shared.tsx";

/**
 * The night's review (G10, F2): the draft of the results, the rolls the GM may fix, reopening the mafia's
 * move, publishing; and the council's question (M2c), answered as soon as it is asked.
 */

export function ReviewPanel(props: {
  id: string;
  detail: GameDetail;
  done: () => void;
  onPublished: () => void;
}) {
  const t = useT();
  const { lang } = useLang();
  const [draft, setDraft] = useState<NightDraft | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const id = props.id;
  const load = useCallback(() => {
    api.gm.draft(id, lang).then(
      (d) => {
        setDraft(d);
        setLoadError(null);
      },
      (e: unknown) => setLoadError(errorText(e, lang)),
    );
  }, [id, lang]);
  // The draft changes with every submission and GM decision: reload it when the game does.
  const streamAt = props.detail.streamAt;
  useEffect(() => load(), [load, streamAt]);
  const after = useCallback(() => {
    load();
    props.done();
  }, [load, props]);

  return (
    <div className="card review">
      <h3>{t.gm.review.heading}</h3>
      <p className="muted">{t.gm.review.intro}</p>
      <button type="button" onClick={load}>
        {t.gm.review.load}
      </button>
      {loadError && (
        <p className="error" role="alert">
          {loadError}
        </p>
      )}
      {draft && (
        <>
          <DraftLines heading={t.gm.review.publicLines} lines={draft.publicLines} />
          <DraftLines heading={t.gm.review.privateLines} lines={draft.privateLines} />
          <DraftLines heading={t.gm.review.explanation} lines={draft.explanation} />
          <Rolls id={id} draft={draft} done={after} />
          <Reopen id={id} done={after} />
          {/* Issue 32: once published there is no draft to read again (the server answers 409): only the game. */}
          <Publish id={id} draft={draft} done={props.done} onPublished={props.onPublished} />
        </>
      )}
    </div>
  );
}

type Answer = "yes" | "no" | "rejected";

/**
 * M2c: the council's question, answered as soon as it is asked (at night, and in review). For a question
 * of the rules' list the rules' answer is shown (`suggested`): the GM accepts it, or gives another answer
 * with a reason (F2), which the log keeps.
 */
export function Council(props: {
  id: string;
  question: string;
  answer: Answer | null;
  suggested: "yes" | "no" | null;
  automatic: boolean;
  done: () => void;
}) {
  const t = useT();
  const { lang } = useLang();
  const w = t.council;
  const r = useRun(props.done);
  const [reason, setReason] = useState("");
  const reasonId = useId();
  const { answer, suggested } = props;
  const words = t.gm.review.answers;
  const choose = (a: Answer) => {
    const differs = suggested !== null && a !== suggested;
    if (differs && !reason.trim()) return r.fail(w.reasonNeeded);
    void r
      .run(() => api.gm.council(props.id, a, differs ? reason.trim() : undefined), t.gm.council.answered)
      .then((ok) => {
        if (ok) setReason("");
      });
  };
  const waiting = props.automatic
    ? suggested !== null
      ? w.automatic(words[suggested])
      : t.gm.council.automatic
    : t.gm.council.review;
  // Issue 32: open while the question waits for an answer; once answered it folds to its heading and the
  // answer (the GM may still open it and change the answer).
  return (
    <Fold
      folded={answer !== null}
      className="council"
      heading={
        <>
          {t.gm.council.heading}
          {answer !== null && <span className="muted"> ({t.gm.council.summary(words[answer])})</span>}
        </>
      }
    >
      <p className="muted">{t.gm.council.intro}</p>
      <blockquote>{questionWords(props.question, lang)}</blockquote>
      <p>{suggested !== null ? w.suggested(words[suggested]) : w.noSuggestion}</p>
      <p>{t.gm.review.councilAnswer(answer ? words[answer] : t.gm.review.noAnswer)}</p>
      {answer === null && <p className="notice">{waiting}</p>}
      {suggested !== null && (
        <label className="field">
          <span id={reasonId}>{w.reason}</span>
          <input maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
      )}
      <div className="row">
        {(["yes", "no", "rejected"] as const).map((a) => (
          <button
            key={a}
            type="button"
            aria-pressed={answer === a}
            disabled={r.busy}
            aria-describedby={suggested !== null && a !== suggested ? reasonId : undefined}
            onClick={() => choose(a)}
          >
            {t.gm.review.answerButton(words[a])}
            {a === suggested && ` (${w.suggestedTag})`}
          </button>
        ))}
      </div>
      {r.outcome}
    </Fold>
  );
}

function Rolls(props: { id: string; draft: NightDraft; done: () => void }) {
  const t = useT();
  const r = useRun(props.done);
  const [choice, setChoice] = useState<RollChoice>({});
  const [reason, setReason] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const rolls: RollsBody["rolls"] = chosenRolls(choice);
    if (Object.keys(rolls).length === 0) return r.fail(t.gm.review.rollsNone);
    void r
      .run(() => api.gm.rolls(props.id, { rolls, reason }), t.gm.review.rollsFixed)
      .then((ok) => {
        if (ok) {
          setChoice({});
          setReason("");
        }
      });
  };
  const fixed = props.draft.fixedRolls;
  // Issue 32: rarely needed (the seed rolls), so closed until the GM opens it.
  return (
    <details className="sub fold">
      <summary>
        <h4>{t.gm.review.rolls}</h4>
      </summary>
      <form onSubmit={submit}>
        <p className="muted">{t.gm.review.rollsHint}</p>
        <RollChoices labels={t.gm.review.roll} fixed={fixed} choice={choice} setChoice={setChoice} />
        <label className="field">
          <span>{t.gm.review.reason}</span>
          <input required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <button type="submit" disabled={r.busy}>
          {t.gm.review.rollsSubmit}
        </button>
        {r.outcome}
      </form>
    </details>
  );
}

function Reopen(props: { id: string; done: () => void }) {
  const t = useT();
  const r = useRun(props.done);
  const [reason, setReason] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void r
      .run(() => api.gm.reopenMafia(props.id, reason), t.gm.review.reopened)
      .then((ok) => {
        if (ok) setReason("");
      });
  };
  // Issue 32: a penalty measure, rarely needed: closed until the GM opens it.
  return (
    <details className="sub fold">
      <summary>
        <h4>{t.gm.review.reopen}</h4>
      </summary>
      <form onSubmit={submit}>
        <p className="muted">{t.gm.review.reopenHint}</p>
        <label className="field">
          <span>{t.gm.review.reason}</span>
          <input required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <button type="submit" disabled={r.busy}>
          {t.gm.review.reopenSubmit}
        </button>
        {r.outcome}
      </form>
    </details>
  );
}

function Publish(props: { id: string; draft: NightDraft; done: () => void; onPublished: () => void }) {
  const t = useT();
  const { lang } = useLang();
  const r = useRun(props.done);
  const why = useId();
  const blocked = props.draft.blocked;
  return (
    <div className="sub">
      {blocked && (
        <p id={why} className="notice">
          {t.gm.review.blocked(
            (props.draft.blockedCode && ERROR_TEXTS[props.draft.blockedCode]?.[lang]) || blocked,
          )}
        </p>
      )}
      <button
        type="button"
        className="primary"
        disabled={blocked !== null || r.busy}
        aria-describedby={blocked ? why : undefined}
        onClick={() =>
          void r
            .run(() => api.gm.publish(props.id), t.gm.review.published)
            .then((ok) => {
              if (ok) props.onPublished();
            })
        }
      >
        {t.gm.review.publish}
      </button>
      {r.outcome}
    </div>
  );
}
