import type { StallView } from "@forum-mafia/protocol";
import { useStallT } from "../../i18n/stall.ts";
import { Link } from "../../router.tsx";

/**
 * Issue 28: the notice of a stalled game above the thread, for everyone who opens the page: how long
 * nobody has died or been hanged (public facts only); for the players and guests, that the GM can move it
 * on; for the GM, what the rules allow and a link to the console; in a game with no human GM, that nobody
 * can step in.
 */
export function StallNotice(props: { stall: StallView; gm: boolean; gameId: string }) {
  const w = useStallT();
  const { stall, gm } = props;
  return (
    <div className="notice stall" role="status">
      <p>
        <strong>{w.heading}.</strong> {w.facts(stall)}
      </p>
      <p>{!stall.humanGm ? w.noGm : gm ? w.gm : w.players}</p>
      {gm && stall.humanGm && (
        <p>
          <Link href={`/games/${encodeURIComponent(props.gameId)}/gm`}>{w.gmConsole}</Link>
        </p>
      )}
    </div>
  );
}

/** Issue 28: the same in one line, for a game's card in «Мои игры». */
export function StallLine(props: { stall: StallView; gm: boolean }) {
  const w = useStallT();
  const { stall, gm } = props;
  const more = !stall.humanGm ? w.shortNoGm : gm ? w.shortGm : null;
  return (
    <p className="my-line stall-line">
      <span aria-hidden="true">! </span>
      {w.short(stall)}
      {more !== null && ` — ${more}`}
    </p>
  );
}
