import { describe, expect, it } from "vitest";
import { ruPlural } from "../src/i18n/me.ts";

/**
 * The app's Russian plurals (i18n/me.ts, `ruPlural`, through Intl.PluralRules("ru")). The forms are written
 * here by hand from Russian grammar: the first form after 1, 21, 101… but not 11 or 111; the second after
 * 2–4, 22–24… but not 12–14; the third after the rest, 0 and 5–20 among them.
 */
const FORMS: readonly [number, string, string][] = [
  [1, "пост", "минуту"],
  [2, "поста", "минуты"],
  [5, "постов", "минут"],
  [11, "постов", "минут"],
  [21, "пост", "минуту"],
  [22, "поста", "минуты"],
  [25, "постов", "минут"],
  [111, "постов", "минут"],
  [0, "постов", "минут"],
  [12, "постов", "минут"],
  [14, "постов", "минут"],
  [104, "поста", "минуты"],
];

describe("Russian plurals in the app's words", () => {
  it.each(FORMS)("%i: %s, %s", (n, post, minute) => {
    expect(ruPlural(n, "пост", "поста", "постов")).toBe(post);
    expect(ruPlural(n, "минуту", "минуты", "минут")).toBe(minute);
  });
});
