import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * How many runs a long property test makes (vitest.config.ts): "quick" in `npm test`'s fast loop (the
     * project "quick"), "full" in `npm run test:all` (the project "full", what CI runs). An explicit setting
     * of the project, never read from CI or the environment.
     */
    runs?: "quick" | "full";
  }
}

/** Whether this file runs its full count of runs (`npm run test:all`); false in the fast loop. */
export const fullRuns = (): boolean => inject("runs") === "full";
