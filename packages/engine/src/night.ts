import { who, type NightAction, type NightBallots, type TargetedAct } from "./night-action.ts";
import type { Player, Seat } from "./player.ts";
import { reject, type Rejection } from "./rejection.ts";
import { rollChance, type RngState } from "./rng.ts";
import { ROLES, isMafia, type RoleId } from "./roles.ts";
import { countAlive, winnerOf, type GameState, type Phase, type Winner } from "./state.ts";
import { struckOut } from "./strikes.ts";

/** O8: the night's random rolls, in the order they are drawn. */
export const ROLL_NAMES = [
  "bossExposed",
  "doctorExposed",
  "tortureEvidence",
  "girlSilence",
  "thugSilence",
] as const;
export type RollName = (typeof ROLL_NAMES)[number];
const CHANCE: { readonly [R in RollName]: number } = {
  bossExposed: 0.75, // M3
  doctorExposed: 0.5, // T3a
  tortureEvidence: 0.5, // N1c
  girlSilence: 0.5, // T4
  thugSilence: 0.5, // M6
};

export type CouncilAnswer = "yes" | "no" | "rejected";

/** What the GM (or a replay file) brings to the resolution: fixed rolls, the council's answer, modkills. */
export interface NightInput {
  readonly rolls: Partial<Readonly<Record<RollName, boolean>>>;
  readonly council: CouncilAnswer | null;
  /** F2: the GM's modkills, taking effect at the end of the night. */
  readonly modkills: readonly Seat[];
}

export const NO_NIGHT_INPUT: NightInput = { rolls: {}, council: null, modkills: [] };

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

/** The value the steps pass along. Each step returns a new one. */
interface NightWork {
  readonly state: GameState;
  readonly ballots: NightBallots;
  readonly input: NightInput;
  readonly three: boolean;
  // O1
  readonly mafia: NightAction | null;
  readonly mafiaFulfilled: boolean;
  readonly thug: Acting | null;
  readonly girl: Acting | null;
  readonly lawyer: Acting | null;
  readonly prosecutor: Acting | null;
  readonly maniac: (Acting & { readonly act: "bloodyKill" | "quickKill" | "torture" }) | null;
  readonly pair: (Acting & { readonly act: "shoot" | "check" }) | null;
  readonly doctor: { readonly seat: Seat; readonly action: NightAction } | null;
  readonly shahid: Acting | null;
  readonly struck: readonly Seat[];
  readonly strikes: readonly Player[];
  // O2
  readonly blocked: readonly boolean[];
  readonly girlEffective: boolean;
  readonly thugEffective: boolean;
  // O3
  readonly protect: Seat | null;
  readonly unprotect: Seat | null;
  // O4–O6
  readonly attacks: readonly Attack[];
  readonly savedByHealFrom: readonly Seat[];
  readonly killed: readonly boolean[];
  // O7
  readonly intimidated: readonly Seat[];
  readonly doubleAction: boolean;
  readonly tortured: Seat | null;
  readonly poisoned: Seat | null;
  readonly serum: Seat | null;
  readonly check: CheckResult | null;
  readonly council: { readonly question: string; readonly answer: CouncilAnswer } | null;
  readonly modkilled: readonly Seat[];
  // O8
  readonly rng: RngState | null;
  readonly rolls: readonly Roll[];
}

type Step = (w: NightWork) => NightWork | Rejection;

const own = (w: NightWork, seat: Seat | null): NightAction | null =>
  seat === null ? null : (w.ballots.own[seat] ?? null);

function targeted(action: NightAction | null, acts: readonly TargetedAct[]): TargetedAct | null {
  return action && "target" in action && acts.includes(action.act) ? action.act : null;
}

function seatsByRole(players: readonly Player[]): Partial<Record<RoleId, Seat>> {
  const out: Partial<Record<RoleId, Seat>> = {};
  for (let i = 0; i < players.length; i++) {
    const p = players[i]!;
    if (p.alive && p.role !== "citizen") out[p.role] = i;
  }
  return out;
}

/** O1 (M1, M4, P2): who acts tonight, with what; and who missed an action. */
const determineActions: Step = (w) => {
  const { state, ballots } = w;
  const seats = seatsByRole(state.players);
  const boss = state.boss;
  const thugIsBoss = boss !== null && boss === seats.thug;

  // M4: the boss's own submission first, then the other mafiosi by rank.
  let mafia: NightAction | null = null;
  if (thugIsBoss) {
    const a = own(w, boss);
    if (a && a.act !== "block") mafia = a;
  } else if (boss !== null) {
    const order = state.players
      .map((p, i) => ({ p, i }))
      .filter(({ p, i }) => p.alive && isMafia(p.role) && i !== boss)
      .sort((a, b) => (ROLES[a.p.role].succession ?? 99) - (ROLES[b.p.role].succession ?? 99));
    for (const seat of [boss, ...order.map((o) => o.i)]) {
      const a = ballots.mafia[seat];
      if (a) {
        mafia = a;
        break;
      }
    }
  }
  const mafiaFulfilled = mafia !== null || (thugIsBoss && own(w, boss)?.act === "block");

  const pick = (seat: Seat | undefined, acts: readonly TargetedAct[]): Acting | null => {
    if (seat === undefined) return null;
    const a = own(w, seat);
    return a && "target" in a && acts.includes(a.act) ? { seat, target: a.target } : null;
  };
  const maniacAction = own(w, seats.maniac ?? null);
  const maniacAct = targeted(maniacAction, ["bloodyKill", "quickKill", "torture"]);
  const pairAction = ballots.pair;
  const pairAct = targeted(pairAction, ["shoot", "check"]);
  const pairSeat = pairAct === "shoot" ? seats.sheriff : pairAct === "check" ? seats.sergeant : undefined;
  const doctorAction = own(w, seats.doctor ?? null);

  // P2: a missing action (no act, no pass) is a strike and +2 tomorrow.
  const struck: Seat[] = [];
  if (boss !== null && !mafiaFulfilled) struck.push(boss);
  for (let i = 0; i < state.players.length; i++) {
    const p = state.players[i]!;
    if (!p.alive || i === boss) continue;
    const act = ROLES[p.role].ownAct;
    if (act === "pair") {
      if (pairAction === null) struck.push(i);
    } else if (act !== null && ballots.own[i] === null) struck.push(i);
  }

  return {
    ...w,
    mafia: mafia && mafia.act !== "pass" ? mafia : null,
    mafiaFulfilled,
    thug: pick(seats.thug, ["block"]),
    girl: pick(seats.girl, ["visit"]),
    lawyer: boss === seats.lawyer ? null : pick(seats.lawyer, ["protect"]),
    prosecutor: pick(seats.prosecutor, ["unprotect"]),
    maniac:
      maniacAct !== null && maniacAction && "target" in maniacAction
        ? {
            seat: seats.maniac!,
            target: maniacAction.target,
            act: maniacAct as "bloodyKill" | "quickKill" | "torture",
          }
        : null,
    pair:
      pairAct !== null && pairSeat !== undefined && pairAction && "target" in pairAction
        ? { seat: pairSeat, target: pairAction.target, act: pairAct as "shoot" | "check" }
        : null,
    doctor:
      doctorAction && doctorAction.act !== "pass" ? { seat: seats.doctor!, action: doctorAction } : null,
    shahid: pick(seats.shahid, ["mark"]),
    struck,
  };
};

/** O2 (M7, T4, M6): the thug's block on the girl wins; else the girl's visit on the thug; then the rest. */
const applyBlocks: Step = (w) => {
  const blocked: boolean[] = new Array<boolean>(w.state.players.length).fill(false);
  const { girl, thug } = w;
  let girlEffective = girl !== null;
  let thugEffective = thug !== null;
  if (thug && girl && thug.target === girl.seat)
    girlEffective = false; // M7
  else if (girl && thug && girl.target === thug.seat) thugEffective = false;
  if (thugEffective) blocked[thug!.target] = true;
  if (girlEffective) blocked[girl!.target] = true;
  return { ...w, blocked, girlEffective, thugEffective };
};

const effective = (w: NightWork, seat: Seat | null | undefined): boolean => seat != null && !w.blocked[seat];

/** O3 (M5, T5): the protect and the unprotect for tomorrow, if not blocked. */
const recordProtection: Step = (w) => ({
  ...w,
  protect: w.lawyer && effective(w, w.lawyer.seat) ? w.lawyer.target : null,
  unprotect: w.prosecutor && effective(w, w.prosecutor.seat) ? w.prosecutor.target : null,
});

/** O4: mafia kills, the maniac's kill with its collateral (N1a, M8), the sheriff's shot. */
const collectAttacks: Step = (w) => {
  const attacks: Attack[] = [];
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
  return { ...w, attacks };
};

interface DoctorCover {
  readonly heal: Seat | null;
  readonly healFrom: "mafia" | "maniac" | "sheriff" | null;
}

function doctorCover(w: NightWork): DoctorCover {
  const d = w.doctor;
  if (!d || !effective(w, d.seat)) return { heal: null, healFrom: null };
  if (d.action.act === "heal") return { heal: d.action.target, healFrom: null };
  if (d.action.act === "healFrom") return { heal: null, healFrom: d.action.role };
  return { heal: null, healFrom: null };
}

/** T3b with T3e's second limit: a heal on a player whom last night's heal-from-role saved does nothing. */
function healWorks(w: NightWork, cover: DoctorCover, target: Seat): boolean {
  if (cover.heal !== target) return false;
  return w.three || !w.state.memory.savedByHealFrom.includes(target);
}

/** O5 (T3b, T3c, T3e): the doctor cancels attacks. */
const cancelByDoctor: Step = (w) => {
  const cover = doctorCover(w);
  const saved: Seat[] = [];
  const attacks = w.attacks.map((a): Attack => {
    if (healWorks(w, cover, a.target)) return { ...a, cancelledBy: "heal" };
    // T3e, third limit: heal-from-role does not protect last night's heal target.
    if (cover.healFrom === a.source && (w.three || w.state.memory.healTarget !== a.target)) {
      saved.push(a.target);
      return { ...a, cancelledBy: "healFrom" };
    }
    return a;
  });
  return { ...w, attacks, savedByHealFrom: saved };
};

/** O6 (T6): an attacked, unblocked shahid takes the marked player along; a heal on the marked saves them. */
const shahidMark: Step = (w) => {
  const s = w.shahid;
  let attacks = w.attacks;
  // T6: the mark fires even if the doctor saved the shahid (attacks are counted before O5 cancels them).
  if (s && effective(w, s.seat) && attacks.some((a) => a.target === s.seat)) {
    const healed = healWorks(w, doctorCover(w), s.target);
    attacks = [
      ...attacks,
      { target: s.target, by: s.seat, source: "shahid", kind: "mark", cancelledBy: healed ? "heal" : null },
    ];
  }
  const killed: boolean[] = new Array<boolean>(w.state.players.length).fill(false);
  for (const a of attacks) if (a.cancelledBy === null) killed[a.target] = true;
  // N1a: a player saved from the maniac does not stay "saved" if the same night killed them anyway.
  const savedByHealFrom = w.savedByHealFrom.filter((seat) => !killed[seat]);
  return { ...w, attacks, killed, savedByHealFrom };
};

/** O7: intimidation, torture, poison, serum, the check, the council; modkills at the phase end (P2, P3, F2). */
const nonLethal: Step = (w) => {
  const boss = w.state.boss;
  const mafiaEffective = w.mafia !== null && effective(w, boss);
  const intimidated = mafiaEffective && w.mafia!.act === "mafia" ? w.mafia!.intimidate : [];
  const kills = mafiaEffective && w.mafia!.act === "mafia" ? w.mafia!.kill.length : 0;
  const doubleAction = kills + intimidated.length >= 2 && kills >= 1; // M3: two kills, or a kill and an intimidation
  const maniacEffective = w.maniac !== null && effective(w, w.maniac.seat);
  const d = w.doctor && effective(w, w.doctor.seat) ? w.doctor.action : null;
  const p = w.pair;
  let check: CheckResult | null = null;
  if (p && p.act === "check")
    check = {
      target: p.target,
      result: effective(w, p.seat) ? ROLES[w.state.players[p.target]!.role].checksAs : "failed", // T2
    };
  let council: NightWork["council"] = null;
  if (mafiaEffective && w.mafia!.act === "council") {
    const answer = w.input.council;
    if (answer === null)
      return reject(
        "night/council-unanswered",
        "M2c",
        `${who(w.state, boss!)} asked the council and no answer was given`,
      );
    council = { question: w.mafia!.question, answer };
  }

  // P3 at the end of the night: a second strike is a modkill; F2: the GM's modkills. Never a player who died.
  const strikes = w.state.players.map((pl, i) =>
    w.struck.includes(i) ? { ...pl, nightStrikes: pl.nightStrikes + 1 } : pl,
  );
  const modkilled: Seat[] = [];
  for (let i = 0; i < strikes.length; i++) {
    if (w.killed[i] || !strikes[i]!.alive) continue;
    if ((w.struck.includes(i) && struckOut(strikes[i]!, w.state.options)) || w.input.modkills.includes(i))
      modkilled.push(i);
  }
  return {
    ...w,
    strikes,
    intimidated,
    doubleAction: mafiaEffective && doubleAction,
    tortured: maniacEffective && w.maniac!.act === "torture" ? w.maniac!.target : null,
    poisoned: d && d.act === "poison" ? d.target : null,
    serum: d && d.act === "serum" ? d.target : null,
    check,
    council,
    modkilled,
  };
};

const survives = (w: NightWork, seat: Seat | null): boolean =>
  seat !== null && !w.killed[seat] && !w.modkilled.includes(seat);

/** O8: each roll is needed only when its effect could show; fixed rolls win, the rest are drawn in order. */
const drawRolls: Step = (w) => {
  const needed: { readonly [R in RollName]: boolean } = {
    bossExposed: w.doubleAction && survives(w, w.state.boss), // M3: a boss who dies is not exposed
    doctorExposed: w.serum !== null && survives(w, w.doctor?.seat ?? null), // T3a
    tortureEvidence: survives(w, w.tortured), // N1c: a victim who dies is announced as a death
    girlSilence: w.girl !== null && w.girlEffective && survives(w, w.girl.target), // T4
    thugSilence: w.thug !== null && w.thugEffective && survives(w, w.thug.target), // M6
  };
  let rng = w.rng;
  const rolls: Roll[] = [];
  for (const name of ROLL_NAMES) {
    if (!needed[name]) continue;
    const fixed = w.input.rolls[name];
    if (fixed !== undefined) {
      rolls.push({ name, value: fixed, fixed: true });
    } else if (rng !== null) {
      const r = rollChance(rng, CHANCE[name]);
      rng = r.state;
      rolls.push({ name, value: r.value, fixed: false });
    } else {
      return reject(
        "night/roll-needed",
        "O8",
        `the roll ${name} is needed, but it is not fixed and there is no seed`,
      );
    }
  }
  return { ...w, rng, rolls };
};

const rolled = (w: NightWork, name: RollName): boolean => w.rolls.some((r) => r.name === name && r.value);

const sortSeats = (seats: Iterable<Seat>): Seat[] => [...new Set(seats)].sort((a, b) => a - b);

/** The outcome and the next state, from the finished work (O9: deaths, reveals, succession, win). */
function finish(w: NightWork): { state: GameState; outcome: NightOutcome } {
  const { state } = w;
  const died = sortSeats([...w.killed.flatMap((k, i) => (k ? [i] : [])), ...w.modkilled]);
  const players = w.strikes.map((p, i) => (died.includes(i) ? { ...p, alive: false } : p));
  const revealed = new Map<Seat, RoleId>();
  const r1 = state.aliveAtStart > 10;
  // N1a / R2: only a bloody kill that itself succeeded reveals the victim and names the maniac.
  const bloodyVictims = w.attacks
    .filter((a) => a.kind === "bloodyKill" && a.cancelledBy === null)
    .map((a) => a.target);
  for (const seat of died) if (r1 || bloodyVictims.includes(seat)) revealed.set(seat, players[seat]!.role);
  if (w.serum !== null) revealed.set(w.serum, players[w.serum]!.role); // R2, T3a
  const exposed = new Map<Seat, "boss" | "doctor">();
  if (rolled(w, "bossExposed")) exposed.set(state.boss!, "boss");
  if (rolled(w, "doctorExposed")) exposed.set(w.doctor!.seat, "doctor");
  const tortureEvidence = rolled(w, "tortureEvidence") ? [w.tortured!] : [];

  const alive = (s: Seat): boolean => players[s]!.alive;
  const silencedToday = sortSeats(
    [
      ...state.memory.silencedNext,
      ...w.intimidated,
      ...(w.tortured !== null ? [w.tortured] : []),
      ...(w.poisoned !== null ? [w.poisoned] : []),
      ...(rolled(w, "girlSilence") ? [w.girl!.target] : []),
      ...(rolled(w, "thugSilence") ? [w.thug!.target] : []),
    ].filter(alive),
  );
  const silencedNext = sortSeats(
    [...(w.tortured !== null ? [w.tortured] : []), ...(w.poisoned !== null ? [w.poisoned] : [])].filter(
      alive,
    ),
  );
  const boss = state.boss;
  // M3: after a double action, or intimidating at least half of those alive at night start.
  const bossUncounted =
    boss !== null &&
    alive(boss) &&
    (w.doubleAction || (w.intimidated.length > 0 && w.intimidated.length * 2 >= state.aliveAtStart))
      ? boss
      : null;
  const winner = winnerOf(players);
  const doctorHeal = w.doctor && w.doctor.action.act === "heal" ? w.doctor.action.target : null;
  const next: GameState = {
    ...state,
    players,
    phase: { kind: "day", number: state.phase.number },
    aliveAtStart: countAlive(players),
    rng: w.rng,
    memory: {
      own: w.ballots.own,
      healTarget: doctorHeal,
      savedByHealFrom: w.savedByHealFrom,
      silencedNext,
    },
    day: {
      silenced: silencedToday,
      bossUncounted,
      protect: w.protect,
      unprotect: w.unprotect,
      penalty: w.struck.filter(alive),
    },
    winner,
  };
  const outcome: NightOutcome = {
    phase: state.phase,
    died,
    revealed,
    exposed,
    bloodyVictims: bloodyVictims.filter((s) => died.includes(s)),
    tortureEvidence,
    serum: w.serum,
    silenced: silencedToday,
    check: w.check,
    council: w.council,
    modkilled: sortSeats(w.modkilled),
    struck: sortSeats(w.struck),
    winner,
    rolls: w.rolls,
    attacks: w.attacks,
    blocked: w.blocked.flatMap((b, i) => (b ? [i] : [])),
  };
  return { state: next, outcome };
}

/** RULES.md §9, in order: the position in this list is the priority. */
export const NIGHT_STEPS: readonly { readonly clause: string; readonly step: Step }[] = [
  { clause: "O1", step: determineActions },
  { clause: "O2", step: applyBlocks },
  { clause: "O3", step: recordProtection },
  { clause: "O4", step: collectAttacks },
  { clause: "O5", step: cancelByDoctor },
  { clause: "O6", step: shahidMark },
  { clause: "O7", step: nonLethal },
  { clause: "O8", step: drawRolls },
];

/** Resolve the night at its deadline (O0: all actions are simultaneous). */
export function resolveNight(
  state: GameState,
  ballots: NightBallots,
  input: NightInput,
): { state: GameState; outcome: NightOutcome } | Rejection {
  if (state.winner !== null) return reject("game/over", "W1", "the game is over");
  if (state.phase.kind !== "night") return reject("night/out-of-phase", "O9", "there is no night to resolve");
  let w: NightWork | Rejection = {
    state,
    ballots,
    input,
    three: state.aliveAtStart === 3,
    mafia: null,
    mafiaFulfilled: false,
    thug: null,
    girl: null,
    lawyer: null,
    prosecutor: null,
    maniac: null,
    pair: null,
    doctor: null,
    shahid: null,
    struck: [],
    strikes: state.players,
    blocked: [],
    girlEffective: false,
    thugEffective: false,
    protect: null,
    unprotect: null,
    attacks: [],
    savedByHealFrom: [],
    killed: [],
    intimidated: [],
    doubleAction: false,
    tortured: null,
    poisoned: null,
    serum: null,
    check: null,
    council: null,
    modkilled: [],
    rng: state.rng,
    rolls: [],
  };
  for (const { step } of NIGHT_STEPS) {
    w = step(w);
    if ("rejected" in w) return w;
  }
  return finish(w);
}
