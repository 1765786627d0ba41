import type { RouteContext } from "./context.ts";

/** Issue 15: the settings (GET and PUT /api/me/settings), the e-mail confirmation and unsubscribe links. */
export function settingsRoutes(ctx: RouteContext): void {
  void ctx;
}
