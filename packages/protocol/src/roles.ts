/**
 * The role ids and the standard deal, in a module of their own without zod, so the web app can import
 * these values (`@forum-mafia/protocol/roles`) without bundling the request schemas.
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

/** S3: the standard table of 17, in the order of RULES.md §1 (the engine's DEFAULT_ROLES; a test keeps them equal). */
export const DEFAULT_DEAL: readonly RoleId[] = [
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
