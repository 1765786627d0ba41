/**
 * The rules' facts the web app needs (roles, factions, the pair, the acts, the council's listed questions
 * with their texts, M2c; the night's rolls, O8), re-exported from the rules package without zod, so the web app can import them
 * (`@forum-mafia/protocol/roles`) without bundling the request schemas. Nothing is copied here: each fact
 * lives once, in @forum-mafia/rules.
 */
export {
  ACT_CLAUSE,
  ACT_KINDS,
  COUNCIL_QUESTION_IDS,
  DEFAULT_ROLES,
  DEFAULT_ROLES as DEFAULT_DEAL,
  HEAL_FROM_ROLES,
  MAFIA_ROLES,
  PAIR_ROLES,
  ROLE_IDS,
  ROLES,
  ROLL_CHANCES,
  ROLL_NAMES,
  SUCCESSION,
  TARGETED_ACTS,
  factionOf,
  councilQuestionText,
  inPair,
  isRoleId,
  type ActKind,
  type CouncilQuestionId,
  type Faction,
  type HealFromRole,
  type RoleId,
  type RoleSpec,
  type RollName,
  type TargetedAct,
} from "@forum-mafia/rules";
