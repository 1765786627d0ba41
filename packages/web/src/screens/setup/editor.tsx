import { PRESET_ESTIMATES } from "@forum-mafia/protocol/preset-estimates";
import type { RoleId } from "@forum-mafia/protocol/roles";
import {
  SETUP_PRESETS,
  THRESHOLDS,
  type SavedSetup,
  type Setup,
  type ThresholdName,
} from "@forum-mafia/protocol/setups";
import { useId, type ReactNode } from "react";
import { useLang } from "../../i18n/index.tsx";
import { useSetupT, type SetupWords } from "../../i18n/setup.ts";
import {
  draftOf,
  factionOf,
  FACTIONS,
  MAX_SEATS,
  MAX_THRESHOLD,
  NAMED_ROLES,
  rolesOf,
  sameSetup,
  thresholdValue,
  type Draft,
  type DraftCheck,
} from "./model.ts";
import { SavedSetups } from "./saved.tsx";
import "./setup.css";

type RoleNames = Readonly<Record<RoleId, string>>;

/**
 * Issue 17: the setup editor. The presets and the GM's saved setups fill it; the role list is a tick
 * per named role (so no role can be there twice, S3) and a stepper for citizens; the player count follows
 * from it; the two [reading] options and the five thresholds each say in words what they change. An S3
 * fault is said at once, naming what is wrong.
 */
export function SetupEditor(props: {
  draft: Draft;
  check: DraftCheck;
  /** `whole`: a preset or a saved setup was picked, rather than one field changed. */
  onChange: (draft: Draft, whole: boolean) => void;
  roleNames: RoleNames;
  /** The GM's saved setups as first read (useMySetups). */
  saved: readonly SavedSetup[];
  /** The id of the balance panel, for the link that jumps to it. */
  estimateId: string;
}) {
  const w = useSetupT();
  const id = useId();
  const { draft, check } = props;
  const onChange = (d: Draft) => props.onChange(d, false);
  const pick = (s: Setup) => props.onChange(draftOf(s), true);
  const count = rolesOf(draft).length;
  return (
    <div className="setup-editor">
      <Presets current={check.setup} onPick={pick} />
      <SavedSetups initial={props.saved} current={check.setup} onPick={pick} />
      <fieldset className="card setup-roles" aria-describedby={`${id}-roles-lead`}>
        <legend>{w.roles}</legend>
        <p id={`${id}-roles-lead`} className="muted small lead">
          {w.rolesLead}
        </p>
        <div className="seat-count-line">
          <p className="seat-count" aria-live="polite">
            <span className="sr-only">{w.playerCount}: </span>
            <strong>{w.players(count)}</strong>
          </p>
          <a className="to-estimate" href={`#${props.estimateId}`}>
            {w.estimate.heading} ↓
          </a>
        </div>
        <RoleToggles draft={draft} onChange={onChange} roleNames={props.roleNames} />
        <Fault check={check} roleNames={props.roleNames} />
        {count >= MAX_SEATS && <p className="muted small">{w.maxSeats(MAX_SEATS)}</p>}
      </fieldset>
      <Options draft={draft} onChange={onChange} />
      <Thresholds draft={draft} onChange={onChange} />
    </div>
  );
}

/**
 * The four presets, each with its name, its description and its balance (issue 32: the figures kept with
 * the code, PRESET_ESTIMATES, shown at once); the one the editor holds now is marked.
 */
function Presets(props: { current: Setup | null; onPick: (setup: Setup) => void }) {
  const w = useSetupT();
  const { lang } = useLang();
  const id = useId();
  return (
    <section className="card setup-presets" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{w.presets}</h2>
      <ul className="preset-list">
        {SETUP_PRESETS.map((p) => {
          const chosen = props.current !== null && sameSetup(props.current, p.setup);
          const odds = PRESET_ESTIMATES[p.id].winRates;
          return (
            <li key={p.id}>
              <button
                type="button"
                className={chosen ? "preset chosen" : "preset"}
                aria-pressed={chosen}
                // The name holds all the button shows, in order (axe: label-content-name-mismatch).
                aria-label={[
                  `${w.presetPick(p.name[lang])}${chosen ? ` · ${w.current}` : ""}`,
                  p.description[lang].replace(/\.$/, ""),
                  w.presetOdds(odds.town.rate, odds.mafia.rate, odds.maniac.rate),
                ].join(". ")}
                aria-describedby={`${id}-${p.id}-odds`}
                onClick={() => props.onPick(p.setup)}
              >
                <strong>
                  {p.name[lang]}
                  {chosen && <span className="chosen-mark"> · {w.current}</span>}
                </strong>{" "}
                <small id={`${id}-${p.id}`} className="muted">
                  {p.description[lang]}
                </small>{" "}
                <small className="preset-odds">
                  {w.presetOdds(odds.town.rate, odds.mafia.rate, odds.maniac.rate)}
                </small>
              </button>
              {/* The rates in words, the button's description: hidden, so it is read once, and outside
                  the button, so its visible text stays its name. */}
              <span id={`${id}-${p.id}-odds`} hidden>
                {w.presetOddsLabel(odds.town.rate, odds.mafia.rate, odds.maniac.rate)}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** A tick per named role, grouped by side, and the citizens' stepper with the town. */
function RoleToggles(props: { draft: Draft; onChange: (d: Draft) => void; roleNames: RoleNames }) {
  const w = useSetupT();
  const id = useId();
  const { draft, onChange, roleNames } = props;
  const count = rolesOf(draft).length;
  const toggle = (role: RoleId, on: boolean) =>
    onChange({
      ...draft,
      named: on
        ? NAMED_ROLES.filter((r) => r === role || draft.named.includes(r))
        : draft.named.filter((r) => r !== role),
    });
  const citizens = (n: number) => onChange({ ...draft, citizens: Math.max(0, n) });
  return (
    <div className="role-groups">
      {FACTIONS.map((faction) => {
        const roles = NAMED_ROLES.filter((r) => factionOf(r) === faction);
        const ticked =
          roles.filter((r) => draft.named.includes(r)).length + (faction === "town" ? draft.citizens : 0);
        return (
          <fieldset key={faction} className={`role-group ${faction}`}>
            <legend>
              {w.factions[faction]} <span className="muted">({ticked})</span>
            </legend>
            {roles.map((role) => {
              const on = draft.named.includes(role);
              return (
                <label key={role} className={on ? "role-toggle on" : "role-toggle"}>
                  <input
                    type="checkbox"
                    checked={on}
                    disabled={!on && count >= MAX_SEATS}
                    onChange={(e) => toggle(role, e.target.checked)}
                  />
                  <span>{roleNames[role]}</span>
                </label>
              );
            })}
            {faction === "town" && (
              <div className="citizens">
                <span id={`${id}-citizens`} className="citizens-label">
                  {w.citizens}
                </span>
                <div className="stepper" role="group" aria-labelledby={`${id}-citizens`}>
                  <button
                    type="button"
                    aria-label={w.fewer}
                    disabled={draft.citizens === 0}
                    onClick={() => citizens(draft.citizens - 1)}
                  >
                    −
                  </button>
                  <output aria-live="polite" aria-labelledby={`${id}-citizens`}>
                    {draft.citizens}
                  </output>
                  <button
                    type="button"
                    aria-label={w.more}
                    disabled={count >= MAX_SEATS}
                    onClick={() => citizens(draft.citizens + 1)}
                  >
                    +
                  </button>
                </div>
              </div>
            )}
          </fieldset>
        );
      })}
    </div>
  );
}

/** S3's fault, in words, at once. */
function Fault(props: { check: DraftCheck; roleNames: RoleNames }) {
  const w = useSetupT();
  const fault = props.check.fault;
  if (fault === null) return null;
  return (
    <p className="error" role="alert" id="setup-fault">
      {fault.code === "setup/duplicate-role"
        ? w.faults.duplicate(props.roleNames[fault.role])
        : w.faults[fault.code]}
    </p>
  );
}

/** The two [reading] options: early close (V7) and strikes (P3). */
function Options(props: { draft: Draft; onChange: (d: Draft) => void }) {
  const w = useSetupT();
  const { draft, onChange } = props;
  return (
    <>
      <Choice
        legend={w.earlyClose.legend}
        lead={w.earlyClose.lead}
        name="earlyClose"
        value={draft.earlyClose}
        onChange={(v) => onChange({ ...draft, earlyClose: v })}
        options={[
          { value: "majority", label: w.earlyClose.majority, hint: w.earlyClose.majorityHint },
          { value: "all", label: w.earlyClose.all, hint: w.earlyClose.allHint },
        ]}
      />
      <Choice
        legend={w.strikes.legend}
        lead={w.strikes.lead}
        name="strikes"
        value={draft.strikes}
        onChange={(v) => onChange({ ...draft, strikes: v })}
        options={[
          { value: "shared", label: w.strikes.shared, hint: w.strikes.sharedHint },
          { value: "separate", label: w.strikes.separate, hint: w.strikes.separateHint },
        ]}
      />
    </>
  );
}

/** The five thresholds: a number each, with the rule it changes said with that number. */
function Thresholds(props: { draft: Draft; onChange: (d: Draft) => void }) {
  const w = useSetupT();
  const id = useId();
  const { draft, onChange } = props;
  return (
    <fieldset className="card setup-thresholds" aria-describedby={`${id}-lead`}>
      <legend>{w.thresholds}</legend>
      <p id={`${id}-lead`} className="muted small lead">
        {w.thresholdsLead}
      </p>
      {THRESHOLDS.map((name) => (
        <ThresholdField
          key={name}
          name={name}
          words={w}
          text={draft.thresholds[name]}
          onChange={(text) => onChange({ ...draft, thresholds: { ...draft.thresholds, [name]: text } })}
        />
      ))}
    </fieldset>
  );
}

function ThresholdField(props: {
  name: ThresholdName;
  words: SetupWords;
  text: string;
  onChange: (text: string) => void;
}) {
  const id = useId();
  const words = props.words.threshold[props.name];
  const value = thresholdValue(props.text);
  return (
    <div className="field threshold">
      <div className="threshold-row">
        <label htmlFor={`${id}-n`}>{words.label}</label>
        <input
          id={`${id}-n`}
          name={props.name}
          className="threshold-input"
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_THRESHOLD}
          step={1}
          value={props.text}
          onChange={(e) => props.onChange(e.target.value)}
          aria-invalid={value === null || undefined}
          aria-describedby={`${id}-hint${value === null ? ` ${id}-err` : ""}`}
        />
      </div>
      <small id={`${id}-hint`} className="muted hint">
        {value === null ? null : words.explain(value)}
      </small>
      {value === null && (
        <p id={`${id}-err`} className="error" role="alert">
          {props.words.thresholdRange(words.label, MAX_THRESHOLD)}
        </p>
      )}
    </div>
  );
}

/** A choice of one of a few options, each with a line saying what it means. */
export function Choice<V extends string>(props: {
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
