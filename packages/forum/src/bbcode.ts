import { plainTextOutsideQuotes } from "./plain-text.ts";
import { parsePost, type ListNode, type ListNumbering, type PostNode } from "./post-tree.ts";
import { bareLinks } from "./safe-url.ts";
import { voteColorOf } from "./vote-color.ts";

/** The summary of a spoiler written without a title. */
const SPOILER_TITLE = "Спойлер";

/**
 * A post's BBCode as safe HTML. Only these tags become HTML: `[b] [i] [u] [s]`, `[quote]` and
 * `[quote=Name]`, `[spoiler]` and `[spoiler=Title]`, `[color=X]` with X a CSS colour name from our
 * list or `#rgb` / `#rrggbb` (a vote colour, see voteColorOf, with the class `vote-red` or `vote-blue`),
 * `[url]`, `[url=X]` and `[img]` with an http(s) URL (see safeUrl), all
 * three shown as links (an image is never loaded), `[size=N]` (see sizePercent), and `[list]` /
 * `[list=1|a|A|i|I]` with `[*]` items. http(s) and `www.` links written in text become links too.
 * Every other tag, and an allowed one that is unclosed or malformed, is shown as the text that was
 * written; a size that cannot be read shows its content at the normal size. All text is HTML-escaped
 * and newlines become `<br>`. The HTML comes from a tree, so every element we open is closed.
 */
export function renderBBCode(source: string): string {
  return renderNodes(parsePost(source), TOP);
}

/**
 * The post's plain text without its quotes (nested ones included) and without tag markup, the text
 * inside other tags kept: the text in which votes are looked for.
 */
export function quoteFreeText(source: string): string {
  return plainTextOutsideQuotes(parsePost(source)).text;
}

/** What the HTML around a node already is. */
interface Context {
  /** Inside a link: links and images show only their text, and links in text are not linked. */
  readonly inLink: boolean;
  /** The text size here, in percent of the post's normal text. */
  readonly percent: number;
}

const TOP: Context = { inLink: false, percent: 100 };

/**
 * The attributes of every link: search engines and the target page get no credit or referrer
 * powers, and it opens in a new tab.
 */
const LINK_ATTRIBUTES = 'rel="nofollow ugc noopener" target="_blank"';

function renderNodes(nodes: readonly PostNode[], context: Context): string {
  const html: string[] = [];
  // Adjacent text nodes (the lexer splits words from spaces) are one run, so a link in it is found whole.
  let run = "";
  let afterList = false;
  const flush = (): void => {
    // A list ends its line, so a line break right after it would leave an empty line.
    const text = afterList ? run.replace(/^[^\S\r\n]*(?:\r\n?|\n)/, "") : run;
    if (text !== "") html.push(textWithLinks(text, context));
    run = "";
    afterList = false;
  };
  for (const node of nodes) {
    if (node.kind === "text") {
      run += node.text;
      continue;
    }
    flush();
    html.push(renderNode(node, context));
    afterList = node.kind === "list" && node.children.some((child) => child.kind === "item");
  }
  flush();
  return html.join("");
}

function renderNode(node: PostNode, context: Context): string {
  switch (node.kind) {
    case "text":
      return textWithLinks(node.text, context);
    case "markup":
      return textToHtml(node.text);
    case "style":
      return `<${node.style}>${renderNodes(node.children, context)}</${node.style}>`;
    case "quote": {
      const cite = node.author === null ? "" : `<cite>${escapeHtml(node.author)}</cite>`;
      return `<blockquote class="quote">${cite}${renderNodes(node.children, context)}</blockquote>`;
    }
    case "spoiler": {
      const summary = escapeHtml(node.title ?? SPOILER_TITLE);
      return `<details class="spoiler"><summary>${summary}</summary>${renderNodes(node.children, context)}</details>`;
    }
    case "color": {
      // A vote colour (V2) carries its class: the app shows it in its own red or blue, which pass WCAG AA
      // on its backgrounds in both colour schemes, and says the colour's name to a screen reader.
      const vote = voteColorOf(node.color);
      const mark = vote === null ? "" : ` class="vote-${vote}"`;
      return `<span${mark} style="color:${node.color}">${renderNodes(node.children, context)}</span>`;
    }
    case "link": {
      const blank = node.children.every((child) => child.kind === "text" && child.text.trim() === "");
      const text = blank ? escapeHtml(node.href) : renderNodes(node.children, { ...context, inLink: true });
      // HTML has no link inside a link: an inner one is only its text.
      return context.inLink ? text : `<a href="${escapeHtml(node.href)}" ${LINK_ATTRIBUTES}>${text}</a>`;
    }
    case "size": {
      if (node.percent === null) return renderNodes(node.children, context);
      // Relative to the size around it, so that nested sizes stay within the bounds of the normal text.
      const relative = Math.round((node.percent / context.percent) * 100);
      const inner = renderNodes(node.children, { ...context, percent: node.percent });
      return `<span style="font-size:${relative}%">${inner}</span>`;
    }
    case "list":
      return renderList(node, context);
    case "item":
      // Items are rendered by their list; an item is never anywhere else.
      return renderNodes(node.children, context);
    default: {
      const never: never = node;
      throw new Error(`unknown post node ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The CSS list styles of `[list=a|A|i|I]`, as inline styles like the colours: the app's stylesheets
 * style lists of their own, and a style attribute wins over them where HTML's `type` would not.
 */
const NUMBERING_STYLES: Readonly<Record<Exclude<ListNumbering, "1">, string>> = {
  a: "lower-alpha",
  A: "upper-alpha",
  i: "lower-roman",
  I: "upper-roman",
};

/**
 * A list as `<ul>` or `<ol>` holding nothing but `<li>`. What was written before the first item goes
 * before the list; what was written after an item closed by `[/*]` joins that item. Space and line
 * breaks around an item's text are dropped: forums put each `[*]` on a line of its own.
 */
function renderList(list: ListNode, context: Context): string {
  const first = list.children.findIndex((child) => child.kind === "item");
  const intro = renderNodes(trimmed(first < 0 ? list.children : list.children.slice(0, first)), context);
  if (first < 0) return intro;
  const items: PostNode[][] = [];
  for (const child of list.children.slice(first)) {
    if (child.kind === "item") items.push([...child.children]);
    else items.at(-1)!.push(child);
  }
  const [open, close] =
    list.numbering === null
      ? ["<ul>", "</ul>"]
      : [
          list.numbering === "1"
            ? "<ol>"
            : `<ol style="list-style-type:${NUMBERING_STYLES[list.numbering]}">`,
          "</ol>",
        ];
  const lis = items.map((item) => `<li>${renderNodes(trimmed(item), context)}</li>`);
  return `${intro}${open}${lis.join("")}${close}`;
}

/** The nodes without the whitespace that starts or ends their text. */
function trimmed(nodes: readonly PostNode[]): PostNode[] {
  const out = [...nodes];
  const blank = (node: PostNode | undefined): boolean => node?.kind === "text" && node.text.trim() === "";
  while (blank(out[0])) out.shift();
  while (blank(out.at(-1))) out.pop();
  const first = out[0];
  if (first?.kind === "text") out[0] = { ...first, text: first.text.trimStart() };
  const last = out.at(-1);
  if (last?.kind === "text") out[out.length - 1] = { ...last, text: last.text.trimEnd() };
  return out;
}

/** Text with its http(s) links made links, unless it is already inside one. */
function textWithLinks(text: string, context: Context): string {
  if (context.inLink) return textToHtml(text);
  const html: string[] = [];
  let at = 0;
  for (const link of bareLinks(text)) {
    html.push(textToHtml(text.slice(at, link.from)));
    const written = escapeHtml(text.slice(link.from, link.to));
    html.push(`<a href="${escapeHtml(link.href)}" ${LINK_ATTRIBUTES}>${written}</a>`);
    at = link.to;
  }
  html.push(textToHtml(text.slice(at)));
  return html.join("");
}

/** Escapes text and makes each line break (LF, CRLF or CR) a `<br>`. */
function textToHtml(text: string): string {
  return escapeHtml(text).replace(/\r\n?|\n/g, "<br>");
}

/** Escapes the five characters that are special in HTML text and attribute values. */
export function escapeHtml(text: string): string {
  // "&" first, so that the entities the later replacements write are not escaped again.
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
