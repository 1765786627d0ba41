/**
 * The WHATWG URL parser, global in Node and in browsers. The forum package builds with ES2022's
 * library only, which does not declare it; this is the part we use.
 */
declare const URL: new (input: string) => {
  readonly href: string;
  readonly protocol: string;
  readonly hostname: string;
  readonly username: string;
  readonly password: string;
};

/**
 * An absolute http: or https: URL as the URL parser writes it (scheme and host in lower case, the rest
 * percent-encoded). It still needs HTML escaping to go into an attribute.
 */
export type SafeUrl = string & { readonly __safeUrl: true };

/** Longer URLs are not links. */
const MAX_URL_LENGTH = 2048;
/**
 * What a link may be written as: `http://` or `https://` in any case, then no whitespace, control or
 * format character (zero-width and direction marks among them) and no backslash, which the URL parser
 * would read as a slash.
 */
const WRITTEN_URL = /^https?:\/\/[^\s\p{Cc}\p{Cf}\\]+$/iu;

/**
 * The URL of `[url]`, `[url=…]` or `[img]`, or null. Only an absolute http(s) URL with a host is
 * accepted, and not one with a user name or password (`https://bank.com@evil.org`). Whitespace around
 * it is ignored; whitespace or control characters inside it refuse it.
 */
export function safeUrl(written: string): SafeUrl | null {
  return parsed(written)?.href ?? null;
}

function parsed(written: string): { readonly href: SafeUrl; readonly hostname: string } | null {
  const text = written.trim();
  if (text.length > MAX_URL_LENGTH || !WRITTEN_URL.test(text)) return null;
  let url: InstanceType<typeof URL>;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.hostname === "" || url.username !== "" || url.password !== "") return null;
  return { href: url.href as SafeUrl, hostname: url.hostname };
}

/** A link found in text: where it is written, and where it goes. */
export interface BareLink {
  readonly from: number;
  readonly to: number;
  readonly href: SafeUrl;
}

/**
 * A link's start, `http://` or `https://` not glued to a word before it (`см.https://…` is a link) or
 * `www.` not part of a longer name, address or path (`a.www.x.org`, `me@www.x.org`), in any case; and
 * its longest possible run: up to whitespace, a control or format character, or one of
 * `< > " \` [ ] { } | \ ^`.
 */
const BARE_LINK =
  /(?:(?<![\p{L}\p{N}_])https?:\/\/|(?<![\p{L}\p{N}_@/.+-])www\.)[^\s\p{Cc}\p{Cf}<>"`[\]{}|\\^]+/giu;
/** Punctuation that ends a sentence or closes a quote rather than belongs to the link before it. */
const TRAILING = new Set([".", ",", ":", ";", "!", "?", "'", "’", "”", "»", "…", "*"]);
/** A domain name (as the URL parser writes it, in ASCII) whose last label looks like a top-level domain. */
const DOMAIN_NAME = /^(?:[^.]+\.)+(?:[a-z]{2,}|xn--[a-z0-9-]+)$/;

/**
 * The http(s) links written in plain text, in order. Trailing punctuation is left out of a link, and
 * so is a closing parenthesis that has no opening one inside the link (`(see https://x.org/a_(b))`
 * ends at `(b)`). `www.…` links to https. A link needs a domain name (`http://localhost` and
 * `http://127.0.0.1` are left as text).
 */
export function bareLinks(text: string): BareLink[] {
  return [...text.matchAll(BARE_LINK)].flatMap((match): BareLink[] => {
    const written = withoutTrailingPunctuation(match[0]);
    const url = parsed(/^www\./i.test(written) ? `https://${written}` : written);
    if (url === null || !DOMAIN_NAME.test(url.hostname)) return [];
    return [{ from: match.index, to: match.index + written.length, href: url.href }];
  });
}

function withoutTrailingPunctuation(link: string): string {
  let end = link.length;
  const opening = link.split("(").length - 1;
  let closing = link.split(")").length - 1;
  for (let last = link[end - 1]; last !== undefined; last = link[end - 1]) {
    if (TRAILING.has(last)) end--;
    else if (last === ")" && closing > opening) {
      end--;
      closing--;
    } else break;
  }
  return link.slice(0, end);
}
