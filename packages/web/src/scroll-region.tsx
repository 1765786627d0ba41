import type { ReactNode } from "react";

/**
 * Issue 32 (axe's scrollable-region-focusable): a wide table's scroll area, reachable by keyboard and named
 * by the table's caption, so a keyboard user can scroll it on a phone.
 */
export function ScrollRegion(props: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={props.label}>
      {props.children}
    </div>
  );
}
