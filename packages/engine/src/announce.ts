/**
 * The texts players read, made from the engine's outcomes (A1–A3, V4, V6, P4). Pure: the wording is in
 * texts.ts, this file only picks and orders the lines.
 *
 * Every list of nicknames is in name order (case-insensitive, ё = е, then by code point), never in seat or
 * submission order, so the order of a list tells nobody anything the text does not say. The one exception
 * is a vote count's voters, listed in the order they voted: every vote is public as it is cast (V2).
 *
 * `players` is the table as it stands right after the phase (the next GameState's players): names are
 * taken from it, and private results go to those of its players who are alive.
 */
import type { DayOutcome } from "./day.ts";
import {
  dayResultsOf,
  nightResultsOf,
  type DayResults,
  type NightResults,
  type SeenEvents,
} from "./events.ts";
import type { NightOutcome } from "./night.ts";
import { compareCodePoints, nameKey, type Player, type Seat } from "./player.ts";
import { isMafia, type RoleId } from "./roles.ts";
import type { GameState, Phase } from "./state.ts";
import { TEXTS, type Lang } from "./texts.ts";
import { earlyCounts, type DayBallots, type VoteColor } from "./vote.ts";
import type { GameView } from "./view.ts";

/** A public post: its title and its lines, in order. */
export interface Announcement {
  readonly title: string;
  readonly lines: readonly string[];
}

/** A2: a private text and the seats it goes to (never empty). */
export interface PrivateResult {
  readonly recipients: readonly Seat[];
  readonly text: string;
}

/** Name order: case-insensitive with ё = е (as names are matched), then by code point. */
export function compareNames(a: string, b: string): number {
  return compareCodePoints(nameKey(a), nameKey(b)) || compareCodePoints(a, b);
}

function nameOf(names: readonly string[], seat: Seat): string {
  const n = names[seat];
  if (n === undefined) throw new Error(`announce: no player at seat ${seat}`);
  return n;
}

const bySeatName =
  (names: readonly string[]) =>
  (a: Seat, b: Seat): number =>
    compareNames(nameOf(names, a), nameOf(names, b));

const EXPOSED_ORDER = ["boss", "doctor"] as const;

/**
 * A1: the night's public results, in order: deaths (the role where R1/R2 reveal it; "жертва маньяка" for
 * a bloody kill's victim, N1a), then modkills; "nobody died" when nobody was killed; the exposed boss and
 * doctor (M3, T3a); the serum (T3a); torture with evidence (N1c); one line per player who cannot vote
 * today; the end of the game. Blocks, the boss's silent vote loss (M3) and private results never appear.
 */
export function nightAnnouncement(
  outcome: NightOutcome,
  players: readonly Player[],
  lang: Lang,
): Announcement {
  return nightResultsAnnouncement(nightResultsOf(outcome), namesOf(players), lang);
}

const namesOf = (players: readonly Player[]): string[] => players.map((p) => p.name);

/** The same from the public results event, with the names as they stood right after the night. */
export function nightResultsAnnouncement(
  outcome: NightResults,
  names: readonly string[],
  lang: Lang,
): Announcement {
  const name = (s: Seat): string => nameOf(names, s);
  const role = (s: Seat): RoleId | null => outcome.revealed.find((m) => m.seat === s)?.role ?? null;
  const order = bySeatName(names);
  const lines: string[] = [];

  const killed = outcome.died.filter((s) => !outcome.modkilled.includes(s)).sort(order);
  if (killed.length === 0) lines.push(TEXTS.noDeaths[lang]());
  for (const s of killed)
    lines.push(
      outcome.bloodyVictims.includes(s)
        ? TEXTS.maniacVictim[lang](name(s), role(s)) // N1a, R2
        : TEXTS.died[lang](name(s), role(s)), // R1
    );
  for (const s of [...outcome.modkilled].sort(order)) lines.push(TEXTS.modkill[lang](name(s), role(s)));

  for (const kind of EXPOSED_ORDER)
    for (const { seat: s, as: k } of outcome.exposed)
      if (k === kind) lines.push((kind === "boss" ? TEXTS.bossExposed : TEXTS.doctorExposed)[lang](name(s)));

  if (outcome.serum !== null) {
    const r = role(outcome.serum);
    if (r === null) throw new Error("announce: the serum's target has no revealed role (R2)");
    lines.push(TEXTS.serum[lang](name(outcome.serum), r));
  }
  for (const s of [...outcome.tortureEvidence].sort(order)) lines.push(TEXTS.tortureEvidence[lang](name(s)));
  for (const s of [...outcome.silenced].sort(order)) lines.push(TEXTS.cannotVote[lang](name(s)));
  if (outcome.winner !== null) lines.push(TEXTS.gameOver[lang](outcome.winner));

  return { title: TEXTS.nightTitle[lang](outcome.phase.number), lines };
}

/**
 * A2: the check's result to the living sheriff and sergeant, the council's answer to every living mafia
 * member. Nobody else is told anything; a result with nobody alive to read it is left out.
 */
export function privateResults(
  outcome: NightOutcome,
  players: readonly Player[],
  lang: Lang,
): PrivateResult[] {
  const seats = (pick: (p: Player) => boolean): Seat[] =>
    players.flatMap((p, i) => (p.alive && pick(p) ? [i] : []));
  const out: PrivateResult[] = [];
  if (outcome.check !== null) {
    const recipients = seats((p) => p.role === "sheriff" || p.role === "sergeant");
    const text = TEXTS.check[lang](nameOf(namesOf(players), outcome.check.target), outcome.check.result);
    if (recipients.length > 0) out.push({ recipients, text });
  }
  if (outcome.council !== null) {
    const recipients = seats((p) => isMafia(p.role));
    if (recipients.length > 0) out.push({ recipients, text: TEXTS.council[lang](outcome.council.answer) });
  }
  return out;
}

/** A3: the hanged player (the role where R1 allows), or the tie, or "отмазан" (V8); modkills; the end. */
export function dayAnnouncement(outcome: DayOutcome, players: readonly Player[], lang: Lang): Announcement {
  return dayResultsAnnouncement(dayResultsOf(outcome), namesOf(players), lang);
}

/** The same from the public results event, with the names as they stood right after the day. */
export function dayResultsAnnouncement(
  outcome: DayResults,
  names: readonly string[],
  lang: Lang,
): Announcement {
  const name = (s: Seat): string => nameOf(names, s);
  const role = (s: Seat): RoleId | null => outcome.revealed.find((m) => m.seat === s)?.role ?? null;
  const lines: string[] = [];
  if (outcome.hanged !== null) lines.push(TEXTS.hanged[lang](name(outcome.hanged), role(outcome.hanged)));
  else if (outcome.excused !== null) lines.push(TEXTS.excused[lang](name(outcome.excused)));
  else lines.push(TEXTS.noHanging[lang]()); // G3, V5
  for (const s of [...outcome.modkilled].sort(bySeatName(names)))
    lines.push(TEXTS.modkill[lang](name(s), role(s)));
  if (outcome.winner !== null) lines.push(TEXTS.gameOver[lang](outcome.winner));
  return { title: TEXTS.dayTitle[lang](outcome.phase.number), lines };
}

/**
 * A1, A3: every published result, as the GM posted it, from the events a viewer may see (the results are
 * public: any viewer's events give the same). Names are those of the table right after each phase (P4).
 */
export function publishedResults(
  seen: SeenEvents,
  lang: Lang,
): { readonly phase: Phase; readonly lines: readonly string[] }[] {
  let names: readonly string[] = [];
  const out: { phase: Phase; lines: string[] }[] = [];
  for (const e of seen) {
    if (e.type === "gameStarted") names = e.names;
    else if (e.type === "replaced") names = names.map((n, seat) => (seat === e.seat ? e.newName : n));
    else if (e.type === "nightResults" || e.type === "dayResults") {
      const a =
        e.type === "nightResults"
          ? nightResultsAnnouncement(e, names, lang)
          : dayResultsAnnouncement(e, names, lang);
      out.push({ phase: e.phase, lines: [a.title, ...a.lines] });
    }
  }
  return out;
}

/**
 * V4, V6, V7: the public vote count of the day in play. Targets by number of votes (every vote counts 1),
 * most first, then by name; each target's voters in the order their votes were cast, an early vote
 * marked from day 3 on (V7: before it the word has no effect).
 * "Против:" and "В защиту:" are left out when empty, as are the lines of players who cannot vote and
 * players who have not voted. The M3 boss's vote is shown like any other.
 */
export function voteCountPost(ballots: DayBallots, state: GameState, lang: Lang): Announcement {
  return countPost(voteCountSections(ballots, state, lang), lang);
}

/**
 * The post laid out from its parts (voteCountSections or publicVoteCountSections). The server's count and
 * the BBCode post of the vote counter for other forums (packages/forum) are both laid out here.
 */
export function countPost(c: VoteCountSections, lang: Lang): Announcement {
  return { title: c.title, lines: countLines(c, lang) };
}

/**
 * The post's lines under its title: "Против:" and a line per target, "В защиту:" and a line per target
 * (each left out when it has no votes), then who cannot vote and who has not voted (each when anyone).
 */
export function countLines(c: VoteCountLines, lang: Lang): string[] {
  const lines: string[] = [];
  if (c.red.length > 0) lines.push(TEXTS.against[lang](), ...c.red);
  if (c.blue.length > 0) lines.push(TEXTS.inDefence[lang](), ...c.blue);
  if (c.lost !== null) lines.push(c.lost);
  if (c.notVoted !== null) lines.push(c.notVoted);
  return lines;
}

/** The vote count's parts under its title: a line per target, red and blue apart. */
export interface VoteCountLines {
  /** "Вася (3): Петя, Коля, Маша", most votes first. */
  readonly red: readonly string[];
  readonly blue: readonly string[];
  /** "Лишены голоса: …", or null. */
  readonly lost: string | null;
  /** "Не проголосовали: …", or null. */
  readonly notVoted: string | null;
}

/** The vote count's parts with its title, for a page that lays them out itself. */
export interface VoteCountSections extends VoteCountLines {
  readonly title: string;
}

/**
 * What the vote count reads, all of it public (V2, A1): each seat's name, whether it is alive and whether
 * it was announced unable to vote, and each voter's last vote in the order cast.
 */
export interface PublicCount {
  readonly seats: readonly {
    readonly name: string;
    readonly alive: boolean;
    readonly cannotVote: boolean;
  }[];
  readonly votes: readonly {
    readonly seat: Seat;
    readonly color: VoteColor;
    readonly target: Seat;
    readonly early: boolean;
  }[];
}

/** The same for the day in play, with the day's number. */
export interface PublicDay extends PublicCount {
  readonly day: number;
  /** S3, V7: the first day on which an early vote has effect (public: the game's options). */
  readonly earlyFromDay: number;
}

/** The day in play as the public sees it, from a view (any viewer's: the fields read are public). */
export function publicDay(view: GameView): PublicDay {
  return {
    day: view.phase.number,
    earlyFromDay: view.options.earlyFromDay,
    seats: view.seats,
    votes: view.votes,
  };
}

/** The day in play from the state and the ballots (the engine's own readers: bots, the results post). */
function stateDay(ballots: DayBallots, state: GameState): PublicDay {
  return {
    day: state.phase.number,
    earlyFromDay: state.options.earlyFromDay,
    seats: state.players.map((p, seat) => ({
      name: p.name,
      alive: p.alive,
      cannotVote: state.day.silenced.includes(seat),
    })),
    votes: ballots.order.flatMap((seat) => {
      const v = ballots.votes[seat];
      return v ? [{ seat, color: v.color, target: v.target, early: v.early }] : [];
    }),
  };
}

export function voteCountSections(ballots: DayBallots, state: GameState, lang: Lang): VoteCountSections {
  return publicVoteCountSections(stateDay(ballots, state), lang);
}

export function publicVoteCountSections(day: PublicDay, lang: Lang): VoteCountSections {
  return {
    title: TEXTS.voteCountTitle[lang](day.day),
    ...publicVoteCountLines(day, earlyCounts(day.day, day.earlyFromDay), lang),
  };
}

/**
 * The count's parts under its title, for a count that may not know its day (the vote counter for other
 * forums): `earlyHasEffect` says whether the word `досрочно` has effect (V7: from day 3 on).
 */
export function publicVoteCountLines(
  count: PublicCount,
  earlyHasEffect: boolean,
  lang: Lang,
): VoteCountLines {
  const { seats } = count;
  const nameOf = (seat: Seat): string => {
    const p = seats[seat];
    if (!p) throw new Error(`announce: no player at seat ${seat}`);
    return p.name;
  };
  // V6: the living players who may vote today (the M3 boss keeps the right in public).
  const mayVote = (seat: Seat): boolean => seats[seat]?.alive === true && !seats[seat].cannotVote;
  const voted = new Map(count.votes.map((v) => [v.seat, v]));
  const groups: { readonly [C in VoteColor]: Map<Seat, Seat[]> } = { red: new Map(), blue: new Map() };
  const notVoted: string[] = [];
  for (let seat = 0; seat < seats.length; seat++)
    if (mayVote(seat) && !voted.has(seat)) notVoted.push(nameOf(seat));
  for (const vote of count.votes) {
    if (!mayVote(vote.seat)) continue;
    const voters = groups[vote.color].get(vote.target) ?? [];
    voters.push(vote.seat);
    groups[vote.color].set(vote.target, voters);
  }
  const voter = (seat: Seat): string =>
    earlyHasEffect && voted.get(seat)!.early ? TEXTS.earlyVoter[lang](nameOf(seat)) : nameOf(seat);
  const section = (color: VoteColor): string[] =>
    [...groups[color]]
      .map(([target, voters]) => ({ target: nameOf(target), voters: voters.map(voter) }))
      .sort((a, b) => b.voters.length - a.voters.length || compareNames(a.target, b.target))
      .map(({ target, voters }) => TEXTS.votesFor[lang](target, voters));
  const lost = seats.flatMap((p) => (p.alive && p.cannotVote ? [p.name] : [])).sort(compareNames);
  notVoted.sort(compareNames);
  return {
    red: section("red"),
    blue: section("blue"),
    lost: lost.length > 0 ? TEXTS.lostVote[lang](lost) : null,
    notVoted: notVoted.length > 0 ? TEXTS.notVoted[lang](notVoted) : null,
  };
}

/**
 * The vote count's wording and name order, for a counter outside the engine (the votecount command and
 * the GM tools count votes in another forum's thread), so their post reads as the server's does.
 */
export function voteCountWords(lang: Lang) {
  return {
    voteCountTitle: TEXTS.voteCountTitle[lang],
    against: TEXTS.against[lang],
    inDefence: TEXTS.inDefence[lang],
    votesFor: TEXTS.votesFor[lang],
    lostVote: TEXTS.lostVote[lang],
    notVoted: TEXTS.notVoted[lang],
    compareNames,
  };
}

/** P4: "Замена игрока: Вася → Петя." */
export function replacementLine(oldName: string, newName: string, lang: Lang): string {
  return TEXTS.replacement[lang](oldName, newName);
}
