import type { G5Policy } from "@forum-mafia/protocol";
import { CLASSIC_SETUP, type Setup } from "@forum-mafia/protocol/setups";
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { ApiFailure, api, type CreateGameBody } from "../api.ts";
import { errorText, useLang, useT, type Dict } from "../i18n/index.tsx";
import { useG5T } from "../i18n/g5.ts";
import { useSetupT } from "../i18n/setup.ts";
import { navigate } from "../router.tsx";
import { useSession } from "../session.tsx";
import { Choice, SetupEditor } from "./setup/editor.tsx";
import { EstimatePanel } from "./setup/estimate.tsx";
import { draftOf, setupOf, type Draft } from "./setup/model.ts";
import { useMySetups } from "./setup/my-setups.ts";
import "./lobby.css";
import "./game/g5.css";

type Unit = "hours" | "minutes";
type Field = "title" | "night" | "day" | "dayDeadline" | "setup" | "mode" | "g5" | "form";

/** The field a refusal names: the server's field errors read "night.amount: …". */
function fieldOf(e: unknown): Field {
  if (!(e instanceof ApiFailure) || e.code !== "invalid") return "form";
  const head = e.message.split(/[.:]/, 1)[0];
  if (head === "roles" || head === "options") return "setup";
  if (head === "g5") return "g5";
  return head === "title" || head === "night" || head === "day" || head === "dayDeadline" || head === "mode"
    ? head
    : "form";
}

/** What the form holds besides the setup, as typed. */
interface Form {
  readonly title: string;
  readonly nightAmount: string;
  readonly nightUnit: Unit;
  readonly dayAmount: string;
  readonly dayUnit: Unit;
  readonly dayDeadline: string;
  readonly mode: "review" | "automatic";
  /** G5 (issue 31): what the platform does by itself with a flagged post, and whether G5 strikes are allowed. */
  readonly g5Policy: G5Policy;
  readonly g5Strikes: boolean;
}

/** G5's policies in the order the form offers them (protocol's G5_POLICIES; its values stay out of the bundle). */
const G5_POLICIES: readonly G5Policy[] = ["off", "warn", "hideStrike"];

const FRESH: Form = {
  title: "",
  nightAmount: "12",
  nightUnit: "hours",
  dayAmount: "24",
  dayUnit: "hours",
  dayDeadline: "",
  mode: "review",
  // protocol's DEFAULT_G5: warn the author, strikes allowed.
  g5Policy: "warn",
  g5Strikes: true,
};

/** A change to one field of the form. */
type SetField = <K extends keyof Form>(key: K) => (value: Form[K]) => void;

interface FieldError {
  readonly field: Field;
  readonly text: string;
}

const amount = (s: string): number | null => {
  const v = Number(s);
  return Number.isInteger(v) && v >= 1 && v <= 240 ? v : null;
};

/** The request the form makes, or the first field that is not right yet. */
function bodyOf(form: Form, setup: Setup, n: Dict["lobby"]["newGame"]): CreateGameBody | FieldError {
  const night = amount(form.nightAmount);
  const day = amount(form.dayAmount);
  if (!form.title.trim()) return { field: "title", text: n.titleEmpty };
  if (night === null) return { field: "night", text: n.amountRange(n.night) };
  if (day === null) return { field: "day", text: n.amountRange(n.day) };
  if (form.dayDeadline && !/^([01]\d|2[0-3]):[0-5]\d$/.test(form.dayDeadline))
    return { field: "dayDeadline", text: n.badDeadline };
  return {
    title: form.title.trim(),
    night: { amount: night, unit: form.nightUnit },
    day: { amount: day, unit: form.dayUnit },
    dayDeadline: form.dayDeadline || null,
    // S3: the role list and all seven options, as the editor shows them.
    roles: [...setup.roles],
    options: { ...setup.options },
    mode: form.mode,
    // Hiding with a strike on every third breach gives strikes: the box cannot be off then.
    g5:
      form.g5Policy === "hideStrike"
        ? { policy: "hideStrike", strikes: true }
        : { policy: form.g5Policy, strikes: form.g5Strikes },
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
  const w = useSetupT();
  const n = t.lobby.newGame;
  const { lang } = useLang();
  const { user } = useSession();
  const id = useId();
  const [form, setForm] = useState<Form>(FRESH);
  // `picked`: the last change was a whole setup (a preset, a saved one), so its balance is asked at once.
  const [{ draft, picked }, setEdit] = useState<{ draft: Draft; picked: boolean }>(() => ({
    draft: draftOf(CLASSIC_SETUP),
    picked: true,
  }));
  const check = useMemo(() => setupOf(draft), [draft]);
  const my = useMySetups(lang);
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

  const set: SetField = (key) => (value) => setForm((s) => ({ ...s, [key]: value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || check.setup === null) return;
    const body = bodyOf(form, check.setup, n);
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
        <TitleField id={id} form={form} set={set} errors={errors} />
        <section className="setup-area" aria-labelledby={`${id}-setup-h`}>
          <h2 id={`${id}-setup-h`} className="setup-heading">
            {w.heading}
          </h2>
          <p className="muted small setup-lead">{w.lead}</p>
          {my.mine === null ? (
            <p className={my.failed ? "error" : "muted"} role={my.failed ? "alert" : "status"}>
              {my.failed ? w.rolesFailed : w.rolesLoading}
            </p>
          ) : (
            <SetupEditor
              draft={draft}
              check={check}
              onChange={(d, whole) => setEdit({ draft: d, picked: whole })}
              roleNames={my.mine.roleNames}
              saved={my.mine.setups}
              estimateId={`${id}-estimate`}
            />
          )}
          <EstimatePanel setup={check.setup} id={`${id}-estimate`} picked={picked} />
          {errors.at("setup")}
        </section>
        <LengthFields id={id} form={form} set={set} errors={errors} />
        <Choice
          legend={n.mode}
          name="mode"
          value={form.mode}
          onChange={set("mode")}
          options={[
            { value: "review", label: n.review, hint: n.reviewHint },
            { value: "automatic", label: n.automatic, hint: n.automaticHint },
          ]}
        >
          {errors.at("mode")}
        </Choice>
        <G5Fields id={id} form={form} set={set} errors={errors} />
        {errors.at("form")}
        {check.setup === null && (
          <p className="error" id={`${id}-blocked`}>
            {w.faultCreate}
          </p>
        )}
        <button
          type="submit"
          className="primary big"
          disabled={busy || check.setup === null}
          aria-describedby={check.setup === null ? `${id}-blocked` : undefined}
        >
          {busy ? n.busy : n.submit}
        </button>
      </form>
    </section>
  );
}

/** The game's title. */
function TitleField(props: { id: string; form: Form; set: SetField; errors: Errors }) {
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
          value={props.form.title}
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

/**
 * G5 (issue 31): what the platform does by itself when a post or chat message holds мат or an insult, and
 * whether the GM may give a strike for it; hiding with a strike on every third breach keeps the box ticked.
 */
function G5Fields(props: { id: string; form: Form; set: SetField; errors: Errors }) {
  const w = useG5T().setup;
  const { id, form, set, errors } = props;
  const forced = form.g5Policy === "hideStrike";
  return (
    <Choice
      legend={w.legend}
      lead={w.lead}
      name="g5"
      value={form.g5Policy}
      onChange={set("g5Policy")}
      options={G5_POLICIES.map((p) => ({ value: p, label: w.policy[p].label, hint: w.policy[p].hint }))}
    >
      <label className="option g5-strikes">
        <input
          type="checkbox"
          checked={forced || form.g5Strikes}
          disabled={forced}
          onChange={(e) => set("g5Strikes")(e.target.checked)}
          aria-describedby={`${id}-g5-strikes-hint`}
        />
        <span className="option-text">
          <strong>{w.strikes}</strong>
          <small id={`${id}-g5-strikes-hint`} className="muted">
            {forced ? w.strikesForced : w.strikesHint}
          </small>
        </span>
      </label>
      {errors.at("g5")}
    </Choice>
  );
}

/** How long a night and a day last, and the day's fixed deadline if any. */
function LengthFields(props: { id: string; form: Form; set: SetField; errors: Errors }) {
  const n = useT().lobby.newGame;
  const { timeZone } = useSession();
  const { id, form, set, errors } = props;
  return (
    <fieldset className="card">
      <legend>{n.lengths}</legend>
      <div className="lengths">
        <Length
          label={n.night}
          unitLabel={n.nightUnit}
          amount={form.nightAmount}
          unit={form.nightUnit}
          setAmount={set("nightAmount")}
          setUnit={set("nightUnit")}
          invalid={errors.invalid("night")}
          describedBy={errors.describedBy("night")}
        />
        <Length
          label={n.day}
          unitLabel={n.dayUnit}
          amount={form.dayAmount}
          unit={form.dayUnit}
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
            value={form.dayDeadline}
            onChange={(e) => set("dayDeadline")(e.target.value)}
            aria-invalid={errors.invalid("dayDeadline") || undefined}
            aria-describedby={errors.describedBy("dayDeadline", `${id}-deadline-hint`)}
          />
          {form.dayDeadline && (
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
