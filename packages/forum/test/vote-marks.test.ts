import { describe, expect, it } from "vitest";
import { countVotes, parseRoster, votesInPost, type VoteColor } from "../src/index.ts";

/**
 * V2 (issue 14): the server's reader (votesInPost) and the vote counter for other forums (countVotes)
 * find the same vote marks, and differ only in how they match names. Expected values are written by
 * hand from the clause: between the nick and `КРАСНЫМ`/`СИНИМ` any whitespace, a line break included,
 * and at most one of `,` `:` `—` `-`.
 */
const NAMES = ["Вася", "Маша"] as const;
const ROSTER = parseRoster(NAMES.join("\n"));

/** The server's reading of a post: [colour, name] per vote. */
const server = (body: string): [VoteColor, string][] =>
  votesInPost(body, NAMES).map((v) => [v.color, v.name]);

/** The counter's reading of the same post, written by Маша: [colour, name] for her counted vote. */
const counter = (body: string): [VoteColor, string][] =>
  countVotes([{ author: "Маша", time: "", body }], {
    players: ROSTER,
    gm: null,
    day: 2,
    silenced: [],
  }).votes.map((v) => [v.color, v.target]);

describe("V2: one reading of votes in posts, for the server and the counter", () => {
  it.each([
    ['"Вася\\nКРАСНЫМ" is a red vote for Вася', "Вася\nКРАСНЫМ", "red"],
    ['"Вася, КРАСНЫМ" is a red vote for Вася', "Вася, КРАСНЫМ", "red"],
    ['"Вася\\nСИНИМ" is a blue vote for Вася', "Вася\nСИНИМ", "blue"],
    ['"Вася, СИНИМ" is a blue vote for Вася', "Вася, СИНИМ", "blue"],
    ['"Вася — КРАСНЫМ" is a red vote for Вася', "Вася — КРАСНЫМ", "red"],
    ['"Вася: КРАСНЫМ" is a red vote for Вася', "Вася: КРАСНЫМ", "red"],
    ['"Вася - КРАСНЫМ" is a red vote for Вася', "Вася - КРАСНЫМ", "red"],
    ['"Вася -\\nСИНИМ" is a blue vote for Вася', "Вася -\nСИНИМ", "blue"],
    ['"Вася\\n\\n:  КРАСНЫМ" is a red vote for Вася', "Вася\n\n:  КРАСНЫМ", "red"],
  ] as const)("V2: %s in the server's reader and in the counter", (_title, body, color) => {
    expect(server(body)).toEqual([[color, "Вася"]]);
    expect(counter(body)).toEqual([[color, "Вася"]]);
  });

  it.each([
    ['"Вася, - КРАСНЫМ"', "Вася, - КРАСНЫМ"],
    ['"Вася,, КРАСНЫМ"', "Вася,, КРАСНЫМ"],
    ['"Вася: — СИНИМ"', "Вася: — СИНИМ"],
    ['"Вася -- СИНИМ"', "Вася -- СИНИМ"],
  ])("V2: two separators, %s, count nothing in the server's reader and in the counter", (_title, body) => {
    expect(server(body)).toEqual([]);
    expect(counter(body)).toEqual([]);
  });
});
