/**
 * The results writer of issue 6: the BBCode forum post of a match's last finished phase, for GMs who run
 * the game in an ordinary forum thread. Pure. The public lines and the private texts are the server's own
 * (nightAnnouncement, dayAnnouncement, privateResults, A1–A3); this file only lays them out in BBCode.
 *
 * Names are written as they are: BBCode has no portable escape, and nothing here is HTML.
 */
import {
  compareNames,
  dayAnnouncement,
  nightAnnouncement,
  privateResults,
  type Announcement,
} from "./announce.ts";
import type { DayOutcome } from "./day.ts";
import type { Match } from "./match.ts";
import type { NightOutcome } from "./night.ts";
import type { Player, Seat } from "./player.ts";
import { roleName, type Lang, type Phrase } from "./texts.ts";

/**
 * A2: the header above a private result, naming its recipients by role and nickname. Not in texts.ts
 * yet (TEXTS.ru.md has no phrase for it); kept here with English beside it.
 */
const PRIVATE_HEADER: Phrase<(recipients: readonly string[]) => string> = {
  ru: (recipients) => `Лично: ${recipients.join(", ")}`,
  en: (recipients) => `Privately to: ${recipients.join(", ")}`,
};

const bold = (text: string): string => `[b]${text}[/b]`;

/** An announcement (A1, A3, a vote count) as a BBCode block: its title in bold, then its lines. */
export const announcementBBCode = (a: Announcement): string => [bold(a.title), ...a.lines].join("\n");
const block = announcementBBCode;

/** "Шериф Вася": a recipient as the GM addresses them. */
function recipient(players: readonly Player[], seat: Seat, lang: Lang): string {
  const p = players[seat];
  if (!p) throw new Error(`results-post: no player at seat ${seat}`);
  return `${roleName(p.role, lang)} ${p.name}`;
}

/**
 * The BBCode post of the match's last finished phase: after a night its title in bold, the A1 lines in
 * order, then each A2 private result under a bold header naming its recipients (in name order); after a
 * day the A3 title and lines. Blocks are separated by an empty line. Null when no phase has finished.
 */
export function resultsPost(m: Match, lang: Lang): string | null {
  const last = m.outcomes[m.outcomes.length - 1];
  if (last === undefined) return null;
  const { outcome, players } = last;
  if (outcome.phase.kind === "day") return block(dayAnnouncement(outcome as DayOutcome, players, lang));
  const night = outcome as NightOutcome;
  const blocks = [block(nightAnnouncement(night, players, lang))];
  for (const p of privateResults(night, players, lang)) {
    const names = [...p.recipients]
      .sort((a, b) => compareNames(players[a]?.name ?? "", players[b]?.name ?? ""))
      .map((s) => recipient(players, s, lang));
    blocks.push(`${bold(PRIVATE_HEADER[lang](names))}\n${p.text}`);
  }
  return blocks.join("\n\n");
}
