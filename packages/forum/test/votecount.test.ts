import { describe, expect, it } from "vitest";
import {
  countVotes,
  htmlToBBCode,
  NameResolver,
  parseRoster,
  voteCountJson,
  voteCountPost,
  type ThreadPost,
  type VoteCount,
  type VoteCountOptions,
} from "../src/index.ts";

const ROSTER = parseRoster(
  ["Вася", "Петя | Петруччо", "Zybr", "Маша", "Коля", "Оля", "Оля К", "Андрей", "Хомяк", "Хорёк"].join("\n"),
);

const post = (author: string, body: string): ThreadPost => ({ author, time: "2026-05-01T10:00:00Z", body });

function count(posts: readonly ThreadPost[], options: Partial<VoteCountOptions> = {}): VoteCount {
  return countVotes(posts, { players: ROSTER, gm: "Ведущий", day: 2, silenced: [], ...options });
}

/** The counted votes as "voter colour target" strings. */
const summary = (c: VoteCount): string[] => c.votes.map((v) => `${v.by} ${v.color} ${v.target}`);
/** The vote a single post by Вася gives. */
const single = (body: string): string[] => summary(count([post("Вася", body)]));

describe("the names people write", () => {
  const resolver = new NameResolver(ROSTER);
  it.each([
    ["case and ё", "ХОРЕК", "Хорёк"],
    ["Latin look-alikes", "Xомяк", "Хомяк"],
    ["a leading @ and punctuation", "@Маша!", "Маша"],
    ["an alias", "петруччо", "Петя"],
    ["a case ending on a dropped vowel", "Васю", "Вася"],
    ["a case ending after a hyphen", "Zybr-а", "Zybr"],
    ["a case ending in Latin letters", "zybr-y", "Zybr"],
    ["an ending on a name ending in й", "Андрея", "Андрей"],
    ["one typo", "Андрэй", "Андрей"],
    ["two letters swapped", "Мшаа", "Маша"],
    ["the longest name that is a player", "Оля К", "Оля К"],
  ])("%s: %s is %s", (_, written, name) => {
    expect(resolver.resolve(written)).toEqual({ kind: "player", name });
  });

  it.each([
    ["one typo from two players", "Хомёк", ["Хомяк", "Хорёк"]],
    ["a typo that fits two players", "Поля", ["Коля", "Оля"]],
  ])("ambiguous: %s (%s)", (_, written, names) => {
    expect(resolver.resolve(written)).toEqual({ kind: "ambiguous", names });
  });

  it.each(["Гена", "Петруша", "Машенька", ""])("no player: %s", (written) => {
    expect(resolver.resolve(written)).toEqual({ kind: "none" });
  });

  it("refuses a roster that gives one name to two players, or markup in a name", () => {
    expect(() => parseRoster("Вася\nПетя | вася")).toThrow(/both/u);
    expect(() => parseRoster("<b>Вася</b>")).toThrow(/</u);
  });
});

describe("dialects", () => {
  it.each([
    ["phpBB", "Считаю, что это он.\n[color=#FF0000]Петя[/color]", ["Вася red Петя"]],
    ["phpBB short hex", "[color=#f00]Петя[/color]", ["Вася red Петя"]],
    ["vBulletin", '[COLOR="Red"][B]Петя[/B][/COLOR]', ["Вася red Петя"]],
    ["vBulletin palette blue", '[COLOR="RoyalBlue"]Маша[/COLOR]', ["Вася blue Маша"]],
    ["palette #BF0000", "[color=#BF0000]Маша[/color]", ["Вася red Маша"]],
    ["palette navy", "[color=navy]Маша[/color]", ["Вася blue Маша"]],
    ["palette #0040FF", "[color=#0040FF]Маша[/color]", ["Вася blue Маша"]],
    ["IPB HTML", '<p>Мой голос: <span style="color: rgb(255, 0, 0);">Петя</span></p>', ["Вася red Петя"]],
    [
      "XenForo HTML",
      '<div class="bbWrapper"><span style="color: #0000ff">@Коля</span><br />досрочно</div>',
      ["Вася blue Коля"],
    ],
    ["old HTML font", '<font color="darkred">Маша</font>', ["Вася red Маша"]],
    ["phone-typed", "ну всё, петю красным", ["Вася red Петя"]],
    ["phone-typed blue", "Zybr-а СИНИМ", ["Вася blue Zybr"]],
    ["phone-typed, a name of two words", "голосую Оля К КРАСНЫМ", ["Вася red Оля К"]],
    ["phone-typed in colour", "[color=red]Маша КРАСНЫМ[/color]", ["Вася red Маша"]],
  ])("V2: %s", (_, body, expected) => {
    expect(single(body)).toEqual(expected);
  });

  it.each([
    ["green", "[color=green]Петя[/color]"],
    ["purple", "[color=purple]Петя[/color]"],
    ["orange", "[color=orange]Петя[/color]"],
    ["uncoloured", "Петя"],
    ["coloured prose", "[color=red]Петя сегодня очень подозрителен[/color]"],
  ])("V2: %s is no vote", (_, body) => {
    expect(single(body)).toEqual([]);
  });
});

describe("V1: quotes, changes and the last vote", () => {
  it.each([
    ["[quote]", "[quote][color=red]Петя[/color][/quote]"],
    ['[quote="X"]', '[quote="Маша"]Петя КРАСНЫМ[/quote]'],
    ["[quote=X;123]", "[quote=Маша;123][color=red]Петя[/color][/quote]"],
    [
      "<blockquote>",
      '<blockquote class="bbCodeBlock--quote"><span style="color:red">Петя</span></blockquote>',
    ],
    ["vBulletin HTML quote box", '<div class="bbcode_quote"><font color="red">Петя</font></div>'],
  ])("V1: a vote inside %s never counts", (_, body) => {
    expect(single(body)).toEqual([]);
  });

  it("V1: the last vote in a post wins", () => {
    expect(single("[color=red]Петя[/color], нет, передумал: [color=blue]Маша[/color]")).toEqual([
      "Вася blue Маша",
    ]);
  });

  it("V1: each player's last vote counts, with the post it came from", () => {
    const c = count([post("Вася", "Петя КРАСНЫМ"), post("Маша", "Петя КРАСНЫМ"), post("Вася", "Маша синим")]);
    expect(c.votes).toEqual([
      { by: "Вася", color: "blue", target: "Маша", early: false, post: 2 },
      { by: "Маша", color: "red", target: "Петя", early: false, post: 1 },
    ]);
  });

  it("V2: a coloured name followed by its word is one vote, and nothing is reported", () => {
    for (const body of ["[color=red]Петя[/color] КРАСНЫМ", "[color=red]Петя КРАСНЫМ[/color]"]) {
      const c = count([post("Вася", body)]);
      expect(summary(c)).toEqual(["Вася red Петя"]);
      expect(c.ignored).toEqual([]);
    }
  });
});

describe("V7: early votes", () => {
  const thread = [
    post("Вася", "Петя КРАСНЫМ досрочно"),
    post("Вася", "[color=blue]Маша[/color]"),
    post("Маша", "[quote]досрочно[/quote] Вася КРАСНЫМ"),
  ];

  it("V7: from day 3 an early vote cannot be changed, and the later vote is reported", () => {
    const c = count(thread, { day: 3 });
    expect(summary(c)).toEqual(["Вася red Петя", "Маша red Вася"]);
    expect(c.votes.map((v) => v.early)).toEqual([true, false]);
    expect(c.ignored).toEqual([
      { post: 1, text: "[color=blue]Маша[/color]", reason: "Вася already voted early in post 0 (V7)" },
    ]);
  });

  it("V7: before day 3, or on an unknown day, the word has no effect", () => {
    for (const day of [2, null]) {
      const c = count(thread, { day });
      expect(summary(c)).toEqual(["Вася blue Маша", "Маша red Вася"]);
      expect(c.votes.every((v) => !v.early)).toBe(true);
    }
  });

  it("V7: the counter reports early votes for both earlyClose readings and closes nothing", () => {
    const voters = ["Вася", "Петя", "Маша", "Коля"];
    const early = count(
      voters.map((v, i) => post(v, `${voters[(i + 1) % 4]!} КРАСНЫМ${i < 3 ? " досрочно" : ""}`)),
      { day: 4, players: parseRoster(voters.join("\n")) },
    ).votes.filter((v) => v.early).length;
    expect(early).toBe(3);
    // "majority": more than half of 4 have voted early; "all": not everyone has. The GM decides.
    expect(early > voters.length / 2).toBe(true);
    expect(early === voters.length).toBe(false);
  });
});

describe("what is ignored", () => {
  it("V2: the GM's coloured text does not count", () => {
    const c = count([post("Ведущий", "[color=red]Вася[/color] (2): Петя, Маша\n[color=blue]Коля[/color]")]);
    expect(c.votes).toEqual([]);
    expect(c.ignored).toEqual([
      { post: 0, text: "[color=red]Вася[/color], [color=blue]Коля[/color]", reason: "post by the GM" },
    ]);
  });

  it("V1: posts by non-players and the dead are reported", () => {
    const c = count([post("Гена", "Петя КРАСНЫМ")]);
    expect(c.votes).toEqual([]);
    expect(c.ignored[0]?.reason).toMatch(/Гена, who is not a living player/u);
  });

  it("V6: a silenced player's vote is reported, and they are not listed as not voted", () => {
    const c = count([post("коля", "Петя КРАСНЫМ")], { silenced: ["Коля"] });
    expect(c.votes).toEqual([]);
    expect(c.ignored[0]?.reason).toBe("Коля cannot vote today (silenced, V6)");
    expect(c.notVoted).not.toContain("Коля");
    expect(c.silenced).toEqual(["Коля"]);
    expect(() => count([], { silenced: ["Гена"] })).toThrow(/not in the player list/u);
  });

  it("V3: a vote for oneself is reported and an earlier vote in the post stands", () => {
    const c = count([post("Вася", "[color=red]Петя[/color] [color=red]Васю[/color]")]);
    expect(summary(c)).toEqual(["Вася red Петя"]);
    expect(c.ignored).toEqual([
      { post: 0, text: "[color=red]Васю[/color]", reason: "vote for oneself (V3)" },
    ]);
  });

  it("V1: a vote for a non-player or an ambiguous name is reported, never guessed", () => {
    const c = count([post("Вася", "[color=red]Гена[/color]"), post("Маша", "Хомёк КРАСНЫМ")]);
    expect(c.votes).toEqual([]);
    expect(c.ignored).toEqual([
      { post: 0, text: "[color=red]Гена[/color]", reason: "vote for a non-player" },
      { post: 1, text: "Хомёк КРАСНЫМ", reason: "ambiguous name: could be Хомяк or Хорёк" },
    ]);
  });
});

describe("hostile input", () => {
  it("drops scripts and keeps reported text free of HTML", () => {
    const body =
      '<script>document.write("[color=red]Петя[/color]")</script>' +
      '<span style="color:red">&lt;img src=x&gt;</span> <font color="blue">Маша</font>';
    const c = count([post("Вася", body)]);
    expect(summary(c)).toEqual(["Вася blue Маша"]);
    expect(JSON.stringify(voteCountJson(c, voteCountPost(c, 2)))).not.toMatch(/[<>]/u);
  });

  it("survives deeply nested quotes in both dialects", () => {
    const bb = "[quote]".repeat(5000) + "[color=red]Петя[/color]" + "[/quote]".repeat(5000);
    const html = "<blockquote>".repeat(5000) + '<font color="red">Петя</font>' + "</blockquote>".repeat(5000);
    expect(single(bb)).toEqual([]);
    expect(single(html)).toEqual([]);
    expect(htmlToBBCode(html)).not.toMatch(/</u);
  });

  it("survives a huge post", () => {
    const body = "Петя КРАСНЫМ ".repeat(50_000) + "[color=blue]Маша[/color]";
    expect(single(body)).toEqual(["Вася blue Маша"]);
  });
});

describe("the count post", () => {
  it("V4: a line per target, red and blue apart, every vote as 1, voters in the order they voted", () => {
    const c = count(
      [
        post("Петя", "Вася КРАСНЫМ"),
        post("Коля", "Вася КРАСНЫМ"),
        post("Маша", "Вася КРАСНЫМ"),
        post("Оля", "Маша КРАСНЫМ"),
        post("Вася", "Коля СИНИМ"),
      ],
      { day: 2, silenced: ["Хомяк"] },
    );
    // TEXTS.ru.md, "Vote count": the same post as the server's.
    expect(voteCountPost(c, 2).split("\n")).toEqual([
      "[b]Голосование, день 2[/b]",
      "Против:",
      "Вася (3): Петя, Коля, Маша",
      "Маша (1): Оля",
      "В защиту:",
      "Коля (1): Вася",
      "Лишены голоса: Хомяк",
      "Не проголосовали: Zybr, Андрей, Оля К, Хорёк",
    ]);
    expect(c.notVoted).toEqual(["Zybr", "Андрей", "Оля К", "Хорёк"]);
  });

  it("V1: a changed vote moves its voter to the end of the target's line", () => {
    const c = count(
      [
        post("Коля", "Вася КРАСНЫМ"),
        post("Маша", "Вася КРАСНЫМ"),
        post("Коля", "Маша КРАСНЫМ"),
        post("Коля", "Вася КРАСНЫМ"),
      ],
      { players: parseRoster("Вася\nКоля\nМаша") },
    );
    expect(voteCountPost(c, 2).split("\n")).toEqual([
      "[b]Голосование, день 2[/b]",
      "Против:",
      "Вася (2): Маша, Коля",
      "Не проголосовали: Вася",
    ]);
  });

  it("V7: from day 3 an early vote is marked in the post; before day 3 it is not", () => {
    const players = parseRoster("Вася\nКоля\nМаша");
    const thread = [post("Коля", "Вася КРАСНЫМ досрочно"), post("Маша", "Вася КРАСНЫМ")];
    expect(voteCountPost(count(thread, { day: 3, players }), 3).split("\n")).toEqual([
      "[b]Голосование, день 3[/b]",
      "Против:",
      "Вася (2): Коля (досрочно), Маша",
      "Не проголосовали: Вася",
    ]);
    expect(voteCountPost(count(thread, { day: 2, players }), 2).split("\n")).toEqual([
      "[b]Голосование, день 2[/b]",
      "Против:",
      "Вася (2): Коля, Маша",
      "Не проголосовали: Вася",
    ]);
  });

  it("V4: without a day the post has no title, and what was ignored stays out of it", () => {
    const players = parseRoster("Вася\nКоля\nМаша");
    const c = count(
      [
        post("Коля", "Вася КРАСНЫМ досрочно"),
        post("Гена", "Маша КРАСНЫМ"),
        post("Маша", "[color=red]Гоша[/color]"),
      ],
      { day: null, players },
    );
    expect(c.ignored).toHaveLength(2);
    expect(voteCountPost(c, null).split("\n")).toEqual([
      "Против:",
      "Вася (1): Коля",
      "Не проголосовали: Вася, Маша",
    ]);
  });
});
