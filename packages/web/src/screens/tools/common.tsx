import { useId, useRef, useState, type ChangeEvent } from "react";
import { useT } from "../../i18n/index.tsx";

/** What both tools share: a file read into a text box, JSON parsing, and a post to copy. */

/**
 * A file to upload (a saved thread, page or replay), read in the browser; `file` names the file read,
 * until the text is edited by hand.
 */
export function TextFile(props: {
  label: string;
  accept: string;
  file: string | null;
  onRead: (text: string, name: string) => void;
}) {
  const t = useT();
  const read = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) void file.text().then((text) => props.onRead(text.replace(/^\uFEFF/, ""), file.name));
  };
  return (
    <>
      <label className="field">
        <span>{props.label}</span>
        <input type="file" accept={props.accept} onChange={read} />
      </label>
      {props.file && (
        <p className="muted" role="status">
          {t.gm.tools.fileRead(props.file)}
        </p>
      )}
    </>
  );
}

/** Parse JSON typed in or uploaded; not ok (and the page says so) when it is not JSON. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A read-only post with a copy button (the clipboard, or a selection to copy by hand). */
export function CopyBox(props: { label: string; copyLabel: string; text: string }) {
  const t = useT();
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = () => {
    navigator.clipboard.writeText(props.text).then(
      () => setState("copied"),
      () => {
        box.current?.select();
        setState("failed");
      },
    );
  };
  const lines = props.text.split("\n").length;
  return (
    <div className="copy-box">
      <label htmlFor={id} className="field-label">
        {props.label}
      </label>
      <textarea id={id} ref={box} readOnly rows={Math.min(20, lines + 1)} value={props.text} />
      <div className="row">
        <button type="button" className="primary" aria-label={props.copyLabel} onClick={copy}>
          {t.gm.tools.copy}
        </button>
        {state === "copied" && (
          <span className="ok" role="status">
            {t.gm.tools.copied}
          </span>
        )}
      </div>
      {state === "failed" && (
        <p className="error" role="alert">
          {t.gm.tools.copyFailed}
        </p>
      )}
    </div>
  );
}
