/**
 * Bot players (issue 5): one sensible, not clever, strategy per role. A bot decides only from what its
 * player knows: the player's own view (viewFor, the view a human gets) and tonight's form (nightForm),
 * together with a seeded random stream of its own. It never reads the game state.
 *
 * Suspicion rests on what is public: roles announced at deaths and by the serum (R1, R2), the exposed
 * boss or doctor (M3, T3a), the pair's checks (T2), today's votes, and the votes of earlier days read
 * against the roles revealed since (a red vote on a player who turned out town looks bad).
 */
import { councilAnswerTonight } from "./council.ts";
import { EventReader, gameEvents } from "./events.ts";
import { act, endDay, endNight, startMatch, vote, type Match } from "./match.ts";
import type { NightAction, TargetedAct } from "./night-action.ts";
import { nightForm, type NightForm, type NightFormAct } from "./night-form.ts";
import type { GameOptions } from "./options.ts";
import type { Seat } from "./player.ts";
import type { GameState } from "./state.ts";
import { isRejection, type Rejection } from "./rejection.ts";
import { RandomStream, rngFromSeed } from "./rng.ts";
import { DEFAULT_ROLES, isMafia, roleSpec, type RoleId } from "./roles.ts";
import { ViewFold, viewFor, type GameView } from "./view.ts";
import type { Vote } from "./vote.ts";

/** Everything a bot may decide from: its player's view and tonight's form (null when it has no act). */
export interface BotView {
  readonly view: GameView;
  readonly form: NightForm | null;
}

const TWO_32 = 4294967296;

/** An integer in [0, n). */
const int = (rng: RandomStream, n: number): number => Math.floor((rng.nextU32() * n) / TWO_32);
const chance = (rng: RandomStream, percent: number): boolean => int(rng, 100) < percent;

/** The seat with the highest score plus a little noise (in [0, noise)); null for no seats. */
function best(seats: readonly Seat[], score: (s: Seat) => number, rng: RandomStream, noise = 3): Seat | null {
  let top: Seat | null = null;
  let topScore = -Infinity;
  for (const s of seats) {
    const value = score(s) + (int(rng, 1000) * noise) / 1000;
    if (value > topScore) {
      top = s;
      topScore = value;
    }
  }
  return top;
}

/** The roles whose holders the town wants alive and the mafia wants dead. */
const TOWN_POWER: ReadonlySet<RoleId> = new Set<RoleId>([
  "sheriff",
  "sergeant",
  "doctor",
  "girl",
  "prosecutor",
]);

/** What a player knows of the others, read from the view alone. */
interface Knowledge {
  readonly me: Seat;
  readonly role: RoleId;
  readonly view: GameView;
  readonly exposed: ReadonlyMap<Seat, "boss" | "doctor">;
  /** T2: the pair's check results with an answer (a failed check tells nothing). */
  readonly checked: ReadonlyMap<Seat, "mafia" | "not mafia">;
  /** Issue 28: the roles announced to everyone, when only those may be read (knowPublic); else null. */
  readonly announced: ReadonlyMap<Seat, RoleId> | null;
}

/**
 * Issue 28: what everyone knows of the others, from the public part of a view alone: the roles announced
 * (R1, R2: the results' `revealed`), the exposed boss or doctor (M3, T3a), and (read elsewhere) who is alive,
 * who may not vote, today's and earlier days' votes. Nothing only the viewer knows: not the viewer's own
 * role or team, not the pair's checks. Every voter reads as a citizen would.
 */
function knowPublic(view: GameView): Knowledge | null {
  if (!view.me) return null;
  const exposed = new Map<Seat, "boss" | "doctor">();
  const announced = new Map<Seat, RoleId>();
  for (const r of view.results) {
    if (r.type === "nightResults") for (const e of r.exposed) exposed.set(e.seat, e.as);
    for (const m of r.revealed) announced.set(m.seat, m.role);
  }
  return { me: view.me.seat, role: "citizen", view, exposed, checked: new Map(), announced };
}

function know(view: GameView): Knowledge | null {
  if (!view.me) return null;
  const exposed = new Map<Seat, "boss" | "doctor">();
  for (const r of view.results)
    if (r.type === "nightResults") for (const e of r.exposed) exposed.set(e.seat, e.as);
  const checked = new Map<Seat, "mafia" | "not mafia">();
  for (const p of view.privateResults)
    if (p.check && p.check.result !== "failed") checked.set(p.check.target, p.check.result);
  return { me: view.me.seat, role: view.me.role, view, exposed, checked, announced: null };
}

const alive = (k: Knowledge, s: Seat): boolean => k.view.seats[s]?.alive === true;
const roleOf = (k: Knowledge, s: Seat): RoleId | null =>
  k.announced ? (k.announced.get(s) ?? null) : (k.view.seats[s]?.role ?? null);
const mafiaMate = (k: Knowledge, s: Seat): boolean => {
  const r = roleOf(k, s);
  return r !== null && isMafia(r);
};

/** How guilty `s` looks to the town: known mafia or maniac high, known town low, unknown 0. */
function guilt(k: Knowledge, s: Seat): number {
  const r = roleOf(k, s);
  if (r !== null && s !== k.me) return roleSpec(r).faction === "town" ? -10 : 10;
  if (k.exposed.get(s) === "boss") return 10;
  if (k.exposed.get(s) === "doctor") return -10;
  const c = k.checked.get(s);
  if (c === "mafia") return 10;
  if (c === "not mafia") return -4; // the maniac reads "not mafia" too (T2)
  return 0;
}

/** How much the mafia wants `s` gone: known town power roles first; the shahid's mark is a risk (T6). */
function prey(k: Knowledge, s: Seat): number {
  const r = roleOf(k, s);
  if (k.exposed.get(s) === "doctor") return 6;
  if (r === null) return 0;
  if (TOWN_POWER.has(r)) return 6;
  if (r === "shahid") return -5;
  if (r === "maniac") return 3;
  return 1;
}

/** Today's red votes against `s`, as the thread shows them. */
const redsOn = (k: Knowledge, s: Seat): number =>
  k.view.votes.filter((v) => v.color === "red" && v.target === s).length;

/** Today's red votes by `s` against a player the viewer believes town (+) or guilty (−). */
function redsBy(k: Knowledge, s: Seat): number {
  let score = 0;
  for (const v of k.view.votes) {
    if (v.seat !== s || v.color !== "red") continue;
    const g = guilt(k, v.target);
    if (g < 0) score += 2;
    else if (g > 0) score -= 2;
  }
  return score;
}

/**
 * Earlier days' votes, read against what the viewer now knows of their targets, scored per voter: red on
 * a player now known town, or blue defending one now known guilty, looks bad (+); the reverse looks good
 * (−). One pass over the votes, so a bot's vote costs the same on day 1 and day 6.
 */
function scoresOf(k: Knowledge): Map<Seat, number> {
  const score = new Map<Seat, number>();
  for (const v of k.view.pastVotes) {
    const g = guilt(k, v.target);
    if (g === 0) continue;
    const againstTown = g < 0;
    const d = v.color === "red" ? (againstTown ? 2 : -1) : againstTown ? -1 : 2;
    score.set(v.seat, (score.get(v.seat) ?? 0) + d);
  }
  return score;
}

const formAct = (form: NightForm, act: NightFormAct["act"]): NightFormAct | undefined =>
  form.acts.find((a) => a.act === act);

const PASS: NightAction = { act: "pass" };

/** A targeted act at the best of its targets; null if the form does not offer it. */
function aim(
  form: NightForm,
  kind: TargetedAct,
  score: (s: Seat) => number,
  rng: RandomStream,
): NightAction | null {
  const a = formAct(form, kind);
  if (!a) return null;
  const target = best(a.targets, score, rng);
  return target === null ? null : { act: kind, target };
}

/** M1: whether the viewer is the current boss, from the mafia they know and who is alive. */
function amBoss(k: Knowledge): boolean {
  const mine = roleSpec(k.role).succession;
  if (mine === null) return false;
  for (const s of k.view.seats) {
    if (s.seat === k.me || !s.alive || s.role === null) continue;
    const rank = roleSpec(s.role).succession;
    if (rank !== null && rank < mine) return false;
  }
  return true;
}

/**
 * M2: kill the likeliest town role; now and then kill and intimidate, or kill two; and one night in twenty
 * ask the council one of its listed questions (M2c), which the rules answer even without a GM.
 */
function mafiaAction(k: Knowledge, form: NightForm, rng: RandomStream): NightAction | null {
  const a = formAct(form, "mafia");
  const limits = form.mafiaLimits;
  if (!a || !limits || a.targets.length === 0) return null;
  const ranked = a.targets
    .map((s) => ({ s, score: prey(k, s) + (int(rng, 1000) * 3) / 1000 }))
    .sort((x, y) => y.score - x.score)
    .map((x) => x.s);
  const [first, second] = ranked;
  const r = int(rng, 100);
  const questions = formAct(form, "council")?.questions ?? [];
  if (r >= 95 && questions.length > 0)
    return { act: "council", question: questions[int(rng, questions.length)]!.text };
  if (second !== undefined && r < 10 && limits.kill >= 2)
    return { act: "mafia", kill: [first!, second], intimidate: [] };
  if (second !== undefined && r < 35 && limits.intimidate >= 1)
    return { act: "mafia", kill: [first!], intimidate: [second] };
  return { act: "mafia", kill: [first!], intimidate: [] };
}

function mafiosoAction(k: Knowledge, form: NightForm, rng: RandomStream): NightAction | null {
  const boss = amBoss(k);
  const block = (): NightAction | null =>
    aim(form, "block", (s) => (mafiaMate(k, s) ? -100 : prey(k, s)), rng);
  if (boss) {
    // M6: a thug who is boss chooses between the mafia's action and the block.
    if (k.role === "thug" && chance(rng, 20)) return block() ?? mafiaAction(k, form, rng);
    return mafiaAction(k, form, rng);
  }
  // M5: the lawyer protects the teammate most at risk: an exposed one, else the boss, else himself.
  if (formAct(form, "protect"))
    return aim(
      form,
      "protect",
      (s) =>
        !mafiaMate(k, s)
          ? -100
          : (k.exposed.get(s) === "boss" ? 5 : 0) + (s === k.me ? 1 : 0) + (amBossSeat(k, s) ? 2 : 0),
      rng,
    );
  if (formAct(form, "block")) return block();
  // The troll and the elf back the boss's action up (M4: it counts if the boss sends nothing).
  return mafiaAction(k, form, rng);
}

/** Whether `s` is the current boss as the mafia see it (M1). */
function amBossSeat(k: Knowledge, s: Seat): boolean {
  const r = roleOf(k, s);
  return r !== null && alive(k, s) && amBoss({ ...k, me: s, role: r });
}

/** N1: mostly a quick kill; a bloody kill or a torture now and then. Known mafia first. */
function maniacAction(k: Knowledge, form: NightForm, rng: RandomStream): NightAction | null {
  const r = int(rng, 100);
  const kind: TargetedAct = r < 65 ? "quickKill" : r < 85 ? "bloodyKill" : "torture";
  const score = (s: Seat): number => {
    const role = roleOf(k, s);
    if (role === "shahid") return -5;
    return Math.max(guilt(k, s), 0) + (role !== null && TOWN_POWER.has(role) ? 3 : 0);
  };
  return aim(form, kind, score, rng) ?? aim(form, "quickKill", score, rng);
}

/** T1, T2: shoot a player the checks found to be mafia; else leave the slot to the sergeant's check. */
function pairAction(k: Knowledge, form: NightForm, rng: RandomStream): NightAction | null {
  const shoot = formAct(form, "shoot");
  if (shoot) {
    const bad = shoot.targets.filter((s) => guilt(k, s) >= 10);
    const target = best(bad, (s) => guilt(k, s), rng);
    if (target !== null) return { act: "shoot", target };
  }
  const check = formAct(form, "check");
  if (check) {
    const slot = k.view.submissions.find((s) => s.slot === "pair");
    if (slot && slot.action.act === "shoot") return null; // the sheriff's shot stands (T1)
    const fresh = check.targets.filter(
      (s) => roleOf(k, s) === null && !k.checked.has(s) && !k.exposed.has(s),
    );
    const target = best(fresh, () => 0, rng);
    if (target !== null) return { act: "check", target };
  }
  if (shoot) {
    const partner = k.view.seats.find((s) => s.seat !== k.me && s.role === "sergeant");
    if (partner?.alive) return null; // the sergeant will check (T1: one action for the pair)
    if (chance(rng, 20)) {
      const target = best(shoot.targets, (s) => guilt(k, s), rng);
      if (target !== null && guilt(k, target) >= 0) return { act: "shoot", target };
    }
  }
  return PASS;
}

/** T3: heal the likeliest target (self, or a known town role), now and then serum or poison. */
function doctorAction(k: Knowledge, form: NightForm, rng: RandomStream): NightAction | null {
  const poison = formAct(form, "poison");
  if (poison && chance(rng, 30)) {
    const target = best(
      poison.targets.filter((s) => guilt(k, s) >= 10),
      (s) => guilt(k, s),
      rng,
    );
    if (target !== null) return { act: "poison", target };
  }
  const serum = formAct(form, "serum");
  if (serum && chance(rng, 15)) {
    const target = best(
      serum.targets.filter((s) => roleOf(k, s) === null && !k.exposed.has(s)),
      () => 0,
      rng,
    );
    if (target !== null) return { act: "serum", target };
  }
  const heal = aim(
    form,
    "heal",
    (s) => {
      if (s === k.me) return k.exposed.get(s) === "doctor" ? 4 : 2;
      const r = roleOf(k, s);
      return r !== null && TOWN_POWER.has(r) ? 3 : guilt(k, s) > 0 ? -10 : 0;
    },
    rng,
  );
  return heal ?? PASS;
}

/** What a player decides tonight, or null to send nothing (no act, or the team's slot is in hand). */
export function botNightAction(v: BotView, rng: RandomStream): NightAction | null {
  const k = know(v.view);
  const form = v.form;
  if (!k || !form || form.acts.length === 0 || !alive(k, k.me)) return null;
  const suspect = (s: Seat): number => guilt(k, s);
  let action: NightAction | null;
  switch (k.role) {
    case "boss":
    case "troll":
    case "elf":
    case "lawyer":
    case "thug":
      action = mafiosoAction(k, form, rng);
      break;
    case "maniac":
      action = maniacAction(k, form, rng);
      break;
    case "sheriff":
    case "sergeant":
      return pairAction(k, form, rng);
    case "doctor":
      action = doctorAction(k, form, rng);
      break;
    case "girl":
      action = aim(form, "visit", suspect, rng);
      break;
    case "prosecutor":
      action = aim(form, "unprotect", suspect, rng);
      break;
    case "shahid":
      action = aim(form, "mark", suspect, rng);
      break;
    case "citizen":
      action = null;
      break;
    default: {
      const never: never = k.role;
      throw new Error(`unknown role ${String(never)}`);
    }
  }
  return action ?? (formAct(form, "pass") ? PASS : null);
}

/** How guilty a player looks to the town: public facts, today's thread and earlier days' votes. */
const townScore = (k: Knowledge, past: ReadonlyMap<Seat, number>, s: Seat): number =>
  2 * guilt(k, s) + redsOn(k, s) + redsBy(k, s) + (past.get(s) ?? 0);

/**
 * Today's vote (V1–V3), or null when the player may not vote: publicVote of the player's view, for every
 * role alike. Nobody votes early.
 *
 * Issue 28: the vote is the one public thing a bot does every day, so it is decided from public facts only
 * and by one rule for all: a town bot's vote tells nothing its view holds beyond the thread (not the pair's
 * checks, not that its partner is the sheriff), and a mafia bot votes as a town bot would in its place (it
 * may vote red for a teammate, and does not defend one for being one), so replaying the public logic cannot
 * tell the one from the other. The mafia's agreed push (issue 16) stays in their chat and their talk.
 */
export function botVote(v: BotView, rng: RandomStream): Vote | null {
  return publicVote(v.view, rng);
}

/** Whom the mafia push by day: the likeliest town role, and the bandwagon already on a player. */
const mafiaScore = (k: Knowledge, s: Seat): number => prey(k, s) + redsOn(k, s);

/**
 * The balance estimate's vote (issue 28: `votes: "informed"`), as every bot voted before issue 28: from
 * everything the bot's own view holds. The town votes red for the player who looks most guilty, the pair's
 * checks included; the doctor now and then blue (V4) for a known town player under fire; the mafia red for
 * the likeliest town role, never for a known mafioso, and now and then blue for a teammate under fire.
 * Nobody watches an estimate's games, so nothing is given away; what it models is a table of players who
 * use what they know, which is how a setup's balance is read. A game a person watches (the demo) votes by
 * publicVote.
 */
export function informedVote(v: BotView, rng: RandomStream): Vote | null {
  const k = know(v.view);
  if (!k || v.view.phase.kind !== "day" || v.view.winner !== null) return null;
  const me = v.view.seats[k.me];
  if (!me?.alive || me.cannotVote) return null;
  const others = v.view.seats.filter((s) => s.alive && s.seat !== k.me).map((s) => s.seat);
  if (others.length === 0) return null;
  if (isMafia(k.role)) {
    const mates = others.filter((s) => mafiaMate(k, s));
    const underFire = best(
      mates.filter((s) => redsOn(k, s) >= 3),
      (s) => redsOn(k, s),
      rng,
    );
    if (underFire !== null && chance(rng, 25)) return { color: "blue", target: underFire, early: false };
    const target = best(
      others.filter((s) => !mafiaMate(k, s)),
      (s) => mafiaScore(k, s),
      rng,
    );
    return target === null ? null : { color: "red", target, early: false };
  }
  if (k.role === "doctor") {
    // V4: the doctor's blue vote counts 3; it goes to a known town player under fire.
    const defend = best(
      others.filter((s) => guilt(k, s) <= -10 && redsOn(k, s) >= 3),
      (s) => redsOn(k, s),
      rng,
    );
    if (defend !== null && chance(rng, 50)) return { color: "blue", target: defend, early: false };
  }
  const past = scoresOf(k);
  const target = best(others, (s) => townScore(k, past, s), rng, 4)!;
  return { color: "red", target, early: false };
}

/**
 * Issue 28: the bots' vote from the public part of `view` (knowPublic) and the voter's seat: now and then
 * (one day in four) blue for a player everyone knows is town (the exposed doctor, a role the serum
 * announced) under fire of three red votes or more (V4); else red for the player who looks most guilty
 * (townScore, with a little noise). The same history and the same random stream give the same vote,
 * whatever the voter's role.
 */
export function publicVote(view: GameView, rng: RandomStream): Vote | null {
  const k = knowPublic(view);
  if (!k || view.phase.kind !== "day" || view.winner !== null) return null;
  const me = view.seats[k.me];
  if (!me?.alive || me.cannotVote) return null;
  const others = view.seats.filter((s) => s.alive && s.seat !== k.me).map((s) => s.seat);
  if (others.length === 0) return null;
  const defend = best(
    others.filter((s) => guilt(k, s) <= -10 && redsOn(k, s) >= 3),
    (s) => redsOn(k, s),
    rng,
  );
  if (defend !== null && chance(rng, 25)) return { color: "blue", target: defend, early: false };
  // Once a day per bot: worked out afresh (the talk's many reads keep theirs, leaningsOf).
  const past = scoresOf(k);
  const target = best(others, (s) => townScore(k, past, s), rng, 4)!;
  return { color: "red", target, early: false };
}

/**
 * Issue 28: how guilty each living other player looks by the public rule (publicVote's score, before its
 * noise), from the public part of the view alone. It is whom a bot names in the thread as its suspect,
 * whatever its role, so its words tell no more of its role than its vote does.
 */
export function publicSuspicion(view: GameView): ReadonlyMap<Seat, number> {
  let out = PUBLIC_SUSPICION.get(view);
  if (!out) PUBLIC_SUSPICION.set(view, (out = publicSuspicionOf(view)));
  return out;
}

const PUBLIC_SUSPICION = new WeakMap<GameView, ReadonlyMap<Seat, number>>();

function publicSuspicionOf(view: GameView): ReadonlyMap<Seat, number> {
  const out = new Map<Seat, number>();
  const k = knowPublic(view);
  if (!k) return out;
  const past = scoresOf(k);
  for (const s of view.seats) if (s.alive && s.seat !== k.me) out.set(s.seat, townScore(k, past, s.seat));
  return out;
}

/**
 * Issue 16, talk: how strongly the player suspects (town) or would push (mafia) each living other player,
 * as botVote scores them before its noise; from the player's view alone. A mafioso's teammates are left out.
 */
export function botSuspicion(view: GameView): ReadonlyMap<Seat, number> {
  // A view folded as the game goes on is the same object until its player learns something (ViewFold):
  // its scores are worked out once.
  let out = SUSPICION.get(view);
  if (!out) SUSPICION.set(view, (out = suspicionOf(view)));
  return out;
}

const SUSPICION = new WeakMap<GameView, ReadonlyMap<Seat, number>>();

function suspicionOf(view: GameView): ReadonlyMap<Seat, number> {
  const out = new Map<Seat, number>();
  const l = leaningsOf(view);
  if (l === null) return out;
  const me = l.me;
  const reds = redsOnAll(view);
  if (l.past === null) {
    // The mafia: mafiaScore, teammates left out.
    for (const s of view.seats)
      if (s.alive && s.seat !== me && !l.mate[s.seat]) out.set(s.seat, l.prey[s.seat]! + reds[s.seat]!);
    return out;
  }
  // The town: townScore, with redsBy read from today's votes in one pass.
  const by = new Array<number>(view.seats.length).fill(0);
  for (const v of view.votes) {
    if (v.color !== "red") continue;
    const g = l.guilt[v.target]!;
    if (g < 0) by[v.seat]! += 2;
    else if (g > 0) by[v.seat]! -= 2;
  }
  for (const s of view.seats)
    if (s.alive && s.seat !== me)
      out.set(s.seat, 2 * l.guilt[s.seat]! + reds[s.seat]! + by[s.seat]! + l.past[s.seat]!);
  return out;
}

/**
 * What a player's suspicion rests on besides today's votes, seat by seat: guilt, prey, teammates and the
 * earlier days' scores (pastScores' sums; null for the mafia, who do not read them). It changes only with
 * the player's seats, results, private results and past votes, so it is worked out once for all the views
 * of a day that differ only in today's votes (the bots talk from dozens of them).
 */
interface Leanings {
  readonly me: Seat;
  readonly results: GameView["results"];
  readonly privateResults: GameView["privateResults"];
  readonly pastVotes: GameView["pastVotes"];
  readonly guilt: readonly number[];
  readonly prey: readonly number[];
  readonly mate: readonly boolean[];
  readonly past: readonly number[] | null;
}
const LEANINGS = new WeakMap<GameView["seats"], Leanings>();

function leaningsOf(view: GameView): Leanings | null {
  if (!view.me) return null;
  const kept = LEANINGS.get(view.seats);
  if (
    kept &&
    kept.me === view.me.seat &&
    kept.results === view.results &&
    kept.privateResults === view.privateResults &&
    kept.pastVotes === view.pastVotes
  )
    return kept;
  const k = know(view)!;
  const n = view.seats.length;
  const guiltOf: number[] = [];
  const preyOf: number[] = [];
  const mate: boolean[] = [];
  for (let s = 0; s < n; s++) {
    guiltOf.push(guilt(k, s));
    preyOf.push(prey(k, s));
    mate.push(mafiaMate(k, s));
  }
  let past: number[] | null = null;
  if (!isMafia(k.role)) {
    const scores = scoresOf(k);
    past = [];
    for (let s = 0; s < n; s++) past.push(scores.get(s) ?? 0);
  }
  const l: Leanings = {
    me: k.me,
    results: view.results,
    privateResults: view.privateResults,
    pastVotes: view.pastVotes,
    guilt: guiltOf,
    prey: preyOf,
    mate,
    past,
  };
  LEANINGS.set(view.seats, l);
  return l;
}

/** Today's red votes on each seat, once per list of votes (the same list for every seat of a BotViews). */
const REDS_ON = new WeakMap<GameView["votes"], readonly number[]>();
function redsOnAll(view: GameView): readonly number[] {
  let reds = REDS_ON.get(view.votes);
  if (!reds || reds.length !== view.seats.length) {
    const counts = new Array<number>(view.seats.length).fill(0);
    for (const v of view.votes) if (v.color === "red") counts[v.target]!++;
    REDS_ON.set(view.votes, (reds = counts));
  }
  return reds;
}

/** A player's BotView of a match as it stands: their own view and tonight's form. */
export function botView(m: Match, seat: Seat): BotView {
  const roles = m.setup.players.map((p) => p.role);
  return {
    view: viewFor(gameEvents(m), { kind: "player", seat }, roles),
    form: nightForm(m.state, seat),
  };
}

/**
 * Every seat's BotView of one game as it goes on: the same BotView as botView, but the match's events are
 * read once (EventReader) and each seat's view folds only the events it has not read yet (ViewFold), from
 * those its player may see. Each call takes the match last given or a later one of the same game.
 */
export class BotViews {
  private readonly events = new EventReader();
  /**
   * The public events folded once for all seats (audience everyone: today's votes, the past votes, the
   * results); each seat's fold shares those lists and folds the rest itself, from what its player may see.
   */
  private readonly publicFold: ViewFold;
  private readonly folds: ViewFold[];
  /** Each seat's night form of `formsOf` (a night's inputs leave the state as it is: one form a night). */
  private formsOf: GameState | null = null;
  private forms: (NightForm | null | undefined)[] = [];

  constructor(m: Match) {
    const roles = m.setup.players.map((p) => p.role);
    this.publicFold = new ViewFold({ kind: "public" }, roles);
    this.folds = roles.map((_, seat) => new ViewFold({ kind: "player", seat }, roles, this.publicFold));
  }

  /** The seat's view of `m`. */
  view(m: Match, seat: Seat): GameView {
    const fold = this.folds[seat]!;
    const events = this.events.read(m);
    this.publicFold.add(events);
    fold.add(events);
    return fold.view();
  }

  /** The seat's BotView of `m`: its view and tonight's form (nightForm of the match's state). */
  of(m: Match, seat: Seat): BotView {
    if (m.state !== this.formsOf) {
      this.formsOf = m.state;
      this.forms = [];
    }
    let form = this.forms[seat];
    if (form === undefined) this.forms[seat] = form = nightForm(m.state, seat);
    return { view: this.view(m, seat), form };
  }
}

export type BotDecision =
  { readonly kind: "act"; readonly action: NightAction } | { readonly kind: "vote"; readonly vote: Vote };

export interface BotGameOptions {
  /**
   * The phase cap (200 by default): playBotGame throws for a game still running after this many phases;
   * playBotGameToCap stops it there and says it did not end (issue 28: a setup whose games stall).
   */
  readonly maxPhases?: number;
  readonly gameOptions?: Partial<GameOptions>;
  /** S3: the role list to deal from the seed (players Игрок1…ИгрокN, one per role); the default 17 when left out. */
  readonly roles?: readonly RoleId[];
  /**
   * Called with the match as it stands before each bot decision is submitted, and the BotView the bot
   * decided from (for tests).
   */
  readonly observe?: (m: Match, seat: Seat, decision: BotDecision, bot: BotView) => void;
  /**
   * Issue 28: how the bots vote. "public" (the default, as in the demo): by one public rule whatever their
   * role (publicVote), so their votes tell nothing of it. "informed": from all each bot knows (informedVote),
   * as the balance estimate plays them.
   */
  readonly votes?: "public" | "informed";
}

function accepted(next: Match | Rejection, what: string): Match {
  if (isRejection(next)) throw new Error(`bot play: ${what} was refused: ${next.message} (${next.clause})`);
  return next;
}

/** The phase cap of a bot game unless `maxPhases` says otherwise: 100 nights and 100 days. */
export const BOT_PHASE_CAP = 200;

/**
 * A whole game of bots (17 unless `roles` says otherwise) dealt from `seed`, to its end (W1). Each seat draws from its own stream
 * (`"bot:" + seed + ":" + seat`); the night rolls are left to the match's seed; the council answers as
 * the rules do (M2c, council.ts). Throws for a game still running at the phase cap.
 */
export function playBotGame(seed: string, options: BotGameOptions = {}): Match {
  const { match, ended } = playBotGameToCap(seed, options);
  if (!ended)
    throw new Error(
      `bot play: the game "${seed}" did not end in ${options.maxPhases ?? BOT_PHASE_CAP} phases`,
    );
  return match;
}

/**
 * The same game as playBotGame, played to its end (W1) or to the phase cap, whichever comes first (issue
 * 28): some legal setups stall. In the classic 17 with `lapseAt: 7` (game `estimate:391`, its votes
 * informed), seven are alive at every night's start, so T4's repeat limit lapses: the girl visits the boss
 * night after night and cancels the mafia's action, the lawyer protects the boss every night (M5), and the
 * boss, the day's top score, is excused every day (V8): nobody dies again. `ended` is false for a game still running after `maxPhases`
 * phases; `match` is then the game as it stood at the cap.
 */
export function playBotGameToCap(
  seed: string,
  options: BotGameOptions = {},
): { readonly match: Match; readonly ended: boolean } {
  const roles = options.roles ?? DEFAULT_ROLES;
  const started = startMatch({
    players: roles.map((_, i) => ({ name: `Игрок${i + 1}` })),
    seed,
    options: options.gameOptions ?? {},
    roles,
  });
  let m = accepted(started, "the deal");
  const seats = m.state.players.length;
  const rngs = m.state.players.map((_, s) => new RandomStream(rngFromSeed(`bot:${seed}:${s}`)));
  const maxPhases = options.maxPhases ?? BOT_PHASE_CAP;
  const informed = options.votes === "informed";
  const views = new BotViews(m);
  for (let phases = 0; m.state.winner === null; phases++) {
    if (phases >= maxPhases) return { match: m, ended: false };
    const offset = phases % seats;
    if (m.state.phase.kind === "night") {
      for (let i = 0; i < seats; i++) {
        const seat = (i + offset) % seats;
        if (!m.state.players[seat]!.alive) continue;
        const v = views.of(m, seat);
        if (v.form === null) continue;
        const action = botNightAction(v, rngs[seat]!);
        if (action === null) continue;
        options.observe?.(m, seat, { kind: "act", action }, v);
        m = accepted(act(m, seat, action), "a night action");
      }
      // M2c: the bots ask only listed questions, which the rules answer (council.ts).
      m = accepted(endNight(m, { rolls: {}, council: councilAnswerTonight(m) ?? "no" }), "closing the night");
    } else {
      for (let i = 0; i < seats && !m.day.closedEarly; i++) {
        const seat = (i + offset) % seats;
        if (!m.state.players[seat]!.alive) continue;
        const v = views.of(m, seat);
        const ballot = informed ? informedVote(v, rngs[seat]!) : botVote(v, rngs[seat]!);
        if (ballot === null) continue;
        options.observe?.(m, seat, { kind: "vote", vote: ballot }, v);
        m = accepted(vote(m, seat, ballot), "a vote");
      }
      m = accepted(endDay(m), "closing the day");
    }
  }
  return { match: m, ended: true };
}
