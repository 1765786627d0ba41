import { factionOf, ROLE_IDS, type Faction, type RoleId } from "@forum-mafia/protocol/roles";
import {
  MAX_SEATS,
  MAX_THRESHOLD,
  roleListFault,
  THRESHOLDS,
  type GameOptions,
  type RoleListFault,
  type Setup,
  type ThresholdName,
} from "@forum-mafia/protocol/setups";

/**
 * Issue 17: the setup editor's state, as the GM edits it: the named roles ticked (each at most once,
 * S3), the number of citizens, the two [reading] options and the thresholds as typed (a field may be
 * empty or wrong while it is being typed). `setupOf` turns it into the Setup the server takes, or says
 * what is wrong.
 */
export interface Draft {
  readonly named: readonly RoleId[];
  readonly citizens: number;
  readonly earlyClose: GameOptions["earlyClose"];
  readonly strikes: GameOptions["strikes"];
  readonly thresholds: Readonly<Record<ThresholdName, string>>;
}

/** The named roles (every role but the citizen), in the order of RULES.md §1. */
export const NAMED_ROLES: readonly RoleId[] = ROLE_IDS.filter((r) => r !== "citizen");

/** The sides in the order the editor and the setup post list them. */
export const FACTIONS: readonly Faction[] = ["mafia", "maniac", "town"];

export function draftOf(setup: Setup): Draft {
  const thresholds = {} as Record<ThresholdName, string>;
  for (const name of THRESHOLDS) thresholds[name] = String(setup.options[name]);
  return {
    named: NAMED_ROLES.filter((r) => setup.roles.includes(r)),
    citizens: setup.roles.filter((r) => r === "citizen").length,
    earlyClose: setup.options.earlyClose,
    strikes: setup.options.strikes,
    thresholds,
  };
}

/** The role list of a draft: the named roles in the order of §1, then the citizens. */
export const rolesOf = (draft: Draft): RoleId[] => [
  ...NAMED_ROLES.filter((r) => draft.named.includes(r)),
  ...Array.from({ length: draft.citizens }, (): RoleId => "citizen"),
];

/** A threshold as typed: a whole number from 0 to MAX_THRESHOLD, or null. */
export function thresholdValue(text: string): number | null {
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n <= MAX_THRESHOLD ? n : null;
}

export type DraftCheck =
  | { readonly setup: Setup; readonly fault: null; readonly badThresholds: readonly [] }
  | {
      readonly setup: null;
      readonly fault: RoleListFault | null;
      readonly badThresholds: readonly ThresholdName[];
    };

/** The Setup a draft stands for, or its S3 fault and the thresholds that are not whole numbers in range. */
export function setupOf(draft: Draft): DraftCheck {
  const roles = rolesOf(draft);
  const fault = roleListFault(roles);
  const values = {} as Record<ThresholdName, number>;
  const bad: ThresholdName[] = [];
  for (const name of THRESHOLDS) {
    const v = thresholdValue(draft.thresholds[name]);
    if (v === null) bad.push(name);
    else values[name] = v;
  }
  if (fault !== null || bad.length > 0 || roles.length > MAX_SEATS)
    return { setup: null, fault, badThresholds: bad };
  return {
    setup: { roles, options: { earlyClose: draft.earlyClose, strikes: draft.strikes, ...values } },
    fault: null,
    badThresholds: [],
  };
}

/** Each role's count in a role list, in the order of §1. */
export function roleCounts(roles: readonly RoleId[]): { role: RoleId; count: number }[] {
  return ROLE_IDS.map((role) => ({ role, count: roles.filter((r) => r === role).length })).filter(
    (c) => c.count > 0,
  );
}

/** One text per setup: the same roles in any order and the same options give the same key. */
export function setupKey(setup: Setup): string {
  const o = setup.options;
  return JSON.stringify([
    roleCounts(setup.roles).map((c) => [c.role, c.count]),
    [o.earlyClose, o.strikes, ...THRESHOLDS.map((t) => o[t])],
  ]);
}

export const sameSetup = (a: Setup, b: Setup): boolean => setupKey(a) === setupKey(b);

export { factionOf, MAX_SEATS, MAX_THRESHOLD };
