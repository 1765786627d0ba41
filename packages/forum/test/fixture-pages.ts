/**
 * The fixture pages (fixtures/pages/<name>.html), one day thread each, written by hand in an engine's
 * markup: the catalogue every test that reads them shares (the readers, the generic reader alone, the CLI,
 * the API, the encoding twins and a real paste in Chromium), so a page added with its .expected.json is
 * checked everywhere at once. Beside each page, <name>.expected.json, worked out by hand from the page:
 * {
 *   "reader": the reader that must read it ("generic" for a page no engine reader knows),
 *   "emoji": the text Дина's emoji (post 5) keeps as that page's `alt`, or "позже" when it keeps none,
 *   "players": PLAYERS.txt's text ("Ник\nНик | alias…"), "gm": the GM's nick, "day": the day counted,
 *   "posts": how many posts the page holds, "authors": each author once, in order of first post,
 *   "first" / "last": the first and last post's label ("#21", "p4501"…),
 *   "count": the exact BBCode count post, "votes": the counted votes as the CLI prints them
 *   ({"by", "red" | "blue", "early", "post"}, sorted by voter; "post" is the post's index on the page)
 * }
 * A name ending in "-fragment" is a clipboard fragment (the posts' markup a browser copies when several
 * posts are selected, no page around them); every other page is a whole saved page, with its meta charset.
 * Pages named notthread-* are no thread and have no .expected.json.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ForumEngine } from "../src/index.ts";

export const PAGES = join(import.meta.dirname, "fixtures/pages");

export interface ExpectedPage {
  readonly reader: ForumEngine;
  readonly emoji: string;
  readonly players: string;
  readonly gm: string;
  readonly day: number;
  readonly posts: number;
  readonly authors: readonly string[];
  readonly first: string;
  readonly last: string;
  readonly count: string;
  readonly votes: readonly unknown[];
}

export interface FixturePage {
  readonly name: string;
  /** A whole saved page (with its meta charset), not a clipboard fragment. */
  readonly whole: boolean;
  readonly expected: ExpectedPage;
}

const SUFFIX = ".expected.json";

/** Every fixture page with its expected reading, by name. */
export const FIXTURE_PAGES: readonly FixturePage[] = readdirSync(PAGES)
  .filter((f) => f.endsWith(SUFFIX))
  .sort()
  .map((f) => {
    const name = f.slice(0, -SUFFIX.length);
    const expected = JSON.parse(readFileSync(join(PAGES, f), "utf8")) as ExpectedPage;
    return { name, whole: !name.endsWith("-fragment"), expected };
  });

export const pageHtml = (name: string): string => readFileSync(join(PAGES, `${name}.html`), "utf8");
