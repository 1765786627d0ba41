import type { GmDayTally } from "@forum-mafia/protocol";
import { ROLL_NAMES, type RollName } from "@forum-mafia/protocol/roles";
import type { Dispatch, SetStateAction } from "react";
import { useT, type Dict } from "../../i18n/index.tsx";
import { ScrollRegion } from "../../scroll-region.tsx";

/**
 * What the GM's console shares with the notebook (issue 18): the day's tally (its verdict and its table
 * of scores), the night draft's lines, and the choice of the night's rolls.
 */

/** V5, V8: who the tally would hang if the day closed now, or excuse, or nobody. */
export function tallyVerdict(tally: GmDayTally, name: (seat: number) => string, t: Dict): string {
  return tally.hanged !== null
    ? t.gm.day.hanged(name(tally.hanged))
    : tally.excused !== null
      ? t.gm.day.excused(name(tally.excused))
      : t.gm.day.nobody;
}

/** V4, P1, P2: each player's score, highest first, with the votes and penalty votes that make it. */
export function TallyTable(props: { tally: GmDayTally; name: (seat: number) => string }) {
  const t = useT();
  const rows = [...props.tally.scores].sort((a, b) => b.score - a.score || a.seat - b.seat);
  return (
    <ScrollRegion label={t.gm.day.caption}>
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
              <th scope="row">{props.name(r.seat)}</th>
              <td>{r.score}</td>
              <td>{r.score - r.penalty}</td>
              <td>{r.penalty}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** A night draft's lines under their heading (public, private, the explanation), or "none". */
export function DraftLines(props: { heading: string; lines: readonly string[] }) {
  const t = useT();
  return (
    <>
      <h4>{props.heading}</h4>
      {props.lines.length === 0 ? (
        <p className="muted">{t.gm.review.none}</p>
      ) : (
        <ul>
          {props.lines.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Each roll as chosen: fixed to yes or no, or left as it is. */
export type RollChoice = Partial<Record<RollName, "yes" | "no">>;

/** The rolls chosen, as a rolls body gives them (those left as they are are absent). */
export function chosenRolls(choice: RollChoice): Partial<Record<RollName, boolean>> {
  const rolls: Partial<Record<RollName, boolean>> = {};
  for (const name of ROLL_NAMES) {
    const c = choice[name];
    if (c) rolls[name] = c === "yes";
  }
  return rolls;
}

/** One choice per roll (yes, no, or as it is), each with what it is fixed to now. */
export function RollChoices(props: {
  labels: Readonly<Record<RollName, string>>;
  fixed: Readonly<Record<string, boolean>>;
  choice: RollChoice;
  setChoice: Dispatch<SetStateAction<RollChoice>>;
}) {
  const t = useT();
  return ROLL_NAMES.map((name) => {
    const now = props.fixed[name];
    return (
      <label key={name} className="field">
        <span>
          {props.labels[name]}
          {now !== undefined && (
            <span className="muted">
              {" "}
              ({t.gm.review.fixedNow(now ? t.gm.review.rollYes : t.gm.review.rollNo)})
            </span>
          )}
        </span>
        <select
          value={props.choice[name] ?? ""}
          onChange={(e) => {
            const v = e.target.value;
            props.setChoice((c) => ({ ...c, [name]: v === "yes" || v === "no" ? v : undefined }));
          }}
        >
          <option value="">{t.gm.review.rollKeep}</option>
          <option value="yes">{t.gm.review.rollYes}</option>
          <option value="no">{t.gm.review.rollNo}</option>
        </select>
      </label>
    );
  });
}
