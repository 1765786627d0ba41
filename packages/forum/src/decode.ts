import { getBOMEncoding, TextDecoder } from "@exodus/bytes/encoding.js";
import chardet from "chardet";
import sniffHtmlEncoding from "html-encoding-sniffer";

/**
 * Issue 30, "Encodings": a saved page (or a .txt of BBCode) read from its bytes. Russian forums on older
 * engines and hosts still serve windows-1251 or KOI8-R, and a page saved from them keeps those bytes; read
 * as UTF-8 they are mojibake and the reader finds no posts.
 */

/** How the encoding was chosen: a byte order mark, the page's own meta, the detector, or nothing to go on. */
export type DecodeHow = "bom" | "meta" | "detected" | "default";

export interface DecodedPage {
  /** The page's text, without its byte order mark. */
  readonly text: string;
  /** The WHATWG name of the encoding read, as TextDecoder reports it ("utf-8", "windows-1251", "koi8-r"…). */
  readonly encoding: string;
  readonly how: DecodeHow;
}

/**
 * The encodings the detector may choose, by the names chardet gives them, each with the WHATWG label
 * TextDecoder reads. ISO-8859-1 is read as windows-1252, as browsers do (WHATWG Encoding: the label
 * "iso-8859-1" names windows-1252). Anything else it offers (Greek, Hebrew, Shift_JIS…) is never a saved
 * page of the forums we read, and would only be a misreading of a short Russian text.
 */
const DETECTABLE: ReadonlyMap<string, string> = new Map([
  ["UTF-8", "utf-8"],
  ["windows-1251", "windows-1251"],
  ["KOI8-R", "koi8-r"],
  ["ISO-8859-5", "iso-8859-5"],
  ["windows-1252", "windows-1252"],
  ["ISO-8859-1", "windows-1252"],
]);

/** The detector looks at most at this many bytes of a page: a 5 MB page does not cost seconds. */
const SAMPLE = 1024 * 1024;
/**
 * And reads this many bytes of its text, from the first that is not ASCII: enough for its letter statistics
 * (a few posts), at about 50 ms; it took 300 ms on 256 KiB.
 */
const WORDS = 32 * 1024;

/** What the page says when the sniffer finds neither a BOM nor a meta: a value no encoding is named. */
const NONE = "none";

/**
 * The page's text: by its byte order mark (UTF-8, UTF-16LE/BE), else the encoding its `<meta charset>` or
 * `<meta http-equiv="Content-Type" content="…; charset=…">` names in the first 1024 bytes (the WHATWG
 * prescan, by html-encoding-sniffer), else the detector's guess among UTF-8, windows-1251, KOI8-R,
 * ISO-8859-5 and cp1252, else UTF-8. A plain .txt file goes through the same steps: it has no meta, so a BOM
 * or the detector decides. The bytes are always decoded by a WHATWG TextDecoder, never by hand; a sequence
 * invalid in the encoding chosen reads as U+FFFD. It is @exodus/bytes' (the html-encoding-sniffer's own
 * library), not Node's: Node 20's decodes windows-1252 as Latin-1, so cp1252's curly quotes, dashes and
 * ellipsis (0x80–0x9F) came out as C1 control characters; its windows-1251 and KOI8-R read the same.
 */
export function decodePage(bytes: Uint8Array): DecodedPage {
  const sniffed = sniffHtmlEncoding(bytes, { defaultEncoding: NONE });
  if (sniffed !== NONE) {
    const decoder = decoderFor(sniffed);
    // A meta naming an encoding TextDecoder does not know (a typo, "x-mac-cyrillic" in an old build) says
    // nothing we can use: the detector decides, as if there were none.
    if (decoder !== null) return { text: decoder.decode(bytes), encoding: decoder.encoding, how: how(bytes) };
  }
  const detected = detect(bytes);
  const decoder = new TextDecoder(detected ?? "utf-8");
  return { text: decoder.decode(bytes), encoding: decoder.encoding, how: detected ? "detected" : "default" };
}

/** Whether the sniffer's answer came from a byte order mark (its first step) rather than a meta. */
function how(bytes: Uint8Array): "bom" | "meta" {
  return getBOMEncoding(bytes) !== null ? "bom" : "meta";
}

function decoderFor(label: string): InstanceType<typeof TextDecoder> | null {
  try {
    return new TextDecoder(label);
  } catch {
    return null;
  }
}

/**
 * The detector's best guess among DETECTABLE, or null when the bytes are all ASCII (every one of these
 * encodings reads them alike) or it offers none of them. It is given the text between the tags: a page's
 * markup (and a post's BBCode tags) is ASCII, the same in every candidate, and when it outweighs the words
 * chardet's letter statistics drown (a windows-1251 page was guessed ISO-8859-2 with its markup in).
 */
function detect(bytes: Uint8Array): string | null {
  const sample = upTo(bytes, SAMPLE);
  if (sample.every((b) => b < 0x80)) return null;
  const words = between(sample);
  const text = words.some((b) => b >= 0x80) ? words : sample;
  // The first byte that is not ASCII starts a character in every candidate (the byte before it is ASCII).
  const from = text.findIndex((b) => b >= 0x80);
  for (const match of chardet.analyse(upTo(text.subarray(from), WORDS))) {
    const label = DETECTABLE.get(match.name);
    if (label !== undefined && match.confidence > 0) return label;
  }
  return null;
}

/**
 * At most `max` bytes, cut after an ASCII byte, so the cut never splits a UTF-8 sequence (the detector
 * would count it bad): every candidate's ASCII bytes are whole characters.
 */
function upTo(bytes: Uint8Array, max: number): Uint8Array {
  if (bytes.length <= max) return bytes;
  let end = max;
  while (end > 0 && bytes[end - 1]! >= 0x80) end--;
  return bytes.subarray(0, end > 0 ? end : max);
}

/**
 * The bytes outside `<…>` and `[…]`. The brackets are ASCII in every candidate encoding, so a multi-byte
 * UTF-8 sequence is never cut in two: a run dropped starts and ends on them.
 */
function between(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  let close = 0;
  for (const b of bytes) {
    if (close !== 0) {
      if (b === close) close = 0;
    } else if (b === 0x3c) close = 0x3e;
    else if (b === 0x5b) close = 0x5d;
    else out[n++] = b;
  }
  return out.subarray(0, n);
}
