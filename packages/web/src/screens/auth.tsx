import { useId, useState, type FormEvent } from "react";
import { api } from "../api.ts";
import { errorText, useLang, useT } from "../i18n/index.tsx";
import { Link, navigate } from "../router.tsx";
import { useSession } from "../session.tsx";
import "./lobby.css";

/** Where to go after signing in: a `?next=` path inside the app, else the lobby. */
function nextPath(): string {
  const next = new URLSearchParams(location.search).get("next");
  // Only a path of this site: "//host" and "/\host" would leave it.
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

/** `?next=demo` (the lobby's «Зарегистрироваться и сыграть демо»): a demo game starts once signed in. */
const wantsDemo = (): boolean => new URLSearchParams(location.search).get("next") === "demo";

const withNext = (path: string): string => {
  if (wantsDemo()) return `${path}?next=demo`;
  const next = nextPath();
  return next === "/" ? path : `${path}?next=${encodeURIComponent(next)}`;
};

const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || "Europe/Moscow";

export function Login() {
  return <AuthForm kind="login" />;
}

export function Register() {
  return <AuthForm kind="register" />;
}

function AuthForm({ kind }: { kind: "login" | "register" }) {
  const t = useT();
  const a = t.lobby.auth;
  const { lang } = useLang();
  const { user, setUser } = useSession();
  const [nick, setNick] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const zone = browserZone();
  const demo = wantsDemo();

  /** Start the demo game and go to it; a refusal is shown here, with the button to try again. */
  const startDemo = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const { id } = await api.demo();
      navigate(`/games/${encodeURIComponent(id)}`, true);
    } catch (err) {
      setError(errorText(err, lang));
      setBusy(false);
    }
  };

  const title = kind === "login" ? a.loginTitle : a.registerTitle;
  if (user)
    return (
      <SignedIn
        title={title}
        nick={user.nick}
        demo={demo}
        busy={busy}
        error={error}
        startDemo={() => void startDemo()}
      />
    );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!nick.trim()) return setError(a.nickEmpty);
    if (password.length < 8) return setError(a.passwordShort);
    setBusy(true);
    setError(null);
    try {
      const res =
        kind === "login" ? await api.login(nick, password) : await api.register(nick, password, zone);
      setUser(res.user);
      if (demo) await startDemo();
      else navigate(nextPath());
    } catch (err) {
      setError(errorText(err, lang));
      setBusy(false);
    }
  };

  return (
    <section className="auth card" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{title}</h1>
      <p className="muted">{kind === "login" ? a.loginLead : a.registerLead}</p>
      {demo && <p>{a.demoNext}</p>}
      <form onSubmit={submit} noValidate>
        <NickField id={id} kind={kind} value={nick} onChange={setNick} />
        <PasswordField id={id} kind={kind} value={password} onChange={setPassword} />
        {kind === "register" && <p className="muted small">{a.timeZone(zone)}</p>}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary wide" disabled={busy}>
          {busy ? a.busy : kind === "login" ? a.loginSubmit : a.registerSubmit}
        </button>
      </form>
      <p className="switch">
        {kind === "login" ? a.noAccount : a.haveAccount}{" "}
        <Link href={withNext(kind === "login" ? "/register" : "/login")}>
          {kind === "login" ? a.toRegister : a.toLogin}
        </Link>
      </p>
    </section>
  );
}

/** Already signed in: say so, and offer the demo (when asked for) or the way on. */
function SignedIn(props: {
  title: string;
  nick: string;
  demo: boolean;
  busy: boolean;
  error: string | null;
  startDemo: () => void;
}) {
  const t = useT();
  const a = t.lobby.auth;
  const { demo } = props;
  return (
    <section className="auth card">
      <h1>{props.title}</h1>
      <p>{a.already(props.nick)}</p>
      {demo && props.error && (
        <p className="error" role="alert">
          {props.error}
        </p>
      )}
      <div className="row">
        {demo && (
          <button type="button" className="primary" disabled={props.busy} onClick={props.startDemo}>
            {props.busy ? t.lobby.lobby.demoBusy : t.lobby.lobby.demo}
          </button>
        )}
        <Link href={demo ? "/" : nextPath()} className={demo ? "btn" : "btn primary"}>
          {a.toLobby}
        </Link>
      </div>
    </section>
  );
}

/** The nick, with the rules for a new one when registering. */
function NickField(props: {
  id: string;
  kind: "login" | "register";
  value: string;
  onChange: (nick: string) => void;
}) {
  const a = useT().lobby.auth;
  const { id, kind } = props;
  return (
    <div className="field">
      <label htmlFor={`${id}-nick-input`}>
        <span>{a.nick}</span>
      </label>
      <input
        id={`${id}-nick-input`}
        name="nick"
        autoComplete="username"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={64}
        required
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-describedby={kind === "register" ? `${id}-nick` : undefined}
      />
      {kind === "register" && (
        <small id={`${id}-nick`} className="muted hint">
          {a.nickHint}
        </small>
      )}
    </div>
  );
}

/** The password, with a button that shows it in clear, and the rules for a new one when registering. */
function PasswordField(props: {
  id: string;
  kind: "login" | "register";
  value: string;
  onChange: (password: string) => void;
}) {
  const a = useT().lobby.auth;
  const [show, setShow] = useState(false);
  const { id, kind } = props;
  return (
    <div className="field">
      <label htmlFor={`${id}-pw-input`}>
        <span>{a.password}</span>
      </label>
      <div className="password-row">
        <input
          id={`${id}-pw-input`}
          name="password"
          type={show ? "text" : "password"}
          autoComplete={kind === "login" ? "current-password" : "new-password"}
          minLength={8}
          maxLength={256}
          required
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          aria-describedby={kind === "register" ? `${id}-pw` : undefined}
        />
        <button
          type="button"
          className="reveal"
          aria-pressed={show}
          aria-controls={`${id}-pw-input`}
          onClick={() => setShow(!show)}
        >
          {show ? a.hidePassword : a.showPassword}
        </button>
      </div>
      {kind === "register" && (
        <small id={`${id}-pw`} className="muted hint">
          {a.passwordHint}
        </small>
      )}
    </div>
  );
}
