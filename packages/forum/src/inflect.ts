/**
 * Russian case forms of a nickname (issue 16), for the bots' phrases: «против Ани», «Бота Аркадия»,
 * «с Игорем». Rules, not a dictionary: each Cyrillic word of the nick is declined by its ending as a noun
 * (or, for the endings that mark one, an adjective); a word that is not all Cyrillic letters, and so a nick
 * with Latin letters or digits, is left as it is. Nicks have no grammatical gender of their own, so a
 * consonant or «-ь» ending declines as a masculine noun, except for a short list of feminine ones.
 * Where the rules are unsure (a rare stem), the form may be imperfect but is never empty.
 */

export type NickCase = "nom" | "gen" | "dat" | "acc" | "ins" | "prep";

export const NICK_CASES: readonly NickCase[] = ["nom", "gen", "dat", "acc", "ins", "prep"];

/** Every case form of one nick. */
export type NickForms = Readonly<Record<NickCase, string>>;

/** The endings of gen, dat, acc, ins, prep added to a stem. */
type Endings = readonly [string, string, string, string, string];

const CYRILLIC_WORD = /^[а-яё]+$/iu;
/** Between words: kept as written. */
const SEPARATOR = /([\s\-_]+)/u;

/** After these the written vowel changes (ы → и, unstressed о → е). */
const VELAR_OR_HUSHING = new Set([..."гкхжшчщ"]);
const HUSHING_OR_TS = new Set([..."жшчщц"]);

/** Stems that drop or change a vowel in the oblique cases (Пётр → Петра, Лев → Льва). */
const FLEETING: ReadonlyMap<string, string> = new Map([
  ["пётр", "петр"],
  ["петр", "петр"],
  ["лев", "льв"],
  ["павел", "павл"],
  ["ёж", "еж"],
  ["орёл", "орл"],
  ["осёл", "осл"],
  ["пёс", "пс"],
  ["лёд", "льд"],
  ["угол", "угл"],
  ["боец", "бойц"],
  ["отец", "отц"],
  ["молодец", "молодц"],
  ["певец", "певц"],
  ["купец", "купц"],
  ["гонец", "гонц"],
  ["огурец", "огурц"],
  ["ветер", "ветр"],
]);

/** Soft-sign words that decline as feminine nouns (Любовь → Любови). */
const FEMININE_SOFT = new Set([
  "любовь",
  "нинель",
  "адель",
  "жизель",
  "рахиль",
  "эсфирь",
  "мышь",
  "ночь",
  "тень",
  "рысь",
  "сталь",
  "соль",
  "ложь",
  "осень",
  "жизнь",
  "смерть",
  "печаль",
  "месть",
  "власть",
  "страсть",
  "весть",
  "честь",
  "полночь",
  "дрожь",
  "синь",
  "сирень",
]);

/** Nouns in «-ой» (most «-ой» words are adjectives: Злой, Крутой). */
const NOUNS_IN_OI = new Set([
  "бой",
  "герой",
  "ковбой",
  "изгой",
  "плейбой",
  "рой",
  "слой",
  "покой",
  "конвой",
  "прибой",
  "разбой",
  "гой",
]);
/** Nouns in «-гий», «-кий», «-хий» (most such words are adjectives: Великий, Тихий). */
const NOUNS_IN_VELAR_II = new Set(["георгий", "сергий"]);

const masculineHard = (stem: string, last: string): Endings => [
  `${stem}а`,
  `${stem}у`,
  `${stem}а`,
  `${stem}${last === "ц" ? "ем" : "ом"}`,
  `${stem}е`,
];

/** The oblique forms of one lower-case Cyrillic word, or null when it does not decline. */
function declineWord(w: string): Endings | null {
  const last = w.slice(-1);
  const before = w.slice(-2, -1);
  const stem1 = w.slice(0, -1);
  const stem2 = w.slice(0, -2);
  if (w.length < 2) return null;
  if ("оеэиыуюё".includes(last)) return null; // Кузьмичё, Лео, Мими: indeclinable
  if (w.endsWith("ых") || w.endsWith("их")) return null; // Черных, Долгих
  // Adjectives: Злой, Хитрый, Великий, Синий; Злая, Синяя.
  if ((w.endsWith("ой") && !NOUNS_IN_OI.has(w)) || w.endsWith("ый")) {
    const i = VELAR_OR_HUSHING.has(w.slice(-3, -2)) && w.endsWith("ой") ? "и" : "ы";
    return [
      `${stem2}ого`,
      `${stem2}ому`,
      `${stem2}ого`,
      `${stem2}${w.endsWith("ой") ? i : "ы"}м`,
      `${stem2}ом`,
    ];
  }
  if (w.endsWith("ий") && VELAR_OR_HUSHING.has(w.slice(-3, -2)) && !NOUNS_IN_VELAR_II.has(w)) {
    const hushing = HUSHING_OR_TS.has(w.slice(-3, -2));
    const o = hushing ? "е" : "о";
    return [`${stem2}${o}го`, `${stem2}${o}му`, `${stem2}${o}го`, `${stem2}им`, `${stem2}${o}м`];
  }
  if (w.length > 3 && w.endsWith("ая"))
    return [`${stem2}ой`, `${stem2}ой`, `${stem2}ую`, `${stem2}ой`, `${stem2}ой`];
  if (w.length > 3 && w.endsWith("яя"))
    return [`${stem2}ей`, `${stem2}ей`, `${stem2}юю`, `${stem2}ей`, `${stem2}ей`];
  if (last === "а") {
    const y = VELAR_OR_HUSHING.has(before) ? "и" : "ы";
    const oi = HUSHING_OR_TS.has(before) ? "ей" : "ой";
    return [`${stem1}${y}`, `${stem1}е`, `${stem1}у`, `${stem1}${oi}`, `${stem1}е`];
  }
  if (last === "я") {
    if (before === "и") return [`${stem1}и`, `${stem1}и`, `${stem1}ю`, `${stem1}ей`, `${stem1}и`]; // Мария
    if (w === "илья") return ["ильи", "илье", "илью", "ильёй", "илье"];
    return [`${stem1}и`, `${stem1}е`, `${stem1}ю`, `${stem1}ей`, `${stem1}е`];
  }
  if (last === "й") {
    const prep = before === "и" ? "и" : "е"; // Аркадии, Сергее
    return [`${stem1}я`, `${stem1}ю`, `${stem1}я`, `${stem1}ем`, `${stem1}${prep}`];
  }
  if (last === "ь") {
    if (FEMININE_SOFT.has(w) || w.endsWith("ость"))
      return [`${stem1}и`, `${stem1}и`, w, `${w}ю`, `${stem1}и`];
    return [`${stem1}я`, `${stem1}ю`, `${stem1}я`, `${stem1}ем`, `${stem1}е`];
  }
  // A consonant: a masculine noun, with a fleeting vowel where the stem is known to have one.
  const fleeting = FLEETING.get(w);
  if (fleeting) return masculineHard(fleeting, last);
  if (/[чшж]ок$/u.test(w)) return masculineHard(`${stem2}к`, last); // Дружок → Дружка
  if (w.endsWith("ёк"))
    return masculineHard(`${stem2}${"аеёиоуыэюя".includes(w.slice(-3, -2)) ? "й" : "ь"}к`, "к");
  return masculineHard(w, last);
}

/** The written word's case kept on its declined form: first letter, or all capitals. */
function likeWritten(written: string, form: string): string {
  if (written.length > 1 && written === written.toUpperCase()) return form.toUpperCase();
  const stem = [...form];
  const orig = [...written];
  return stem
    .map((ch, i) => (orig[i] !== undefined && orig[i] === orig[i]!.toUpperCase() ? ch.toUpperCase() : ch))
    .join("");
}

/** A nick in one case: «Бот Аркадий» → «Бота Аркадия» (gen). Latin letters or digits: as written. */
export function inflectNick(nick: string, grammaticalCase: NickCase): string {
  if (grammaticalCase === "nom") return nick;
  const parts = nick.split(SEPARATOR);
  const words = parts.filter((_, i) => i % 2 === 0 && parts[i] !== "");
  if (words.length === 0 || !words.every((w) => CYRILLIC_WORD.test(w))) return nick;
  const index = NICK_CASES.indexOf(grammaticalCase) - 1;
  return parts
    .map((part, i) => {
      if (i % 2 === 1 || part === "") return part;
      const forms = declineWord(part.toLowerCase());
      return forms ? likeWritten(part, forms[index]!) : part;
    })
    .join("");
}

/** All the case forms of a nick. */
export function nickForms(nick: string): NickForms {
  return {
    nom: nick,
    gen: inflectNick(nick, "gen"),
    dat: inflectNick(nick, "dat"),
    acc: inflectNick(nick, "acc"),
    ins: inflectNick(nick, "ins"),
    prep: inflectNick(nick, "prep"),
  };
}
