import type { GameDetail, GameView, SeatTonight } from "@forum-mafia/protocol";
import { useT } from "../../i18n/index.tsx";
import { useNarrow } from "./fold.tsx";
import { actionText, namesOf } from "./shared.tsx";
import { ScrollRegion } from "../../scroll-region.tsx";

/**
 * The players' table: every seat with its role and strikes (P1, P2, and G5's since issue 31: vote / night /
 * G5), and at night what each seat has sent.
 * Who owes a move, and whom a teammate's move covers (O1, M4, T1, P2), is the server's word
 * (`GmTable.tonight`): the console does not work it out again.
 * Issue 32: on a phone the table is a compact list, one or two lines a seat (no sideways scrolling).
 */

/** The seats whose move is in: their own, or the team's shared one (M4, T1). */
const isIn = (s: SeatTonight): boolean => s === "sent" || s === "mafia" || s === "pair";

export function PlayersTable(props: { detail: GameDetail; view: GameView }) {
  const t = useT();
  const d = props.detail;
  const view = props.view;
  const night = view.phase.kind === "night";
  const tonight = d.gm?.tonight ?? null;
  const movers = tonight?.filter((s) => s !== "none") ?? [];
  const narrow = useNarrow();
  return (
    <div className="card">
      <h3>{t.gm.players.heading}</h3>
      {tonight && (
        <p role="status">
          <strong>{t.gm.players.progress(movers.filter(isIn).length, movers.length)}</strong>
        </p>
      )}
      {narrow ? (
        <PlayersList detail={d} view={view} />
      ) : (
        <ScrollRegion label={t.gm.players.caption}>
          <table className="gm-players">
            <caption className="sr-only">{t.gm.players.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.gm.players.seat}</th>
                <th scope="col">{t.gm.players.name}</th>
                <th scope="col">
                  <abbr title={t.gm.players.strikesTitle}>{t.gm.players.strikes}</abbr>
                </th>
                {night && <th scope="col">{t.gm.players.tonight}</th>}
              </tr>
            </thead>
            <tbody>
              {view.seats.map((s) => {
                const strikes = d.gm?.strikes[s.seat];
                return (
                  <tr key={s.seat} className={s.alive ? undefined : "dead"}>
                    <td>{s.seat + 1}</td>
                    <th scope="row">
                      <span className="nick">{s.name}</span>
                      {!s.alive && <span className="muted"> ({t.gm.players.dead})</span>}
                      <span className="role">{s.role ? d.roleNames[s.role] : "?"}</span>
                      {s.alive && s.cannotVote && <span className="muted">{t.gm.players.cannotVote}</span>}
                    </th>
                    <td>
                      {strikes ? (
                        <>
                          <span aria-hidden="true">
                            {strikes.vote} / {strikes.night} / {strikes.conduct}
                          </span>
                          <span className="sr-only">
                            {t.gm.players.strikesOf(strikes.vote, strikes.night, strikes.conduct)}
                          </span>
                        </>
                      ) : (
                        "—"
                      )}
                    </td>
                    {night && (
                      <td>
                        <TonightCell
                          view={view}
                          seat={s.seat}
                          alive={s.alive}
                          state={tonight?.[s.seat] ?? null}
                        />
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </div>
  );
}

/**
 * The same seats as a list for a phone: number, nick, role, any strikes and marks on one line; at night the
 * move (or that it is owed) below. Strikes show only where there are some (a line above says so).
 */
function PlayersList(props: { detail: GameDetail; view: GameView }) {
  const t = useT();
  const d = props.detail;
  const view = props.view;
  const night = view.phase.kind === "night";
  const tonight = d.gm?.tonight ?? null;
  return (
    <>
      <p className="muted small">{t.gm.players.listHint}</p>
      <ol className="plain gm-seats" aria-label={t.gm.players.caption}>
        {view.seats.map((s) => {
          const strikes = d.gm?.strikes[s.seat];
          const any = strikes !== undefined && strikes.vote + strikes.night + strikes.conduct > 0;
          return (
            <li key={s.seat} className={s.alive ? undefined : "dead"}>
              <span className="seat-line">
                <span className="num">{s.seat + 1}.</span> <span className="nick">{s.name}</span>{" "}
                <span className="role">{s.role ? d.roleNames[s.role] : "?"}</span>
                {!s.alive && <span className="muted"> · {t.gm.players.dead}</span>}
                {s.alive && s.cannotVote && <span className="muted"> · {t.gm.players.cannotVote}</span>}
                {any && (
                  <span className="strikes">
                    {" "}
                    · {t.gm.players.strikesWord}{" "}
                    <span aria-hidden="true">
                      {strikes.vote}/{strikes.night}/{strikes.conduct}
                    </span>
                    <span className="sr-only">
                      {t.gm.players.strikesOf(strikes.vote, strikes.night, strikes.conduct)}
                    </span>
                  </span>
                )}
              </span>
              {night && s.alive && (
                <span className="move">
                  {tonight?.[s.seat] === "none" ? (
                    <span className="muted">{t.gm.players.noActShort}</span>
                  ) : (
                    <TonightCell
                      view={view}
                      seat={s.seat}
                      alive={s.alive}
                      state={tonight?.[s.seat] ?? null}
                    />
                  )}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}

/**
 * One seat's night move: what it sent (the view's submissions), else where it stands as the server says
 * (`state`; null while the server does not say, and then only what was sent is shown).
 */
function TonightCell(props: { view: GameView; seat: number; alive: boolean; state: SeatTonight | null }) {
  const t = useT();
  const mine = props.view.submissions.filter((x) => x.seat === props.seat);
  if (!props.alive) return t.gm.players.noMove;
  if (mine.length > 0) {
    const names = namesOf(props.view);
    return (
      <ul className="plain">
        {mine.map((m) => (
          <li key={m.slot}>
            {actionText(m.action, names, t)}
            {m.slot !== "own" && <span className="muted"> ({t.gm.acts.slots[m.slot]})</span>}
          </li>
        ))}
      </ul>
    );
  }
  switch (props.state) {
    case "mafia":
    case "pair":
      return <span className="muted">{t.gm.players.covered[props.state]}</span>;
    case "owes":
      return <span className="waiting">{t.gm.players.waiting}</span>;
    case "none":
      return <span className="muted">{t.gm.players.noAct}</span>;
    case "sent":
    case null:
      return t.gm.players.noMove;
  }
}
