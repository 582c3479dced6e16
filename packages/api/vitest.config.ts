import { availableParallelism } from "node:os";
import { countedTests } from "@collectibles/devkit/vitest";
import { configDefaults, defineConfig } from "vitest/config";

// Every test file runs twice: once on PGlite and once on PostgreSQL (TEST_DATABASE_URL, which
// must be set: the postgres projects fail rather than skip without it). `--project 'pglite*'`
// runs only the embedded half. One exception, named below: /docs in a browser, on PGlite only.

/**
 * Files that measure how the service shares the machine (how far the relayer gets during a
 * burst): they run after the others, one at a time, so the test files beside them do not take
 * the cores they measure. Among three files at once on CI's two cores the burst test's relayer
 * minted 286 of the 300 claims it needs; alone it mints some 580.
 */
const ALONE = ["src/chain/relayerDuringBurst.test.ts"];

// The docs page in a browser reads no rows: a second Chromium on the other database would prove
// nothing more and compete for the two cores.
const PGLITE_ONLY = ["src/routes/docsInBrowser.test.ts"];

const databases = [
  { name: "pglite", globalSetup: "src/test/pgliteTemplate.setup.ts", skip: [] as string[] },
  { name: "postgres", globalSetup: "src/test/postgres.setup.ts", skip: PGLITE_ONLY },
];

// Each project names its own files: a project's `include` would add to a shared one.
const { include, ...reports } = countedTests("src/**/*.test.ts");

export default defineConfig({
  test: {
    ...reports,
    testTimeout: 30_000,
    // Files wait on databases as much as they compute: one more worker than cores keeps both
    // cores busy (vitest's default leaves one idle on a 2-core CI machine).
    maxWorkers: availableParallelism() + 1,
    // Test files share nothing but imported modules (each opens its own database and server),
    // so a worker keeps its module cache between files instead of re-importing the app.
    isolate: false,
    hookTimeout: 60_000,
    projects: databases.flatMap(({ name, globalSetup, skip }, index) => [
      {
        extends: true,
        test: {
          name,
          env: { TEST_DB_DRIVER: name },
          globalSetup: [globalSetup],
          include,
          exclude: [...configDefaults.exclude, ...skip, ...ALONE],
        },
      },
      {
        extends: true,
        test: {
          name: `${name} alone`,
          env: { TEST_DB_DRIVER: name },
          globalSetup: [globalSetup],
          include: ALONE,
          maxWorkers: 1,
          // After every file that runs in parallel, and after the other database's alone files.
          sequence: { groupOrder: index + 1 },
        },
      },
    ]),
  },
});
