// Mutation testing of the secret-keeping code (docs/testing.md, "Mutation testing of the secrets"):
// `npm run mutate:secrets`. Stryker mutates a copy of the repository in .stryker-tmp (git-ignored) and
// runs only the tests in vitest.secrets.config.ts against each mutant.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.secrets.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  checkers: [],
  disableTypeChecks: true,
  coverageAnalysis: "perTest",
  concurrency: 2,
  // Everything that decides who may see what, and builds what a viewer is sent from it (docs/testing.md,
  // "Mutation testing of the secrets", says what is in and what is left out, and why).
  mutate: [
    // The engine's audiences and the views folded from them.
    "packages/engine/src/events.ts",
    "packages/engine/src/view.ts",
    // Who a user is in a game (the GM, a seat, the public) and the key of what is kept per viewer.
    "packages/server/src/views/viewer.ts",
    // Each viewer's Seen, and who receives a feed entry.
    "packages/server/src/views/seen.ts",
    // The channels a seat reads (S2, G8).
    "packages/server/src/views/channels.ts",
    // The response builders: the detail (views.ts), the live stream's items (StreamItems) and the two halves
    // (stream-items.ts), and the readouts they share: unread, the form, the count, the channels (readouts.ts).
    "packages/server/src/views/views.ts",
    "packages/server/src/views/stream-items.ts",
    "packages/server/src/views/readouts.ts",
    // «Мои игры»: a user's place, role and result (R3), unread and what the user owes.
    "packages/server/src/views/me-views.ts",
    // Issue 32: the session tag the service worker keeps a saved game under (never across sessions).
    "packages/server/src/http/session-tag.ts",
  ],
  // Only what the scoped tests load is copied into the sandbox (packages/web stays: tsconfig.json refers to it).
  ignorePatterns: [
    "/docs",
    "/.ci",
    "/data",
    "/coverage",
    "/test-output",
    "/bench-results",
    "/simulation",
    "/.notes",
  ],
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  timeoutMS: 30_000,
  reporters: ["progress", "clear-text", "json", "html"],
  jsonReporter: { fileName: "reports/mutation/secrets.json" },
  htmlReporter: { fileName: "reports/mutation/secrets.html" },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  thresholds: { high: 95, low: 90, break: null },
};
