import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeColor } from "../src/color.ts";
import { votesInPost, type PostVote } from "../src/index.ts";
import { voteColorOf } from "../src/vote-color.ts";

const NAMES = ["Вася", "Оля", "Оля К", "Anna", "Ёжик", "Петя Иванов", "Кот"] as const;

/** The votes of a post as [colour, name] pairs, in order. */
const votes = (post: string): [PostVote["color"], string][] =>
  votesInPost(post, NAMES).map((v) => [v.color, v.name]);

describe("votesInPost", () => {
  it.each([
    // V2: the two forms, both colours
    ["V2: a red colour tag around a name", "[color=red]Вася[/color]", [["red", "Вася"]]],
    ["V2: a blue colour tag around a name", "[color=blue]Вася[/color]", [["blue", "Вася"]]],
    ["V2: a name before КРАСНЫМ", "Вася КРАСНЫМ", [["red", "Вася"]]],
    ["V2: a name before СИНИМ", "Вася СИНИМ", [["blue", "Вася"]]],
    [
      "V2: the words in any case",
      "вася красным, Оля Синим",
      [
        ["red", "Вася"],
        ["blue", "Оля"],
      ],
    ],
    ["V2: the words in mixed case", "Кот КрАсНыМ", [["red", "Кот"]]],
    ["V2: the word in its own tag", "[b]Вася[/b] [i]КРАСНЫМ[/i]", [["red", "Вася"]]],
    ["V2: the word after a name in a line of text", "Голосую: Вася КРАСНЫМ!", [["red", "Вася"]]],
    // V2: colour spellings
    ["V2: Red", "[color=Red]Вася[/color]", [["red", "Вася"]]],
    ["V2: RED", "[COLOR=RED]Вася[/COLOR]", [["red", "Вася"]]],
    ["V2: #FF0000", "[color=#FF0000]Вася[/color]", [["red", "Вася"]]],
    ["V2: #f00", "[color=#f00]Вася[/color]", [["red", "Вася"]]],
    ["V2: darkred", "[color=darkred]Вася[/color]", [["red", "Вася"]]],
    ["V2: crimson", "[color=crimson]Вася[/color]", [["red", "Вася"]]],
    ["V2: firebrick", "[color=firebrick]Вася[/color]", [["red", "Вася"]]],
    ["V2: maroon", "[color=maroon]Вася[/color]", [["red", "Вася"]]],
    ["V2: #c00", "[color=#c00]Вася[/color]", [["red", "Вася"]]],
    ["V2: #0000FF", "[color=#0000FF]Вася[/color]", [["blue", "Вася"]]],
    ["V2: #00f", "[color=#00f]Вася[/color]", [["blue", "Вася"]]],
    ["V2: navy", "[color=navy]Вася[/color]", [["blue", "Вася"]]],
    ["V2: darkblue", "[color=darkblue]Вася[/color]", [["blue", "Вася"]]],
    ["V2: royalblue", "[color=royalblue]Вася[/color]", [["blue", "Вася"]]],
    ["V2: Blue", "[color=Blue]Вася[/color]", [["blue", "Вася"]]],
    // V2: a colour that is neither is no vote
    ["V2: green is no vote", "[color=green]Вася[/color]", []],
    ["V2: grey is no vote", "[color=grey]Вася[/color]", []],
    ["V2: #808080 is no vote", "[color=#808080]Вася[/color]", []],
    ["V2: orange is no vote", "[color=orange]Вася[/color]", []],
    ["V2: pink is no vote", "[color=pink]Вася[/color]", []],
    ["V2: purple is no vote", "[color=purple]Вася[/color]", []],
    ["V2: skyblue is no vote", "[color=skyblue]Вася[/color]", []],
    ["V2: black is no vote", "[color=black]Вася[/color]", []],
    ["V2: an unsafe colour is no vote", "[color=red;x]Вася[/color]", []],
    ["V2: an unknown colour is no vote", "[color=reddish]Вася[/color]", []],
    ["V2: a name without a colour is no vote", "Вася", []],
    ["V2: a bold name is no vote", "[b]Вася[/b]", []],
    // V2: the coloured text must be a name, and only a name
    ["V2: coloured text that is not a name", "[color=red]Привет всем[/color]", []],
    ["V2: two names in one colour tag", "[color=red]Вася и Оля[/color]", []],
    ["V2: a name inside longer coloured text", "[color=red]за Васю[/color]", []],
    ["V2: spaces around the coloured name", "[color=red]  Вася \n[/color]", [["red", "Вася"]]],
    [
      "V2: [b] [i] [u] inside the colour tag",
      "[color=red][b][i][u]Вася[/u][/i][/b][/color]",
      [["red", "Вася"]],
    ],
    ["V2: only [b] [i] [u] are ignored in the colour tag, not [s]", "[color=red][s]Вася[/s][/color]", []],
    ["V2: a link inside the colour tag is no vote", "[color=red][url]Вася[/url][/color]", []],
    ["V2: a colour tag inside bold", "[b][color=blue]Вася[/color][/b]", [["blue", "Вася"]]],
    [
      "V2: a vote colour inside another colour",
      "[color=green][color=red]Вася[/color][/color]",
      [["red", "Вася"]],
    ],
    ["V2: an unclosed colour tag is no vote", "[color=red]Вася", []],
    // V2: names are matched by nickKey
    ["V2: a name in capitals", "ВАСЯ КРАСНЫМ", [["red", "Вася"]]],
    ["V2: Latin look-alike letters", "[color=red]Bася[/color]", [["red", "Вася"]]],
    ["V2: a Cyrillic А in a Latin name", "Аnna СИНИМ", [["blue", "Anna"]]],
    ["V2: ё written as е", "ежик КРАСНЫМ", [["red", "Ёжик"]]],
    ["V2: е written as ё", "[color=red]ЁЖИК[/color]", [["red", "Ёжик"]]],
    // V2: names with spaces, and a name that begins another
    ["V2: a name with a space", "Петя Иванов КРАСНЫМ", [["red", "Петя Иванов"]]],
    ["V2: a name with its space doubled", "Петя  Иванов СИНИМ", [["blue", "Петя Иванов"]]],
    ["V2: a coloured name with a space", "[color=red]Петя Иванов[/color]", [["red", "Петя Иванов"]]],
    ["V2: a name does not run across lines", "Петя\nИванов КРАСНЫМ", []],
    ["V2: the longer name wins: Оля К", "Оля К КРАСНЫМ", [["red", "Оля К"]]],
    ["V2: the shorter name alone: Оля", "Оля КРАСНЫМ", [["red", "Оля"]]],
    ["V2: coloured Оля К", "[color=red]Оля К[/color]", [["red", "Оля К"]]],
    ["V2: coloured Оля", "[color=blue]Оля[/color]", [["blue", "Оля"]]],
    // V2: the name stands right before the word, from a word boundary
    ["V2: a name ending another word is no vote", "Коля КРАСНЫМ", []],
    ["V2: a name glued to the word is no vote", "ВасяКРАСНЫМ", []],
    ["V2: one comma between is a vote", "Вася, КРАСНЫМ", [["red", "Вася"]]],
    ["V2: the word before the name is no vote", "КРАСНЫМ Вася", []],
    ["V2: a longer word is no vote", "Вася КРАСНЫМИ", []],
    ["V2: a name on the line before the word", "Вася\nКРАСНЫМ", [["red", "Вася"]]],
    ["V2: a word with nothing before it", "КРАСНЫМ", []],
    // Quotes hold no votes, at any depth
    ["V2: a quoted word vote does not count", "[quote]Вася КРАСНЫМ[/quote]", []],
    ["V2: a quoted colour vote does not count", "[quote=Оля][color=red]Вася[/color][/quote]", []],
    [
      "V2: a vote in a nested quote does not count",
      "[quote][quote]Вася СИНИМ[/quote]Оля КРАСНЫМ[/quote]",
      [],
    ],
    [
      "V2: the quoted vote no, the own vote yes",
      "[quote=Оля]Вася КРАСНЫМ[/quote]\nОля СИНИМ",
      [["blue", "Оля"]],
    ],
    ["V2: a quote in any case", "[QUOTE]Вася КРАСНЫМ[/Quote] Кот СИНИМ", [["blue", "Кот"]]],
    ["V2: an unclosed quote is no quote", "[quote]Вася КРАСНЫМ", [["red", "Вася"]]],
    ["V2: a stray closing tag does not end a quote", "[quote=Оля]жирно[/b] Вася КРАСНЫМ[/quote]", []],
    [
      "V2: a tag left open does not keep a quote open",
      "[quote][b]Вася КРАСНЫМ[/quote] Кот СИНИМ",
      [["blue", "Кот"]],
    ],
    ["V2: a vote in a spoiler counts", "[spoiler]Вася КРАСНЫМ[/spoiler]", [["red", "Вася"]]],
    ["V2: a vote inside a literal tag counts", "[size=5]Вася КРАСНЫМ[/size]", [["red", "Вася"]]],
    // V1: all votes in order; the caller takes the last
    [
      "V1: every vote in order of appearance",
      "Вася КРАСНЫМ, нет, передумал: [color=blue]Оля[/color]. Кот СИНИМ",
      [
        ["red", "Вася"],
        ["blue", "Оля"],
        ["blue", "Кот"],
      ],
    ],
    ["V1: both forms at once are one vote", "[color=red]Вася[/color] КРАСНЫМ", [["red", "Вася"]]],
    [
      "V1: a word after a different colour is a second vote",
      "[color=blue]Вася[/color] КРАСНЫМ",
      [
        ["blue", "Вася"],
        ["red", "Вася"],
      ],
    ],
    ["V1: a name not in the list is no vote", "Гоша КРАСНЫМ Вася СИНИМ", [["blue", "Вася"]]],
  ])("%s: %j", (_title, post, expected) => {
    expect(votes(post)).toEqual(expected);
  });

  it("V2: names are returned as the caller gave them", () => {
    expect(votesInPost("ВАСЯ красным", ["вася"])).toEqual([
      { color: "red", name: "вася", early: false, index: 0 },
    ]);
  });

  it("V2: index is the source offset of the colour tag or of the name", () => {
    const post = "[b]x[/b] [color=red]Вася[/color] и  [i]Оля К[/i] СИНИМ";
    expect(votesInPost(post, NAMES).map((v) => v.index)).toEqual([9, 39]);
    expect(post.slice(9).startsWith("[color=red]")).toBe(true);
    expect(post.slice(39).startsWith("Оля К")).toBe(true);
  });

  it("V2: index counts every written character, line breaks and dropped closing tags included", () => {
    const post = "[/b]\r\n[quote]a[/quote][/quote] Вася СИНИМ";
    expect(votesInPost(post, NAMES).map((v) => post.slice(v.index, v.index + 4))).toEqual(["Вася"]);
  });

  it.each([
    ["Вася КРАСНЫМ досрочно", true],
    ["Вася КРАСНЫМ ДОСРОЧНО", true],
    ["Досрочно: [color=red]Вася[/color]", true],
    ["[b]досрочно[/b]\nВася СИНИМ", true],
    ["Вася КРАСНЫМ", false],
    ["[quote]досрочно[/quote] Вася КРАСНЫМ", false],
    ["[quote][quote]ДОСРОЧНО[/quote][/quote] Вася КРАСНЫМ", false],
    ["Вася КРАСНЫМ, досрочного закрытия не хочу", false],
  ])("V7: the word досрочно outside quotes marks every vote of the post early: %j → %s", (post, early) => {
    const found = votesInPost(post, NAMES);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => v.early === early)).toBe(true);
  });

  it("V2: property: nothing inside a quote is ever a vote", () => {
    const piece = fc.constantFrom(
      ...NAMES,
      " ",
      "\n",
      "КРАСНЫМ",
      "синим",
      "[color=red]",
      "[color=#00f]",
      "[/color]",
      "[b]",
      "[/b]",
      "[spoiler]",
      "[/spoiler]",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.string(), (pieces, after) => {
        const post = `[quote]${pieces.join("")}[/quote]${after.replace(/[[\]]/g, "")}`;
        const inside = votesInPost(post, NAMES).filter((v) => v.index < post.indexOf("[/quote]"));
        expect(inside).toEqual([]);
      }),
      { seed: 3305, numRuns: 500 },
    );
  });

  it.each([
    ["red", ["red", "darkred", "maroon", "firebrick", "crimson", "brown", "indianred", "tomato"]],
    ["red", ["#f00", "#FF0000", "#800000", "#c00", "#e60000", "#ff3333"]],
    [
      "blue",
      ["blue", "navy", "darkblue", "mediumblue", "midnightblue", "royalblue", "dodgerblue", "cornflowerblue"],
    ],
    ["blue", ["steelblue", "slateblue", "mediumslateblue", "#00f", "#0000FF", "#000080", "#06f", "#3366ff"]],
    [null, ["orange", "orangered", "coral", "pink", "salmon", "lightcoral", "hotpink", "mistyrose", "snow"]],
    [
      null,
      ["deepskyblue", "skyblue", "lightblue", "aliceblue", "cyan", "purple", "darkslateblue", "blueviolet"],
    ],
    [null, ["green", "grey", "black", "white", "#000", "#fff", "#808080", "#200000", "#ffcccc", "#ccccff"]],
  ])("V2: these colours read as %s", (expected, colours) => {
    expect(colours.map((c) => voteColorOf(safeColor(c)!))).toEqual(colours.map(() => expected));
  });
});
