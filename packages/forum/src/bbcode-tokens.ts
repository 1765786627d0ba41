import { createLexer } from "@bbob/parser";
import type { SourceSpan } from "./post-tree.ts";

/** What follows a tag's name: nothing (`[b]`), one value (`[quote=Вася]`), or attributes we never accept. */
export type TagValue =
  | { readonly kind: "none" }
  | { readonly kind: "value"; readonly value: string }
  | { readonly kind: "attributes" };

/** A post's BBCode as a flat list in source order: text, opening tags and closing tags. */
export type BBToken =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "open"; readonly name: string; readonly value: TagValue; readonly span: SourceSpan }
  | { readonly kind: "close"; readonly name: string; readonly span: SourceSpan };

// The token types of @bbob/parser's lexer (its Token.ts).
const WORD = 1;
const TAG = 2;
const ATTR_NAME = 3;
const ATTR_VALUE = 4;
const SPACE = 5;
const NEW_LINE = 6;

interface LexerToken {
  readonly type: number;
  readonly value: string;
  readonly span: SourceSpan;
}

/**
 * Tokenizes a post with @bbob/parser's lexer. Its text tokens are the source's own characters, in
 * order, and its tag tokens carry their source span, so nothing written is lost or rewritten.
 */
export function tokenize(source: string): BBToken[] {
  const tokens: BBToken[] = [];
  const setValue = (value: (before: TagValue) => TagValue): void => {
    const last = tokens.at(-1);
    if (last?.kind === "open") tokens[tokens.length - 1] = { ...last, value: value(last.value) };
  };
  for (const raw of createLexer(source).tokenize() as readonly unknown[]) {
    const token = lexerToken(raw);
    if (token === null) continue;
    switch (token.type) {
      case WORD:
      case SPACE:
      case NEW_LINE:
        tokens.push({ kind: "text", text: token.value });
        break;
      case TAG:
        if (token.value.startsWith("/"))
          tokens.push({ kind: "close", name: token.value.slice(1), span: token.span });
        else tokens.push({ kind: "open", name: token.value, value: { kind: "none" }, span: token.span });
        break;
      case ATTR_VALUE:
        setValue((before) =>
          before.kind === "none" ? { kind: "value", value: token.value } : { kind: "attributes" },
        );
        break;
      case ATTR_NAME:
        setValue(() => ({ kind: "attributes" }));
        break;
      default:
        break;
    }
  }
  return tokens;
}

/** Reads one of the lexer's tokens (fields t, v, s, e); anything of another shape is skipped. */
function lexerToken(raw: unknown): LexerToken | null {
  if (typeof raw !== "object" || raw === null) return null;
  const { t, v, s, e } = raw as Record<string, unknown>;
  if (typeof t !== "number" || typeof v !== "string") return null;
  return {
    type: t,
    value: v,
    span: { from: typeof s === "number" ? s : 0, to: typeof e === "number" ? e : 0 },
  };
}
