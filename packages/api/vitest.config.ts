import { availableParallelism } from "node:os";
import { countedTests } from "@collectibles/devkit/vitest";
import { configDefaults, defineConfig } from "vitest/config";

// Every test file runs twice: once on PGlite and once on PostgreSQL (TEST_DATABASE_URL, which
// must be set: the postgres project fails rather than skips without it). `--project pglite`
// runs only the embedded half. One exception, named below: /docs in a browser, on PGlite only.
export default defineConfig({
  test: {
    ...countedTests("src/**/*.test.ts"),
    testTimeout: 30_000,
    // Files wait on databases as much as they compute: one more worker than cores keeps both
    // cores busy (vitest's default leaves one idle on a 2-core CI machine).
    maxWorkers: availableParallelism() + 1,
    // Test files share nothing but imported modules (each opens its own database and server),
    // so a worker keeps its module cache between files instead of re-importing the app.
    isolate: false,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "pglite",
          env: { TEST_DB_DRIVER: "pglite" },
          globalSetup: ["src/test/pgliteTemplate.setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          env: { TEST_DB_DRIVER: "postgres" },
          // The docs page in a browser reads no rows: a second Chromium on the other database
          // would prove nothing more and compete for the two cores.
          exclude: [...configDefaults.exclude, "src/routes/docsInBrowser.test.ts"],
          globalSetup: ["src/test/postgres.setup.ts"],
        },
      },
    ],
  },
});
