import type { ActionForm, Lang } from "@forum-mafia/protocol";
import {
  COUNCIL_QUESTION_IDS,
  councilQuestionText,
  HEAL_FROM_ROLES,
  type CouncilQuestionId,
  type HealFromRole,
} from "@forum-mafia/protocol/roles";
import { ApiFailure } from "../../api.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";

/**
 * The night form's pickers: a target (O1a), the mafia's kills and intimidations (M2), a role to heal from
 * (T3c), the council's question (M2c).
 */

type FormAct = ActionForm["acts"][number];

/** Above this many targets the target is chosen from a select, which stays short on a phone. */
const RADIO_LIMIT = 20;

const isHealFromRole = (r: string): r is HealFromRole => (HEAL_FROM_ROLES as readonly string[]).includes(r);

export function TargetChoice(props: {
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
export function MafiaChoice(props: {
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

/** T3c: the role the doctor heals from tonight, among those the form offers. */
export function HealFromChoice(props: {
  roles: readonly string[];
  value: HealFromRole | null;
  onChange: (role: HealFromRole) => void;
  group: string;
}) {
  const w = useT().play;
  return (
    <fieldset className="play-targets">
      <legend>{w.form.role}</legend>
      {props.roles.filter(isHealFromRole).map((r) => (
        <label key={r} className="play-choice">
          <input
            type="radio"
            name={props.group}
            value={r}
            checked={props.value === r}
            onChange={() => props.onChange(r)}
          />
          <span>{w.healFrom[r]}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** M2c: a listed council question as the form offers it: its id and the (Russian) text the action carries. */
export interface ListedQuestion {
  readonly id: CouncilQuestionId;
  readonly text: string;
}

/** Every listed question, as the rules' facts word them (the form's own list when it sends one). */
const ALL_QUESTIONS: readonly ListedQuestion[] = COUNCIL_QUESTION_IDS.map((id) => ({
  id,
  text: councilQuestionText(id, "ru"),
}));

/** The council act's listed questions: the form's, or else the rules' whole list (the engine offers it all). */
export const listedQuestions = (act: FormAct): readonly ListedQuestion[] => act.questions ?? ALL_QUESTIONS;

/** A question's text in the reader's language when it is a listed one (sent in Russian); else as written. */
export function questionWords(text: string, lang: Lang): string {
  const q = ALL_QUESTIONS.find((x) => x.text === text);
  return q ? councilQuestionText(q.id, lang) : text;
}

/**
 * M2c: the council's question: one of the listed questions (the rules answer them), or, in a game with a GM
 * (`own`: review mode), a question of one's own, typed. Radio buttons, one per line, so the list reads on a
 * phone and each question is reached with the arrow keys.
 */
export function CouncilChoice(props: {
  questions: readonly ListedQuestion[];
  /** A question of one's own is allowed (a GM answers it). */
  own: boolean;
  /** The chosen listed question's text, or null. */
  listed: string | null;
  /** Whether the player's own question is chosen, and its text. */
  ownChosen: boolean;
  ownText: string;
  onListed: (text: string) => void;
  onOwn: () => void;
  onOwnText: (text: string) => void;
  group: string;
}) {
  const w = useT().council;
  const { lang } = useLang();
  const hintId = `${props.group}-hint`;
  return (
    <fieldset className="play-targets play-council" aria-describedby={hintId}>
      <legend>{w.legend}</legend>
      <p id={hintId} className="muted play-hint">
        {w.hint} {props.own ? "" : w.listOnly}
      </p>
      {props.questions.map((q) => (
        <label key={q.id} className="play-choice">
          <input
            type="radio"
            name={props.group}
            value={q.id}
            checked={!props.ownChosen && props.listed === q.text}
            onChange={() => props.onListed(q.text)}
          />
          <span>{councilQuestionText(q.id, lang)}</span>
        </label>
      ))}
      {props.own && (
        <label className="play-choice">
          <input
            type="radio"
            name={props.group}
            value="own"
            checked={props.ownChosen}
            onChange={props.onOwn}
            aria-describedby={`${props.group}-own-hint`}
          />
          <span>
            <span className="play-choice-label">{w.own}</span>
            <span id={`${props.group}-own-hint`} className="muted play-hint">
              {w.ownHint}
            </span>
          </span>
        </label>
      )}
      {props.own && props.ownChosen && (
        <label className="field">
          <span>{w.ownLabel}</span>
          <textarea
            rows={3}
            maxLength={500}
            value={props.ownText}
            onChange={(e) => props.onOwnText(e.target.value)}
          />
        </label>
      )}
    </fieldset>
  );
}
