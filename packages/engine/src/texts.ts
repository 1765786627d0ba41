/**
 * Every text players read, in one place: Russian (TEXTS.ru.md) with English beside it.
 *
 * Nicknames carry no grammatical gender, so no form agrees with a nickname: the sentences agree with
 * "игрок" ("Погиб игрок Вася"), or use a dash ("Вася — жертва маньяка"). The one exception is the rules'
 * own formula for a lost vote (A1, T4), kept word for word: "Сегодня Вася лишен возможности голосовать".
 */
import type { CheckResult, CouncilAnswer } from "./night.ts";
import type { Faction, RoleId } from "./roles.ts";
import type { Winner } from "./state.ts";

export const LANGS = ["ru", "en"] as const;
export type Lang = (typeof LANGS)[number];

/** One wording per language. */
export type Phrase<T> = { readonly [L in Lang]: T };

/** Role names in the nominative (TEXTS.ru.md, "Roles"). */
export const ROLE_NAMES: { readonly [R in RoleId]: Phrase<string> } = {
  boss: { ru: "Босс мафии", en: "Mafia boss" },
  troll: { ru: "Злой тролль", en: "Evil troll" },
  elf: { ru: "Злой эльф", en: "Evil elf" },
  lawyer: { ru: "Адвокат", en: "Lawyer" },
  thug: { ru: "Громила", en: "Thug" },
  maniac: { ru: "Маньяк", en: "Maniac" },
  sheriff: { ru: "Шериф", en: "Sheriff" },
  sergeant: { ru: "Сержант", en: "Sergeant" },
  doctor: { ru: "Доктор", en: "Doctor" },
  girl: { ru: "Девочка", en: "Girl" },
  prosecutor: { ru: "Прокурор", en: "Prosecutor" },
  shahid: { ru: "Шахид", en: "Shahid" },
  citizen: { ru: "Мирный житель", en: "Citizen" },
};

export const FACTION_NAMES: { readonly [F in Faction]: Phrase<string> } = {
  mafia: { ru: "Мафия", en: "Mafia" },
  town: { ru: "Город", en: "Town" },
  maniac: { ru: "Маньяк (нейтрал)", en: "Maniac (neutral)" },
};

export const roleName = (role: RoleId, lang: Lang): string => ROLE_NAMES[role][lang];

/** " Роль: Доктор." after a sentence, or nothing when R1 keeps the role hidden. */
const roleSuffix = (role: RoleId | null, lang: Lang): string =>
  role === null ? "" : lang === "ru" ? ` Роль: ${roleName(role, "ru")}.` : ` Role: ${roleName(role, "en")}.`;

const CHECK_RESULT: { readonly [R in Exclude<CheckResult["result"], "failed">]: Phrase<string> } = {
  mafia: { ru: "мафия", en: "mafia" },
  "not mafia": { ru: "не мафия", en: "not mafia" },
};

const WINNER_LINES: { readonly [W in Winner]: Phrase<string> } = {
  town: { ru: "Победа города!", en: "The town wins!" },
  mafia: { ru: "Победа мафии!", en: "The mafia wins!" },
  maniac: { ru: "Победа маньяка!", en: "The maniac wins!" },
  draw: { ru: "Ничья: в городе не осталось живых.", en: "A draw: nobody is left alive in the town." },
};

/** The sentence templates of TEXTS.ru.md, each with its English beside it. */
export const TEXTS = {
  // Night results (A1)
  nightTitle: {
    ru: (n: number): string => `Итоги ночи ${n}`,
    en: (n: number): string => `Night ${n} results`,
  },
  noDeaths: {
    ru: (): string => "Этой ночью никто не погиб.",
    en: (): string => "Nobody died tonight.",
  },
  /** R1: the role only where alive at phase start > 10 (or R2 reveals it). */
  died: {
    ru: (name: string, role: RoleId | null): string => `Погиб игрок ${name}.${roleSuffix(role, "ru")}`,
    en: (name: string, role: RoleId | null): string => `Player ${name} died.${roleSuffix(role, "en")}`,
  },
  /** N1a, R2: the bloody kill always reveals the role. */
  maniacVictim: {
    ru: (name: string, role: RoleId | null): string => `${name} — жертва маньяка.${roleSuffix(role, "ru")}`,
    en: (name: string, role: RoleId | null): string =>
      `${name} fell victim to the maniac.${roleSuffix(role, "en")}`,
  },
  /** M3 */
  bossExposed: {
    ru: (name: string): string => `Мафия оставила улики: босс мафии — ${name}.`,
    en: (name: string): string => `The mafia left evidence: the mafia boss is ${name}.`,
  },
  /** T3a */
  doctorExposed: {
    ru: (name: string): string => `Доктор оставил следы: доктор — ${name}.`,
    en: (name: string): string => `The doctor left traces: the doctor is ${name}.`,
  },
  /** T3a, R2 */
  serum: {
    ru: (name: string, role: RoleId): string => `Сыворотка правды: ${name} — ${roleName(role, "ru")}.`,
    en: (name: string, role: RoleId): string => `Truth serum: ${name}'s role is ${roleName(role, "en")}.`,
  },
  /** N1c */
  tortureEvidence: {
    ru: (name: string): string => `${name} в больнице: это работа маньяка.`,
    en: (name: string): string => `${name} is in hospital: this is the maniac's work.`,
  },
  /** A1, T4: word for word from the rules, without a full stop. */
  cannotVote: {
    ru: (name: string): string => `Сегодня ${name} лишен возможности голосовать`,
    en: (name: string): string => `Today ${name} cannot vote`,
  },

  // Private results (A2)
  check: {
    ru: (name: string, result: CheckResult["result"]): string =>
      result === "failed" ? "Проверка не удалась." : `Проверка: ${name} — ${CHECK_RESULT[result].ru}.`,
    en: (name: string, result: CheckResult["result"]): string =>
      result === "failed" ? "The check failed." : `Check: ${name} is ${CHECK_RESULT[result].en}.`,
  },
  council: {
    ru: (answer: CouncilAnswer): string =>
      answer === "rejected" ? "Совет отклонил вопрос." : `Совет ответил: ${answer === "yes" ? "да" : "нет"}.`,
    en: (answer: CouncilAnswer): string =>
      answer === "rejected" ? "The council rejected the question." : `The council answered: ${answer}.`,
  },

  // Day results (A3)
  dayTitle: {
    ru: (n: number): string => `Итоги дня ${n}`,
    en: (n: number): string => `Day ${n} results`,
  },
  hanged: {
    ru: (name: string, role: RoleId | null): string =>
      `По итогам голосования казнён игрок ${name}.${roleSuffix(role, "ru")}`,
    en: (name: string, role: RoleId | null): string =>
      `Player ${name} was hanged by the vote.${roleSuffix(role, "en")}`,
  },
  /** G3, V5: a tie, or no positive score. */
  noHanging: {
    ru: (): string => "Голоса разделились — никто не покидает город.",
    en: (): string => "The vote is split — nobody leaves the town.",
  },
  /** V8 */
  excused: {
    ru: (name: string): string => `Игрок ${name} отмазан — никто не покидает город.`,
    en: (name: string): string => `${name} was excused by the lawyer — nobody leaves the town.`,
  },
  /** P3, G5, F2: a modkill is a death with R1's reveal. */
  modkill: {
    ru: (name: string, role: RoleId | null): string =>
      `Игрок ${name} исключён из игры (модкилл).${roleSuffix(role, "ru")}`,
    en: (name: string, role: RoleId | null): string =>
      `Player ${name} was removed from the game (modkill).${roleSuffix(role, "en")}`,
  },
  /** P4 */
  replacement: {
    ru: (oldName: string, newName: string): string => `Замена игрока: ${oldName} → ${newName}.`,
    en: (oldName: string, newName: string): string => `Player replaced: ${oldName} → ${newName}.`,
  },

  // Vote count (V4, V6)
  voteCountTitle: {
    ru: (n: number): string => `Голосование, день ${n}`,
    en: (n: number): string => `Vote count, day ${n}`,
  },
  against: { ru: (): string => "Против:", en: (): string => "Against:" },
  inDefence: { ru: (): string => "В защиту:", en: (): string => "In defence:" },
  /** "Вася (3): Петя, Коля, Маша": every vote shown as 1 (V4). */
  votesFor: {
    ru: (target: string, voters: readonly string[]): string =>
      `${target} (${voters.length}): ${voters.join(", ")}`,
    en: (target: string, voters: readonly string[]): string =>
      `${target} (${voters.length}): ${voters.join(", ")}`,
  },
  /** V7: an early vote, marked beside its voter. */
  earlyVoter: {
    ru: (name: string): string => `${name} (досрочно)`,
    en: (name: string): string => `${name} (early)`,
  },
  lostVote: {
    ru: (names: readonly string[]): string => `Лишены голоса: ${names.join(", ")}`,
    en: (names: readonly string[]): string => `Cannot vote: ${names.join(", ")}`,
  },
  notVoted: {
    ru: (names: readonly string[]): string => `Не проголосовали: ${names.join(", ")}`,
    en: (names: readonly string[]): string => `Not voted yet: ${names.join(", ")}`,
  },

  // End of game (W1)
  gameOver: {
    ru: (winner: Winner): string => WINNER_LINES[winner].ru,
    en: (winner: Winner): string => WINNER_LINES[winner].en,
  },
} as const satisfies { readonly [key: string]: Phrase<(...args: never[]) => string> };
