import type { StallView } from "@forum-mafia/protocol";
import { useLang } from "./index.tsx";
import { ruPlural } from "./me.ts";

/**
 * Issue 28: a stalled game (three nights and three days in a row with no death and no hanging), as the game
 * page and «Мои игры» say it: to the players and guests, to the GM with what the rules let the GM do
 * (a modkill, F2; the strikes for a missed vote or night move, the second of which is a modkill, P1–P3),
 * and for a game the platform runs alone (a demo) that nobody can step in. Russian first; English has the
 * same keys. The words agree with «вы» or with the game, never with a nickname (TEXTS.ru.md), and carry no
 * clause ids.
 */

/** «с 6-й ночи», «со 2-го дня». */
const ruSince = (p: StallView["since"]): string =>
  `${p.number === 2 ? "со" : "с"} ${p.number}-${p.kind === "night" ? "й ночи" : "го дня"}`;
const cap = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const ruNights = (n: number): string => `${n} ${ruPlural(n, "ночь", "ночи", "ночей")}`;
const ruDays = (n: number): string => `${n} ${ruPlural(n, "день", "дня", "дней")}`;
const enCount = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export const ru = {
  heading: "Игра стоит на месте",
  facts: (s: StallView) =>
    `${cap(ruSince(s.since))} уже ${ruNights(s.nights)} и ${ruDays(s.days)} подряд никто не погиб и никого не повесили.`,
  players:
    "Сдвинуть игру может ведущий: правила позволяют исключить игрока (модкилл). Кто не голосует днём или не ходит ночью, получает страйк, а второй страйк — это модкилл.",
  gm: "Что можно сделать по правилам: дать модкилл с указанием причины — он сработает в конце фазы и попадёт в лог игры. Кто не голосует днём или не ходит ночью, получает страйк, а второй страйк — это модкилл. Игроки видят это же предупреждение.",
  gmConsole: "Открыть пульт ведущего",
  noGm: "Это автоматическая игра без ведущего-человека: дать модкилл некому, и игра может так и не закончиться.",
  short: (s: StallView) =>
    `Игра стоит на месте: ${ruNights(s.nights)} и ${ruDays(s.days)} без смертей и повешений`,
  shortGm: "можно дать модкилл",
  shortNoGm: "ведущего-человека нет, вмешаться некому",
};

export const en: typeof ru = {
  heading: "The game has stalled",
  facts: (s: StallView) =>
    `Since ${s.since.kind} ${s.since.number}, ${enCount(s.nights, "night", "nights")} and ${enCount(s.days, "day", "days")} in a row have passed with nobody dying and nobody hanged.`,
  players:
    "The GM can move it on: the rules allow the GM a modkill. Whoever does not vote by day or make a night move gets a strike, and a second strike is a modkill.",
  gm: "What the rules let you do: a modkill with a reason, which takes effect at the end of the phase and goes into the game's log. Whoever does not vote by day or make a night move gets a strike, and a second strike is a modkill. The players see this warning too.",
  gmConsole: "Open the GM console",
  noGm: "This is an automatic game with no human GM: nobody can give a modkill, and the game may never end.",
  short: (s: StallView) =>
    `The game has stalled: ${enCount(s.nights, "night", "nights")} and ${enCount(s.days, "day", "days")} with no death and no hanging`,
  shortGm: "you may give a modkill",
  shortNoGm: "no human GM, nobody can step in",
};

export type StallWords = typeof ru;

/** The stall words in the viewer's language. */
export const useStallT = (): StallWords => (useLang().lang === "en" ? en : ru);
