import { useEffect, useState } from "react";
import { savedCopy } from "../../api.ts";
import { useT } from "../../i18n/index.tsx";
import { useSession } from "../../session.tsx";
import { formatLeft, formatMoment, phaseName } from "../../time.ts";
import type { GameData } from "../../use-game.ts";

/** The current time, ticking once a second while `on`. */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [on]);
  return now;
}

/** Whether the live stream has been down for a few seconds (not merely connecting, as on every load). */
function useOffline(live: boolean): boolean {
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    if (live) {
      setOffline(false);
      return;
    }
    const t = setTimeout(() => setOffline(true), 4000);
    return () => clearTimeout(t);
  }, [live]);
  return offline;
}

/**
 * The phase banner: "День 3", the countdown to the deadline and the deadline itself in the viewer's time
 * zone; a pause, the GM's review of the night (G10), the winner; and whether live updates arrive.
 */
export function PhaseBanner(props: { game: GameData }) {
  const t = useT();
  const { timeZone, lang } = useSession();
  const detail = props.game.detail;
  const clock = detail?.clock;
  const deadline = clock?.deadline ?? null;
  const now = useNow(deadline !== null);
  const offline = useOffline(props.game.live);
  if (!detail || !clock) return null;
  const { status, winner } = detail.summary;

  let title: string;
  let sub: string | null = null;
  let kind: "night" | "day" | "signup" | "ended" = "signup";
  if (status === "signup") title = t.phase.signup;
  else if (status === "ended") {
    kind = "ended";
    title = winner ? t.game.banner.winner[winner] : t.game.banner.ended;
  } else {
    const phase = clock.phase ?? detail.summary.phase;
    title = phase ? phaseName(phase, t) : t.phase.signup;
    kind = phase?.kind ?? "day";
    if (clock.paused) sub = t.countdown.paused;
    else if (clock.resultsPending) sub = t.countdown.review;
  }

  return (
    <div className={`phase-banner phase-${kind}`}>
      <div className="phase-main">
        <strong className="phase-name">{title}</strong>
        {status === "running" && deadline !== null && !clock.paused && (
          <span className="phase-clock">
            <span className="phase-left">
              {deadline > now ? t.countdown.left(formatLeft(deadline - now, t)) : t.countdown.over}
            </span>{" "}
            <span className="muted">
              (
              <time dateTime={new Date(deadline).toISOString()}>
                {t.game.banner.deadlineAt(formatMoment(deadline, timeZone, lang))}
              </time>
              )
            </span>
          </span>
        )}
      </div>
      {sub && <p className="phase-sub">{sub}</p>}
      {status === "running" && clock.mafiaReopened && (
        <p className="phase-sub">{t.game.banner.mafiaReopened}</p>
      )}
      <p className={offline ? "phase-offline" : "sr-only"} role="status" aria-live="polite">
        {offline
          ? savedCopy()
            ? t.game.banner.saved
            : t.game.banner.offline
          : props.game.live
            ? t.game.banner.online
            : ""}
      </p>
    </div>
  );
}
