import { useId } from "react";
import { useT } from "../../i18n/index.tsx";
import type { GameData } from "../../use-game.ts";

/**
 * The live vote count as forum GMs write it (V4: every vote shown as 1): the title, a line per target,
 * "Вася (3): Петя, Коля, Маша", the red votes in red and the blue in blue, then who has not voted and who
 * cannot vote, named from the seats. The lines are the engine's (the server sends them), so the app, the
 * GM's forum post and the vote counter word them alike. It follows every refresh of the detail.
 */
export function VoteCount(props: { game: GameData }) {
  const t = useT();
  const titleId = useId();
  const detail = props.game.detail;
  const count = detail?.voteCount;
  const tv = t.game.voteCount;
  if (!detail) return null;
  if (!count)
    return (
      <section className="vote-count card" aria-label={tv.title}>
        <h2>{tv.title}</h2>
        <p className="muted">{tv.none}</p>
      </section>
    );
  const nameOf = (seat: number) => detail.view?.seats[seat]?.name ?? `#${seat + 1}`;
  const section = (head: string, lines: readonly string[], color: "red" | "blue") =>
    lines.length > 0 && (
      <>
        <p className="vc-head">{head}</p>
        {lines.map((line) => (
          <p key={line} className={`vc-line vote-${color}`}>
            {line}
          </p>
        ))}
      </>
    );

  return (
    <section className="vote-count card" aria-labelledby={titleId}>
      <h2 id={titleId}>{count.title}</h2>
      {section(tv.against, count.red, "red")}
      {section(tv.inDefence, count.blue, "blue")}
      {count.notVoted.length > 0 && (
        <p className="vc-line muted">{tv.notVoted(count.notVoted.map(nameOf).join(", "))}</p>
      )}
      {count.cannotVote.length > 0 && (
        <p className="vc-line muted">{tv.cannotVote(count.cannotVote.map(nameOf).join(", "))}</p>
      )}
    </section>
  );
}
