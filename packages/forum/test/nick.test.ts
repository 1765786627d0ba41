import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkNick, nickKey, nickSkeleton } from "../src/index.ts";

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

describe("nickSkeleton (issue 11: look-alike nicks)", () => {
  it.each([
    ["Ivan", "lvan"], // capital I and small l
    ["Olga", "0lga"], // the digit 0
    ["Roman", "Rornan"], // r and n for m
    ["nina", "пina"], // Cyrillic п
    ["rita", "гita"], // Cyrillic г
    ["bob", "ьоь"], // Cyrillic ь, о, ь
  ])("%s and %s (the issue's pairs) share a skeleton", (a, b) => {
    expect(nickKey(a)).not.toBe(nickKey(b));
    expect(nickSkeleton(a)).toBe(nickSkeleton(b));
  });

  it.each([
    ["Ivan", "lvan"],
    ["ivan", "lvan"], // any nick may be written in capitals: "IVAN"
    ["1van", "lvan"],
    ["IVAN", "lvan"],
    ["0lga", "olga"],
    ["OLGA", "olga"],
    ["Rornan", "rornan"],
    ["Roman", "rornan"],
    ["пina", "nlna"],
    ["гita", "rlta"],
    ["ьоь", "bob"],
    ["Bob", "bob"],
    ["Вов", "bob"], // Cyrillic В, о, в
    ["ъоъ", "bob"],
    ["Вася", "bacя"],
    ["Bася", "bacя"], // Latin B
    ["Ёжик", "eжиk"],
    ["Ëжик", "eжиk"], // Latin Ë
    ["Е\u0308жик", "eжиk"], // decomposed Ё
    ["Маша", "rnaшa"],
    ["  Петя   Иванов ", "netя иbahob"],
    ["Петя\u00a0Иванов", "netя иbahob"],
    ["Ива\u200bн", "иbah"], // a zero-width space is dropped
    ["ＩＶＡＮ", "lvan"], // full-width letters
    ["ﬁlip", "flllp"], // the ligature ﬁ is f and i (NFKC)
  ])("the skeleton of %j is %j", (nick, skeleton) => {
    expect(nickSkeleton(nick)).toBe(skeleton);
  });

  it.each([
    ["Иван", "Ивар"],
    ["Olga", "Olya"],
    ["Маша", "Миша"],
    ["Roman", "Roma"],
    ["Лапа", "Папа"], // `confusables` maps both л and п to n: л is not used
    ["Липа", "Пила"],
    ["Мой", "Мои"], // и and й: `confusables` maps both to a capital N, which is not used
    ["Шит", "Щит"], // ш and щ: both to a capital W
    ["Дана", "Аана"], // д: to a capital A
    ["Оля", "Olya"],
    ["Ира", "Ira"],
    ["Вася", "Вася1"],
    ["Петя Иванов", "Петя_Иванов"],
  ])("%s and %s keep different skeletons", (a, b) => {
    expect(nickSkeleton(a)).not.toBe(nickSkeleton(b));
  });

  it("gives every nick with one key one skeleton (the skeleton is coarser than the key)", () => {
    const letter = fc.constantFrom(
      ..."AaBbCcEeHhKkMmOoPpTtXxYyIilLnNrR01 _.-АаВвЕеЁёКкМмНнОоРрСсТтУуХхЬьЪъПпГгЛлИиЙй",
    );
    fc.assert(
      fc.property(fc.array(letter, { minLength: 1, maxLength: 12 }), (chars) => {
        const nick = chars.join("");
        expect(nickSkeleton(nickKey(nick))).toBe(nickSkeleton(nick));
      }),
      { seed: 3304, numRuns: 1000 },
    );
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
    ["Ва\u200bся", "only Latin or Russian letters"], // zero-width space
    ["Ва\u00adся", "only Latin or Russian letters"], // soft hyphen
    ["Ва\u0301ся", "only Latin or Russian letters"], // a combining accent
    ["\u202eВася", "only Latin or Russian letters"], // right-to-left override
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
