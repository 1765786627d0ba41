import type { Dialect, RoleId } from "@forum-mafia/protocol";
import { CLASSIC_SETUP } from "@forum-mafia/protocol/setups";
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { api, type CreateNotebookBody } from "../../api.ts";
import { errorText, useLang } from "../../i18n/index.tsx";
import { useNotebookT, type NotebookWords } from "../../i18n/notebook.ts";
import { useSetupT } from "../../i18n/setup.ts";
import { navigate } from "../../router.tsx";
import { useSession } from "../../session.tsx";
import { Choice, SetupEditor } from "../setup/editor.tsx";
import { EstimatePanel } from "../setup/estimate.tsx";
import { draftOf, setupOf, type Draft, type DraftCheck } from "../setup/model.ts";
import { useMySetups } from "../setup/my-setups.ts";
import "../lobby.css";
import "./notebook.css";

/**
 * Issue 18: a new notebook (createNotebookSchema): the title, the players' nicks as on the GM's forum, the
 * setup (the setup editor of issue 17: presets, any S3 setup), the deal (S1, F1: from a seed, or by hand)
 * and the forum's BBCode dialect. Issue 30: the GM's own nick on the forum, optional, so the GM's posts in a
 * pasted thread are read as the GM's.
 */

/** The nicks as typed: one a line, blank lines skipped. */
const nicksOf = (text: string): string[] =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");

/** Why the nicks cannot be sent as they are, or null. */
function nicksFault(nicks: readonly string[], roles: number, w: NotebookWords["create"]): string | null {
  if (nicks.length === 0) return w.nicksEmpty;
  const seen = new Set<string>();
  for (const n of nicks) {
    if (n.length > 64) return w.nickLong(n);
    const key = n.toLocaleLowerCase();
    if (seen.has(key)) return w.nickTwice(n);
    seen.add(key);
  }
  return nicks.length === roles ? null : w.countMismatch(nicks.length, roles);
}

/** S3: the hand deal is the role list as a multiset. */
function sameRoles(a: readonly RoleId[], b: readonly RoleId[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((r, i) => r === y[i]);
}

export default function NewNotebook() {
  const w = useNotebookT();
  const { lang } = useLang();
  const { user } = useSession();
  const id = useId();
  const [title, setTitle] = useState("");
  const [nickText, setNickText] = useState("");
  const [gmNick, setGmNick] = useState("");
  const [{ draft, picked }, setEdit] = useState<{ draft: Draft; picked: boolean }>(() => ({
    draft: draftOf(CLASSIC_SETUP),
    picked: true,
  }));
  const check = useMemo(() => setupOf(draft), [draft]);
  const my = useMySetups(lang);
  const [deal, setDeal] = useState<"random" | "hand">("random");
  const [hand, setHand] = useState<RoleId[]>([]);
  const [dialect, setDialect] = useState<Dialect>("lower");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => void (user || navigate("/login?next=/notebooks/new", true)), [user]);
  const nicks = useMemo(() => nicksOf(nickText), [nickText]);
  const roles: readonly RoleId[] = check.setup?.roles ?? [];
  // The hand deal starts as the role list in order; a change of the setup or of the count starts it again.
  const rolesKey = roles.join(",");
  useEffect(() => {
    setHand([...roles]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rolesKey stands for roles
  }, [rolesKey]);
  if (!user) return <p className="notice">{w.list.guest}</p>;

  const nickError = nicksFault(nicks, roles.length, w.create);
  const handError =
    deal === "hand" && nicks.length === roles.length && !sameRoles(hand, roles)
      ? w.create.handMismatch
      : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || check.setup === null) return;
    if (!title.trim()) return setError(w.create.titleEmpty);
    if (nickError) return setError(nickError);
    if (handError) return setError(handError);
    const body: CreateNotebookBody = {
      title: title.trim(),
      players: nicks,
      roles: [...check.setup.roles],
      options: { ...check.setup.options },
      deal: deal === "hand" ? { kind: "hand", roles: [...hand] } : { kind: "random" },
      dialect,
      ...(gmNick.trim() ? { gm: gmNick.trim() } : {}),
    };
    setBusy(true);
    setError(null);
    try {
      const view = await api.notebooks.create(body, lang);
      navigate(`/notebooks/${encodeURIComponent(view.id)}`);
    } catch (err) {
      setError(errorText(err, lang));
      setBusy(false);
    }
  };
  return (
    <section className="new-game notebook-new" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{w.create.title}</h1>
      <p className="muted">{w.create.lead}</p>
      <form onSubmit={submit} noValidate>
        <div className="card">
          <TitleField value={title} onChange={setTitle} />
          <NicksField
            value={nickText}
            onChange={setNickText}
            count={nicks.length}
            roles={roles.length}
            error={nickError}
          />
          <GmField value={gmNick} onChange={setGmNick} />
        </div>
        <SetupArea
          draft={draft}
          check={check}
          my={my}
          onChange={(d, whole) => setEdit({ draft: d, picked: whole })}
          picked={picked}
        />
        <Choice
          legend={w.create.deal}
          name="deal"
          value={deal}
          onChange={setDeal}
          options={[
            { value: "random", label: w.create.dealRandom, hint: w.create.dealRandomHint },
            { value: "hand", label: w.create.dealHand, hint: w.create.dealHandHint },
          ]}
        >
          {deal === "hand" && (
            <HandDeal
              nicks={nicks}
              roles={roles}
              hand={hand}
              setHand={setHand}
              names={my.mine?.roleNames}
              error={handError}
            />
          )}
        </Choice>
        <DialectChoice value={dialect} onChange={setDialect} />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {check.setup === null ? <p className="error">{w.create.blocked}</p> : null}
        <button type="submit" className="primary big" disabled={busy || check.setup === null}>
          {busy ? w.create.busy : w.create.submit}
        </button>
      </form>
    </section>
  );
}

/** The nicks, one a line, with their count against the role list. */
function NicksField(props: {
  value: string;
  onChange: (v: string) => void;
  count: number;
  roles: number;
  error: string | null;
}) {
  const w = useNotebookT();
  const id = useId();
  const shown = props.count > 0 && props.error !== null;
  return (
    <div className="field">
      <label htmlFor={`${id}-nicks`}>
        <span>{w.create.nicks}</span>
      </label>
      <textarea
        id={`${id}-nicks`}
        className="wide-input"
        rows={8}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-describedby={`${id}-nicks-hint ${id}-nicks-count`}
      />
      <small id={`${id}-nicks-hint`} className="muted hint">
        {w.create.nicksHint}
      </small>
      <p id={`${id}-nicks-count`} aria-live="polite" className={shown ? "error" : "muted"}>
        {shown ? props.error : w.create.count(props.count, props.roles)}
      </p>
    </div>
  );
}

/** S1: a role per player, in seat order; S3: together they must be the role list. */
function HandDeal(props: {
  nicks: readonly string[];
  roles: readonly RoleId[];
  hand: readonly RoleId[];
  setHand: (h: RoleId[]) => void;
  names: Readonly<Record<RoleId, string>> | undefined;
  error: string | null;
}) {
  const w = useNotebookT();
  const { nicks, roles, hand, names } = props;
  if (nicks.length !== roles.length || !names) return <p className="muted">{w.create.handNeedNicks}</p>;
  return (
    <div className="nb-hand">
      <p className="muted small">{w.create.handLead}</p>
      {nicks.map((nick, i) => (
        <label key={i} className="field nb-hand-row">
          <span>{nick}</span>
          <select
            aria-label={w.create.roleOf(nick)}
            value={hand[i] ?? roles[i]}
            onChange={(e) => {
              const next = [...hand];
              next[i] = e.target.value as RoleId;
              props.setHand(next);
            }}
          >
            {[...new Set(roles)].map((r) => (
              <option key={r} value={r}>
                {names[r]}
              </option>
            ))}
          </select>
        </label>
      ))}
      {props.error && (
        <p className="error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** The setup (issue 17's editor: presets, saved setups, any S3 setup) and its balance. */
function SetupArea(props: {
  draft: Draft;
  check: DraftCheck;
  my: ReturnType<typeof useMySetups>;
  onChange: (d: Draft, whole: boolean) => void;
  picked: boolean;
}) {
  const ws = useSetupT();
  const id = useId();
  const { my } = props;
  return (
    <section className="setup-area" aria-labelledby={`${id}-setup-h`}>
      <h2 id={`${id}-setup-h`} className="setup-heading">
        {ws.heading}
      </h2>
      {my.mine === null ? (
        <p className={my.failed ? "error" : "muted"} role={my.failed ? "alert" : "status"}>
          {my.failed ? ws.rolesFailed : ws.rolesLoading}
        </p>
      ) : (
        <SetupEditor
          draft={props.draft}
          check={props.check}
          onChange={props.onChange}
          roleNames={my.mine.roleNames}
          saved={my.mine.setups}
          estimateId={`${id}-estimate`}
        />
      )}
      <EstimatePanel setup={props.check.setup} id={`${id}-estimate`} picked={props.picked} />
    </section>
  );
}

function TitleField(props: { value: string; onChange: (v: string) => void }) {
  const w = useNotebookT();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={`${id}-title`}>
        <span>{w.create.gameTitle}</span>
      </label>
      <input
        id={`${id}-title`}
        className="wide-input"
        maxLength={120}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

/** Issue 30: the GM's nick on the forum (optional): that author's posts are the GM's, never votes. */
function GmField(props: { value: string; onChange: (v: string) => void }) {
  const w = useNotebookT();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={`${id}-gm`}>
        <span>{w.create.gm}</span>
      </label>
      <input
        id={`${id}-gm`}
        className="wide-input"
        maxLength={64}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-describedby={`${id}-gm-hint`}
      />
      <small id={`${id}-gm-hint`} className="muted hint">
        {w.create.gmHint}
      </small>
    </div>
  );
}

/** How the forum writes BBCode colours: the posts are written in its dialect. */
function DialectChoice(props: { value: Dialect; onChange: (d: Dialect) => void }) {
  const w = useNotebookT();
  return (
    <Choice
      legend={w.create.dialect}
      name="dialect"
      value={props.value}
      onChange={props.onChange}
      options={[
        { value: "lower", label: w.create.dialectLower, hint: w.create.dialectLowerHint },
        { value: "upper", label: w.create.dialectUpper, hint: w.create.dialectUpperHint },
      ]}
    />
  );
}
