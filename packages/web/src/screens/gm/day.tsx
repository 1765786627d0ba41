import type { GameView, GmDayTally } from "@forum-mafia/protocol";
import { useT } from "../../i18n/index.tsx";

/**
 * V4, V5, P1, P2: the day's tally as the engine would close it now (the server sends it to the GM alone),
 * highest score first: the public count shows every vote as 1, this shows the weights and penalty votes.
 */
export function DayPanel(props: { tally: GmDayTally; view: GameView }) {
  const t = useT();
  const name = (seat: number) => props.view.seats[seat]?.name ?? `#${seat + 1}`;
  const rows = [...props.tally.scores].sort((a, b) => b.score - a.score || a.seat - b.seat);
  const { hanged, excused } = props.tally;
  return (
    <div className="card day-tally">
      <h3>{t.gm.day.heading}</h3>
      <p className="muted">{t.gm.day.intro}</p>
      <p role="status">
        <strong>
          {hanged !== null
            ? t.gm.day.hanged(name(hanged))
            : excused !== null
              ? t.gm.day.excused(name(excused))
              : t.gm.day.nobody}
        </strong>
      </p>
      <div className="table-scroll">
        <table className="gm-players">
          <caption className="sr-only">{t.gm.day.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t.gm.day.player}</th>
              <th scope="col">{t.gm.day.score}</th>
              <th scope="col">{t.gm.day.votes}</th>
              <th scope="col">{t.gm.day.penalty}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.seat}>
                <th scope="row">{name(r.seat)}</th>
                <td>{r.score}</td>
                <td>{r.score - r.penalty}</td>
                <td>{r.penalty}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
