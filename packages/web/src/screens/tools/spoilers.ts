/**
 * Spoilers that reached the clipboard empty (issues 18, 30): a browser copies only what is shown, so a closed
 * spoiler's content is left out of the copied HTML, and a vote hidden in it would be lost without a word.
 * What is left depends on how the forum hides it:
 * - a `<details>` with nothing after its `<summary>`;
 * - an empty element of a spoiler body's class, when the body holds a hidden block (vBulletin 4
 *   `spoiler_body`): `<div class="spoiler_body"></div>`;
 * - most often, the spoiler's head alone: Chromium leaves a `display: none` body out altogether, tag and all
 *   (and a "Показать" button with it), so a phpBB 2 spoiler arrives as
 *   `<td class="spoiler-head" …>…Спойлер…</td></tr><tr></tr></tbody></table>`, vBulletin 3's as
 *   `<div class="smallfont"><b>Спойлер</b>: </div><div class="alt2" …></div></div></div>`, SMF's as
 *   `<div class="spoilerheader"> Спойлер</div></div>`, uCoz's as `<div class="uSpoilerButBl"></div></div>`.
 *   So from each spoiler head (an element of a head's class, a `<summary>`, or an element whose whole text
 *   is «Спойлер») the tags after it are followed: an open spoiler's body brings text before the element
 *   holding the head closes; a closed one does not.
 * Read from the HTML's text as the browser wrote it, not parsed into a document: a parsed page's inline
 * event handlers would each be reported against the app's content security policy. Every pattern is
 * bounded, each head is followed for at most HEAD_REACH characters, and a stretch already followed is not
 * followed again, so a 5 MB paste is scanned in linear time.
 */
const EMPTY_DETAILS =
  /<details\b[^>]{0,500}>\s*<summary\b[^>]{0,500}>(?:[^<]|<(?!\/summary>)){0,2000}<\/summary>\s*<\/details>/iu;
/**
 * An element's opening tag up to its `>` (left for the label's pattern). Its attributes are taken whole
 * (a lookahead and a backreference: no backtracking into them), and read only when they name a spoiler.
 */
const TAG = /<(?<tag>[a-z][a-z0-9-]{0,30})\b(?=(?<attrs>[^<>]{0,2000}))\k<attrs>(?=>)/iu;
/** A `<summary>`, or an element whose whole text is a spoiler's usual label (vBulletin 3's `<b>Спойлер</b>`). */
const HEAD_WITHOUT_CLASS =
  /<summary\b[^<>]{0,500}>|>(?=\s{0,50}(?:спойлер|spoiler|скрытый текст)\s{0,50}:?\s{0,50}<)/iu;
const ANCHOR = new RegExp(
  [EMPTY_DETAILS.source, TAG.source, HEAD_WITHOUT_CLASS.source].map((s) => `(?:${s})`).join("|"),
  "giu",
);
const CLASS = /\bclass="([^"]*)"/iu;
/** A closing tag right after an opening tag's `>`: the element is empty. */
const CLOSES_AT_ONCE = />\s{0,500}<\//uy;
const SPOILER_BODY = /spoiler[_-]?(?:body|contents?)\b|\bsp[_-]body\b/iu;
/** phpBB `spoiler-head`, SMF `spoilerheader`, vBulletin `spoiler_title`, XenForo `bbCodeSpoiler-button`… */
const SPOILER_HEAD = /(?:spoiler|\bsp)[_-]?(?:head|title|but|btn|toggle)/iu;
/** How far after a head its body is looked for. */
const HEAD_REACH = 4000;
/** One tag, comment or run of text. */
const TOKEN =
  /<(\/?)([a-z][a-z0-9-]{0,30})\b[^<>]{0,2000}?(\/?)>|<!--(?:[^-]|-(?!->)){0,2000}-->|[^<]{1,2000}|</giu;
/** Formatting inside a head (`<b>Спойлер</b>`), not the head itself. */
const INLINE = /^(?:a|b|big|em|font|i|small|span|strong|u)$/iu;
const VOID = /^(?:area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr)$/iu;

/**
 * Follow the tags after a spoiler's head, from `start` inside it (`depth` 1) or just after it (`depth` 0).
 * Returns where the answer was found and whether the body was missing: false at the first text after the
 * head (the body's), true when the element holding the head closes first (the spoiler's wrapper: the body
 * would have been the head's sibling). A head that is inline formatting with nothing after it
 * (`<b>Спойлер</b>: </div>`) grows into the element around it; a table row may close (phpBB 2 puts the body
 * in the row after the head's), not its table.
 */
function headAlone(
  html: string,
  start: number,
  depth: number,
): { readonly end: number; readonly alone: boolean } {
  const limit = Math.min(html.length, start + HEAD_REACH);
  TOKEN.lastIndex = start;
  let inHead = depth > 0;
  let grows = false;
  for (let m = TOKEN.exec(html); m && m.index < limit; m = TOKEN.exec(html)) {
    const end = m.index + m[0].length;
    const tag = m[2];
    if (tag !== undefined) {
      if (m[1] !== "/") {
        if (m[3] !== "/" && !VOID.test(tag)) {
          depth++;
          grows = false;
        }
      } else if (--depth === 0 && inHead) {
        inHead = false;
        grows = INLINE.test(tag);
      } else if (depth === -1 && grows) {
        // Nothing came after the inline head: the element around it is the head.
        depth = 0;
        grows = INLINE.test(tag);
      } else if (depth <= -2 || (depth === -1 && !/^tr$/iu.test(tag))) return { end, alone: true };
    } else if (!inHead && !m[0].startsWith("<") && /[\p{L}\p{N}]/u.test(m[0].replace(/&#?\w+;/gu, ""))) {
      return { end: m.index, alone: false };
    }
  }
  return { end: limit, alone: false };
}

export function emptySpoilers(html: string): number {
  if (!/details|spoiler|спойлер|скрытый/iu.test(html)) return 0;
  let n = 0;
  ANCHOR.lastIndex = 0;
  for (let m = ANCHOR.exec(html); m; m = ANCHOR.exec(html)) {
    let end = m.index + m[0].length;
    const { tag, attrs } = m.groups!;
    if (tag === undefined) {
      if (/^<details/iu.test(m[0])) n++;
      else {
        // A `<summary>` is the head's opening tag; a label's `>` ends the opening tag of the element it fills.
        const found = headAlone(html, end, 1);
        if (found.alone) n++;
        end = found.end;
      }
    } else if (/spoil|\bsp[_-]/iu.test(attrs!)) {
      const className = CLASS.exec(attrs!)?.[1] ?? "";
      CLOSES_AT_ONCE.lastIndex = end;
      if (SPOILER_BODY.test(className) && CLOSES_AT_ONCE.test(html)) n++;
      else if (SPOILER_HEAD.test(className)) {
        const selfClosing = attrs!.endsWith("/") || VOID.test(tag);
        const found = headAlone(html, end + 1, selfClosing ? 0 : 1);
        if (found.alone) n++;
        end = found.end;
      }
    }
    // The stretch already followed holds this spoiler's other parts (its label, its empty body): not again.
    ANCHOR.lastIndex = Math.max(ANCHOR.lastIndex, end, m.index + 1);
  }
  return n;
}
