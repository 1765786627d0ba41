import type { TextCheck } from "@forum-mafia/protocol";
import { Fragment, useEffect, useState } from "react";
import { api } from "../../api.ts";
import { useG5T } from "../../i18n/g5.ts";
import "./g5.css";

/**
 * G5 (issue 31): the warning under a composer when the server's checker finds мат or an insult in the draft:
 * the rule as the seed words it, the words found, each marked, and that the message can still be sent (the
 * rules punish, they do not censor: the GM decides). Nothing when the draft is clean.
 */
export function G5Warning(props: { check: TextCheck | null }) {
  const w = useG5T().warning;
  const check = props.check;
  if (!check || check.flag === null) return null;
  // The same word twice is marked once.
  const words = [...new Set(check.words)];
  return (
    <div className="g5-warning" role="status">
      <p className="g5-warning-head">
        <strong>{w.heading(check.flag)}</strong>
      </p>
      <p>{w.ruleLine}</p>
      {words.length > 0 && (
        <p>
          {w.words}
          {words.map((word, i) => (
            <Fragment key={word}>
              {i > 0 && ", "}
              <mark>{word}</mark>
            </Fragment>
          ))}
        </p>
      )}
      <p>{w.sendAnyway}</p>
    </div>
  );
}

/** How long the chat composer waits after the last keystroke before asking the checker (as the thread's preview). */
const CHECK_DELAY_MS = 300;

/**
 * The chat composer's check (POST /api/text/check) after the typing stops; a newer draft aborts the request
 * for an older one, and an answer for another draft is never shown. Null while there is nothing to say.
 */
export function useTextCheck(text: string, enabled: boolean): TextCheck | null {
  const [answer, setAnswer] = useState<{ text: string; check: TextCheck } | null>(null);
  const draft = text.trim();
  useEffect(() => {
    if (!enabled || !draft) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api.textCheck(draft, abort.signal).then(
        (check) => {
          if (!abort.signal.aborted) setAnswer({ text: draft, check });
        },
        () => {
          // A failed check says nothing: the message itself is still sent and flagged by the server.
        },
      );
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [draft, enabled]);
  return enabled && answer && answer.text === draft ? answer.check : null;
}
