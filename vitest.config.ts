import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "tools/**/*.test.ts"],
    testTimeout: 60_000,
    // A hang guard for beforeAll/afterAll (servers, stores, users with argon2 hashes), not a speed target:
    // vitest's 10 s default failed setups that were only slow on a busy machine (issue 29).
    hookTimeout: 120_000,
    // The JSON report lets .ci/run print the plain "N passed, N failed" line CI reads.
    reporters: ["default", ["json", { outputFile: "node_modules/.cache/vitest/results.json" }]],
  },
});
