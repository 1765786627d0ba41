import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from "react";

/**
 * The app's few pages live at real paths (/games/abc, /login), which the server answers with the app.
 * A tiny history router: a library would add more than these lines.
 */
export type Route =
  | { page: "lobby" }
  /** Issue 15: `/` for a signed-in user is «Мои игры» (with the lobby's open games below); `/lobby` always the lobby. */
  | { page: "allGames" }
  | { page: "settings" }
  | { page: "profile"; nick: string }
  | { page: "login" }
  | { page: "register" }
  | { page: "new" }
  | { page: "tools" }
  | { page: "game"; id: string; tab: string | null }
  /** Issue 18: the GM's notebooks for games kept on their own forum. */
  | { page: "notebooks" }
  | { page: "notebookNew" }
  | { page: "notebook"; id: string }
  /** A notebook its GM has published: the replay file, the seed checked, the corrections; public. */
  | { page: "notebookLog"; id: string }
  | { page: "notFound" };

export function parseRoute(path: string): Route {
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { page: "lobby" };
  if (parts.length === 1 && parts[0] === "lobby") return { page: "allGames" };
  if (parts.length === 1 && parts[0] === "settings") return { page: "settings" };
  if (parts[0] === "u" && parts[1] && parts.length === 2) return { page: "profile", nick: parts[1] };
  if (
    parts.length === 1 &&
    (parts[0] === "login" || parts[0] === "register" || parts[0] === "new" || parts[0] === "tools")
  )
    return { page: parts[0] };
  if (parts[0] === "notebooks" && parts.length === 1) return { page: "notebooks" };
  if (parts[0] === "notebooks" && parts[1] === "new" && parts.length === 2) return { page: "notebookNew" };
  if (parts[0] === "notebooks" && parts[1] && parts.length === 2) return { page: "notebook", id: parts[1] };
  if (parts[0] === "notebooks" && parts[1] && parts[2] === "log" && parts.length === 3)
    return { page: "notebookLog", id: parts[1] };
  if (parts[0] === "games" && parts[1] && parts.length <= 3)
    return { page: "game", id: parts[1], tab: parts[2] ?? null };
  return { page: "notFound" };
}

const listeners = new Set<() => void>();
window.addEventListener("popstate", () => listeners.forEach((l) => l()));

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  listeners.forEach((l) => l());
  window.scrollTo(0, 0);
}

export function useRoute(): Route {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const l = () => setPath(location.pathname);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return parseRoute(path);
}

/** A link that changes the page without reloading (and still opens in a new tab with a modifier). */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.href);
  };
  return <a {...props} onClick={onClick} />;
}
