import type { RouteContext } from "./context.ts";

/** Issue 15: «Мои игры» (GET /api/me/games), read marks (PUT /api/games/:id/read), profiles. */
export function meRoutes(ctx: RouteContext): void {
  void ctx;
}
