// The tests `npm run mutate:secrets` runs against each mutant of the secret-keeping code
// (stryker.secrets.config.mjs; docs/testing.md, "Mutation testing of the secrets").
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The files in the order listed: the fast hand-made tests first, the random games after them. */
const FILES = [
  "packages/engine/test/secrets.test.ts",
  "packages/engine/test/view-fold.test.ts",
  "packages/server/test/secrets.test.ts",
  "packages/server/test/views-builders.test.ts",
  "packages/server/test/seen-folds.test.ts",
  "packages/server/test/seen-rules.test.ts",
  "packages/server/test/stream-audience.test.ts",
  "packages/server/test/detail-json.test.ts",
  "packages/server/test/my-games-secrets.test.ts",
  "packages/server/test/g5.test.ts",
  "packages/server/test/session-tag.test.ts",
  "packages/engine/test/views.test.ts",
  "packages/engine/test/audience.test.ts",
];

/**
 * Stryker stops a mutant's run at its first failing test (bail), so the quick tests run first: most
 * mutants are then killed in well under a second instead of after the random games.
 */
class ListedOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification): number => FILES.findIndex((x) => f.moduleId.endsWith(x));
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

/** A package's source file inside the sandbox. */
const source = (pkg: string, file: string): string =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

export default defineConfig({
  // The packages by their source here, not through node_modules' links, which point out of Stryker's
  // sandbox: the server's tests then run against the mutated engine too. Each entry of a package's
  // `exports` is named (issue 31: the server's own tests load `@forum-mafia/engine/bots` through the demo).
  resolve: {
    alias: [
      { find: /^@forum-mafia\/engine$/, replacement: source("engine", "index.ts") },
      { find: /^@forum-mafia\/engine\/bots$/, replacement: source("engine", "bots-entry.ts") },
      { find: /^@forum-mafia\/protocol$/, replacement: source("protocol", "index.ts") },
      {
        find: /^@forum-mafia\/protocol\/(acts|roles|setups|unread|stream)$/,
        replacement: source("protocol", "$1.ts"),
      },
      { find: /^@forum-mafia\/forum$/, replacement: source("forum", "index.ts") },
    ],
  },
  test: {
    include: FILES,
    sequence: { sequencer: ListedOrder },
    testTimeout: 60_000,
  },
});
