import type { GameDetail } from "@forum-mafia/protocol";
import { factionOf, MAFIA_ROLES, PAIR_ROLES } from "@forum-mafia/protocol/roles";
import { useId } from "react";
import { useT } from "../../i18n/index.tsx";
import type { GameData } from "../../use-game.ts";
import { NightForm } from "./night-form.tsx";
import "./play.css";

/** The player's role card and, at night, the form for the night's action (O1, O1a). */
export function NightPanel(props: { id: string; game: GameData }) {
  const t = useT();
  const d = props.game.detail;
  if (!d) return <p className="muted">{t.loading}</p>;
  const view = d.view;
  if (d.me.kind !== "player" || !view?.me || !d.roleCard)
    return (
      <p className="muted">{d.summary.status === "signup" ? t.play.none.notStarted : t.play.role.private}</p>
    );
  return (
    <div className="play">
      <RoleCard detail={d} />
      <NightSection id={props.id} game={props.game} detail={d} />
    </div>
  );
}

function RoleCard(props: { detail: GameDetail }) {
  const t = useT();
  const w = t.play.role;
  const d = props.detail;
  const view = d.view!;
  const me = view.me!;
  const card = d.roleCard!;
  const headingId = useId();
  const team = me.team;
  const side = factionOf(card.role);
  const teamRoles = team === "mafia" ? MAFIA_ROLES : team === "pair" ? PAIR_ROLES : [];
  const mates = view.seats.filter((s) => s.seat !== me.seat && s.role !== null && teamRoles.includes(s.role));
  return (
    <section className="card play-role" aria-labelledby={headingId}>
      <p className="muted play-kicker">{w.heading}</p>
      <h2 id={headingId}>{d.roleNames[card.role]}</h2>
      <dl className="play-facts">
        <div>
          <dt>{w.side}</dt>
          <dd>{w.sides[side]}</dd>
          {!team && <dd className="muted">{w.noTeam}</dd>}
        </div>
        {team ? (
          <div>
            <dt>{w.mates}</dt>
            <dd>
              {mates.length === 0 ? (
                w.noMates
              ) : (
                <ul className="play-mates">
                  {mates.map((s) => (
                    <li key={s.seat} className={s.alive ? undefined : "play-dead"}>
                      <strong>{s.name}</strong> — {d.roleNames[s.role!]}
                      {!s.alive && <span className="muted"> ({w.dead})</span>}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{w.strikes}</dt>
          <dd>
            <span className={me.strikes > 0 ? "play-strikes" : undefined}>{w.strikesOf(me.strikes)}</span>{" "}
            <span className="muted">{w.strikesHint}</span>
          </dd>
        </div>
      </dl>
      {card.lines[0] && <p>{card.lines[0]}</p>}
      {card.lines.length > 1 && (
        <details className="play-rules">
          <summary>{w.rules}</summary>
          {card.lines.slice(1).map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </details>
      )}
    </section>
  );
}

function NightSection(props: { id: string; game: GameData; detail: GameDetail }) {
  const t = useT();
  const headingId = useId();
  const d = props.detail;
  const view = d.view!;
  const me = view.me!;
  const alive = view.seats[me.seat]?.alive ?? false;
  let body;
  if (d.form)
    body = (
      <NightForm
        key={`${view.phase.kind}-${view.phase.number}`}
        id={props.id}
        game={props.game}
        detail={d}
        form={d.form}
      />
    );
  else {
    const text =
      d.summary.status === "ended"
        ? t.play.none.ended
        : !alive
          ? t.play.none.dead
          : view.phase.kind === "day"
            ? t.play.none.day
            : t.play.none.noAct;
    body = <p className="muted">{text}</p>;
  }
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.play.form.heading}</h2>
      {body}
    </section>
  );
}
