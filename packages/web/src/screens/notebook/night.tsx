import type { ActionForm, NotebookView } from "@forum-mafia/protocol";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { NotebookActionBody, NotebookRollsBody } from "../../api.ts";
import { useLang, useT } from "../../i18n/index.tsx";
import { useNotebookT } from "../../i18n/notebook.ts";
import {
  CouncilChoice,
  HealFromChoice,
  MafiaChoice,
  TargetChoice,
  listedQuestions,
  questionWords,
} from "../game/night-choices.tsx";
import { bodyOf, choiceFrom, type Choice } from "../game/night-form.tsx";
import "../game/play.css";
import { chosenRolls, DraftLines, RollChoices, type RollChoice } from "../gm/readouts.tsx";
import type { RoleNames } from "./page.tsx";
import {
  CloseButton,
  CopyBox,
  ReasonField,
  RemoveWithReason,
  useSend,
  usePhaseName,
  type Send,
} from "./shared.tsx";

/**
 * Issue 18, the night: the moves the GM received by private message, entered seat by seat through the
 * engine's form for that seat (only its role's legal acts and targets; the others disabled with the
 * reason); whether each still owes a move (P2); the inputs entered, each removable with a reason (F2); the
 * draft of the results with the council's question (M2c) and the rolls (O8, F2); closing the night.
 */

export function NightPanel(props: {
  view: NotebookView;
  setView: (v: NotebookView) => void;
  names: RoleNames;
}) {
  const w = useNotebookT();
  const phaseOf = usePhaseName();
  const { view, setView, names } = props;
  const night = view.night!;
  const id = useId();
  const [seat, setSeat] = useState("");
  const name = (s: number): string => view.seats[s]?.name ?? `#${s + 1}`;
  const entry = seat === "" ? null : night.forms.find((f) => f.seat === Number(seat));
  const owing = night.forms.filter((f) => f.owes).length;
  const close = useSend(view.id, setView);
  return (
    <section className="card nb-night" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{w.night.heading(phaseOf(view.phase))}</h2>
      <p className="muted">{w.night.lead}</p>
      <h3>{w.night.moves}</h3>
      <ul className="nb-moves">
        {night.forms.map((f) => (
          <li key={f.seat}>
            <strong>{name(f.seat)}</strong> — {names[view.seats[f.seat]!.role]}:{" "}
            <span className={f.owes ? "nb-owes" : "ok"}>{f.owes ? w.night.owes : w.night.sent}</span>
          </li>
        ))}
      </ul>
      <label className="field">
        <span>{w.night.whose}</span>
        <select value={seat} onChange={(e) => setSeat(e.target.value)}>
          <option value="">{w.night.pick}</option>
          {night.forms.map((f) => (
            <option key={f.seat} value={f.seat}>
              {`${name(f.seat)} — ${names[view.seats[f.seat]!.role]}`}
            </option>
          ))}
        </select>
      </label>
      {entry && (
        <Entry
          key={entry.seat}
          view={view}
          setView={setView}
          seat={entry.seat}
          form={entry.form}
          name={name}
        />
      )}
      <Inputs view={view} setView={setView} />
      <Draft view={view} setView={setView} />
      {owing > 0 && <p className="notice">{w.night.owesLeft(owing)}</p>}
      <CloseButton close={close} label={w.night.close} busyLabel={w.night.closing} />
      <p className="muted small">{w.night.closeHint}</p>
      {close.outcome}
    </section>
  );
}

/** No choice yet: nothing is preselected. */
const EMPTY: Choice = choiceFrom(null, []);

/** One seat's move as the GM received it: the acts its form offers, the target, and a reason when it replaces one. */
function Entry(props: {
  view: NotebookView;
  setView: (v: NotebookView) => void;
  seat: number;
  form: ActionForm;
  name: (seat: number) => string;
}) {
  const t = useT();
  const w = useNotebookT();
  const uid = useId();
  const { form, seat } = props;
  const r = useSend(props.view.id, props.setView);
  const [c, setChoice] = useState<Choice>(EMPTY);
  const [reason, setReason] = useState("");
  const set = (patch: Partial<Choice>) => setChoice((x) => ({ ...x, ...patch }));
  const current = form.acts.find((a) => a.act === c.act) ?? null;
  // Something is entered for this seat tonight: entering over the same slot is a correction (F2), whose
  // reason the server asks for (it knows which slot an act fills).
  const filled = form.submitted.length > 0;
  // The player's form's words for what is missing; the GM may always enter a question of the player's own.
  const action = bodyOf(current, c, t.play, t.council, true);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typeof action === "string") return r.fail(action);
    const body: NotebookActionBody = reason.trim()
      ? { seat, action, reason: reason.trim() }
      : { seat, action };
    void r.send("actions", body, w.night.entered);
  };
  return (
    <form className="sub nb-entry play-night" onSubmit={submit} noValidate>
      <fieldset className="play-acts">
        <legend>{t.play.form.act}</legend>
        {form.acts.map((a) => (
          <label key={a.act} className="play-choice">
            <input
              type="radio"
              name={`${uid}-act`}
              value={a.act}
              checked={c.act === a.act}
              onChange={() =>
                set(
                  c.target !== null && !a.targets.includes(c.target)
                    ? { act: a.act, target: null }
                    : { act: a.act },
                )
              }
            />
            <span className="play-choice-label">{t.play.acts[a.act].label}</span>
          </label>
        ))}
      </fieldset>
      {current?.act === "mafia" && (
        <MafiaChoice
          current={current}
          limits={form.mafiaLimits ?? { kill: 2, intimidate: 3 }}
          kill={c.kill}
          intimidate={c.intimidate}
          setKill={(kill) => set({ kill })}
          setIntimidate={(intimidate) => set({ intimidate })}
          name={props.name}
        />
      )}
      {current?.act === "council" && (
        <CouncilChoice
          questions={listedQuestions(current)}
          own
          listed={c.question || null}
          ownChosen={c.ownQuestion}
          ownText={c.ownText}
          onListed={(question) => set({ question, ownQuestion: false })}
          onOwn={() => set({ ownQuestion: true })}
          onOwnText={(ownText) => set({ ownText })}
          group={`${uid}-question`}
        />
      )}
      {current?.act === "healFrom" && (
        <HealFromChoice
          roles={current.roles ?? []}
          value={c.role}
          onChange={(role) => set({ role })}
          group={`${uid}-role`}
        />
      )}
      {current &&
        current.act !== "mafia" &&
        current.targets.length + (current.unavailable?.length ?? 0) > 0 && (
          <TargetChoice
            targets={current.targets}
            unavailable={current.unavailable ?? []}
            me={-1}
            value={c.target}
            onChange={(target) => set({ target })}
            name={props.name}
            group={`${uid}-target`}
          />
        )}
      {filled && <ReasonField value={reason} onChange={setReason} label={w.night.replaceReason} />}
      <div className="row">
        <button type="submit" className="primary" disabled={r.busy}>
          {w.night.submit}
        </button>
      </div>
      {r.outcome}
    </form>
  );
}

/** The inputs of the phase in play, in order, each removable with a reason (F2). */
export function Inputs(props: { view: NotebookView; setView: (v: NotebookView) => void }) {
  const w = useNotebookT();
  const r = useSend(props.view.id, props.setView);
  const { inputs } = props.view;
  return (
    <div className="nb-inputs">
      <h3>{w.page.inputs}</h3>
      {inputs.length === 0 ? (
        <p className="muted">{w.page.noInputs}</p>
      ) : (
        <ol>
          {inputs.map((input, index) => (
            <li key={`${index}-${input.text}`}>
              <span className={input.kind === "vote" ? `vote-${input.color}` : undefined}>{input.text}</span>
              {input.kind === "vote" && (
                <small className="muted">
                  {" "}
                  (
                  {input.source.kind === "thread"
                    ? w.page.fromThread(input.source.label ?? String(input.source.post + 1))
                    : w.page.byHand}
                  )
                </small>
              )}{" "}
              <RemoveWithReason
                label={w.page.removeOf(input.text)}
                busy={r.busy}
                onRemove={(reason) => void r.send("inputs/remove", { index, reason })}
              />
            </li>
          ))}
        </ol>
      )}
      {r.outcome}
    </div>
  );
}

/** The draft of the results as closing now would give them, the council's question and the rolls. */
function Draft(props: { view: NotebookView; setView: (v: NotebookView) => void }) {
  const t = useT();
  const w = useNotebookT();
  const { draft, posts } = props.view.night!;
  const phase = usePhaseName()(props.view.phase);
  return (
    <div className="nb-draft">
      <h3>{w.night.draft}</h3>
      <p className="muted">{w.night.draftLead}</p>
      <DraftLines heading={t.gm.review.publicLines} lines={draft.publicLines} />
      <DraftLines heading={t.gm.review.privateLines} lines={draft.privateLines} />
      <details>
        <summary>{t.gm.review.explanation}</summary>
        <DraftLines heading={t.gm.review.explanation} lines={draft.explanation} />
      </details>
      {posts && (
        <details>
          <summary>{w.page.publicPost}</summary>
          <CopyBox label={w.page.publicPost} copyLabel={w.page.copyPublic(phase)} text={posts.public} />
        </details>
      )}
      {draft.blocked && (
        <p className="notice" role="status">
          {w.night.blocked} {draft.blocked}
        </p>
      )}
      {draft.councilQuestion !== null && <Council view={props.view} setView={props.setView} />}
      <Rolls view={props.view} setView={props.setView} />
    </div>
  );
}

type Answer = "yes" | "no" | "rejected";

/** M2c: the council's question with the rules' answer; another answer needs a reason (F2). */
function Council(props: { view: NotebookView; setView: (v: NotebookView) => void }) {
  const t = useT();
  const { lang } = useLang();
  const r: Send = useSend(props.view.id, props.setView);
  const [reason, setReason] = useState("");
  const draft = props.view.night!.draft;
  const words = t.gm.review.answers;
  const suggested = draft.councilSuggested;
  const choose = (a: Answer) => {
    const differs = suggested !== null && a !== suggested;
    if (differs && !reason.trim()) return r.fail(t.council.reasonNeeded);
    void r.send("council", differs ? { answer: a, reason: reason.trim() } : { answer: a });
  };
  return (
    <div className="card council">
      <h4>{t.gm.council.heading}</h4>
      <blockquote>{questionWords(draft.councilQuestion ?? "", lang)}</blockquote>
      <p>{suggested !== null ? t.council.suggested(words[suggested]) : t.council.noSuggestion}</p>
      <p>
        {t.gm.review.councilAnswer(draft.councilAnswer ? words[draft.councilAnswer] : t.gm.review.noAnswer)}
      </p>
      <ReasonField value={reason} onChange={setReason} label={t.council.reason} />
      <div className="row">
        {(["yes", "no", "rejected"] as const).map((a) => (
          <button
            key={a}
            type="button"
            aria-pressed={draft.councilAnswer === a}
            disabled={r.busy}
            onClick={() => choose(a)}
          >
            {t.gm.review.answerButton(words[a])}
            {a === suggested && ` (${t.council.suggestedTag})`}
          </button>
        ))}
      </div>
      {r.outcome}
    </div>
  );
}

/** O8, F2: fixing a roll instead of the seed's draw, with the reason. */
function Rolls(props: { view: NotebookView; setView: (v: NotebookView) => void }) {
  const t = useT();
  const w = useNotebookT();
  const r = useSend(props.view.id, props.setView);
  const [choice, setChoice] = useState<RollChoice>({});
  const [reason, setReason] = useState("");
  const fixed = props.view.night!.draft.fixedRolls;
  const seeded = props.view.seedHash !== null;
  // O8: when the draft waits for a roll, the panel opens (and stays as the GM leaves it afterwards).
  const panel = useRef<HTMLDetailsElement>(null);
  const waiting = props.view.night!.draft.blockedCode === "night/roll-needed";
  useEffect(() => {
    if (waiting && panel.current) panel.current.open = true;
  }, [waiting]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const rolls: NotebookRollsBody["rolls"] = chosenRolls(choice);
    if (Object.keys(rolls).length === 0) return r.fail(t.gm.review.rollsNone);
    // F2: with a seed a roll is drawn, and fixing it is an override with a reason; a hand deal's GM rolls dice.
    if (seeded && !reason.trim()) return r.fail(w.page.reasonNeeded);
    void r.send("rolls", { rolls, ...(reason.trim() ? { reason: reason.trim() } : {}) }).then((ok) => {
      if (ok) {
        setChoice({});
        setReason("");
      }
    });
  };
  return (
    <details ref={panel} className="sub">
      <summary>{seeded ? w.night.rolls : w.night.rollsHand}</summary>
      <form onSubmit={submit}>
        <p className="muted">{seeded ? t.gm.review.rollsHint : w.night.rollsHandHint}</p>
        <RollChoices labels={w.night.roll} fixed={fixed} choice={choice} setChoice={setChoice} />
        <ReasonField
          value={reason}
          onChange={setReason}
          {...(seeded ? {} : { label: w.night.rollsHandReason })}
        />
        <button type="submit" disabled={r.busy}>
          {t.gm.review.rollsSubmit}
        </button>
        {r.outcome}
      </form>
    </details>
  );
}
