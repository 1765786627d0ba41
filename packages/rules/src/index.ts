/**
 * The rules' facts, each written once (issue 14): the roles of RULES.md §1 with their factions, the boss
 * succession (M1), the sheriff/sergeant pair (S2, T1), the night's acts and who has them (O1), the vote
 * weights (V4) and the standard deal (S3). No dependencies and no behaviour: the engine resolves the rules
 * from these tables, and the protocol package hands them to the web app, so a role or an act changed here
 * changes everywhere at once, and the compiler finds every switch that must learn of it.
 */

export const ROLE_IDS = [
  "boss",
  "troll",
  "elf",
  "lawyer",
  "thug",
  "maniac",
  "sheriff",
  "sergeant",
  "doctor",
  "girl",
  "prosecutor",
  "shahid",
  "citizen",
] as const;
export type RoleId = (typeof ROLE_IDS)[number];

export const isRoleId = (value: string): value is RoleId => (ROLE_IDS as readonly string[]).includes(value);

/** S1: the three sides. */
export type Faction = "mafia" | "town" | "maniac";

/** M1: the boss succession, first to last: when the boss dies, the next living one in this list leads. */
export const SUCCESSION: readonly RoleId[] = ["boss", "troll", "elf", "lawyer", "thug"];

/** S2, T1: the sheriff and the sergeant know each other and share one night move. */
export const PAIR_ROLES: readonly RoleId[] = ["sheriff", "sergeant"];
export const inPair = (role: RoleId): boolean => role === "sheriff" || role === "sergeant";

/** Every targeted act: one living player is named (O1a). */
export const TARGETED_ACTS = [
  "block",
  "protect",
  "bloodyKill",
  "quickKill",
  "torture",
  "shoot",
  "check",
  "serum",
  "heal",
  "poison",
  "visit",
  "unprotect",
  "mark",
] as const;
export type TargetedAct = (typeof TARGETED_ACTS)[number];

/** T3c: the roles the doctor may heal a player from. */
export const HEAL_FROM_ROLES = ["mafia", "maniac", "sheriff"] as const;
export type HealFromRole = (typeof HEAL_FROM_ROLES)[number];

/** Every act, in the order forms list them: the mafia's first, the player's own next, the pass last. */
export const ACT_KINDS = [
  "mafia",
  "council",
  "protect",
  "block",
  "bloodyKill",
  "quickKill",
  "torture",
  "shoot",
  "check",
  "serum",
  "heal",
  "healFrom",
  "poison",
  "visit",
  "unprotect",
  "mark",
  "pass",
] as const;
export type ActKind = (typeof ACT_KINDS)[number];

/** The clause each act comes from. */
export const ACT_CLAUSE = {
  mafia: "M2",
  council: "M2c",
  block: "M6",
  protect: "M5",
  bloodyKill: "N1a",
  quickKill: "N1b",
  torture: "N1c",
  shoot: "T1",
  check: "T2",
  serum: "T3a",
  heal: "T3b",
  healFrom: "T3c",
  poison: "T3d",
  visit: "T4",
  unprotect: "T5",
  mark: "T6",
  pass: "P2",
} as const satisfies { readonly [A in ActKind]: string };

/** What a player's own night slot is for (P2: whether a missing action earns a strike). */
export type OwnAct =
  "protect" | "block" | "maniac" | "pair" | "doctor" | "visit" | "unprotect" | "mark" | null;

export interface RoleSpec {
  readonly id: RoleId;
  readonly faction: Faction;
  /** M1: place in the boss succession (SUCCESSION), 1 first; null for roles outside it. */
  readonly succession: number | null;
  /** The role's own night act (the mafia's shared action is separate, M4). */
  readonly ownAct: OwnAct;
  /** O1: the acts a holder of the role may send, in ACT_KINDS order. */
  readonly acts: readonly ActKind[];
  /** The same for the current boss (M5: a lawyer who leads loses the protect; M6: a thug keeps the block). */
  readonly bossActs: readonly ActKind[];
  /** V4: weight of a red and of a blue vote. */
  readonly redWeight: number;
  readonly blueWeight: number;
  /** T2: how the sergeant's check reads this role (the maniac reads "not mafia"). */
  readonly checksAs: "mafia" | "not mafia";
}

const MAFIA_ACTS: readonly ActKind[] = ["mafia", "council"];

function row(
  id: RoleId,
  faction: Faction,
  ownAct: OwnAct,
  own: readonly ActKind[],
  weights: { red: number; blue: number } = { red: 1, blue: 1 },
): RoleSpec {
  const mafia = faction === "mafia";
  const rank = SUCCESSION.indexOf(id);
  const acts: readonly ActKind[] = [...(mafia ? MAFIA_ACTS : []), ...own];
  const withPass = (list: readonly ActKind[]): readonly ActKind[] =>
    mafia || list.length > 0 ? [...list, "pass"] : [];
  return {
    id,
    faction,
    succession: rank < 0 ? null : rank + 1,
    ownAct,
    acts: withPass(acts),
    // M5: the lawyer's protect is not the boss's; every other act stays.
    bossActs: withPass(id === "lawyer" ? MAFIA_ACTS : acts),
    redWeight: weights.red,
    blueWeight: weights.blue,
    checksAs: mafia ? "mafia" : "not mafia",
  };
}

/** RULES.md §1, one row per role. */
export const ROLES: { readonly [R in RoleId]: RoleSpec } = {
  boss: row("boss", "mafia", null, []),
  troll: row("troll", "mafia", null, []),
  elf: row("elf", "mafia", null, []),
  lawyer: row("lawyer", "mafia", "protect", ["protect"]),
  thug: row("thug", "mafia", "block", ["block"]),
  maniac: row("maniac", "maniac", "maniac", ["bloodyKill", "quickKill", "torture"]),
  sheriff: row("sheriff", "town", "pair", ["shoot"]),
  sergeant: row("sergeant", "town", "pair", ["check"]),
  doctor: row("doctor", "town", "doctor", ["serum", "heal", "healFrom", "poison"], { red: 1, blue: 3 }),
  girl: row("girl", "town", "visit", ["visit"]),
  prosecutor: row("prosecutor", "town", "unprotect", ["unprotect"], { red: 2, blue: 1 }),
  shahid: row("shahid", "town", "mark", ["mark"]),
  citizen: row("citizen", "town", null, []),
};

export const factionOf = (role: RoleId): Faction => ROLES[role].faction;
export const MAFIA_ROLES: readonly RoleId[] = ROLE_IDS.filter((r) => ROLES[r].faction === "mafia");

/** S3: the standard table of 17, in the order of RULES.md §1: every role once, and five citizens. */
export const DEFAULT_ROLES: readonly RoleId[] = [...ROLE_IDS, "citizen", "citizen", "citizen", "citizen"];

/**
 * M2c: the council questions the engine answers by itself (docs/readings.md, "M2c"), each with a stable id
 * and its text in both languages. None names a player's role or night action. The Russian text is the
 * canonical one: it is what the mafia's action carries and what a replay file holds. How each question is
 * answered is the engine's (engine/src/council.ts); the web app offers them from here.
 */
export const COUNCIL_QUESTION_IDS = [
  "sheriffAlive",
  "sergeantAlive",
  "doctorAlive",
  "girlAlive",
  "prosecutorAlive",
  "shahidAlive",
  "maniacAlive",
  "maniacMoved",
  "sheriffShot",
  "sergeantCheckedMafia",
  "doctorHealedMafia",
  "doctorHealedFromMafia",
  "girlVisitedMafia",
] as const;
export type CouncilQuestionId = (typeof COUNCIL_QUESTION_IDS)[number];

/**
 * Each question's text, the Russian (canonical) then the English; the Russian avoids gendered verb forms
 * for players (a role's holder may be anyone).
 */
const QUESTION_TEXTS: { readonly [Q in CouncilQuestionId]: readonly [ru: string, en: string] } = {
  sheriffAlive: ["Есть ли среди живых шериф?", "Is the sheriff among the living?"],
  sergeantAlive: ["Есть ли среди живых сержант?", "Is the sergeant among the living?"],
  doctorAlive: ["Есть ли среди живых доктор?", "Is the doctor among the living?"],
  girlAlive: ["Есть ли среди живых девочка?", "Is the girl among the living?"],
  prosecutorAlive: ["Есть ли среди живых прокурор?", "Is the prosecutor among the living?"],
  shahidAlive: ["Есть ли среди живых шахид?", "Is the shahid among the living?"],
  maniacAlive: ["Есть ли среди живых маньяк?", "Is the maniac among the living?"],
  maniacMoved: ["Был ли у маньяка ход прошлой ночью?", "Did the maniac make a move last night?"],
  sheriffShot: ["Был ли прошлой ночью выстрел шерифа?", "Did the sheriff shoot last night?"],
  sergeantCheckedMafia: [
    "Пала ли прошлой ночью проверка сержанта на кого-то из мафии?",
    "Did the sergeant check a mafia member last night?",
  ],
  doctorHealedMafia: [
    "Пало ли прошлой ночью лечение доктора на кого-то из мафии?",
    "Did the doctor heal a mafia member last night?",
  ],
  doctorHealedFromMafia: [
    "Было ли прошлой ночью у доктора лечение от мафии?",
    "Did the doctor heal from the mafia last night?",
  ],
  girlVisitedMafia: [
    "Был ли прошлой ночью визит девочки к кому-то из мафии?",
    "Did the girl visit a mafia member last night?",
  ],
};

/** A listed question's text in a language; the Russian is what the mafia's action and a replay file carry. */
export const councilQuestionText = (id: CouncilQuestionId, lang: "ru" | "en"): string =>
  QUESTION_TEXTS[id][lang === "en" ? 1 : 0];

/** S3: why a role list cannot be dealt, or null when it can. */
export type RoleListFault =
  | { readonly code: "setup/no-players" }
  | { readonly code: "setup/duplicate-role"; readonly role: RoleId }
  | { readonly code: "setup/no-town" }
  | { readonly code: "setup/no-opponent" };

/**
 * S3: any number of players; each role of the table at most once, except `citizen`; at least one town
 * player and at least one mafia member or the maniac. The engine refuses a deal with it, and the setup
 * editor says the same before anything is sent.
 */
export function roleListFault(roles: readonly RoleId[]): RoleListFault | null {
  if (roles.length === 0) return { code: "setup/no-players" };
  const seen = new Set<RoleId>();
  for (const role of roles) {
    if (role !== "citizen" && seen.has(role)) return { code: "setup/duplicate-role", role };
    seen.add(role);
  }
  if (!roles.some((r) => ROLES[r].faction === "town")) return { code: "setup/no-town" };
  if (!roles.some((r) => ROLES[r].faction !== "town")) return { code: "setup/no-opponent" };
  return null;
}

/**
 * S3: what a game may change from the default table: the named [reading] options of RULES.md and the five
 * thresholds, each with the number the clauses name as its default.
 */
export interface GameOptions {
  /** V7: the day closes early when more than half ("majority") or all ("all") eligible voters vote early. */
  readonly earlyClose: "majority" | "all";
  /** P3: whether vote strikes and night strikes add up ("shared") or count apart ("separate"). */
  readonly strikes: "shared" | "separate";
  /** R1: roles are revealed while alive at phase start > this; T3c's heal-from-role needs the same. */
  readonly revealAbove: number;
  /** M2b: three intimidations only when alive at night start ≥ this, else at most two. */
  readonly threeIntimidationsFrom: number;
  /** T3a: no serum two nights in a row while alive at night start < this. */
  readonly serumRepeatBelow: number;
  /** M2, M6, T3e, T4, T6: when alive at night start equals this, the repeat limits lapse and the boss kills one. */
  readonly lapseAt: number;
  /** V7: the first day on which «досрочно» has effect. */
  readonly earlyFromDay: number;
}

export const DEFAULT_OPTIONS: GameOptions = {
  earlyClose: "majority",
  strikes: "shared",
  revealAbove: 10,
  threeIntimidationsFrom: 10,
  serumRepeatBelow: 15,
  lapseAt: 3,
  earlyFromDay: 3,
};

export const OPTION_VALUES = {
  earlyClose: ["majority", "all"],
  strikes: ["shared", "separate"],
} as const satisfies { readonly [K in "earlyClose" | "strikes"]: readonly GameOptions[K][] };

/** S3's thresholds, each a non-negative integer option (REPLAY.md `options`). */
export const THRESHOLDS = [
  "revealAbove",
  "threeIntimidationsFrom",
  "serumRepeatBelow",
  "lapseAt",
  "earlyFromDay",
] as const satisfies readonly (keyof GameOptions)[];

export type ThresholdName = (typeof THRESHOLDS)[number];

/**
 * O8: the night's random rolls, in the order they are drawn from the seed. The order is part of the replay
 * format (REPLAY.md): a replay's rolls are drawn in it, so changing it changes every seeded game.
 */
export const ROLL_NAMES = [
  "bossExposed",
  "doctorExposed",
  "tortureEvidence",
  "girlSilence",
  "thugSilence",
] as const;
export type RollName = (typeof ROLL_NAMES)[number];

/** O8: each roll's chance of coming true when it is drawn. */
export const ROLL_CHANCES: { readonly [R in RollName]: number } = {
  bossExposed: 0.75, // M3
  doctorExposed: 0.5, // T3a
  tortureEvidence: 0.5, // N1c
  girlSilence: 0.5, // T4
  thugSilence: 0.5, // M6
};
