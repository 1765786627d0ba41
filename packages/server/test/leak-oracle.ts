import type { GameEvent, GameView, NightAction, RoleId, Team } from "@forum-mafia/engine";
import { ROLE_IDS } from "@forum-mafia/engine";
import type { GameDetail } from "@forum-mafia/protocol";

/**
 * The no-leak oracle (issue 3, "No leaks"): what a holder of a session may know at a point of the game,
 * and a checker that scans any body the server sent (a JSON response, an error, an SSE event) for anything
 * beyond it. What a player may know (S1, S2, R1, R2, T3a, M3, R3): their own role; the mafia know the
 * mafia; the sheriff and the sergeant know each other; everyone knows the role of a player who died while
 * more than `revealAbove` (10 by default, S3) were alive at the phase's start (R1), of a bloody kill's victim and of the serum's target
 * (R2), and the exposures (M3, T3a); at the end, all (R3).
 *
 * It is worked out from RULES.md alone, not from the engine's decisions: the teams are the table below,
 * not the engine's `teamOf`; alive at a phase's start is counted from the deaths the published results
 * announce; which deaths were bloody kills and whom the serum hit come from the GM's record (each slot's
 * last submission and the night's detail: attacks and blocks), never from the results' `revealed`,
 * `bloodyVictims` or `serum`. `checkReveals` then holds the published results to the same reading, both
 * ways.
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
  /**
   * The GM's record so far (the game's events, as the log publishes them at the end): only its
   * submissions (`actionSubmitted`) and nights' details (`nightDetail`) are read, to know who acted on whom.
   */
  readonly record: readonly GameEvent[];
  /**
   * S3: the game's `revealAbove` (R1), as the GM set it in the published setup; REVEAL_ABOVE (10, the
   * rules' default) when left out.
   */
  readonly revealAbove?: number;
}

/** S2, §1's table: the mafia know each other; the sheriff and the sergeant know each other; nobody else. */
export const TEAM: { readonly [R in RoleId]: Team | null } = {
  boss: "mafia",
  troll: "mafia",
  elf: "mafia",
  lawyer: "mafia",
  thug: "mafia",
  maniac: null,
  sheriff: "pair",
  sergeant: "pair",
  doctor: null,
  girl: null,
  prosecutor: null,
  shahid: null,
  citizen: null,
};

/** M1: the boss's succession: the first of these still alive is the boss. */
const SUCCESSION: readonly RoleId[] = ["boss", "troll", "elf", "lawyer", "thug"];

/** R1, S3: roles are announced iff alive at the phase's start is above this (`revealAbove`, default 10). */
export const REVEAL_ABOVE = 10;

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

/** What one published result makes public by the rules, worked out by this file. */
export interface Reveal {
  readonly result: Result;
  /** Where, for messages: `nightResults night 3`. */
  readonly where: string;
  /** The number of living players when the phase began, counted from the deaths announced before it. */
  readonly aliveAtStart: number;
  /** The boss when the phase began (M1), for a night; null when no ranked mafioso is alive. */
  readonly boss: number | null;
  /** N1a: victims of a bloody kill that itself succeeded (GM's record), this night. */
  readonly bloody: readonly number[];
  /** T3a: the serum's target (GM's record), this night. */
  readonly serum: number | null;
  /** Seat → the clauses that make its true role public in this result (R1, R2 bloody, R2 serum). */
  readonly public: ReadonlyMap<number, readonly string[]>;
  /** Where the GM's record itself does not add up (a published night without its detail, say). */
  readonly problems: readonly string[];
}

/** Per night, from the GM's record: each seat's last submission in its own slot (O1) and the night's detail. */
interface NightRecord {
  readonly own: Map<number, NightAction>;
  detail: Extract<GameEvent, { type: "nightDetail" }> | null;
}

function nightRecords(record: readonly GameEvent[]): Map<number, NightRecord> {
  const out = new Map<number, NightRecord>();
  const at = (night: number): NightRecord => {
    let r = out.get(night);
    if (!r) out.set(night, (r = { own: new Map(), detail: null }));
    return r;
  };
  for (const e of record)
    if (e.type === "actionSubmitted" && e.slot === "own" && e.phase.kind === "night")
      at(e.phase.number).own.set(e.seat, e.action); // a later submission replaces an earlier one (O1)
    else if (e.type === "nightDetail" && e.phase.kind === "night") at(e.phase.number).detail = e;
  return out;
}

/** Truths are not changed once made: each is worked out once, however many holders ask. */
const revealCache = new WeakMap<Truth, Reveal[]>();

/**
 * R1, R2 for every published result, in order: the deaths counted from the results themselves (each
 * result's `died`, a modkill included, P3), the boss from the succession (M1), the bloody kill and the serum
 * from the GM's record.
 */
export function reveals(truth: Truth): Reveal[] {
  const cached = revealCache.get(truth);
  if (cached) return cached;
  const out: Reveal[] = [];
  const nights = nightRecords(truth.record);
  const dead = new Set<number>();
  const seatOf = (role: RoleId): number | null => {
    const s = truth.roles.indexOf(role);
    return s < 0 ? null : s;
  };
  const maniac = seatOf("maniac");
  const doctor = seatOf("doctor");
  for (const r of truth.results) {
    const where = `${r.type} ${r.phase.kind} ${r.phase.number}`;
    const aliveAtStart = truth.roles.length - dead.size;
    let boss: number | null = null;
    for (const role of SUCCESSION) {
      const s = truth.roles.findIndex((x, i) => x === role && !dead.has(i));
      if (s >= 0) {
        boss = s;
        break;
      }
    }
    const bloody: number[] = [];
    let serum: number | null = null;
    const problems: string[] = [];
    if (r.type === "nightResults") {
      const night = nights.get(r.phase.number);
      const detail = night?.detail ?? null;
      if (!detail) problems.push(`${where}: published, but the GM's record has no detail of the night`);
      const blocked = new Set(detail?.blocked ?? []);
      const own = night?.own ?? new Map<number, NightAction>();
      // N1a: the maniac's bloody kill, not blocked (O2), whose attack on the victim was not cancelled (O5).
      const m = maniac === null ? undefined : own.get(maniac);
      if (maniac !== null && m?.act === "bloodyKill" && !blocked.has(maniac)) {
        const attack = detail?.attacks.find(
          (a) => a.by === maniac && a.kind === "bloodyKill" && a.target === m.target,
        );
        if (!attack && detail)
          problems.push(
            `${where}: the maniac's bloody kill on seat ${m.target}, not blocked, is not among the attacks`,
          );
        if (attack && attack.cancelledBy === null) bloody.push(m.target);
      }
      // T3a: the doctor's serum, not blocked (T4 does not stop a serum on the visited player, only the doctor's own block).
      const d = doctor === null ? undefined : own.get(doctor);
      if (doctor !== null && d?.act === "serum" && !blocked.has(doctor)) serum = d.target;
    }
    const pub = new Map<number, string[]>();
    const because = (seat: number, clause: string): void => {
      pub.set(seat, [...(pub.get(seat) ?? []), clause]);
    };
    if (aliveAtStart > (truth.revealAbove ?? REVEAL_ABOVE))
      for (const s of r.died) because(s, `R1 (${aliveAtStart} alive at the start)`);
    for (const s of bloody) because(s, "R2 (a bloody kill)");
    if (serum !== null) because(serum, "R2 (the serum)");
    out.push({ result: r, where, aliveAtStart, boss, bloody, serum, public: pub, problems });
    for (const s of r.died) dead.add(s);
  }
  revealCache.set(truth, out);
  return out;
}

/** R1, R2, the serum (T3a) and the exposures (M3, T3a): what every viewer knows from the published results. */
export function publicRoles(truth: Truth): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const x of reveals(truth)) {
    for (const seat of x.public.keys()) allow(out, seat, truth.roles[seat]!);
    if (x.result.type === "nightResults") for (const e of x.result.exposed) allow(out, e.seat, e.as);
  }
  return out;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function knowledge(holder: Holder, truth: Truth, who: string): Knowledge {
  const roles = publicRoles(truth);
  const dead = new Set(truth.results.flatMap((r) => r.died));
  let seat: number | null = null;
  let team: Team | null = null;
  if (truth.ended) truth.roles.forEach((role, s) => allow(roles, s, role)); // R3
  if (holder.kind === "player") {
    seat = holder.seat;
    const own = truth.roles[seat]!;
    team = TEAM[own];
    allow(roles, seat, own); // S1
    if (team) truth.roles.forEach((role, s) => TEAM[role] === team && allow(roles, s, role)); // S2
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

const seats = (list: Iterable<number>): string => [...list].sort((a, b) => a - b).join(", ") || "none";

/**
 * The published results held to this file's reading of R1 and R2, both ways: every revealed role is the
 * true one and is revealed where R1 or R2 make it public; every role they make public is revealed there;
 * the bloody kills' victims (N1a) and the serum's target (T3a) announced are the ones the GM's record shows;
 * an exposure names the boss of that night (M1) or the doctor after a serum (T3a), alive after it (M3).
 */
export function checkReveals(truth: Truth): string[] {
  const out: string[] = [];
  for (const x of reveals(truth)) {
    const r = x.result;
    out.push(...x.problems);
    const shown = new Set<number>();
    for (const m of r.revealed) {
      shown.add(m.seat);
      if (m.role !== truth.roles[m.seat])
        out.push(`${x.where}: reveals seat ${m.seat} as ${m.role}, a lie (it is ${truth.roles[m.seat]})`);
      if (!x.public.has(m.seat))
        out.push(
          `${x.where}: reveals seat ${m.seat} (${m.role}) though R1/R2 do not allow it (${x.aliveAtStart} alive at the start)`,
        );
    }
    for (const [seat, why] of x.public)
      if (!shown.has(seat))
        out.push(
          `${x.where}: does not reveal seat ${seat} (${truth.roles[seat]}), which ${why.join(" and ")} make public`,
        );
    if (r.type !== "nightResults") continue;
    if (seats(r.bloodyVictims) !== seats(x.bloody))
      out.push(
        `${x.where}: announces bloody kill victims ${seats(r.bloodyVictims)}, the GM's record ${seats(x.bloody)} (N1a)`,
      );
    for (const s of x.bloody)
      if (!r.died.includes(s))
        out.push(`${x.where}: seat ${s}'s bloody kill succeeded, but it did not die (N1a)`);
    if (r.serum !== x.serum)
      out.push(
        `${x.where}: announces the serum on seat ${r.serum ?? "none"}, the GM's record ${x.serum ?? "none"} (T3a)`,
      );
    for (const e of r.exposed) {
      const role = truth.roles[e.seat]!;
      const ok = e.as === "doctor" ? role === "doctor" && x.serum !== null : e.seat === x.boss; // T3a; M1, M3
      if (!ok || r.died.includes(e.seat))
        out.push(
          `${x.where}: exposes seat ${e.seat} (${role}) as ${e.as} (boss at the start: ${x.boss ?? "none"})`,
        );
    }
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
  "councilSuggested",
  "overrides",
  "moderation",
  "hiddenPosts",
  // G5 (issue 31): the GM's list of flagged posts and messages, their words and the measures taken.
  "flags",
  "spans",
  "measures",
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
    if (t === "flag") say(`${path}: the GM's G5 flag notice`);
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
    // Issue 28: counted from public results only, so the same for everyone.
    stall: d.stall,
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
