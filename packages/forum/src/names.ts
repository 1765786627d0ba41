import { nickKey } from "./nick.ts";

/** A living player from PLAYERS.txt: the nickname, and the other names people use for them. */
export interface RosterPlayer {
  readonly name: string;
  readonly aliases: readonly string[];
}

/** What a name written in a post refers to. */
export type NameMatch =
  | { readonly kind: "player"; readonly name: string }
  | { readonly kind: "ambiguous"; readonly names: readonly string[] }
  | { readonly kind: "none" };

/** Characters a roster name may not hold: they would read as markup. */
const UNSAFE_NAME = /[<>[\]&"]/u;

/**
 * PLAYERS.txt: one living player a line, `Ник` or `Ник | alias | alias`; blank lines are skipped.
 * Throws, in English, on a name with markup characters or a name (or alias) given to two players.
 */
export function parseRoster(text: string): RosterPlayer[] {
  const players: RosterPlayer[] = [];
  const owner = new Map<string, string>();
  for (const line of text.split(/\r?\n/u)) {
    if (line.trim() === "") continue;
    const [name, ...aliases] = line.split("|").map((part) => part.trim().replace(/\s+/gu, " "));
    if (name === undefined || name === "" || aliases.some((a) => a === ""))
      throw new Error(`empty name in player line "${line.trim()}"`);
    for (const n of [name, ...aliases]) {
      if (UNSAFE_NAME.test(n)) throw new Error(`player name "${n}" has one of < > [ ] & "`);
      const previous = owner.get(nickKey(n));
      if (previous !== undefined && previous !== name)
        throw new Error(`name "${n}" is given to both ${previous} and ${name}`);
      owner.set(nickKey(n), name);
    }
    players.push({ name, aliases });
  }
  return players;
}

/**
 * Russian case endings a name may take in a post, after an optional hyphen ("Zybr-а", "Zybr-у"):
 * the genitive, dative, accusative, instrumental and prepositional forms of nouns and adjectives.
 */
const ENDINGS = [
  "а", "я", "у", "ю", "е", "и", "ы", "ой", "ей", "ом", "ем", "ём", "ою", "ею",
  "ого", "его", "ому", "ему", "ым", "им", "ую", "юю", "ов", "ев",
].map(nickKey); // prettier-ignore

/** Final letters a name drops before an ending: "Вася" → "Вас" + "ю", "Андрей" → "Андре" + "я". */
const DROPPED = new Set(["а", "я", "ь", "й", "о", "е", "ы", "и"].map(nickKey));

const CACHE_SIZE = 10_000;

/** Matching by case endings or a typo needs a key at least this long, so short nicks stay exact. */
const MIN_FUZZY_LENGTH = 3;

/**
 * Resolves names written in posts to roster players, in three steps; the first step that finds
 * anyone decides, and when it finds more than one player the name is ambiguous (never guessed):
 * 1. the same key (nickKey: case, ё = е, Latin look-alikes) as a nickname or alias;
 * 2. a Russian case ending: the key is a nickname or alias (of 3+ characters), or it without its
 *    final vowel, "ь" or "й", followed by an optional hyphen and one ending ("Васю", "Zybr-а");
 * 3. one typo: Damerau–Levenshtein distance 1 (one letter added, dropped, changed, or two neighbours
 *    swapped) from a nickname or alias of 3+ characters, and the text is 3+ characters too.
 * A leading `@` and surrounding punctuation are dropped first.
 */
export class NameResolver {
  private readonly keys: readonly { readonly key: string; readonly name: string }[];
  /** Answers already given: a hostile post may repeat one name a hundred thousand times. */
  private readonly cache = new Map<string, NameMatch>();

  constructor(players: readonly RosterPlayer[]) {
    this.keys = players.flatMap((p) =>
      [p.name, ...p.aliases].map((n) => ({ key: nickKey(n), name: p.name })),
    );
  }

  /** The player a post's author is: the same key as a nickname or alias, nothing looser. */
  author(author: string): string | null {
    const key = nickKey(author);
    return this.keys.find((k) => k.key === key)?.name ?? null;
  }

  resolve(written: string): NameMatch {
    const known = this.cache.get(written);
    if (known !== undefined) return known;
    const match = this.lookUp(written);
    if (this.cache.size < CACHE_SIZE) this.cache.set(written, match);
    return match;
  }

  private lookUp(written: string): NameMatch {
    const raw = nickKey(written);
    const stripped = nickKey(written.replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, ""));
    if (stripped === "") return { kind: "none" };
    const steps: ((k: string) => boolean)[] = [
      (k) => k === raw || k === stripped,
      (k) => k.length >= MIN_FUZZY_LENGTH && withEnding(stripped, k),
      (k) => k.length >= MIN_FUZZY_LENGTH && stripped.length >= MIN_FUZZY_LENGTH && oneEdit(stripped, k),
    ];
    for (const step of steps) {
      const names = [...new Set(this.keys.filter((k) => step(k.key)).map((k) => k.name))];
      if (names.length === 1) return { kind: "player", name: names[0]! };
      if (names.length > 1) return { kind: "ambiguous", names: names.sort() };
    }
    return { kind: "none" };
  }
}

function withEnding(text: string, key: string): boolean {
  const stems = DROPPED.has(key.at(-1) ?? "") ? [key, key.slice(0, -1)] : [key];
  return stems.some((stem) => {
    if (!text.startsWith(stem)) return false;
    const rest = text.slice(stem.length).replace(/^-/u, "");
    return ENDINGS.includes(rest);
  });
}

/** Damerau–Levenshtein distance exactly 1 (optimal string alignment), without building a table. */
function oneEdit(a: string, b: string): boolean {
  const x = Array.from(a);
  const y = Array.from(b);
  if (Math.abs(x.length - y.length) > 1 || a === b) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const same = (p: number, q: number): boolean => x.slice(p).join("") === y.slice(q).join("");
  if (x.length === y.length)
    return same(i + 1, i + 1) || (x[i] === y[i + 1] && x[i + 1] === y[i] && same(i + 2, i + 2));
  return x.length > y.length ? same(i + 1, i) : same(i, i + 1);
}
