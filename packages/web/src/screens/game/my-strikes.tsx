import type { GameDetail, GmFlag } from "@forum-mafia/protocol";
import { useG5T } from "../../i18n/g5.ts";
import "./g5.css";

/**
 * A player's own strikes (P1–P3, and G5's since issue 31), above every tab of a running game, by day as by
 * night: the role card shows them too, but a strike for мат given by day must not wait for the player to
 * open the role tab. Nothing without a strike, for the GM, for a spectator, or after the end.
 */
export function MyStrikes(props: { detail: GameDetail }) {
  const w = useG5T().mine;
  const d = props.detail;
  const strikes = d.view?.me?.strikes ?? 0;
  if (d.me.kind !== "player" || d.summary.status !== "running" || strikes === 0) return null;
  return (
    <p className="notice game-strikes" role="status">
      {w.line(strikes, d.settings.options.strikes === "shared")} <span className="small">{w.hint}</span>
    </p>
  );
}

/**
 * G5 (issue 31): whether a flag awaits the GM's decision: no measure by the GM yet (the game's policy may
 * have warned or hidden already; the GM still reads it, and may close it with «Без мер»).
 */
export const awaitsGm = (f: GmFlag): boolean => !f.measures.some((m) => !m.auto);

/** How many flagged posts and messages await the GM's decision. */
export const openFlags = (detail: GameDetail): number => detail.gm?.flags.filter(awaitsGm).length ?? 0;
