import { describe, expect, it } from "vitest";
import { refusalWords } from "../src/i18n/errors.ts";

/**
 * Issue 28: the server refuses a title or a name holding a bidi control (a 400 `invalid` whose message names
 * the field); the app says what is wrong in the user's language, with no English or internal words in Russian.
 */
describe("a bidi control refused by the server, in the app's words", () => {
  const message = (field: string): string =>
    `${field}: contains a bidirectional control character (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F or ` +
    "U+061C), which would reorder how the text is shown";

  it.each(["title", "name", "players.4"])("for %s", (field) => {
    const ru = refusalWords("invalid", message(field), "ru");
    expect(ru).toContain("невидимый символ");
    expect(ru).not.toMatch(/bidirectional|invalid|title|name/u);
    expect(refusalWords("invalid", message(field), "en")).toContain("invisible character");
  });
});
