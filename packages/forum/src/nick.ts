import { clean, confusablesMap } from "confusables";

/**
 * Latin letters that look like a letter of the Russian alphabet, in lower or upper case, mapped to
 * that Cyrillic letter in lower case: "a"/"а", "B"/"В", "H"/"Н", "y"/"у" and so on. Latin "ë" reads as
 * "ё", which is "е" in a key. Only letters of the Russian alphabet are targets (no "i" → "і"), and
 * digits are never mapped ("0" stays "0"), so the rule stays predictable.
 */
const LOOK_ALIKES: ReadonlyMap<string, string> = new Map([
  ["a", "а"],
  ["b", "в"],
  ["c", "с"],
  ["e", "е"],
  ["ë", "е"],
  ["h", "н"],
  ["k", "к"],
  ["m", "м"],
  ["o", "о"],
  ["p", "р"],
  ["t", "т"],
  ["x", "х"],
  ["y", "у"],
]);

/**
 * The key under which nicknames are unique, and by which a name in a post is matched to a player:
 * NFC, trimmed, inner whitespace collapsed to one space, lower case, "ё" as "е", and Latin look-alikes
 * as their Cyrillic letter. "Вася", "ВАСЯ" and "Bася" (Latin B) share a key; so do "Ёжик" and "ежик".
 */
export function nickKey(nick: string): string {
  const folded = nick.normalize("NFC").trim().replace(/\s+/gu, " ").toLowerCase().replaceAll("ё", "е");
  return Array.from(folded, (c) => LOOK_ALIKES.get(c) ?? c).join("");
}

/** The same pairs read the other way, Cyrillic to Latin ("ë" is left out: the Cyrillic "е" reads as "e"). */
const LATIN_OF: ReadonlyMap<string, string> = new Map(
  [...LOOK_ALIKES].filter(([latin]) => latin !== "ë").map(([latin, cyrillic]) => [cyrillic, latin]),
);

/**
 * The `confusables` package maps both "л" and "п" to "n". UTS #39 maps neither to a Latin letter, and
 * keeping both would make "Лапа" and "Папа", or "Липа" and "Пила", one skeleton: "л" is not mapped.
 */
const NOT_CONFUSABLE: ReadonlySet<string> = new Set(["л"]);

/**
 * One character of a lower-case nick as its Latin look-alike: by the rules of nickKey (read from Cyrillic
 * to Latin), else by the `confusables` package when it names one lower-case Latin letter or a digit
 * ("г" → "r", "п" → "n", "ь" → "b", "б" → "6"). Its mappings to capitals ("и" → "N", "д" → "A",
 * "ш" → "W") are not used: they would make Russian letters one another's look-alikes.
 */
function latinLookAlike(c: string): string {
  const ours = LATIN_OF.get(c);
  if (ours !== undefined) return ours;
  const theirs = NOT_CONFUSABLE.has(c) ? undefined : confusablesMap.get(c);
  return theirs !== undefined && /^[a-z0-9]$/u.test(theirs) ? theirs : c;
}

/**
 * The key under which look-alike nicks collide (issue 11): two nicks with one skeleton may not both be
 * registered, so a red "lvan" in a game thread cannot pass for a vote for "Ivan". NFKC, trimmed, inner
 * whitespace collapsed, lower case, "ё" as "е", invisible characters and combining marks dropped
 * (`clean` from `confusables`), every letter as its Latin look-alike (see latinLookAlike), and then the
 * rows of UTS #39's confusables.txt for ASCII that the `confusables` package lacks: "0" → "o", "1" → "l",
 * "I" → "l" (in lower case: "i" → "l", since any nick may be written in capitals), and "m" → "rn".
 *
 * Coarser than nickKey: nicks with one key have one skeleton. "Ivan", "lvan" and "1van" share one, as do
 * "Olga" and "0lga", "Roman" and "Rornan", "nina" and "пina" (Cyrillic п), "bob" and "ьоь"; "Маша" and
 * "Миша" do not. The only Russian letters it merges are "в", "ъ" and "ь", which all read as "b" (and "гп"
 * reads as "м", through "rn").
 */
export function nickSkeleton(nick: string): string {
  const folded = clean(nick.normalize("NFKC"))
    .trim()
    .replace(/\s+/gu, " ")
    .toLowerCase()
    .replaceAll("ё", "е");
  const latin = Array.from(folded, latinLookAlike)
    .join("")
    .replace(/[01i]/gu, (c) => (c === "0" ? "o" : "l"));
  return Array.from(latin, (c) => DRAWN_AS.get(c) ?? c).join("");
}

/**
 * Issue 28: letters that are drawn with more than one character, each as the characters it is drawn with
 * (in the skeleton's terms, after "I", "i" and "1" became "l" and "0" became "o"), so that the letter and
 * its drawing share a skeleton. The first row is UTS #39's own (confusables.txt maps "m" to "rn"); the
 * `confusables` package has no row that maps one ASCII letter to several, and none for these Cyrillic
 * letters, so the others are ours, the look-alikes seen on Russian forums:
 * - "d" as "cl", "w" as "vv" (the same trick as "rn" for "m");
 * - "ш" as "LLI" or "III", "ю" as "IO" (or "10"), "ы" as "bI" (or "ЬI"), "л" as "JI";
 * - "я" as "q", "z" as "3" (which is already `confusables`' "з").
 * Nothing maps to a letter of this table, so the order does not matter; "щ" is left alone (it has no
 * drawing in the allowed characters), as are "ж" and "ф".
 */
const DRAWN_AS: ReadonlyMap<string, string> = new Map([
  ["m", "rn"],
  ["d", "cl"],
  ["w", "vv"],
  ["ш", "lll"],
  ["ю", "lo"],
  ["ы", "bl"],
  ["л", "jl"],
  ["я", "q"],
  ["z", "3"],
]);

const MIN_LENGTH = 2;
const MAX_LENGTH = 24;
const NICK_CHARACTERS = /^[A-Za-zА-Яа-яЁё0-9 _.-]+$/u;
const STARTS_WELL = /^[A-Za-zА-Яа-яЁё0-9]/u;

/**
 * Null when a nickname is acceptable, else why not, in English. After NFC and trimming it has 2–24
 * characters: letters of the Latin or the Russian alphabet in any case, digits, single spaces, `_`,
 * `-` and `.`, and it starts with a letter or a digit. Other Cyrillic letters (і, ї, є, ў) are refused:
 * "і" would pass for the Latin "i", which keys do not fold.
 */
export function checkNick(nick: string): string | null {
  const trimmed = nick.normalize("NFC").trim();
  const length = Array.from(trimmed).length;
  if (length < MIN_LENGTH || length > MAX_LENGTH)
    return `nick must be ${MIN_LENGTH} to ${MAX_LENGTH} characters long`;
  if (!NICK_CHARACTERS.test(trimmed))
    return "nick may contain only Latin or Russian letters, digits, spaces, _, - and .";
  if (!STARTS_WELL.test(trimmed)) return "nick must start with a letter or a digit";
  if (trimmed.includes("  ")) return "nick may not contain two spaces in a row";
  return null;
}
