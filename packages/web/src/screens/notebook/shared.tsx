import type { NotebookView, Phase } from "@forum-mafia/protocol";
import { useCallback, useId, useState } from "react";
import { ApiFailure, api, type NotebookRoute } from "../../api.ts";
import { CopyBox as SharedCopyBox } from "../../copy.tsx";
import { useLang, useT } from "../../i18n/index.tsx";
import { useNotebookT } from "../../i18n/notebook.ts";
import { phaseName } from "../../time.ts";
import { useRun } from "../gm/shared.tsx";

/**
 * What the notebook's panels share: one request to a notebook route that answers the new view (`useSend`),
 * a text with a copy button (`CopyBox`), a removal that asks for a reason (`RemoveWithReason`), a living
 * player to choose (`SeatSelect`) and the button that closes the phase (`CloseButton`).
 */

/** Send one request to the notebook; the answer (the new view) goes to `setView`. The refusal in words stays beside the control. */
export function useSend(id: string, setView: (v: NotebookView) => void) {
  const { lang } = useLang();
  const w = useNotebookT();
  const { busy, run, fail, outcome } = useRun();
  const send = useCallback(
    (route: NotebookRoute, body: unknown, success?: string): Promise<boolean> =>
      run(
        async () => setView(await api.notebooks.post(id, route, body, lang)),
        success ?? w.page.done,
        // F2: a correction sent without its reason; the council's own refusal keeps its wording.
        (e) =>
          e instanceof ApiFailure && e.code === "reason" && route !== "council" ? w.page.reasonNeeded : null,
      ),
    [id, lang, run, setView, w],
  );
  return { busy, send, fail, outcome };
}
export type Send = ReturnType<typeof useSend>;

/** A post to copy to the forum, in the notebook's words (the shared `CopyBox`, its text box up to 16 rows). */
export function CopyBox(props: { label: string; copyLabel: string; text: string; big?: boolean }) {
  const w = useNotebookT();
  return <SharedCopyBox {...props} words={w} maxRows={16} />;
}

/** A "remove" button that opens a reason field (F2: every correction has its reason) and removes on confirm. */
export function RemoveWithReason(props: {
  label: string;
  busy: boolean;
  onRemove: (reason: string) => void;
}) {
  const w = useNotebookT();
  const t = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  if (!open)
    return (
      <button type="button" className="link" aria-label={props.label} onClick={() => setOpen(true)}>
        {w.page.remove}
      </button>
    );
  const confirm = () => {
    if (!reason.trim()) return setMissing(true);
    props.onRemove(reason.trim());
  };
  return (
    <span className="nb-remove">
      <label htmlFor={`${id}-r`} className="sr-only">
        {`${props.label}. ${w.page.reason}`}
      </label>
      <input
        id={`${id}-r`}
        placeholder={w.page.reason}
        maxLength={500}
        value={reason}
        autoFocus
        onChange={(e) => {
          setReason(e.target.value);
          setMissing(false);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            confirm();
          }
        }}
        aria-invalid={missing || undefined}
      />
      <button type="button" disabled={props.busy} onClick={confirm}>
        {w.page.removeConfirm}
      </button>
      <button type="button" className="link" onClick={() => setOpen(false)}>
        {t.cancel}
      </button>
      {missing && (
        <span className="error" role="alert">
          {w.page.reasonNeeded}
        </span>
      )}
    </span>
  );
}

/** A phase's name as the forum writes it: «Ночь 2», «День 3». */
export function usePhaseName(): (phase: Phase) => string {
  const t = useT();
  return (phase) => phaseName(phase, t);
}

/** A living player to choose (or "—", none yet), by the seat's number as text. */
export function SeatSelect(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  seats: readonly { seat: number; name: string }[];
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">—</option>
        {props.seats.map((s) => (
          <option key={s.seat} value={s.seat}>
            {s.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The button that closes the night or the day (its words change while the request runs). */
export function CloseButton(props: { close: Send; label: string; busyLabel: string }) {
  const { close } = props;
  return (
    <div className="row">
      <button
        type="button"
        className="primary big"
        disabled={close.busy}
        onClick={() => void close.send("close", {})}
      >
        {close.busy ? props.busyLabel : props.label}
      </button>
    </div>
  );
}

/** The reason field of a correction form. */
export function ReasonField(props: { value: string; onChange: (v: string) => void; label?: string }) {
  const w = useNotebookT();
  return (
    <label className="field">
      <span>{props.label ?? w.page.reason}</span>
      <input maxLength={500} value={props.value} onChange={(e) => props.onChange(e.target.value)} />
    </label>
  );
}

/** F2: every correction and GM decision with its reason (the notebook, and its published page). */
export function Corrections(props: { corrections: NotebookView["corrections"] }) {
  const w = useNotebookT();
  const phaseOf = usePhaseName();
  const heading = useId();
  return (
    <section className="nb-corrections" aria-labelledby={heading}>
      <h2 id={heading}>{w.page.corrections}</h2>
      {props.corrections.length === 0 ? (
        <p className="muted">{w.page.noCorrections}</p>
      ) : (
        <ol>
          {props.corrections.map((c, i) => (
            <li key={i}>{w.page.correction(phaseOf(c.phase), c.detail, c.reason)}</li>
          ))}
        </ol>
      )}
    </section>
  );
}
