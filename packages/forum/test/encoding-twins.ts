/**
 * Issue 30, "Encodings": the fixture pages saved in Cyrillic single-byte encodings, as a forum that serves
 * windows-1251 or KOI8-R would have sent them. `npx tsx packages/forum/test/encoding-twins.ts` writes them to
 * test/fixtures/pages/encodings/; encoding.test.ts checks the files there are what this makes today, so an
 * edit of a UTF-8 page that is not carried to its twins fails there.
 *
 * A twin is its UTF-8 page with the meta's charset renamed (or the meta removed: a page that names no
 * encoding, left to the detector), every character the encoding lacks written as a numeric character
 * reference (as forums on such encodings store an emoji or a guillemet a poster typed, and as a browser
 * sends it), then encoded by iconv-lite: a tool of the tests only, the app decodes with TextDecoder.
 */
import iconv from "iconv-lite";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

import { FIXTURE_PAGES, PAGES } from "./fixture-pages.ts";

export { PAGES };
export const TWINS = join(PAGES, "encodings");

export type TwinEncoding = "windows-1251" | "koi8-r" | "windows-1252";

export interface Twin {
  /** The UTF-8 page it is made from (fixtures/pages/<page>.html). */
  readonly page: string;
  readonly encoding: TwinEncoding;
  /** Whether the twin keeps a meta naming its encoding; without, the detector must find it. */
  readonly meta: boolean;
}

/**
 * The twins: every whole fixture page (fixture-pages.ts; a clipboard fragment is text already) in
 * windows-1251 and in KOI8-R, one with a meta and one without, alternating
 * so that each encoding is read both ways on several engines' markup. The Latin page (encodings/latin.html, written for this: the other pages are Russian) is saved in cp1252.
 */
export const TWIN_LIST: readonly Twin[] = [
  ...FIXTURE_PAGES.filter((p) => p.whole).flatMap(({ name: page }): Twin[] => {
    // By the name, not the place in the list, so a page added does not turn the others' twins around.
    const even = [...page].reduce((sum, ch) => sum + ch.charCodeAt(0), 0) % 2 === 0;
    return [
      { page, encoding: "windows-1251", meta: even },
      { page, encoding: "koi8-r", meta: !even },
    ];
  }),
  { page: "encodings/latin", encoding: "windows-1252", meta: true },
  { page: "encodings/latin", encoding: "windows-1252", meta: false },
];

export const twinName = (t: Twin): string =>
  `${basename(t.page)}.${t.encoding}${t.meta ? "" : ".nometa"}.html`;

/** `<meta charset="utf-8">` and `<meta http-equiv="Content-Type" content="text/html; charset=UTF-8">`. */
const META_CHARSET =
  /<meta charset="utf-8"\s*\/?>\s*|(<meta http-equiv="Content-Type" content="text\/html; charset=)UTF-8("\s*\/?>)\s*/iu;

/** The UTF-8 page `page` as its twin's bytes. */
export function makeTwin(t: Twin): Uint8Array {
  const utf8 = readFileSync(join(PAGES, `${t.page}.html`), "utf8");
  if (!META_CHARSET.test(utf8)) throw new Error(`${t.page}.html names no utf-8 charset to rename`);
  const renamed = utf8.replace(
    META_CHARSET,
    (whole, before: string | undefined, after: string | undefined) => {
      if (!t.meta) return "";
      const kept = whole.slice(whole.trimEnd().length);
      return before !== undefined
        ? `${before}${t.encoding}${after ?? ""}${kept}`
        : `<meta charset="${t.encoding}" />${kept}`;
    },
  );
  let out = "";
  for (const ch of renamed) out += fits(ch, t.encoding) ? ch : `&#${ch.codePointAt(0)!};`;
  return new Uint8Array(iconv.encode(out, t.encoding));
}

const fitsCache = new Map<string, boolean>();
function fits(ch: string, encoding: TwinEncoding): boolean {
  if (ch < "\u0080") return true;
  const key = `${encoding}\u0000${ch}`;
  let ok = fitsCache.get(key);
  if (ok === undefined) {
    ok = iconv.decode(iconv.encode(ch, encoding), encoding) === ch;
    fitsCache.set(key, ok);
  }
  return ok;
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  mkdirSync(TWINS, { recursive: true });
  for (const t of TWIN_LIST) writeFileSync(join(TWINS, twinName(t)), makeTwin(t));
  process.stdout.write(`${TWIN_LIST.length} twins written to ${TWINS}\n`);
}
