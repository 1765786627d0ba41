import type { ChangeEvent } from "react";
import { useT } from "../../i18n/index.tsx";

/**
 * What both tools share: a file read into a text box, the form's button with its refusal, and JSON parsing
 * (the post to copy is `CopyBox`, in `copy.tsx`).
 */

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

/** A tool form's button, and its refusal in words below it. */
export function Submit(props: { label: string; busy: boolean; error: string | null }) {
  return (
    <>
      <button type="submit" className="primary" disabled={props.busy}>
        {props.label}
      </button>
      {props.error && (
        <p className="error" role="alert">
          {props.error}
        </p>
      )}
    </>
  );
}
