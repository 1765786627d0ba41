import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quoteFreeText, renderBBCode } from "../src/index.ts";

/** Every piece of HTML the renderer may emit; anything else in the output must be escaped text. */
const OUR_TAG =
  /<\/?(?:b|i|u|s|cite|summary)>|<br>|<blockquote class="quote">|<\/blockquote>|<details class="spoiler">|<\/details>|<span style="color:(?:[a-z]+|#[0-9a-f]{3}|#[0-9a-f]{6})">|<\/span>/g;

/** The output with our own tags taken out: what is left must hold no `<`, `>` or `"`. */
const withoutOurTags = (html: string): string => html.replace(OUR_TAG, "");

/** True when every element the output opens is closed, in order. */
function balanced(html: string): boolean {
  const open: string[] = [];
  for (const [tag] of html.matchAll(OUR_TAG)) {
    if (tag === "<br>") continue;
    const name = /^<\/?([a-z]+)/.exec(tag)![1]!;
    if (!tag.startsWith("</")) open.push(name);
    else if (open.pop() !== name) return false;
  }
  return open.length === 0;
}

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
    ["red", "red"],
    ["Red", "red"],
    ["DarkBlue", "darkblue"],
    ["#F00", "#f00"],
    ["#00ff7F", "#00ff7f"],
    [" navy ", "navy"],
  ])("renders [color=%s] with the safe colour %s", (value, css) => {
    expect(renderBBCode(`[color=${value}]x[/color]`)).toBe(`<span style="color:${css}">x</span>`);
  });

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
    ["[url=http://example.com]link[/url]", "[url=http://example.com]link[/url]"],
    ["[img]http://x/y.png[/img]", "[img]http://x/y.png[/img]"],
    ["[size=7]big[/size]", "[size=7]big[/size]"],
    ["[b=1]x[/b]", "[b=1]x[/b]"],
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
    "[/url]",
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
    fc.constantFrom("red", "#f00", "#0000ff", "navy", "Вася"),
    fc.string({ unit: fc.constantFrom(..."#f0aR\"';:<>=& /()"), maxLength: 10 }),
  );
  const { tagged } = fc.letrec<{ tagged: string }>((tie) => ({
    tagged: fc.oneof(
      { depthSize: "small" },
      fc.string({ unit: fc.constantFrom("x", " ", "<", '"', "\n", "&"), maxLength: 4 }),
      fc
        .tuple(
          fc.constantFrom("b", "I", "s", "quote", "spoiler", "color", "Color", "url", "img"),
          fc.option(hostileValue),
          fc.array(tie("tagged"), { maxLength: 3 }),
        )
        .map(
          ([name, value, inner]) =>
            `[${name}${value === null ? "" : `=${value}`}]${inner.join("")}[/${name}]`,
        ),
    ),
  }));

  it('property: whatever the input, the output holds no <, > or " outside our own tags, and is balanced', () => {
    fc.assert(
      fc.property(fc.oneof(bbcodeLike, tagged, fc.string({ unit: "binary" })), (source) => {
        const out = renderBBCode(source);
        expect(withoutOurTags(out)).not.toMatch(/[<>"]/);
        expect(balanced(out)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("property: text without brackets or newlines is only escaped", () => {
    const escape = (s: string) =>
      s
        .replace(/&/g, "&amp;")
        .replace(/</g, "&lt;")
        .replace(/>/g, "&gt;")
        .replace(/"/g, "&quot;")
        .replace(/'/g, "&#39;");
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (raw) => {
        const source = raw.replace(/[[\]\r\n]/g, "");
        expect(renderBBCode(source)).toBe(escape(source));
      }),
    );
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
  ])("%j → %j", (source, text) => {
    expect(quoteFreeText(source)).toBe(text);
  });
});
