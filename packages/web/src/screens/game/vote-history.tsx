import { useT } from "../../i18n/index.tsx";
import type { GameData } from "../../use-game.ts";

/**
 * Earlier days' votes, as the thread showed them when each day closed (V4: each vote as 1), newest day
 * first, laid out like the count: "Вася (3): Петя, Коля, Маша", red and blue apart. Public: everyone saw
 * them in the thread; players read them against the roles revealed since.
 */
export function VoteHistory(props: { game: GameData }) {
  const t = useT();
  const view = props.game.detail?.view;
  if (!view || view.pastVotes.length === 0) return null;
  const th = t.game.voteHistory;
  const nameOf = (seat: number) => view.seats[seat]?.name ?? `#${seat + 1}`;
  const days = [...new Set(view.pastVotes.map((v) => v.day))].sort((a, b) => b - a);
  const lines = (day: number, color: "red" | "blue"): string[] => {
    const byTarget = new Map<number, string[]>();
    for (const v of view.pastVotes)
      if (v.day === day && v.color === color)
        byTarget.set(v.target, [...(byTarget.get(v.target) ?? []), nameOf(v.seat)]);
    return [...byTarget]
      .sort((a, b) => b[1].length - a[1].length || nameOf(a[0]).localeCompare(nameOf(b[0])))
      .map(([target, voters]) => `${nameOf(target)} (${voters.length}): ${voters.join(", ")}`);
  };
  return (
    <details className="vote-history card">
      <summary>{th.title}</summary>
      {days.map((day) => (
        <section key={day} aria-label={t.phase.day(day)}>
          <h3>{t.phase.day(day)}</h3>
          {(["red", "blue"] as const).map((color) =>
            lines(day, color).map((line) => (
              <p key={`${color}${line}`} className={`vc-line vote-${color}`}>
                {color === "red" ? th.red : th.blue} {line}
              </p>
            )),
          )}
        </section>
      ))}
    </details>
  );
}
