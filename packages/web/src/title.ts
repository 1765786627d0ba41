import { useEffect } from "react";

/**
 * Issue 15: the tab's title shows what is unread, «(3) Форумная мафия», so a player with the tab in the
 * background sees that something new came. `count` 0 (or null) shows the plain name.
 */
export function useUnreadTitle(appName: string, count: number | null): void {
  useEffect(() => {
    document.title = count ? `(${count}) ${appName}` : appName;
    return () => {
      document.title = appName;
    };
  }, [appName, count]);
}
