/**
 * The GM's draft of a night (issue: "GM reviews results"): one line per outcome, saying why it came
 * out so, e.g. "Олег: убит мафией" or "Миша (Шахид) атакован — метка сработала". Only the GM reads it;
 * it names roles and actions that the players' results hide.
 */
import type { Attack, NightOutcome, Roll } from "./night.ts";
import type { Player, Seat } from "./player.ts";
import { roleName, type Lang, type Phrase } from "./texts.ts";

const BY: { readonly [K in Attack["kind"]]: Phrase<string> } = {
  kill: { ru: "убийство мафии", en: "the mafia's kill" },
  bloodyKill: { ru: "кровавое убийство маньяка", en: "the maniac's bloody kill" },
  quickKill: { ru: "быстрое убийство маньяка", en: "the maniac's quick kill" },
  shot: { ru: "выстрел шерифа", en: "the sheriff's shot" },
  mark: { ru: "метка шахида (T6)", en: "the shahid's mark (T6)" },
  collateral: {
    ru: "кровавое убийство маньяка у цели (N1a, M8)",
    en: "the maniac's bloody kill on their target (N1a, M8)",
  },
};

const SAVED: { readonly [K in "heal" | "healFrom"]: Phrase<string> } = {
  heal: { ru: "отменено лечением доктора (T3b)", en: "saved by the doctor's heal (T3b)" },
  healFrom: { ru: "отменено лечением от роли (T3c)", en: "saved by the heal from the role (T3c)" },
};

const ROLL: { readonly [K in Roll["name"]]: Phrase<string> } = {
  bossExposed: { ru: "улики босса (M3, 75%)", en: "boss evidence (M3, 75%)" },
  doctorExposed: { ru: "следы доктора (T3a, 50%)", en: "doctor traces (T3a, 50%)" },
  tortureEvidence: { ru: "улики пыток (N1c, 50%)", en: "torture evidence (N1c, 50%)" },
  girlSilence: { ru: "немота от девочки (T4, 50%)", en: "silence from the girl (T4, 50%)" },
  thugSilence: { ru: "немота от громилы (M6, 50%)", en: "silence from the thug (M6, 50%)" },
};

const PHRASES = {
  who: {
    ru: (name: string, role: string) => `${name} (${role})`,
    en: (name: string, role: string) => `${name} (${role})`,
  },
  blocked: {
    ru: (w: string) => `${w}: заблокирован, действие отменено (O2)`,
    en: (w: string) => `${w}: blocked, action cancelled (O2)`,
  },
  attack: {
    ru: (w: string, by: string, result: string) => `${w}: ${by} — ${result}`,
    en: (w: string, by: string, result: string) => `${w}: ${by} — ${result}`,
  },
  died: { ru: "погиб", en: "died" },
  markFired: {
    ru: (w: string) => `${w}: шахид атакован, метка сработала (T6)`,
    en: (w: string) => `${w}: the shahid was attacked, the mark fired (T6)`,
  },
  roll: {
    ru: (what: string, value: boolean, fixed: boolean) =>
      `Бросок: ${what} — ${value ? "да" : "нет"}${fixed ? " (задан ведущим)" : ""}`,
    en: (what: string, value: boolean, fixed: boolean) =>
      `Roll: ${what} — ${value ? "yes" : "no"}${fixed ? " (fixed by the GM)" : ""}`,
  },
  struck: {
    ru: (w: string) => `${w}: нет ночного действия — страйк и +2 голоса завтра (P2)`,
    en: (w: string) => `${w}: no night action — a strike and +2 votes tomorrow (P2)`,
  },
  modkilled: { ru: (w: string) => `${w}: модкилл (P3, F2)`, en: (w: string) => `${w}: modkilled (P3, F2)` },
  nothing: { ru: "Ночью ничего не произошло.", en: "Nothing happened tonight." },
} as const;

/** The GM's explanation of a night, in the order of RULES.md §9: blocks, attacks, the mark, rolls, P2, modkills. */
export function explainNight(outcome: NightOutcome, players: readonly Player[], lang: Lang): string[] {
  const who = (s: Seat): string => PHRASES.who[lang](players[s]!.name, roleName(players[s]!.role, lang));
  const lines: string[] = [];
  for (const s of outcome.blocked) lines.push(PHRASES.blocked[lang](who(s)));
  for (const a of outcome.attacks) {
    if (a.kind === "mark") lines.push(PHRASES.markFired[lang](who(a.by)));
    const result = a.cancelledBy === null ? PHRASES.died[lang] : SAVED[a.cancelledBy][lang];
    lines.push(PHRASES.attack[lang](who(a.target), BY[a.kind][lang], result));
  }
  for (const r of outcome.rolls) lines.push(PHRASES.roll[lang](ROLL[r.name][lang], r.value, r.fixed));
  for (const s of outcome.struck) lines.push(PHRASES.struck[lang](who(s)));
  for (const s of outcome.modkilled) lines.push(PHRASES.modkilled[lang](who(s)));
  if (lines.length === 0) lines.push(PHRASES.nothing[lang]);
  return lines;
}
