/**
 * What a talking bot may say about others (issue 16), read only from its own view and the public thread:
 * roles made public by the results (R1, R2, never a teammate's role the bot knows from S2), the exposed
 * boss (M3), earlier days' and today's votes, who has been silent. Each fact is a reason a post can give.
 */
import type { Seat } from "./player.ts";
import { roleSpec, type RoleId } from "./roles.ts";
import type { Phase } from "./state.ts";
import type { GameView } from "./view.ts";

/** A post in the game thread as everyone sees it: the author's seat (null: the GM), its BBCode, its phase. */
export interface TalkPost {
  readonly id: string;
  readonly seat: Seat | null;
  readonly text: string;
  readonly phase: Phase;
  /** V2: the vote the post cast, if any. */
  readonly vote: { readonly color: "red" | "blue"; readonly target: Seat } | null;
}

export type Reason =
  | { readonly kind: "exposed" }
  | { readonly kind: "revealed"; readonly role: RoleId }
  | { readonly kind: "redOnTown"; readonly day: number; readonly target: Seat; readonly role: RoleId }
  | { readonly kind: "blueOnBad"; readonly day: number; readonly target: Seat; readonly role: RoleId }
  | { readonly kind: "blueForSuspect"; readonly target: Seat }
  | { readonly kind: "redOnMe" }
  | { readonly kind: "silentDays"; readonly days: number }
  | { readonly kind: "silentToday" }
  | { readonly kind: "bandwagon"; readonly reds: number };

export const samePhase = (a: Phase, b: Phase): boolean => a.kind === b.kind && a.number === b.number;

/** The public facts of a view and thread, worked out once per post. */
export interface Facts {
  readonly view: GameView;
  readonly me: Seat;
  /** Roles the results announced (R1, R2): public, unlike a teammate's role. */
  readonly publicRole: ReadonlyMap<Seat, RoleId>;
  readonly exposedBoss: ReadonlySet<Seat>;
  /** Day numbers on which each seat posted in the thread. */
  readonly postedOn: ReadonlyMap<Seat, ReadonlySet<number>>;
  readonly redsOn: ReadonlyMap<Seat, number>;
}

export function factsOf(view: GameView, me: Seat, thread: readonly TalkPost[]): Facts {
  const { publicRole, exposedBoss } = announced(view.results);
  return { view, me, publicRole, exposedBoss, postedOn: postingDays(thread), redsOn: redsOf(view.votes) };
}

/**
 * What the results announced, worked out once per list of results: a view folded as the game goes on
 * keeps the same list until the next results (ViewFold), and a view's lists never change.
 */
const ANNOUNCED = new WeakMap<
  GameView["results"],
  { readonly publicRole: ReadonlyMap<Seat, RoleId>; readonly exposedBoss: ReadonlySet<Seat> }
>();
function announced(results: GameView["results"]) {
  let known = ANNOUNCED.get(results);
  if (!known) {
    const publicRole = new Map<Seat, RoleId>();
    const exposedBoss = new Set<Seat>();
    for (const r of results) {
      for (const m of r.revealed) publicRole.set(m.seat, m.role);
      if (r.type === "nightResults") for (const e of r.exposed) if (e.as === "boss") exposedBoss.add(e.seat);
    }
    ANNOUNCED.set(results, (known = { publicRole, exposedBoss }));
  }
  return known;
}

/** Today's red votes on each seat, once per list of votes. */
const REDS = new WeakMap<GameView["votes"], ReadonlyMap<Seat, number>>();
function redsOf(votes: GameView["votes"]): ReadonlyMap<Seat, number> {
  let reds = REDS.get(votes);
  if (!reds) {
    const counts = new Map<Seat, number>();
    for (const v of votes) if (v.color === "red") counts.set(v.target, (counts.get(v.target) ?? 0) + 1);
    REDS.set(votes, (reds = counts));
  }
  return reds;
}

/** Who posted on which day, read once per thread and then only for the posts added since (a thread only grows). */
const POSTED = new WeakMap<readonly TalkPost[], { read: number; days: Map<Seat, Set<number>> }>();
function postingDays(thread: readonly TalkPost[]): ReadonlyMap<Seat, ReadonlySet<number>> {
  let kept = POSTED.get(thread);
  if (!kept || kept.read > thread.length) POSTED.set(thread, (kept = { read: 0, days: new Map() }));
  for (; kept.read < thread.length; kept.read++) {
    const p = thread[kept.read]!;
    if (p.seat === null || p.phase.kind !== "day") continue;
    const days = kept.days.get(p.seat) ?? new Set<number>();
    days.add(p.phase.number);
    kept.days.set(p.seat, days);
  }
  return kept.days;
}

const isTown = (role: RoleId): boolean => roleSpec(role).faction === "town";

/** How many days in a row, up to today, `s` has not posted (today counts once the day is under way). */
function silentDays(f: Facts, s: Seat, todayCounts: boolean): number {
  const today = f.view.phase.kind === "day" ? f.view.phase.number : f.view.phase.number - 1;
  const days = f.postedOn.get(s);
  let n = 0;
  for (let d = todayCounts ? today : today - 1; d >= 1; d--) {
    if (days?.has(d)) break;
    n++;
  }
  return n;
}

/** The reasons to suspect `s`, strongest first (possibly none). `late`: the day is under way. */
export function reasonsAgainst(f: Facts, s: Seat, late: boolean): Reason[] {
  const out: Reason[] = [];
  if (f.exposedBoss.has(s)) out.push({ kind: "exposed" });
  const own = f.publicRole.get(s);
  if (own !== undefined && !isTown(own)) out.push({ kind: "revealed", role: own });
  for (let i = f.view.pastVotes.length - 1; i >= 0; i--) {
    const v = f.view.pastVotes[i]!;
    if (v.seat !== s) continue;
    const role = f.publicRole.get(v.target);
    if (role === undefined) continue;
    if (v.color === "red" && isTown(role)) {
      out.push({ kind: "redOnTown", day: v.day, target: v.target, role });
      break;
    }
    if (v.color === "blue" && !isTown(role)) {
      out.push({ kind: "blueOnBad", day: v.day, target: v.target, role });
      break;
    }
  }
  const today = f.view.phase.number;
  const blue = f.view.pastVotes.find(
    (v) => v.seat === s && v.color === "blue" && v.day === today - 1 && (f.redsOn.get(v.target) ?? 0) >= 2,
  );
  if (blue) out.push({ kind: "blueForSuspect", target: blue.target });
  if (f.view.votes.some((v) => v.seat === s && v.target === f.me && v.color === "red"))
    out.push({ kind: "redOnMe" });
  const silent = silentDays(f, s, late);
  if (silent >= 2) out.push({ kind: "silentDays", days: silent });
  else if (silent === 1 && late) out.push({ kind: "silentToday" });
  const reds = f.redsOn.get(s) ?? 0;
  if (reds >= 2) out.push({ kind: "bandwagon", reds });
  return out;
}

/** The lower-case forms of each seat's names, without repeats: worked out once per list of names. */
const LOWER = new WeakMap<readonly (readonly string[])[], readonly (readonly string[])[]>();
function lowerForms(forms: readonly (readonly string[])[]): readonly (readonly string[])[] {
  let lower = LOWER.get(forms);
  if (!lower) {
    lower = forms.map((list) => [...new Set(list.map((x) => x.toLowerCase()))].filter((x) => x.length > 0));
    LOWER.set(forms, lower);
  }
  return lower;
}

/** The seats named in a text by any case form of their nick, in order of appearance (longest match wins). */
export function namedIn(
  text: string,
  forms: readonly (readonly string[])[],
): readonly { readonly seat: Seat; readonly index: number }[] {
  // A team's messages are read again at every post: each text is read once per list of names.
  let read = NAMED.get(forms);
  if (!read) NAMED.set(forms, (read = new Map()));
  let found = read.get(text);
  if (!found) read.set(text, (found = findNames(text, forms)));
  return found;
}

const NAMED = new WeakMap<
  readonly (readonly string[])[],
  Map<string, readonly { seat: Seat; index: number }[]>
>();

function findNames(text: string, forms: readonly (readonly string[])[]): { seat: Seat; index: number }[] {
  const lower = text.toLowerCase();
  const hits: { seat: Seat; index: number; end: number }[] = [];
  lowerForms(forms).forEach((list, seat) => {
    for (const form of list) {
      for (let at = lower.indexOf(form); at >= 0; at = lower.indexOf(form, at + 1)) {
        const end = at + form.length;
        if (LETTER.test(lower.charAt(at - 1)) || LETTER.test(lower.charAt(end))) continue;
        hits.push({ seat, index: at, end });
      }
    }
  });
  hits.sort((a, b) => a.index - b.index || b.end - a.end);
  const out: { seat: Seat; index: number }[] = [];
  let covered = -1;
  for (const h of hits) {
    if (h.index < covered) continue;
    out.push({ seat: h.seat, index: h.index });
    covered = h.end;
  }
  return out;
}

const LETTER = /[\p{L}\p{N}]/u;
