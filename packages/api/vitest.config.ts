import { availableParallelism } from "node:os";
import { countedTests } from "@collectibles/devkit/vitest";
import { configDefaults, defineConfig } from "vitest/config";

// Every database test runs on PostgreSQL: TEST_DATABASE_URL's server, or one from npm that the
// run starts itself (src/test/postgres.setup.ts).

/**
 * Files that measure how the service shares the machine (how far the relayer gets during a
 * burst): they run after the others, one at a time, so the test files beside them do not take
 * the cores they measure. Among three files at once on CI's two cores the burst test's relayer
 * minted 286 of the 300 claims it needs; alone it mints some 580.
 */
const ALONE = ["src/chain/relayerDuringBurst.test.ts"];

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
    globalSetup: ["src/test/postgres.setup.ts"],
    projects: [
      {
        extends: true,
        test: { name: "api", include, exclude: [...configDefaults.exclude, ...ALONE] },
      },
      {
        extends: true,
        test: {
          name: "api alone",
          include: ALONE,
          maxWorkers: 1,
          // After every file that runs in parallel.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
