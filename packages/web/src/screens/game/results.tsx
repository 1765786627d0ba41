import type { Phase } from "@forum-mafia/protocol";
import { useId } from "react";
import { useT } from "../../i18n/index.tsx";
import { phaseName } from "../../time.ts";
import type { GameData } from "../../use-game.ts";
import "./play.css";

type Entry = { readonly phase: Phase; readonly lines: readonly string[] };

/**
 * The histories, newest first: the published results of every night and day (A1, A3), and the viewer's
 * own private results (A2: a check, the council's answer), shown only when there are some.
 */
export function Results(props: { id: string; game: GameData }) {
  const t = useT();
  const publicId = useId();
  const privateId = useId();
  const d = props.game.detail;
  if (!d) return <p className="muted">{t.loading}</p>;
  const announcements: Entry[] = [...d.announcements].reverse();
  const privateResults: Entry[] = [...d.privateResults].reverse();
  return (
    <div className="play play-results">
      <section className="card" aria-labelledby={publicId}>
        <h2 id={publicId}>{t.play.results.public}</h2>
        {announcements.length === 0 ? (
          <p className="muted">{t.play.results.publicEmpty}</p>
        ) : (
          announcements.map((a, i) => (
            // A published result's title ("Итоги ночи 1") heads it; the rest are its lines.
            <article key={`${a.phase.kind}-${a.phase.number}-${i}`} className="play-result">
              <h3>{a.lines[0] ?? phaseName(a.phase, t)}</h3>
              {a.lines.slice(1).map((line, j) => (
                <p key={j}>{line}</p>
              ))}
            </article>
          ))
        )}
      </section>
      {privateResults.length > 0 && (
        <section className="card" aria-labelledby={privateId}>
          <h2 id={privateId}>{t.play.results.private}</h2>
          {privateResults.map((r, i) => (
            <article key={i} className="play-result">
              <h3>{phaseName(r.phase, t)}</h3>
              {r.lines.map((line, j) => (
                <p key={j}>{line}</p>
              ))}
            </article>
          ))}
        </section>
      )}
    </div>
  );
}
