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
