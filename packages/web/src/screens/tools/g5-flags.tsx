import type { PasteFound } from "@forum-mafia/protocol";
import { Fragment, useId } from "react";
import { useT } from "../../i18n/index.tsx";
import "../game/g5.css";

/**
 * G5 (issue 31): the posts of a pasted thread that break G5 (мат, or an insult aimed at a player), as the
 * server's checker flagged them: each post by its number on the forum (1-based when it has none), its
 * author, the kind and the words, marked. Shared by /tools and a notebook's day; nothing when none is
 * flagged. `total`: how many posts were flagged in all, when only the last ones are listed (the notebook);
 * `level`: the heading's level where it stands.
 */
export function G5Flags(props: { flags: PasteFound["flags"]; total?: number; level: 3 | 4 }) {
  const w = useT().gm.tools.g5;
  const headingId = useId();
  const { flags } = props;
  if (flags.length === 0) return null;
  const total = props.total ?? flags.length;
  const Heading = props.level === 3 ? "h3" : "h4";
  return (
    <section className="g5-flags" aria-labelledby={headingId}>
      <Heading id={headingId}>{w.heading}</Heading>
      <p className="small">{w.lead}</p>
      <ul>
        {flags.map((f) => (
          <li key={f.post}>
            {w.line(f.label ?? String(f.post + 1), f.author, w.kinds[f.kind])}
            {f.words.map((word, i) => (
              <Fragment key={i}>
                {i > 0 && ", "}
                <mark>{word}</mark>
              </Fragment>
            ))}
          </li>
        ))}
      </ul>
      {total > flags.length && <p className="small">{w.lastShown(flags.length, total)}</p>}
    </section>
  );
}
