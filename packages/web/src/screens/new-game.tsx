import { useEffect, useId, useState, type FormEvent, type ReactNode } from "react";
import { ApiFailure, api, type CreateGameBody } from "../api.ts";
import { errorText, useLang, useT, type Dict } from "../i18n/index.tsx";
import { navigate } from "../router.tsx";
import { useSession } from "../session.tsx";
import "./lobby.css";

type Unit = "hours" | "minutes";
type Field = "title" | "night" | "day" | "dayDeadline" | "options" | "mode" | "form";

/** The field a refusal names: the server's field errors read "night.amount: …". */
function fieldOf(e: unknown): Field {
  if (!(e instanceof ApiFailure) || e.code !== "invalid") return "form";
  const head = e.message.split(/[.:]/, 1)[0];
  return head === "title" ||
    head === "night" ||
    head === "day" ||
    head === "dayDeadline" ||
    head === "options" ||
    head === "mode"
    ? head
    : "form";
}

/** What the form holds, as typed. */
interface Setup {
  readonly title: string;
  readonly nightAmount: string;
  readonly nightUnit: Unit;
  readonly dayAmount: string;
  readonly dayUnit: Unit;
  readonly dayDeadline: string;
  readonly earlyClose: "majority" | "all";
  readonly strikes: "shared" | "separate";
  readonly mode: "review" | "automatic";
}

const FRESH: Setup = {
  title: "",
  nightAmount: "12",
  nightUnit: "hours",
  dayAmount: "24",
  dayUnit: "hours",
  dayDeadline: "",
  earlyClose: "majority",
  strikes: "shared",
  mode: "review",
};

/** A change to one field of the setup. */
type SetField = <K extends keyof Setup>(key: K) => (value: Setup[K]) => void;

interface FieldError {
  readonly field: Field;
  readonly text: string;
}

const amount = (s: string): number | null => {
  const v = Number(s);
  return Number.isInteger(v) && v >= 1 && v <= 240 ? v : null;
};

/** The request the setup makes, or the first field that is not right yet. */
function bodyOf(setup: Setup, n: Dict["lobby"]["newGame"]): CreateGameBody | FieldError {
  const night = amount(setup.nightAmount);
  const day = amount(setup.dayAmount);
  if (!setup.title.trim()) return { field: "title", text: n.titleEmpty };
  if (night === null) return { field: "night", text: n.amountRange(n.night) };
  if (day === null) return { field: "day", text: n.amountRange(n.day) };
  if (setup.dayDeadline && !/^([01]\d|2[0-3]):[0-5]\d$/.test(setup.dayDeadline))
    return { field: "dayDeadline", text: n.badDeadline };
  return {
    title: setup.title.trim(),
    night: { amount: night, unit: setup.nightUnit },
    day: { amount: day, unit: setup.dayUnit },
    dayDeadline: setup.dayDeadline || null,
    options: { earlyClose: setup.earlyClose, strikes: setup.strikes },
    mode: setup.mode,
  };
}

/** A field's refusal under it, and the ids that describe the field (its hint, its refusal). */
function fieldErrors(id: string, error: FieldError | null) {
  return {
    invalid: (field: Field) => error?.field === field,
    at: (field: Field) =>
      error?.field === field ? (
        <p className="error" role="alert" id={`${id}-${field}-err`}>
          {error.text}
        </p>
      ) : null,
    describedBy: (field: Field, hint?: string) =>
      [hint, error?.field === field ? `${id}-${field}-err` : undefined].filter(Boolean).join(" ") ||
      undefined,
  };
}
type Errors = ReturnType<typeof fieldErrors>;

/** The new-game form (createGameSchema): the caller becomes the game's GM. */
export default function NewGame() {
  const t = useT();
  const n = t.lobby.newGame;
  const { lang } = useLang();
  const { user } = useSession();
  const id = useId();
  const [setup, setSetup] = useState<Setup>(FRESH);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FieldError | null>(null);

  useEffect(() => {
    if (!user) navigate("/login?next=/new", true);
  }, [user]);
  // A refusal may name a field far above the submit button: bring its message into view.
  useEffect(() => {
    if (error) document.getElementById(`${id}-${error.field}-err`)?.scrollIntoView({ block: "center" });
  }, [error, id]);
  if (!user) return <p className="notice">{n.guest}</p>;

  const set: SetField = (key) => (value) => setSetup((s) => ({ ...s, [key]: value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const body = bodyOf(setup, n);
    if ("field" in body) return setError(body);
    setBusy(true);
    setError(null);
    try {
      const res = await api.createGame(body);
      navigate(`/games/${encodeURIComponent(res.id)}`);
    } catch (err) {
      setError({ field: fieldOf(err), text: errorText(err, lang) });
      setBusy(false);
    }
  };
  const errors = fieldErrors(id, error);

  return (
    <section className="new-game" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{n.title}</h1>
      <p className="muted">{n.lead}</p>
      <form onSubmit={submit} noValidate>
        <TitleField id={id} setup={setup} set={set} errors={errors} />
        <LengthFields id={id} setup={setup} set={set} errors={errors} />
        <RuleChoices setup={setup} set={set} errors={errors} />
        {errors.at("form")}
        <button type="submit" className="primary big" disabled={busy}>
          {busy ? n.busy : n.submit}
        </button>
      </form>
    </section>
  );
}

/** The game's title. */
function TitleField(props: { id: string; setup: Setup; set: SetField; errors: Errors }) {
  const n = useT().lobby.newGame;
  const { id, errors } = props;
  return (
    <div className="card">
      <div className="field">
        <label htmlFor={`${id}-title`}>
          <span>{n.gameTitle}</span>
        </label>
        <input
          id={`${id}-title`}
          className="wide-input"
          name="title"
          maxLength={120}
          required
          value={props.setup.title}
          onChange={(e) => props.set("title")(e.target.value)}
          aria-invalid={errors.invalid("title") || undefined}
          aria-describedby={errors.describedBy("title", `${id}-title-hint`)}
        />
        <small id={`${id}-title-hint`} className="muted hint">
          {n.gameTitleHint}
        </small>
      </div>
      {errors.at("title")}
    </div>
  );
}

/** How long a night and a day last, and the day's fixed deadline if any. */
function LengthFields(props: { id: string; setup: Setup; set: SetField; errors: Errors }) {
  const n = useT().lobby.newGame;
  const { timeZone } = useSession();
  const { id, setup, set, errors } = props;
  return (
    <fieldset className="card">
      <legend>{n.lengths}</legend>
      <div className="lengths">
        <Length
          label={n.night}
          unitLabel={n.nightUnit}
          amount={setup.nightAmount}
          unit={setup.nightUnit}
          setAmount={set("nightAmount")}
          setUnit={set("nightUnit")}
          invalid={errors.invalid("night")}
          describedBy={errors.describedBy("night")}
        />
        <Length
          label={n.day}
          unitLabel={n.dayUnit}
          amount={setup.dayAmount}
          unit={setup.dayUnit}
          setAmount={set("dayAmount")}
          setUnit={set("dayUnit")}
          invalid={errors.invalid("day")}
          describedBy={errors.describedBy("day")}
        />
      </div>
      {errors.at("night")}
      {errors.at("day")}
      <div className="field deadline-field">
        <label htmlFor={`${id}-deadline`}>
          <span>{n.dayDeadline}</span>
        </label>
        <div className="row">
          <input
            id={`${id}-deadline`}
            type="time"
            step={60}
            value={setup.dayDeadline}
            onChange={(e) => set("dayDeadline")(e.target.value)}
            aria-invalid={errors.invalid("dayDeadline") || undefined}
            aria-describedby={errors.describedBy("dayDeadline", `${id}-deadline-hint`)}
          />
          {setup.dayDeadline && (
            <button type="button" onClick={() => set("dayDeadline")("")}>
              {n.clearDeadline}
            </button>
          )}
        </div>
        <small id={`${id}-deadline-hint`} className="muted hint">
          {n.dayDeadlineHint(timeZone)}
        </small>
      </div>
      {errors.at("dayDeadline")}
    </fieldset>
  );
}

/** The game's mode (review or automatic) and its options: early close (V7) and strikes (P1, P2). */
function RuleChoices(props: { setup: Setup; set: SetField; errors: Errors }) {
  const n = useT().lobby.newGame;
  const { setup, set, errors } = props;
  return (
    <>
      <Choice
        legend={n.mode}
        name="mode"
        value={setup.mode}
        onChange={set("mode")}
        options={[
          { value: "review", label: n.review, hint: n.reviewHint },
          { value: "automatic", label: n.automatic, hint: n.automaticHint },
        ]}
      >
        {errors.at("mode")}
      </Choice>
      <Choice
        legend={n.earlyClose}
        lead={n.earlyCloseLead}
        name="earlyClose"
        value={setup.earlyClose}
        onChange={set("earlyClose")}
        options={[
          { value: "majority", label: n.majority, hint: n.majorityHint },
          { value: "all", label: n.all, hint: n.allHint },
        ]}
      />
      <Choice
        legend={n.strikes}
        lead={n.strikesLead}
        name="strikes"
        value={setup.strikes}
        onChange={set("strikes")}
        options={[
          { value: "shared", label: n.shared, hint: n.sharedHint },
          { value: "separate", label: n.separate, hint: n.separateHint },
        ]}
      >
        {errors.at("options")}
      </Choice>
    </>
  );
}

function Length(props: {
  label: string;
  unitLabel: string;
  amount: string;
  unit: Unit;
  setAmount: (v: string) => void;
  setUnit: (u: Unit) => void;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  const n = useT().lobby.newGame;
  const id = useId();
  return (
    <div className="field length">
      <label htmlFor={`${id}-amount`}>
        <span>{props.label}</span>
      </label>
      <div className="row">
        <input
          id={`${id}-amount`}
          className="amount"
          type="number"
          inputMode="numeric"
          min={1}
          max={240}
          step={1}
          value={props.amount}
          onChange={(e) => props.setAmount(e.target.value)}
          aria-invalid={props.invalid || undefined}
          aria-describedby={props.describedBy}
        />
        <label className="sr-only" htmlFor={`${id}-unit`}>
          {props.unitLabel}
        </label>
        <select
          id={`${id}-unit`}
          value={props.unit}
          onChange={(e) => props.setUnit(e.target.value === "minutes" ? "minutes" : "hours")}
        >
          <option value="hours">{n.hours}</option>
          <option value="minutes">{n.minutes}</option>
        </select>
      </div>
    </div>
  );
}

function Choice<V extends string>(props: {
  legend: string;
  lead?: string;
  name: string;
  value: V;
  onChange: (v: V) => void;
  options: readonly { value: V; label: string; hint: string }[];
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <fieldset className="card choice">
      <legend>{props.legend}</legend>
      {props.lead && <p className="muted small lead">{props.lead}</p>}
      <div className="options">
        {props.options.map((o) => (
          <label key={o.value} className={o.value === props.value ? "option checked" : "option"}>
            <input
              type="radio"
              name={props.name}
              value={o.value}
              checked={o.value === props.value}
              onChange={() => props.onChange(o.value)}
              aria-labelledby={`${id}-${o.value}-label`}
              aria-describedby={`${id}-${o.value}`}
            />
            <span className="option-text">
              <strong id={`${id}-${o.value}-label`}>{o.label}</strong>
              <small id={`${id}-${o.value}`} className="muted">
                {o.hint}
              </small>
            </span>
          </label>
        ))}
      </div>
      {props.children}
    </fieldset>
  );
}
