/**
 * Roles are data (STYLE.md): one row per role of RULES.md §1. Behaviour lives in the night steps.
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

export type Faction = "mafia" | "town" | "maniac";

/** What a player's own night slot is for (P2: whether a missing action earns a strike). */
export type OwnAct =
  "protect" | "block" | "maniac" | "pair" | "doctor" | "visit" | "unprotect" | "mark" | null;

export interface RoleSpec {
  readonly id: RoleId;
  readonly faction: Faction;
  /** M1: place in the boss succession, 1 first; null for roles outside it. */
  readonly succession: number | null;
  /** The role's own night act (the mafia's shared action is separate, M4). */
  readonly ownAct: OwnAct;
  /** V4: weight of a red and of a blue vote. */
  readonly redWeight: number;
  readonly blueWeight: number;
  /** T2: how the sergeant's check reads this role (the maniac reads "not mafia"). */
  readonly checksAs: "mafia" | "not mafia";
}

const row = (
  id: RoleId,
  faction: Faction,
  succession: number | null,
  ownAct: OwnAct,
  redWeight = 1,
  blueWeight = 1,
): RoleSpec => ({
  id,
  faction,
  succession,
  ownAct,
  redWeight,
  blueWeight,
  checksAs: faction === "mafia" ? "mafia" : "not mafia",
});

export const ROLES: { readonly [R in RoleId]: RoleSpec } = {
  boss: row("boss", "mafia", 1, null),
  troll: row("troll", "mafia", 2, null),
  elf: row("elf", "mafia", 3, null),
  lawyer: row("lawyer", "mafia", 4, "protect"),
  thug: row("thug", "mafia", 5, "block"),
  maniac: row("maniac", "maniac", null, "maniac"),
  sheriff: row("sheriff", "town", null, "pair"),
  sergeant: row("sergeant", "town", null, "pair"),
  doctor: row("doctor", "town", null, "doctor", 1, 3),
  girl: row("girl", "town", null, "visit"),
  prosecutor: row("prosecutor", "town", null, "unprotect", 2, 1),
  shahid: row("shahid", "town", null, "mark"),
  citizen: row("citizen", "town", null, null),
};

/**
 * The row of a role. Prefer it to `ROLES[role]` in loops: a switch over the ids costs about half as much
 * as a keyed lookup, and the engine looks roles up for every player in every phase.
 */
export function roleSpec(role: RoleId): RoleSpec {
  switch (role) {
    case "boss":
      return ROLES.boss;
    case "troll":
      return ROLES.troll;
    case "elf":
      return ROLES.elf;
    case "lawyer":
      return ROLES.lawyer;
    case "thug":
      return ROLES.thug;
    case "maniac":
      return ROLES.maniac;
    case "sheriff":
      return ROLES.sheriff;
    case "sergeant":
      return ROLES.sergeant;
    case "doctor":
      return ROLES.doctor;
    case "girl":
      return ROLES.girl;
    case "prosecutor":
      return ROLES.prosecutor;
    case "shahid":
      return ROLES.shahid;
    case "citizen":
      return ROLES.citizen;
    default: {
      const never: never = role;
      throw new Error(`unknown role ${String(never)}`);
    }
  }
}

export function isRoleId(value: string): value is RoleId {
  return (ROLE_IDS as readonly string[]).includes(value);
}

export const isMafia = (role: RoleId): boolean => roleSpec(role).faction === "mafia";

/** S3: the default 17-player setup, in the order of RULES.md §1. */
export const DEFAULT_ROLES: readonly RoleId[] = [
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
  "citizen",
  "citizen",
  "citizen",
  "citizen",
];
