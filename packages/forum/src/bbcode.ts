import { plainTextOutsideQuotes } from "./plain-text.ts";
import { parsePost, type PostNode } from "./post-tree.ts";

/** The summary of a spoiler written without a title. */
const SPOILER_TITLE = "Спойлер";

/**
 * A post's BBCode as safe HTML. Only these tags become HTML: `[b] [i] [u] [s]`, `[quote]` and
 * `[quote=Name]`, `[spoiler]` and `[spoiler=Title]`, and `[color=X]` with X a CSS colour name from our
 * list or `#rgb` / `#rrggbb`. Every other tag, and an allowed one that is unclosed or malformed, is
 * shown as the text that was written. All text is HTML-escaped and newlines become `<br>`. The HTML
 * comes from a tree, so every element we open is closed.
 */
export function renderBBCode(source: string): string {
  return renderNodes(parsePost(source));
}

/**
 * The post's plain text without its quotes (nested ones included) and without tag markup, the text
 * inside other tags kept: the text in which votes are looked for.
 */
export function quoteFreeText(source: string): string {
  return plainTextOutsideQuotes(parsePost(source)).text;
}

function renderNodes(nodes: readonly PostNode[]): string {
  return nodes.map(renderNode).join("");
}

function renderNode(node: PostNode): string {
  switch (node.kind) {
    case "text":
    case "markup":
      return textToHtml(node.text);
    case "style":
      return `<${node.style}>${renderNodes(node.children)}</${node.style}>`;
    case "quote": {
      const cite = node.author === null ? "" : `<cite>${escapeHtml(node.author)}</cite>`;
      return `<blockquote class="quote">${cite}${renderNodes(node.children)}</blockquote>`;
    }
    case "spoiler": {
      const summary = escapeHtml(node.title ?? SPOILER_TITLE);
      return `<details class="spoiler"><summary>${summary}</summary>${renderNodes(node.children)}</details>`;
    }
    case "color":
      return `<span style="color:${node.color}">${renderNodes(node.children)}</span>`;
    default: {
      const never: never = node;
      throw new Error(`unknown post node ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Escapes text and makes each line break a `<br>`. The parser gives the "\n" of a CRLF as a piece of
 * its own, so a "\r" that ends a piece is the first half of one and is dropped.
 */
function textToHtml(text: string): string {
  return escapeHtml(text)
    .replace(/\r$/, "")
    .replace(/\r\n?|\n/g, "<br>");
}

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes the five characters that are special in HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
