import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";

/**
 * Issue 32: a console panel whose body is a native <details>; its <summary> holds the panel's heading (with
 * a count), so a keyboard opens and closes it with Tab and Enter and a screen reader still finds the
 * heading. A panel that can wait (the moderation, the hidden posts, the flags when none waits) starts
 * closed; one that needs the GM now starts open, and opens again when it comes to need the GM (a new flag).
 * It never closes by itself (the GM's last measure leaves it open, its outcome in view), and its content
 * stays mounted either way.
 */
export function Fold(props: {
  folded: boolean;
  heading: ReactNode;
  headingId?: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  useLayoutEffect(() => {
    if (!props.folded && ref.current) ref.current.open = true;
  }, [props.folded]);
  const className = props.className ? `card fold-card ${props.className}` : "card fold-card";
  // A region landmark only when the heading names it, as before the folds.
  const Tag = props.headingId ? "section" : "div";
  return (
    <Tag className={className} aria-labelledby={props.headingId}>
      <details ref={ref} className="fold">
        <summary>
          <h3 id={props.headingId}>{props.heading}</h3>
        </summary>
        {props.children}
      </details>
    </Tag>
  );
}

/** Whether the window is as narrow as a phone (the console's compact players' list), kept up to date. */
export function useNarrow(query = "(max-width: 560px)"): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const m = window.matchMedia(query);
    const changed = () => setNarrow(m.matches);
    changed();
    m.addEventListener("change", changed);
    return () => m.removeEventListener("change", changed);
  }, [query]);
  return narrow;
}
