/**
 * The fixture pages (test/fixtures/pages/<engine>.html): one day thread each, written by hand in that
 * engine's markup, page chrome included. Beside each, <engine>.expected.json, worked out by hand from the
 * page (helper B's browser test reads the same files):
 * {
 *   "players": PLAYERS.txt's text ("Ник\nНик | alias…"), "gm": the GM's nick, "day": the day counted,
 *   "posts": how many posts the page holds, "authors": each author once, in order of first post,
 *   "first" / "last": the first and last post's label ("#21", "p4501"…),
 *   "count": the exact BBCode count post, "votes": the counted votes as the CLI prints them
 *   ({"by", "red" | "blue", "early", "post"}, sorted by voter; "post" is the post's index on the page)
 * }
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  countVotes,
  parseRoster,
  readThread,
  voteCountJson,
  voteCountPost,
  type ForumEngine,
} from "../src/index.ts";

const PAGES = join(import.meta.dirname, "fixtures/pages");

interface Expected {
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

/** Each page, the reader that must read it, and the text of Дина's emoji (post 5) as that page's `alt`. */
const ENGINES: readonly (readonly [string, ForumEngine, string])[] = [
  ["phpbb", "phpbb", "🤔"],
  ["invision", "invision", "🤔"],
  ["xenforo", "xenforo", "🤔"],
  ["vbulletin4", "vbulletin", "позже"], // vBulletin 4's smilies have an empty alt: nothing to keep
  ["vbulletin5", "vbulletin", ":confused:"],
  ["smf", "smf", "???"],
  ["discourse", "discourse", ":thinking:"],
  ["generic", "generic", "🤔"],
  // Issue 30: engines and templates that read wrong before, each as a saved page and as a clipboard
  // fragment (the posts' markup a browser copies when several posts are selected, no page around them).
  ["smf-core-page", "smf", "???"], // SMF 2.0 with no post_wrapper: the poster is div.floatleft.poster
  ["smf-core-fragment", "smf", "???"],
  ["smf11-page", "smf", "???"],
  ["smf11-fragment", "smf", "???"],
  ["smf21-page", "smf", "???"],
  ["smf21-fragment", "smf", "???"],
  ["phpbb-bootstrap-page", "phpbb", ":?"], // phpBB 3 in a Bootstrap style: div.post.row-fluid, div.author
  ["phpbb-bootstrap-fragment", "phpbb", ":?"],
  ["phpbb2-subsilver-page", "phpbb", "позже"], // phpBB 2's smilies have a long alt and no class: dropped
  ["phpbb2-subsilver-fragment", "phpbb", "позже"],
  ["vbulletin3-page", "vbulletin", "позже"], // vBulletin 3's smilies have an empty alt, as 4's
  ["vbulletin3-fragment", "vbulletin", "позже"],
  ["vbulletin3-custom-page", "vbulletin", "позже"], // table.post#postN, dt.author, no post_message_N
  ["vbulletin3-custom-fragment", "vbulletin", "позже"],
];

const page = (name: string): string => readFileSync(join(PAGES, `${name}.html`), "utf8");
const expected = (name: string): Expected =>
  JSON.parse(readFileSync(join(PAGES, `${name}.expected.json`), "utf8")) as Expected;

describe.each(ENGINES)("the %s page", (name, engine, emoji) => {
  const want = expected(name);
  const reading = readThread({ html: page(name) });

  it(`is read by the ${engine} reader`, () => {
    expect(reading.kind).toBe("html");
    expect(reading.engine).toBe(engine);
  });

  it("finds every post, its author and its label", () => {
    expect(reading.posts).toHaveLength(want.posts);
    expect([...new Set(reading.posts.map((p) => p.author))]).toEqual(want.authors);
    expect(reading.posts[0]?.label).toBe(want.first);
    expect(reading.posts.at(-1)?.label).toBe(want.last);
  });

  it("marks quotes, keeps nested quotes nested, drops signatures, edit notes and bars", () => {
    const bodies = reading.posts.map((p) => p.body);
    // Post 2 quotes Аня's vote; post 4 quotes Борис quoting Аня.
    expect(bodies[2]).toMatch(/^\[quote\][\s\S]*Борис[\s\S]*\[\/quote\][\s\S]*Гоша/u);
    expect(bodies[4]).toMatch(/\[quote\][\s\S]*\[quote\][\s\S]*\[\/quote\][\s\S]*\[\/quote\]/u);
    for (const body of bodies) {
      expect(body).not.toMatch(/редактир|Изменено|верьте мне|Любимый ник|Нравится|Жалоба|Цитир|Ответить/iu);
      expect(body).not.toMatch(/Спойлер|Скрытый текст|Показать|Нажмите|Посмотреть сообщение/u);
      expect(body).not.toMatch(/<|>/u);
    }
    expect(bodies[5]).toBe(`Пока думаю, голос будет позже${emoji === "позже" ? "" : ` ${emoji}`}`);
    // The spoiler's content stays (Вика's vote is in it).
    expect(bodies[3]).toMatch(/Гоша/u);
  });

  it("V1: counts the day as worked out by hand", () => {
    const count = countVotes(reading.posts, {
      players: parseRoster(want.players),
      gm: want.gm,
      day: want.day,
      silenced: [],
    });
    expect(voteCountPost(count, want.day)).toBe(want.count);
    expect((voteCountJson(count, "") as { votes: unknown }).votes).toEqual(want.votes);
  });
});
