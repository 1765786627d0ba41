/**
 * Every fixture page (fixture-pages.ts: one day thread each, written by hand in an engine's markup, page
 * chrome included, with its .expected.json worked out by hand) read by readThread: the reader, the posts,
 * their authors and labels, quotes and dropped chrome, and the count.
 */
import { describe, expect, it } from "vitest";
import { countVotes, parseRoster, readThread, voteCountJson, voteCountPost } from "../src/index.ts";
import { FIXTURE_PAGES, pageHtml } from "./fixture-pages.ts";

it("has the pages of every engine and host the issues name", () => {
  expect(FIXTURE_PAGES.length).toBeGreaterThanOrEqual(22);
});

describe.each(FIXTURE_PAGES.map((p) => [p.name, p] as const))("the %s page", (name, { expected: want }) => {
  const { reader: engine, emoji } = want;
  const reading = readThread({ html: pageHtml(name) });

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
