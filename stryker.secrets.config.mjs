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
  mutate: [
    "packages/engine/src/events.ts",
    "packages/engine/src/view.ts",
    // The server's response builders and its audience check (who receives a feed entry, what a viewer may
    // see of the game): every function of both files.
    "packages/server/src/views.ts",
    "packages/server/src/seen.ts",
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
