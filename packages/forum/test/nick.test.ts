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
    ["Вася", "bacq"],
    ["Bася", "bacq"], // Latin B
    ["Ёжик", "eжиk"],
    ["Ëжик", "eжиk"], // Latin Ë
    ["Е\u0308жик", "eжиk"], // decomposed Ё
    ["Маша", "rnallla"],
    ["  Петя   Иванов ", "netq иbahob"],
    ["Петя\u00a0Иванов", "netq иbahob"],
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

  it.each([
    ["Шум", "LLIум"], // Ш drawn as LLI
    ["Шура", "IIIура"], // or as III
    ["Юля", "IOля"], // Ю drawn as IO
    ["Юра", "10ра"], // or with digits
    ["Ваня", "Ванq"], // я as q
    ["cl", "d"],
    ["vv", "w"],
    ["Zoya", "3oya"],
    ["Зоя", "Zoя"], // Cyrillic З and Latin Z: both are "3"
    ["Лена", "JIена"], // Л drawn as JI
    ["Сыр", "CbIр"], // ы drawn as bI
    ["Dima", "clima"],
    ["Wolf", "VVolf"],
  ])("%s and %s (issue 28: look-alikes of more than one character) share a skeleton", (a, b) => {
    expect(nickKey(a)).not.toBe(nickKey(b));
    expect(nickSkeleton(a)).toBe(nickSkeleton(b));
  });

  it.each([
    ["Шум", "lllyrn"],
    ["Юля", "lojlq"],
    ["Ваня", "bahq"],
    ["Zoya", "3oya"],
    ["Зоя", "3oq"],
    ["d", "cl"],
    ["w", "vv"],
    ["Сыр", "cblp"],
  ])("issue 28: the skeleton of %j is %j", (nick, skeleton) => {
    expect(nickSkeleton(nick)).toBe(skeleton);
  });

  it("issue 28: common names of the community keep one skeleton each (no false look-alikes)", () => {
    const names = (
      "Аня Анна Ася Алла Алиса Алина Андрей Антон Артём Борис Валя Ваня Варя Вася Васа Вера Вика Витя Вова " +
      "Галя Гена Гоша Даня Даша Дима Ева Егор Женя Зина Зоя Ира Игорь Илья Катя Кира Коля Костя Ксюша Лена " +
      "Лёша Лиза Лида Люба Люда Макс Маша Миша Надя Настя Наташа Ника Нина Олег Оля Паша Петя Полина Рита " +
      "Рома Саша Света Серёжа Слава Соня Стас Таня Тима Толя Федя Юля Юра Яна Ян Яша Шура Щука Ульяна Фома " +
      "Жора Маня Дина Диана Лина Линда Лиля Уля Юлия Юрий Шит Щит Dan Max Alex Nick Mike Kate Anna Olga Ivan " +
      "Zoya Dasha Dima Lena Liza Vlad Vadim Wolf Joker Shadow Mafia Don Boss Killer Doc Lucky Leo Lilo Lola " +
      "Mila Nika Tim Kim Ким Тим Zara Sara Dora Nora Cara"
    ).split(" ");
    const owner = new Map<string, string>();
    for (const name of names) {
      const skeleton = nickSkeleton(name);
      expect(owner.get(skeleton), `${name} and ${owner.get(skeleton)}: ${skeleton}`).toBeUndefined();
      owner.set(skeleton, name);
    }
  });

  it("gives every nick with one key one skeleton (the skeleton is coarser than the key)", () => {
    const letter = fc.constantFrom(
      ..."AaBbCcEeHhKkMmOoPpTtXxYyIilLnNrRDdWwZzQqVvJj013 _.-АаВвЕеЁёКкМмНнОоРрСсТтУуХхЬьЪъПпГгЛлИиЙйШшЮюЫыЯяЗз",
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
