import type { FoundPost } from "./read.ts";

/**
 * A post's heading in a page copied as plain text, as phpBB writes it: `Сообщение Ник » 02 мар 2024, 18:12`
 * (`Post by Name » …` in English, `Ник » …` in older styles). Bounded lengths, no nested quantifiers.
 */
const HEADING = /^(?:Сообщение\s+|Post\s+by\s+|by\s+)?(\S[^»\n]{0,39}?)\s+»\s+(\S[^»\n]{3,60})$/u;
/** The date part must hold a digit (a year, a day or a time). */
const HAS_DIGIT = /\d/u;
/** Fewer headings than this are no clear pattern. */
const MIN_POSTS = 2;

/**
 * Plain text has no colours; its posts are found only when a clear heading pattern repeats (phpBB's
 * `Ник » date` line), else none. A vote written in words (`Ник КРАСНЫМ`) still counts from them.
 */
export function readPlainText(text: string): FoundPost[] {
  const lines = text.split(/\r?\n/u);
  const posts: { author: string; time: string; lines: string[] }[] = [];
  for (const line of lines) {
    const heading = line.length <= 120 ? HEADING.exec(line.trim()) : null;
    if (heading !== null && HAS_DIGIT.test(heading[2]!)) {
      posts.push({ author: heading[1]!.trim(), time: heading[2]!.trim(), lines: [] });
      continue;
    }
    posts.at(-1)?.lines.push(line);
  }
  if (posts.length < MIN_POSTS) return [];
  return posts.map((p) => ({ author: p.author, time: p.time, body: p.lines.join("\n").trim(), label: null }));
}
