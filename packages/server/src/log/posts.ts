import type { PostView } from "@forum-mafia/protocol";
import { renderBBCode } from "@forum-mafia/forum";

/** A post in the game thread, as the room holds it (room.ts). */
export interface Post {
  readonly id: string;
  readonly seat: number | null;
  readonly author: string;
  readonly text: string;
  readonly html: string;
  readonly at: number;
  hidden: { readonly reason: string } | null;
  readonly vote: { readonly color: "red" | "blue"; readonly target: number; readonly early: boolean } | null;
}

/** A post as everyone sees it: a hidden post keeps its author and time, not its text. */
export function postView(post: Post): PostView {
  const fields = {
    id: post.id,
    seat: post.seat,
    author: post.author,
    at: post.at,
    hidden: post.hidden,
    vote: post.vote,
  };
  if (post.hidden) return { ...fields, html: "" };
  // Read from the post when the view is first read (sent, or serialised), not when the feed is built.
  return Object.defineProperty(fields, "html", { enumerable: true, get: () => post.html }) as PostView;
}

/**
 * Issue 20: `fields` with its `html` rendered from `text` the first time it is read, then kept. Replaying a
 * log (a start, a room built on demand, a rebuild after another instance's write) renders nothing: a post
 * is rendered when somebody is first sent it, once.
 */
export function withHtml<T extends object>(fields: T, text: string): T & { readonly html: string } {
  let html: string | undefined;
  return Object.defineProperty(fields, "html", {
    enumerable: true,
    get: () => (html ??= renderBBCode(text)),
  }) as T & { readonly html: string };
}
