/**
 * Spoilers that reached the clipboard empty (issue 18): a browser copies only what is shown, so a closed
 * spoiler's content (a `<details>` not opened, or a forum's spoiler body hidden by `display: none`) is
 * left out of the copied HTML, and a vote hidden in it would be lost without a word. What is left is a
 * `<details>` with nothing after its `<summary>`, or an empty element of a spoiler body's class (phpBB
 * `spoiler-body`, vBulletin `spoiler_body`, XenForo `bbCodeSpoiler-content`, Invision
 * `ipsSpoiler_contents`…). Read from the HTML's text as the browser wrote it, not parsed into a document:
 * a parsed page's inline event handlers would each be reported against the app's content security policy.
 * Every pattern is bounded, so a 5 MB paste is scanned in linear time.
 */
const EMPTY_DETAILS =
  /<details\b[^>]{0,500}>\s*<summary\b[^>]{0,500}>(?:[^<]|<(?!\/summary>)){0,2000}<\/summary>\s*<\/details>/giu;
/** An element with a class and nothing inside: its class attribute, then at once a closing tag. */
const EMPTY_WITH_CLASS = /\bclass="([^"<>]{0,300})"[^<>]{0,500}>\s*<\//giu;
const SPOILER_BODY = /spoiler[_-]?(?:body|contents?)\b/iu;

export function emptySpoilers(html: string): number {
  if (!/details|spoiler/iu.test(html)) return 0;
  let n = [...html.matchAll(EMPTY_DETAILS)].length;
  for (const m of html.matchAll(EMPTY_WITH_CLASS)) if (SPOILER_BODY.test(m[1]!)) n++;
  return n;
}
