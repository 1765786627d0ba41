import type { ActionForm, GameDetail, GameView, Lang, NightAction } from "@forum-mafia/protocol";
import type { HealFromRole } from "@forum-mafia/protocol/roles";
import { useId, useState, type FormEvent } from "react";
import { api, type ActionBody } from "../../api.ts";
import { errorText, useLang, useT, type Dict } from "../../i18n/index.tsx";
import { useArrival, type GameData } from "../../use-game.ts";
import {
  CouncilChoice,
  HealFromChoice,
  MafiaChoice,
  TargetChoice,
  listedQuestions,
  questionWords,
} from "./night-choices.tsx";

/**
 * The night's form (O1, O1a): what the player has sent tonight, the act to send, its target (or the
 * mafia's kills, the council's question, the role to heal from), and the button that sends it.
 */

type Act = NightAction["act"];
type FormAct = ActionForm["acts"][number];
type Words = Dict["play"];
type CouncilWords = Dict["council"];

/**
 * The player's choices so far. Nothing is preselected but what was already sent tonight. The notebook's
 * form for a seat's move (issue 18) keeps the same choices and turns them into an action the same way.
 */
export interface Choice {
  readonly act: Act | null;
  readonly target: number | null;
  readonly role: HealFromRole | null;
  readonly kill: readonly number[];
  readonly intimidate: readonly number[];
  /** M2c: the chosen listed question (its text), or "". */
  readonly question: string;
  /** M2c: a question of the player's own is chosen instead (a game with a GM), and its text. */
  readonly ownQuestion: boolean;
  readonly ownText: string;
}

export function choiceFrom(sent: NightAction | null, listed: readonly string[]): Choice {
  const asked = sent?.act === "council" ? sent.question : null;
  const own = asked !== null && !listed.includes(asked);
  return {
    act: sent?.act ?? null,
    target: sent && "target" in sent ? sent.target : null,
    role: sent?.act === "healFrom" ? sent.role : null,
    kill: sent?.act === "mafia" ? sent.kill : [],
    intimidate: sent?.act === "mafia" ? sent.intimidate : [],
    question: asked !== null && !own ? asked : "",
    ownQuestion: own,
    ownText: own ? asked : "",
  };
}

/** What the choices would send, or why they cannot be sent yet (`own`: a question of one's own is allowed). */
export function bodyOf(
  current: FormAct | null,
  c: Choice,
  w: Words,
  wc: CouncilWords,
  own: boolean,
): ActionBody | string {
  if (!current) return w.form.needAct;
  switch (current.act) {
    case "pass":
      return { act: "pass" };
    case "council":
      if (own && c.ownQuestion)
        return c.ownText.trim() ? { act: "council", question: c.ownText.trim() } : wc.needOwn;
      return c.question ? { act: "council", question: c.question } : wc.needQuestion;
    case "healFrom":
      return c.role ? { act: "healFrom", role: c.role } : w.form.needRole;
    case "mafia":
      return c.kill.length + c.intimidate.length > 0
        ? { act: "mafia", kill: [...c.kill], intimidate: [...c.intimidate] }
        : w.form.needMafia;
    default:
      return c.target !== null && current.targets.includes(c.target)
        ? { act: current.act, target: c.target }
        : w.form.needTarget;
  }
}

/** The choices, each change of which clears the last outcome (`changed`). */
function useChoice(acts: readonly FormAct[], sent: NightAction | null, changed: () => void) {
  const [choice, setChoice] = useState<Choice>(() => {
    const council = acts.find((a) => a.act === "council");
    return choiceFrom(sent, council ? listedQuestions(council).map((q) => q.text) : []);
  });
  const current = acts.find((a) => a.act === choice.act) ?? null;
  const set = (patch: Partial<Choice>) => {
    setChoice((c) => ({ ...c, ...patch }));
    changed();
  };
  const chooseAct = (next: Act) => {
    const a = acts.find((x) => x.act === next);
    const keepTarget = choice.target === null || !a || a.targets.includes(choice.target);
    set(keepTarget ? { act: next } : { act: next, target: null });
  };
  return { choice, current, set, chooseAct };
}

/**
 * Sending: busy while the request runs and until the live stream brings the form with it (the list of what
 * was sent tonight), then the refusal in words or "accepted".
 */
function useSend(id: string, game: GameData) {
  const { lang } = useLang();
  const [requesting, setRequesting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [accepted, setAccepted] = useState(false);
  const arrival = useArrival(game);
  const reset = () => {
    setAccepted(false);
    setError(null);
  };
  const send = async (body: ActionBody | string) => {
    setAccepted(false);
    if (typeof body === "string") {
      setError(body);
      return;
    }
    const before = game.detail?.form;
    setRequesting(true);
    setError(null);
    try {
      await api.act(id, body);
      setAccepted(true);
      arrival.wait((g) => g.detail?.form !== before);
    } catch (err) {
      setError(errorText(err, lang));
    } finally {
      setRequesting(false);
    }
  };
  return { busy: requesting || arrival.waiting, requesting, error, accepted, reset, send };
}

export function NightForm(props: { id: string; game: GameData; detail: GameDetail; form: ActionForm }) {
  const t = useT();
  const w = t.play;
  const { detail: d, form } = props;
  const view = d.view!;
  const name = (seat: number): string => view.seats[seat]?.name ?? `#${seat + 1}`;
  const uid = useId();

  // G10: after the deadline only the mafia's action may come back, and only when the GM reopens it.
  const acts = d.clock.mafiaReopened
    ? form.acts.filter((a) => a.act === "mafia" || a.act === "council")
    : form.acts;
  const closed = d.clock.resultsPending && (!d.clock.mafiaReopened || acts.length === 0);
  // Nothing is preselected: the act and the target are the player's explicit choice (a serum, say,
  // reveals a role to everyone). A submission already sent tonight is shown as chosen.
  const mine = [...form.submitted].reverse().find((s) => acts.some((a) => a.act === s.action.act));
  const sending = useSend(props.id, props.game);
  const { choice, current, set, chooseAct } = useChoice(acts, mine?.action ?? null, sending.reset);
  // M2c: a game with a GM (review mode) also takes a question of one's own; without one, only the list.
  const ownQuestion = d.settings.mode === "review";
  const ready = bodyOf(current, choice, w, t.council, ownQuestion);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void sending.send(ready);
  };

  return (
    <div className="play-night">
      <SubmittedList form={form} view={view} name={name} />
      {closed ? (
        <p className="notice">{w.form.closed}</p>
      ) : (
        <form onSubmit={submit} noValidate>
          {d.clock.mafiaReopened && <p className="notice">{w.form.reopened}</p>}
          <ActPicker acts={acts} current={current} onChoose={chooseAct} uid={uid} />
          {current && (
            <ActDetails
              current={current}
              choice={choice}
              set={set}
              form={form}
              me={view.me!.seat}
              name={name}
              uid={uid}
              ownQuestion={ownQuestion}
            />
          )}
          <SendRow
            busy={sending.busy}
            requesting={sending.requesting}
            error={sending.error}
            accepted={sending.accepted}
            ready={ready}
            hintId={`${uid}-submit-hint`}
          />
          <p className="muted play-hint">{w.form.change}</p>
        </form>
      )}
    </div>
  );
}

/** The submitted action in words: "Ход мафии: убить Бот Валера". */
function describe(action: NightAction, name: (seat: number) => string, w: Words, lang: Lang): string {
  switch (action.act) {
    case "mafia": {
      const parts: string[] = [];
      if (action.kill.length) parts.push(w.submitted.kill(action.kill.map(name).join(", ")));
      if (action.intimidate.length)
        parts.push(w.submitted.intimidate(action.intimidate.map(name).join(", ")));
      return parts.join("; ");
    }
    case "council":
      return w.submitted.council(questionWords(action.question, lang));
    case "healFrom":
      return w.healFrom[action.role];
    case "pass":
      return w.submitted.pass;
    default:
      return w.submitted.target(w.acts[action.act].label, name(action.target));
  }
}

/** What this player's slots hold tonight, a team slot with who sent it. */
function SubmittedList(props: { form: ActionForm; view: GameView; name: (seat: number) => string }) {
  const w = useT().play;
  const { lang } = useLang();
  const { form, view, name } = props;
  const me = view.me!;
  // Who sent each submission: the view lists the same submissions in the same order, with the seat.
  const seen = view.submissions.filter((s) => s.slot !== "own" || s.seat === me.seat);
  const authors = seen.length === form.submitted.length ? seen.map((s) => s.seat) : null;
  return (
    <div className="play-submitted" aria-live="polite">
      <h3>{w.submitted.heading}</h3>
      {form.submitted.length === 0 ? (
        <p className="muted">{w.submitted.nothing}</p>
      ) : (
        <ul>
          {form.submitted.map((s, i) => {
            const by = authors?.[i];
            return (
              <li key={i}>
                <strong>{w.submitted.slot[s.slot]}:</strong> {describe(s.action, name, w, lang)}
                {by !== undefined && s.slot !== "own" && (
                  <span className="muted">
                    {" "}
                    ({by === me.seat ? w.submitted.byMe : w.submitted.by(name(by))})
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** The acts open tonight, each with its hint. */
function ActPicker(props: {
  acts: readonly FormAct[];
  current: FormAct | null;
  onChoose: (act: Act) => void;
  uid: string;
}) {
  const w = useT().play;
  return (
    <fieldset className="play-acts">
      <legend>{w.form.act}</legend>
      {props.acts.map((a) => {
        const hintId = `${props.uid}-hint-${a.act}`;
        return (
          <label key={a.act} className="play-choice">
            <input
              type="radio"
              name={`${props.uid}-act`}
              value={a.act}
              checked={props.current?.act === a.act}
              onChange={() => props.onChoose(a.act)}
              aria-describedby={hintId}
            />
            <span>
              <span className="play-choice-label">{w.acts[a.act].label}</span>
              <span id={hintId} className="muted play-hint">
                {w.acts[a.act].hint}
              </span>
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}

/** What the chosen act needs: the mafia's kills, the council's question, a role or a target. */
function ActDetails(props: {
  current: FormAct;
  choice: Choice;
  set: (patch: Partial<Choice>) => void;
  form: ActionForm;
  me: number;
  name: (seat: number) => string;
  uid: string;
  ownQuestion: boolean;
}) {
  const w = useT().play;
  const { current, choice, set, form } = props;
  return (
    <>
      {current.act === "mafia" && (
        <MafiaChoice
          current={current}
          limits={form.mafiaLimits ?? { kill: 2, intimidate: 3 }}
          kill={choice.kill}
          intimidate={choice.intimidate}
          setKill={(kill) => set({ kill })}
          setIntimidate={(intimidate) => set({ intimidate })}
          name={props.name}
        />
      )}
      {current.act === "mafia" && form.submitted.some((s) => s.slot === "mafia") && (
        <p className="muted">{w.form.m4}</p>
      )}
      {current.act === "council" && (
        <CouncilChoice
          questions={listedQuestions(current)}
          own={props.ownQuestion}
          listed={choice.question || null}
          ownChosen={choice.ownQuestion}
          ownText={choice.ownText}
          onListed={(question) => set({ question, ownQuestion: false })}
          onOwn={() => set({ ownQuestion: true })}
          onOwnText={(ownText) => set({ ownText })}
          group={`${props.uid}-question`}
        />
      )}
      {current.act === "healFrom" && (
        <HealFromChoice
          roles={current.roles ?? []}
          value={choice.role}
          onChange={(role) => set({ role })}
          group={`${props.uid}-role`}
        />
      )}
      {current.act !== "mafia" && current.targets.length > 0 && (
        <TargetChoice
          targets={current.targets}
          unavailable={current.unavailable ?? []}
          me={props.me}
          value={choice.target}
          onChange={(target) => set({ target })}
          name={props.name}
          group={`${props.uid}-target`}
        />
      )}
    </>
  );
}

/** The send button, disabled with the reason beside it until the choices are complete; then the outcome. */
function SendRow(props: {
  busy: boolean;
  requesting: boolean;
  error: string | null;
  accepted: boolean;
  ready: ActionBody | string;
  hintId: string;
}) {
  const w = useT().play;
  const missing = typeof props.ready === "string" ? props.ready : null;
  return (
    <>
      {props.error && (
        <p className="error" role="alert">
          {props.error}
        </p>
      )}
      {props.accepted && (
        <p className="play-accepted" role="status">
          {w.form.accepted}
        </p>
      )}
      <div className="row">
        <button
          type="submit"
          className="primary"
          disabled={props.busy || missing !== null}
          aria-describedby={missing !== null ? props.hintId : undefined}
        >
          {props.requesting ? w.form.sending : w.form.submit}
        </button>
        {missing !== null && (
          <span className="muted" id={props.hintId}>
            {missing}
          </span>
        )}
      </div>
    </>
  );
}
