/**
 * Roles are data (STYLE.md): the table of RULES.md §1 lives in @forum-mafia/rules, written once for the
 * engine, the protocol and the web app. Behaviour lives in the night steps.
 */
import { ROLES, type RoleId, type RoleSpec } from "@forum-mafia/rules";

export {
  DEFAULT_ROLES,
  MAFIA_ROLES,
  PAIR_ROLES,
  ROLE_IDS,
  ROLES,
  SUCCESSION,
  factionOf,
  inPair,
  isRoleId,
  roleListFault,
  type Faction,
  type RoleListFault,
  type OwnAct,
  type RoleId,
  type RoleSpec,
} from "@forum-mafia/rules";

/**
 * The row of a role. Prefer it to `ROLES[role]` in loops: a switch over the ids costs about half as much
 * as a keyed lookup, and the engine looks roles up for every player in every phase.
 */
export function roleSpec(role: RoleId): RoleSpec {
  // The citizen first: the most common role (S3's deal has several), and a switch tests its cases in order.
  switch (role) {
    case "citizen":
      return ROLES.citizen;
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
    default: {
      const never: never = role;
      throw new Error(`unknown role ${String(never)}`);
    }
  }
}

export const isMafia = (role: RoleId): boolean => roleSpec(role).faction === "mafia";
