/**
 * Every clause id of RULES.md. Each must have at least one engine test titled with it
 * (tools/check-clauses.ts). Lettered sub-clauses (T3a, N1c, M2b) are listed where RULES.md names them.
 */
export const CLAUSES = [
  "S1", "S2", "S3",
  "G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9", "G10", "G11",
  "R1", "R2", "R3",
  "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9",
  "P1", "P2", "P3", "P4",
  "M1", "M2", "M2a", "M2b", "M2c", "M3", "M4", "M5", "M6", "M7", "M8",
  "N1", "N1a", "N1b", "N1c",
  "T1", "T2", "T3", "T3a", "T3b", "T3c", "T3d", "T3e", "T4", "T5", "T6", "T7",
  "O0", "O1", "O1a", "O1b", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9",
  "A1", "A2", "A3",
  "W1",
  "F1", "F2",
] as const;
export type ClauseId = (typeof CLAUSES)[number];
