import type {
  GameDetail,
  GameView,
  GmDayTally,
  NightAction,
  NightDraft,
  PostView,
  RoleId,
} from "@forum-mafia/protocol";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
} from "react";
import { DEFAULT_DEAL, ROLE_IDS } from "@forum-mafia/protocol/roles";
import { api, type RollsBody } from "../api.ts";
import { ERROR_TEXTS } from "../i18n/errors.ts";
import { errorText, useLang, useT, type Dict } from "../i18n/index.tsx";
import { useSession } from "../session.tsx";
import { formatLeft, formatMoment, phaseName } from "../time.ts";
import type { GameData } from "../use-game.ts";
import "./gm.css";

/**
 * Each success in the console, counted: a control's refusal is cleared by any later success (its own or
 * another control's) and by a change of phase, so no stale error stands beside a newer success.
 */
const Successes = createContext<{ stamp: number; succeeded: () => number }>({
  stamp: 0,
  succeeded: () => 0,
});

/**
 * The GM's console: signups and the start (S1, F1), the players' table with every role, strike and
 * tonight's moves, the phase clock, the council's question (M2c) as soon as it is asked, the day's
 * weighted score (V4, P1), the night's review (G10, F2), moderation (P3, P4) and hidden posts (F2). Every
 * action shows its refusal in words beside the control, and refetches the game when it succeeds.
 */
export default function GmConsole(props: { id: string; game: GameData }) {
  const t = useT();
  const d = props.game.detail;
  // The review panel goes away once its results are out, so their success is told here.
  const [published, setPublished] = useState<string | null>(null);
  const count = useRef(0);
  const [stamp, setStamp] = useState(0);
  const succeeded = useCallback(() => {
    count.current += 1;
    setStamp(count.current);
    return count.current;
  }, []);
  const phase = d?.clock.phase;
  const phaseKey = phase ? `${phase.kind}${phase.number}${d.clock.resultsPending ? "r" : ""}` : "";
  useEffect(() => {
    if (phaseKey) succeeded();
  }, [phaseKey, succeeded]);
  if (!d) return <p className="muted">{t.loading}</p>;
  const done = props.game.refresh;
  const council = d.gm?.council ?? null;
  return (
    <Successes.Provider value={{ stamp, succeeded }}>
      <section className="gm" aria-labelledby="gm-heading">
        <h2 id="gm-heading">{t.gm.console.heading}</h2>
        {d.summary.status === "signup" && <SignupPanel id={props.id} detail={d} done={done} />}
        {d.summary.status === "running" && (
          <>
            {published && !d.clock.resultsPending && (
              <p className="ok" role="status">
                {published}
              </p>
            )}
            <ClockPanel id={props.id} detail={d} done={done} />
            {council && (
              <Council
                id={props.id}
                question={council.question}
                answer={council.answer}
                automatic={d.settings.mode === "automatic"}
                done={done}
              />
            )}
            {d.gm?.day && d.view && <DayPanel tally={d.gm.day} view={d.view} />}
            {d.clock.resultsPending && (
              <ReviewPanel
                id={props.id}
                detail={d}
                done={done}
                onPublished={() => setPublished(t.gm.review.published)}
              />
            )}
            {d.view && <PlayersTable detail={d} view={d.view} />}
            {d.view && <Moderation id={props.id} view={d.view} done={done} />}
            <HiddenPosts id={props.id} posts={props.game.posts} done={done} />
          </>
        )}
        {d.summary.status === "ended" && <p className="notice">{t.gm.console.ended}</p>}
      </section>
    </Successes.Provider>
  );
}

/** One control's request: busy while it runs, then its refusal in words or a brief success. */
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
    async (action: () => Promise<unknown>, success?: string): Promise<boolean> => {
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
        setError(errorText(e, lang));
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
function ConfirmButton(props: {
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
const namesOf = (view: GameView): readonly string[] => view.seats.map((s) => s.name);

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

// ——— signups and the start ———

function SignupPanel(props: { id: string; detail: GameDetail; done: () => void }) {
  const t = useT();
  const d = props.detail;
  const seats = d.settings.seats;
  const players = d.signups.filter((s) => !s.reserve);
  const reserve = d.signups.length - players.length;
  const missing = Math.max(0, seats - players.length);
  const random = useRun(props.done);
  const hand = useRun(props.done);
  const [roles, setRoles] = useState<RoleId[]>(() =>
    Array.from({ length: seats }, (_, i) => DEFAULT_DEAL[i] ?? "citizen"),
  );
  const hintId = useId();
  const startHand = (e: FormEvent) => {
    e.preventDefault();
    void hand.run(() => api.start(props.id, { deal: { hand: roles } }));
  };
  return (
    <div className="card">
      <h3>{t.gm.signup.heading}</h3>
      <p>
        <strong>{t.gm.signup.count(players.length, seats)}</strong>
        {reserve > 0 && <span className="muted">, {t.gm.signup.reserve(reserve)}</span>}
      </p>
      {missing > 0 && <p className="muted">{t.gm.signup.notFull(missing)}</p>}
      <p id={hintId} className="muted">
        {t.gm.signup.startHint}
      </p>
      <button
        type="button"
        className="primary"
        aria-describedby={hintId}
        disabled={random.busy}
        onClick={() => void random.run(() => api.start(props.id, { deal: "random" }))}
      >
        {t.gm.signup.start}
      </button>
      {random.outcome}
      <details className="hand">
        <summary>{t.gm.signup.hand}</summary>
        <p className="muted">{t.gm.signup.handHint}</p>
        <form onSubmit={startHand}>
          <div className="hand-grid">
            {roles.map((role, i) => (
              <label key={i} className="field">
                <span>{t.gm.signup.seatRole(players[i]?.nick ?? t.gm.signup.seatEmpty(i + 1))}</span>
                <select
                  value={role}
                  onChange={(e) => {
                    const next = roles.slice();
                    next[i] = e.target.value as RoleId;
                    setRoles(next);
                  }}
                >
                  {ROLE_IDS.map((r) => (
                    <option key={r} value={r}>
                      {d.roleNames[r]}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
          <button type="submit" disabled={hand.busy}>
            {t.gm.signup.startHand}
          </button>
          {hand.outcome}
        </form>
      </details>
    </div>
  );
}

// ——— the phase clock ———

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function ClockPanel(props: { id: string; detail: GameDetail; done: () => void }) {
  const t = useT();
  const { lang } = useLang();
  const { timeZone } = useSession();
  const now = useNow();
  const d = props.detail;
  const clock = d.clock;
  const [minutes, setMinutes] = useState("30");
  const extend = useRun(props.done);
  const close = useRun(props.done);
  const pause = useRun(props.done);
  const closeHint = useId();
  const submitExtend = (e: FormEvent) => {
    e.preventDefault();
    const m = Number(minutes);
    void extend.run(() => api.gm.extend(props.id, m), t.gm.clock.extended(m));
  };
  return (
    <div className="card">
      <h3>{t.gm.clock.heading}</h3>
      {clock.phase && <p>{t.gm.clock.phaseNow(phaseName(clock.phase, t))}</p>}
      {clock.deadline !== null && (
        <p>
          {t.gm.clock.deadline(
            formatLeft(clock.deadline - now, t),
            formatMoment(clock.deadline, timeZone, lang),
          )}
        </p>
      )}
      {clock.paused && <p className="notice">{t.countdown.paused}</p>}
      {clock.resultsPending && <p className="notice">{t.countdown.review}</p>}
      <form className="row" onSubmit={submitExtend}>
        <label className="field inline">
          <span>{t.gm.clock.extendBy}</span>
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={7 * 24 * 60}
            step={1}
            required
            value={minutes}
            onChange={(e) => setMinutes(e.target.value)}
          />
        </label>
        <button type="submit" disabled={extend.busy}>
          {t.gm.clock.extend}
        </button>
      </form>
      {extend.outcome}
      {/* G10: in review the intake is already closed; only publishing ends the night. */}
      <p id={closeHint} className={clock.resultsPending ? "notice" : "muted"}>
        {clock.resultsPending ? t.gm.clock.closeInReview : t.gm.clock.closeHint}
      </p>
      <div className="row">
        {!clock.resultsPending && (
          <ConfirmButton
            label={t.gm.clock.close}
            confirmLabel={t.gm.clock.closeConfirm}
            disabled={close.busy}
            onConfirm={() => void close.run(() => api.gm.close(props.id), t.gm.clock.closed)}
          />
        )}
        {clock.paused ? (
          <button
            type="button"
            disabled={pause.busy}
            onClick={() => void pause.run(() => api.gm.resume(props.id), t.gm.clock.resumed)}
          >
            {t.gm.clock.resume}
          </button>
        ) : (
          <button
            type="button"
            disabled={pause.busy}
            onClick={() => void pause.run(() => api.gm.pause(props.id), t.gm.clock.paused)}
          >
            {t.gm.clock.pause}
          </button>
        )}
      </div>
      {close.outcome}
      {pause.outcome}
    </div>
  );
}

// ——— the players' table ———

/** Roles whose only night move is the mafia's shared one (M4: the team's slots, one of which counts). */
const MAFIA_ONLY: readonly (RoleId | null)[] = ["boss", "troll", "elf"];
/** Roles whose move is the sheriff and sergeant's one shared move (T1). */
const PAIR: readonly (RoleId | null)[] = ["sheriff", "sergeant"];

/** Whether a seat has a night move to send (a citizen has none; T7). */
const hasMove = (role: RoleId | null): boolean => role !== null && role !== "citizen";

function PlayersTable(props: { detail: GameDetail; view: GameView }) {
  const t = useT();
  const d = props.detail;
  const view = props.view;
  const names = namesOf(view);
  const night = view.phase.kind === "night";
  const teamSent = (slot: "mafia" | "pair") => view.submissions.some((s) => s.slot === slot);
  /** Sent by a teammate into the team's shared slot, so this seat owes nothing tonight. */
  const coveredBy = (role: RoleId | null): "mafia" | "pair" | null =>
    MAFIA_ONLY.includes(role) && teamSent("mafia")
      ? "mafia"
      : PAIR.includes(role) && teamSent("pair")
        ? "pair"
        : null;
  const sent = (seat: number, role: RoleId | null): boolean =>
    view.submissions.some((s) => s.seat === seat) || coveredBy(role) !== null;
  const movers = view.seats.filter((s) => s.alive && hasMove(s.role));
  const done = movers.filter((s) => sent(s.seat, s.role)).length;
  return (
    <div className="card">
      <h3>{t.gm.players.heading}</h3>
      {night && (
        <p role="status">
          <strong>{t.gm.players.progress(done, movers.length)}</strong>
        </p>
      )}
      <div className="table-scroll">
        <table className="gm-players">
          <caption className="sr-only">{t.gm.players.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t.gm.players.seat}</th>
              <th scope="col">{t.gm.players.name}</th>
              <th scope="col">
                <abbr title={t.gm.players.strikesTitle}>{t.gm.players.strikes}</abbr>
              </th>
              {night && <th scope="col">{t.gm.players.tonight}</th>}
            </tr>
          </thead>
          <tbody>
            {view.seats.map((s) => {
              const strikes = d.gm?.strikes[s.seat];
              const mine = view.submissions.filter((x) => x.seat === s.seat);
              const covered = coveredBy(s.role);
              return (
                <tr key={s.seat} className={s.alive ? undefined : "dead"}>
                  <td>{s.seat + 1}</td>
                  <th scope="row">
                    <span className="nick">{s.name}</span>
                    {!s.alive && <span className="muted"> ({t.gm.players.dead})</span>}
                    <span className="role">{s.role ? d.roleNames[s.role] : "?"}</span>
                    {s.alive && s.cannotVote && <span className="muted">{t.gm.players.cannotVote}</span>}
                  </th>
                  <td>
                    {strikes ? (
                      <>
                        <span aria-hidden="true">
                          {strikes.vote} / {strikes.night}
                        </span>
                        <span className="sr-only">{t.gm.players.strikesOf(strikes.vote, strikes.night)}</span>
                      </>
                    ) : (
                      "—"
                    )}
                  </td>
                  {night && (
                    <td>
                      {!s.alive ? (
                        t.gm.players.noMove
                      ) : mine.length > 0 ? (
                        <ul className="plain">
                          {mine.map((m) => (
                            <li key={m.slot}>
                              {actionText(m.action, names, t)}
                              {m.slot !== "own" && (
                                <span className="muted"> ({t.gm.acts.slots[m.slot]})</span>
                              )}
                            </li>
                          ))}
                        </ul>
                      ) : covered ? (
                        <span className="muted">{t.gm.players.covered[covered]}</span>
                      ) : hasMove(s.role) ? (
                        <span className="waiting">{t.gm.players.waiting}</span>
                      ) : (
                        <span className="muted">{t.gm.players.noAct}</span>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

// ——— the night's review ———

const ROLLS = ["bossExposed", "doctorExposed", "tortureEvidence", "girlSilence", "thugSilence"] as const;
type RollName = (typeof ROLLS)[number];

function ReviewPanel(props: { id: string; detail: GameDetail; done: () => void; onPublished: () => void }) {
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
          <Lines heading={t.gm.review.publicLines} lines={draft.publicLines} />
          <Lines heading={t.gm.review.privateLines} lines={draft.privateLines} />
          <Lines heading={t.gm.review.explanation} lines={draft.explanation} />
          <Rolls id={id} draft={draft} done={after} />
          <Reopen id={id} done={after} />
          <Publish id={id} draft={draft} done={after} onPublished={props.onPublished} />
        </>
      )}
    </div>
  );
}

function Lines(props: { heading: string; lines: readonly string[] }) {
  const t = useT();
  return (
    <>
      <h4>{props.heading}</h4>
      {props.lines.length === 0 ? (
        <p className="muted">{t.gm.review.none}</p>
      ) : (
        <ul>
          {props.lines.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** M2c: the council's question, answered as soon as it is asked (at night, and in review). */
function Council(props: {
  id: string;
  question: string;
  answer: "yes" | "no" | "rejected" | null;
  automatic: boolean;
  done: () => void;
}) {
  const t = useT();
  const r = useRun(props.done);
  const answer = props.answer;
  return (
    <div className="card council">
      <h3>{t.gm.council.heading}</h3>
      <p className="muted">{t.gm.council.intro}</p>
      <blockquote>{props.question}</blockquote>
      <p>{t.gm.review.councilAnswer(answer ? t.gm.review.answers[answer] : t.gm.review.noAnswer)}</p>
      {answer === null && (
        <p className="notice">{props.automatic ? t.gm.council.automatic : t.gm.council.review}</p>
      )}
      <div className="row">
        {(["yes", "no", "rejected"] as const).map((a) => (
          <button
            key={a}
            type="button"
            aria-pressed={answer === a}
            disabled={r.busy}
            onClick={() => void r.run(() => api.gm.council(props.id, a), t.gm.council.answered)}
          >
            {t.gm.review.answerButton(t.gm.review.answers[a])}
          </button>
        ))}
      </div>
      {r.outcome}
    </div>
  );
}

function Rolls(props: { id: string; draft: NightDraft; done: () => void }) {
  const t = useT();
  const r = useRun(props.done);
  const [choice, setChoice] = useState<Partial<Record<RollName, "yes" | "no">>>({});
  const [reason, setReason] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const rolls: RollsBody["rolls"] = {};
    for (const name of ROLLS) {
      const c = choice[name];
      if (c) rolls[name] = c === "yes";
    }
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
  return (
    <form className="sub" onSubmit={submit}>
      <h4>{t.gm.review.rolls}</h4>
      <p className="muted">{t.gm.review.rollsHint}</p>
      {ROLLS.map((name) => {
        const now = fixed[name];
        return (
          <label key={name} className="field">
            <span>
              {t.gm.review.roll[name]}
              {now !== undefined && (
                <span className="muted">
                  {" "}
                  ({t.gm.review.fixedNow(now ? t.gm.review.rollYes : t.gm.review.rollNo)})
                </span>
              )}
            </span>
            <select
              value={choice[name] ?? ""}
              onChange={(e) => {
                const v = e.target.value;
                setChoice({ ...choice, [name]: v === "yes" || v === "no" ? v : undefined });
              }}
            >
              <option value="">{t.gm.review.rollKeep}</option>
              <option value="yes">{t.gm.review.rollYes}</option>
              <option value="no">{t.gm.review.rollNo}</option>
            </select>
          </label>
        );
      })}
      <label className="field">
        <span>{t.gm.review.reason}</span>
        <input required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <button type="submit" disabled={r.busy}>
        {t.gm.review.rollsSubmit}
      </button>
      {r.outcome}
    </form>
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
  return (
    <form className="sub" onSubmit={submit}>
      <h4>{t.gm.review.reopen}</h4>
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

// ——— moderation ———

function SeatSelect(props: { label: string; view: GameView; value: string; onChange: (v: string) => void }) {
  const t = useT();
  return (
    <label className="field">
      <span>{props.label}</span>
      <select required value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{t.gm.moderation.choose}</option>
        {props.view.seats
          .filter((s) => s.alive)
          .map((s) => (
            <option key={s.seat} value={String(s.seat)}>
              {s.seat + 1}. {s.name}
            </option>
          ))}
      </select>
    </label>
  );
}

function Moderation(props: { id: string; view: GameView; done: () => void }) {
  const t = useT();
  const kill = useRun(props.done);
  const repl = useRun(props.done);
  const [killSeat, setKillSeat] = useState("");
  const [killReason, setKillReason] = useState("");
  const [replSeat, setReplSeat] = useState("");
  const [nick, setNick] = useState("");
  const [replReason, setReplReason] = useState("");
  const killHint = useId();
  const doKill = () => {
    if (killSeat === "" || killReason.trim() === "") return kill.fail(t.gm.moderation.missing);
    void kill
      .run(
        () => api.gm.modkill(props.id, { seat: Number(killSeat), reason: killReason }),
        t.gm.moderation.modkilled,
      )
      .then((ok) => {
        if (ok) {
          setKillSeat("");
          setKillReason("");
        }
      });
  };
  const doReplace = (e: FormEvent) => {
    e.preventDefault();
    void repl
      .run(
        () => api.gm.replace(props.id, { seat: Number(replSeat), nick, reason: replReason }),
        t.gm.moderation.replaced,
      )
      .then((ok) => {
        if (ok) {
          setReplSeat("");
          setNick("");
          setReplReason("");
        }
      });
  };
  return (
    <div className="card">
      <h3>{t.gm.moderation.heading}</h3>
      <form
        className="sub"
        onSubmit={(e) => {
          e.preventDefault();
        }}
      >
        <h4>{t.gm.moderation.modkill}</h4>
        <p id={killHint} className="muted">
          {t.gm.moderation.modkillHint}
        </p>
        <SeatSelect
          label={t.gm.moderation.modkillSeat}
          view={props.view}
          value={killSeat}
          onChange={setKillSeat}
        />
        <label className="field">
          <span>{t.gm.moderation.reason}</span>
          <input
            required
            maxLength={500}
            value={killReason}
            onChange={(e) => setKillReason(e.target.value)}
          />
        </label>
        <ConfirmButton
          label={t.gm.moderation.modkillSubmit}
          confirmLabel={t.gm.moderation.modkillConfirm}
          disabled={kill.busy}
          onConfirm={doKill}
        />
        {kill.outcome}
      </form>
      <form className="sub" onSubmit={doReplace}>
        <h4>{t.gm.moderation.replace}</h4>
        <SeatSelect
          label={t.gm.moderation.replaceSeat}
          view={props.view}
          value={replSeat}
          onChange={setReplSeat}
        />
        <label className="field">
          <span>{t.gm.moderation.replaceNick}</span>
          <input required maxLength={64} value={nick} onChange={(e) => setNick(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.gm.moderation.reason}</span>
          <input
            required
            maxLength={500}
            value={replReason}
            onChange={(e) => setReplReason(e.target.value)}
          />
        </label>
        <button type="submit" disabled={repl.busy}>
          {t.gm.moderation.replaceSubmit}
        </button>
        {repl.outcome}
      </form>
    </div>
  );
}

// ——— the day's weighted score ———

/**
 * V4, V5, P1, P2: the day's tally as the engine would close it now (the server sends it to the GM alone),
 * highest score first: the public count shows every vote as 1, this shows the weights and penalty votes.
 */
function DayPanel(props: { tally: GmDayTally; view: GameView }) {
  const t = useT();
  const name = (seat: number) => props.view.seats[seat]?.name ?? `#${seat + 1}`;
  const rows = [...props.tally.scores].sort((a, b) => b.score - a.score || a.seat - b.seat);
  const { hanged, excused } = props.tally;
  return (
    <div className="card day-tally">
      <h3>{t.gm.day.heading}</h3>
      <p className="muted">{t.gm.day.intro}</p>
      <p role="status">
        <strong>
          {hanged !== null
            ? t.gm.day.hanged(name(hanged))
            : excused !== null
              ? t.gm.day.excused(name(excused))
              : t.gm.day.nobody}
        </strong>
      </p>
      <div className="table-scroll">
        <table className="gm-players">
          <caption className="sr-only">{t.gm.day.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t.gm.day.player}</th>
              <th scope="col">{t.gm.day.score}</th>
              <th scope="col">{t.gm.day.votes}</th>
              <th scope="col">{t.gm.day.penalty}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.seat}>
                <th scope="row">{name(r.seat)}</th>
                <td>{r.score}</td>
                <td>{r.score - r.penalty}</td>
                <td>{r.penalty}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

// ——— hidden posts ———

/** F2: the posts the GM has hidden, each with its reason, and a way back with a reason of its own. */
function HiddenPosts(props: { id: string; posts: readonly PostView[]; done: () => void }) {
  const t = useT();
  const hidden = props.posts.filter((p) => p.hidden !== null);
  if (hidden.length === 0) return null;
  return (
    <div className="card">
      <h3>{t.gm.hidden.heading}</h3>
      <p className="muted">{t.gm.hidden.intro}</p>
      <ul className="plain">
        {hidden.map((p) => (
          <HiddenPost key={p.id} id={props.id} post={p} done={props.done} />
        ))}
      </ul>
    </div>
  );
}

function HiddenPost(props: { id: string; post: PostView; done: () => void }) {
  const t = useT();
  const r = useRun(props.done);
  const [reason, setReason] = useState("");
  const post = props.post;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void r.run(() => api.gm.restore(props.id, post.id, reason.trim()), t.gm.hidden.restored);
  };
  return (
    <li>
      <p>{t.gm.hidden.post(post.author, post.hidden?.reason ?? "")}</p>
      <form className="row" onSubmit={submit} aria-label={t.gm.hidden.restoreLabel(post.author)}>
        <label className="field inline">
          <span>{t.gm.hidden.reason}</span>
          <input required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <button type="submit" disabled={r.busy || !reason.trim()}>
          {t.gm.hidden.restore}
        </button>
      </form>
      {r.outcome}
    </li>
  );
}
