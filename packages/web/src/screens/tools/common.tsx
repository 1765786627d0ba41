import type { ChangeEvent } from "react";
import { useT } from "../../i18n/index.tsx";

/**
 * What both tools share: a file read into a text box, the form's button with its refusal, and JSON parsing
 * (the post to copy is `CopyBox`, in `copy.tsx`).
 */

/**
 * A file to upload (a saved thread, page or replay), read in the browser; `file` names the file read,
 * until the text is edited by hand. Issue 30: a file `asBytes` picks (a saved page, a .txt) is not read as
 * text here, since `file.text()` reads every file as UTF-8 and a page saved from a windows-1251 or KOI8-R
 * forum came out as mojibake: its bytes go to `onBytes` in base64, for the server to decode by the page's
 * BOM, meta or a detector. Other files (JSON, which is UTF-8 by its standard) are read as text.
 */
export function TextFile(props: {
  label: string;
  accept: string;
  file: string | null;
  onRead: (text: string, name: string) => void;
  asBytes?: (name: string) => boolean;
  onBytes?: (base64: string, name: string, size: number) => void;
}) {
  const t = useT();
  const read = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    const onBytes = props.onBytes;
    if (onBytes && props.asBytes?.(file.name))
      void base64Of(file).then((base64) => onBytes(base64, file.name, file.size));
    else void file.text().then((text) => props.onRead(text.replace(/^\uFEFF/, ""), file.name));
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

/** Saved pages and plain text files: sent as their bytes (issue 30), whatever their encoding. */
export const savedPageOrText = (name: string): boolean => /\.(html?|txt)$/i.test(name);

/** A file's bytes in base64, by the browser's own encoder (a data: URL), without the URL's prefix. */
function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("the file could not be read"));
    reader.readAsDataURL(file);
  });
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
