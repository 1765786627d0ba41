import { modkill, strike } from "@forum-mafia/engine";
import type { ChannelId, GmFlag } from "@forum-mafia/protocol";
import type { Entry, StoredFlag } from "./entries.ts";
import type { Room } from "./room.ts";

/**
 * G5 (issue 31): the flagged posts and chat messages of a game, as the room holds them, and what each
 * measure on one does. Only the GM's table reads them (gm-views.ts): a flag, and the existence of the
 * chat it was written in, reach nobody else. What a measure changes for the player (a warning in the
 * player's channel with the GM, a strike) reaches that player alone; a hidden post is public, as it is
 * when the GM hides one by hand.
 */
export interface Flag extends Omit<GmFlag, "measures"> {
  /** What was done with it, oldest first (applyMeasure appends). */
  readonly measures: GmFlag["measures"][number][];
}

/** How many flags a seat has had in this game so far (the policy's count, each flag's `earlier`). */
export const flagsOf = (room: Room, seat: number): number =>
  room.flags.reduce((n, f) => (f.seat === seat ? n + 1 : n), 0);

/** The game thread, or a channel, in the words of a warning to its author. */
function placeOf(where: Flag["where"]): string {
  if (where === "thread") return "в игровой теме";
  if (where === "mafia") return "в чате мафии";
  if (where === "pair") return "в чате шерифа и сержанта";
  if (where === "spectators") return "в комнате зрителей";
  return "в переписке с ведущим";
}

/** The id prefix of a G5 notice in a player's channel with the GM: it asks for no answer (owes.ts). */
export const G5_NOTICE = "g5-";

/** The rule as the seed words it (seed rule 5, RULES.md G5). */
const G5_TEXT = "Употребление нецензурной лексики, оскорбление игроков СТРОГО ЗАПРЕЩЕНО!";

/**
 * What the player reads in their channel with the GM after a warning or a strike (Russian, as the role
 * message; the seed's own number for the rule, never our clause ids).
 */
export function measureMessage(
  flag: Flag,
  measure: "warn" | "strike",
  reason: string,
  second: boolean,
): string {
  const what = flag.kind === "obscene" ? "мат" : "оскорбление";
  const head =
    measure === "warn"
      ? `[b]Предупреждение ведущего:[/b] ${what} ${placeOf(flag.where)}.`
      : `[b]Страйк[/b] за ${what} ${placeOf(flag.where)}.`;
  const tail =
    measure === "strike"
      ? second
        ? "Это ваш второй страйк: в конце фазы — модкилл."
        : "Второй страйк — модкилл."
      : "";
  return [head, `Правило 5: «${G5_TEXT}»`, reason ? `Причина: ${reason}` : "", tail]
    .filter((l) => l !== "")
    .join("\n");
}

/** A post or message with a flag: the room keeps it for the GM's table, and tells the GM's stream. */
export function noteFlag(
  room: Room,
  entry: Entry & { readonly id: string; readonly seat: number | null; readonly text: string },
  where: Flag["where"],
  stored: StoredFlag,
): void {
  const seat = entry.seat;
  if (seat === null) return; // the GM's own words are the GM's business
  const earlier = flagsOf(room, seat);
  const flag: Flag = {
    id: entry.id,
    where,
    seat,
    author: room.nameOf(seat),
    at: entry.at,
    phase: room.phase,
    kind: stored.kind,
    text: entry.text,
    spans: stored.spans,
    earlier,
    measures: [],
  };
  room.flags.push(flag);
  room.flagById.set(flag.id, flag);
  room.push({ to: "gm" }, { type: "flag", id: flag.id });
}

/**
 * A measure on a flag (F2: logged with its reason; published with the log at the end, R3): dismiss, a
 * private warning, hiding the post, a strike (P3) or a modkill. The command checked it (game/conduct.ts).
 */
export function applyMeasure(room: Room, entry: Entry & { readonly kind: "measure" }): void {
  const flag = room.flagById.get(entry.flagId)!;
  flag.measures.push({ kind: entry.measure, reason: entry.reason, auto: entry.auto === true, at: entry.at });
  const gmChannel: ChannelId = `gm:${flag.seat}`;
  const message = (text: string): void =>
    room.addMessage(
      room.gmMessage(
        `${G5_NOTICE}${entry.measure}-${flag.id}-${flag.measures.length}`,
        gmChannel,
        entry.at,
        text,
      ),
    );
  switch (entry.measure) {
    case "dismiss":
      break;
    case "warn":
      message(measureMessage(flag, "warn", entry.reason, false));
      break;
    case "hide": {
      const post = room.postById.get(flag.id)!;
      post.hidden = { reason: entry.reason };
      room.push({ to: "everyone" }, { type: "postHidden", id: post.id, reason: entry.reason });
      break;
    }
    case "strike": {
      const before = room.match!.modkills.includes(flag.seat);
      room.match = room.engine(strike(room.match!, flag.seat, entry.reason));
      room.syncEvents();
      message(
        measureMessage(flag, "strike", entry.reason, !before && room.match.modkills.includes(flag.seat)),
      );
      break;
    }
    case "modkill":
      room.match = room.engine(modkill(room.match!, flag.seat, entry.reason, "G5"));
      room.syncEvents();
      break;
    default: {
      const never: never = entry.measure;
      throw new Error(`unknown measure ${String(never)}`);
    }
  }
  room.moderate(entry, `g5-${entry.measure}`, flag.author, entry.reason);
  room.push({ to: "gm" }, { type: "flag", id: flag.id });
}
