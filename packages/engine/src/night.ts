/**
 * RULES.md §9: the night resolved as one list of steps, NIGHT_STEPS, in the order of its clauses.
 *
 * Why the steps fill in one mutable NightWork instead of each returning a new value (STYLE.md): the
 * engine benchmark (npm run bench:engine) times every resolution, and a copy of the record per step
 * costs more than the steps themselves. The record is made fresh by resolveNight and never leaves it,
 * so the resolution stays a pure function of its inputs.
 */
import { ROLL_CHANCES, ROLL_NAMES, SUCCESSION, type RollName } from "@forum-mafia/rules";
import {
  who,
  type HealFromRole,
  type NightAction,
  type NightBallots,
  type TargetedAct,
} from "./night-action.ts";
import { withPlayer, type Player, type Seat } from "./player.ts";
import { reject, type Rejection } from "./rejection.ts";
import { rollChance, type RngState } from "./rng.ts";
import { roleSpec, type RoleId } from "./roles.ts";
import { aliveIn, headcount, winnerIn, type GameState, type Phase, type Winner } from "./state.ts";
import { struckOut } from "./strikes.ts";

// O8: the night's rolls (their names, order and chances) are the rules' facts, in @forum-mafia/rules.
export type { RollName };

export type CouncilAnswer = "yes" | "no" | "rejected";

/** What the GM (or a replay file) brings to the resolution: fixed rolls, the council's answer, modkills. */
export interface NightInput {
  readonly rolls: Partial<Readonly<Record<RollName, boolean>>>;
  readonly council: CouncilAnswer | null;
  /** F2: the GM's modkills, taking effect at the end of the night. */
  readonly modkills: readonly Seat[];
}

export type AttackSource = "mafia" | "maniac" | "sheriff" | "shahid";
export interface Attack {
  readonly target: Seat;
  readonly by: Seat;
  readonly source: AttackSource;
  readonly kind: "kill" | "bloodyKill" | "quickKill" | "collateral" | "shot" | "mark";
  readonly cancelledBy: "heal" | "healFrom" | null;
}

export interface Roll {
  readonly name: RollName;
  readonly value: boolean;
  /** Fixed by the GM or the replay file rather than drawn from the seed (F2). */
  readonly fixed: boolean;
}

export interface CheckResult {
  readonly target: Seat;
  readonly result: "mafia" | "not mafia" | "failed";
}

/** Everything the night decided; announcements and views are made from it (A1, A2). */
export interface NightOutcome {
  readonly phase: Phase;
  readonly died: readonly Seat[];
  /** R1, R2 and the serum: seat → role announced. */
  readonly revealed: ReadonlyMap<Seat, RoleId>;
  readonly exposed: ReadonlyMap<Seat, "boss" | "doctor">;
  /** N1a: victims of a successful bloody kill. */
  readonly bloodyVictims: readonly Seat[];
  /** N1c: tortured players whom the town learns were the maniac's. */
  readonly tortureEvidence: readonly Seat[];
  readonly serum: Seat | null;
  readonly silenced: readonly Seat[];
  readonly check: CheckResult | null;
  readonly council: { readonly question: string; readonly answer: CouncilAnswer } | null;
  readonly modkilled: readonly Seat[];
  /** P2: who missed their night action. */
  readonly struck: readonly Seat[];
  readonly winner: Winner | null;
  readonly rolls: readonly Roll[];
  readonly attacks: readonly Attack[];
  readonly blocked: readonly Seat[];
}

interface Acting {
  readonly seat: Seat;
  readonly target: Seat;
}

/**
 * The living holder of each role tonight, or null (roles other than citizen appear once, S3). The
 * citizens, many and without a night act (T7), are never cast: `citizen` stays null.
 */
type Cast = { readonly [R in RoleId]: Seat | null };

/**
 * The table the cast was last worked out for, and its cast: a night reads it twice (the council's answer
 * before the resolution, then the resolution). Only a cache: a players list never changes, a cast is read only.
 */
let castPlayers: readonly Player[] | null = null;
let castCache: Cast | null = null;

function castOf(players: readonly Player[]): Cast {
  if (players === castPlayers && castCache !== null) return castCache;
  const c = castFrom(players);
  castPlayers = players;
  castCache = c;
  return c;
}

function castFrom(players: readonly Player[]): Cast {
  const c: { -readonly [R in RoleId]: Seat | null } = {
    boss: null,
    troll: null,
    elf: null,
    lawyer: null,
    thug: null,
    maniac: null,
    sheriff: null,
    sergeant: null,
    doctor: null,
    girl: null,
    prosecutor: null,
    shahid: null,
    citizen: null,
  };
  // A switch rather than `c[p.role] = i`: a store under a varying key is slow, and this runs every night.
  for (let i = 0; i < players.length; i++) {
    const p = players[i]!;
    if (!p.alive) continue;
    switch (p.role) {
      case "boss":
        c.boss = i;
        break;
      case "troll":
        c.troll = i;
        break;
      case "elf":
        c.elf = i;
        break;
      case "lawyer":
        c.lawyer = i;
        break;
      case "thug":
        c.thug = i;
        break;
      case "maniac":
        c.maniac = i;
        break;
      case "sheriff":
        c.sheriff = i;
        break;
      case "sergeant":
        c.sergeant = i;
        break;
      case "doctor":
        c.doctor = i;
        break;
      case "girl":
        c.girl = i;
        break;
      case "prosecutor":
        c.prosecutor = i;
        break;
      case "shahid":
        c.shahid = i;
        break;
      case "citizen":
        break;
      default: {
        const never: never = p.role;
        throw new Error(`unknown role ${String(never)}`);
      }
    }
  }
  return c;
}

/**
 * The work of one resolution. resolveNight makes a fresh one, each step of NIGHT_STEPS fills in its part
 * in turn, and nothing outside resolveNight ever sees it (why it is mutable: see the top of this file).
 */
interface NightWork {
  readonly state: GameState;
  readonly ballots: NightBallots;
  readonly input: NightInput;
  /** T3e, T4, T6, M6: the limits that lapse when 3 are alive at night start. */
  readonly three: boolean;
  readonly cast: Cast;
  // O1
  mafia: NightAction | null;
  thug: Acting | null;
  girl: Acting | null;
  lawyer: Acting | null;
  prosecutor: Acting | null;
  maniac: (Acting & { readonly act: "bloodyKill" | "quickKill" | "torture" }) | null;
  pair: (Acting & { readonly act: "shoot" | "check" }) | null;
  doctor: { readonly seat: Seat; readonly action: NightAction } | null;
  shahid: Acting | null;
  struck: Seat[];
  // O2
  /** The seats blocked tonight (the thug's and the girl's effective targets; at most two, maybe the same). */
  readonly blocked: Seat[];
  girlEffective: boolean;
  thugEffective: boolean;
  // O3
  protect: Seat | null;
  unprotect: Seat | null;
  // O4–O6
  attacks: Attack[];
  readonly savedByHealFrom: Seat[];
  // O7
  intimidated: readonly Seat[];
  doubleAction: boolean;
  tortured: Seat | null;
  poisoned: Seat | null;
  serum: Seat | null;
  check: CheckResult | null;
  council: { readonly question: string; readonly answer: CouncilAnswer } | null;
  // P3 (the strikes counted on the players, then O9's deaths)
  readonly players: Player[];
  readonly modkilled: Seat[];
  // O8
  rng: RngState | null;
  rolls: Roll[];
  // O9
  result: { readonly state: GameState; readonly outcome: NightOutcome } | null;
}

type Step = (w: NightWork) => Rejection | null;

const own = (w: NightWork, seat: Seat | null): NightAction | null =>
  seat === null ? null : (w.ballots.own[seat] ?? null);

/** The seat's own submission if it is `act`, with its target. */
function pick(w: NightWork, seat: Seat | null, act: TargetedAct): Acting | null {
  const a = own(w, seat);
  if (a === null || !("target" in a)) return null;
  return a.act === act ? { seat: seat!, target: a.target } : null;
}

/**
 * M4: the mafia's action tonight as submitted: the boss's own first, then the other living mafiosi's by
 * rank (M1's succession); a thug who is boss has one slot, whose block is no mafia action (M6). A pass
 * counts (it fills the slot, P2); null when no mafia slot is filled.
 */
function mafiaSlotPicked(state: GameState, ballots: NightBallots, cast: Cast): NightAction | null {
  const boss = state.boss;
  if (boss === null) return null;
  if (boss === cast.thug) {
    const a = ballots.own[boss] ?? null;
    return a && a.act !== "block" ? a : null;
  }
  let mafia = ballots.mafia[boss] ?? null;
  for (const role of SUCCESSION) {
    if (mafia !== null) break;
    const seat = cast[role];
    if (seat !== null && seat !== boss) mafia = ballots.mafia[seat] ?? null;
  }
  return mafia;
}

/** M4: the mafia's action tonight as the resolution will take it (a pass: null), blocked or not. */
export function mafiaActionTonight(state: GameState, ballots: NightBallots): NightAction | null {
  const a = mafiaSlotPicked(state, ballots, castOf(state.players));
  return a && a.act !== "pass" ? a : null;
}

/** O1 (M1, M4, P2): who acts tonight, with what; and who missed an action. */
const determineActions: Step = (w) => {
  const { state, ballots, cast } = w;
  const boss = state.boss;
  const thugIsBoss = boss !== null && boss === cast.thug;
  const mafia = mafiaSlotPicked(state, ballots, cast);
  const mafiaFulfilled = mafia !== null || (thugIsBoss && own(w, boss)?.act === "block");
  w.mafia = mafia && mafia.act !== "pass" ? mafia : null;

  w.thug = pick(w, cast.thug, "block");
  w.girl = pick(w, cast.girl, "visit");
  w.lawyer = boss === cast.lawyer ? null : pick(w, cast.lawyer, "protect"); // M5
  w.prosecutor = pick(w, cast.prosecutor, "unprotect");
  w.shahid = pick(w, cast.shahid, "mark");
  const m = own(w, cast.maniac);
  w.maniac =
    m && (m.act === "bloodyKill" || m.act === "quickKill" || m.act === "torture")
      ? { seat: cast.maniac!, target: m.target, act: m.act }
      : null;
  const pair = ballots.pair; // T1: the pair's one action, shot by the sheriff or check by the sergeant
  if (pair && pair.act === "shoot" && cast.sheriff !== null)
    w.pair = { seat: cast.sheriff, target: pair.target, act: "shoot" };
  else if (pair && pair.act === "check" && cast.sergeant !== null)
    w.pair = { seat: cast.sergeant, target: pair.target, act: "check" };
  const d = own(w, cast.doctor);
  w.doctor = d && d.act !== "pass" ? { seat: cast.doctor!, action: d } : null;

  // P2: a missing action (no act, no pass) is a strike and +2 tomorrow.
  if (boss !== null && !mafiaFulfilled) w.struck.push(boss);
  for (let i = 0; i < state.players.length; i++) {
    const p = state.players[i]!;
    if (!p.alive || i === boss) continue;
    const act = roleSpec(p.role).ownAct;
    if (act === "pair") {
      if (pair === null) w.struck.push(i);
    } else if (act !== null && ballots.own[i] === null) w.struck.push(i);
  }
  return null;
};

/** O2 (M7, T4, M6): the thug's block on the girl wins; else the girl's visit on the thug; then the rest. */
const applyBlocks: Step = (w) => {
  const { girl, thug } = w;
  w.girlEffective = girl !== null;
  w.thugEffective = thug !== null;
  if (thug && girl && thug.target === girl.seat)
    w.girlEffective = false; // M7
  else if (girl && thug && girl.target === thug.seat) w.thugEffective = false;
  if (w.thugEffective) w.blocked.push(thug!.target);
  if (w.girlEffective) w.blocked.push(girl!.target);
  return null;
};

const effective = (w: NightWork, seat: Seat | null | undefined): boolean =>
  seat != null && !w.blocked.includes(seat);

/** O3 (M5, T5): the protect and the unprotect for tomorrow, if not blocked. */
const recordProtection: Step = (w) => {
  w.protect = w.lawyer && effective(w, w.lawyer.seat) ? w.lawyer.target : null;
  w.unprotect = w.prosecutor && effective(w, w.prosecutor.seat) ? w.prosecutor.target : null;
  return null;
};

/** O4: mafia kills, the maniac's kill with its collateral (N1a, M8), the sheriff's shot. */
const collectAttacks: Step = (w) => {
  const attacks = w.attacks;
  const boss = w.state.boss;
  // T4: only a block on the current boss stops the mafia's action, whoever sent it.
  if (w.mafia && w.mafia.act === "mafia" && effective(w, boss)) {
    for (const t of w.mafia.kill)
      attacks.push({ target: t, by: boss!, source: "mafia", kind: "kill", cancelledBy: null });
  }
  const m = w.maniac;
  if (m && m.act !== "torture" && effective(w, m.seat)) {
    attacks.push({ target: m.target, by: m.seat, source: "maniac", kind: m.act, cancelledBy: null });
    if (m.act === "bloodyKill") {
      // N1a: the girl who effectively visited the victim and the thug who effectively blocked it.
      if (w.girl && w.girlEffective && w.girl.target === m.target)
        attacks.push({
          target: w.girl.seat,
          by: m.seat,
          source: "maniac",
          kind: "collateral",
          cancelledBy: null,
        });
      if (w.thug && w.thugEffective && w.thug.target === m.target)
        attacks.push({
          target: w.thug.seat,
          by: m.seat,
          source: "maniac",
          kind: "collateral",
          cancelledBy: null,
        }); // M8
    }
  }
  const p = w.pair;
  if (p && p.act === "shoot" && effective(w, p.seat))
    attacks.push({ target: p.target, by: p.seat, source: "sheriff", kind: "shot", cancelledBy: null });
  return null;
};

/** The doctor's effective heal (b) target and heal-from-role, if any. */
const heal = (w: NightWork): Seat | null =>
  w.doctor && w.doctor.action.act === "heal" && effective(w, w.doctor.seat) ? w.doctor.action.target : null;
const healFrom = (w: NightWork): HealFromRole | null =>
  w.doctor && w.doctor.action.act === "healFrom" && effective(w, w.doctor.seat) ? w.doctor.action.role : null;

/** T3b with T3e's second limit: a heal on a player whom last night's heal-from-role saved does nothing. */
function healWorks(w: NightWork, target: Seat): boolean {
  if (heal(w) !== target) return false;
  return w.three || !w.state.memory.savedByHealFrom.includes(target);
}

const cancelled = (a: Attack, by: "heal" | "healFrom"): Attack => ({
  target: a.target,
  by: a.by,
  source: a.source,
  kind: a.kind,
  cancelledBy: by,
});

/** O5 (T3b, T3c, T3e): the doctor cancels attacks. */
const cancelByDoctor: Step = (w) => {
  const from = healFrom(w);
  const attacks = w.attacks;
  for (let i = 0; i < attacks.length; i++) {
    const a = attacks[i]!;
    if (healWorks(w, a.target)) attacks[i] = cancelled(a, "heal");
    // T3e, third limit: heal-from-role does not protect last night's heal target.
    else if (from === a.source && (w.three || w.state.memory.healTarget !== a.target)) {
      w.savedByHealFrom.push(a.target);
      attacks[i] = cancelled(a, "healFrom");
    }
  }
  return null;
};

/** O6 (T6): an attacked, unblocked shahid takes the marked player along; a heal on the marked saves them. */
const shahidMark: Step = (w) => {
  const s = w.shahid;
  // T6: the mark fires even if the doctor saved the shahid (attacks are counted before O5 cancels them).
  if (s && effective(w, s.seat) && w.attacks.some((a) => a.target === s.seat)) {
    const healed = healWorks(w, s.target);
    w.attacks.push({
      target: s.target,
      by: s.seat,
      source: "shahid",
      kind: "mark",
      cancelledBy: healed ? "heal" : null,
    });
  }
  return null;
};

/**
 * Whether an attack kills the seat tonight: one that no heal cancelled (O5, O6). After O6 the attacks are
 * final, so this is the one place a night kill is decided; O9 records the deaths from it.
 */
function killedTonight(w: NightWork, seat: Seat): boolean {
  for (const a of w.attacks) if (a.target === seat && a.cancelledBy === null) return true;
  return false;
}

/** O7: intimidation, torture, poison, serum, the check, the council. */
const nonLethal: Step = (w) => {
  const boss = w.state.boss;
  const hit = w.mafia !== null && effective(w, boss) ? w.mafia : null;
  if (hit && hit.act === "mafia") {
    w.intimidated = hit.intimidate;
    w.doubleAction = hit.kill.length >= 1 && hit.kill.length + hit.intimidate.length >= 2; // M3
  }
  if (w.maniac && w.maniac.act === "torture" && effective(w, w.maniac.seat)) w.tortured = w.maniac.target;
  const d = w.doctor && effective(w, w.doctor.seat) ? w.doctor.action : null;
  if (d && d.act === "poison") w.poisoned = d.target;
  if (d && d.act === "serum") w.serum = d.target;
  const p = w.pair;
  if (p && p.act === "check")
    w.check = {
      target: p.target,
      result: effective(w, p.seat) ? roleSpec(w.state.players[p.target]!.role).checksAs : "failed", // T2
    };
  if (hit && hit.act === "council") {
    const answer = w.input.council;
    if (answer === null)
      return reject(
        "night/council-unanswered",
        "M2c",
        `${who(w.state, boss!)} asked the council and no answer was given`,
      );
    w.council = { question: hit.question, answer };
  }
  return null;
};

/**
 * P3 (with P2 and F2): the strikes for missed actions (found in O1) are counted; a second strike is a
 * modkill, and so is each of the GM's modkills (F2); never a player who died tonight. P3 puts modkills
 * "at the end of the phase" and §9 names no place for them, but M3 and N1c count a modkill among the
 * night's deaths that decide the O8 rolls, so they are settled here, after O7 and before O8.
 */
const strikesAndModkills: Step = (w) => {
  for (const seat of w.struck) {
    const pl = w.players[seat]!;
    w.players[seat] = withPlayer(pl, { nightStrikes: pl.nightStrikes + 1 });
  }
  // Marked first, then read in seat order, so the modkilled come out in ascending order.
  const n = w.players.length;
  const out = marks(n, 0);
  for (const seat of w.struck) if (struckOut(w.players[seat]!, w.state.options)) out[seat] = 1;
  for (const seat of w.input.modkills) out[seat] = 1;
  for (let i = 0; i < n; i++)
    if (out[i] === 1 && w.players[i]!.alive && !killedTonight(w, i)) w.modkilled.push(i);
  return null;
};

/** Whether the seat lives through the night: neither killed (O4–O6) nor modkilled (P3). */
const survives = (w: NightWork, seat: Seat | null): boolean =>
  seat !== null && !killedTonight(w, seat) && !w.modkilled.includes(seat);

/**
 * T4, M6: a silence roll matters only for a player who survives the night and would otherwise still vote
 * tomorrow: not one already silenced by intimidation, torture, poison, or an earlier roll that came true.
 */
function voteAtStake(w: NightWork, seat: Seat): boolean {
  if (!survives(w, seat)) return false;
  if (w.intimidated.includes(seat) || w.tortured === seat || w.poisoned === seat) return false;
  if (w.state.memory.silencedNext.includes(seat)) return false;
  for (const r of w.rolls) if (r.value && r.name === "girlSilence" && w.girl!.target === seat) return false;
  return true;
}

/** O8: each roll is needed only when its effect could show; fixed rolls win, the rest are drawn in order. */
const drawRolls: Step = (w) => {
  for (const name of ROLL_NAMES) {
    // Whose act the roll belongs to, when its effect could show (null: not needed tonight).
    let owner: Seat | null = null;
    switch (name) {
      case "bossExposed": // M3: a boss who dies is not exposed
        if (w.doubleAction && survives(w, w.state.boss)) owner = w.state.boss;
        break;
      case "doctorExposed": // T3a
        if (w.serum !== null && survives(w, w.doctor!.seat)) owner = w.doctor!.seat;
        break;
      case "tortureEvidence": // N1c: a victim who dies is announced as a death
        if (survives(w, w.tortured)) owner = w.maniac!.seat;
        break;
      case "girlSilence": // T4
        if (w.girl !== null && w.girlEffective && voteAtStake(w, w.girl.target)) owner = w.girl.seat;
        break;
      case "thugSilence": // M6
        if (w.thug !== null && w.thugEffective && voteAtStake(w, w.thug.target)) owner = w.thug.seat;
        break;
    }
    if (owner === null) continue;
    const fixed = w.input.rolls[name];
    if (fixed !== undefined) {
      w.rolls.push({ name, value: fixed, fixed: true });
    } else if (w.rng !== null) {
      const r = rollChance(w.rng, ROLL_CHANCES[name]);
      w.rng = r.state;
      w.rolls.push({ name, value: r.value, fixed: false });
    } else {
      return reject(
        "night/roll-needed",
        "O8",
        `the roll ${name} for ${who(w.state, owner)} is needed, but it is not fixed and there is no seed`,
      );
    }
  }
  return null;
};

const BOSS_EXPOSED = 1;
const DOCTOR_EXPOSED = 2;
const TORTURE_EVIDENCE = 4;
const GIRL_SILENCE = 8;
const THUG_SILENCE = 16;

/** The rolls that came out true tonight, one bit each, read in one pass (each is drawn at most once, O8). */
function trueRolls(w: NightWork): number {
  let bits = 0;
  for (const r of w.rolls) {
    if (!r.value) continue;
    switch (r.name) {
      case "bossExposed":
        bits |= BOSS_EXPOSED;
        break;
      case "doctorExposed":
        bits |= DOCTOR_EXPOSED;
        break;
      case "tortureEvidence":
        bits |= TORTURE_EVIDENCE;
        break;
      case "girlSilence":
        bits |= GIRL_SILENCE;
        break;
      case "thugSilence":
        bits |= THUG_SILENCE;
        break;
    }
  }
  return bits;
}

/**
 * Two rows of per-seat marks for concludeNight (the dead, the silenced), reused from night to night: they
 * never leave it, and each is cleared before use.
 */
let MARKS: Uint8Array[] = [new Uint8Array(32), new Uint8Array(32)];
function marks(n: number, row: 0 | 1): Uint8Array {
  if (MARKS[0]!.length < n) MARKS = [new Uint8Array(n), new Uint8Array(n)];
  const m = MARKS[row]!;
  for (let i = 0; i < n; i++) m[i] = 0;
  return m;
}

/** Seats in ascending order (a short list, already nearly sorted: an insertion sort). */
function ascending(seats: readonly Seat[]): Seat[] {
  const out = seats.slice();
  for (let i = 1; i < out.length; i++) {
    const x = out[i]!;
    let j = i - 1;
    while (j >= 0 && out[j]! > x) {
      out[j + 1] = out[j]!;
      j--;
    }
    out[j + 1] = x;
  }
  return out;
}

/**
 * O9: the deaths (the kills that stand after O6, and P3's modkills), the reveals (R1, R2), the silences
 * for the day, succession (M1) and the win check (W1): the next state and the night's outcome.
 */
const concludeNight: Step = (w) => {
  const { state } = w;
  const n = state.players.length;
  const dead = marks(n, 0);
  const attacks = w.attacks;
  for (const a of attacks) if (a.cancelledBy === null) dead[a.target] = 1;
  for (const s of w.modkilled) dead[s] = 1;
  const died: Seat[] = [];
  for (let s = 0; s < n; s++) if (dead[s]) died.push(s);
  const players = w.players;
  for (const s of died) players[s] = withPlayer(players[s]!, { alive: false });
  const revealed = new Map<Seat, RoleId>();
  const r1 = state.aliveAtStart > state.options.revealAbove;
  // N1a / R2: only a bloody kill that itself succeeded reveals the victim and names the maniac.
  const bloodyVictims: Seat[] = [];
  for (const a of attacks)
    if (a.kind === "bloodyKill" && a.cancelledBy === null) bloodyVictims.push(a.target);
  for (const seat of died) if (r1 || bloodyVictims.includes(seat)) revealed.set(seat, players[seat]!.role);
  if (w.serum !== null) revealed.set(w.serum, players[w.serum]!.role); // R2, T3a
  const exposed = new Map<Seat, "boss" | "doctor">();
  const rolls = trueRolls(w);
  const bossExposed = (rolls & BOSS_EXPOSED) !== 0;
  const doctorExposed = (rolls & DOCTOR_EXPOSED) !== 0;
  const tortureEvidence = (rolls & TORTURE_EVIDENCE) !== 0;
  const girlSilence = (rolls & GIRL_SILENCE) !== 0;
  const thugSilence = (rolls & THUG_SILENCE) !== 0;
  if (bossExposed) exposed.set(state.boss!, "boss");
  if (doctorExposed) exposed.set(w.doctor!.seat, "doctor");

  const silenced = marks(n, 1);
  for (const s of state.memory.silencedNext) silenced[s] = 1; // N1c, T3d: the second day
  for (const s of w.intimidated) silenced[s] = 1;
  if (w.tortured !== null) silenced[w.tortured] = 1;
  if (w.poisoned !== null) silenced[w.poisoned] = 1;
  if (girlSilence) silenced[w.girl!.target] = 1;
  if (thugSilence) silenced[w.thug!.target] = 1;
  const silencedToday: Seat[] = [];
  const silencedNext: Seat[] = [];
  for (let s = 0; s < n; s++) {
    if (!players[s]!.alive) continue;
    if (silenced[s]) silencedToday.push(s);
    if (s === w.tortured || s === w.poisoned) silencedNext.push(s);
  }
  const boss = state.boss;
  // M3: after a double action, or intimidating at least half of those alive at night start.
  const bossUncounted =
    boss !== null &&
    players[boss]!.alive &&
    (w.doubleAction || (w.intimidated.length > 0 && w.intimidated.length * 2 >= state.aliveAtStart))
      ? boss
      : null;
  const count = headcount(players);
  const winner = winnerIn(count);
  // T3e, third limit: last night's heal target as submitted, effective or not (as O1b reads the first).
  const doctorHeal = w.doctor && w.doctor.action.act === "heal" ? w.doctor.action.target : null;
  const struck = ascending(w.struck);
  const penalty: Seat[] = [];
  for (const s of struck) if (players[s]!.alive) penalty.push(s);
  // N1a: a player saved from the maniac does not stay "saved" if the same night killed them anyway.
  const savedByHealFrom: Seat[] = [];
  for (const s of w.savedByHealFrom) if (!dead[s]) savedByHealFrom.push(s);
  const bloodyDead: Seat[] = [];
  for (const s of bloodyVictims) if (dead[s]) bloodyDead.push(s);
  const blocked = ascending(w.blocked);
  if (blocked.length === 2 && blocked[0] === blocked[1]) blocked.pop();
  const next: GameState = {
    options: state.options,
    players,
    phase: { kind: "day", number: state.phase.number },
    aliveAtStart: aliveIn(count),
    // M1: succession takes effect from the next night; the day's end names the new boss (day.ts).
    boss: state.boss,
    rng: w.rng,
    memory: {
      own: w.ballots.own,
      pair: w.ballots.pair,
      healTarget: doctorHeal,
      savedByHealFrom,
      silencedNext,
    },
    day: {
      silenced: silencedToday,
      bossUncounted,
      protect: w.protect,
      unprotect: w.unprotect,
      penalty,
    },
    winner,
  };
  const outcome: NightOutcome = {
    phase: state.phase,
    died,
    revealed,
    exposed,
    bloodyVictims: bloodyDead,
    tortureEvidence: tortureEvidence ? [w.tortured!] : [],
    serum: w.serum,
    silenced: silencedToday,
    check: w.check,
    council: w.council,
    // P3: found in seat order (strikesAndModkills), so already ascending.
    modkilled: w.modkilled,
    struck,
    winner,
    rolls: w.rolls,
    attacks,
    blocked,
  };
  w.result = { state: next, outcome };
  return null;
};

/**
 * RULES.md §9, in order: the position in this list is the priority. O0 (all actions are simultaneous) is
 * no step: every step reads the ballots as submitted. P3's strikes and modkills stand where M3 and N1c
 * need them, before O8's rolls. O9, the last, produces the next state and the outcome.
 */
export const NIGHT_STEPS: readonly { readonly clause: string; readonly step: Step }[] = [
  { clause: "O1", step: determineActions },
  { clause: "O2", step: applyBlocks },
  { clause: "O3", step: recordProtection },
  { clause: "O4", step: collectAttacks },
  { clause: "O5", step: cancelByDoctor },
  { clause: "O6", step: shahidMark },
  { clause: "O7", step: nonLethal },
  { clause: "P3", step: strikesAndModkills },
  { clause: "O8", step: drawRolls },
  { clause: "O9", step: concludeNight },
];

/** Resolve the night at its deadline (O0: all actions are simultaneous). */
export function resolveNight(
  state: GameState,
  ballots: NightBallots,
  input: NightInput,
): { state: GameState; outcome: NightOutcome } | Rejection {
  if (state.winner !== null) return reject("game/over", "W1", "the game is over");
  if (state.phase.kind !== "night") return reject("night/out-of-phase", "O9", "there is no night to resolve");
  const w: NightWork = {
    state,
    ballots,
    input,
    three: state.aliveAtStart === state.options.lapseAt,
    cast: castOf(state.players),
    mafia: null,
    thug: null,
    girl: null,
    lawyer: null,
    prosecutor: null,
    maniac: null,
    pair: null,
    doctor: null,
    shahid: null,
    struck: [],
    blocked: [],
    girlEffective: false,
    thugEffective: false,
    protect: null,
    unprotect: null,
    attacks: [],
    savedByHealFrom: [],
    intimidated: [],
    doubleAction: false,
    tortured: null,
    poisoned: null,
    serum: null,
    check: null,
    council: null,
    players: state.players.slice(),
    modkilled: [],
    rng: state.rng,
    rolls: [],
    result: null,
  };
  for (const { step } of NIGHT_STEPS) {
    const refused = step(w);
    if (refused) return refused;
  }
  // A broken invariant, not a refusal: O9, the last step, always produces the result.
  if (w.result === null) throw new Error("the night's steps ended without O9's result");
  return w.result;
}
