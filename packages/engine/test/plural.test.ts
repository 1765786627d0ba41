import { describe, expect, it } from "vitest";
import { PHRASES, plural, type NameForms } from "../src/talk-phrases.ts";

/**
 * Russian plurals in the bots' talk (talk-phrases.ts, through Intl.PluralRules("ru")). The forms are written
 * here by hand from Russian grammar: the first form after 1, 21, 101… but not 11 or 111; the second after
 * 2–4, 22–24… but not 12–14; the third after the rest, 0 and 5–20 among them.
 */
const FORMS: readonly [number, string, string][] = [
  [1, "голос", "день"],
  [2, "голоса", "дня"],
  [5, "голосов", "дней"],
  [11, "голосов", "дней"],
  [21, "голос", "день"],
  [22, "голоса", "дня"],
  [25, "голосов", "дней"],
  [111, "голосов", "дней"],
  [0, "голосов", "дней"],
  [12, "голосов", "дней"],
  [14, "голосов", "дней"],
  [104, "голоса", "дня"],
];

const ANYA: NameForms = { nom: "Аня", gen: "Ани", dat: "Ане", acc: "Аню", ins: "Аней", prep: "Ане" };

describe("Russian plurals in the bots' talk", () => {
  it.each(FORMS)("%i: %s, %s", (n, vote, day) => {
    expect(plural(n, "голос", "голоса", "голосов")).toBe(vote);
    expect(plural(n, "день", "дня", "дней")).toBe(day);
  });

  it("V5: a bot names the vote leader with the count in its Russian plural, and days of silence likewise", () => {
    expect(FORMS.map(([n]) => PHRASES.ru.leader(ANYA, n)[0])).toEqual(
      FORMS.map(([n, vote]) => `Пока больше всех против Ани: ${n} ${vote}.`),
    );
    expect(FORMS.map(([n]) => PHRASES.ru.silentDays(ANYA, n)[1])).toEqual(
      FORMS.map(([n, , day]) => `От Ани ни слова уже ${n} ${day}.`),
    );
  });
});
