import { useCallback, useEffect, useRef, useState } from "react";
import { useT } from "../i18n/index.tsx";
import type { GameData } from "../use-game.ts";
import { ClockPanel } from "./gm/clock.tsx";
import { DayPanel } from "./gm/day.tsx";
import { FlagsPanel } from "./gm/flags.tsx";
import { HiddenPosts, Moderation } from "./gm/moderation.tsx";
import { Council, ReviewPanel } from "./gm/review.tsx";
import { Successes } from "./gm/shared.tsx";
import { SignupPanel } from "./gm/signup.tsx";
import { PlayersTable } from "./gm/submissions.tsx";
import "./gm.css";

/**
 * The GM's console: signups and the start (S1, F1), the players' table with every role, strike and
 * tonight's moves, the phase clock, the council's question (M2c) as soon as it is asked, the day's
 * weighted score (V4, P1), the night's review (G10, F2), the posts and messages flagged for G5 with the GM's
 * measures (issue 31), moderation (P3, P4) and hidden posts (F2). Every
 * action shows its refusal in words beside the control, and refetches the game when it succeeds.
 *
 * This file is the shell; the panels live in ./gm/, one file per task of the GM.
 *
 * Issue 32: what needs the GM now comes first and open (the council's question, the night's review, the
 * flags: open while one waits for a measure, closed with its count otherwise), then what the GM reads (the
 * clock, the day's score, the players); what can wait is closed in a <details> with a count in its summary
 * (the clock's controls, the moderation, the hidden posts), so on a phone the console fits in a few screens.
 */
export default function GmConsole(props: { id: string; game: GameData }) {
  const t = useT();
  const d = props.game.detail;
  // The review panel goes away once its results are out, so their success is told here.
  const [published, setPublished] = useState<string | null>(null);
  const count = useRef(0);
  const [stamp, setStamp] = useState(0);
  const succeeded = useCallback(() => {
    count.current += 1;
    setStamp(count.current);
    return count.current;
  }, []);
  const phase = d?.clock.phase;
  const phaseKey = phase ? `${phase.kind}${phase.number}${d.clock.resultsPending ? "r" : ""}` : "";
  useEffect(() => {
    if (phaseKey) succeeded();
  }, [phaseKey, succeeded]);
  if (!d) return <p className="muted">{t.loading}</p>;
  const done = props.game.refresh;
  const council = d.gm?.council ?? null;
  return (
    <Successes.Provider value={{ stamp, succeeded }}>
      <section className="gm" aria-labelledby="gm-heading">
        <h2 id="gm-heading">{t.gm.console.heading}</h2>
        {d.summary.status === "signup" && <SignupPanel id={props.id} detail={d} done={done} />}
        {d.summary.status === "running" && (
          <>
            {published && !d.clock.resultsPending && (
              <p className="ok" role="status">
                {published}
              </p>
            )}
            {council && (
              <Council
                id={props.id}
                question={council.question}
                answer={council.answer}
                suggested={council.suggested}
                automatic={d.settings.mode === "automatic"}
                done={done}
              />
            )}
            {d.clock.resultsPending && (
              <ReviewPanel
                id={props.id}
                detail={d}
                done={done}
                onPublished={() => setPublished(t.gm.review.published)}
              />
            )}
            <FlagsPanel id={props.id} detail={d} posts={props.game.posts} done={done} />
            <ClockPanel id={props.id} detail={d} done={done} />
            {d.gm?.day && d.view && <DayPanel tally={d.gm.day} view={d.view} />}
            {d.view && <PlayersTable detail={d} view={d.view} />}
            {d.view && <Moderation id={props.id} view={d.view} done={done} />}
            <HiddenPosts id={props.id} posts={props.game.posts} done={done} />
          </>
        )}
        {d.summary.status === "ended" && <p className="notice">{t.gm.console.ended}</p>}
      </section>
    </Successes.Provider>
  );
}
