import type { FoundPost } from "./read.ts";

/** Plain text has no clear posts yet: none are found (the UI explains how to copy with colours). */
export function readPlainText(text: string): FoundPost[] {
  void text;
  return [];
}
