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
import type { NightOutcome } from "./night.ts";
import { compareCodePoints, nameKey, type Player, type Seat } from "./player.ts";
import { isMafia, type RoleId } from "./roles.ts";
import type { GameState } from "./state.ts";
import { TEXTS, type Lang } from "./texts.ts";
import { earlyCounts, mayVote, type DayBallots, type VoteColor } from "./vote.ts";

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

function nameOf(players: readonly Player[], seat: Seat): string {
  const p = players[seat];
  if (!p) throw new Error(`announce: no player at seat ${seat}`);
  return p.name;
}

const names = (players: readonly Player[], seats: Iterable<Seat>): string[] =>
  [...seats].map((s) => nameOf(players, s)).sort(compareNames);

const bySeatName =
  (players: readonly Player[]) =>
  (a: Seat, b: Seat): number =>
    compareNames(nameOf(players, a), nameOf(players, b));

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
  const name = (s: Seat): string => nameOf(players, s);
  const role = (s: Seat): RoleId | null => outcome.revealed.get(s) ?? null;
  const order = bySeatName(players);
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
    for (const [s, k] of outcome.exposed)
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
    const text = TEXTS.check[lang](nameOf(players, outcome.check.target), outcome.check.result);
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
  const name = (s: Seat): string => nameOf(players, s);
  const role = (s: Seat): RoleId | null => outcome.revealed.get(s) ?? null;
  const lines: string[] = [];
  if (outcome.hanged !== null) lines.push(TEXTS.hanged[lang](name(outcome.hanged), role(outcome.hanged)));
  else if (outcome.excused !== null) lines.push(TEXTS.excused[lang](name(outcome.excused)));
  else lines.push(TEXTS.noHanging[lang]()); // G3, V5
  for (const s of [...outcome.modkilled].sort(bySeatName(players)))
    lines.push(TEXTS.modkill[lang](name(s), role(s)));
  if (outcome.winner !== null) lines.push(TEXTS.gameOver[lang](outcome.winner));
  return { title: TEXTS.dayTitle[lang](outcome.phase.number), lines };
}

/**
 * V4, V6, V7: the public vote count of the day in play. Targets by number of votes (every vote counts 1),
 * most first, then by name; each target's voters in the order their votes were cast, an early vote
 * marked from day 3 on (V7: before it the word has no effect).
 * "Против:" and "В защиту:" are left out when empty, as are the lines of players who cannot vote and
 * players who have not voted. The M3 boss's vote is shown like any other.
 */
export function voteCountPost(ballots: DayBallots, state: GameState, lang: Lang): Announcement {
  const c = voteCountSections(ballots, state, lang);
  const lines: string[] = [];
  if (c.red.length > 0) lines.push(TEXTS.against[lang](), ...c.red);
  if (c.blue.length > 0) lines.push(TEXTS.inDefence[lang](), ...c.blue);
  if (c.lost !== null) lines.push(c.lost);
  if (c.notVoted !== null) lines.push(c.notVoted);
  return { title: c.title, lines };
}

/** The vote count's parts, for a page that lays them out itself: a line per target, red and blue apart. */
export interface VoteCountSections {
  readonly title: string;
  /** "Вася (3): Петя, Коля, Маша", most votes first. */
  readonly red: readonly string[];
  readonly blue: readonly string[];
  /** "Лишены голоса: …", or null. */
  readonly lost: string | null;
  /** "Не проголосовали: …", or null. */
  readonly notVoted: string | null;
}

export function voteCountSections(ballots: DayBallots, state: GameState, lang: Lang): VoteCountSections {
  const { players } = state;
  const groups: { readonly [C in VoteColor]: Map<Seat, Seat[]> } = { red: new Map(), blue: new Map() };
  const notVoted: Seat[] = [];
  for (let seat = 0; seat < players.length; seat++)
    if (mayVote(state, seat) && !ballots.votes[seat]) notVoted.push(seat);
  for (const seat of ballots.order) {
    const vote = ballots.votes[seat];
    if (!vote || !mayVote(state, seat)) continue;
    const voters = groups[vote.color].get(vote.target) ?? [];
    voters.push(seat);
    groups[vote.color].set(vote.target, voters);
  }
  const early = earlyCounts(state);
  const voter = (seat: Seat): string =>
    early && ballots.votes[seat]!.early
      ? TEXTS.earlyVoter[lang](nameOf(players, seat))
      : nameOf(players, seat);
  const section = (color: VoteColor): string[] =>
    [...groups[color]]
      .map(([target, voters]) => ({ target: nameOf(players, target), voters: voters.map(voter) }))
      .sort((a, b) => b.voters.length - a.voters.length || compareNames(a.target, b.target))
      .map(({ target, voters }) => TEXTS.votesFor[lang](target, voters));
  const lost = names(
    players,
    state.day.silenced.filter((s) => players[s]?.alive === true),
  );
  return {
    title: TEXTS.voteCountTitle[lang](state.phase.number),
    red: section("red"),
    blue: section("blue"),
    lost: lost.length > 0 ? TEXTS.lostVote[lang](lost) : null,
    notVoted: notVoted.length > 0 ? TEXTS.notVoted[lang](names(players, notVoted)) : null,
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
