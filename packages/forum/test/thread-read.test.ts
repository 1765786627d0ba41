import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countVotes, parseRoster, readThread, type CountedVote, type ThreadPost } from "../src/index.ts";

const PAGES = join(import.meta.dirname, "fixtures/pages");
const ROSTER = parseRoster("Аня\nБорис\nВика | Викуля\nГоша\nДина\nЖеня");

describe("readThread: BBCode posts, as each engine's multi-quote writes them", () => {
  it.each([
    [
      "phpBB",
      '[quote="Аня" post_id=4502 time=1709391600 user_id=11]Голосую [color=red]Борис[/color][/quote]',
      { author: "Аня", label: "p4502", time: "2024-03-02T15:00:00.000Z" },
    ],
    [
      "XenForo",
      '[QUOTE="Аня, post: 9002, member: 11"]Голосую [COLOR=rgb(255, 0, 0)]Борис[/COLOR][/QUOTE]',
      { author: "Аня", label: "post-9002", time: "" },
    ],
    [
      "vBulletin",
      "[QUOTE=Аня;5502]Голосую [COLOR=Red]Борис[/COLOR][/QUOTE]",
      { author: "Аня", label: "post5502", time: "" },
    ],
    [
      "SMF",
      "[quote author=Аня Петрова link=msg=8802 date=1709391600]Голосую [color=red]Борис[/color][/quote]",
      { author: "Аня Петрова", label: "msg8802", time: "2024-03-02T15:00:00.000Z" },
    ],
    [
      "Invision",
      '[quote name="Аня" post="302" timestamp="1709391600"]Голосую [color=#ff0000]Борис[/color][/quote]',
      { author: "Аня", label: "comment-302", time: "2024-03-02T15:00:00.000Z" },
    ],
    [
      "Discourse",
      '[quote="Аня, post:22, topic:77"]Голосую [color=red]Борис[/color][/quote]',
      { author: "Аня", label: "#22", time: "" },
    ],
    [
      "a plain quote",
      "[quote=Аня]Голосую [color=red]Борис[/color][/quote]",
      { author: "Аня", label: null, time: "" },
    ],
  ])("%s", (_, text, head) => {
    const reading = readThread({ text: `Собрал голоса:\n${text}\nконец` });
    expect(reading.kind).toBe("bbcode");
    expect(reading.engine).toBeNull();
    expect(reading.posts).toHaveLength(1);
    expect(reading.posts[0]).toMatchObject(head);
    expect(reading.posts[0]!.body).toMatch(/^Голосую \[color=[^\]]+\]Борис\[\/color\]$/iu);
  });

  it("V1: each top-level quote is a post; nested quotes stay quotes and do not count", () => {
    const text = [
      '[quote="Аня" post_id=1]Голосую [color=red]Борис[/color][/quote]',
      "Ведущий между цитатами: [color=red]Гоша[/color]",
      '[quote="Борис" post_id=2][quote="Аня" post_id=1][color=red]Борис[/color][/quote]Мой голос: [color=blue]Аня[/color][/quote]',
      "[quote]без автора: [color=red]Женя[/color][/quote]",
    ].join("\n");
    const { posts } = readThread({ text });
    expect(posts.map((p) => [p.author, p.label])).toEqual([
      ["Аня", "p1"],
      ["Борис", "p2"],
    ]);
    expect(posts[1]!.body).toBe(
      '[quote="Аня" post_id=1][color=red]Борис[/color][/quote]Мой голос: [color=blue]Аня[/color]',
    );
    const count = countVotes(posts, { players: ROSTER, gm: null, day: 1, silenced: [] });
    expect(count.votes.map((v) => [v.by, v.color, v.target])).toEqual([
      ["Аня", "red", "Борис"],
      ["Борис", "blue", "Аня"],
    ]);
  });

  it("an unclosed top-level quote runs to the end", () => {
    const { posts } = readThread({ text: "[quote=Аня]Голосую [color=red]Борис[/color]" });
    expect(posts).toEqual([
      { author: "Аня", label: null, time: "", body: "Голосую [color=red]Борис[/color]" },
    ]);
  });
});

describe("readThread: plain text", () => {
  it("finds posts only by a clear heading (phpBB's `Ник » date`); a vote in words counts", () => {
    const text = [
      "Re: День 2",
      "Сообщение Аня » 02 мар 2024, 18:12",
      "Гоша КРАСНЫМ",
      "Re: День 2",
      "Сообщение Борис » 02 мар 2024, 18:21",
      "Пока думаю",
    ].join("\n");
    const reading = readThread({ text });
    expect(reading.kind).toBe("text");
    expect(reading.posts.map((p) => [p.author, p.time])).toEqual([
      ["Аня", "02 мар 2024, 18:12"],
      ["Борис", "02 мар 2024, 18:21"],
    ]);
    const count = countVotes(reading.posts, { players: ROSTER, gm: null, day: 2, silenced: [] });
    expect(count.votes.map((v) => [v.by, v.color, v.target])).toEqual([["Аня", "red", "Гоша"]]);
  });

  it("one heading alone is no pattern", () => {
    expect(readThread({ text: "Сообщение Аня » 02 мар 2024, 18:12\nГоша КРАСНЫМ" }).posts).toEqual([]);
  });

  it("without a clear pattern finds no posts", () => {
    expect(readThread({ text: "Аня: голосую за Бориса\nБорис: а я за Гошу" })).toEqual({
      kind: "text",
      engine: null,
      posts: [],
    });
  });

  it("nothing to read is an Error naming it", () => {
    expect(() => readThread({})).toThrow(/both the HTML and the text/u);
    expect(() => readThread({ html: " \n", text: "" })).toThrow(/empty/u);
  });

  it("prefers the clipboard's HTML to its text, and reads a page given as text", () => {
    const html = readFileSync(join(PAGES, "xenforo.html"), "utf8");
    expect(readThread({ html, text: "[quote=Аня]x[/quote]" }).engine).toBe("xenforo");
    expect(readThread({ text: html }).engine).toBe("xenforo");
  });
});

describe("readThread: HTML details", () => {
  it("reads a clipboard fragment of two posts (Chrome wraps it in StartFragment comments)", () => {
    const page = readFileSync(join(PAGES, "phpbb.html"), "utf8");
    const start = page.indexOf('<div id="p4508"');
    const end = page.indexOf('<div id="p4510"');
    const html = `<html><body><!--StartFragment-->${page.slice(start, end)}<!--EndFragment--></body></html>`;
    const reading = readThread({ html });
    expect(reading.engine).toBe("phpbb");
    expect(reading.posts.map((p) => [p.author, p.label])).toEqual([
      ["Аня", "p4508"],
      ["Зритель", "p4509"],
    ]);
  });

  it("a page holding markup of two engines is read by the reader that finds the most posts", () => {
    const xenforo = readFileSync(join(PAGES, "xenforo.html"), "utf8");
    const one = xenforo.slice(
      xenforo.indexOf("<article"),
      xenforo.indexOf("</article>") + "</article>".length,
    );
    const phpbb = readFileSync(join(PAGES, "phpbb.html"), "utf8");
    const reading = readThread({ html: phpbb.replace("<body", `<body>${one}<div`) });
    expect(reading.engine).toBe("phpbb");
    expect(reading.posts).toHaveLength(11);
  });

  it("V2: a link's own colour (Chrome writes the page's link colour inline) is no vote; a colour inside it is", () => {
    const html =
      '<article class="message message--post" data-author="Аня" data-content="post-1"><div class="message-userContent"><div class="bbWrapper">' +
      '<a href="/members/2/" style="color: rgb(41, 105, 176);">Борис</a>, <a href="/x"><span style="color: rgb(255, 0, 0)">Гоша</span></a>' +
      "</div></div></article>";
    const { posts } = readThread({ html });
    expect(posts[0]!.body).toBe("Борис, [color=#ff0000]Гоша[/color]");
  });
});

describe("VoteCount.cast", () => {
  const page = readThread({ html: readFileSync(join(PAGES, "phpbb.html"), "utf8") });
  const count = countVotes(page.posts, { players: ROSTER, gm: "Ведущий", day: 2, silenced: [] });

  it("V1: holds every counted vote in posting order, earlier votes included, nothing ignored", () => {
    // Worked out by hand from the page: post 8 (a non-player) and post 0 (the GM) are ignored.
    expect(count.cast.map((v) => [v.post, v.by, v.color, v.target])).toEqual([
      [1, "Аня", "red", "Борис"],
      [2, "Борис", "red", "Гоша"],
      [3, "Вика", "blue", "Гоша"],
      [6, "Женя", "blue", "Аня"],
      [7, "Аня", "red", "Дина"],
      [9, "Гоша", "red", "Вика"],
      [10, "Борис", "red", "Дина"],
    ]);
  });

  it("V1: replayed, each player's last vote, gives the same tally as votes", () => {
    const last = new Map<string, CountedVote>();
    for (const vote of count.cast) last.set(vote.by, vote);
    expect([...last.values()].sort((a, b) => (a.by < b.by ? -1 : 1))).toEqual(count.votes);
  });

  it("V7: a vote refused after an early one is not cast", () => {
    const posts: ThreadPost[] = [
      { author: "Аня", time: "", body: "[color=red]Борис[/color] досрочно" },
      { author: "Аня", time: "", body: "[color=red]Гоша[/color]" },
    ];
    const early = countVotes(posts, { players: ROSTER, gm: null, day: 3, silenced: [] });
    expect(early.cast.map((v) => [v.target, v.early])).toEqual([["Борис", true]]);
    expect(early.ignored).toHaveLength(1);
  });
});

describe("VoteCountOptions.earlyFromDay", () => {
  const posts: ThreadPost[] = [{ author: "Аня", time: "", body: "[color=red]Борис[/color] досрочно" }];
  it("V7: досрочно has effect from the game's own threshold (S3), the standard day 3 by default", () => {
    expect(countVotes(posts, { players: ROSTER, gm: null, day: 2, silenced: [] }).votes[0]!.early).toBe(
      false,
    );
    expect(
      countVotes(posts, { players: ROSTER, gm: null, day: 2, silenced: [], earlyFromDay: 2 }).votes[0]!.early,
    ).toBe(true);
    expect(
      countVotes(posts, { players: ROSTER, gm: null, day: 3, silenced: [], earlyFromDay: 4 }).votes[0]!.early,
    ).toBe(false);
  });
});

describe("readThread: hostile input finishes quickly", () => {
  const timed = (run: () => unknown): number => {
    const start = performance.now();
    run();
    return performance.now() - start;
  };

  it("100,000 nested elements", () => {
    const html =
      '<div class="post"><div class="postbody"><div class="content">' + "<div><span>".repeat(100_000) + "x";
    expect(timed(() => readThread({ html }))).toBeLessThan(3000);
  });

  it("5 MB of junk HTML", () => {
    const junk = '<div class="a b"><span style="color:red">x</span><blockquote><p>y</div>'.repeat(75_000);
    expect(junk.length).toBeGreaterThan(5_000_000);
    expect(timed(() => readThread({ html: junk }))).toBeLessThan(5000);
  });

  it("5 MB of unclosed quote tags and headings in text", () => {
    const text = '[quote="Аня" post_id=1 '.repeat(120_000) + "\n" + "Аня » 1 » ".repeat(300_000);
    expect(text.length).toBeGreaterThan(5_000_000);
    expect(timed(() => readThread({ text }))).toBeLessThan(3000);
  });

  it("5 MB of repeated posts", () => {
    const post = readFileSync(join(PAGES, "generic.html"), "utf8");
    const html = post.repeat(Math.ceil(5_000_000 / post.length));
    let posts = 0;
    expect(timed(() => (posts = readThread({ html }).posts.length))).toBeLessThan(8000);
    expect(posts).toBeGreaterThan(1000);
  });
});
