import type { GameView, GmDayTally } from "@forum-mafia/protocol";
import { useT } from "../../i18n/index.tsx";
import { TallyTable, tallyVerdict } from "./readouts.tsx";

/**
 * V4, V5, P1, P2: the day's tally as the engine would close it now (the server sends it to the GM alone),
 * highest score first: the public count shows every vote as 1, this shows the weights and penalty votes.
 */
export function DayPanel(props: { tally: GmDayTally; view: GameView }) {
  const t = useT();
  const name = (seat: number) => props.view.seats[seat]?.name ?? `#${seat + 1}`;
  return (
    <div className="card day-tally">
      <h3>{t.gm.day.heading}</h3>
      <p role="status">
        <strong>{tallyVerdict(props.tally, name, t)}</strong>
      </p>
      {/* Issue 32: the explanation, closed on every width so the verdict and the scores come first. */}
      <details className="sub fold">
        <summary>{t.gm.day.how}</summary>
        <p className="muted">{t.gm.day.intro}</p>
      </details>
      <TallyTable tally={props.tally} name={name} />
    </div>
  );
}
