import { mayVote, nightMoves } from "@forum-mafia/engine";
import type { Owed } from "@forum-mafia/protocol";
import { councilQuestion } from "./draft.ts";
import type { Room } from "../log/room.ts";
import { G5_NOTICE } from "../log/flags.ts";

/**
 * Issue 15: what one user still owes in a game now, for «Мои игры» and the reminders. It names only the
 * user's own moves, which the user knows already; it never says what a role is or what anyone else did.
 *
 * - `vote` (V1, V6): by day, alive, allowed to vote today, the day not closed early, no vote cast yet.
 * - `action` (O1, M4, T1, P2): by night, while intake is open, the engine's nightMoves says `owes`: the
 *   same reading that strikes a missing move at the deadline, so a player reminded is one who would be
 *   struck, and one covered by a teammate's move (the mafia's, the pair's) is not reminded.
 * - `gmAnswer`: the GM wrote last in the player's own channel with the GM.
 * - For the GM: `review` (G10: intake closed, results await publishing) and `council` (M2c: in a review
 *   game, a question waits for the GM's answer; an automatic game's council is answered by the rules).
 */
export function owedBy(room: Room, userId: string): Owed[] {
  const m = room.match;
  if (room.status !== "running" || m === null || m.state.winner !== null) return [];
  const out: Owed[] = [];
  if (room.gmId === userId) {
    const night = m.state.phase.kind === "night";
    if (night && room.resultsPending) out.push("review");
    // M2c: in automatic games the rules answer the council (only listed questions are taken there).
    const answers = room.settings.mode === "review";
    if (night && answers && councilQuestion(room) !== null && room.council === null) out.push("council");
    return out;
  }
  const seat = room.seatUsers.indexOf(userId);
  if (seat < 0) return out;
  const player = m.state.players[seat];
  if (!player?.alive) return out;
  if (m.state.phase.kind === "day") {
    if (mayVote(m.state, seat) && !m.day.closedEarly && (m.day.votes[seat] ?? null) === null)
      out.push("vote");
  } else if (m.night.intake === "open" && nightMoves(m.state, m.night)[seat] === "owes") out.push("action");
  const gmChannel = room.messages.get(`gm:${seat}`);
  const last = gmChannel?.[gmChannel.length - 1];
  // S1: the role message (room.ts, `role-<seat>`) is the GM's too, but asks nothing; nor does a G5 notice
  // (a warning or a strike, log/flags.ts), which the player is told, not asked.
  if (
    last !== undefined &&
    last.seat === null &&
    last.id !== `role-${seat}` &&
    !last.id.startsWith(G5_NOTICE)
  )
    out.push("gmAnswer");
  return out;
}
