import type { ActionForm, GameDetail, NightAction, RoleId } from "@forum-mafia/protocol";
import { useId, useState, type FormEvent } from "react";
import { api, ApiFailure, type ActionBody } from "../../api.ts";
import { errorText, useLang, useT, type Dict } from "../../i18n/index.tsx";
import type { GameData } from "../../use-game.ts";
import "./play.css";

type Act = NightAction["act"];
type FormAct = ActionForm["acts"][number];
type HealFromRole = "mafia" | "maniac" | "sheriff";
type Words = Dict["play"];

const MAFIA_ROLES: readonly RoleId[] = ["boss", "troll", "elf", "lawyer", "thug"];
const PAIR_ROLES: readonly RoleId[] = ["sheriff", "sergeant"];
const HEAL_FROM: readonly HealFromRole[] = ["mafia", "maniac", "sheriff"];
/** Above this many targets the target is chosen from a select, which stays short on a phone. */
const RADIO_LIMIT = 20;

const isHealFromRole = (r: string): r is HealFromRole => (HEAL_FROM as readonly string[]).includes(r);

/** The player's role card and, at night, the form for the night's action (O1, O1a). */
export function NightPanel(props: { id: string; game: GameData }) {
  const t = useT();
  const d = props.game.detail;
  if (!d) return <p className="muted">{t.loading}</p>;
  const view = d.view;
  if (d.me.kind !== "player" || !view?.me || !d.roleCard)
    return (
      <p className="muted">{d.summary.status === "signup" ? t.play.none.notStarted : t.play.role.private}</p>
    );
  return (
    <div className="play">
      <RoleCard detail={d} />
      <NightSection id={props.id} game={props.game} detail={d} />
    </div>
  );
}

function RoleCard(props: { detail: GameDetail }) {
  const t = useT();
  const w = t.play.role;
  const d = props.detail;
  const view = d.view!;
  const me = view.me!;
  const card = d.roleCard!;
  const headingId = useId();
  const team = me.team;
  const side = MAFIA_ROLES.includes(card.role) ? "mafia" : card.role === "maniac" ? "maniac" : "town";
  const teamRoles = team === "mafia" ? MAFIA_ROLES : team === "pair" ? PAIR_ROLES : [];
  const mates = view.seats.filter((s) => s.seat !== me.seat && s.role !== null && teamRoles.includes(s.role));
  return (
    <section className="card play-role" aria-labelledby={headingId}>
      <p className="muted play-kicker">{w.heading}</p>
      <h2 id={headingId}>{d.roleNames[card.role]}</h2>
      <dl className="play-facts">
        <div>
          <dt>{w.side}</dt>
          <dd>{w.sides[side]}</dd>
          {!team && <dd className="muted">{w.noTeam}</dd>}
        </div>
        {team ? (
          <div>
            <dt>{w.mates}</dt>
            <dd>
              {mates.length === 0 ? (
                w.noMates
              ) : (
                <ul className="play-mates">
                  {mates.map((s) => (
                    <li key={s.seat} className={s.alive ? undefined : "play-dead"}>
                      <strong>{s.name}</strong> — {d.roleNames[s.role!]}
                      {!s.alive && <span className="muted"> ({w.dead})</span>}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{w.strikes}</dt>
          <dd>
            <span className={me.strikes > 0 ? "play-strikes" : undefined}>{w.strikesOf(me.strikes)}</span>{" "}
            <span className="muted">{w.strikesHint}</span>
          </dd>
        </div>
      </dl>
      {card.lines[0] && <p>{card.lines[0]}</p>}
      {card.lines.length > 1 && (
        <details className="play-rules">
          <summary>{w.rules}</summary>
          {card.lines.slice(1).map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </details>
      )}
    </section>
  );
}

function NightSection(props: { id: string; game: GameData; detail: GameDetail }) {
  const t = useT();
  const headingId = useId();
  const d = props.detail;
  const view = d.view!;
  const me = view.me!;
  const alive = view.seats[me.seat]?.alive ?? false;
  let body;
  if (d.form)
    body = (
      <NightForm
        key={`${view.phase.kind}-${view.phase.number}`}
        id={props.id}
        game={props.game}
        detail={d}
        form={d.form}
      />
    );
  else {
    const text =
      d.summary.status === "ended"
        ? t.play.none.ended
        : !alive
          ? t.play.none.dead
          : view.phase.kind === "day"
            ? t.play.none.day
            : t.play.none.noAct;
    body = <p className="muted">{text}</p>;
  }
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.play.form.heading}</h2>
      {body}
    </section>
  );
}

/** The submitted action in words: "Ход мафии: убить Бот Валера". */
function describe(action: NightAction, name: (seat: number) => string, w: Words): string {
  switch (action.act) {
    case "mafia": {
      const parts: string[] = [];
      if (action.kill.length) parts.push(w.submitted.kill(action.kill.map(name).join(", ")));
      if (action.intimidate.length)
        parts.push(w.submitted.intimidate(action.intimidate.map(name).join(", ")));
      return parts.join("; ");
    }
    case "council":
      return w.submitted.council(action.question);
    case "healFrom":
      return w.healFrom[action.role];
    case "pass":
      return w.submitted.pass;
    default:
      return w.submitted.target(w.acts[action.act].label, name(action.target));
  }
}

function NightForm(props: { id: string; game: GameData; detail: GameDetail; form: ActionForm }) {
  const t = useT();
  const w = t.play;
  const { lang } = useLang();
  const { detail: d, form } = props;
  const view = d.view!;
  const me = view.me!;
  const name = (seat: number): string => view.seats[seat]?.name ?? `#${seat + 1}`;
  const uid = useId();

  // G10: after the deadline only the mafia's action may come back, and only when the GM reopens it.
  const acts = d.clock.mafiaReopened
    ? form.acts.filter((a) => a.act === "mafia" || a.act === "council")
    : form.acts;
  const closed = d.clock.resultsPending && (!d.clock.mafiaReopened || acts.length === 0);

  // Who sent each submission: the view lists the same submissions in the same order, with the seat.
  const seen = view.submissions.filter((s) => s.slot !== "own" || s.seat === me.seat);
  const authors = seen.length === form.submitted.length ? seen.map((s) => s.seat) : null;
  const mine = [...form.submitted].reverse().find((s) => acts.some((a) => a.act === s.action.act));

  // Nothing is preselected: the act and the target are the player's explicit choice (a serum, say,
  // reveals a role to everyone). A submission already sent tonight is shown as chosen.
  const initial = mine?.action ?? null;
  const [act, setAct] = useState<Act | null>(initial?.act ?? null);
  const [target, setTarget] = useState<number | null>(initial && "target" in initial ? initial.target : null);
  const [role, setRole] = useState<HealFromRole | null>(initial?.act === "healFrom" ? initial.role : null);
  const [kill, setKill] = useState<readonly number[]>(initial?.act === "mafia" ? initial.kill : []);
  const [intimidate, setIntimidate] = useState<readonly number[]>(
    initial?.act === "mafia" ? initial.intimidate : [],
  );
  const [question, setQuestion] = useState(initial?.act === "council" ? initial.question : "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [accepted, setAccepted] = useState(false);

  const current = acts.find((a) => a.act === act) ?? null;

  const chooseAct = (next: Act) => {
    setAct(next);
    setError(null);
    setAccepted(false);
    const a = acts.find((x) => x.act === next);
    if (target !== null && a && !a.targets.includes(target)) setTarget(null);
  };

  const body = (): ActionBody | string => {
    if (!current) return w.form.needAct;
    switch (current.act) {
      case "pass":
        return { act: "pass" };
      case "council":
        return question.trim() ? { act: "council", question: question.trim() } : w.form.needQuestion;
      case "healFrom":
        return role ? { act: "healFrom", role } : w.form.needRole;
      case "mafia":
        return kill.length + intimidate.length > 0
          ? { act: "mafia", kill: [...kill], intimidate: [...intimidate] }
          : w.form.needMafia;
      default:
        return target !== null && current.targets.includes(target)
          ? { act: current.act, target }
          : w.form.needTarget;
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setAccepted(false);
    const b = body();
    if (typeof b === "string") {
      setError(b);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.act(props.id, b);
      setAccepted(true);
      props.game.refresh();
    } catch (err) {
      setError(errorText(err, lang));
    } finally {
      setBusy(false);
    }
  };

  const touched = () => {
    setAccepted(false);
    setError(null);
  };
  const ready = body();
  const hintId = `${uid}-submit-hint`;

  return (
    <div className="play-night">
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
                  <strong>{w.submitted.slot[s.slot]}:</strong> {describe(s.action, name, w)}
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

      {closed ? (
        <p className="notice">{w.form.closed}</p>
      ) : (
        <form onSubmit={submit} noValidate>
          {d.clock.mafiaReopened && <p className="notice">{w.form.reopened}</p>}
          <fieldset className="play-acts">
            <legend>{w.form.act}</legend>
            {acts.map((a) => {
              const hintId = `${uid}-hint-${a.act}`;
              return (
                <label key={a.act} className="play-choice">
                  <input
                    type="radio"
                    name={`${uid}-act`}
                    value={a.act}
                    checked={current?.act === a.act}
                    onChange={() => chooseAct(a.act)}
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

          {current && current.act === "mafia" && (
            <MafiaChoice
              current={current}
              limits={form.mafiaLimits ?? { kill: 2, intimidate: 3 }}
              kill={kill}
              intimidate={intimidate}
              setKill={(k) => {
                setKill(k);
                touched();
              }}
              setIntimidate={(i) => {
                setIntimidate(i);
                touched();
              }}
              name={name}
            />
          )}
          {current && current.act === "mafia" && form.submitted.some((s) => s.slot === "mafia") && (
            <p className="muted">{w.form.m4}</p>
          )}

          {current && current.act === "council" && (
            <label className="field">
              <span>{w.form.question}</span>
              <textarea
                rows={3}
                maxLength={500}
                value={question}
                onChange={(e) => {
                  setQuestion(e.target.value);
                  touched();
                }}
              />
            </label>
          )}

          {current && current.act === "healFrom" && (
            <fieldset className="play-targets">
              <legend>{w.form.role}</legend>
              {(current.roles ?? []).filter(isHealFromRole).map((r) => (
                <label key={r} className="play-choice">
                  <input
                    type="radio"
                    name={`${uid}-role`}
                    value={r}
                    checked={role === r}
                    onChange={() => {
                      setRole(r);
                      touched();
                    }}
                  />
                  <span>{w.healFrom[r]}</span>
                </label>
              ))}
            </fieldset>
          )}

          {current && current.act !== "mafia" && current.targets.length > 0 && (
            <TargetChoice
              targets={current.targets}
              unavailable={current.unavailable ?? []}
              me={me.seat}
              value={target}
              onChange={(s) => {
                setTarget(s);
                touched();
              }}
              name={name}
              group={`${uid}-target`}
            />
          )}

          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          {accepted && (
            <p className="play-accepted" role="status">
              {w.form.accepted}
            </p>
          )}
          <div className="row">
            <button
              type="submit"
              className="primary"
              disabled={busy || typeof ready === "string"}
              aria-describedby={typeof ready === "string" ? hintId : undefined}
            >
              {busy ? w.form.sending : w.form.submit}
            </button>
            {typeof ready === "string" && (
              <span className="muted" id={hintId}>
                {ready}
              </span>
            )}
          </div>
          <p className="muted play-hint">{w.form.change}</p>
        </form>
      )}
    </div>
  );
}

function TargetChoice(props: {
  targets: readonly number[];
  /** The living players this act may not name tonight, with the engine's reason (shown disabled). */
  unavailable: readonly { readonly seat: number; readonly reason: string }[];
  me: number;
  value: number | null;
  onChange: (seat: number) => void;
  name: (seat: number) => string;
  group: string;
}) {
  const t = useT();
  const { lang } = useLang();
  const w = t.play.form;
  const label = (s: number) => (s === props.me ? w.self(props.name(s)) : props.name(s));
  const why = (reason: string) =>
    w.reasons[reason] ?? errorText(new ApiFailure(400, reason, reason, undefined), lang);
  // Every living player in seat order: the open ones, and the closed ones disabled with the reason.
  const closed = new Map(props.unavailable.map((u) => [u.seat, why(u.reason)]));
  const all = [...props.targets, ...closed.keys()].sort((a, b) => a - b);
  if (props.targets.length > RADIO_LIMIT)
    return (
      <label className="field">
        <span>{w.targetSelect}</span>
        <select
          value={props.value === null ? "" : String(props.value)}
          onChange={(e) => e.target.value !== "" && props.onChange(Number(e.target.value))}
        >
          <option value="">—</option>
          {all.map((s) => (
            <option key={s} value={s} disabled={closed.has(s)}>
              {closed.has(s) ? w.closedTarget(label(s), closed.get(s)!) : label(s)}
            </option>
          ))}
        </select>
      </label>
    );
  return (
    <fieldset className="play-targets">
      <legend>{w.target}</legend>
      <div className="play-grid">
        {all.map((s) => {
          const reason = closed.get(s);
          return (
            <label key={s} className={reason === undefined ? "play-choice" : "play-choice play-disabled"}>
              <input
                type="radio"
                name={props.group}
                value={s}
                checked={props.value === s}
                disabled={reason !== undefined}
                onChange={() => props.onChange(s)}
              />
              <span>
                {label(s)}
                {reason !== undefined && <span className="muted play-reason"> — {reason}</span>}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/**
 * M2a, M2b: kill up to two, or kill one and intimidate one, or intimidate up to the limit; the targets of
 * one action are distinct (O1a). The boxes that would break a limit are disabled.
 */
function MafiaChoice(props: {
  current: FormAct;
  limits: { kill: number; intimidate: number };
  kill: readonly number[];
  intimidate: readonly number[];
  setKill: (k: readonly number[]) => void;
  setIntimidate: (i: readonly number[]) => void;
  name: (seat: number) => string;
}) {
  const t = useT();
  const w = t.play.form;
  const { kill, intimidate, limits } = props;
  const killMax =
    intimidate.length === 0 ? limits.kill : intimidate.length === 1 ? Math.min(1, limits.kill) : 0;
  const intimidateMax = kill.length === 0 ? limits.intimidate : kill.length === 1 ? 1 : 0;
  const group = (
    kind: "kill" | "intimidate",
    chosen: readonly number[],
    other: readonly number[],
    max: number,
    fullMax: number,
    set: (v: readonly number[]) => void,
  ) => (
    <fieldset className="play-targets">
      <legend>
        {kind === "kill" ? w.kill(fullMax) : w.intimidate(fullMax)}{" "}
        <span className="muted play-count">
          {max === 0 && chosen.length === 0 ? w.none : w.chosen(chosen.length, max)}
        </span>
      </legend>
      <div className="play-grid">
        {props.current.targets.map((s) => {
          const on = chosen.includes(s);
          const disabled = !on && (chosen.length >= max || other.includes(s));
          return (
            <label key={s} className={disabled ? "play-choice play-disabled" : "play-choice"}>
              <input
                type="checkbox"
                checked={on}
                disabled={disabled}
                onChange={() => set(on ? chosen.filter((x) => x !== s) : [...chosen, s])}
              />
              <span>
                <span className="sr-only">{kind === "kill" ? w.killOne : w.intimidateOne}</span>
                {props.name(s)}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
  return (
    <div className="play-mafia">
      <p className="muted play-hint">{w.mafiaRules}</p>
      {group("kill", kill, intimidate, killMax, limits.kill, props.setKill)}
      {group("intimidate", intimidate, kill, intimidateMax, limits.intimidate, props.setIntimidate)}
    </div>
  );
}
