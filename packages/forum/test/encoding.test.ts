/**
 * Issue 30, "Encodings": a saved page is decoded by its BOM, else its meta, else a detector, and a page in a
 * Cyrillic single-byte encoding gives the same posts as its UTF-8 twin. The twins are made from the UTF-8
 * fixture pages by encoding-twins.ts and kept in fixtures/pages/encodings/.
 */
import iconv from "iconv-lite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodePage, readThread } from "../src/index.ts";
import { makeTwin, PAGES, TWIN_LIST, TWINS, twinName } from "./encoding-twins.ts";

const bytesOf = (path: string): Uint8Array => new Uint8Array(readFileSync(path));
const utf8Page = (page: string): string => readFileSync(join(PAGES, `${page}.html`), "utf8");
const BOM = [0xef, 0xbb, 0xbf];

describe.each(TWIN_LIST.map((t) => [twinName(t), t] as const))("the twin %s", (name, twin) => {
  const bytes = bytesOf(join(TWINS, name));

  it("is the UTF-8 page as encoding-twins.ts saves it today (else rerun it)", () => {
    expect(Buffer.from(bytes).equals(Buffer.from(makeTwin(twin)))).toBe(true);
  });

  it(`is decoded as ${twin.encoding}, ${twin.meta ? "as its meta says" : "found by the detector"}`, () => {
    const decoded = decodePage(bytes);
    expect(decoded.encoding).toBe(twin.encoding);
    expect(decoded.how).toBe(twin.meta ? "meta" : "detected");
  });

  it("gives exactly the posts of its UTF-8 twin", () => {
    const want = readThread({ html: utf8Page(twin.page) });
    const got = readThread({ html: decodePage(bytes).text });
    expect(want.posts.length).toBeGreaterThan(3);
    expect(got.engine).toBe(want.engine);
    expect(got.posts).toEqual(want.posts);
  });
});

describe("decodePage", () => {
  it("a UTF-8 page with a BOM: read as UTF-8, the BOM dropped, whatever its meta says", () => {
    const page = utf8Page("phpbb").replace('<meta charset="utf-8" />', '<meta charset="windows-1251" />');
    const bytes = new Uint8Array([...BOM, ...Buffer.from(page, "utf8")]);
    expect(decodePage(bytes)).toEqual({ text: page, encoding: "utf-8", how: "bom" });
  });

  it("a UTF-16LE page with its BOM", () => {
    const page = utf8Page("generic");
    const bytes = new Uint8Array([0xff, 0xfe, ...Buffer.from(page, "utf16le")]);
    expect(decodePage(bytes)).toEqual({ text: page, encoding: "utf-16le", how: "bom" });
  });

  it("a UTF-8 page with its meta: read as its meta says", () => {
    const page = utf8Page("smf");
    expect(decodePage(Buffer.from(page, "utf8"))).toEqual({ text: page, encoding: "utf-8", how: "meta" });
  });

  it("the meta is believed over the detector, as a browser believes it (WHATWG prescan)", () => {
    // KOI8-R bytes under a meta that names windows-1251: the text is what a browser would show, not KOI8-R's.
    const text = "<html><head><meta charset=windows-1251></head><body>Голосую против Бориса</body></html>";
    const decoded = decodePage(iconv.encode(text, "koi8-r"));
    expect(decoded.how).toBe("meta");
    expect(decoded.encoding).toBe("windows-1251");
    expect(decoded.text).toBe(iconv.decode(iconv.encode(text, "koi8-r"), "windows-1251"));
    expect(decoded.text).not.toContain("Бориса");
  });

  it("the http-equiv content type names the encoding too, in any case and spacing", () => {
    const text =
      '<html><head><META HTTP-EQUIV="content-type" CONTENT="text/html;charset=KOI8-R"></head><body>Аня</body></html>';
    expect(decodePage(iconv.encode(text, "koi8-r"))).toEqual({ text, encoding: "koi8-r", how: "meta" });
  });

  it("a meta naming an encoding no decoder knows is passed over: the detector decides", () => {
    const text = `<meta charset="x-no-such"><p>${"Голосую против Бориса, он мафия. ".repeat(8)}</p>`;
    expect(decodePage(iconv.encode(text, "windows-1251"))).toEqual({
      text,
      encoding: "windows-1251",
      how: "detected",
    });
  });

  it("a UTF-8 page with no meta and no BOM is found by the detector", () => {
    const page = utf8Page("xenforo").replace('<meta charset="utf-8" />', "");
    expect(decodePage(Buffer.from(page, "utf8"))).toEqual({ text: page, encoding: "utf-8", how: "detected" });
  });

  it("bytes all ASCII name no encoding: UTF-8 by default (every candidate reads them alike)", () => {
    const text = "[quote=Anna]vote [color=red]Boris[/color][/quote]";
    expect(decodePage(Buffer.from(text, "ascii"))).toEqual({ text, encoding: "utf-8", how: "default" });
  });

  it("a .txt of BBCode posts in windows-1251 or KOI8-R: found by the detector", () => {
    const text = [
      '[quote="Аня"]Голосую против [color=red]Бориса[/color], он весь день молчит.[/quote]',
      "Согласен с Аней, мой голос: [color=red]Борис[/color]. Вика, а ты что думаешь?",
      "[color=blue]Вика[/color] - подозрительно тихая сегодня.",
    ].join("\n");
    for (const encoding of ["windows-1251", "koi8-r"] as const)
      expect(decodePage(iconv.encode(text, encoding))).toEqual({ text, encoding, how: "detected" });
  });

  it("an empty file: empty text, nothing to go on", () => {
    expect(decodePage(new Uint8Array())).toEqual({ text: "", encoding: "utf-8", how: "default" });
  });
});
