import type { GameDetail } from "@forum-mafia/protocol";
import { factionOf } from "@forum-mafia/protocol/roles";
import { THRESHOLDS } from "@forum-mafia/protocol/setups";
import { useId } from "react";
import { useG5T } from "../../i18n/g5.ts";
import { useSetupT } from "../../i18n/setup.ts";
import { FACTIONS, roleCounts } from "../setup/model.ts";
import "../setup/setup.css";

/**
 * Issue 17: the game's published setup, as forum players expect a setup post: the player count, the
 * roles in the game with their counts by side (never who holds them), the two options and the thresholds
 * in words, and the G5 policy (issue 31). Open during signups, a tap away in a running or ended game; the same for players, the GM and
 * spectators.
 */
export function SetupPost(props: { detail: GameDetail; open: boolean }) {
  const w = useSetupT();
  const g5 = useG5T().post;
  const id = useId();
  const { settings, roleNames } = props.detail;
  const counts = roleCounts(settings.roles);
  const options = settings.options;
  return (
    <details className="card setup-post" open={props.open}>
      <summary>
        <strong id={`${id}-h`}>{w.post.heading(settings.roles.length)}</strong>
        <span className="muted small"> · {w.post.summary}</span>
      </summary>
      <section aria-labelledby={`${id}-h`}>
        <h3>{w.post.roles}</h3>
        <ul className="setup-post-sides">
          {FACTIONS.map((faction) => {
            const here = counts.filter((c) => factionOf(c.role) === faction);
            if (here.length === 0) return null;
            const total = here.reduce((sum, c) => sum + c.count, 0);
            return (
              <li key={faction}>
                <strong>
                  {w.post.factions[faction]} ({total}):
                </strong>{" "}
                {here
                  .map((c) => (c.count > 1 ? `${roleNames[c.role]} ×${c.count}` : roleNames[c.role]))
                  .join(", ")}
              </li>
            );
          })}
        </ul>
        <h3>{w.post.rules}</h3>
        <ul className="setup-post-rules">
          {THRESHOLDS.map((name) => (
            <li key={name}>{w.threshold[name].post(options[name])}</li>
          ))}
          <li>{w.optionPost.earlyClose[options.earlyClose]}</li>
          <li>{w.optionPost.strikes[options.strikes]}</li>
          {/* Issue 31: what the platform does with мат and insults, and whether the GM may strike for them. */}
          <li>{g5.policy[settings.g5.policy]}</li>
          <li>{settings.g5.strikes ? g5.strikes.on : g5.strikes.off}</li>
        </ul>
      </section>
    </details>
  );
}
