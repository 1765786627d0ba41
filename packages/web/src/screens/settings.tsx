import type { MySettings, SettingsBody } from "@forum-mafia/protocol";
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { api } from "../api.ts";
import { errorText, useLang, useT } from "../i18n/index.tsx";
import { notificationsSupported, setBrowserNotifications } from "../reminders.tsx";
import { Link } from "../router.tsx";
import { useSession } from "../session.tsx";
import { formatMoment } from "../time.ts";
import "./my-games.css";

/**
 * Issue 15: the settings page (`/settings`): the e-mail address and its state, e-mail reminders on or
 * off, how long before a deadline the reminders come (up to four, in hours or minutes), quiet hours in the
 * user's time zone, and browser notifications (the browser's permission is asked when they are turned on).
 * After the e-mail's confirmation link the server sends the user to `/settings?confirmed=1`.
 */

type Unit = "h" | "m";
interface Offset {
  readonly id: number;
  readonly amount: string;
  readonly unit: Unit;
}
interface Form {
  readonly email: string;
  readonly emailReminders: boolean;
  readonly offsets: readonly Offset[];
  readonly quietOn: boolean;
  readonly from: string;
  readonly to: string;
  readonly browser: boolean;
}
type Field = "email" | "offsets" | "quiet";
type Errors = Partial<Record<Field | "server", string>> & {
  /** Which reminder time is wrong (the first), 0 first. */
  readonly badOffset?: number;
};

const MAX_OFFSETS = 4;
const MAX_MINUTES = 48 * 60;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
// A light check only: the server validates the address exactly.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

let nextOffsetId = 0;
const offset = (amount: string, unit: Unit): Offset => ({ id: nextOffsetId++, amount, unit });

function fromSettings(s: MySettings): Form {
  const offsets = s.reminders.before.flatMap((o) => {
    const m = /^(\d+)([hm])$/.exec(o);
    return m ? [offset(m[1]!, m[2] === "h" ? "h" : "m")] : [];
  });
  return {
    email: s.email ?? "",
    emailReminders: s.emailReminders,
    offsets,
    quietOn: s.reminders.quietHours !== null,
    from: s.reminders.quietHours?.from ?? "23:00",
    to: s.reminders.quietHours?.to ?? "08:00",
    browser: s.browserNotifications,
  };
}

type Words = ReturnType<typeof useT>["me"]["settings"];

/** The request for the form, or what is wrong with it, field by field. */
function toBody(form: Form, saved: MySettings, w: Words): { body: SettingsBody } | { errors: Errors } {
  const errors: { -readonly [K in keyof Errors]: Errors[K] } = {};
  const email = form.email.trim();
  if (saved.emailAvailable && email !== "" && !EMAIL.test(email)) errors.email = w.email.invalid;
  const before: string[] = [];
  form.offsets.forEach((o, i) => {
    const n = Number(o.amount);
    const ok = /^\d{1,4}$/.test(o.amount.trim()) && n >= 1 && n * (o.unit === "h" ? 60 : 1) <= MAX_MINUTES;
    if (!ok && errors.offsets === undefined) {
      errors.offsets = w.before.range(i + 1);
      errors.badOffset = i;
    } else if (!before.includes(`${n}${o.unit}`)) before.push(`${n}${o.unit}`);
  });
  if (form.quietOn && !(HHMM.test(form.from) && HHMM.test(form.to))) errors.quiet = w.quiet.invalid;
  if (Object.keys(errors).length > 0) return { errors };
  return {
    body: {
      // Without e-mail on this server the address is kept as it is (the field is off).
      email: saved.emailAvailable ? (email === "" ? null : email) : saved.email,
      emailReminders: form.emailReminders,
      reminders: { before, quietHours: form.quietOn ? { from: form.from, to: form.to } : null },
      browserNotifications: form.browser,
    },
  };
}

export default function SettingsPage() {
  const t = useT();
  const w = t.me.settings;
  const { user } = useSession();
  if (!user)
    return (
      <section className="settings card">
        <h1>{w.title}</h1>
        <p>{w.guest}</p>
        <p>
          <Link href="/login?next=%2Fsettings" className="btn primary">
            {w.login}
          </Link>
        </p>
      </section>
    );
  return <SettingsLoader />;
}

function SettingsLoader() {
  const t = useT();
  const { lang } = useLang();
  const [saved, setSaved] = useState<MySettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    setError(null);
    api.settings().then(setSaved, (e: unknown) => setError(errorText(e, lang)));
  }, [lang]);
  useEffect(load, [load]);
  // The confirmation link's landing (`?confirmed=1`): said once, and the address loses the mark.
  const [confirmed] = useState(() => new URLSearchParams(location.search).get("confirmed") === "1");
  useEffect(() => {
    if (confirmed) history.replaceState(null, "", "/settings");
  }, [confirmed]);

  return (
    <div className="settings">
      <h1>{t.me.settings.title}</h1>
      {confirmed && (
        <p className="success" role="status">
          {t.me.settings.confirmed}
        </p>
      )}
      {error && (
        <div className="error" role="alert">
          <span>{error}</span>{" "}
          <button type="button" onClick={load}>
            {t.retry}
          </button>
        </div>
      )}
      {saved ? (
        <SettingsForm saved={saved} onSaved={setSaved} />
      ) : (
        !error && <p className="muted">{t.loading}</p>
      )}
    </div>
  );
}

function SettingsForm(props: { saved: MySettings; onSaved: (s: MySettings) => void }) {
  const t = useT();
  const w = t.me.settings;
  const { lang } = useLang();
  const [form, setForm] = useState<Form>(() => fromSettings(props.saved));
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const id = useId();
  const patch = useCallback((p: Partial<Form>) => {
    setForm((f) => ({ ...f, ...p }));
    setDone(false);
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const checked = toBody(form, props.saved, w);
    if ("errors" in checked) {
      setErrors(checked.errors);
      const first = (["email", "offsets", "quiet"] as const).find((f) => checked.errors[f]);
      // After the render that marks the fields: the first wrong one gets the focus.
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>(`[data-field="${first}"] [aria-invalid="true"]`)?.focus(),
      );
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const s = await api.saveSettings(checked.body);
      props.onSaved(s);
      setForm(fromSettings(s));
      setBrowserNotifications(s.browserNotifications);
      setDone(true);
    } catch (err) {
      setErrors({ server: errorText(err, lang) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="settings-form" onSubmit={submit} noValidate aria-describedby={`${id}-status`}>
      <EmailFields saved={props.saved} form={form} patch={patch} error={errors.email} />
      <OffsetFields form={form} patch={patch} error={errors.offsets} bad={errors.badOffset} />
      <QuietFields form={form} patch={patch} error={errors.quiet} />
      <BrowserFields form={form} patch={patch} />
      {errors.server && (
        <p className="error" role="alert">
          {errors.server}
        </p>
      )}
      <div className="row settings-submit">
        <button type="submit" className="primary big" disabled={busy}>
          {busy ? w.saving : w.save}
        </button>
        <span id={`${id}-status`} role="status" className="ok">
          {done ? w.saved : ""}
        </span>
      </div>
    </form>
  );
}

interface FieldsProps {
  form: Form;
  patch: (p: Partial<Form>) => void;
  error?: string | undefined;
}

function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={id} className="error" role="alert">
      {error}
    </p>
  );
}

function EmailFields({ saved, form, patch, error }: FieldsProps & { saved: MySettings }) {
  const w = useT().me.settings.email;
  const { timeZone, lang } = useSession();
  const id = useId();
  const off = !saved.emailAvailable;
  const typed = form.email.trim();
  const state =
    typed !== "" && typed !== (saved.email ?? "")
      ? { cls: "muted", text: w.willSend }
      : saved.email && typed === saved.email
        ? saved.emailConfirmed
          ? { cls: "ok", text: `✓ ${w.confirmedState}` }
          : { cls: "notice", text: w.waiting(saved.email) }
        : null;
  return (
    <fieldset className="card settings-group" data-field="email" disabled={off}>
      <legend>{w.legend}</legend>
      {off && <p className="notice">{w.off}</p>}
      <label className="field">
        <span>{w.address}</span>
        <input
          type="email"
          autoComplete="email"
          inputMode="email"
          className="wide-input"
          value={form.email}
          onChange={(e) => patch({ email: e.target.value })}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint ${id}-state ${id}-err`}
        />
        <span id={`${id}-hint`} className="hint muted">
          {w.addressHint}
        </span>
      </label>
      <p id={`${id}-state`} className={state ? `email-state ${state.cls}` : "email-state"}>
        {state?.text}
      </p>
      {typeof saved.confirmAgainAt === "number" &&
        saved.email &&
        typed === saved.email &&
        !saved.emailConfirmed && (
          // Issue 28: the confirmation mails are limited; say when another may be sent.
          <p className="hint muted" data-field="confirm-again">
            {w.againAt(formatMoment(saved.confirmAgainAt, timeZone, lang))}
          </p>
        )}
      <FieldError id={`${id}-err`} error={error} />
      <label className="check">
        <input
          type="checkbox"
          checked={form.emailReminders}
          onChange={(e) => patch({ emailReminders: e.target.checked })}
        />
        <span>{w.reminders}</span>
      </label>
    </fieldset>
  );
}

function OffsetFields({ form, patch, error, bad }: FieldsProps & { bad: number | undefined }) {
  const w = useT().me.settings.before;
  const id = useId();
  const focusSoon = (sel: string) =>
    requestAnimationFrame(() => document.querySelector<HTMLElement>(sel)?.focus());
  const set = (i: number, p: Partial<Offset>) =>
    patch({ offsets: form.offsets.map((o, j) => (j === i ? { ...o, ...p } : o)) });
  const add = () => {
    const o = offset("30", "m");
    patch({ offsets: [...form.offsets, o] });
    focusSoon(`#${CSS.escape(`${id}-amount-${o.id}`)}`);
  };
  const remove = (i: number) => {
    patch({ offsets: form.offsets.filter((_, j) => j !== i) });
    focusSoon(`#${CSS.escape(`${id}-add`)}`);
  };
  const full = form.offsets.length >= MAX_OFFSETS;
  return (
    <fieldset className="card settings-group" data-field="offsets">
      <legend>{w.legend}</legend>
      <p className="muted small">{w.lead}</p>
      {form.offsets.length === 0 && <p className="muted">{w.none}</p>}
      <ul className="offsets">
        {form.offsets.map((o, i) => (
          <li key={o.id} className="offset-row">
            <label className="offset-amount" htmlFor={`${id}-amount-${o.id}`}>
              {w.offset(i + 1)}
            </label>
            <input
              id={`${id}-amount-${o.id}`}
              type="number"
              inputMode="numeric"
              min={1}
              max={o.unit === "h" ? 48 : MAX_MINUTES}
              step={1}
              value={o.amount}
              onChange={(e) => set(i, { amount: e.target.value })}
              aria-invalid={error && bad === i ? true : undefined}
              aria-describedby={error && bad === i ? `${id}-err` : undefined}
            />
            <select
              aria-label={w.unit(i + 1)}
              value={o.unit}
              onChange={(e) => set(i, { unit: e.target.value === "h" ? "h" : "m" })}
            >
              <option value="h">{w.hours}</option>
              <option value="m">{w.minutes}</option>
            </select>
            <button type="button" onClick={() => remove(i)}>
              {w.remove}
              <span className="sr-only">{w.removeOf(i + 1)}</span>
            </button>
          </li>
        ))}
      </ul>
      <FieldError id={`${id}-err`} error={error} />
      <div className="row">
        <button type="button" id={`${id}-add`} onClick={add} disabled={full}>
          + {w.add}
        </button>
        {full && <span className="muted small">{w.max}</span>}
      </div>
    </fieldset>
  );
}

function QuietFields({ form, patch, error }: FieldsProps) {
  const w = useT().me.settings.quiet;
  const { timeZone, lang } = useSession();
  const id = useId();
  const [zone, now] = zoneWords(timeZone, lang);
  const describedBy = `${id}-zone${error ? ` ${id}-err` : ""}`;
  return (
    <fieldset className="card settings-group" data-field="quiet">
      <legend>{w.legend}</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={form.quietOn}
          onChange={(e) => patch({ quietOn: e.target.checked })}
        />
        <span>{w.enable}</span>
      </label>
      <div className="row quiet-times">
        <label className="field">
          <span>{w.from}</span>
          <input
            type="time"
            value={form.from}
            disabled={!form.quietOn}
            onChange={(e) => patch({ from: e.target.value })}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        </label>
        <label className="field">
          <span>{w.to}</span>
          <input
            type="time"
            value={form.to}
            disabled={!form.quietOn}
            onChange={(e) => patch({ to: e.target.value })}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        </label>
      </div>
      <p id={`${id}-zone`} className="muted small">
        {w.zone(zone, now)}
      </p>
      <FieldError id={`${id}-err`} error={error} />
    </fieldset>
  );
}

/** The zone's name in the user's language ("Москва, стандартное время"), and the time there now. */
function zoneWords(timeZone: string, lang: string): [string, string] {
  const locale = lang === "ru" ? "ru-RU" : "en-GB";
  const now = new Date();
  try {
    const name = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "long" })
      .formatToParts(now)
      .find((p) => p.type === "timeZoneName")?.value;
    const time = new Intl.DateTimeFormat(locale, { timeZone, hour: "2-digit", minute: "2-digit" }).format(
      now,
    );
    return [name ?? timeZone, time];
  } catch {
    return [timeZone, ""];
  }
}

type Permission = "unsupported" | NotificationPermission;
const permissionNow = (): Permission => (notificationsSupported() ? Notification.permission : "unsupported");

function BrowserFields({ form, patch }: FieldsProps) {
  const w = useT().me.settings.browser;
  const [permission, setPermission] = useState<Permission>(permissionNow);
  const [asking, setAsking] = useState(false);

  /** Ask the browser; turn the setting on only when it allows. */
  const ask = async () => {
    if (!notificationsSupported()) return setPermission("unsupported");
    setAsking(true);
    try {
      const p = await Notification.requestPermission();
      setPermission(p);
      if (p === "granted") patch({ browser: true });
    } finally {
      setAsking(false);
    }
  };
  const toggle = (on: boolean) => {
    if (!on) return patch({ browser: false });
    if (permission === "granted") return patch({ browser: true });
    if (permission === "default") return void ask();
    // Refused before, or not supported: the setting stays off, and the note says why.
  };
  const note =
    permission === "unsupported"
      ? w.unsupported
      : permission === "denied"
        ? w.denied
        : asking
          ? w.asking
          : form.browser && permission === "default"
            ? w.notAsked
            : null;

  return (
    <fieldset className="card settings-group" data-field="browser">
      <legend>{w.legend}</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={form.browser}
          disabled={permission === "unsupported" || asking}
          onChange={(e) => toggle(e.target.checked)}
        />
        <span>{w.enable}</span>
      </label>
      <p className="muted small">{w.hint}</p>
      {note && (
        <p className={permission === "denied" ? "notice" : "muted"} role="status">
          {note}{" "}
          {!asking && form.browser && permission === "default" && (
            <button type="button" onClick={() => void ask()}>
              {w.allow}
            </button>
          )}
        </p>
      )}
    </fieldset>
  );
}
