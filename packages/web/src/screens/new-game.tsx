import { useEffect, useId, useState, type FormEvent, type ReactNode } from "react";
import { ApiFailure, api, type CreateGameBody } from "../api.ts";
import { errorText, useLang, useT } from "../i18n/index.tsx";
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

/** The new-game form (createGameSchema): the caller becomes the game's GM. */
export default function NewGame() {
  const t = useT();
  const n = t.lobby.newGame;
  const { lang } = useLang();
  const { user, timeZone } = useSession();
  const id = useId();
  const [title, setTitle] = useState("");
  const [nightAmount, setNightAmount] = useState("12");
  const [nightUnit, setNightUnit] = useState<Unit>("hours");
  const [dayAmount, setDayAmount] = useState("24");
  const [dayUnit, setDayUnit] = useState<Unit>("hours");
  const [dayDeadline, setDayDeadline] = useState("");
  const [earlyClose, setEarlyClose] = useState<"majority" | "all">("majority");
  const [strikes, setStrikes] = useState<"shared" | "separate">("shared");
  const [mode, setMode] = useState<"review" | "automatic">("review");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: Field; text: string } | null>(null);

  useEffect(() => {
    if (!user) navigate("/login?next=/new", true);
  }, [user]);
  // A refusal may name a field far above the submit button: bring its message into view.
  useEffect(() => {
    if (error) document.getElementById(`${id}-${error.field}-err`)?.scrollIntoView({ block: "center" });
  }, [error, id]);
  if (!user) return <p className="notice">{n.guest}</p>;

  const amount = (s: string): number | null => {
    const v = Number(s);
    return Number.isInteger(v) && v >= 1 && v <= 240 ? v : null;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const night = amount(nightAmount);
    const day = amount(dayAmount);
    if (!title.trim()) return setError({ field: "title", text: n.titleEmpty });
    if (night === null) return setError({ field: "night", text: n.amountRange(n.night) });
    if (day === null) return setError({ field: "day", text: n.amountRange(n.day) });
    if (dayDeadline && !/^([01]\d|2[0-3]):[0-5]\d$/.test(dayDeadline))
      return setError({ field: "dayDeadline", text: n.badDeadline });
    const body: CreateGameBody = {
      title: title.trim(),
      night: { amount: night, unit: nightUnit },
      day: { amount: day, unit: dayUnit },
      dayDeadline: dayDeadline || null,
      options: { earlyClose, strikes },
      mode,
    };
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

  const errorAt = (field: Field) =>
    error?.field === field ? (
      <p className="error" role="alert" id={`${id}-${field}-err`}>
        {error.text}
      </p>
    ) : null;
  const describedBy = (field: Field, hint?: string) =>
    [hint, error?.field === field ? `${id}-${field}-err` : undefined].filter(Boolean).join(" ") || undefined;

  return (
    <section className="new-game" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{n.title}</h1>
      <p className="muted">{n.lead}</p>
      <form onSubmit={submit} noValidate>
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
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              aria-invalid={error?.field === "title" || undefined}
              aria-describedby={describedBy("title", `${id}-title-hint`)}
            />
            <small id={`${id}-title-hint`} className="muted hint">
              {n.gameTitleHint}
            </small>
          </div>
          {errorAt("title")}
        </div>

        <fieldset className="card">
          <legend>{n.lengths}</legend>
          <div className="lengths">
            <Length
              label={n.night}
              unitLabel={n.nightUnit}
              amount={nightAmount}
              unit={nightUnit}
              setAmount={setNightAmount}
              setUnit={setNightUnit}
              invalid={error?.field === "night"}
              describedBy={describedBy("night")}
            />
            <Length
              label={n.day}
              unitLabel={n.dayUnit}
              amount={dayAmount}
              unit={dayUnit}
              setAmount={setDayAmount}
              setUnit={setDayUnit}
              invalid={error?.field === "day"}
              describedBy={describedBy("day")}
            />
          </div>
          {errorAt("night")}
          {errorAt("day")}
          <div className="field deadline-field">
            <label htmlFor={`${id}-deadline`}>
              <span>{n.dayDeadline}</span>
            </label>
            <div className="row">
              <input
                id={`${id}-deadline`}
                type="time"
                step={60}
                value={dayDeadline}
                onChange={(e) => setDayDeadline(e.target.value)}
                aria-invalid={error?.field === "dayDeadline" || undefined}
                aria-describedby={describedBy("dayDeadline", `${id}-deadline-hint`)}
              />
              {dayDeadline && (
                <button type="button" onClick={() => setDayDeadline("")}>
                  {n.clearDeadline}
                </button>
              )}
            </div>
            <small id={`${id}-deadline-hint`} className="muted hint">
              {n.dayDeadlineHint(timeZone)}
            </small>
          </div>
          {errorAt("dayDeadline")}
        </fieldset>

        <Choice
          legend={n.mode}
          name="mode"
          value={mode}
          onChange={setMode}
          options={[
            { value: "review", label: n.review, hint: n.reviewHint },
            { value: "automatic", label: n.automatic, hint: n.automaticHint },
          ]}
        >
          {errorAt("mode")}
        </Choice>
        <Choice
          legend={n.earlyClose}
          lead={n.earlyCloseLead}
          name="earlyClose"
          value={earlyClose}
          onChange={setEarlyClose}
          options={[
            { value: "majority", label: n.majority, hint: n.majorityHint },
            { value: "all", label: n.all, hint: n.allHint },
          ]}
        />
        <Choice
          legend={n.strikes}
          lead={n.strikesLead}
          name="strikes"
          value={strikes}
          onChange={setStrikes}
          options={[
            { value: "shared", label: n.shared, hint: n.sharedHint },
            { value: "separate", label: n.separate, hint: n.separateHint },
          ]}
        >
          {errorAt("options")}
        </Choice>

        {errorAt("form")}
        <button type="submit" className="primary big" disabled={busy}>
          {busy ? n.busy : n.submit}
        </button>
      </form>
    </section>
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
