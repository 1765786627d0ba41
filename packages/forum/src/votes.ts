import { nickKey } from "./nick.ts";
import type { VoteColor } from "./vote-color.ts";
import { voteMarks } from "./vote-marks.ts";

/** A vote written in a post (V2). */
export interface PostVote {
  readonly color: VoteColor;
  /** The entry of `names` that was voted for, as the caller gave it. */
  readonly name: string;
  /** V7: the post says "досрочно" outside quotes. */
  readonly early: boolean;
  /** Source offset of the vote: the `[color=…]` tag, or the first letter of the name before the word. */
  readonly index: number;
}

/**
 * Every vote in a post, in order of appearance; the caller takes the last (V1). The marks are read by
 * voteMarks (V2: `[color=red]Nick[/color]`, `Nick КРАСНЫМ`, `Nick, СИНИМ`…); names are matched exactly,
 * by nickKey, and when several names fit before a word the longest wins ("Оля К" over "К").
 */
export function votesInPost(source: string, names: readonly string[]): PostVote[] {
  const byKey = keysOf(names);
  const { marks, early } = voteMarks(source, {
    coloured: (tag) => byKey.get(nickKey(tag.text)) ?? null,
    written: (candidates) => {
      const at = candidates.findIndex((c) => byKey.has(nickKey(c)));
      const name = byKey.get(nickKey(candidates[at] ?? ""));
      return at < 0 || name === undefined ? null : { at, name };
    },
  });
  return marks.map((m) => ({ color: m.color, name: m.name, early, index: m.index }));
}

/** Text in a vote colour that names no player: no vote (V2), though its author may have meant one. */
export interface UnmatchedColour {
  readonly color: VoteColor;
  /** The tag's text, trimmed, inner whitespace collapsed. */
  readonly text: string;
  /** The players it may have meant, closest first (see nearestNames); may be empty. */
  readonly nearest: readonly string[];
  /** Source offset of the `[color=…]` tag. */
  readonly index: number;
}

/**
 * The colour tags votesInPost rejects (V2): outside quotes, of a vote colour, holding only text and
 * `[b] [i] [u]`, whose text is not a player's name. Each comes with the names it may have meant, so a
 * composer can warn before the post is sent (a red "Кролик" for «Белый Кролик» is no vote).
 */
export function unmatchedColours(source: string, names: readonly string[]): UnmatchedColour[] {
  const byKey = keysOf(names);
  const out: UnmatchedColour[] = [];
  voteMarks(source, {
    coloured: (tag) => {
      const name = byKey.get(nickKey(tag.text));
      if (name !== undefined) return name;
      const shown = tag.text.replace(/\s+/gu, " ");
      out.push({ color: tag.color, text: shown, nearest: nearestNames(shown, names), index: tag.index });
      return null;
    },
    written: () => null,
  });
  return out;
}

/** How many names nearestNames offers at most. */
const NEAREST_COUNT = 3;

/**
 * The names a text may have meant, closest first, at most three: names that contain it or that it
 * contains as a whole word or more ("Кролик" → «Белый Кролик»), then names within an edit distance of a
 * third of their length (at least 1, at most 3), compared by nickKey. Texts under 2 characters mean nobody.
 */
export function nearestNames(text: string, names: readonly string[]): string[] {
  const key = nickKey(text);
  if (Array.from(key).length < 2) return [];
  const scored: { name: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const k = nickKey(name);
    if (seen.has(k) || k === key) continue;
    seen.add(k);
    const length = Array.from(k).length;
    if (k.includes(key) || (length >= 2 && key.includes(k))) {
      scored.push({ name, score: 0 });
      continue;
    }
    const limit = Math.min(3, Math.max(1, Math.floor(length / 3)));
    const d = editDistance(key, k, limit);
    if (d <= limit) scored.push({ name, score: d });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, NEAREST_COUNT)
    .map((s) => s.name);
}

/** Levenshtein distance by code point, or `limit + 1` once it is surely above `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  const x = Array.from(a);
  const y = Array.from(b);
  if (Math.abs(x.length - y.length) > limit) return limit + 1;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      const v = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(v);
      best = Math.min(best, v);
    }
    if (best > limit) return limit + 1;
    previous = row;
  }
  return previous[y.length]!;
}

const keysOf = (names: readonly string[]): Map<string, string> => {
  const byKey = new Map<string, string>();
  for (const name of names) {
    const key = nickKey(name);
    if (!byKey.has(key)) byKey.set(key, name);
  }
  return byKey;
};
