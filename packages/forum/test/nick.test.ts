import { describe, expect, it } from "vitest";
import { checkNick, nickKey } from "../src/index.ts";

describe("nickKey", () => {
  it.each([
    ["Вася", "ВАСЯ"],
    ["Вася", "вАсЯ"],
    ["Вася", "Bася"], // Latin B
    ["Вася", "Baся"], // Latin B and a
    ["Ёжик", "ежик"],
    ["Ёжик", "ЕЖИК"],
    ["Ёжик", "Е\u0308жик"], // decomposed Ё
    ["Ёжик", "Ëжик"], // Latin Ë
    ["Anna", "Аnna"], // Cyrillic А
    ["Anna", "АNNА"],
    ["Олег", "Oлeг"], // Latin O and e
    ["Макс", "MAKC"], // Latin M A K C
    ["Тихон", "TиXoH"], // Latin T, X, o, H
    ["Петя Иванов", "  петя   иванов "],
    ["Петя Иванов", "Петя\u00a0Иванов"],
  ])("%s and %s are one nickname: case, ё, spacing and look-alike letters do not matter", (a, b) => {
    expect(nickKey(a)).toBe(nickKey(b));
  });

  it.each([
    ["Вова", "В0ва"], // a digit is not a letter
    ["Оля", "Olya"], // l and y-a are not the Cyrillic letters
    ["Петя", "Petya"],
    ["Вася", "Вася1"],
    ["Оля", "Оля К"],
    ["Ира", "Ira"], // Latin i maps to no Russian letter
  ])("%s and %s stay different nicknames", (a, b) => {
    expect(nickKey(a)).not.toBe(nickKey(b));
  });

  it("maps Latin look-alikes to lower-case letters of the Russian alphabet only", () => {
    expect(nickKey("ABCEHKMOPTXY")).toBe("авсенкмортху");
    expect(nickKey("abcehkmoptxy")).toBe("авсенкмортху");
    expect(nickKey("dfgijlnqrsuvwz")).toBe("dfgijlnqrsuvwz");
    expect(nickKey("0123456789")).toBe("0123456789");
  });
});

describe("checkNick", () => {
  it.each([
    "Вася",
    "Anna",
    "Ёжик",
    "ёж",
    "Петя Иванов",
    "  Вася  ",
    "mafia_boss-2.0",
    "007",
    "Bася",
    "абвгдеёжзийклмнопрстуфхц",
  ])("accepts %j", (nick) => {
    expect(checkNick(nick)).toBeNull();
  });

  it.each([
    ["", "2 to 24 characters"],
    ["   ", "2 to 24 characters"],
    ["Я", "2 to 24 characters"],
    ["абвгдеёжзийклмнопрстуфхцч", "2 to 24 characters"],
    ["Вася!", "only Latin or Russian letters"],
    ["Вася\tПупкин", "only Latin or Russian letters"],
    ["Вася\nПупкин", "only Latin or Russian letters"],
    ["Ол\u0456я", "only Latin or Russian letters"], // Ukrainian і would pass for Latin i
    ["Ω mega", "only Latin or Russian letters"],
    ["Вася<script>", "only Latin or Russian letters"],
    ["_Вася", "start with a letter or a digit"],
    [".Вася", "start with a letter or a digit"],
    ["-Вася", "start with a letter or a digit"],
    ["Вася  Пупкин", "two spaces in a row"],
  ])("refuses %j: %s", (nick, reason) => {
    const message = checkNick(nick);
    expect(message).toContain("nick");
    expect(message).toContain(reason);
  });

  it("counts characters after NFC, so a decomposed Ё is one letter", () => {
    expect(checkNick("Е\u0308ж")).toBeNull();
  });
});
