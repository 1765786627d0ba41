import type { SavedSetup, Setup } from "@forum-mafia/protocol/setups";
import { useId, useState, type KeyboardEvent } from "react";
import { api } from "../../api.ts";
import { errorText, useLang } from "../../i18n/index.tsx";
import { useSetupT } from "../../i18n/setup.ts";
import { sameSetup } from "./model.ts";

/**
 * Issue 17: the GM's saved setups (GET/POST/DELETE /api/me/setups). One is picked like a preset; the
 * current setup is saved under a name (the same name replaces the old one, on the server); one is deleted.
 */
export function SavedSetups(props: {
  /** The list as first read with the role names (useMySetups); this section keeps it from then on. */
  initial: readonly SavedSetup[];
  current: Setup | null;
  onPick: (setup: Setup) => void;
}) {
  const w = useSetupT().saved;
  const { lang } = useLang();
  const id = useId();
  const [setups, setSetups] = useState<readonly SavedSetup[]>(props.initial);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const save = async () => {
    if (busy || props.current === null) return;
    const trimmed = name.trim();
    if (!trimmed) return setError(w.nameEmpty);
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const saved = await api.saveSetup(trimmed, props.current);
      setSetups((list) => [...list.filter((s) => s.id !== saved.id && s.name !== saved.name), saved]);
      setDone(w.savedAs(saved.name));
      setName("");
    } catch (e) {
      setError(errorText(e, lang));
    } finally {
      setBusy(false);
    }
  };
  const remove = async (s: SavedSetup) => {
    setError(null);
    setDone(null);
    try {
      await api.deleteSetup(s.id);
      setSetups((list) => list.filter((x) => x.id !== s.id));
      setDone(w.removed(s.name));
    } catch (e) {
      setError(errorText(e, lang));
    }
  };
  // Enter in the name saves the setup; it must not submit the new-game form around it.
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    void save();
  };

  return (
    <section className="card setup-saved" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{w.heading}</h2>
      {setups.length === 0 ? (
        <p className="muted small">{w.empty}</p>
      ) : (
        <SavedList setups={setups} current={props.current} onPick={props.onPick} onRemove={remove} />
      )}
      <div className="field save-setup">
        <label htmlFor={`${id}-name`}>
          <span>{w.name}</span>
        </label>
        <div className="row">
          <input
            id={`${id}-name`}
            maxLength={80}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={onKey}
            aria-describedby={`${id}-hint`}
          />
          <button type="button" disabled={busy || props.current === null} onClick={() => void save()}>
            {busy ? w.saving : w.save}
          </button>
        </div>
        <small id={`${id}-hint`} className="muted hint">
          {w.nameHint}
        </small>
      </div>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {done !== null && (
        <p className="ok" role="status">
          {done}
        </p>
      )}
    </section>
  );
}

function SavedList(props: {
  setups: readonly SavedSetup[];
  current: Setup | null;
  onPick: (setup: Setup) => void;
  onRemove: (s: SavedSetup) => Promise<void>;
}) {
  const w = useSetupT();
  return (
    <ul className="saved-list">
      {props.setups.map((s) => {
        const chosen = props.current !== null && sameSetup(props.current, s.setup);
        return (
          <li key={s.id}>
            <button
              type="button"
              className={chosen ? "preset chosen" : "preset"}
              aria-pressed={chosen}
              aria-label={w.saved.pick(s.name)}
              onClick={() => props.onPick(s.setup)}
            >
              <strong>
                {s.name}
                {chosen && <span className="chosen-mark"> · {w.current}</span>}
              </strong>
              <small className="muted">{w.players(s.setup.roles.length)}</small>
            </button>
            <button
              type="button"
              aria-label={w.saved.removeLabel(s.name)}
              onClick={() => void props.onRemove(s)}
            >
              {w.saved.remove}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
