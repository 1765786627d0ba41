import { checkModkill, checkStrike } from "@forum-mafia/engine";
import { checkMessage } from "@forum-mafia/forum";
import type { FlagMeasure, TextCheck } from "@forum-mafia/protocol";
import type { EntryBody, StoredFlag } from "../log/entries.ts";
import { flagsOf, type Flag } from "../log/flags.ts";
import type { Games } from "../log/games.ts";
import type { Room } from "../log/room.ts";
import { conflict, notFound, refused } from "../http/errors.ts";
import type { UserRecord } from "../stores/store.ts";
import { mustRun } from "./gm.ts";

/**
 * G5 (issue 31): «Употребление нецензурной лексики, оскорбление игроков СТРОГО ЗАПРЕЩЕНО! Наказание будет
 * на усмотрение ГМ вплоть до исключения из игры.» The rules punish, they do not censor: a flagged post is
 * sent and flagged for the GM, who takes a measure (F2); without a human GM, the game's G5 policy takes it
 * in the same commit as the post (`autoMeasures`), so the log, and the replay file, hold it.
 */

/** The checker's flag of a text (forum's checkMessage), as the log keeps it; null for a clean text. */
export function flagOf(text: string): StoredFlag | null {
  const r = checkMessage(text);
  if (r.flag === null) return null;
  return { kind: r.flag, spans: r.spans.map((s) => ({ start: s.start, end: s.end, word: s.word })) };
}

/** What the composer shows before sending (POST /api/text/check, a draft post's preview). */
export function textCheck(text: string): TextCheck {
  const r = checkMessage(text);
  return { flag: r.flag, words: r.spans.map((s) => s.word) };
}

/** Every third flag of a player is a strike under the hide-and-strike policy (G5, P3). */
export const STRIKE_EVERY = 3;

/** The reason the policy gives, in the log, the GM's console and the replay file. */
const AUTO_REASON = "правило 5, автоматическая проверка";

/**
 * The game's G5 policy on a new flagged post or message (its id, where, the author's seat): off, a warning,
 * or hiding the post and a warning, with a strike on every third flag (docs/readings.md). A strike the
 * rules cannot give (the author is dead: the spectators' room) is left out; so is hiding a chat message.
 */
export function autoMeasures(room: Room, seat: number, flagId: string, where: Flag["where"]): EntryBody[] {
  const g5 = room.settings.g5;
  if (g5.policy === "off") return [];
  const measure = (m: FlagMeasure, reason = AUTO_REASON): EntryBody => ({
    kind: "measure",
    flagId,
    measure: m,
    reason,
    auto: true,
  });
  if (g5.policy === "warn") return [measure("warn")];
  const out: EntryBody[] = [];
  if (where === "thread") out.push(measure("hide"));
  out.push(measure("warn"));
  const nth = flagsOf(room, seat) + 1; // this flag is noted when the post is applied, after this
  const alive = room.match!.state.players[seat]!.alive;
  if (g5.strikes && alive && nth % STRIKE_EVERY === 0)
    out.push(measure("strike", `${AUTO_REASON}, нарушение № ${nth}`));
  return out;
}

/** The GM's measures on flags (F2): each checked against the room, then committed with its reason. */
export class Conduct {
  constructor(private readonly games: Games) {}

  async measure(
    user: UserRecord,
    id: string,
    flagId: string,
    measure: FlagMeasure,
    reason: string,
  ): Promise<void> {
    await this.games.commit(id, (room) => {
      mustRun(user, room);
      const flag = room.flagById.get(flagId);
      if (!flag) throw notFound(`flagId: no flagged post or message ${flagId} in this game`);
      refuseMeasure(room, flag, measure);
      return [{ kind: "measure", flagId, measure, reason }];
    });
  }
}

/** Why this measure cannot be taken on this flag now, thrown (409 or 422, naming the clause). */
function refuseMeasure(room: Room, flag: Flag, measure: FlagMeasure): void {
  if (flag.measures.some((m) => m.kind === measure))
    throw conflict("flag/measured", `measure: this flag already has "${measure}"`, "F2");
  const state = room.match!.state;
  switch (measure) {
    case "dismiss":
      // «No measure» closes a flag the GM has not acted on; the policy's own measures may stand before it.
      if (flag.measures.some((m) => !m.auto))
        throw conflict("flag/measured", "measure: a flag the GM acted on cannot be dismissed", "F2");
      return;
    case "warn":
      return;
    case "hide": {
      const post = flag.where === "thread" ? room.postById.get(flag.id) : undefined;
      if (!post)
        throw conflict("flag/not-a-post", "measure: only a post in the game thread can be hidden", "G5");
      if (post.hidden) throw conflict("post/hidden", "measure: the post is already hidden");
      return;
    }
    case "strike": {
      if (!room.settings.g5.strikes)
        throw conflict("flag/no-strikes", "measure: this game's settings give no strikes for G5", "G5");
      const bad = checkStrike(state, flag.seat);
      if (bad) throw refused(bad);
      return;
    }
    case "modkill": {
      const bad = checkModkill(state, flag.seat);
      if (bad) throw refused(bad);
      return;
    }
  }
}
