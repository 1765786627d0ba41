import type { El } from "./dom.ts";
import type { FoundPost } from "./read.ts";

/** The generic reader: repeated blocks with an author and a body. */
export function readGeneric(root: El): FoundPost[] {
  void root;
  return [];
}
