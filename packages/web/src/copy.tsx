import { useId, useRef, useState } from "react";

/** The words of a copy button: the button, and what it says after copying or failing to. */
export interface CopyWords {
  readonly copy: string;
  readonly copied: string;
  readonly copyFailed: string;
}

export type CopyState = "idle" | "copied" | "failed";

/**
 * Copy a text to the clipboard; without the clipboard (an http page, a refusal) `byHand` selects the text
 * for the user to copy, and the state says "failed" so the page can say so.
 */
export function useCopy(text: string, byHand: () => void): { state: CopyState; copy: () => void } {
  const [state, setState] = useState<CopyState>("idle");
  const copy = () => {
    const failed = () => {
      byHand();
      setState("failed");
    };
    const clipboard = typeof navigator.clipboard?.writeText === "function" ? navigator.clipboard : null;
    if (!clipboard) return failed();
    clipboard.writeText(text).then(() => setState("copied"), failed);
  };
  return { state, copy };
}

/**
 * A read-only post with a copy button (the clipboard, or a selection to copy by hand): the tools' posts
 * and the notebook's (`big` for the notebook's larger text, `maxRows` the tallest the box grows).
 */
export function CopyBox(props: {
  label: string;
  copyLabel: string;
  text: string;
  words: CopyWords;
  big?: boolean;
  primary?: boolean;
  maxRows?: number;
}) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const { state, copy } = useCopy(props.text, () => box.current?.select());
  const lines = props.text.split("\n").length;
  return (
    <div className={props.big ? "copy-box nb-big" : "copy-box"}>
      <label htmlFor={id} className="field-label">
        {props.label}
      </label>
      <textarea
        id={id}
        ref={box}
        readOnly
        rows={Math.min(props.maxRows ?? 20, lines + 1)}
        value={props.text}
      />
      <div className="row">
        <button
          type="button"
          className={props.primary ? "primary" : undefined}
          aria-label={props.copyLabel}
          onClick={copy}
        >
          {props.words.copy}
        </button>
        <CopyDone state={state} words={props.words} />
      </div>
      <CopyFailed state={state} words={props.words} />
    </div>
  );
}

/** "Copied.", beside the button. */
export function CopyDone(props: { state: CopyState; words: CopyWords }) {
  return (
    props.state === "copied" && (
      <span className="ok" role="status">
        {props.words.copied}
      </span>
    )
  );
}

/** The copy failed: the text is selected, copy it by hand. */
export function CopyFailed(props: { state: CopyState; words: CopyWords }) {
  return (
    props.state === "failed" && (
      <p className="error" role="alert">
        {props.words.copyFailed}
      </p>
    )
  );
}
