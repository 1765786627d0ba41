import { useId } from "react";
import { useT } from "../../i18n/index.tsx";
import type { GameData } from "../../use-game.ts";

// The section heads and summary lines of the engine's vote count (announce.ts, voteCountPost), in both languages.
const RED_HEAD = new Set(["Против:", "Against:"]);
const BLUE_HEAD = new Set(["В защиту:", "In defence:"]);
const SUMMARY = ["Лишены голоса:", "Cannot vote:", "Не проголосовали:", "Not voted yet:"];

/**
 * The live vote count as forum GMs write it: the title, "Против:" lines in red, "В защиту:" lines in blue,
 * then who has not voted and who cannot vote, named from the seats. It follows every refresh of the detail.
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
  const [title, ...rest] = count.text.split("\n");
  const nameOf = (seat: number) => detail.view?.seats[seat]?.name ?? `#${seat + 1}`;
  let section: "red" | "blue" | null = null;
  const lines: { text: string; kind: "head" | "red" | "blue" | "plain" }[] = [];
  for (const line of rest) {
    if (!line.trim() || SUMMARY.some((p) => line.startsWith(p))) continue;
    if (RED_HEAD.has(line.trim())) {
      section = "red";
      lines.push({ text: line, kind: "head" });
    } else if (BLUE_HEAD.has(line.trim())) {
      section = "blue";
      lines.push({ text: line, kind: "head" });
    } else lines.push({ text: line, kind: section ?? "plain" });
  }

  return (
    <section className="vote-count card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title || tv.title}</h2>
      {lines.map((l, i) => (
        <p
          key={i}
          className={
            l.kind === "head" ? "vc-head" : l.kind === "plain" ? "vc-line" : `vc-line vote-${l.kind}`
          }
        >
          {l.text}
        </p>
      ))}
      {count.notVoted.length > 0 && (
        <p className="vc-line muted">{tv.notVoted(count.notVoted.map(nameOf).join(", "))}</p>
      )}
      {count.cannotVote.length > 0 && (
        <p className="vc-line muted">{tv.cannotVote(count.cannotVote.map(nameOf).join(", "))}</p>
      )}
    </section>
  );
}
