import type { Lang, NightAction, Player, Vote } from "@forum-mafia/engine";
import { ACT_NAMES } from "@forum-mafia/protocol/acts";

/** Issue 18: the notebook's texts: an action and a vote as the corrections log and the GM's posts word them. */

/** The act names (ACT_NAMES, shared with the GM console), with the mafia's move and the council's question as the posts word them. */
const ACT_WORDS: Record<Lang, Record<string, string>> = {
  ru: { ...ACT_NAMES.ru, mafia: "ход мафии", council: "вопрос совету" },
  en: { ...ACT_NAMES.en, mafia: "the mafia's action", council: "council question" },
};

const HEAL_FROM: Record<Lang, Record<string, string>> = {
  ru: { mafia: "мафия", maniac: "маньяк", sheriff: "шериф" },
  en: { mafia: "mafia", maniac: "maniac", sheriff: "sheriff" },
};

/** "Вася: проверка — Петя". */
export function actionText(players: readonly Player[], seat: number, a: NightAction, lang: Lang): string {
  const w = ACT_WORDS[lang];
  const name = (s: number): string => players[s]?.name ?? "?";
  const by = name(seat);
  switch (a.act) {
    case "mafia": {
      const parts = [
        ...(a.kill.length ? [`${w.kill} ${a.kill.map(name).join(", ")}`] : []),
        ...(a.intimidate.length ? [`${w.intimidate} ${a.intimidate.map(name).join(", ")}`] : []),
      ];
      return `${by}: ${w.mafia} — ${parts.join("; ")}`;
    }
    case "council":
      return `${by}: ${w.council} «${a.question}»`;
    case "healFrom":
      return `${by}: ${w.healFrom} — ${HEAL_FROM[lang][a.role]}`;
    case "pass":
      return `${by}: ${w.pass}`;
    default:
      return `${by}: ${w[a.act]} — ${name(a.target)}`;
  }
}

const COLOR_WORDS: Record<Lang, { red: string; blue: string; early: string }> = {
  ru: { red: "красным", blue: "синим", early: "досрочно" },
  en: { red: "red", blue: "blue", early: "early" },
};

/** "Вася: красным — Петя". */
export function voteText(players: readonly Player[], seat: number, v: Vote, lang: Lang): string {
  const w = COLOR_WORDS[lang];
  return `${players[seat]?.name ?? "?"}: ${w[v.color]} — ${players[v.target]?.name ?? "?"}${v.early ? ` (${w.early})` : ""}`;
}
