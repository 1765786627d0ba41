import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quoteFreeText, renderBBCode, votesInPost } from "../src/index.ts";

/** The attributes of every link the renderer makes. */
const LINK_ATTRIBUTES = 'rel="nofollow ugc noopener" target="_blank"';
/** The link the renderer makes to `href` (given as it appears in the HTML, escaped). */
const a = (href: string, html: string): string => `<a href="${href}" ${LINK_ATTRIBUTES}>${html}</a>`;

/** Every piece of HTML the renderer may emit; anything else in the output must be escaped text. */
const OUR_TAG =
  /<\/?(?:b|i|u|s|cite|summary|ul|li)>|<br>|<blockquote class="quote">|<\/blockquote>|<details class="spoiler">|<\/details>|<span(?: class="vote-(?:red|blue)")? style="color:(?:[a-z]+|#[0-9a-f]{3}|#[0-9a-f]{6})">|<span style="font-size:\d+%">|<\/span>|<ol(?: style="list-style-type:(?:lower|upper)-(?:alpha|roman)")?>|<\/ol>|<a href="https?:\/\/[^"<>\s]+" rel="nofollow ugc noopener" target="_blank">|<\/a>/g;

/** The output with our own tags taken out: what is left must hold no `<`, `>` or `"`. */
const withoutOurTags = (html: string): string => html.replace(OUR_TAG, "");

/** True when every element the output opens is closed, in order, and no link is inside a link. */
function balanced(html: string): boolean {
  const open: string[] = [];
  for (const [tag] of html.matchAll(OUR_TAG)) {
    if (tag === "<br>") continue;
    const name = /^<\/?([a-z]+)/.exec(tag)![1]!;
    if (tag.startsWith("</")) {
      if (open.pop() !== name) return false;
    } else if (name === "a" && open.includes("a")) return false;
    else open.push(name);
  }
  return open.length === 0;
}

/** True when a `<ul>` or `<ol>` holds nothing but `<li>` elements. */
const listsHoldOnlyItems = (html: string): boolean =>
  !/(?:<ul>|<ol[^>]*>|<\/li>)(?!<li>|<\/ul>|<\/ol>)/.test(html);

/** The links of the output: each href, unescaped. */
const hrefs = (html: string): string[] =>
  [...html.matchAll(/<a href="([^"]*)"/g)].map((m) =>
    m[1]!
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&"),
  );

/** The output with every link replaced by its text. */
const withoutLinks = (html: string): string => html.replace(/<a href="[^"]*" [^>]*>(.*?)<\/a>/g, "$1");

/** HTML-escapes text as the renderer does. */
const escape = (s: string): string =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

describe("renderBBCode", () => {
  it.each([
    ["[b]жирный[/b]", "<b>жирный</b>"],
    ["[i]курсив[/i]", "<i>курсив</i>"],
    ["[u]подчёркнутый[/u]", "<u>подчёркнутый</u>"],
    ["[s]зачёркнутый[/s]", "<s>зачёркнутый</s>"],
    ["[B]any case[/b]", "<b>any case</b>"],
    ["[b][i]both[/i][/b]", "<b><i>both</i></b>"],
  ])("renders the text styles: %j → %j", (source, html) => {
    expect(renderBBCode(source)).toBe(html);
  });

  it("renders a quote as a blockquote, with the author as a cite when named", () => {
    expect(renderBBCode("[quote]текст[/quote]")).toBe('<blockquote class="quote">текст</blockquote>');
    expect(renderBBCode("[quote=Вася]текст[/quote]")).toBe(
      '<blockquote class="quote"><cite>Вася</cite>текст</blockquote>',
    );
    expect(renderBBCode('[quote="Петя Иванов"]текст[/quote]')).toBe(
      '<blockquote class="quote"><cite>Петя Иванов</cite>текст</blockquote>',
    );
    expect(renderBBCode("[quote=Оля][quote=Вася]внутри[/quote]снаружи[/quote]")).toBe(
      '<blockquote class="quote"><cite>Оля</cite><blockquote class="quote"><cite>Вася</cite>внутри</blockquote>снаружи</blockquote>',
    );
  });

  it('renders a spoiler as details, titled "Спойлер" unless named', () => {
    expect(renderBBCode("[spoiler]тайна[/spoiler]")).toBe(
      '<details class="spoiler"><summary>Спойлер</summary>тайна</details>',
    );
    expect(renderBBCode("[spoiler=Роль]шериф[/spoiler]")).toBe(
      '<details class="spoiler"><summary>Роль</summary>шериф</details>',
    );
  });

  it.each([
    ["red", "red", ' class="vote-red"'],
    ["Red", "red", ' class="vote-red"'],
    ["DarkBlue", "darkblue", ' class="vote-blue"'],
    ["#F00", "#f00", ' class="vote-red"'],
    ["#00ff7F", "#00ff7f", ""],
    [" navy ", "navy", ' class="vote-blue"'],
    ["orange", "orange", ""],
  ])(
    "renders [color=%s] with the safe colour %s, a vote colour (V2) marked by its class",
    (value, css, mark) => {
      expect(renderBBCode(`[color=${value}]x[/color]`)).toBe(`<span${mark} style="color:${css}">x</span>`);
    },
  );

  it.each([
    "[color=redd]x[/color]",
    "[color=#ff00]x[/color]",
    "[color=#ff0000ff]x[/color]",
    "[color=rgb(255,0,0)]x[/color]",
    "[color=transparent]x[/color]",
    "[color=constructor]x[/color]",
    "[color=__proto__]x[/color]",
    "[color=toString]x[/color]",
    "[color]x[/color]",
  ])("shows a colour tag with an unknown or unsafe colour as written: %j", (source) => {
    expect(renderBBCode(source)).toBe(source);
  });

  it.each([
    ["[b=1]x[/b]", "[b=1]x[/b]"],
    ["[code]x[/code]", "[code]x[/code]"],
    ["[font=Arial]x[/font]", "[font=Arial]x[/font]"],
    ["[quote name=Вася]x[/quote]", "[quote name=Вася]x[/quote]"],
    ["[script]alert(1)[/script]", "[script]alert(1)[/script]"],
  ])("shows every other tag as escaped text: %j", (source, html) => {
    expect(renderBBCode(source)).toBe(html);
  });

  it("keeps allowed tags working inside a literal one", () => {
    expect(renderBBCode("[url=x][b]y[/b][/url]")).toBe("[url=x]<b>y</b>[/url]");
  });

  it("escapes & < > \" ' everywhere, the quote author and spoiler title included", () => {
    expect(renderBBCode(`a & b < c > d " e ' f`)).toBe("a &amp; b &lt; c &gt; d &quot; e &#39; f");
    expect(renderBBCode(`[quote=<a&b'>]x[/quote]`)).toBe(
      '<blockquote class="quote"><cite>&lt;a&amp;b&#39;&gt;</cite>x</blockquote>',
    );
    expect(renderBBCode("[spoiler=<b>]x[/spoiler]")).toBe(
      '<details class="spoiler"><summary>&lt;b&gt;</summary>x</details>',
    );
  });

  it("turns newlines (LF, CRLF, CR) into <br>", () => {
    expect(renderBBCode("a\nb\r\nc\rd")).toBe("a<br>b<br>c<br>d");
    expect(renderBBCode("[b]a[/b]\r\n[i]b[/i]\r\n\r\nc")).toBe("<b>a</b><br><i>b</i><br><br>c");
    expect(renderBBCode("[b]a\nb[/b]")).toBe("<b>a<br>b</b>");
  });

  it.each([
    ["[b]unclosed", "[b]unclosed"],
    ["text [/b] stray", "text [/b] stray"],
    ["[b]a[/b][b]c", "<b>a</b>[b]c"],
    ["[b][i]crossed[/b][/i]", "<b>[i]crossed</b>[/i]"],
    ["[quote]a[/b]b[/quote]c", '<blockquote class="quote">a[/b]b</blockquote>c'],
    ["[quote]a [b]b[/quote]c[/b]", '<blockquote class="quote">a [b]b</blockquote>c[/b]'],
    ["[b]x[/b][/b][b]y", "<b>x</b>[/b][b]y"],
    ["[quote]открыта [b]жирно[/b]", "[quote]открыта <b>жирно</b>"],
  ])(
    "pairs a closing tag with the nearest open tag of its name; the rest is shown as written: %j",
    (source, html) => {
      const out = renderBBCode(source);
      expect(out).toBe(html);
      expect(balanced(out)).toBe(true);
    },
  );

  it("shows tags nested past the depth limit as written, without a deep stack", () => {
    const deep = "[quote]".repeat(5000) + "x" + "[/quote]".repeat(5000);
    const out = renderBBCode(deep);
    expect(out.match(/<blockquote/g)).toHaveLength(20);
    expect(balanced(out)).toBe(true);
    expect(withoutOurTags(out)).toBe("[quote]".repeat(4980) + "x" + "[/quote]".repeat(4980));
  });

  describe("XSS attempts produce no HTML of their own", () => {
    it.each([
      "[color=red;background:url(x)]x[/color]",
      '[color="red" onmouseover=alert(1)]x[/color]',
      "[color=red onmouseover=alert(1)]x[/color]",
      '[color=red"]x[/color]',
      "[color=#f00;x:expression(alert(1))]x[/color]",
      "<script>alert(1)</script>",
      "[quote=<img src=x onerror=1>]hi[/quote]",
      '[quote="><script>alert(1)</script>]hi[/quote]',
      "[spoiler=<svg onload=alert(1)>]x[/spoiler]",
      "[url=javascript:alert(1)]click[/url]",
      "[url]javascript:alert(1)[/url]",
      '[img]x" onerror="alert(1)[/img]',
      "[b onclick=alert(1)]x[/b]",
      "[<script>]x[/<script>]",
      "&lt;script&gt; &#60;b&#62;",
      "[color=red]<img src=x onerror=alert(1)>[/color]",
      "javascript:alert(document.cookie)",
    ])("%j", (source) => {
      const out = renderBBCode(source);
      expect(withoutOurTags(out)).not.toMatch(/[<>"]/);
      for (const [tag] of out.matchAll(/<[^>]*>/g)) expect(withoutOurTags(tag)).toBe("");
      expect(balanced(out)).toBe(true);
    });

    it("does not double-decode entities: &lt; stays text", () => {
      expect(renderBBCode("&lt;b&gt;")).toBe("&amp;lt;b&amp;gt;");
    });
  });

  const PIECES = [
    "[b]",
    "[/b]",
    "[i]",
    "[/i]",
    "[s]",
    "[/s]",
    "[quote]",
    "[quote=",
    "[/quote]",
    "[spoiler]",
    "[spoiler=",
    "[/spoiler]",
    "[color=",
    "[color=#",
    "[color=red]",
    "red",
    "f00",
    "#",
    ";",
    ":",
    "[color=#00f]",
    "[/color]",
    "[url=",
    "[url]",
    "[/url]",
    "[img]",
    "[/img]",
    "[size=",
    "[size=7]",
    "[size=150]",
    "[/size]",
    "[list]",
    "[list=1]",
    "[list=a]",
    "[*]",
    "[/*]",
    "[/list]",
    "https://",
    "http://x.org",
    "HTTPS://x.org/a?b=1&c=2",
    "www.",
    "x.org",
    "javascript:",
    "JaVaScRiPt:alert(1)",
    "data:",
    "//",
    "(",
    ")",
    ".",
    "\t",
    "\u0000",
    "[",
    "]",
    "=",
    '"',
    "'",
    "<",
    ">",
    "&",
    "/",
    " ",
    "\n",
    "onerror=",
    "Вася",
    "КРАСНЫМ",
  ];
  const bbcodeLike = fc.string({
    unit: fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: "binary", maxLength: 2 })),
    maxLength: 40,
  });
  /** Well-formed tags, allowed or not, with hostile values: `[name=value]…[/name]`, nested. */
  const hostileValue = fc.oneof(
    fc.constantFrom(
      "red",
      "#f00",
      "#0000ff",
      "navy",
      "Вася",
      "https://x.org",
      "http://x.org/a?b=1&c=2",
      "javascript:alert(1)",
      " javascript:alert(1)",
      "data:text/html,x",
      "//x.org",
      "1",
      "a",
      "7",
      "150",
      "18pt",
      "99999999999",
    ),
    fc.string({ unit: fc.constantFrom(..."#f0aR\"';:<>=& /()"), maxLength: 10 }),
  );
  const { tagged } = fc.letrec<{ tagged: string }>((tie) => ({
    tagged: fc.oneof(
      { depthSize: "small" },
      fc.string({ unit: fc.constantFrom("x", " ", "<", '"', "\n", "&"), maxLength: 4 }),
      fc
        .tuple(
          fc.constantFrom(
            "b",
            "I",
            "s",
            "quote",
            "spoiler",
            "color",
            "Color",
            "url",
            "URL",
            "img",
            "size",
            "list",
            "*",
          ),
          fc.option(hostileValue),
          fc.array(tie("tagged"), { maxLength: 3 }),
        )
        .map(
          ([name, value, inner]) =>
            `[${name}${value === null ? "" : `=${value}`}]${inner.join("")}[/${name}]`,
        ),
    ),
  }));

  it('property: whatever the input, the output holds no <, > or " outside our own tags, is balanced, loads nothing and links only to http(s)', () => {
    fc.assert(
      fc.property(fc.oneof(bbcodeLike, tagged, fc.string({ unit: "binary" })), (source) => {
        const out = renderBBCode(source);
        expect(withoutOurTags(out)).not.toMatch(/[<>"]/);
        expect(balanced(out)).toBe(true);
        expect(listsHoldOnlyItems(out)).toBe(true);
        expect(out).not.toMatch(/<img/i);
        for (const href of hrefs(out)) {
          expect(href).toMatch(/^https?:\/\/[^\s"<>]+$/);
          expect(["http:", "https:"]).toContain(new URL(href).protocol);
        }
      }),
      { seed: 3301, numRuns: 3000 },
    );
  });

  it("property: text without brackets, newlines or links is only escaped", () => {
    const text = fc
      .string({ unit: "binary" })
      .map((raw) => raw.replace(/[[\]\r\n]/g, ""))
      .filter((source) => !/https?:\/\/|www\./i.test(source));
    fc.assert(
      fc.property(text, (source) => {
        expect(renderBBCode(source)).toBe(escape(source));
      }),
      { seed: 3302, numRuns: 1000 },
    );
  });
});

describe("links: [url]", () => {
  it("links the URL written between [url] and [/url], escaping it in the href and the text", () => {
    expect(renderBBCode("[url]https://x.org/a?b=1&c=2[/url]")).toBe(
      a("https://x.org/a?b=1&amp;c=2", "https://x.org/a?b=1&amp;c=2"),
    );
    expect(renderBBCode("[URL] http://x.org [/url]")).toBe(a("http://x.org/", " http://x.org "));
  });

  it.each([
    ["[url=https://x.org]текст[/url]", a("https://x.org/", "текст")],
    ['[url="https://x.org"]текст[/url]', a("https://x.org/", "текст")],
    ["[url='https://x.org']текст[/url]", a("https://x.org/", "текст")],
    ["[url=http://x.org/a?b=1&c=2]текст[/url]", a("http://x.org/a?b=1&amp;c=2", "текст")],
    ["[url=HTTPS://X.ORG/Путь]текст[/url]", a("https://x.org/%D0%9F%D1%83%D1%82%D1%8C", "текст")],
    ["[url=https://мафия.рф]текст[/url]", a("https://xn--80aqk7a6c.xn--p1ai/", "текст")],
    ["[url=https://x.org][b]жирная[/b] ссылка[/url]", a("https://x.org/", "<b>жирная</b> ссылка")],
    ["[url=https://x.org][/url]", a("https://x.org/", "https://x.org/")],
    ["[url=https://x.org] [/url]", a("https://x.org/", "https://x.org/")],
  ])("links [url=href]text[/url] to the normalised href: %j", (source, html) => {
    expect(renderBBCode(source)).toBe(html);
  });

  it.each([
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "JAVASCRIPT:alert(1)",
    " javascript:alert(1)",
    "\u0001javascript:alert(1)",
    "java\u0000script:alert(1)",
    "java&#115;cript:alert(1)",
    "javascript&#58;alert(1)",
    "javascript:https://x.org",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "ftp://x.org",
    "mailto:a@x.org",
    "/relative/path",
    "relative/path",
    "x.org",
    "//evil.org",
    "http:x.org",
    "https:/x.org",
    "https:\\\\x.org",
    "https://",
    "https://user:password@x.org",
    "https://x.org@evil.org",
    "https://x.org/a b",
    "https://x.org/\u0000",
    "https://x.org/\u007f",
    "https://x.org/\u202egnp.exe",
    "https://x.org/\u200b",
    "\u00a0https://x.org/\u00a0a",
    "https://" + "x".repeat(3000) + ".org",
  ])("shows a link to anything but an http(s) URL as written: %j", (url) => {
    const valued = `[url=${url}]текст[/url]`;
    expect(renderBBCode(valued)).toBe(escape(valued));
    // The tags are shown as written; an http(s) link at the start of the text is still a link.
    const content = `[url]${url}[/url]`;
    const out = renderBBCode(content);
    expect(withoutLinks(out)).toBe(escape(content));
    expect(out.startsWith("[url]") && out.endsWith("[/url]")).toBe(true);
    for (const href of hrefs(out)) expect(href).toMatch(/^https:\/\/x\.org\/(?:a)?$/);
  });

  it("shows a [url] whose content is not only text as written", () => {
    expect(renderBBCode("[url]https://x.org/[b]a[/b][/url]")).toBe(
      `[url]${a("https://x.org/", "https://x.org/")}<b>a</b>[/url]`,
    );
    expect(renderBBCode("[url]\n[/url]")).toBe("[url]<br>[/url]");
    expect(renderBBCode("[url a=b]https://x.org[/url]")).toBe(
      "[url a=b]" + a("https://x.org/", "https://x.org") + "[/url]",
    );
  });

  it("never puts a link inside a link", () => {
    expect(renderBBCode("[url][url]https://x.org[/url][/url]")).toBe(
      `[url]${a("https://x.org/", "https://x.org")}[/url]`,
    );
    expect(renderBBCode("[url=https://a.org]до [url=https://b.org]внутри[/url] после[/url]")).toBe(
      a("https://a.org/", "до внутри после"),
    );
    expect(renderBBCode("[url=https://a.org]см. https://b.org[/url]")).toBe(
      a("https://a.org/", "см. https://b.org"),
    );
    expect(renderBBCode("[url=https://a.org][img]https://a.org/a.png[/img][/url]")).toBe(
      a("https://a.org/", "https://a.org/a.png"),
    );
  });

  it("keeps quotes in the URL from breaking out of the href", () => {
    expect(renderBBCode('[url=https://x.org/a"b]x[/url]')).toBe(a("https://x.org/a%22b", "x"));
    expect(renderBBCode("[url=https://x.org/'onmouseover='alert(1)]x[/url]")).toBe(
      a("https://x.org/&#39;onmouseover=&#39;alert(1)", "x"),
    );
    // The lexer reads `"…" name="…"` as attributes, which [url] does not take.
    expect(renderBBCode('[url=https://x.org/"onmouseover="alert(1)]x[/url]')).toBe(
      "[url=https://x.org/&quot;onmouseover=&quot;alert(1)]x[/url]",
    );
    expect(renderBBCode('[url]https://x.org/#"><script>alert(1)</script>[/url]')).toBe(
      a(
        "https://x.org/#%22%3E%3Cscript%3Ealert(1)%3C/script%3E",
        "https://x.org/#&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;",
      ),
    );
  });

  it("shows an unclosed [url] as written", () => {
    expect(renderBBCode("[url=https://x.org]текст")).toBe("[url=https://x.org]текст");
  });
});

describe("bare links", () => {
  it.each([
    ["https://x.org", a("https://x.org/", "https://x.org")],
    [
      "см. https://x.org/a?b=1&c=2 тут",
      `см. ${a("https://x.org/a?b=1&amp;c=2", "https://x.org/a?b=1&amp;c=2")} тут`,
    ],
    ["HTTP://X.ORG/A", a("http://x.org/A", "HTTP://X.ORG/A")],
    ["www.x.org/a", a("https://www.x.org/a", "www.x.org/a")],
    [
      "https://a.org и http://b.org",
      `${a("https://a.org/", "https://a.org")} и ${a("http://b.org/", "http://b.org")}`,
    ],
    ["ссылка:https://x.org", `ссылка:${a("https://x.org/", "https://x.org")}`],
    ["см.https://x.org", `см.${a("https://x.org/", "https://x.org")}`],
    ["(www.x.org)", `(${a("https://www.x.org/", "www.x.org")})`],
    ["[b]https://x.org[/b]", `<b>${a("https://x.org/", "https://x.org")}</b>`],
    ["строка\nhttps://x.org\n", `строка<br>${a("https://x.org/", "https://x.org")}<br>`],
    [
      "[quote=Вася]https://x.org[/quote]",
      `<blockquote class="quote"><cite>Вася</cite>${a("https://x.org/", "https://x.org")}</blockquote>`,
    ],
  ])("links http(s) URLs and www. addresses in text: %j", (source, html) => {
    expect(renderBBCode(source)).toBe(html);
  });

  it.each([".", ",", "!", "?", ":", ";", ")", '"', "'", "»", "…", ").", "!!!"])(
    "leaves the punctuation %j after a link out of it",
    (punctuation) => {
      expect(renderBBCode(`(https://x.org/a${punctuation}`)).toBe(
        `(${a("https://x.org/a", "https://x.org/a")}${escape(punctuation)}`,
      );
    },
  );

  it("keeps balanced parentheses in a link", () => {
    const wiki = "https://ru.wikipedia.org/wiki/%D0%9C%D0%B0%D1%84%D0%B8%D1%8F_(%D0%B8%D0%B3%D1%80%D0%B0)";
    expect(renderBBCode("(см. https://ru.wikipedia.org/wiki/Мафия_(игра)).")).toBe(
      `(см. ${a(wiki, "https://ru.wikipedia.org/wiki/Мафия_(игра)")}).`,
    );
  });

  it("stops a link at a character a URL cannot hold", () => {
    expect(renderBBCode("https://x.org/<script>")).toBe(
      `${a("https://x.org/", "https://x.org/")}&lt;script&gt;`,
    );
    expect(renderBBCode('https://x.org/"onclick="x')).toBe(
      `${a("https://x.org/", "https://x.org/")}&quot;onclick=&quot;x`,
    );
    expect(renderBBCode("https://x.org/[b]a[/b]")).toBe(`${a("https://x.org/", "https://x.org/")}<b>a</b>`);
  });

  it.each([
    "javascript:alert(1)",
    "data:text/html,x",
    "https://",
    "https://.",
    "http://localhost",
    "www.",
    "www.x",
    "xhttps://x.org",
    "a.www.x.org",
    "mail@www.x.org",
    "https://user:pw@x.org",
    "[quote=https://x.org]x[/quote]",
    "[spoiler=https://x.org]x[/spoiler]",
  ])("leaves what is no http(s) link as text: %j", (source) => {
    expect(withoutOurTags(renderBBCode(source))).not.toMatch(/[<>]/);
    expect(renderBBCode(source)).not.toContain("<a ");
  });
});

describe("lists: [list] and [*]", () => {
  it.each([
    ["[list][*]один[*]два[/list]", "<ul><li>один</li><li>два</li></ul>"],
    ["[list]\n[*]один\n[*]два\n[/list]", "<ul><li>один</li><li>два</li></ul>"],
    ["[list]\r\n[*] один \r\n[*]два\r\n[/list]", "<ul><li>один</li><li>два</li></ul>"],
    ["[LIST=1][*]один[*]два[/list]", "<ol><li>один</li><li>два</li></ol>"],
    ["[list=a][*]x[/list]", '<ol style="list-style-type:lower-alpha"><li>x</li></ol>'],
    ["[list=A][*]x[/list]", '<ol style="list-style-type:upper-alpha"><li>x</li></ol>'],
    ["[list=i][*]x[/list]", '<ol style="list-style-type:lower-roman"><li>x</li></ol>'],
    ["[list=I][*]x[/list]", '<ol style="list-style-type:upper-roman"><li>x</li></ol>'],
    ['[list="1"][*]x[/list]', "<ol><li>x</li></ol>"],
    ["[list=disc][*]x[/list]", "<ul><li>x</li></ul>"],
    ['[list=1" onclick="x][*]x[/list]', "<ul><li>x</li></ul>"],
    ["[list][*]a[/*][*]b[/*][/list]", "<ul><li>a</li><li>b</li></ul>"],
    ["[list][*]a[/*]\n[*]b[/*]\n[/list]", "<ul><li>a</li><li>b</li></ul>"],
    ["[list][*]a[/*] и ещё[*]b[/list]", "<ul><li>a и ещё</li><li>b</li></ul>"],
    ["[list][*][b]жирно[/b] [i]курсив[/i][/list]", "<ul><li><b>жирно</b> <i>курсив</i></li></ul>"],
    ["[list][*]строка\nещё строка[/list]", "<ul><li>строка<br>ещё строка</li></ul>"],
    ["[list][*][/list]", "<ul><li></li></ul>"],
  ])("renders a list: %j → %j", (source, html) => {
    expect(renderBBCode(source)).toBe(html);
  });

  it("keeps the text before the first item, before the list", () => {
    expect(renderBBCode("[list]Кандидаты:\n[*]Вася\n[*]Петя\n[/list]")).toBe(
      "Кандидаты:<ul><li>Вася</li><li>Петя</li></ul>",
    );
    expect(renderBBCode("[list]без пунктов[/list]")).toBe("без пунктов");
    expect(renderBBCode("[list][/list]")).toBe("");
  });

  it("drops the line break right after a list, which already ends a line", () => {
    expect(renderBBCode("до\n[list]\n[*]a\n[/list]\nпосле")).toBe("до<br><ul><li>a</li></ul>после");
    expect(renderBBCode("[list][*]a[/list]\r\n\r\nпосле")).toBe("<ul><li>a</li></ul><br>после");
  });

  it("nests lists", () => {
    expect(renderBBCode("[list][*]a[list=1][*]b[*]c[/list][*]d[/list]")).toBe(
      "<ul><li>a<ol><li>b</li><li>c</li></ol></li><li>d</li></ul>",
    );
    expect(renderBBCode("[list]\n[*]a\n[list]\n[*]b\n[/list]\n[*]c\n[/list]")).toBe(
      "<ul><li>a<br><ul><li>b</li></ul></li><li>c</li></ul>",
    );
  });

  it("closes a list left open at the end of the post or of the tag around it", () => {
    expect(renderBBCode("[list][*]a[*]b")).toBe("<ul><li>a</li><li>b</li></ul>");
    expect(renderBBCode("[list=1][*]a[list][*]b")).toBe("<ol><li>a<ul><li>b</li></ul></li></ol>");
    expect(renderBBCode("[quote][list][*]a[/quote]после")).toBe(
      '<blockquote class="quote"><ul><li>a</li></ul></blockquote>после',
    );
  });

  it("shows a tag left open in an item as written when the next item starts", () => {
    expect(renderBBCode("[list][*][b]a[*]b[/b][/list]")).toBe("<ul><li>[b]a</li><li>b[/b]</li></ul>");
    expect(renderBBCode("[list][b][*]a[/b][/list]")).toBe("[b]<ul><li>a[/b]</li></ul>");
  });

  it("shows an item outside any list, and a stray [/list] or [/*], as written", () => {
    expect(renderBBCode("[*]пункт")).toBe("[*]пункт");
    expect(renderBBCode("[b][*]x[/b]")).toBe("<b>[*]x</b>");
    expect(renderBBCode("a[/list]b[/*]")).toBe("a[/list]b[/*]");
  });
});

describe("sizes: [size]", () => {
  it.each([
    ["1", "75%"],
    ["2", "81%"],
    ["3", "100%"],
    ["4", "113%"],
    ["5", "150%"],
    ["6", "200%"],
    ["7", "200%"],
    ["8", "75%"],
    ["12", "100%"],
    ["18", "150%"],
    ["36", "200%"],
    ["50", "75%"],
    ["85", "85%"],
    ["150", "150%"],
    ["200", "200%"],
    ["300", "200%"],
    ["99999999999999999999999999", "200%"],
    ["18pt", "150%"],
    ["9PT", "75%"],
    ["10.5pt", "88%"],
    ["20px", "125%"],
    ["120%", "120%"],
    ["1.5em", "150%"],
    ["0.5em", "75%"],
    ['"18"', "150%"],
    [" 150 ", "150%"],
  ])("maps [size=%s] to font-size %s of the normal size, bounded", (value, css) => {
    expect(renderBBCode(`[size=${value}]x[/size]`)).toBe(`<span style="font-size:${css}">x</span>`);
  });

  it.each([
    "[size=huge]x[/size]",
    "[size=0]x[/size]",
    "[size=0pt]x[/size]",
    "[size=-1]x[/size]",
    "[size=+1]x[/size]",
    "[size=1e3]x[/size]",
    "[size=18;color:red]x[/size]",
    "[size=18px;background:url(https://x.org)]x[/size]",
    '[size=18" onmouseover="alert(1)]x[/size]',
    "[size=18 onmouseover=alert(1)]x[/size]",
    "[size=calc(100%+1px)]x[/size]",
    "[size=Infinity]x[/size]",
    "[size=NaN]x[/size]",
    "[size]x[/size]",
  ])("renders the content of a size it cannot read without the size: %j", (source) => {
    expect(renderBBCode(source)).toBe("x");
  });

  it("bounds nested sizes by the normal size, not the size around them", () => {
    expect(renderBBCode("[size=200][size=200]x[/size][/size]")).toBe(
      '<span style="font-size:200%"><span style="font-size:100%">x</span></span>',
    );
    expect(renderBBCode("[size=200][size=1]x[/size][/size]")).toBe(
      '<span style="font-size:200%"><span style="font-size:38%">x</span></span>',
    );
    expect(renderBBCode("[size=200][size=huge][size=7]x[/size][/size][/size]")).toBe(
      '<span style="font-size:200%"><span style="font-size:100%">x</span></span>',
    );
  });

  it("shows an unclosed size as written", () => {
    expect(renderBBCode("[size=5]x")).toBe("[size=5]x");
  });
});

describe("images: [img] is a link, never loaded", () => {
  it.each([
    ["[img]https://x.org/a.png[/img]", a("https://x.org/a.png", "https://x.org/a.png")],
    [
      "[IMG] https://x.org/a.png?s=1&t=2 [/img]",
      a("https://x.org/a.png?s=1&amp;t=2", " https://x.org/a.png?s=1&amp;t=2 "),
    ],
    ["[img=100x50]https://x.org/a.png[/img]", a("https://x.org/a.png", "https://x.org/a.png")],
  ])("shows %j as a link to the image", (source, html) => {
    expect(renderBBCode(source)).toBe(html);
  });

  it.each([
    "[img]javascript:alert(1)[/img]",
    '[img]x" onerror="alert(1)[/img]',
    "[img]data:image/png;base64,iVBORw0KGgo=[/img]",
    "[img]//x.org/a.png[/img]",
    "[img]/a.png[/img]",
    "[img=https://x.org/a.png]https://x.org/b.png[/img]",
    "[img]https://x.org/a.png",
  ])("shows an image it may not link as written: %j", (source) => {
    expect(withoutLinks(renderBBCode(source))).toBe(escape(source));
    expect(renderBBCode(source)).toMatch(/^\[img/);
  });

  it("shows an [img] whose content is not only text as written", () => {
    expect(renderBBCode("[img][b]https://x.org/a.png[/b][/img]")).toBe(
      `[img]<b>${a("https://x.org/a.png", "https://x.org/a.png")}</b>[/img]`,
    );
  });
});

describe("hostile inputs with the new tags", () => {
  it.each([
    "[url=javascript:alert(1)]x[/url]",
    "[url=javascript:alert(1)][url=https://x.org]x[/url][/url]",
    '[url="javascript:alert(1)"]x[/url]',
    "[url=' javascript:alert(1)']x[/url]",
    '[url=https://x.org" onmouseover="alert(1)]x[/url]',
    "[url=https://x.org onmouseover=alert(1)]x[/url]",
    "[url=https://x.org][url=javascript:alert(1)]x[/url][/url]",
    "[url][url][url]https://x.org[/url][/url][/url]",
    "[url=https://x.org][list][*]a[/url][/list]",
    "[list][*][url=https://x.org]a[*]b[/url][/list]",
    "[size=200][list][*][size=7][url=https://x.org]a[/size][/list]",
    '[img]https://x.org/a.png"><img src=x onerror=alert(1)>[/img]',
    "[img][img]https://x.org/a.png[/img][/img]",
    "[size=99999999999999999999999]огромный[/size]",
    "https://x.org/<img src=x onerror=alert(1)>",
    'www.x.org/"><script>alert(1)</script>',
    "[color=red]https://x.org[/color][url=https://x.org][color=red]x[/color][/url]",
  ])("%j", (source) => {
    const out = renderBBCode(source);
    expect(withoutOurTags(out)).not.toMatch(/[<>"]/);
    for (const [tag] of out.matchAll(/<[^>]*>/g)) expect(withoutOurTags(tag)).toBe("");
    expect(balanced(out)).toBe(true);
    expect(listsHoldOnlyItems(out)).toBe(true);
    expect(out).not.toMatch(/<img/i);
    for (const href of hrefs(out)) expect(href).toMatch(/^https?:\/\//);
  });
});

describe("votes next to the new tags", () => {
  const names = ["Вася", "Петя"];
  it.each([
    ["[size=150][color=red]Вася[/color][/size]", "Вася"],
    ["[url=https://x.org][color=red]Вася[/color][/url]", "Вася"],
    ["[list][*][color=red]Вася[/color][/list]", "Вася"],
    ["[list][*]Вася КРАСНЫМ[/list]", "Вася"],
    ["https://x.org Петя КРАСНЫМ", "Петя"],
  ])("a vote in %j still counts", (source, name) => {
    expect(votesInPost(source, names).map((v) => v.name)).toEqual([name]);
  });

  it("a vote in a quote still does not count, with the quote in a list", () => {
    expect(votesInPost("[list][*][quote][color=red]Вася[/color][/quote][/list]", names)).toEqual([]);
  });
});

describe("quoteFreeText", () => {
  it.each([
    ["plain text", "plain text"],
    ["[b]Вася[/b] [i]КРАСНЫМ[/i]", "Вася КРАСНЫМ"],
    ["до [quote]цитата[/quote] после", "до  после"],
    ["до [quote=Оля]цитата[/quote] после", "до  после"],
    ["[quote]раз [quote]два[/quote] три[/quote]четыре", "четыре"],
    ["[QUOTE]в цитате[/quote]вне", "вне"],
    ["[spoiler=Тайна]скрыто[/spoiler]", "скрыто"],
    ["[color=red]Вася[/color]", "Вася"],
    ["[size=5]Вася[/size] [url=x]ссылка[/url]", "Вася ссылка"],
    ["[color=red;x]Вася[/color]", "Вася"],
    ["строка\nещё", "строка\nещё"],
    ["[quote]незакрытая цитата", "незакрытая цитата"],
    ["[b]незакрытый", "незакрытый"],
    ["[url=https://x.org]ссылка[/url] и https://y.org", "ссылка и https://y.org"],
    ["[url=https://x.org][/url]", "https://x.org/"],
    ["[img]https://x.org/a.png[/img]", "https://x.org/a.png"],
    ["[size=150]крупно[/size] [size=huge]никак[/size]", "крупно никак"],
    ["[list]Список:[*]один[*]два[/list]конец", "Список:\nодин\nдва\nконец"],
  ])("%j → %j", (source, text) => {
    expect(quoteFreeText(source)).toBe(text);
  });
});
