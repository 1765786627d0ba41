import { describe, expect, it } from "vitest";
import { countVotes, htmlToBBCode, parseRoster, readThread } from "../src/index.ts";
import { QUOTE_CLASSES } from "../src/html.ts";
import { bodyBBCode } from "../src/thread/body.ts";
import { parseHtml } from "../src/thread/dom.ts";

/**
 * Issue 29, item 2: quote boxes. A quoted vote is not the quoting player's vote (V1: a vote is the
 * player's own coloured name), so a quote box must be read as one wherever HTML is read: by htmlToBBCode
 * (a pasted post, a page no engine reader knows) and by the thread readers (thread/body.ts). The quote
 * markup below is written by hand from each forum's own output.
 */

/** A Discourse post as its page shows it (`article[data-post-id]`, the names block, `.cooked`). */
const discoursePost = (n: number, author: string, cooked: string): string =>
  `<article id="post_${n}" data-post-id="${900 + n}" data-post-number="${n}">` +
  `<div class="topic-meta-data"><div class="names"><span class="first username"><a href="/u/${author}" data-user-card="${author}">${author}</a></span></div></div>` +
  `<div class="regular contents"><div class="cooked">${cooked}</div></div></article>`;

/** Discourse's quote of a post: an `aside.quote` with the quoted user's title and a `<blockquote>`. */
const discourseQuote = (author: string, post: number, inner: string): string =>
  `<aside class="quote no-group" data-username="${author}" data-post="${post}" data-topic="77">\n` +
  `<div class="title">\n<div class="quote-controls"></div>\n` +
  `<img loading="lazy" alt="" width="24" height="24" src="/letter/48.png" class="avatar"> ${author}:</div>\n` +
  `<blockquote>\n${inner}\n</blockquote>\n</aside>\n`;

const red = (name: string): string => `<span style="color: red">${name}</span>`;
const flat = (text: string): string => text.replace(/\s+/gu, " ").trim();

describe("issue 29: a Discourse quote's body", () => {
  const roster = parseRoster("Аня\nБорис\nВика\nГоша");

  it("V1: a Discourse quote is one quote holding its title and the quoted post; the quoting post's own vote stays outside", () => {
    const html =
      discoursePost(1, "Аня", `<p>Голосую ${red("Борис")}</p>`) +
      discoursePost(
        2,
        "Вика",
        discourseQuote("Аня", 1, `<p>Голосую ${red("Борис")}</p>`) +
          `<p>Не согласна. Голосую ${red("Гоша")}</p>`,
      );
    const reading = readThread({ html });
    expect(reading.engine).toBe("discourse");
    expect(reading.posts.map((p) => [p.author, p.label])).toEqual([
      ["Аня", "#1"],
      ["Вика", "#2"],
    ]);
    expect(flat(reading.posts[1]!.body)).toBe(
      "[quote]Аня: Голосую [color=red]Борис[/color] [/quote] Не согласна. Голосую [color=red]Гоша[/color]",
    );
    const count = countVotes(reading.posts, { players: roster, gm: null, day: 1, silenced: [] });
    expect(count.votes.map((v) => [v.by, v.color, v.target])).toEqual([
      ["Аня", "red", "Борис"],
      ["Вика", "red", "Гоша"],
    ]);
  });

  it("V1: a Discourse quote inside a Discourse quote is two quotes, one inside the other, and no more", () => {
    const inner = discourseQuote("Аня", 1, `<p>Голосую ${red("Борис")}</p>`) + `<p>Я за ${red("Гоша")}</p>`;
    const html =
      discoursePost(1, "Аня", `<p>Голосую ${red("Борис")}</p>`) +
      discoursePost(2, "Гоша", `<p>Я за ${red("Вика")}</p>`) +
      discoursePost(3, "Вика", discourseQuote("Гоша", 2, inner) + `<p>Мой голос: ${red("Аня")}</p>`);
    const body = readThread({ html }).posts[2]!.body;
    expect(flat(body)).toBe(
      "[quote]Гоша: [quote]Аня: Голосую [color=red]Борис[/color] [/quote] Я за [color=red]Гоша[/color] [/quote] Мой голос: [color=red]Аня[/color]",
    );
    // The same post pasted as HTML reads the same quotes.
    expect(
      depths(htmlToBBCode(discourseQuote("Гоша", 2, inner) + `<p>Мой голос: ${red("Аня")}</p>`)),
    ).toEqual([
      ["Борис", 2],
      ["Гоша", 1],
      ["Аня", 0],
    ]);
  });
});

/** Each `[color=red]` name of a BBCode text, with how many quotes it lies in. */
function depths(bbcode: string): [string, number][] {
  const out: [string, number][] = [];
  let depth = 0;
  for (const m of bbcode.matchAll(/\[(\/?)quote\]|\[color=red\]([^[]*)\[\/color\]/gu)) {
    if (m[2] !== undefined) out.push([m[2], depth]);
    else depth += m[1] === "/" ? -1 : 1;
  }
  return out;
}

/** A quote box of the given markup around a red Борис, then a red Гоша outside it. */
const boxed = (open: string, close: string): string =>
  `<div>${open}Голосую ${red("Борис")}${close}<p>Мой голос: ${red("Гоша")}</p></div>`;

/** Each forum's quote box, as its pages write it. */
const FORUM_QUOTES: readonly [string, string, string][] = [
  ["phpBB", "<blockquote><div><cite>Аня писал(а):</cite>", "</div></blockquote>"],
  ["phpBB 2", '<table><tr><td class="quote">', "</td></tr></table>"],
  ["phpBB 3.0's quotecontent", '<div class="quotetitle">Аня:</div><div class="quotecontent">', "</div>"],
  [
    "vBulletin 4",
    '<div class="bbcode_container"><div class="bbcode_quote"><div class="quote_container">',
    "</div></div></div>",
  ],
  ["vBulletin 5", '<div class="b-quote"><div class="b-quote__content">', "</div></div>"],
  [
    "IPB",
    '<blockquote class="ipsQuote" data-ipsquote=""><div class="ipsQuote_contents">',
    "</div></blockquote>",
  ],
  [
    "XenForo 2",
    '<blockquote class="bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote"><div class="bbCodeBlock-content">',
    "</div></blockquote>",
  ],
  [
    "XenForo 1",
    '<div class="bbCodeBlock bbCodeQuote"><aside><blockquote class="quoteContainer"><div class="quote">',
    "</div></blockquote></aside></div>",
  ],
  ["SMF", '<blockquote class="bbc_standard_quote">', "</blockquote>"],
  ["SMF, alternate", '<blockquote class="bbc_alternate_quote">', "</blockquote>"],
  [
    "Discourse",
    '<aside class="quote no-group" data-username="Аня" data-post="1" data-topic="7"><div class="title"><div class="quote-controls"></div>Аня:</div><blockquote>',
    "</blockquote></aside>",
  ],
  ["a plain div.quote", '<div class="quote">', "</div>"],
];

/** The class names the forums above give a quote box of their own (a box even when it is no `<blockquote>`). */
const FORUM_QUOTE_CLASSES = [
  "quote",
  "quotecontent",
  "bbcode_quote",
  "b-quote",
  "ipsQuote",
  "bbCodeBlock--quote",
  "bbCodeQuote",
  "bbc_standard_quote",
  "bbc_alternate_quote",
];

/** Class names that hold the word but are no quote box: buttons, icons, the inner parts of one. */
const NOT_QUOTES = [
  "quote-controls",
  "quote_button",
  "fa-quote-left",
  "js-post-control__quote",
  "quote_container",
  "topslice_quote",
  "quoteheader",
  "SelectQuoteContainer",
];

describe("issue 29: one list of quote classes, read alike by htmlToBBCode and the thread readers", () => {
  const both = (html: string): { pasted: [string, number][]; read: [string, number][] } => ({
    pasted: depths(htmlToBBCode(html)),
    read: depths(bodyBBCode(parseHtml(html))),
  });

  it.each(FORUM_QUOTES)(
    "V1: %s: the quoted vote is in one quote both ways, the own vote in none",
    (_, open, close) => {
      const { pasted, read } = both(boxed(open, close));
      expect(pasted.map(([name]) => name)).toEqual(["Борис", "Гоша"]);
      // XenForo 1 nests its parts (bbCodeQuote > aside > blockquote.quoteContainer > div.quote), read as
      // quotes inside one another; what matters is that the vote is quoted, and alike both ways.
      expect(pasted[0]![1]).toBeGreaterThanOrEqual(1);
      expect(pasted[1]![1]).toBe(0);
      expect(read).toEqual(pasted);
    },
  );

  it.each([...new Set([...FORUM_QUOTE_CLASSES, ...QUOTE_CLASSES])])(
    "V1: the class %s is a quote box both ways",
    (name) => {
      const { pasted, read } = both(boxed(`<div class="post-x ${name}">`, "</div>"));
      expect(pasted).toEqual([
        ["Борис", 1],
        ["Гоша", 0],
      ]);
      expect(read).toEqual(pasted);
    },
  );

  it.each(NOT_QUOTES)("V1: the class %s is no quote box either way", (name) => {
    const { pasted, read } = both(boxed(`<div class="${name}">`, "</div>"));
    const expected = [
      ["Борис", 0],
      ["Гоша", 0],
    ];
    expect(pasted).toEqual(expected);
    // The thread readers drop some of these (a quote's header), never reading one as a quote.
    expect(read.every(([, depth]) => depth === 0)).toBe(true);
  });
});
