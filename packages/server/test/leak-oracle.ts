import { ROLE_IDS, teamOf, type GameView, type RoleId, type Team } from "@forum-mafia/engine";
import type { GameDetail } from "@forum-mafia/protocol";

/**
 * The no-leak oracle (issue 3, "No leaks"): what a holder of a session may know at a point of the game,
 * worked out from the GM's data, and a checker that scans any body the server sent (a JSON response, an
 * error, an SSE event) for anything beyond it. What a player may know (S2, R1, R2, T3a, M3, R3):
 * their own role; the mafia know the mafia; the sheriff and the sergeant know each other; everyone knows
 * the roles the published results reveal (R1, R2, the serum) and the exposures (M3, T3a); at the end, all.
 */

export type Result = GameView["results"][number];

/** Who holds a session: the player in a seat now, or anyone without one (the public, a non-player, a replaced player). */
export type Holder = { readonly kind: "player"; readonly seat: number } | { readonly kind: "public" };

/** The game as the GM sees it at a point: the true roles, the seats' names and the published results. */
export interface Truth {
  readonly roles: readonly RoleId[];
  readonly names: readonly string[];
  readonly results: readonly Result[];
  readonly ended: boolean;
  /** The markers of the posts the GM has hidden so far (their text is published with the log at the end). */
  readonly hidden: ReadonlySet<string>;
}

export interface Knowledge {
  readonly who: string;
  readonly ended: boolean;
  readonly seat: number | null;
  readonly ownRole: RoleId | null;
  readonly team: Team | null;
  /** G8: a member of the spectators' room (dead, in no faction chat). */
  readonly spectator: boolean;
  /** Seat → the roles this holder may see attached to it. */
  readonly roles: ReadonlyMap<number, ReadonlySet<string>>;
  /** A seat's name now → the seat (refusals name players as `Name (role)`). */
  readonly seatByName: ReadonlyMap<string, number>;
  /** `Name (role)` for any seat's name now. */
  readonly nameAsRole: RegExp;
  readonly hidden: ReadonlySet<string>;
}

function allow(map: Map<number, Set<string>>, seat: number, role: string): void {
  const set = map.get(seat) ?? new Set<string>();
  set.add(role);
  map.set(seat, set);
}

/** R1, R2, the serum (T3a) and the exposures (M3, T3a): what every viewer knows from the published results. */
export function publicRoles(results: readonly Result[]): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const r of results) {
    for (const m of r.revealed) allow(out, m.seat, m.role);
    if (r.type === "nightResults") for (const x of r.exposed) allow(out, x.seat, x.as);
  }
  return out;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function knowledge(holder: Holder, truth: Truth, who: string): Knowledge {
  const roles = publicRoles(truth.results);
  const dead = new Set(truth.results.flatMap((r) => r.died));
  let seat: number | null = null;
  let team: Team | null = null;
  if (truth.ended) truth.roles.forEach((role, s) => allow(roles, s, role)); // R3
  if (holder.kind === "player") {
    seat = holder.seat;
    const own = truth.roles[seat]!;
    team = teamOf(own);
    allow(roles, seat, own); // S1
    if (team) truth.roles.forEach((role, s) => teamOf(role) === team && allow(roles, s, role)); // S2
  }
  return {
    who,
    ended: truth.ended,
    seat,
    ownRole: seat === null ? null : truth.roles[seat]!,
    team,
    spectator: seat !== null && team === null && dead.has(seat),
    roles,
    seatByName: new Map(truth.names.map((n, s) => [n, s])),
    hidden: truth.hidden,
    nameAsRole: new RegExp(
      `(?<![\\p{L}\\p{N}])(${truth.names.map(escape).join("|")}) \\((${ROLE_IDS.join("|")})\\)`,
      "gu",
    ),
  };
}

/**
 * An independent check of the GM's published results against R1/R2: every revealed role is the true one
 * and is revealed by a death while more than 10 were alive at the phase's start, a bloody kill or the serum;
 * every exposure names a mafioso as the boss or the doctor as the doctor.
 */
export function checkReveals(truth: Truth): string[] {
  const out: string[] = [];
  let alive = truth.roles.length;
  for (const r of truth.results) {
    const where = `${r.type} ${r.phase.kind} ${r.phase.number}`;
    for (const m of r.revealed) {
      if (m.role !== truth.roles[m.seat]) out.push(`${where}: reveals seat ${m.seat} as ${m.role}, a lie`);
      const r1 = alive > 10 && r.died.includes(m.seat);
      const r2 = r.type === "nightResults" && (r.bloodyVictims.includes(m.seat) || r.serum === m.seat);
      if (!r1 && !r2) out.push(`${where}: reveals seat ${m.seat} (${m.role}) though R1/R2 do not allow it`);
    }
    if (r.type === "nightResults")
      for (const x of r.exposed) {
        const role = truth.roles[x.seat]!;
        if (x.as === "doctor" ? role !== "doctor" : teamOf(role) !== "mafia")
          out.push(`${where}: exposes seat ${x.seat} (${role}) as ${x.as}`);
      }
    alive -= r.died.length;
  }
  return out;
}

// ——— markers ———

/**
 * A unique marker planted in a private text (STYLE.md, "Secrets"). Kinds: `mafia`, `pair`, `spect` (the
 * spectators' room), `gm<seat>` (the channel between a seat and the GM), `council` (M2c's question, a night
 * action: the mafia's until the end, everyone's after it, R3), `gmreason` (a GM's reason for a modkill,
 * a replacement, a fixed roll or a reopened action: the GM's until the end, F2), `post` (a post in the
 * thread: everyone's, until the GM hides it; then nobody's until the end).
 */
export type MarkerKind = "mafia" | "pair" | "spect" | "council" | "gmreason" | "post" | `gm${number}`;
export const marker = (kind: MarkerKind, n: number): string => `MARK-${kind}-${n}`;
const MARKER = /MARK-([a-z]+\d*)-(\d+)/g;

function markerAllowed(token: string, kind: string, k: Knowledge): boolean {
  if (kind === "post") return k.ended || !k.hidden.has(token);
  if (kind === "mafia") return k.team === "mafia";
  if (kind === "pair") return k.team === "pair";
  if (kind === "spect") return k.spectator;
  if (kind === "council") return k.team === "mafia" || k.ended;
  if (kind === "gmreason") return k.ended;
  const gm = /^gm(\d+)$/.exec(kind);
  if (gm) return k.seat === Number(gm[1]);
  return false; // an unknown kind is a typo in the test: fail loudly
}

/** Who may read a channel (S2, G6, G8): the channels stay private after the end; R3 publishes no chat. */
export function mayRead(channel: string, k: Knowledge): boolean {
  if (channel === "mafia") return k.team === "mafia";
  if (channel === "pair") return k.team === "pair";
  if (channel === "spectators") return k.spectator;
  const gm = /^gm:(\d+)$/.exec(channel);
  return gm !== null && k.seat === Number(gm[1]);
}

// ——— the checker ———

const ROLES = new Set<string>(ROLE_IDS);
/** Events no player may receive before the end (R3 publishes them). */
const GM_ONLY_EVENTS = new Set(["nightDetail", "dayDetail", "modkillOrdered"]);
/**
 * Fields of the GM's working (nightDetail, dayDetail, the review draft, the published log) that no other body
 * has: found anywhere before the end, in whatever wrapper, they are a leak.
 */
const GM_ONLY_FIELDS = [
  "attacks",
  "rolls",
  "blocked",
  "score",
  "penalized",
  "uncounted",
  "explanation",
  "privateLines",
  "councilQuestion",
  "overrides",
  "moderation",
  "hiddenPosts",
];

/**
 * What the checker found and allowed, by kind: proof that the checks had something to check (a marker that
 * never reaches even its own audience, say, would make the marker check vacuous).
 */
export interface Tally {
  markers: number;
  seatRoles: number;
  submissions: number;
  privateResults: number;
  messages: number;
  labels: number;
}
export const emptyTally = (): Tally => ({
  markers: 0,
  seatRoles: 0,
  submissions: 0,
  privateResults: 0,
  messages: 0,
  labels: 0,
});

interface Scan {
  readonly k: Knowledge;
  readonly tally: Tally;
  readonly say: (what: string) => void;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** Scan one body a holder received; returns the violations, each with where it was found. */
export function checkBody(raw: string, k: Knowledge, where: string, tally: Tally = emptyTally()): string[] {
  const out: string[] = [];
  const say = (what: string): void => {
    out.push(`${k.who} ${where}: ${what}`);
  };
  for (const m of raw.matchAll(MARKER)) {
    if (markerAllowed(m[0], m[1]!, k)) tally.markers++;
    else say(`received the marker ${m[0]} meant for others`);
  }
  if (!k.ended)
    for (const m of raw.matchAll(k.nameAsRole)) {
      const seat = k.seatByName.get(m[1]!)!;
      if (k.roles.get(seat)?.has(m[2]!)) tally.labels++;
      else say(`a text names ${m[1]} (seat ${seat}) as ${m[2]}: «${excerpt(raw, m.index)}»`);
    }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return out; // not JSON (the text checks above still ran)
  }
  walk(body, { k, tally, say }, "$");
  return out;
}

const excerpt = (raw: string, at: number): string => raw.slice(Math.max(0, at - 60), at + 80);

function walk(v: unknown, scan: Scan, path: string): void {
  if (Array.isArray(v)) {
    v.forEach((x, i) => walk(x, scan, `${path}[${i}]`));
    return;
  }
  if (!isObject(v)) return;
  const { k, tally, say } = scan;
  const seat = typeof v.seat === "number" ? v.seat : null;
  // A submission is seen by its sender (own slot) or by the team whose shared slot it fills (O1, M4, T1).
  const maySeeSubmission = (slot: unknown, of: number | null): boolean =>
    k.ended || (slot === "own" ? of === k.seat : slot === k.team);

  // A role attached to a seat: SeatView, Member (revealed, teamRevealed, gameEnded), roleDealt, view.me.
  if (!k.ended && seat !== null && typeof v.role === "string" && ROLES.has(v.role)) {
    if (k.roles.get(seat)?.has(v.role)) tally.seatRoles++;
    else say(`${path}: seat ${seat} shown as ${v.role}`);
  }
  if (!k.ended) {
    for (const f of GM_ONLY_FIELDS) if (f in v) say(`${path}.${f}: the GM's working`);
    if (v.seed !== undefined && v.seed !== null) say(`${path}.seed: the seed before the end (F1)`);
  }
  // The role message (S1): only one's own.
  if (isObject(v.roleCard) && v.roleCard.role !== k.ownRole)
    say(`${path}.roleCard: ${String(v.roleCard.role)}, not the holder's own role`);
  // view.submissions (seat, slot, action) and form.submitted (slot, action: the holder's own, by construction).
  if (typeof v.type !== "string" && typeof v.slot === "string" && isObject(v.action)) {
    if (maySeeSubmission(v.slot, seat ?? k.seat)) tally.submissions++;
    else say(`${path}: a submission of seat ${seat ?? "?"} in the ${v.slot} slot: ${JSON.stringify(v)}`);
  }
  // A2: the check's result to the pair, the council's answer to the mafia (view.privateResults).
  if ("check" in v && "council" in v && "phase" in v) {
    if (v.check !== null && k.team !== "pair" && !k.ended)
      say(`${path}: a check result: ${JSON.stringify(v.check)}`);
    else if (v.council !== null && k.team !== "mafia" && !k.ended)
      say(`${path}: a council answer: ${JSON.stringify(v.council)}`);
    else tally.privateResults++;
  }
  if (typeof v.type === "string") {
    const t = v.type;
    if (t === "review") say(`${path}: the GM's review notice`);
    if (!k.ended) {
      if (GM_ONLY_EVENTS.has(t)) say(`${path}: the GM's ${t}`);
      if (t === "checkResult" && k.team !== "pair") say(`${path}: checkResult`);
      if (t === "councilAnswer" && k.team !== "mafia") say(`${path}: councilAnswer`);
      if (t === "gameEnded") say(`${path}: gameEnded before the end`);
      // P2: a strike is told to the one who got it (another's would show that seat has a night action).
      if (t === "strike" && seat !== k.seat) say(`${path}: a strike of seat ${seat ?? "?"}`);
    }
    if (t === "actionSubmitted") {
      if (maySeeSubmission(v.slot, seat)) tally.submissions++;
      else say(`${path}: actionSubmitted of seat ${seat ?? "?"} in the ${String(v.slot)} slot`);
    }
  }
  // A channel and its messages: only to its members, before and after the end (R3 publishes no chat).
  if (typeof v.channel === "string" && "html" in v) {
    if (mayRead(v.channel, k)) tally.messages++;
    else say(`${path}: a message of the channel ${v.channel}`);
  }
  if (typeof v.id === "string" && "canPost" in v && Array.isArray(v.messages) && !mayRead(v.id, k))
    say(`${path}: the channel ${v.id}`);
  for (const [key, x] of Object.entries(v)) walk(x, scan, `${path}.${key}`);
}

/**
 * The parts of a GameDetail that are the same for every viewer at the same moment (public facts): a player's
 * detail must agree with the public's on all of them, so nothing private hides in a public-looking field.
 */
export function publicPart(d: GameDetail): unknown {
  const v = d.view;
  return {
    // `mine` says where the asking user stands: theirs, not a public fact.
    summary: { ...d.summary, mine: null },
    settings: d.settings,
    roleNames: d.roleNames,
    signups: d.signups,
    clock: d.clock,
    commitment: d.commitment,
    voteCount: d.voteCount,
    notices: d.notices,
    announcements: d.announcements,
    view: v && {
      phase: v.phase,
      seats: v.seats.map((s) => ({ seat: s.seat, name: s.name, alive: s.alive, cannotVote: s.cannotVote })),
      votes: v.votes,
      pastVotes: v.pastVotes,
      results: v.results,
      winner: v.winner,
      seed: v.seed,
    },
  };
}
